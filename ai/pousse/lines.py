"""Pousse kernels for any board up to 20x20: each row and each column as N-bit masks.

A position is one row `w` of a uint64 `stack` (the layout of `ai.pousse.bitboard`'s
interface, so the shared search can use either engine):

    w[0]            the Zobrist hash of the configuration (board and side to move)
    w[1]            X's straights minus O's, as the int64's bits
    w[2 + i]        row i, X's cells (bit c = column c)      w[22 + i]  row i, O's cells
    w[42 + i]       column i, X's cells (bit r = row r)      w[62 + i]  column i, O's cells

for i < N; the words of a block past N are scratch (make_s copies only the used ones).
Every cell is held twice (its row and its column), so a push is a shift of the
pushed line's two masks (a bit scan finds the stop cell) and one bit toggled in
the perpendicular line of each cell that changed; the hash and the straights
difference follow from those same cells, so a move costs only what it changes.
A move is m in 0..4N-1: kind m // N (L, R, T, B) on row/column m % N, the order
of `rules.pousse.Pousse.legal_moves`; L and T enter at bit 0, R and B at bit N-1.

The search's interface is copy-make (make_s writes the child into the next row);
perft works in place in one scratch row with make/unmake, which moves far fewer
words than copying the 2 + 4N-word state at every node.
"""

from __future__ import annotations

import numpy as np

from ai.bits import popcount
from ai.jit import entry, leading_zeros, njit, trailing_zeros
from ai.pousse.common import MAX_N, WORDS, repeats, threat_value

ZERO = np.uint64(0)
ONE = np.uint64(1)
TOP = np.uint64(63)
HASH, SDIFF, EVAL, THREATS = 0, 1, 2, 3
ROWS_X = 4  # then rows O (+MAX_N), columns X (+2 MAX_N), columns O (+3 MAX_N)
T_O = np.uint64(1 << 32)  # THREATS: X's threat lines + O's << 32
O_OFF = MAX_N  # a line's O mask sits MAX_N words after its X mask
COLS_X = ROWS_X + 2 * MAX_N
assert COLS_X + 2 * MAX_N == WORDS

# Zobrist keys per cell and colour from a fixed seed, laid out by line:
# ZT[((orient * 2 + colour) * MAX_N + line) * MAX_N + pos] is the key of the cell at
# position `pos` of row (orient 0) or column (orient 1) `line`: the same key twice,
# so a push's hash change is one lookup per changed cell of the pushed line.
# ZT[Z_SIDE] is the side-to-move key.
_rng = np.random.default_rng(0x11E5)
ZSQ = _rng.integers(1, 2**63, size=(2, MAX_N, MAX_N), dtype=np.int64).astype(np.uint64)
Z_SIDE = 4 * MAX_N * MAX_N
Z_O = MAX_N * MAX_N  # O's keys of a line follow X's by this much


def _zobrist_table() -> np.ndarray:
    zt = np.zeros(Z_SIDE + 1, dtype=np.uint64)
    for colour in range(2):
        for line in range(MAX_N):
            for pos in range(MAX_N):
                zt[((0 * 2 + colour) * MAX_N + line) * MAX_N + pos] = ZSQ[colour, line, pos]
                zt[((1 * 2 + colour) * MAX_N + line) * MAX_N + pos] = ZSQ[colour, pos, line]
    zt[Z_SIDE] = _rng.integers(1, 2**63, dtype=np.int64)
    return zt


ZT = _zobrist_table()
ZSIDE = ZT[Z_SIDE]

# geometry rows, per move m
G_LINE, G_PERP, G_ENTRY, G_END, G_HIGH, G_BIT, G_Z, G_FULL = range(8)


def geometry(n: int) -> np.ndarray:
    """Per move m: [word of the line's X mask, word of the perpendicular lines' X masks,
    entry bit, far-end bit (the stop cell of a full line), 1 if the entry is the high bit
    (R, B), the line's bit in a perpendicular line, the line's ZT base for X, N-bit mask].
    Tables, not m // N: a division per move costs more than the push."""
    g = np.zeros((8, 4 * n), dtype=np.uint64)
    for m in range(4 * n):
        kind, i = divmod(m, n)
        orient = kind >> 1
        high = kind & 1
        g[G_LINE, m] = (COLS_X if orient else ROWS_X) + i
        g[G_PERP, m] = ROWS_X if orient else COLS_X
        g[G_ENTRY, m] = 1 << (n - 1) if high else 1
        g[G_END, m] = 1 if high else 1 << (n - 1)
        g[G_HIGH, m] = high
        g[G_BIT, m] = 1 << i
        g[G_Z, m] = (orient * 2 * MAX_N + i) * MAX_N
        g[G_FULL, m] = (1 << n) - 1
    return g


# ----- the move, in place -------------------------------------------------------------
@njit(nogil=True, cache=True)
def line_eval(x, o, n):
    """One line's part of the evaluation from X's side (`common.line_term`: it changes
    sign with the sides) and its threat lines as a THREATS increment."""
    a = popcount(x)
    b = popcount(o)
    e = a * a * (2 if b == 0 else 1) - b * b * (2 if a == 0 else 1)
    if b == 0 and a == n - 1:
        return e, ONE
    if a == 0 and b == n - 1:
        return e, T_O
    return e, ZERO


@njit(nogil=True, cache=True, inline="always")
def make_ip(w, h, s, m, side, g, zt, n, with_eval):
    """Move m by `side` on the masks of row w in place, from hash h and straights
    difference s (int64). Returns (old X, old O masks of the line, changed X cells,
    changed O cells, new hash, new difference, whether a marker was added); the first
    four are what unmake_ip needs. With `with_eval` (a constant where it is inlined) the
    row's EVAL and THREATS words follow the changed lines too (see line_eval)."""
    li = np.int64(g[G_LINE, m])
    x = w[li]
    o = w[li + O_OFF]
    full = g[G_FULL, m]
    emp = full & ~(x | o)
    u = emp | g[G_END, m]
    if g[G_HIGH, m] == ZERO:  # L, T: the entry is bit 0, markers move up
        stop = u & (~u + ONE)
        seg = (stop << ONE) - ONE
        mv = seg ^ stop
        nx = (x & ~seg) | ((x & mv) << ONE)
        no = (o & ~seg) | ((o & mv) << ONE)
    else:  # R, B: the entry is bit N-1, markers move down
        stop = ONE << (TOP - leading_zeros(u))
        seg = full & (~stop + ONE)
        mv = seg ^ stop
        nx = (x & ~seg) | ((x & mv) >> ONE)
        no = (o & ~seg) | ((o & mv) >> ONE)
    if side == 0:
        nx |= g[G_ENTRY, m]
    else:
        no |= g[G_ENTRY, m]
    w[li] = nx
    w[li + O_OFF] = no
    if with_eval:
        e, th = line_eval(nx, no, n)
        e0, th0 = line_eval(x, o, n)
        ev = np.int64(w[EVAL]) + e - e0
        thr = w[THREATS] + th - th0
    dx = nx ^ x
    do = no ^ o
    s += (np.int64(nx == full) - np.int64(x == full)) - (np.int64(no == full)
                                                          - np.int64(o == full))
    h ^= ZSIDE
    bit = g[G_BIT, m]
    px = np.int64(g[G_PERP, m])
    zx = np.int64(g[G_Z, m])
    b = dx
    while b != ZERO:
        c = np.int64(trailing_zeros(b))
        b &= b - ONE
        a = w[px + c]
        na = a ^ bit
        w[px + c] = na
        s += np.int64(na == full) - np.int64(a == full)
        h ^= zt[zx + c]
        if with_eval:
            b_o = w[px + O_OFF + c]
            e, th = line_eval(na, b_o, n)
            e0, th0 = line_eval(a, b_o, n)
            ev += e - e0
            thr += th - th0
    po = px + O_OFF
    zo = zx + Z_O
    b = do
    while b != ZERO:
        c = np.int64(trailing_zeros(b))
        b &= b - ONE
        a = w[po + c]
        na = a ^ bit
        w[po + c] = na
        s -= np.int64(na == full) - np.int64(a == full)
        h ^= zt[zo + c]
        if with_eval:
            b_x = w[px + c]
            e, th = line_eval(b_x, na, n)
            e0, th0 = line_eval(b_x, a, n)
            ev += e - e0
            thr += th - th0
    if with_eval:
        w[EVAL] = np.uint64(ev)
        w[THREATS] = thr
    return x, o, dx, do, h, s, emp != ZERO


@njit(nogil=True, cache=True, inline="always")
def unmake_ip(w, m, g, x, o, dx, do):
    """Undo make_ip(m) on the masks of w given its first four results."""
    li = np.int64(g[G_LINE, m])
    w[li] = x
    w[li + O_OFF] = o
    bit = g[G_BIT, m]
    px = np.int64(g[G_PERP, m])
    b = dx
    while b != ZERO:
        w[px + np.int64(trailing_zeros(b))] ^= bit
        b &= b - ONE
    po = px + O_OFF
    b = do
    while b != ZERO:
        w[po + np.int64(trailing_zeros(b))] ^= bit
        b &= b - ONE


# ----- perft --------------------------------------------------------------------------
@njit(nogil=True, cache=True, _nrt=False)  # allocates nothing: no reference counts
def _perft(w, h, s, side, n, g, zt, path_h, t, irr, ply, depth, counts):
    nm = 4 * n
    acc = ZERO
    if ply == depth - 1:  # the leaves: made with hash and straights, then unmade, in a loop
        for m in range(nm):
            x, o, dx, do, nh, ns, added = make_ip(w, h, s, m, side, g, zt, n, False)
            acc ^= nh ^ np.uint64(ns)
            unmake_ip(w, m, g, x, o, dx, do)
        counts[ply] += nm
        return acc
    for m in range(nm):
        x, o, dx, do, nh, ns, added = make_ip(w, h, s, m, side, g, zt, n, False)
        counts[ply] += 1
        irr2 = t + 1 if added else irr
        if ns == 0 and not repeats(nh, path_h, t + 1, irr2):
            path_h[t + 1] = nh
            acc ^= _perft(w, nh, ns, 1 - side, n, g, zt, path_h, t + 1, irr2, ply + 1, depth,
                          counts)
        unmake_ip(w, m, g, x, o, dx, do)
    return acc


@entry
@njit(nogil=True, cache=True)
def perft_s(stack, n, side, g, zt, path_h, t, irr, depth):
    """Leaf counts for depths 1..depth from stack[0], configuration t of the path (every
    leaf made with its hash and straights). Works on a copy of stack[0]."""
    counts = np.zeros(depth, dtype=np.int64)
    if depth > 0:
        w = stack[0].copy()
        # ply as int64 (t - t), not a literal: one recursive specialisation (numba 6713)
        _perft(w, w[HASH], np.int64(w[SDIFF]), side, n, g, zt, path_h, t, irr, t - t, depth,
               counts)
    return counts


# ----- the search's interface: one position per stack row ------------------------------
@njit(nogil=True, cache=True)
def make_s(stack, ply, m, n, side, g, zt):
    """Write the child of stack[ply] after move m by `side` to stack[ply + 1]; returns
    whether a marker was added."""
    src = stack[ply]
    w = stack[ply + 1]
    w[EVAL] = src[EVAL]
    w[THREATS] = src[THREATS]
    for k in range(n):  # only the used words of each mask block
        w[ROWS_X + k] = src[ROWS_X + k]
        w[ROWS_X + O_OFF + k] = src[ROWS_X + O_OFF + k]
        w[COLS_X + k] = src[COLS_X + k]
        w[COLS_X + O_OFF + k] = src[COLS_X + O_OFF + k]
    x, o, dx, do, h, s, added = make_ip(w, src[HASH], np.int64(src[SDIFF]), m, side, g, zt,
                                        n, True)
    w[HASH] = h
    w[SDIFF] = np.uint64(s)
    return added


@njit(nogil=True, cache=True, inline="always")
def straight_diff_s(stack, ply, n, g):
    """X's straights minus O's at stack[ply] (kept in the row)."""
    return np.int64(stack[ply, SDIFF])


@njit(nogil=True, cache=True)
def counts_s(stack, ply, n, side, g, lc):
    """lc[0, line] / lc[1, line]: the markers of `side` / of the other side per line
    (rows 0..N-1, then columns N..2N-1) at stack[ply]."""
    mine = side * O_OFF
    theirs = O_OFF - mine
    for i in range(n):
        lc[0, i] = popcount(stack[ply, ROWS_X + mine + i])
        lc[1, i] = popcount(stack[ply, ROWS_X + theirs + i])
        lc[0, n + i] = popcount(stack[ply, COLS_X + mine + i])
        lc[1, n + i] = popcount(stack[ply, COLS_X + theirs + i])


@njit(nogil=True, cache=True)
def evaluate_s(stack, ply, n, side, g):
    """`common.evaluate_counts` of the position at stack[ply], from the row's running
    EVAL and THREATS (kept by make_s for the lines a move changes)."""
    e = np.int64(stack[ply, EVAL])
    threats = stack[ply, THREATS]
    mine = np.int64(threats & np.uint64(0xFFFFFFFF))
    theirs = np.int64(threats >> np.uint64(32))
    if side == 1:
        e = -e
        mine, theirs = theirs, mine
    return threat_value(e, -1 if mine > 0 else theirs)


@entry
@njit(nogil=True, cache=True)
def load_s(cells, n, side, g, stack):
    """stack[0] from a board (int8[N*N] row-major, 0 empty, 1 X, 2 O) with `side` to move."""
    w = stack[0]
    w[:] = ZERO
    h = ZSIDE if side == 1 else ZERO
    for r in range(n):
        for c in range(n):
            v = cells[r * n + c]
            if v != 0:
                off = (v - 1) * O_OFF
                w[ROWS_X + off + r] |= ONE << np.uint64(c)
                w[COLS_X + off + c] |= ONE << np.uint64(r)
                h ^= ZSQ[v - 1, r, c]
    full = (ONE << np.uint64(n)) - ONE
    s = 0
    for i in range(n):
        for base in (ROWS_X, COLS_X):
            if w[base + i] == full:
                s += 1
            if w[base + O_OFF + i] == full:
                s -= 1
    ev = 0
    thr = ZERO
    for i in range(n):
        for base in (ROWS_X, COLS_X):
            e, th = line_eval(w[base + i], w[base + O_OFF + i], n)
            ev += e
            thr += th
    w[HASH] = h
    w[SDIFF] = np.uint64(s)
    w[EVAL] = np.uint64(ev)
    w[THREATS] = thr


@njit(nogil=True, cache=True)
def cells_s(stack, ply, n, out):
    """The board at stack[ply] as int8[N*N] (0 empty, 1 X, 2 O): for tests and display."""
    for r in range(n):
        xr = stack[ply, ROWS_X + r]
        orow = stack[ply, ROWS_X + O_OFF + r]
        for c in range(n):
            b = ONE << np.uint64(c)
            out[r * n + c] = 1 if xr & b else (2 if orow & b else 0)
