"""Pousse's search kernels over either engine: PVS alpha-beta with a transposition table,
killers and history, the repetition rule inside, the one-move safety net and the PV.

The engine of a position (`bitboard` for N <= 8, `lines` above) comes with its
tables; each kernel here is compiled once per engine (see `make_any`). The search
ply is also the position's row in the stack and its offset on the hash path.
"""

from __future__ import annotations

import numpy as np

from ai.jit import entry, njit, overload
from ai.pousse import bitboard as bb
from ai.pousse import lines as ln
from ai.pousse.common import (
    INF,
    MATE,
    MAX_PLY,
    TT_EXACT,
    TT_LOWER,
    TT_UPPER,
    from_tt,
    pick_next,
    repeats,
    to_tt,
)

# (Numba's SSA pass warns on every compile of the inlined engine calls below; `ai.jit`
# silences it: the compiled code is right, the differential tests say so.)

# ----- the engines behind one interface -------------------------------------------------
# Chosen at compile time by the Zobrist table's type (2-D for bitboards, 1-D for lines),
# so every search kernel is compiled once per engine with only that engine's code in
# it: a run-time branch between the two made the bitboard search 40% slower.
def _engine(zt):
    return bb if zt.ndim == 2 else ln


def make_any(stack, ply, m, n, side, g, zt):
    """Write the child of stack[ply] after move m to stack[ply + 1]; whether a marker was
    added (dispatched at compile time, see above)."""
    return _engine(zt).make_s(stack, ply, m, n, side, g, zt)


def straight_diff_any(stack, ply, n, g, zt):
    """X's straights minus O's at stack[ply]."""
    return _engine(zt).straight_diff_s(stack, ply, n, g)


def evaluate_any(stack, ply, n, side, g, zt):
    """The static score for the side to move (`common.evaluate_counts`)."""
    return _engine(zt).evaluate_s(stack, ply, n, side, g)


@overload(make_any, inline="always")
def _make_any(stack, ply, m, n, side, g, zt):
    make_s = _engine(zt).make_s
    return lambda stack, ply, m, n, side, g, zt: make_s(stack, ply, m, n, side, g, zt)


@overload(straight_diff_any, inline="always")
def _straight_diff_any(stack, ply, n, g, zt):
    straight_diff_s = _engine(zt).straight_diff_s
    return lambda stack, ply, n, g, zt: straight_diff_s(stack, ply, n, g)


@overload(evaluate_any, inline="always")
def _evaluate_any(stack, ply, n, side, g, zt):
    evaluate_s = _engine(zt).evaluate_s
    return lambda stack, ply, n, side, g, zt: evaluate_s(stack, ply, n, side, g)


@njit(nogil=True, cache=True, inline="always")
def winner(stack, ply, mover, n, g, zt, path_h, t, irr):
    """Who has won (0 X, 1 O) once `mover`'s move reached stack[ply], configuration t of
    the path (the first with its marker count at irr), else -1."""
    if repeats(stack[ply, 0], path_h, t, irr):
        return 1 - mover
    d = straight_diff_any(stack, ply, n, g, zt)
    if d > 0:
        return 0
    if d < 0:
        return 1
    return -1


@entry
@njit(nogil=True, cache=True)
def replay(stack, n, side, g, zt, moves, path_h, path_irr):
    """Play `moves` from stack[0] (side to move `side`), leaving the last position in
    stack[0] and filling path_h/path_irr[0..len(moves)] (each configuration's hash and the
    first index with its marker count). Returns the winner after the last move, or -1."""
    path_h[0] = stack[0, 0]
    path_irr[0] = 0
    won = -1
    for i in range(moves.size):
        added = make_any(stack, 0, np.int64(moves[i]), n, side, g, zt)
        # element by element: a slice copy compiles a shape check and its error text,
        # seconds of compiling for nothing
        for k in range(stack.shape[1]):
            stack[0, k] = stack[1, k]
        path_h[i + 1] = stack[0, 0]
        path_irr[i + 1] = i + 1 if added else path_irr[i]
        won = winner(stack, 0, side, n, g, zt, path_h, i + 1, path_irr[i + 1])
        side = 1 - side
    return won


# ----- search ---------------------------------------------------------------------------
# Frame fields: each ply of the search line keeps its node's state in fr[ply, :], so the
# search is one loop (no recursive calls passing two dozen arrays at every node).
# negamax and search_root allocate nothing, so they are compiled without Numba's
# reference counting (_nrt=False): every inlined helper taking an array would otherwise
# cost an atomic increment and decrement per use, which was a third of the time.
F_ALPHA, F_BETA, F_ALPHA0, F_BEST, F_BEST_M, F_I, F_DEPTH, F_IRR, F_SIDE, F_T, F_IDX = range(11)
F_M, F_RES, F_NULL, F_STAGE, F_TT_M, F_K0, F_NM = 11, 12, 13, 14, 15, 16, 17
FRAME = 18
ENTER, NEXT, RETURN = 0, 1, 2


@njit(nogil=True, cache=True, _nrt=False)
def negamax(stack, ply0, side0, n, g, zt, path_h, t0, irr0, depth0, alpha0, beta0,
            tt, killers, hist, moves, keys, fr,
            stats, stop):
    """Value of stack[ply0] (configuration t0) for the side to move, in the window
    (alpha0, beta0): PVS with a TT, killers and history, as a loop over frames."""
    nm = 4 * n
    ply = ply0
    fr[ply, F_SIDE] = side0
    fr[ply, F_T] = t0
    fr[ply, F_IRR] = irr0
    fr[ply, F_DEPTH] = depth0
    fr[ply, F_ALPHA] = alpha0
    fr[ply, F_BETA] = beta0
    step = ENTER
    value = 0
    score = 0
    while True:
        if step == ENTER:
            stats[0] += 1
            if (stats[0] & 2047) == 0 and stop[0] != 0:
                stats[1] = 1
            if stats[1] != 0:
                return 0
            side = fr[ply, F_SIDE]
            depth = fr[ply, F_DEPTH]
            if depth <= 0 or ply >= MAX_PLY - 1:
                value = evaluate_any(stack, ply, n, side, g, zt)
                step = RETURN
                continue
            h = stack[ply, 0]
            idx = np.int64(h & np.uint64(tt.shape[0] - 1))
            tt_m = -1
            slot = 0 if tt[idx, 0] == h else (2 if tt[idx, 2] == h else -1)
            if slot >= 0:
                data = np.int64(tt[idx, slot + 1])
                tt_m = (data & 255) - 1
                if ((data >> 16) & 255) >= depth:
                    s = from_tt(data >> 24, ply)
                    f = (data >> 8) & 255
                    if (f == TT_EXACT or (f == TT_LOWER and s >= fr[ply, F_BETA])
                            or (f == TT_UPPER and s <= fr[ply, F_ALPHA])):
                        value = s
                        step = RETURN
                        continue
            fr[ply, F_TT_M] = tt_m
            fr[ply, F_STAGE] = 0
            fr[ply, F_IDX] = idx
            fr[ply, F_ALPHA0] = fr[ply, F_ALPHA]
            fr[ply, F_BEST] = -INF
            fr[ply, F_BEST_M] = -1
            if depth == 1:  # the children are leaves: one tight loop, no frames
                if leaf_parent(stack, ply, side, n, g, zt, path_h, nm, fr, killers, hist,
                               stats, stop):
                    return 0
                value = store(ply, fr, stack, tt)
                step = RETURN
                continue
            step = NEXT
            continue
        if step == RETURN:
            if ply == ply0:
                return value
            ply -= 1
            score = -value
            if fr[ply, F_NULL] != 0 and fr[ply, F_ALPHA] < score < fr[ply, F_BETA]:
                fr[ply, F_NULL] = 0  # the null window failed high: search it again in full
                fr[ply + 1, F_ALPHA] = -fr[ply, F_BETA]
                fr[ply + 1, F_BETA] = -fr[ply, F_ALPHA]
                ply += 1
                step = ENTER
                continue
        else:  # NEXT: make the next move; descend, or score it when it ends the game
            m = next_move(ply, nm, fr, killers, hist, moves, keys)
            if m < 0:
                value = store(ply, fr, stack, tt)
                step = RETURN
                continue
            side = fr[ply, F_SIDE]
            t = fr[ply, F_T]
            fr[ply, F_M] = m
            added = make_any(stack, ply, m, n, side, g, zt)
            irr2 = t + 1 if added else fr[ply, F_IRR]
            res = winner(stack, ply + 1, side, n, g, zt, path_h, t + 1, irr2)
            fr[ply, F_RES] = res
            if res < 0 and fr[ply, F_DEPTH] == 1:  # the child is a leaf: no frame for it
                stats[0] += 1
                if (stats[0] & 2047) == 0 and stop[0] != 0:
                    stats[1] = 1
                    return 0
                score = -evaluate_any(stack, ply + 1, n, 1 - side, g, zt)
            elif res < 0:
                path_h[t + 1] = stack[ply + 1, 0]
                fr[ply + 1, F_SIDE] = 1 - side
                fr[ply + 1, F_T] = t + 1
                fr[ply + 1, F_IRR] = irr2
                fr[ply + 1, F_DEPTH] = fr[ply, F_DEPTH] - 1
                alpha = fr[ply, F_ALPHA]
                if fr[ply, F_BEST_M] < 0:  # the first move: full window
                    fr[ply, F_NULL] = 0
                    fr[ply + 1, F_ALPHA] = -fr[ply, F_BETA]
                else:
                    fr[ply, F_NULL] = 1
                    fr[ply + 1, F_ALPHA] = -alpha - 1
                fr[ply + 1, F_BETA] = -alpha
                ply += 1
                step = ENTER
                continue
            else:
                win = MATE - (ply + 1)
                score = win if res == side else -win
        # a move's score at ply
        m = fr[ply, F_M]
        if score > fr[ply, F_BEST]:
            fr[ply, F_BEST] = score
            fr[ply, F_BEST_M] = m
        if score > fr[ply, F_ALPHA]:
            fr[ply, F_ALPHA] = score
        if fr[ply, F_ALPHA] >= fr[ply, F_BETA]:
            side = fr[ply, F_SIDE]
            if fr[ply, F_RES] < 0 and m != killers[ply, 0]:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = m
            hist[side, m] += fr[ply, F_DEPTH] * fr[ply, F_DEPTH]
            value = store(ply, fr, stack, tt)
            step = RETURN
        else:
            step = NEXT


@njit(nogil=True, cache=True, inline="always")
def leaf_parent(stack, ply, side, n, g, zt, path_h, nm, fr, killers, hist, stats, stop):
    """Search a depth-1 node whose frame is set up: every child scored by the evaluation
    (or the end it makes); the TT move, the killers and the two best by history first,
    then the board's order (sorting them all costs more than the evaluations it saves).
    Leaves best, best move and alpha in the frame; returns True if the search was
    stopped."""
    t = fr[ply, F_T]
    irr = fr[ply, F_IRR]
    alpha = fr[ply, F_ALPHA]
    beta = fr[ply, F_BETA]
    tt_m = fr[ply, F_TT_M]
    k0 = np.int64(killers[ply, 0])
    k1 = np.int64(killers[ply, 1])
    if k0 == tt_m:
        k0 = -1
    if k1 == tt_m or k1 == k0:
        k1 = -1
    h0 = -1  # the two other moves with the best history
    v0 = 0
    h1 = -1
    v1 = 0
    for m in range(nm):
        v = hist[side, m]
        if v > v1 and m != tt_m and m != k0 and m != k1:
            if v > v0:
                h1, v1 = h0, v0
                h0, v0 = m, v
            else:
                h1, v1 = m, v
    first = (tt_m, k0, k1, h0, h1)
    best = -INF
    best_m = -1
    win = MATE - (ply + 1)
    for j in range(-5, nm):
        if j < 0:
            m = first[j + 5]
            if m < 0:
                continue
        else:
            m = j
            if m == tt_m or m == k0 or m == k1 or m == h0 or m == h1:
                continue
        added = make_any(stack, ply, m, n, side, g, zt)
        res = winner(stack, ply + 1, side, n, g, zt, path_h, t + 1, t + 1 if added else irr)
        if res >= 0:
            score = win if res == side else -win
        else:
            stats[0] += 1
            if (stats[0] & 2047) == 0 and stop[0] != 0:
                stats[1] = 1
                return True
            score = -evaluate_any(stack, ply + 1, n, 1 - side, g, zt)
        if score > best:
            best = score
            best_m = m
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    if res < 0 and m != killers[ply, 0]:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = m
                    hist[side, m] += 1
                    break
    fr[ply, F_BEST] = best
    fr[ply, F_BEST_M] = best_m
    fr[ply, F_ALPHA] = alpha
    return False


@njit(nogil=True, cache=True, inline="always")
def next_move(ply, nm, fr, killers, hist, moves, keys):
    """The next move to try at ply, or -1: the TT move, the two killers, then the rest by
    history. Most nodes cut off on one of the first three, so the rest is ordered only
    when it is reached."""
    while True:
        stage = fr[ply, F_STAGE]
        fr[ply, F_STAGE] = stage + 1
        tt_m = fr[ply, F_TT_M]
        if stage == 0:
            if tt_m >= 0:
                return tt_m
        elif stage == 1:
            k = np.int64(killers[ply, 0])
            fr[ply, F_K0] = k
            if k >= 0 and k != tt_m:
                return k
        elif stage == 2:
            k = np.int64(killers[ply, 1])
            k0 = fr[ply, F_K0]
            count = 0
            for m in range(nm):
                if m != tt_m and m != k0 and m != k:
                    moves[ply, count] = m
                    keys[ply, count] = hist[fr[ply, F_SIDE], m]
                    count += 1
            fr[ply, F_NM] = count
            fr[ply, F_I] = 0
            if k >= 0 and k != tt_m and k != k0:
                return k
        else:
            fr[ply, F_STAGE] = stage  # stay in the last stage
            i = fr[ply, F_I]
            if i >= fr[ply, F_NM]:
                return -1
            fr[ply, F_I] = i + 1
            return pick_next(i, fr[ply, F_NM], ply, moves, keys)


@njit(nogil=True, cache=True, inline="always")
def tt_store(tt, idx, h, depth, data):
    """A bucket holds two entries: the deepest search seen (kept unless this one is as
    deep, or is the same position) and the latest (always replaced)."""
    if tt[idx, 0] == h or depth >= ((np.int64(tt[idx, 1]) >> 16) & 255):
        tt[idx, 0] = h
        tt[idx, 1] = data
    else:
        tt[idx, 2] = h
        tt[idx, 3] = data


@njit(nogil=True, cache=True, inline="always")
def tt_entry(score, depth, flag, move):
    """A TT entry's data word: score << 24 | depth << 16 | flag << 8 | move + 1 (its key
    sits beside it, so a probe touches one cache line)."""
    return np.uint64((score << 24) | (depth << 16) | (flag << 8) | (move + 1))


@njit(nogil=True, cache=True, inline="always")
def store(ply, fr, stack, tt):
    """Store the finished node at ply in the TT; returns its value."""
    best = fr[ply, F_BEST]
    if best <= fr[ply, F_ALPHA0]:
        flag = TT_UPPER
    elif best >= fr[ply, F_BETA]:
        flag = TT_LOWER
    else:
        flag = TT_EXACT
    idx = fr[ply, F_IDX]
    tt_store(tt, idx, stack[ply, 0], fr[ply, F_DEPTH],
             tt_entry(to_tt(best, ply), fr[ply, F_DEPTH], flag, fr[ply, F_BEST_M]))
    return best


@entry
@njit(nogil=True, cache=True, _nrt=False)
def search_root(stack, n, side, g, zt, path_h, t, irr, depth, order, scores,
                full_window, tt, killers, hist, moves,
                keys, fr, stats, stop):
    """One iteration at the root (stack[0], configuration t) over the moves in `order`.

    Fills scores[m] (exact with full_window, else exact for the best and bounds for the
    rest) and returns (best move, score); stats[1] != 0 means the iteration was stopped
    and its figures must be discarded.
    """
    alpha = -INF
    beta = INF
    best = -INF
    best_m = np.int64(order[0])
    win = MATE - 1
    for i in range(order.size):
        m = np.int64(order[i])
        added = make_any(stack, 0, m, n, side, g, zt)
        irr2 = t + 1 if added else irr
        res = winner(stack, 1, side, n, g, zt, path_h, t + 1, irr2)
        if res >= 0:
            score = win if res == side else -win
        else:
            path_h[t + 1] = stack[1, 0]
            if full_window or i == 0:
                score = -negamax(stack, 1, 1 - side, n, g, zt, path_h, t + 1, irr2,
                                 depth - 1, -beta, -alpha, tt, killers, hist, moves, keys,
                                 fr, stats, stop)
            else:
                score = -negamax(stack, 1, 1 - side, n, g, zt, path_h, t + 1, irr2,
                                 depth - 1, -alpha - 1, -alpha, tt, killers, hist, moves, keys,
                                 fr, stats, stop)
                if score > alpha:
                    score = -negamax(stack, 1, 1 - side, n, g, zt, path_h, t + 1, irr2,
                                     depth - 1, -beta, -alpha, tt, killers, hist, moves, keys,
                                     fr, stats, stop)
        if stats[1] != 0:
            return best_m, best
        scores[m] = score
        if score > best:
            best = score
            best_m = m
        if not full_window and score > alpha:
            alpha = score
    h = stack[0, 0]
    idx = np.int64(h & np.uint64(tt.shape[0] - 1))
    tt_store(tt, idx, h, depth, tt_entry(best, depth, TT_EXACT, best_m))
    return best_m, best


@entry
@njit(nogil=True, cache=True)
def classify(stack, n, side, g, zt, path_h, t, irr):
    """Per root move: 2 wins at once, -2 loses at once, -1 lets the opponent win at
    once, 0 otherwise (the one-move safety net, exact: no TT, the real history)."""
    codes = np.zeros(4 * n, dtype=np.int32)
    for m in range(4 * n):
        added = make_any(stack, 0, m, n, side, g, zt)
        irr2 = t + 1 if added else irr
        res = winner(stack, 1, side, n, g, zt, path_h, t + 1, irr2)
        if res == side:
            codes[m] = 2
        elif res >= 0:
            codes[m] = -2
        else:
            path_h[t + 1] = stack[1, 0]
            for m2 in range(4 * n):
                added2 = make_any(stack, 1, m2, n, 1 - side, g, zt)
                irr3 = t + 2 if added2 else irr2
                if winner(stack, 2, 1 - side, n, g, zt, path_h, t + 2, irr3) == 1 - side:
                    codes[m] = -1
                    break
    return codes


@entry
@njit(nogil=True, cache=True)
def tt_pv(stack, n, side, g, zt, path_h, t, irr, first, max_len, tt):
    """The principal variation: `first`, then the TT's moves while they are stored."""
    pv = np.full(max_len, -1, dtype=np.int32)
    length = 0
    m = first
    while length < max_len and length < MAX_PLY and m >= 0:
        added = make_any(stack, length, m, n, side, g, zt)
        pv[length] = m
        length += 1
        if added:
            irr = t + length
        if winner(stack, length, side, n, g, zt, path_h, t + length, irr) >= 0:
            break
        h = stack[length, 0]
        path_h[t + length] = h
        side = 1 - side
        idx = np.int64(h & np.uint64(tt.shape[0] - 1))
        m = -1
        for slot in (0, 2):
            if tt[idx, slot] == h:
                m = (np.int64(tt[idx, slot + 1]) & 255) - 1
        if m >= 4 * n:
            m = -1
    return pv[:length]
