"""Pah-Tum Numba kernels: bitboards, scoring, evaluation, perft and the search.

A board side is a uint64 with bit `row*7 + col` set where it has a letter
(49 bits). Each side is also kept column-major (bit `col*7 + row`) so columns
score with the same 128-entry per-line table as rows. Scores are kept in
internal units of SCALE per point so the evaluation has fractional resolution.

One negamax serves both the heuristic search and the exact solver: a node
whose remaining depth covers every empty cell is searched to the end, so its
value is the exact final score difference. Every node is bounded by what the
sides already own (runs only grow) and what they could still own, which prunes
the endgame hard and keeps heuristic values inside the provable range.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

SIZE = 7
CELLS = 49
SCALE = 8  # internal units per point
INF = 1 << 24
MAX_PLY = 64

FULL = np.uint64((1 << CELLS) - 1)
M7 = np.uint64(127)
ONE = np.uint64(1)
ZERO = np.uint64(0)
BIT = np.array([1 << c for c in range(CELLS)], dtype=np.uint64)
CBIT = np.array([1 << ((c % SIZE) * SIZE + c // SIZE) for c in range(CELLS)], dtype=np.uint64)
SHIFT = np.array([SIZE * i for i in range(SIZE)], dtype=np.uint64)
RUN_POINTS = (0, 0, 0, 3, 10, 25, 56, 119)

# TT flags
EXACT, LOWER, UPPER = 1, 2, 3


def _line_points(mask: int) -> int:
    total, run = 0, 0
    for i in range(SIZE + 1):
        if i < SIZE and mask >> i & 1:
            run += 1
        else:
            total += RUN_POINTS[run]
            run = 0
    return total


def _expected_table(p: float) -> np.ndarray:
    """EXP[x << 7 | e]: expected line points of `x` if each empty of `e` becomes it with p."""
    table = np.zeros(128 * 128, dtype=np.int32)
    for e in range(128):
        cells = [i for i in range(SIZE) if e >> i & 1]
        for x in range(128):
            if x & e:
                continue
            acc = 0.0
            for sub in range(1 << len(cells)):
                fill, k = 0, 0
                for j, cell in enumerate(cells):
                    if sub >> j & 1:
                        fill |= 1 << cell
                        k += 1
                acc += p**k * (1 - p) ** (len(cells) - k) * _line_points(x | fill)
            table[x << 7 | e] = round(acc * SCALE)
    return table


RUN = np.array([_line_points(m) * SCALE for m in range(128)], dtype=np.int32)
# The expectation rewards open segments by how long they can still grow,
# exponentially like the scoring. Counting each empty as only 35% likely to
# become a side's letter (not a fair 50%) models that the opponent blocks:
# in depth-3 to 5 self-play p=0.35-0.4 beat p=0.5 by 15-0 (5 draws) over 20
# games, and 0.45, 0.6 and mixes with the current score did worse.
EXPECT_P = 0.35
EXPECT = _expected_table(EXPECT_P)


# ----- board basics -----------------------------------------------------------
@njit(nogil=True, cache=True)
def transpose(b: np.uint64) -> np.uint64:
    """The column-major copy of a row-major board."""
    out = ZERO
    for c in range(CELLS):
        if b & BIT[c]:
            out |= CBIT[c]
    return out


@njit(nogil=True, cache=True)
def popcount(b: np.uint64) -> int:
    n = 0
    while b:
        b &= b - ONE
        n += 1
    return n


@njit(nogil=True, cache=True)
def lowest(b: np.uint64) -> int:
    """Index of the lowest set bit (b != 0)."""
    return int(trailing_zeros(b))


@njit(nogil=True, cache=True)
def score_bits(b: np.uint64, c: np.uint64) -> int:
    """Points (in SCALE units) of a side given row-major `b` and column-major `c`."""
    s = 0
    for i in range(SIZE):
        s += RUN[(b >> SHIFT[i]) & M7] + RUN[(c >> SHIFT[i]) & M7]
    return s


@njit(nogil=True, cache=True)
def score(b: np.uint64) -> int:
    """Points of one side's letters (plain points, not SCALE units)."""
    return score_bits(b, transpose(b)) // SCALE


@njit(nogil=True, cache=True)
def legal_moves(xb: np.uint64, ob: np.uint64, blocks: np.uint64, out: np.ndarray) -> int:
    """Writes the empty cells in ascending order to `out`; returns their count."""
    e = ~(xb | ob | blocks) & FULL
    n = 0
    while e:
        c = lowest(e)
        out[n] = c
        n += 1
        e &= e - ONE
    return n


@njit(nogil=True, cache=True)
def evaluate(xb, ob, xc, oc, eb, ec, etab) -> int:
    """X minus O line values from `etab` (SCALE units), e.g. EXPECT: the points each side
    can expect if every empty were a coin toss."""
    v = 0
    for i in range(SIZE):
        s = SHIFT[i]
        re = (eb >> s) & M7
        v += etab[((xb >> s) & M7) << np.uint64(7) | re]
        v -= etab[((ob >> s) & M7) << np.uint64(7) | re]
        ce = (ec >> s) & M7
        v += etab[((xc >> s) & M7) << np.uint64(7) | ce]
        v -= etab[((oc >> s) & M7) << np.uint64(7) | ce]
    return v


# ----- perft ------------------------------------------------------------------
@njit(nogil=True, cache=True)
def _perft(mine: np.uint64, theirs: np.uint64, empty: np.uint64, ply: int, depth: int,
           counts: np.ndarray) -> None:
    if ply == depth:
        return
    e = empty
    while e:
        c = lowest(e)
        e &= e - ONE
        counts[ply] += 1
        _perft(theirs, mine | BIT[c], empty ^ BIT[c], ply + 1, depth, counts)


@njit(nogil=True, cache=True)
def perft(xb: np.uint64, ob: np.uint64, blocks: np.uint64, depth: int) -> np.ndarray:
    """Leaf counts for depths 1..depth (a full board ends the game)."""
    counts = np.zeros(depth, dtype=np.int64)
    empty = ~(xb | ob | blocks) & FULL
    if popcount(xb) == popcount(ob):
        _perft(xb, ob, empty, np.int64(0), depth, counts)
    else:
        _perft(ob, xb, empty, np.int64(0), depth, counts)
    return counts


# ----- transposition table ----------------------------------------------------
@njit(nogil=True, cache=True)
def tt_index(xb: np.uint64, ob: np.uint64, mask: np.uint64) -> int:
    h = xb * np.uint64(0x9E3779B97F4A7C15) ^ ob * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= h >> np.uint64(29)
    return int(h & mask)


def new_tt(bits: int = 20) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(keys X, keys O, values, meta) with meta = depth << 16 | flag << 8 | move + 1."""
    n = 1 << bits
    return (np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.int32),
            np.zeros(n, np.int32))


@njit(nogil=True, cache=True)
def tt_pv(xb: np.uint64, ob: np.uint64, blocks: np.uint64, tkx, tko, tval, tmeta,
          out: np.ndarray) -> int:
    """Follows best moves stored in the TT from this position; returns the PV length."""
    mask = np.uint64(len(tkx) - 1)
    n = 0
    side = popcount(xb) - popcount(ob)
    while n < len(out):
        i = tt_index(xb, ob, mask)
        if tkx[i] != xb or tko[i] != ob or tmeta[i] == 0:
            break
        mv = (tmeta[i] & 255) - 1
        if mv < 0 or (xb | ob | blocks) & BIT[mv]:
            break
        out[n] = mv
        n += 1
        if side == 0:
            xb |= BIT[mv]
        else:
            ob |= BIT[mv]
        side ^= 1
    return n


# ----- search -----------------------------------------------------------------
@njit(nogil=True, cache=True)
def _negamax(xb, ob, xc, oc, eb, ec, side, depth, alpha, beta, ply,
             tkx, tko, tval, tmeta, hist, killers, moves, stop, stop2, stats, etab) -> int:
    """Value for the side to move (SCALE units); exact when depth >= empties.

    Every argument type must match the recursive calls exactly: Numba's cache
    crashes on load when a recursive call needs a cast (numba issue 6713).
    """
    stats[0] += 1
    if (stats[0] & 2047) == 0 and (stop[0] != 0 or stop2[0] != 0):
        stats[1] = 1
    if stats[1] != 0:
        return 0
    sx = score_bits(xb, xc)
    so = score_bits(ob, oc)
    if eb == ZERO:
        return np.int64(sx - so if side == 0 else so - sx)
    hx = score_bits(xb | eb, xc | ec)
    ho = score_bits(ob | eb, oc | ec)
    if side == 0:
        lo, hi = sx - ho, hx - so
    else:
        lo, hi = so - hx, ho - sx
    if lo >= beta or lo == hi:
        return lo
    if hi <= alpha:
        return hi
    if alpha < lo:
        alpha = lo
    if beta > hi:
        beta = hi
    empties = popcount(eb)
    if depth > empties:
        depth = empties
    if depth <= 0:
        v = evaluate(xb, ob, xc, oc, eb, ec, etab)
        if side == 1:
            v = -v
        return min(max(v, lo), hi)

    mask = np.uint64(len(tkx) - 1)
    ti = tt_index(xb, ob, mask)
    tt_move = -1
    if tkx[ti] == xb and tko[ti] == ob and tmeta[ti] != 0:
        meta = tmeta[ti]
        tt_move = (meta & 255) - 1
        if (meta >> 16) >= depth:
            flag = (meta >> 8) & 255
            v = np.int64(tval[ti])
            if flag == EXACT:
                return v
            if flag == LOWER and v >= beta:
                return v
            if flag == UPPER and v <= alpha:
                return v

    # order: TT move, killers, then history
    n = 0
    e = eb
    k0 = killers[ply, 0]
    k1 = killers[ply, 1]
    while e:
        c = lowest(e)
        e &= e - ONE
        moves[ply, n] = c
        if c == tt_move:
            moves[ply, 64 + n] = 1 << 30
        elif c == k0:
            moves[ply, 64 + n] = 1 << 29
        elif c == k1:
            moves[ply, 64 + n] = 1 << 28
        else:
            moves[ply, 64 + n] = hist[side, c]
        n += 1

    alpha0 = alpha
    best = -INF
    best_move = -1
    for i in range(n):
        # selection sort step: cutoffs usually come early
        bi = i
        for j in range(i + 1, n):
            if moves[ply, 64 + j] > moves[ply, 64 + bi]:
                bi = j
        c = moves[ply, bi]
        moves[ply, bi] = moves[ply, i]
        moves[ply, i] = c
        sc = moves[ply, 64 + bi]
        moves[ply, 64 + bi] = moves[ply, 64 + i]
        moves[ply, 64 + i] = sc

        b = BIT[c]
        cb = CBIT[c]
        if side == 0:
            nx, nxc, no, noc = xb | b, xc | cb, ob, oc
        else:
            nx, nxc, no, noc = xb, xc, ob | b, oc | cb
        if i == 0:
            v = -_negamax(nx, no, nxc, noc, eb ^ b, ec ^ cb, 1 - side, depth - 1, -beta, -alpha,
                          ply + 1, tkx, tko, tval, tmeta, hist, killers, moves, stop, stop2,
                          stats, etab)
        else:
            v = -_negamax(nx, no, nxc, noc, eb ^ b, ec ^ cb, 1 - side, depth - 1, -alpha - 1,
                          -alpha, ply + 1, tkx, tko, tval, tmeta, hist, killers, moves, stop,
                          stop2, stats, etab)
            if alpha < v < beta:
                v = -_negamax(nx, no, nxc, noc, eb ^ b, ec ^ cb, 1 - side, depth - 1, -beta,
                              -alpha, ply + 1, tkx, tko, tval, tmeta, hist, killers, moves,
                              stop, stop2, stats, etab)
        if stats[1] != 0:
            return 0
        if v > best:
            best = v
            best_move = c
            if v > alpha:
                alpha = v
                if v >= beta:
                    hist[side, c] += depth * depth
                    if c != killers[ply, 0]:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = c
                    break

    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    else:
        flag = EXACT
    tkx[ti] = xb
    tko[ti] = ob
    tval[ti] = best
    tmeta[ti] = (depth << 16) | (flag << 8) | (best_move + 1)
    return best


@njit(nogil=True, cache=True)
def search_root(xb: np.uint64, ob: np.uint64, blocks: np.uint64, depth: int, alpha: int,
                beta: int, first: int, tkx, tko, tval, tmeta, hist, killers, stop, stop2,
                stats, root_scores: np.ndarray, etab: np.ndarray) -> tuple[int, int]:
    """One iteration at the root: (best move, value for the mover in SCALE units).

    `first` (previous best, or -1) is searched first. `root_scores[c]` gets each
    move's value (a bound for moves that failed low). `stats` = [nodes, aborted];
    when aborted the result must be ignored.
    """
    side = 0 if popcount(xb) == popcount(ob) else 1
    xc = transpose(xb)
    oc = transpose(ob)
    eb = ~(xb | ob | blocks) & FULL
    ec = transpose(eb)
    moves = np.zeros((MAX_PLY, 128), dtype=np.int64)
    ply1 = np.int64(1)  # not a literal: see _negamax
    root = np.zeros(CELLS, dtype=np.int64)
    keys = np.zeros(CELLS, dtype=np.int64)
    n = 0
    e = eb
    while e:
        c = lowest(e)
        e &= e - ONE
        root[n] = c
        keys[n] = (1 << 40) if c == first else hist[side, c]
        n += 1
    order = np.argsort(-keys[:n], kind="mergesort")
    best = -INF
    best_move = int(root[order[0]])
    a = alpha
    for i in range(n):
        c = int(root[order[i]])
        b = BIT[c]
        cb = CBIT[c]
        if side == 0:
            nx, nxc, no, noc = xb | b, xc | cb, ob, oc
        else:
            nx, nxc, no, noc = xb, xc, ob | b, oc | cb
        if i == 0:
            v = -_negamax(nx, no, nxc, noc, eb ^ b, ec ^ cb, 1 - side, depth - 1, -beta, -a, ply1,
                          tkx, tko, tval, tmeta, hist, killers, moves, stop, stop2, stats, etab)
        else:
            v = -_negamax(nx, no, nxc, noc, eb ^ b, ec ^ cb, 1 - side, depth - 1, -a - 1, -a, ply1,
                          tkx, tko, tval, tmeta, hist, killers, moves, stop, stop2, stats, etab)
            if a < v < beta:
                v = -_negamax(nx, no, nxc, noc, eb ^ b, ec ^ cb, 1 - side, depth - 1, -beta, -a,
                              ply1, tkx, tko, tval, tmeta, hist, killers, moves, stop, stop2,
                              stats, etab)
        if stats[1] != 0:
            return best_move, best
        root_scores[c] = v
        if v > best:
            best = v
            best_move = c
            if v > a:
                a = v
                if v >= beta:
                    break
    # store the root so the PV walk starts here
    mask = np.uint64(len(tkx) - 1)
    ti = tt_index(xb, ob, mask)
    d = min(depth, popcount(eb))
    flag = EXACT if alpha < best < beta else (LOWER if best >= beta else UPPER)
    tkx[ti] = xb
    tko[ti] = ob
    tval[ti] = best
    tmeta[ti] = (d << 16) | (flag << 8) | (best_move + 1)
    return best_move, best


@njit(nogil=True, cache=True)
def score_moves(xb: np.uint64, ob: np.uint64, blocks: np.uint64, depth: int, tkx, tko, tval,
                tmeta, hist, killers, stop, stop2, stats, out: np.ndarray,
                etab: np.ndarray) -> None:
    """Full-window value of every legal move (for noisy levels): out[cell] (SCALE units)."""
    side = 0 if popcount(xb) == popcount(ob) else 1
    xc = transpose(xb)
    oc = transpose(ob)
    eb = ~(xb | ob | blocks) & FULL
    ec = transpose(eb)
    moves = np.zeros((MAX_PLY, 128), dtype=np.int64)
    ply1 = np.int64(1)  # not literals: see _negamax
    lo = np.int64(-INF)
    hi = np.int64(INF)
    e = eb
    while e:
        c = lowest(e)
        e &= e - ONE
        b = BIT[c]
        cb = CBIT[c]
        if side == 0:
            nx, nxc, no, noc = xb | b, xc | cb, ob, oc
        else:
            nx, nxc, no, noc = xb, xc, ob | b, oc | cb
        out[c] = -_negamax(nx, no, nxc, noc, eb ^ b, ec ^ cb, 1 - side, depth - 1, lo, hi, ply1,
                           tkx, tko, tval, tmeta, hist, killers, moves, stop, stop2, stats, etab)
        if stats[1] != 0:
            return
