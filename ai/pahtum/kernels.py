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

Speed (about 5x the first kernels, measured with `arena bench pahtum`):
- a move changes one row and one column, so the search carries the four bound
  scores (each side's points now, and if every empty cell became its letter)
  and the evaluation's change, each from a few table lookups (`gain`,
  `eval_change`) instead of scoring 14 lines four times;
- the search is a loop over explicit frames, not recursion, and no helper it
  calls takes an array: Numba counts references on every array argument of a
  call with atomic instructions, which cost more than a leaf;
- the last ply is a loop in its parent, and the endgame's last 6 plies are
  solved without the tables (`_solve`);
- the transposition table is one array, a bucket of two entries in one cache
  line, and children's entries are prefetched while their siblings are
  searched (the TT probe's cache miss was most of a node's time);
- every array the search writes is allocated once by the adapter.
"""

from __future__ import annotations

import numpy as np

from ai.jit import entry, njit, prefetch, trailing_zeros
from ai.jit import popcount as _ctpop

SIZE = 7
CELLS = 49
SCALE = 8  # internal units per point
INF = 1 << 24
MAX_PLY = 64
MOVES = 64  # move slots per ply in the move arrays

FULL = np.uint64((1 << CELLS) - 1)
M7 = np.uint64(127)
ONE = np.uint64(1)
ZERO = np.uint64(0)
U2 = np.uint64(2)
U3 = np.uint64(3)
U7 = np.uint64(7)
BIT = np.array([1 << c for c in range(CELLS)], dtype=np.uint64)
CBIT = np.array([1 << ((c % SIZE) * SIZE + c // SIZE) for c in range(CELLS)], dtype=np.uint64)
SHIFT = np.array([SIZE * i for i in range(SIZE)], dtype=np.uint64)
# per cell: the shift of its row in a row-major board and of its column in a
# column-major one, and its bit inside the row (its column) and inside the column (its row)
ROW_SHIFT = np.array([SIZE * (c // SIZE) for c in range(CELLS)], dtype=np.uint64)
COL_SHIFT = np.array([SIZE * (c % SIZE) for c in range(CELLS)], dtype=np.uint64)
IN_ROW = np.array([c % SIZE for c in range(CELLS)], dtype=np.uint64)
IN_COL = np.array([c // SIZE for c in range(CELLS)], dtype=np.uint64)
RUN_POINTS = (0, 0, 0, 3, 10, 25, 56, 119)

# TT flags
EXACT, LOWER, UPPER = 1, 2, 3
# A TT entry is two words: X's board | value << 49, and O's board | data << 49 with
# data = depth << 8 | flag << 6 | (move + 1). Values fit 15 bits: |score difference| <=
# 14 lines * 119 points * SCALE = 13328 < VALUE_BIAS.
VALUE_BIAS = 1 << 14
TOP = np.uint64(49)


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
    """EXP[x << 7 | e]: expected line points of `x` if each empty of `e` becomes it with p.

    Vectorised over the lines `x` (a contest move imports this module: the loops took
    12 ms of its start-up): every (e, fill) pair with fill a subset of e, its chance, and
    the points of x | fill for every x at once."""
    masks = np.arange(128)
    points = np.array([_line_points(m) for m in range(128)], dtype=np.float64)
    pairs = [(e, fill) for e in range(128) for fill in range(128) if fill & ~e == 0]
    es = np.array([e for e, _ in pairs])
    fills = np.array([f for _, f in pairs])
    ks = np.array([f.bit_count() for f in fills.tolist()])
    ns = np.array([e.bit_count() for e in es.tolist()])
    chance = p**ks * (1 - p) ** (ns - ks)
    by_e = np.zeros((128, 128))  # [e, x]
    np.add.at(by_e, es, chance[:, None] * points[masks[None, :] | fills[:, None]])
    acc = by_e.T  # [x, e]
    table = np.zeros(128 * 128, dtype=np.int32)
    for x in range(128):
        free = (masks & x) == 0  # the empties e that do not overlap x
        table[(x << 7) | masks[free]] = np.round(acc[x, free] * SCALE).astype(np.int32)
    return table


RUN = np.array([_line_points(m) * SCALE for m in range(128)], dtype=np.int32)
# ADD[m << 3 | i]: what adding bit i to line mask m (bit i clear) adds to the line's points
ADD = np.zeros(128 * 8, dtype=np.int32)
for _m in range(128):
    for _i in range(SIZE):
        if not _m >> _i & 1:
            ADD[_m << 3 | _i] = RUN[_m | 1 << _i] - RUN[_m]
# The expectation rewards open segments by how long they can still grow,
# exponentially like the scoring. Counting each empty as only 35% likely to
# become a side's letter (not a fair 50%) models that the opponent blocks:
# in depth-3 to 5 self-play p=0.35-0.4 beat p=0.5 by 15-0 (5 draws) over 20
# games, and 0.45, 0.6 and mixes with the current score did worse.
EXPECT_P = 0.35
# int16 (values <= 119 * SCALE): half the cache footprint of int32
EXPECT = _expected_table(EXPECT_P).astype(np.int16)


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
    return _ctpop(np.uint64(b))


@njit(nogil=True, cache=True)
def lowest(b: np.uint64) -> int:
    """Index of the lowest set bit (b != 0), as int64 (uint64 compared with int64 would
    go through float64)."""
    return np.int64(trailing_zeros(b))


@njit(nogil=True, cache=True)
def score_bits(b: np.uint64, c: np.uint64) -> int:
    """Points (in SCALE units) of a side given row-major `b` and column-major `c`."""
    s = 0
    for i in range(SIZE):
        s += RUN[(b >> SHIFT[i]) & M7] + RUN[(c >> SHIFT[i]) & M7]
    return np.int64(s)


@njit(nogil=True, cache=True)
def score(b: np.uint64) -> int:
    """Points of one side's letters (plain points, not SCALE units)."""
    return score_bits(b, transpose(b)) // SCALE


@njit(nogil=True, cache=True, inline="always")
def gain(b: np.uint64, c: np.uint64, cell: int) -> int:
    """What a letter on the empty `cell` adds to the side's points (SCALE units), from
    the cell's row of row-major `b` and column of column-major `c`: the search's
    incremental score update."""
    return np.int64(ADD[((b >> ROW_SHIFT[cell]) & M7) << U3 | IN_ROW[cell]]
                    + ADD[((c >> COL_SHIFT[cell]) & M7) << U3 | IN_COL[cell]])


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


@njit(nogil=True, cache=True, inline="always")
def _evaluate(xb: np.uint64, ob: np.uint64, xc: np.uint64, oc: np.uint64, eb: np.uint64,
              ec: np.uint64) -> int:
    v = 0
    for i in range(SIZE):
        s = SHIFT[i]
        re = (eb >> s) & M7
        v += EXPECT[((xb >> s) & M7) << U7 | re]
        v -= EXPECT[((ob >> s) & M7) << U7 | re]
        ce = (ec >> s) & M7
        v += EXPECT[((xc >> s) & M7) << U7 | ce]
        v -= EXPECT[((oc >> s) & M7) << U7 | ce]
    return np.int64(v)


@njit(nogil=True, cache=True)
def evaluate(xb: np.uint64, ob: np.uint64, xc: np.uint64, oc: np.uint64, eb: np.uint64,
             ec: np.uint64) -> int:
    """X minus O line values from EXPECT (SCALE units): the points each side can expect
    if every empty were a coin toss. (A global table, not an argument: an array passed
    to a helper costs the search a reference count per call.)"""
    return _evaluate(xb, ob, xc, oc, eb, ec)


@njit(nogil=True, cache=True, inline="always")
def eval_change(me: np.uint64, them: np.uint64, mec: np.uint64, themc: np.uint64,
                eb: np.uint64, ec: np.uint64, cell: int) -> int:
    """How the mover's evaluation (me minus them) changes when it plays `cell`: only
    the cell's row and column change."""
    rs = ROW_SHIFT[cell]
    rb = ONE << IN_ROW[cell]
    m = (me >> rs) & M7
    t = (them >> rs) & M7
    e = (eb >> rs) & M7
    e2 = e ^ rb
    d = (np.int64(EXPECT[(m | rb) << U7 | e2]) - np.int64(EXPECT[t << U7 | e2])
         - np.int64(EXPECT[m << U7 | e]) + np.int64(EXPECT[t << U7 | e]))
    cs = COL_SHIFT[cell]
    cb = ONE << IN_COL[cell]
    m = (mec >> cs) & M7
    t = (themc >> cs) & M7
    e = (ec >> cs) & M7
    e2 = e ^ cb
    d += (np.int64(EXPECT[(m | cb) << U7 | e2]) - np.int64(EXPECT[t << U7 | e2])
          - np.int64(EXPECT[m << U7 | e]) + np.int64(EXPECT[t << U7 | e]))
    return d


# ----- perft ------------------------------------------------------------------
@njit(nogil=True, cache=True)
def _perft(me: np.uint64, them: np.uint64, empty: np.uint64, ply: int, depth: int,
           counts: np.ndarray) -> np.uint64:
    """Counts moves at plies `ply`.. below a position with empty cells; returns a
    checksum of the made leaves (so the compiler must make them). Plies depth-2 and
    depth-1 are loops, not calls."""
    chk = ZERO
    if ply == depth - 1:  # the children are leaves: make each one
        n = 0
        m = empty
        while m:
            b = m & (ZERO - m)
            chk ^= (me | b) + (empty ^ b)
            n += 1
            m &= m - ONE
        counts[ply] += n
        return chk
    n = 0
    n2 = 0
    m = empty
    while m:
        b = m & (ZERO - m)
        m &= m - ONE
        n += 1
        e2 = empty ^ b
        m2 = me | b
        if ply == depth - 2:  # grandchildren are leaves: their parent is a loop too
            r = e2
            while r:
                b2 = r & (ZERO - r)
                chk ^= (them | b2) + (e2 ^ b2)
                n2 += 1
                r &= r - ONE
        elif e2:
            chk ^= _perft(them, m2, e2, ply + 1, depth, counts)
    counts[ply] += n
    if ply == depth - 2:
        counts[ply + 1] += n2
    return chk


@entry
@njit(nogil=True, cache=True)
def perft(xb: np.uint64, ob: np.uint64, blocks: np.uint64, depth: int) -> np.ndarray:
    """Leaf counts for depths 1..depth (a full board ends the game). The checksum of
    the made leaves is written past the counts, so the work cannot be optimised away."""
    counts = np.zeros(depth + 1, dtype=np.int64)
    empty = ~(xb | ob | blocks) & FULL
    if depth <= 0 or empty == ZERO:
        return counts[:max(depth, 0)]
    if popcount(xb) == popcount(ob):
        chk = _perft(xb, ob, empty, np.int64(0), np.int64(depth), counts)
    else:
        chk = _perft(ob, xb, empty, np.int64(0), np.int64(depth), counts)
    counts[depth] = np.int64(chk & FULL)
    return counts[:depth]


# ----- transposition table ----------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def tt_slot(xb: np.uint64, ob: np.uint64, mask: np.uint64) -> np.uint64:
    """The first word of the position's TT bucket (mask = buckets - 1)."""
    h = xb * np.uint64(0x9E3779B97F4A7C15) ^ ob * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= h >> np.uint64(29)
    return (h & mask) << np.uint64(2)


@njit(nogil=True, cache=True, inline="always")
def tt_mask(n_words: int) -> np.uint64:
    return np.uint64((n_words >> 2) - 1)


def new_tt(bits: int = 20) -> np.ndarray:
    """2 << bits words (1 << bits entries), in buckets of two entries (32 bytes, in one
    cache line). An entry is two words: X's board | value << 49, and O's board |
    data << 49 with data = depth << 8 | flag << 6 | (move + 1); all zero is an empty
    entry (a stored entry's move field is never 0). The first entry of a bucket keeps
    the deeper search, the second takes what the first refuses."""
    return np.zeros(2 << max(bits, 1), np.uint64)


@njit(nogil=True, cache=True, inline="always")
def tt_value(w0: np.uint64) -> int:
    return np.int64(w0 >> TOP) - VALUE_BIAS


@njit(nogil=True, cache=True, inline="always")
def tt_data(w1: np.uint64) -> int:
    """depth << 8 | flag << 6 | (move + 1)."""
    return np.int64(w1 >> TOP)


@njit(nogil=True, cache=True, inline="always")
def tt_words(xb: np.uint64, ob: np.uint64, value: int, depth: int, flag: int,
             move: int) -> tuple[np.uint64, np.uint64]:
    """An entry's two words."""
    return (xb | (np.uint64(value + VALUE_BIAS) << TOP),
            ob | (np.uint64((depth << 8) | (flag << 6) | (move + 1)) << TOP))


@entry
@njit(nogil=True, cache=True)
def tt_pv(xb: np.uint64, ob: np.uint64, blocks: np.uint64, tt: np.ndarray,
          out: np.ndarray) -> int:
    """Follows best moves stored in the TT from this position; returns the PV length."""
    mask = tt_mask(len(tt))
    n = 0
    side = popcount(xb) - popcount(ob)
    while n < len(out):
        slot = tt_slot(xb, ob, mask)
        w0 = tt[slot]
        w1 = tt[slot + ONE]
        if (w0 & FULL) != xb or (w1 & FULL) != ob or (w1 >> TOP) == ZERO:
            w0 = tt[slot + U2]
            w1 = tt[slot + U3]
            if (w0 & FULL) != xb or (w1 & FULL) != ob or (w1 >> TOP) == ZERO:
                break
        mv = (tt_data(w1) & 63) - 1
        if mv < 0 or mv >= CELLS or (xb | ob | blocks) & BIT[mv]:
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
POLL = 2048  # nodes between polls of the stop flag
ENTER, NEXT, RETURN, FINISH = 0, 1, 2, 3  # the search loop's modes
# the int frame of a node waiting for a child: its fields
(F_SME, F_STH, F_HME, F_HTH, F_NE, F_SIDE, F_DEPTH, F_ALPHA, F_BETA, F_N, F_I, F_BEST, F_MOVE,
 F_ALPHA0, F_SLOT, F_PHASE, F_C) = range(17)
FRAME = 17
# move ordering keys: the TT move, then the killers, then history; a key's low 6
# bits make it distinct (lower cells first among equal histories), so any sort
# gives the same order
TT_KEY = 1 << 62
KILLER_KEY = 1 << 61
SCAN = 3  # a depth-1 node's picks made by scanning before the rest is sorted outright
AHEAD = 3  # children whose TT entries are fetched ahead of the one searched


def new_work() -> tuple[np.ndarray, ...]:
    """The search's scratch arrays, allocated once per adapter: (history [side, cell],
    killers [ply, 2], moves [ply, slot], keys [ply, slot], board frames [ply, 6],
    int frames [ply, FRAME], stats [nodes, aborted, next poll, -])."""
    return (np.zeros((2, CELLS), np.int64), np.full((MAX_PLY, 2), -1, np.int64),
            np.zeros((MAX_PLY, MOVES), np.int64), np.zeros((MAX_PLY, MOVES), np.int64),
            np.zeros((MAX_PLY, 6), np.uint64), np.zeros((MAX_PLY, FRAME), np.int64),
            np.zeros(4, np.int64))


@njit(nogil=True, cache=True, inline="always")
def _child_slot(me: np.uint64, them: np.uint64, side: int, c: int,
                mask: np.uint64) -> np.uint64:
    """The TT slot of the position after the mover plays `c`."""
    if side == 0:
        return tt_slot(me | BIT[c], them, mask)
    return tt_slot(them, me | BIT[c], mask)


SMALL = 6  # exact nodes with at most this many empty cells are solved by _solve


@njit(nogil=True, cache=True)
def _solve(me: np.uint64, them: np.uint64, mec: np.uint64, themc: np.uint64, eb: np.uint64,
           ec: np.uint64, sme: int, sth: int, hme: int, hth: int, ne: int, alpha: int,
           beta: int) -> tuple[int, int]:
    """(exact value, positions visited) of a node with few empty cells, as `_search`
    with depth >= ne would find it but without its tables: a TT probe would cost
    more than the little tree below (its cache miss most of all)."""
    lo = sme - hth
    hi = hme - sth
    if lo >= beta or lo == hi:
        return lo, np.int64(1)
    if hi <= alpha:
        return hi, np.int64(1)
    if ne == 1:  # the mover fills the last cell
        return sme + gain(me, mec, lowest(eb)) - sth, np.int64(2)
    if ne == 2:  # each side gets one of the two cells
        a = lowest(eb)
        b = lowest(eb & (eb - ONE))
        va = gain(me, mec, a) - gain(them, themc, b)
        vb = gain(me, mec, b) - gain(them, themc, a)
        return sme - sth + max(va, vb), np.int64(5)
    if alpha < lo:
        alpha = lo
    if beta > hi:
        beta = hi
    best = np.int64(-INF)
    nodes = np.int64(1)
    # the cell worth most to either side now first, then the rest in order
    first = np.int64(-1)
    fk = np.int64(-1)
    r = eb
    while r:
        t = lowest(r)
        r &= r - ONE
        k = gain(me, mec, t) + gain(them, themc, t)
        if k > fk:
            fk = k
            first = t
    e = eb ^ BIT[first]
    c = first
    while True:
        b = BIT[c]
        cb = CBIT[c]
        nsme = sme + gain(me, mec, c)
        nhth = hth - gain((them | eb) ^ b, (themc | ec) ^ cb, c)
        v, k = _solve(them, me | b, themc, mec | cb, eb ^ b, ec ^ cb, sth, nsme, nhth, hme,
                      ne - 1, -beta, -alpha)
        nodes += k
        v = -v
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
        if e == ZERO:
            break
        c = lowest(e)
        e &= e - ONE
    return best, nodes


@njit(nogil=True, cache=True)
def _search(me, them, mec, themc, eb, ec, sme, sth, hme, hth, ne, side, depth, alpha, beta,
            root_letters, tt, hist, killers, moves, keys, fu, fi, stats, stop) -> int:
    """Negamax value for the side to move (SCALE units) of a node one ply below the
    root; exact when depth >= empties; 0 when stopped (stats[1] set).

    The node: `me`/`them` are the mover's and the other side's boards
    (`mec`/`themc` column-major), `eb`/`ec` the empty cells, `sme`/`sth` the
    sides' points, `hme`/`hth` their points if every empty cell became theirs,
    `ne` the number of empty cells, `side` 0 when X moves.

    Alpha-beta with principal variation search, a transposition table, killer
    and history ordering. A loop, not recursion (a Numba call per node costs
    more than a leaf): the current node lives in local variables; a node
    waiting for a child is saved in the frames at its ply (`fu` boards, `fi`
    ints) and restored when the child returns. A depth-1 node values its
    children (depth 0) in its own loop. No helper called here takes an array:
    each would cost two atomic reference counts per call.
    """
    mask = tt_mask(len(tt))
    base = ply = np.int64(1)
    mode = ENTER
    ret = np.int64(0)
    n = i = best_move = phase = c = alpha0 = np.int64(0)
    best = np.int64(-INF)
    slot = ZERO
    while True:
        if mode == ENTER:
            stats[0] += 1
            if stats[0] >= stats[2]:
                stats[2] = stats[0] + POLL
                if stop[0] != 0:
                    stats[1] = 1
            if stats[1] != 0:
                return np.int64(0)
            mode = RETURN
            lo = sme - hth
            hi = hme - sth
            if lo >= beta or lo == hi:
                ret = lo
                continue
            if hi <= alpha:
                ret = hi
                continue
            if alpha < lo:
                alpha = lo
            if beta > hi:
                beta = hi
            if depth >= ne and ne <= SMALL:
                ret, k = _solve(me, them, mec, themc, eb, ec, sme, sth, hme, hth, ne, alpha,
                                beta)
                stats[0] += k - 1
                continue
            if depth > ne:
                depth = ne
            if depth <= 0:
                ret = min(max(_evaluate(me, them, mec, themc, eb, ec), lo), hi)
                continue
            xb = me if side == 0 else them
            ob = them if side == 0 else me
            slot = tt_slot(xb, ob, mask)
            tt_move = np.int64(-1)
            w0 = tt[slot]
            w1 = tt[slot + ONE]
            hit = (w0 & FULL) == xb and (w1 & FULL) == ob and (w1 >> TOP) != ZERO
            if not hit:
                w0 = tt[slot + U2]
                w1 = tt[slot + U3]
                hit = (w0 & FULL) == xb and (w1 & FULL) == ob and (w1 >> TOP) != ZERO
            if hit:
                data = tt_data(w1)
                tt_move = (data & 63) - 1
                if (data >> 8) >= depth:
                    flag = (data >> 6) & 3
                    v = tt_value(w0)
                    if (flag == EXACT or (flag == LOWER and v >= beta)
                            or (flag == UPPER and v <= alpha)):
                        ret = v
                        continue

            # Order: the TT move first. A heuristic node then tries its killers and
            # goes by history. An exact node (the endgame) goes by how much the move
            # raises the mover's evaluation, then by what the cell is worth to either
            # side now: killers and history, gathered at other depths, mislead it
            # (without them 20-empty solves took 40% less time).
            exact = depth >= ne
            n = 0
            e = eb
            k0 = killers[ply, 0] if not exact else -2
            k1 = killers[ply, 1] if not exact else -2
            while e:
                cell = lowest(e)
                e &= e - ONE
                moves[ply, n] = cell
                if cell == tt_move:
                    keys[ply, n] = TT_KEY
                elif cell == k0:
                    keys[ply, n] = KILLER_KEY
                elif cell == k1:
                    keys[ply, n] = KILLER_KEY >> 1
                elif exact:
                    # |eval_change| <= 4 line values * 952 < 8192; gains < 4096
                    now = gain(me, mec, cell) + gain(them, themc, cell)
                    keys[ply, n] = ((8192 + eval_change(me, them, mec, themc, eb, ec, cell))
                                    << 18 | now << 6 | cell)
                else:
                    keys[ply, n] = hist[side, cell] << 6 | cell
                n += 1
            alpha0 = alpha
            best = -INF
            best_move = -1
            i = 0
            if depth > 1:
                # sorted outright, so the children's TT entries can be fetched ahead:
                # the TT probe's cache miss is most of a node's time otherwise
                for j in range(1, n):
                    k = keys[ply, j]
                    cell = moves[ply, j]
                    t = j
                    while t > 0 and keys[ply, t - 1] < k:
                        keys[ply, t] = keys[ply, t - 1]
                        moves[ply, t] = moves[ply, t - 1]
                        t -= 1
                    keys[ply, t] = k
                    moves[ply, t] = cell
                for j in range(min(n, AHEAD)):
                    prefetch(tt, _child_slot(me, them, side, moves[ply, j], mask))
                mode = NEXT
            else:
                # The children are depth-0 nodes: valued here, counted as nodes all
                # the same. The bounds often decide a child: evaluations are lazy.
                ev = np.int64(0)
                have_ev = False
                clo = sth - hme  # every child's lower bound (for its mover)
                for i in range(n):
                    if i < SCAN:  # cut nodes rarely get further: scan for the best key
                        bi = i
                        bk = keys[ply, i]
                        for j in range(i + 1, n):
                            if keys[ply, j] > bk:
                                bi = j
                                bk = keys[ply, j]
                        c = moves[ply, bi]
                        moves[ply, bi] = moves[ply, i]
                        moves[ply, i] = c
                        keys[ply, bi] = keys[ply, i]
                        keys[ply, i] = bk
                    else:
                        if i == SCAN:  # probably an all node: sort the rest at once
                            for j in range(i + 1, n):
                                k = keys[ply, j]
                                cell = moves[ply, j]
                                t = j
                                while t > i and keys[ply, t - 1] < k:
                                    keys[ply, t] = keys[ply, t - 1]
                                    moves[ply, t] = moves[ply, t - 1]
                                    t -= 1
                                keys[ply, t] = k
                                moves[ply, t] = cell
                        c = moves[ply, i]
                    nsme = sme + gain(me, mec, c)
                    # the other side can no longer own this cell
                    chi = hth - gain((them | eb) ^ BIT[c], (themc | ec) ^ CBIT[c], c) - nsme
                    # the child's value for its mover in window (ca, -alpha), as a node
                    # would find it: the full window first, or a null window that is
                    # searched again (one more node) when it lands inside (alpha, beta)
                    stats[0] += 1
                    ca = -beta if i == 0 else -alpha - 1
                    while True:
                        if clo >= -alpha or clo == chi:
                            v = -clo
                        elif chi <= ca:
                            v = -chi
                        else:
                            if not have_ev:
                                ev = _evaluate(me, them, mec, themc, eb, ec)
                                have_ev = True
                            cev = -(ev + eval_change(me, them, mec, themc, eb, ec, c))
                            v = -min(max(cev, clo), chi)
                        if ca == -beta or not alpha < v < beta:
                            break
                        ca = -beta
                        stats[0] += 1
                    if v > best:
                        best = v
                        best_move = c
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                hist[side, c] += 1  # depth * depth
                                if c != killers[ply, 0]:
                                    killers[ply, 1] = killers[ply, 0]
                                    killers[ply, 0] = c
                                break
                mode = FINISH

        if mode == NEXT:
            c = moves[ply, i]
            if i + AHEAD < n:
                prefetch(tt, _child_slot(me, them, side, moves[ply, i + AHEAD], mask))
            phase = 0 if i == 0 else 1  # 0 full window, 1 null window, 2 its re-search
            fu[ply, 0] = me
            fu[ply, 1] = them
            fu[ply, 2] = mec
            fu[ply, 3] = themc
            fu[ply, 4] = eb
            fu[ply, 5] = ec
            fi[ply, F_SME] = sme
            fi[ply, F_STH] = sth
            fi[ply, F_HME] = hme
            fi[ply, F_HTH] = hth
            fi[ply, F_NE] = ne
            fi[ply, F_SIDE] = side
            fi[ply, F_DEPTH] = depth
            fi[ply, F_ALPHA] = alpha
            fi[ply, F_BETA] = beta
            fi[ply, F_N] = n
            fi[ply, F_I] = i
            fi[ply, F_BEST] = best
            fi[ply, F_MOVE] = best_move
            fi[ply, F_ALPHA0] = alpha0
            fi[ply, F_SLOT] = np.int64(slot)
            fi[ply, F_PHASE] = phase
            fi[ply, F_C] = c
        elif mode == RETURN:  # `ret` is the value of the node at `ply`
            if ply == base:
                return ret
            ply -= 1
            me = fu[ply, 0]
            them = fu[ply, 1]
            mec = fu[ply, 2]
            themc = fu[ply, 3]
            eb = fu[ply, 4]
            ec = fu[ply, 5]
            sme = fi[ply, F_SME]
            sth = fi[ply, F_STH]
            hme = fi[ply, F_HME]
            hth = fi[ply, F_HTH]
            ne = fi[ply, F_NE]
            side = fi[ply, F_SIDE]
            depth = fi[ply, F_DEPTH]
            alpha = fi[ply, F_ALPHA]
            beta = fi[ply, F_BETA]
            n = fi[ply, F_N]
            i = fi[ply, F_I]
            best = fi[ply, F_BEST]
            best_move = fi[ply, F_MOVE]
            alpha0 = fi[ply, F_ALPHA0]
            slot = np.uint64(fi[ply, F_SLOT])
            phase = fi[ply, F_PHASE]
            c = fi[ply, F_C]
            v = -ret
            if phase == 1 and alpha < v < beta:
                phase = 2
                fi[ply, F_PHASE] = 2
            else:
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
                            i = n  # cutoff
                i += 1
                if i < n:
                    mode = NEXT
                    continue
                mode = FINISH

        if mode == FINISH:  # the node at `ply` is done: store it, return its value
            xb = me if side == 0 else them
            ob = them if side == 0 else me
            flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
            w0, w1 = tt_words(xb, ob, best, depth, flag, best_move)
            a0 = tt[slot]
            a1 = tt[slot + ONE]
            # the first entry unless it holds a deeper search of a position still
            # reachable (one with fewer letters than the root is from an earlier move)
            if (depth >= tt_data(a1) >> 8 or ((a0 & FULL) == xb and (a1 & FULL) == ob)
                    or popcount((a0 | a1) & FULL) < root_letters):
                tt[slot] = w0
                tt[slot + ONE] = w1
            else:
                tt[slot + U2] = w0
                tt[slot + U3] = w1
            ret = best
            mode = RETURN
            continue

        # descend into move c of the node at `ply` (saved in the frames)
        b = BIT[c]
        cb = CBIT[c]
        nsme = sme + gain(me, mec, c)
        nhth = hth - gain((them | eb) ^ b, (themc | ec) ^ cb, c)
        nalpha = -beta if phase != 1 else -alpha - 1
        me, them = them, me | b
        mec, themc = themc, mec | cb
        eb ^= b
        ec ^= cb
        sme, sth, hme, hth = sth, nsme, nhth, hme
        ne -= 1
        side = 1 - side
        depth -= 1
        alpha, beta = nalpha, -alpha
        ply += 1
        mode = ENTER


@njit(nogil=True, cache=True)
def _child(xb: np.uint64, ob: np.uint64, blocks: np.uint64, c: int, depth: int, alpha: int,
           beta: int, tt, hist, killers, moves, keys, fu, fi, stats, stop) -> int:
    """The root mover's value of move `c` searched to `depth` plies in all."""
    side = 0 if popcount(xb) == popcount(ob) else 1
    me = xb if side == 0 else ob
    them = ob if side == 0 else xb
    mec = transpose(me)
    themc = transpose(them)
    eb = ~(xb | ob | blocks) & FULL
    ec = transpose(eb)
    sme = score_bits(me, mec)
    sth = score_bits(them, themc)
    hme = score_bits(me | eb, mec | ec)
    hth = score_bits(them | eb, themc | ec)
    b = BIT[c]
    cb = CBIT[c]
    nsme = sme + gain(me, mec, c)
    nhth = hth - gain((them | eb) ^ b, (themc | ec) ^ cb, c)
    ne1 = np.int64(popcount(eb) - 1)
    return -_search(them, me | b, themc, mec | cb, eb ^ b, ec ^ cb, sth, nsme, nhth, hme, ne1,
                    np.int64(1 - side), np.int64(depth - 1), np.int64(-beta), np.int64(-alpha),
                    np.int64(popcount(xb | ob)), tt, hist, killers, moves, keys, fu, fi, stats,
                    stop)


@entry
@njit(nogil=True, cache=True)
def search_root(xb: np.uint64, ob: np.uint64, blocks: np.uint64, depth: int, alpha: int,
                beta: int, first: int, tt, hist, killers, moves, keys, fu, fi, stats, stop,
                root_scores: np.ndarray) -> tuple[int, int]:
    """One iteration at the root: (best move, value for the mover in SCALE units).

    `first` (previous best, or -1) is searched first, then the rest by history
    (stable). `root_scores[c]` gets each move's value (a bound for moves that
    failed low). `stats` = [nodes, aborted, next poll, -]; when aborted the
    result must be ignored.
    """
    side = 0 if popcount(xb) == popcount(ob) else 1
    eb = ~(xb | ob | blocks) & FULL
    # root order into moves[0]: insertion sort by key, stable
    n = 0
    e = eb
    while e:
        c = lowest(e)
        e &= e - ONE
        key = (1 << 40) if c == first else hist[side, c]
        j = n
        while j > 0 and keys[0, j - 1] < key:
            keys[0, j] = keys[0, j - 1]
            moves[0, j] = moves[0, j - 1]
            j -= 1
        keys[0, j] = key
        moves[0, j] = c
        n += 1
    best = -INF
    best_move = moves[0, 0]
    a = alpha
    for i in range(n):
        c = moves[0, i]
        if i == 0:
            v = _child(xb, ob, blocks, c, depth, a, beta, tt, hist, killers, moves, keys, fu, fi,
                       stats, stop)
        else:
            v = _child(xb, ob, blocks, c, depth, a, a + 1, tt, hist, killers, moves, keys, fu,
                       fi, stats, stop)
            if a < v < beta:
                v = _child(xb, ob, blocks, c, depth, a, beta, tt, hist, killers, moves, keys, fu,
                           fi, stats, stop)
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
    slot = tt_slot(xb, ob, tt_mask(len(tt)))
    d = min(depth, popcount(eb))
    flag = EXACT if alpha < best < beta else (LOWER if best >= beta else UPPER)
    w0, w1 = tt_words(xb, ob, best, d, flag, best_move)
    tt[slot] = w0
    tt[slot + ONE] = w1
    return best_move, best


@entry
@njit(nogil=True, cache=True)
def score_moves(xb: np.uint64, ob: np.uint64, blocks: np.uint64, depth: int, tt, hist, killers,
                moves, keys, fu, fi, stats, stop, out: np.ndarray) -> None:
    """Full-window value of every legal move (for noisy levels): out[cell] (SCALE units)."""
    eb = ~(xb | ob | blocks) & FULL
    e = eb
    while e:
        c = lowest(e)
        e &= e - ONE
        out[c] = _child(xb, ob, blocks, c, depth, np.int64(-INF), np.int64(INF), tt, hist,
                        killers, moves, keys, fu, fi, stats, stop)
        if stats[1] != 0:
            return
