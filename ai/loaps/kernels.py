"""LOAPS board kernels: bitboards, line counts, the complete make, the rules' endings, perft.

A square is `8 * row + col` (row 0 is rank 7, as in `rules.loaps`; column 7 is
an always-empty pad, so a shift by one never wraps onto a real square). A
position is, for the side to move and the other side: two bitboards (`me`,
`opp`), the points of each (`pme`, `popp`), and the piece count of every line
kept incrementally in 4-bit fields of three words: rows at 4 * row and columns
at 32 + 4 * col in `c0`, diagonals (col - row + 6) in `c1`, anti-diagonals
(col + row) in `c2`. A move subtracts its from-square's fields and adds its
to-square's (unless it captured) with one per-square delta a word.

A move's target comes from a table indexed by square, line and the line's
count: for both directions of the line the target bit (0 when off the board)
and the mask of the squares passed over. A direction is legal when that mask
holds none of the other side's pieces and the target none of the mover's, so a
piece's targets are eight lookups, masks and ORs. Connection is a flood fill
by shifts. A move code is `from << 6 | to` (kernel squares).
"""

from __future__ import annotations

import numpy as np

from ai.bits import popcount
from ai.jit import entry, njit, trailing_zeros

ZERO = np.uint64(0)
ONE = np.uint64(1)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
F15 = np.uint64(15)
U1 = np.uint64(1)
U8 = np.uint64(8)
CONNECT_POINTS = 12
MOVE_LIMIT = 50

# the outcomes of a move (`judge`), from the mover's side
NOT_OVER, WIN, DRAW, LOSS = 0, 1, 2, 3
# how a move ended the game (`play_code`)
ENDS_NOT, ENDS_CONNECT, ENDS_CAPTURE_CONNECT, ENDS_MOVE_LIMIT, ENDS_NO_MOVES = 0, 1, 2, 3, 4


def kernel_square(sq: int) -> int:
    """The rules' square (row * 7 + col) as a kernel square (row * 8 + col)."""
    return 8 * (sq // 7) + sq % 7


def rules_square(k: int) -> int:
    return 7 * (k >> 3) + (k & 7)


BOARD = np.uint64(sum(1 << kernel_square(s) for s in range(49)))
BIT = np.array([1 << k for k in range(64)], dtype=np.uint64)
# landing points: d4 (row 3, col 3) 7; b2 b6 f2 f6 3
BONUS = np.zeros(64, dtype=np.int64)
BONUS[8 * 3 + 3] = 7
for _r, _c in ((1, 1), (1, 5), (5, 1), (5, 5)):
    BONUS[8 * _r + _c] = 3

# The four lines through a square as (row, col) steps, each walked both ways.
LINE_STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _count_fields() -> tuple[np.ndarray, np.ndarray]:
    """SH[k, line]: the bit offset of square k's count field for each line (in words 0, 0,
    1, 2); DELTA[k, word]: a 1 in each of square k's fields."""
    sh = np.zeros((64, 4), dtype=np.uint64)
    delta = np.zeros((64, 3), dtype=np.uint64)
    for r in range(7):
        for c in range(7):
            k = 8 * r + c
            offsets = (4 * r, 32 + 4 * c, 4 * (c - r + 6), 4 * (c + r))
            sh[k] = offsets
            delta[k, 0] = (1 << offsets[0]) | (1 << offsets[1])
            delta[k, 1] = 1 << offsets[2]
            delta[k, 2] = 1 << offsets[3]
    return sh, delta


SH, DELTA = _count_fields()


def _move_table() -> np.ndarray:
    """MT[((k * 4 + line) * 8 + count) * 4 + j]: for j = 0, 2 the target bit of the line's
    two directions when the line holds `count` pieces (0: off the board), for j = 1, 3 the
    squares passed over on the way."""
    mt = np.zeros(64 * 4 * 8 * 4, dtype=np.uint64)
    for r in range(7):
        for c in range(7):
            k = 8 * r + c
            for line, (dr, dc) in enumerate(LINE_STEPS):
                for n in range(1, 8):
                    for j, sign in ((0, 1), (2, -1)):
                        tr, tc = r + sign * n * dr, c + sign * n * dc
                        if not (0 <= tr < 7 and 0 <= tc < 7):
                            continue
                        path = 0
                        for i in range(1, n):
                            path |= 1 << (8 * (r + sign * i * dr) + c + sign * i * dc)
                        base = ((k * 4 + line) * 8 + n) * 4
                        mt[base + j] = 1 << (8 * tr + tc)
                        mt[base + j + 1] = path
    return mt


MT = _move_table()


# ----- bits ------------------------------------------------------------------------------


@njit(nogil=True, cache=True, inline="always")
def lowest(b):
    """The index of the lowest set bit of b (b != 0), as int64."""
    return np.int64(trailing_zeros(b))


@njit(nogil=True, cache=True, inline="always")
def connected(b):
    """Whether the pieces of b form one 8-connected group (b != 0): a flood fill from
    the lowest piece."""
    s = b & (ZERO - b)
    while True:
        x = s | (s << U1) | (s >> U1)
        x = (x | (x << U8) | (x >> U8)) & b
        if x == s:
            return s == b
        s = x


@njit(nogil=True, cache=True, inline="always")
def group_of(s, b):
    """The 8-connected group of b holding the pieces of s."""
    while True:
        x = s | (s << U1) | (s >> U1)
        x = (x | (x << U8) | (x >> U8)) & b
        if x == s:
            return s
        s = x


# ----- moves -----------------------------------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def targets(k, me, opp, c0, c1, c2):
    """The squares the mover's piece on k may move to, as a bitboard."""
    sh = SH[k]
    base = k * 128
    i0 = base + np.int64((c0 >> sh[0]) & F15) * 4
    i1 = base + 32 + np.int64((c0 >> sh[1]) & F15) * 4
    i2 = base + 64 + np.int64((c1 >> sh[2]) & F15) * 4
    i3 = base + 96 + np.int64((c2 >> sh[3]) & F15) * 4
    t = ZERO
    t |= MT[i0] if (MT[i0 + 1] & opp) == ZERO else ZERO
    t |= MT[i0 + 2] if (MT[i0 + 3] & opp) == ZERO else ZERO
    t |= MT[i1] if (MT[i1 + 1] & opp) == ZERO else ZERO
    t |= MT[i1 + 2] if (MT[i1 + 3] & opp) == ZERO else ZERO
    t |= MT[i2] if (MT[i2 + 1] & opp) == ZERO else ZERO
    t |= MT[i2 + 2] if (MT[i2 + 3] & opp) == ZERO else ZERO
    t |= MT[i3] if (MT[i3 + 1] & opp) == ZERO else ZERO
    t |= MT[i3 + 2] if (MT[i3 + 3] & opp) == ZERO else ZERO
    return t & ~me


@njit(nogil=True, cache=True, inline="always")
def has_move(me, opp, c0, c1, c2):
    """Whether the side to move has a legal move."""
    b = me
    while b != ZERO:
        k = lowest(b)
        b &= b - ONE
        if targets(k, me, opp, c0, c1, c2) != ZERO:
            return True
    return False


@njit(nogil=True, cache=True, inline="always")
def make(me, opp, c0, c1, c2, pme, popp, frm, tb):
    """The complete make of the move frm -> the bit tb: the child's (me, opp, c0, c1, c2,
    pme, popp) (sides swapped: the child's side to move is the other side) and whether it
    captured."""
    to = lowest(tb)
    capb = opp & tb
    keep = ZERO if capb != ZERO else ALL
    d_frm = DELTA[frm]
    d_to = DELTA[to]
    nc0 = c0 - d_frm[0] + (d_to[0] & keep)
    nc1 = c1 - d_frm[1] + (d_to[1] & keep)
    nc2 = c2 - d_frm[2] + (d_to[2] & keep)
    cap = capb != ZERO
    npopp = pme + BONUS[to] + (1 if cap else 0)
    return opp ^ capb, me ^ BIT[frm] ^ tb, nc0, nc1, nc2, popp, npopp, cap


@njit(nogil=True, cache=True)
def line_counts(occ):
    """(c0, c1, c2) of an occupancy bitboard, from scratch."""
    c0 = ZERO
    c1 = ZERO
    c2 = ZERO
    b = occ
    while b != ZERO:
        k = lowest(b)
        b &= b - ONE
        c0 += DELTA[k, 0]
        c1 += DELTA[k, 1]
        c2 += DELTA[k, 2]
    return c0, c1, c2


@njit(nogil=True, cache=True, inline="always")
def judge(mover, other, pmover, pother, cap, left):
    """The game after a move, for the mover: (NOT_OVER or WIN / DRAW / LOSS, how it ended).
    `mover`/`other` are the two sides' pieces and points after the move, `cap` whether it
    captured, `left` the plies left before the 50-move draw after it. The side to move
    being stuck is judged here only when it has no piece left (the search finds other
    stuck sides when it generates their moves)."""
    if connected(mover):
        d = pmover + CONNECT_POINTS - pother
        kind = np.int64(ENDS_CONNECT)  # (typed, not literal: the AOT compiler unifies none)
    elif cap and other != ZERO and connected(other):
        d = pmover - pother - CONNECT_POINTS
        kind = np.int64(ENDS_CAPTURE_CONNECT)
    elif left <= 0:
        return DRAW, ENDS_MOVE_LIMIT
    elif other == ZERO:
        return WIN, ENDS_NO_MOVES
    else:
        return NOT_OVER, ENDS_NOT
    if d > 0:
        return WIN, kind
    if d < 0:
        return LOSS, kind
    return DRAW, kind


# ----- the rules' interface (loading, tests, the safety net) -------------------------------
# A position as one uint64 array: me, opp, c0, c1, c2, pme, popp
P_ME, P_OPP, P_C0, P_C1, P_C2, P_PME, P_POPP = range(7)
PWORDS = 7


@entry
@njit(nogil=True, cache=True)
def load(mine, theirs, pme, popp, out):
    """Fill `out` (PWORDS uint64) with a position: the side to move's and the other side's
    pieces and points."""
    c0, c1, c2 = line_counts(mine | theirs)
    out[P_ME] = mine
    out[P_OPP] = theirs
    out[P_C0] = c0
    out[P_C1] = c1
    out[P_C2] = c2
    out[P_PME] = np.uint64(pme)
    out[P_POPP] = np.uint64(popp)


@njit(nogil=True, cache=True)
def legal_moves(pos, out):
    """The side to move's moves as codes from << 6 | to, in square order; returns how
    many (out needs room for 8 a piece)."""
    me = pos[P_ME]
    opp = pos[P_OPP]
    n = 0
    b = me
    while b != ZERO:
        k = lowest(b)
        b &= b - ONE
        t = targets(k, me, opp, pos[P_C0], pos[P_C1], pos[P_C2])
        while t != ZERO:
            out[n] = k << 6 | lowest(t)
            n += 1
            t &= t - ONE
    return n


@njit(nogil=True, cache=True)
def play_code(pos, code, left, out):
    """Play move `code` (legal) from `pos` into `out` (the child, sides swapped) with
    `left` plies left before the 50-move draw; returns (result for the mover, how it ended),
    judged completely as the rules do (a stuck side to move included)."""
    frm = np.int64(code >> 6)
    tb = BIT[code & 63]
    nme, nopp, c0, c1, c2, pme, popp, cap = make(
        pos[P_ME], pos[P_OPP], pos[P_C0], pos[P_C1], pos[P_C2], np.int64(pos[P_PME]),
        np.int64(pos[P_POPP]), frm, tb)
    out[P_ME] = nme
    out[P_OPP] = nopp
    out[P_C0] = c0
    out[P_C1] = c1
    out[P_C2] = c2
    out[P_PME] = np.uint64(pme)
    out[P_POPP] = np.uint64(popp)
    res, kind = judge(nopp, nme, popp, pme, cap, left - 1)
    if res == NOT_OVER and not has_move(nme, nopp, c0, c1, c2):
        return WIN, ENDS_NO_MOVES
    return res, kind


# ----- perft -----------------------------------------------------------------------------
@njit(nogil=True, cache=True, _nrt=False)  # allocates nothing: no reference counts
def _perft(me, opp, c0, c1, c2, pme, popp, ply, depth, left, counts):
    """Counts moves at plies ply.. below a position that is not over, with `left` plies
    left before the draw; returns a checksum of the made leaves (so they must be made)."""
    acc = ZERO
    if ply == depth - 1:  # the children are leaves: each made completely, in a loop
        n = 0
        b = me
        while b != ZERO:
            k = lowest(b)
            b &= b - ONE
            t = targets(k, me, opp, c0, c1, c2)
            while t != ZERO:
                tb = t & (ZERO - t)
                t ^= tb
                nme, nopp, nc0, nc1, nc2, npme, npopp, cap = make(me, opp, c0, c1, c2, pme,
                                                                  popp, k, tb)
                acc ^= (nme + nopp) ^ (nc0 + nc1) ^ nc2 ^ np.uint64(npme << 8 | npopp)
                n += 1
        counts[ply] += n
        return acc
    b = me
    while b != ZERO:
        k = lowest(b)
        b &= b - ONE
        t = targets(k, me, opp, c0, c1, c2)
        if left <= 1:  # every child is the 50-move draw: counted, not expanded
            counts[ply] += popcount(t)
            continue
        while t != ZERO:
            tb = t & (ZERO - t)
            t ^= tb
            nme, nopp, nc0, nc1, nc2, npme, npopp, cap = make(me, opp, c0, c1, c2, pme, popp,
                                                              k, tb)
            counts[ply] += 1
            if connected(nopp) or (cap and (nme == ZERO or connected(nme))):
                continue  # a connection ended the game
            acc ^= _perft(nme, nopp, nc0, nc1, nc2, npme, npopp, ply + 1, depth, left - 1,
                          counts)
    return acc


@entry
@njit(nogil=True, cache=True)
def perft(pos, depth, left):
    """Leaf counts for depths 1..depth from `pos` (not over), `left` plies before the
    50-move draw; every leaf made completely (bitboards, line counts, points)."""
    counts = np.zeros(depth, dtype=np.int64)
    if depth > 0:
        # ply as int64 (left - left), not a literal: one recursive specialisation
        _perft(pos[P_ME], pos[P_OPP], pos[P_C0], pos[P_C1], pos[P_C2], np.int64(pos[P_PME]),
               np.int64(pos[P_POPP]), left - left, depth, left, counts)
    return counts
