"""Pousse kernels for boards up to 8x8: two uint64 bitboards, copy-make, PVS search.

Square `8*row + col`. A position is (x, o, h): X's markers, O's markers and the
Zobrist hash of the configuration (board and side to move). A move is m in
0..4N-1: kind m // N (L, R, T, B) on row/column m % N, the order of
`rules.pousse.Pousse.legal_moves`. A push finds its stop cell (the first empty
cell from the entry, or the far end when the line is full) with one bit scan,
shifts the cells before it one step with a mask, and updates the hash from the
changed cells of that one line (a byte of the row, or the column gathered into a
byte by one multiplication).

Repetition: `path_h[i]` is the hash of the game's configuration i and the search
line after it; `irr` is the first index with the current marker count. The count
never falls, so only configurations from `irr` on (of the same side) can recur.
The copy-make state is three words, so nothing is undone.
"""

from __future__ import annotations

import numpy as np

from ai.bits import popcount
from ai.jit import entry, leading_zeros, njit, trailing_zeros
from ai.pousse.common import line_term, repeats, threat_value

MAX_BB = 8
ZERO = np.uint64(0)
ONE = np.uint64(1)
TWO = np.uint64(2)
EIGHT = np.uint64(8)
O_TABLES = np.uint64(8)  # O's Zobrist tables follow X's
BYTE = np.uint64(0xFF)
COL0 = np.uint64(0x0101010101010101)  # column 0 of every row
GATHER = np.uint64(0x0102040810204080)  # ((b & COL0) * GATHER) >> 56: bit 8r -> bit r
SHIFT56 = np.uint64(56)

# Zobrist keys per cell and colour from a fixed seed; ZT[(rc * 2 + colour) * 8 + i, b] is
# the key of the cells of byte b on row i (rc 0) or column i (rc 1), so a push's hash
# change is two lookups: the changed cells of X and of O on its line. (Two-dimensional:
# the search tells the engines apart by their tables' types, see ai.pousse.search.)
_rng = np.random.default_rng(0xB0A7D)
ZSQ = _rng.integers(1, 2**63, size=(2, 8, 8), dtype=np.int64).astype(np.uint64)
ZSIDE = np.uint64(_rng.integers(1, 2**63, dtype=np.int64))


def _zobrist_tables() -> np.ndarray:
    zt = np.zeros((2 * 2 * 8, 256), dtype=np.uint64)
    for colour in range(2):
        for i in range(8):
            for b in range(256):
                zr = zc = 0
                for j in range(8):
                    if b >> j & 1:
                        zr ^= int(ZSQ[colour, i, j])
                        zc ^= int(ZSQ[colour, j, i])
                zt[(0 * 2 + colour) * 8 + i, b] = zr
                zt[(1 * 2 + colour) * 8 + i, b] = zc
    return zt


ZT = _zobrist_tables()


def geometry(n: int) -> np.ndarray:
    """Per move m: [line mask, far-end cell, entry cell, kind, shift to the line's byte,
    the line's Zobrist table base]; row 6 holds (rows, columns) selectors: bit 8r for each
    row r < N, and bit c for each column c < N. Tables, not m // N: a division per move
    costs more than the whole push."""
    g = np.zeros((7, 4 * n), dtype=np.uint64)
    for i in range(n):
        row = sum(1 << (8 * i + j) for j in range(n))
        col = sum(1 << (8 * j + i) for j in range(n))
        for kind, (line, start, end) in enumerate((
                (row, 8 * i, 8 * i + n - 1), (row, 8 * i + n - 1, 8 * i),
                (col, i, 8 * (n - 1) + i), (col, 8 * (n - 1) + i, i))):
            m = kind * n + i
            g[0, m] = line
            g[1, m] = 1 << end
            g[2, m] = 1 << start
            g[3, m] = kind
            g[4, m] = 8 * i if kind < 2 else i
            g[5, m] = (0 if kind < 2 else 16) + i
    g[6, 0] = sum(1 << (8 * r) for r in range(n))
    g[6, 1] = sum(1 << c for c in range(n))
    return g


# ----- the position -------------------------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def make(x, o, h, m, side, g, zt):
    """Move m by `side` (0 X, 1 O) from (x, o, h): (x, o, h, whether a marker was added:
    the line had an empty cell, so none was pushed off)."""
    kind = g[3, m]
    line = g[0, m]
    emp = line & ~(x | o)
    u = emp | g[1, m]
    if kind == ZERO or kind == TWO:  # entry at the low end: shift towards higher bits
        sh = ONE if kind == ZERO else EIGHT
        stop = u & (~u + ONE)
        seg = line & ((stop << ONE) - ONE)
        mv = seg ^ stop
        nx = (x & ~seg) | ((x & mv) << sh)
        no = (o & ~seg) | ((o & mv) << sh)
    else:
        sh = ONE if kind == ONE else EIGHT
        stop = ONE << (np.uint64(63) - leading_zeros(u))
        seg = line & (~stop + ONE)
        mv = seg ^ stop
        nx = (x & ~seg) | ((x & mv) >> sh)
        no = (o & ~seg) | ((o & mv) >> sh)
    if side == 0:
        nx |= g[2, m]
    else:
        no |= g[2, m]
    s = g[4, m]
    if kind < TWO:  # a row: its byte
        bx = ((nx ^ x) >> s) & BYTE
        bo = ((no ^ o) >> s) & BYTE
    else:  # a column, gathered into a byte
        bx = ((((nx ^ x) >> s) & COL0) * GATHER) >> SHIFT56
        bo = ((((no ^ o) >> s) & COL0) * GATHER) >> SHIFT56
    base = g[5, m]
    h ^= zt[base, bx] ^ zt[O_TABLES + base, bo] ^ ZSIDE
    return nx, no, h, emp != ZERO


@njit(nogil=True, cache=True)
def straights(b, n, g):
    """Full rows plus full columns of one colour's markers."""
    r = b & (b >> ONE)
    r &= r >> np.uint64(2)
    r &= r >> np.uint64(n - 4)
    c = b & (b >> EIGHT)
    c &= c >> np.uint64(16)
    c &= c >> np.uint64(8 * (n - 4))
    r &= g[6, 0]
    c &= g[6, 1]
    if (r | c) == ZERO:
        return np.int64(0)
    return popcount(r) + popcount(c)


@njit(nogil=True, cache=True)
def start_hash(x, o, side):
    """The Zobrist hash of a board with `side` to move."""
    h = ZSIDE if side == 1 else ZERO
    for colour in range(2):
        b = x if colour == 0 else o
        while b != ZERO:
            sq = np.int64(trailing_zeros(b))
            b &= b - ONE
            h ^= ZSQ[colour, sq >> 3, sq & 7]
    return h


# ----- perft --------------------------------------------------------------------------
@njit(nogil=True, cache=True, _nrt=False)  # allocates nothing: no reference counts
def _perft(x, o, h, side, n, g, zt, path_h, t, irr, ply, depth, counts):
    nm = 4 * n
    if ply == depth - 1:  # the leaves: made with their hash, in a loop
        acc = ZERO
        for m in range(nm):
            nx, no, nh, added = make(x, o, h, m, side, g, zt)
            acc ^= nx ^ no ^ nh
        counts[ply] += nm
        return acc
    acc = ZERO
    for m in range(nm):
        nx, no, nh, added = make(x, o, h, m, side, g, zt)
        counts[ply] += 1
        irr2 = t + 1 if added else irr
        # expanded only if the move did not end the game (by straights, or by repetition)
        if straights(nx, n, g) == straights(no, n, g) and not repeats(nh, path_h, t + 1, irr2):
            path_h[t + 1] = nh
            acc ^= _perft(nx, no, nh, 1 - side, n, g, zt, path_h, t + 1, irr2, ply + 1, depth,
                          counts)
    return acc


@entry
@njit(nogil=True, cache=True)
def perft_s(stack, n, side, g, zt, path_h, t, irr, depth):
    """Leaf counts for depths 1..depth from stack[0], configuration t of the path (every
    leaf made with its hash)."""
    counts = np.zeros(depth, dtype=np.int64)
    if depth > 0:
        # ply as int64 (t - t), not a literal: one recursive specialisation (numba 6713)
        _perft(stack[0, 1], stack[0, 2], stack[0, 0], side, n, g, zt, path_h, t, irr, t - t,
               depth, counts)
    return counts


# ----- the search's interface: one position per stack row [h, x, o] ----------------------
@njit(nogil=True, cache=True, inline="always")
def make_s(stack, ply, m, n, side, g, zt):
    """Write the child of stack[ply] after move m by `side` to stack[ply + 1]; returns
    whether a marker was added."""
    x, o, h, added = make(stack[ply, 1], stack[ply, 2], stack[ply, 0], m, side, g, zt)
    stack[ply + 1, 0] = h
    stack[ply + 1, 1] = x
    stack[ply + 1, 2] = o
    return added


@njit(nogil=True, cache=True, inline="always")
def straight_diff_s(stack, ply, n, g):
    """X's straights minus O's at stack[ply]."""
    return straights(stack[ply, 1], n, g) - straights(stack[ply, 2], n, g)


@njit(nogil=True, cache=True)
def counts_s(stack, ply, n, side, g, lc):
    """lc[0, line] / lc[1, line]: the markers of `side` / of the other side per line
    (rows 0..N-1, then columns N..2N-1) at stack[ply]."""
    mine = stack[ply, 1 + side]
    theirs = stack[ply, 2 - side]
    for i in range(n):
        s = EIGHT * np.uint64(i)
        lc[0, i] = popcount((mine >> s) & BYTE)
        lc[1, i] = popcount((theirs >> s) & BYTE)
        c = np.uint64(i)
        lc[0, n + i] = popcount((mine >> c) & COL0)
        lc[1, n + i] = popcount((theirs >> c) & COL0)


@njit(nogil=True, cache=True)
def evaluate_s(stack, ply, n, side, g):
    """`common.evaluate_counts` of the position at stack[ply], without the counts array."""
    mine = stack[ply, 1 + side]
    theirs = stack[ply, 2 - side]
    e = 0
    threats = 0
    for i in range(n):
        s = EIGHT * np.uint64(i)
        e, threats = line_term(popcount((mine >> s) & BYTE), popcount((theirs >> s) & BYTE), n,
                               e, threats)
        c = np.uint64(i)
        e, threats = line_term(popcount((mine >> c) & COL0), popcount((theirs >> c) & COL0), n,
                               e, threats)
    return threat_value(e, threats)


@entry
@njit(nogil=True, cache=True)
def load_s(cells, n, side, g, stack):
    """stack[0] from a board (int8[N*N] row-major, 0 empty, 1 X, 2 O) with `side` to move."""
    x = ZERO
    o = ZERO
    for r in range(n):
        for c in range(n):
            v = cells[r * n + c]
            if v == 1:
                x |= ONE << np.uint64(8 * r + c)
            elif v == 2:
                o |= ONE << np.uint64(8 * r + c)
    stack[0, 0] = start_hash(x, o, side)
    stack[0, 1] = x
    stack[0, 2] = o


@njit(nogil=True, cache=True)
def cells_s(stack, ply, n, out):
    """The board at stack[ply] as int8[N*N] (0 empty, 1 X, 2 O): for tests and display."""
    for r in range(n):
        for c in range(n):
            b = ONE << np.uint64(8 * r + c)
            out[r * n + c] = 1 if stack[ply, 1] & b else (2 if stack[ply, 2] & b else 0)
