"""LOAPS search kernels: PVS alpha-beta as a loop over frames, with a transposition table,
killers and history, late move reductions and the null move, the one-move safety net and
the principal line.

A position lives in one row of a `stack` (uint64[MAX_PLY + 2, SWORDS]): the board
kernels' state (`ai.loaps.kernels`) and the Zobrist hash of the board and side to
move; a search ply is also its row. The transposition table's key adds the points
difference and the plies left before the 50-move draw to that hash: both change a
position's value (the points decide a connection, the draw ends the game).
Values are the evaluation's (`ai.loaps.evaluate`, within about +-1000) or, once
the end of the game is seen, MATE - ply for a win (faster wins first), 0 for a
draw and the negation for a loss. Every move's ending is judged when it is made
(a connection by the points, the draw); a side to move that can connect and win
is a win in one without a search (exact), and one that has no move has lost.

Self-play at 0.05 s a move (200 games each) kept what helped: late move
reductions (after three moves, of quiet moves: 118-74), the null move on top
(R = 2, only where the static value already beats beta: 115-77). Moves are
ordered: the TT move, then by the points they score, the killers, history;
trying first the moves that land next to all of the mover's groups but one
(those that may connect) did not help (94-97).

Later, against the sparring C program at 0.2 s a move (starts 1-160, each both
ways, 320 games): reductions growing with the log of the depth and of the move's
place (as in chess programs; they were 1 ply, 2 late in deep nodes) and late move
pruning (at depth 2-3 off the principal line, quiet moves after the first 3 per
ply of depth are not searched once a move that does not lose is found) reach 11.8 plies at
1 s where the search reached 9.8 (12 positions), and scored 250 of 320 where
it scored 240.5-243; in self-play against the search before, 85 of 160.
"""

from __future__ import annotations

import math

import numpy as np

from ai.jit import entry, njit
from ai.loaps.evaluate import (
    LMP,
    LMR_FROM,
    MATE,
    NULL_R,
    THREAT_EXT,
    WIN_BOUND,
    WIN_CHECK,
    connecting_win,
    evaluate,
    evaluate_threat,
)
from ai.loaps.kernels import (
    BIT,
    BONUS,
    DRAW,
    LOSS,
    NOT_OVER,
    ONE,
    P_C0,
    P_C1,
    P_C2,
    P_ME,
    P_OPP,
    P_PME,
    P_POPP,
    PWORDS,
    WIN,
    ZERO,
    judge,
    legal_moves,
    lowest,
    make,
    play_code,
    targets,
)

MAX_PLY = 64
MAX_MOVES = 64  # at most 8 pieces, 8 directions each
INF = 2_000_000
TT_EXACT, TT_LOWER, TT_UPPER = 0, 1, 2
# a stack row: the board kernels' position (P_ME .. P_POPP), then the hash
S_H = PWORDS
SWORDS = PWORDS + 1
# move ordering keys: the points a move scores first, then the killers, then history
GAIN_SHIFT = 41
KILLER_0 = 1 << 40
KILLER_1 = 1 << 39

_rng = np.random.default_rng(0x10A95)
ZSQ = _rng.integers(1, 2**63, size=(2, 64), dtype=np.int64).astype(np.uint64)
ZSIDE = np.uint64(_rng.integers(1, 2**63, dtype=np.int64))
ZDIFF = _rng.integers(1, 2**63, size=1024, dtype=np.int64).astype(np.uint64)
ZLEFT = _rng.integers(1, 2**63, size=128, dtype=np.int64).astype(np.uint64)
M1023 = 1023


def _reductions() -> np.ndarray:
    """LMR[depth, i]: plies a late quiet move (the i-th tried) loses at depth, growing with
    the log of both (at least 1, see negamax)."""
    table = np.zeros((64, 64), dtype=np.int64)
    for depth in range(1, 64):
        for i in range(1, 64):
            table[depth, i] = int(0.75 + math.log(depth) * math.log(i) / 2.25)
    return table


LMR = _reductions()


# ----- positions on the stack ------------------------------------------------------------
@entry
@njit(nogil=True, cache=True)
def start_hash(red, blue, side):
    """The Zobrist hash of a board (player 1's and player 2's pieces), `side` to move."""
    h = ZSIDE if side == 1 else ZERO
    for colour in range(2):
        b = red if colour == 0 else blue
        while b != ZERO:
            h ^= ZSQ[colour, lowest(b)]
            b &= b - ONE
    return h


@njit(nogil=True, cache=True, inline="always")
def make_s(st, ply, side, m):
    """Write the child of st[ply] after `side`'s move m to st[ply + 1]; whether it captured."""
    frm = m >> 6
    to = m & 63
    nme, nopp, c0, c1, c2, npme, npopp, cap = make(
        st[ply, P_ME], st[ply, P_OPP], st[ply, P_C0], st[ply, P_C1], st[ply, P_C2],
        np.int64(st[ply, P_PME]), np.int64(st[ply, P_POPP]), frm, BIT[to])
    h = st[ply, S_H] ^ ZSQ[side, frm] ^ ZSQ[side, to] ^ ZSIDE
    if cap:
        h ^= ZSQ[1 - side, to]
    st[ply + 1, P_ME] = nme
    st[ply + 1, P_OPP] = nopp
    st[ply + 1, P_C0] = c0
    st[ply + 1, P_C1] = c1
    st[ply + 1, P_C2] = c2
    st[ply + 1, P_PME] = np.uint64(npme)
    st[ply + 1, P_POPP] = np.uint64(npopp)
    st[ply + 1, S_H] = h
    return cap


@njit(nogil=True, cache=True, inline="always")
def pass_s(st, ply):
    """Write st[ply] with the other side to move to st[ply + 1] (the null move)."""
    st[ply + 1, P_ME] = st[ply, P_OPP]
    st[ply + 1, P_OPP] = st[ply, P_ME]
    st[ply + 1, P_C0] = st[ply, P_C0]
    st[ply + 1, P_C1] = st[ply, P_C1]
    st[ply + 1, P_C2] = st[ply, P_C2]
    st[ply + 1, P_PME] = st[ply, P_POPP]
    st[ply + 1, P_POPP] = st[ply, P_PME]
    st[ply + 1, S_H] = st[ply, S_H] ^ ZSIDE


@njit(nogil=True, cache=True, inline="always")
def judge_s(st, ply, cap, left):
    """NOT_OVER, or the result for the side that just moved to st[ply] (`left` plies
    before the draw now)."""
    res, kind = judge(st[ply, P_OPP], st[ply, P_ME], np.int64(st[ply, P_POPP]),
                      np.int64(st[ply, P_PME]), cap, left)
    return res


@njit(nogil=True, cache=True, inline="always")
def end_value(res, ply):
    """The value for the side that moved to st[ply] of a game over there."""
    if res == WIN:
        return MATE - ply
    if res == LOSS:
        return ply - MATE
    return 0


@njit(nogil=True, cache=True, inline="always")
def tt_key(st, ply, left):
    """The TT key: the board's hash with the points difference and the plies left."""
    d = np.int64(st[ply, P_PME]) - np.int64(st[ply, P_POPP])
    return st[ply, S_H] ^ ZDIFF[d & M1023] ^ ZLEFT[left if left < 127 else 127]


@njit(nogil=True, cache=True, inline="always")
def evaluate_s(st, ply, left, ev):
    return evaluate(st[ply, P_ME], st[ply, P_OPP], st[ply, P_C0], st[ply, P_C1],
                    st[ply, P_C2], np.int64(st[ply, P_PME]), np.int64(st[ply, P_POPP]), left,
                    ply, ev)


@njit(nogil=True, cache=True, inline="always")
def evaluate_threat_s(st, ply, left, ev):
    return evaluate_threat(st[ply, P_ME], st[ply, P_OPP], st[ply, P_C0], st[ply, P_C1],
                           st[ply, P_C2], np.int64(st[ply, P_PME]), np.int64(st[ply, P_POPP]),
                           left, ply, ev)


@njit(nogil=True, cache=True, inline="always")
def wins_at_once(st, ply):
    """Whether the side to move at st[ply] has a move that connects and wins on points."""
    wins, mob, gain = connecting_win(st[ply, P_ME], st[ply, P_OPP], st[ply, P_C0], st[ply, P_C1],
                               st[ply, P_C2], np.int64(st[ply, P_PME]),
                               np.int64(st[ply, P_POPP]))
    return wins


@njit(nogil=True, cache=True, inline="always")
def is_move(st, ply, m):
    """Whether m is a legal move at st[ply] (a TT move from another position is not)."""
    frm = m >> 6
    me = st[ply, P_ME]
    if (me & BIT[frm]) == ZERO:
        return False
    t = targets(frm, me, st[ply, P_OPP], st[ply, P_C0], st[ply, P_C1], st[ply, P_C2])
    return (t & BIT[m & 63]) != ZERO


@njit(nogil=True, cache=True, inline="always")
def gen(st, ply, side, skip, moves, keys, killers, hist):
    """The moves at st[ply] but `skip` into moves[ply], with their ordering keys; returns
    how many."""
    me = st[ply, P_ME]
    opp = st[ply, P_OPP]
    c0 = st[ply, P_C0]
    c1 = st[ply, P_C1]
    c2 = st[ply, P_C2]
    k0 = killers[ply, 0]
    k1 = killers[ply, 1]
    n = 0
    b = me
    while b != ZERO:
        k = lowest(b)
        b &= b - ONE
        t = targets(k, me, opp, c0, c1, c2)
        while t != ZERO:
            to = lowest(t)
            t &= t - ONE
            m = k << 6 | to
            if m == skip:
                continue
            key = hist[side, m]
            if m == k0:
                key += KILLER_0
            elif m == k1:
                key += KILLER_1
            gain = BONUS[to] + (1 if (opp & BIT[to]) != ZERO else 0)
            moves[ply, n] = m
            keys[ply, n] = key + (gain << GAIN_SHIFT)
            n += 1
    return n


@njit(nogil=True, cache=True, inline="always")
def pick_next(i, n, ply, moves, keys):
    """Selection-sort step: bring the best remaining move to slot i and return it."""
    j_best = i
    for j in range(i + 1, n):
        if keys[ply, j] > keys[ply, j_best]:
            j_best = j
    if j_best != i:
        m = moves[ply, j_best]
        moves[ply, j_best] = moves[ply, i]
        moves[ply, i] = m
        k = keys[ply, j_best]
        keys[ply, j_best] = keys[ply, i]
        keys[ply, i] = k
    return np.int64(moves[ply, i])


# ----- the transposition table ------------------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def to_tt(score, ply):
    if score > WIN_BOUND:
        return score + ply
    if score < -WIN_BOUND:
        return score - ply
    return score


@njit(nogil=True, cache=True, inline="always")
def from_tt(score, ply):
    if score > WIN_BOUND:
        return score - ply
    if score < -WIN_BOUND:
        return score + ply
    return score


@njit(nogil=True, cache=True, inline="always")
def tt_entry(score, depth, flag, move):
    """A TT entry's data word: score << 32 | depth << 16 | flag << 13 | move + 1."""
    return np.uint64((score << 32) | (depth << 16) | (flag << 13) | (move + 1))


@njit(nogil=True, cache=True, inline="always")
def tt_store(tt, idx, key, depth, data):
    """A bucket holds two entries: the deepest seen (kept unless this one is as deep, or
    is the same position) and the latest (always replaced)."""
    if tt[idx, 0] == key or depth >= ((np.int64(tt[idx, 1]) >> 16) & 255):
        tt[idx, 0] = key
        tt[idx, 1] = data
    else:
        tt[idx, 2] = key
        tt[idx, 3] = data


@njit(nogil=True, cache=True, inline="always")
def tt_move(tt, key):
    """The move stored for `key`, or -1."""
    idx = np.int64(key & np.uint64(tt.shape[0] - 1))
    for slot in (0, 2):
        if tt[idx, slot] == key:
            return (np.int64(tt[idx, slot + 1]) & 8191) - 1
    return -1


# ----- search ----------------------------------------------------------------------------
# Frame fields: each ply of the search line keeps its node's state in fr[ply, :], so the
# search is one loop (no recursive calls passing a dozen arrays at every node).
F_ALPHA, F_BETA, F_ALPHA0, F_BEST, F_BEST_M, F_I, F_DEPTH, F_SIDE, F_LEFT = range(9)
F_IDX, F_M, F_NULL, F_STAGE, F_TT_M, F_NM, F_RED, F_PASS = 9, 10, 11, 12, 13, 14, 15, 16
FRAME = 18
NULL_MOVE = -1  # F_STAGE while the null move's search runs
ENTER, NEXT, RETURN = 0, 1, 2
POLL = 2047  # poll the stop flag every 2048 nodes


@njit(nogil=True, cache=True, inline="always")
def store(ply, fr, st, tt):
    """Store the finished node at ply in the TT; returns its value."""
    best = fr[ply, F_BEST]
    if best <= fr[ply, F_ALPHA0]:
        flag = TT_UPPER
    elif best >= fr[ply, F_BETA]:
        flag = TT_LOWER
    else:
        flag = TT_EXACT
    key = tt_key(st, ply, fr[ply, F_LEFT])
    tt_store(tt, fr[ply, F_IDX], key, fr[ply, F_DEPTH],
             tt_entry(to_tt(best, ply), fr[ply, F_DEPTH], flag, fr[ply, F_BEST_M]))
    return best


@njit(nogil=True, cache=True, inline="always")
def cut(ply, side, m, depth, killers, hist, moves, tried):
    """Remember a move that failed high: killers of its ply, history of its side; the
    moves tried before it at this node (moves[ply, :tried]) lose as much history."""
    if m != killers[ply, 0]:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = m
    bonus = depth * depth
    hist[side, m] += bonus
    for j in range(tried):
        hist[side, moves[ply, j]] -= bonus


# replies and leaf_parent are called, not inlined by Numba: inlining them took 3.3 s more
# of compiling (18 s to 14.7 s for the game) for a speed within the noise (-0.7%)
@njit(nogil=True, cache=True)
def replies(st, ply, side, left, alpha, beta, stats, ev):
    """The value of st[ply] (not over) searched one ply: its moves judged and their
    children evaluated, in the window (alpha, beta) (fail-soft)."""
    me = st[ply, P_ME]
    opp = st[ply, P_OPP]
    c0 = st[ply, P_C0]
    c1 = st[ply, P_C1]
    c2 = st[ply, P_C2]
    best = ply - MATE  # no legal move: the side to move loses
    b = me
    while b != ZERO:
        k = lowest(b)
        b &= b - ONE
        t = targets(k, me, opp, c0, c1, c2)
        while t != ZERO:
            to = lowest(t)
            t &= t - ONE
            cap = make_s(st, ply, side, k << 6 | to)
            res = judge_s(st, ply + 1, cap, left - 1)
            if res != NOT_OVER:
                score = end_value(res, ply + 1)
            else:
                stats[0] += 1
                score = -evaluate_s(st, ply + 1, left - 1, ev)
            if score > best:
                best = score
                if best >= beta:
                    return best
    return best


@njit(nogil=True, cache=True)
def leaf_parent(st, ply, fr, moves, keys, killers, hist, stats, stop, ev):
    """Search a depth-1 node whose frame is set up: every child judged and evaluated, the
    TT move first, then by ordering key. Leaves best, best move and alpha in the frame;
    returns True if the search was stopped."""
    side = fr[ply, F_SIDE]
    left = fr[ply, F_LEFT]
    alpha = fr[ply, F_ALPHA]
    beta = fr[ply, F_BETA]
    tt_m = fr[ply, F_TT_M]
    if tt_m >= 0 and not is_move(st, ply, tt_m):
        tt_m = -1
    n = gen(st, ply, side, tt_m, moves, keys, killers, hist)
    best = -INF
    best_m = -1
    for i in range(-1, n):
        if i < 0:
            if tt_m < 0:
                continue
            m = tt_m
        else:
            m = pick_next(i, n, ply, moves, keys)
        cap = make_s(st, ply, side, m)
        res = judge_s(st, ply + 1, cap, left - 1)
        if res != NOT_OVER:
            score = end_value(res, ply + 1)
        else:
            stats[0] += 1
            if (stats[0] & POLL) == 0 and stop[0] != 0:
                stats[1] = 1
                return True
            value, threat = evaluate_threat_s(st, ply + 1, left - 1, ev)
            if threat and ev[THREAT_EXT] != 0:
                # the move threatens to connect and win: the horizon must not hide the
                # other side's parry, nor its lack (one more ply, of the replies only)
                value = replies(st, ply + 1, 1 - side, left - 1, -beta, -alpha, stats, ev)
            score = -value
        if score > best:
            best = score
            best_m = m
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    cut(ply, side, m, 1, killers, hist, moves, i if i > 0 else 0)
                    break
    if best_m < 0:  # no legal move: the side to move loses
        best = ply - MATE
    fr[ply, F_BEST] = best
    fr[ply, F_BEST_M] = best_m
    fr[ply, F_ALPHA] = alpha
    return False


@njit(nogil=True, cache=True, inline="always")
def next_move(st, ply, fr, moves, keys, killers, hist):
    """The next move to try at ply, or -1: the TT move (if legal here), then the rest by
    ordering key, generated when the TT move did not cut off."""
    while True:
        stage = fr[ply, F_STAGE]
        if stage == 0:
            fr[ply, F_STAGE] = 1
            tt_m = fr[ply, F_TT_M]
            if tt_m >= 0 and is_move(st, ply, tt_m):
                return tt_m
            fr[ply, F_TT_M] = -1
        elif stage == 1:
            fr[ply, F_STAGE] = 2
            fr[ply, F_NM] = gen(st, ply, fr[ply, F_SIDE], fr[ply, F_TT_M], moves, keys, killers,
                                hist)
            fr[ply, F_I] = 0
        else:
            i = fr[ply, F_I]
            if i >= fr[ply, F_NM]:
                return -1
            fr[ply, F_I] = i + 1
            return pick_next(i, fr[ply, F_NM], ply, moves, keys)


@njit(nogil=True, cache=True, _nrt=False)
def negamax(st, ply0, side0, left0, depth0, alpha0, beta0, tt, killers, hist, moves, keys,
            fr, stats, stop, ev):
    """Value of st[ply0] for `side0` to move, `left0` plies before the draw, searched to
    depth0 in the window (alpha0, beta0): PVS with a TT, killers and history, as a loop
    over frames."""
    ply = ply0
    fr[ply, F_SIDE] = side0
    fr[ply, F_LEFT] = left0
    fr[ply, F_DEPTH] = depth0
    fr[ply, F_ALPHA] = alpha0
    fr[ply, F_BETA] = beta0
    fr[ply, F_PASS] = 0
    step = ENTER
    value = 0
    score = 0
    while True:
        if step == ENTER:
            stats[0] += 1
            if (stats[0] & POLL) == 0 and stop[0] != 0:
                stats[1] = 1
            if stats[1] != 0:
                return 0
            depth = fr[ply, F_DEPTH]
            left = fr[ply, F_LEFT]
            if depth <= 0 or ply >= MAX_PLY - 1:
                value = evaluate_s(st, ply, left, ev)
                step = RETURN
                continue
            key = tt_key(st, ply, left)
            idx = np.int64(key & np.uint64(tt.shape[0] - 1))
            tt_m = -1
            slot = 0 if tt[idx, 0] == key else (2 if tt[idx, 2] == key else -1)
            if slot >= 0:
                data = np.int64(tt[idx, slot + 1])
                tt_m = (data & 8191) - 1
                if ((data >> 16) & 255) >= depth:
                    s = from_tt(data >> 32, ply)
                    f = (data >> 13) & 3
                    if (f == TT_EXACT or (f == TT_LOWER and s >= fr[ply, F_BETA])
                            or (f == TT_UPPER and s <= fr[ply, F_ALPHA])):
                        value = s
                        step = RETURN
                        continue
            if ev[WIN_CHECK] != 0 and wins_at_once(st, ply):
                value = MATE - ply - 1  # exact: a connection that wins on points
                step = RETURN
                continue
            fr[ply, F_TT_M] = tt_m
            fr[ply, F_STAGE] = 0
            fr[ply, F_IDX] = idx
            fr[ply, F_ALPHA0] = fr[ply, F_ALPHA]
            fr[ply, F_BEST] = -INF
            fr[ply, F_BEST_M] = -1
            fr[ply, F_NULL] = 0
            fr[ply, F_RED] = 0
            beta = fr[ply, F_BETA]
            r = ev[NULL_R]
            if (r > 0 and depth > r and fr[ply, F_PASS] == 0 and beta - fr[ply, F_ALPHA] == 1
                    and -WIN_BOUND < beta < WIN_BOUND and left > depth
                    and evaluate_s(st, ply, left, ev) >= beta):
                # the null move: if passing still fails high, so will a move
                pass_s(st, ply)
                fr[ply, F_STAGE] = NULL_MOVE
                fr[ply + 1, F_SIDE] = 1 - fr[ply, F_SIDE]
                fr[ply + 1, F_LEFT] = left
                fr[ply + 1, F_DEPTH] = depth - 1 - r
                fr[ply + 1, F_ALPHA] = -beta
                fr[ply + 1, F_BETA] = 1 - beta
                fr[ply + 1, F_PASS] = 1
                ply += 1
                continue
            if depth == 1:  # the children are leaves: one loop, no frames
                if leaf_parent(st, ply, fr, moves, keys, killers, hist, stats, stop, ev):
                    return 0
                value = store(ply, fr, st, tt)
                step = RETURN
                continue
            step = NEXT
            continue
        if step == RETURN:
            if ply == ply0:
                return value
            ply -= 1
            score = -value
            if fr[ply, F_STAGE] == NULL_MOVE:
                if score >= fr[ply, F_BETA]:
                    value = score if score < WIN_BOUND else fr[ply, F_BETA]
                    continue  # RETURN: fails high without a move
                fr[ply, F_STAGE] = 0
                step = NEXT
                continue
            if fr[ply, F_RED] != 0 and score > fr[ply, F_ALPHA]:
                fr[ply, F_RED] = 0  # the reduced search failed high: search it to full depth
                fr[ply + 1, F_DEPTH] = fr[ply, F_DEPTH] - 1
                fr[ply + 1, F_ALPHA] = -fr[ply, F_ALPHA] - 1
                fr[ply + 1, F_BETA] = -fr[ply, F_ALPHA]
                ply += 1
                step = ENTER
                continue
            if fr[ply, F_NULL] != 0 and fr[ply, F_ALPHA] < score < fr[ply, F_BETA]:
                fr[ply, F_NULL] = 0  # the null window failed high: search it again in full
                fr[ply + 1, F_ALPHA] = -fr[ply, F_BETA]
                fr[ply + 1, F_BETA] = -fr[ply, F_ALPHA]
                ply += 1
                step = ENTER
                continue
        else:  # NEXT: make the next move; descend, or score it when it ends the game
            m = next_move(st, ply, fr, moves, keys, killers, hist)
            if m < 0:
                if fr[ply, F_BEST_M] < 0:  # no legal move: the side to move loses
                    fr[ply, F_BEST] = ply - MATE
                value = store(ply, fr, st, tt)
                step = RETURN
                continue
            if (fr[ply, F_STAGE] == 2 and fr[ply, F_DEPTH] <= 3 and ev[LMP] > 0
                    and fr[ply, F_I] > ev[LMP] * fr[ply, F_DEPTH]
                    and fr[ply, F_BETA] - fr[ply, F_ALPHA] == 1 and fr[ply, F_BEST] > -WIN_BOUND
                    and BONUS[m & 63] == 0 and (st[ply, P_OPP] & BIT[m & 63]) == ZERO
                    and m != killers[ply, 0] and m != killers[ply, 1]):
                # late move pruning: near the horizon, off the principal line and with a
                # move already found that does not lose, a late quiet move is not searched
                continue
            side = fr[ply, F_SIDE]
            left = fr[ply, F_LEFT]
            fr[ply, F_M] = m
            cap = make_s(st, ply, side, m)
            res = judge_s(st, ply + 1, cap, left - 1)
            if res != NOT_OVER:
                score = end_value(res, ply + 1)
            else:
                depth = fr[ply, F_DEPTH]
                fr[ply + 1, F_SIDE] = 1 - side
                fr[ply + 1, F_LEFT] = left - 1
                fr[ply + 1, F_DEPTH] = depth - 1
                fr[ply + 1, F_PASS] = 0
                fr[ply, F_RED] = 0
                alpha = fr[ply, F_ALPHA]
                if fr[ply, F_BEST_M] < 0:  # the first move: full window
                    fr[ply, F_NULL] = 0
                    fr[ply + 1, F_ALPHA] = -fr[ply, F_BETA]
                else:
                    fr[ply, F_NULL] = 1
                    fr[ply + 1, F_ALPHA] = -alpha - 1
                    late = ev[LMR_FROM]
                    if (late > 0 and depth >= 3 and fr[ply, F_STAGE] == 2 and fr[ply, F_I] > late
                            and not cap and BONUS[m & 63] == 0 and m != killers[ply, 0]
                            and m != killers[ply, 1]):
                        # a late quiet move: searched shallower first (late move reduction)
                        i = fr[ply, F_I]
                        r = max(1, min(depth - 2, LMR[min(depth, 63), min(i, 63)]))
                        fr[ply, F_RED] = r
                        fr[ply + 1, F_DEPTH] = depth - 1 - r
                fr[ply + 1, F_BETA] = -alpha
                ply += 1
                step = ENTER
                continue
        # a move's score at ply
        m = fr[ply, F_M]
        if score > fr[ply, F_BEST]:
            fr[ply, F_BEST] = score
            fr[ply, F_BEST_M] = m
        if score > fr[ply, F_ALPHA]:
            fr[ply, F_ALPHA] = score
        if fr[ply, F_ALPHA] >= fr[ply, F_BETA]:
            tried = fr[ply, F_I] - 1 if fr[ply, F_STAGE] == 2 else 0
            cut(ply, fr[ply, F_SIDE], m, fr[ply, F_DEPTH], killers, hist, moves, tried)
            value = store(ply, fr, st, tt)
            step = RETURN
        else:
            step = NEXT


@entry
@njit(nogil=True, cache=True, _nrt=False)
def search_root(st, side, left, depth, order, scores, full_window, tt, killers, hist, moves,
                keys, fr, stats, stop, ev):
    """One iteration at the root st[0] over the moves in `order`.

    Fills scores[m] (exact with full_window, else exact for the best and bounds for the
    rest) and returns (best move, value); stats[1] != 0 means the iteration was stopped
    and its figures must be discarded.
    """
    ply = np.int64(1)  # not a literal: the negamax Python calls (tests) is the same one
    alpha = -INF
    beta = INF
    best = -INF
    best_m = np.int64(order[0])
    for i in range(order.size):
        m = np.int64(order[i])
        cap = make_s(st, 0, side, m)
        res = judge_s(st, 1, cap, left - 1)
        if res != NOT_OVER:
            score = end_value(res, 1)
        elif full_window or i == 0:
            score = -negamax(st, ply, 1 - side, left - 1, depth - 1, -beta, -alpha, tt, killers,
                             hist, moves, keys, fr, stats, stop, ev)
        else:
            score = -negamax(st, ply, 1 - side, left - 1, depth - 1, -alpha - 1, -alpha, tt,
                             killers, hist, moves, keys, fr, stats, stop, ev)
            if score > alpha:
                score = -negamax(st, ply, 1 - side, left - 1, depth - 1, -beta, -alpha, tt,
                                 killers, hist, moves, keys, fr, stats, stop, ev)
        if stats[1] != 0:
            return best_m, best
        scores[m] = score
        if score > best:
            best = score
            best_m = m
        if not full_window and score > alpha:
            alpha = score
    key = tt_key(st, 0, left)
    idx = np.int64(key & np.uint64(tt.shape[0] - 1))
    tt_store(tt, idx, key, depth, tt_entry(to_tt(best, 0), depth, TT_EXACT, best_m))
    return best_m, best


# ----- the root: the safety net and the principal line ----------------------------------------
# classify's codes per root move
WINS, DRAWS, QUIET, ALLOWS_WIN, LOSES = 2, 1, 0, -1, -2


@entry
@njit(nogil=True, cache=True)
def classify(pos, left, moves, codes):
    """The root's moves (into `moves`, returning how many) and per move its one-move
    verdict (exact, judged as the rules do): WINS or LOSES or DRAWS at once, ALLOWS_WIN
    (the other side has a reply that wins at once), else QUIET."""
    child = np.zeros(PWORDS, dtype=np.uint64)
    grand = np.zeros(PWORDS, dtype=np.uint64)
    replies = np.zeros(MAX_MOVES, dtype=np.int64)
    n = legal_moves(pos, moves)
    for i in range(n):
        res, kind = play_code(pos, moves[i], left, child)
        if res == WIN:
            codes[i] = WINS
        elif res == LOSS:
            codes[i] = LOSES
        elif res == DRAW:
            codes[i] = DRAWS
        else:
            codes[i] = QUIET
            for j in range(legal_moves(child, replies)):
                res2, kind2 = play_code(child, replies[j], left - 1, grand)
                if res2 == WIN:
                    codes[i] = ALLOWS_WIN
                    break
    return n


@entry
@njit(nogil=True, cache=True)
def tt_pv(st, side, left, first, max_len, tt):
    """The principal line: `first`, then the TT's moves while they are stored and legal."""
    pv = np.full(max_len, -1, dtype=np.int64)
    length = 0
    m = first
    while length < max_len and length < MAX_PLY and m >= 0:
        cap = make_s(st, length, side, m)
        pv[length] = m
        length += 1
        left -= 1
        if judge_s(st, length, cap, left) != NOT_OVER:
            break
        side = 1 - side
        m = tt_move(tt, tt_key(st, length, left))
        if m >= 0 and not is_move(st, length, m):
            m = -1
    return pv[:length]
