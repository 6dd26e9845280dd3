"""Pousse kernels: int8 boards, push make/unmake, Zobrist hashing, perft, alpha-beta.

Board: int8[N*N] row-major, 0 empty, 1 X, 2 O (colour = side + 1). Move m in
0..4N-1 is side m // N (L, R, T, B) and row/column m % N, the order of
`rules.pousse.Pousse.legal_moves`. Line counts `lc[colour, line]` (rows 0..N-1,
columns N..2N-1) and straights `st[colour]` are kept up to date cell by cell,
so a move costs only the cells it shifts.

The path arrays hold one entry per configuration since the game's start
(index i: after i moves, side i % 2 to move): its hash and marker count. A
configuration can only repeat while the marker count is unchanged, and the
count never falls, so the repetition check scans back only that far.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_N = 20
MAX_PLY = 128
MATE = 1_000_000
WIN_BOUND = 900_000  # |score| above this is a forced win/loss (mate distance inside)
INF = 2_000_000
TT_EXACT, TT_LOWER, TT_UPPER = 0, 1, 2
THREAT = 4000  # a pure line one marker short: the side to move completes it next move

# Zobrist keys from a fixed seed so hashes are the same every run; [cell, colour],
# column 0 is unused by cells and [0, 0] is the side-to-move key.
ZOBRIST = np.random.default_rng(0x9005E).integers(
    1, 2**63, size=(MAX_N * MAX_N, 3), dtype=np.int64).astype(np.uint64)


@njit(nogil=True, cache=True)
def set_cell(board, n, idx, v, lc, st, zob, h):
    """Write v at idx, keeping line counts, straights and the hash; returns the hash."""
    old = board[idx]
    if old == v:
        return h
    r = idx // n
    c = n + idx % n
    if old != 0:
        h ^= zob[idx, old]
        if lc[old, r] == n:
            st[old] -= 1
        if lc[old, c] == n:
            st[old] -= 1
        lc[old, r] -= 1
        lc[old, c] -= 1
    if v != 0:
        h ^= zob[idx, v]
        lc[v, r] += 1
        lc[v, c] += 1
        if lc[v, r] == n:
            st[v] += 1
        if lc[v, c] == n:
            st[v] += 1
    board[idx] = v
    return h


@njit(nogil=True, cache=True)
def line_of(n, m):
    """(entry cell, step) of move m: the line's cells are entry + j*step, j = 0..n-1."""
    side = m // n
    i = m % n
    if side == 0:
        return i * n, 1
    if side == 1:
        return i * n + n - 1, -1
    if side == 2:
        return i, n
    return (n - 1) * n + i, -n


@njit(nogil=True, cache=True)
def make(board, n, m, colour, lc, st, zob, h):
    """Play m for colour; returns (hash, k, removed) where k is the last cell index that
    changed along the line and removed what was there (non-zero: pushed off)."""
    s, step = line_of(n, m)
    k = n - 1
    for j in range(n):
        if board[s + j * step] == 0:
            k = j
            break
    removed = board[s + k * step]
    for j in range(k, 0, -1):
        h = set_cell(board, n, s + j * step, board[s + (j - 1) * step], lc, st, zob, h)
    h = set_cell(board, n, s, colour, lc, st, zob, h)
    return h ^ zob[0, 0], k, removed


@njit(nogil=True, cache=True)
def unmake(board, n, m, k, removed, lc, st, zob, h):
    """Undo make(m) given its k and removed; returns the hash."""
    s, step = line_of(n, m)
    for j in range(k):
        h = set_cell(board, n, s + j * step, board[s + (j + 1) * step], lc, st, zob, h)
    h = set_cell(board, n, s + k * step, removed, lc, st, zob, h)
    return h ^ zob[0, 0]


@njit(nogil=True, cache=True)
def init_state(board, n, side, lc, st, zob):
    """Fill lc and st from board (lc, st zeroed here); returns the hash."""
    lc[:] = 0
    st[:] = 0
    cells = board.copy()
    board[:] = 0
    h = np.uint64(0)
    for idx in range(n * n):
        h = set_cell(board, n, idx, cells[idx], lc, st, zob, h)
    if side == 1:
        h ^= zob[0, 0]
    return h


@njit(nogil=True, cache=True)
def repeats(h, cnt, path_h, path_c, t):
    """Whether the configuration (h, cnt) about to sit at path index t occurred before."""
    i = t - 2
    while i >= 0 and path_c[i] == cnt:
        if path_h[i] == h:
            return True
        i -= 2
    return False


@njit(nogil=True, cache=True)
def result(mover, h, cnt, st, path_h, path_c, t):
    """Winner (0 X, 1 O) after mover's move reached (h, cnt) at path index t, else -1."""
    if repeats(h, cnt, path_h, path_c, t):
        return 1 - mover
    if st[1] > st[2]:
        return 0
    if st[2] > st[1]:
        return 1
    return -1


@njit(nogil=True, cache=True)
def replay(board, n, moves, lc, st, zob, path_h, path_c):
    """Play `moves` from the empty board, filling path_h/path_c[0..len(moves)].

    Returns the winner after the last move (-1 if none); the state is the final one.
    """
    board[:] = 0
    h = init_state(board, n, 0, lc, st, zob)
    cnt = 0
    path_h[0] = h
    path_c[0] = 0
    winner = -1
    for i in range(moves.size):
        side = i % 2
        h, k, removed = make(board, n, moves[i], side + 1, lc, st, zob, h)
        if removed == 0:
            cnt += 1
        path_h[i + 1] = h
        path_c[i + 1] = cnt
        winner = result(side, h, cnt, st, path_h, path_c, i + 1)
    return winner


@njit(nogil=True, cache=True)
def perft_walk(board, n, side, lc, st, zob, h, cnt, path_h, path_c, t, ply, depth, counts):
    for m in range(4 * n):
        counts[ply] += 1
        h2, k, removed = make(board, n, m, side + 1, lc, st, zob, h)
        cnt2 = cnt + (1 if removed == 0 else 0)
        if ply + 1 < depth and result(side, h2, cnt2, st, path_h, path_c, t + 1) < 0:
            path_h[t + 1] = h2
            path_c[t + 1] = cnt2
            perft_walk(board, n, 1 - side, lc, st, zob, h2, cnt2, path_h, path_c, t + 1,
                       ply + 1, depth, counts)
        unmake(board, n, m, k, removed, lc, st, zob, h2)


@njit(nogil=True, cache=True)
def perft(board, n, side, lc, st, zob, h, cnt, path_h, path_c, t, depth):
    """Leaf counts for depths 1..depth from the configuration at path index t."""
    counts = np.zeros(depth, dtype=np.int64)
    if depth > 0:
        # ply as a plain int64 (t - t), not the literal 0: a second, literal-typed
        # specialisation of a recursive kernel segfaults when loaded from the cache
        # (numba issues 6061/6713).
        perft_walk(board, n, side, lc, st, zob, h, cnt, path_h, path_c, t, t - t, depth, counts)
    return counts


@njit(nogil=True, cache=True)
def evaluate(n, side, lc):
    """Static score for the side to move: lines weighted by markers, pure lines double,
    a pure line one short is a threat (the side to move would complete it)."""
    e = 0
    my_threat = False
    their_threats = 0
    for line in range(2 * n):
        a = np.int64(lc[1, line])
        b = np.int64(lc[2, line])
        e += a * a * (2 if b == 0 else 1) - b * b * (2 if a == 0 else 1)
        if b == 0 and a == n - 1:
            if side == 0:
                my_threat = True
            else:
                their_threats += 1
        elif a == 0 and b == n - 1:
            if side == 1:
                my_threat = True
            else:
                their_threats += 1
    if side == 1:
        e = -e
    if my_threat:
        e += THREAT
    elif their_threats > 1:
        e -= THREAT // 2
    return e


@njit(nogil=True, cache=True)
def to_tt(score, ply):
    if score > WIN_BOUND:
        return score + ply
    if score < -WIN_BOUND:
        return score - ply
    return score


@njit(nogil=True, cache=True)
def from_tt(score, ply):
    if score > WIN_BOUND:
        return score - ply
    if score < -WIN_BOUND:
        return score + ply
    return score


@njit(nogil=True, cache=True)
def negamax(board, n, side, lc, st, zob, h, cnt, path_h, path_c, t, ply, depth, alpha, beta,
            tt_key, tt_move, tt_score, tt_depth, tt_flag, killers, hist, moves, keys,
            stats, stop):
    """Score of the configuration at path index t for the side to move (PVS, TT)."""
    stats[0] += 1
    if (stats[0] & 2047) == 0 and stop[0] != 0:
        stats[1] = 1
    if stats[1] != 0:
        return 0
    if depth <= 0 or ply >= MAX_PLY - 1:
        return evaluate(n, side, lc)
    idx = np.int64(h & np.uint64(tt_key.size - 1))
    tt_m = -1
    if tt_key[idx] == h:
        tt_m = tt_move[idx]
        if tt_depth[idx] >= depth:
            s = from_tt(np.int64(tt_score[idx]), ply)
            f = tt_flag[idx]
            if f == TT_EXACT or (f == TT_LOWER and s >= beta) or (f == TT_UPPER and s <= alpha):
                return s
    nm = 4 * n
    for m in range(nm):
        moves[ply, m] = m
        if m == tt_m:
            keys[ply, m] = 1 << 50
        elif m == killers[ply, 0]:
            keys[ply, m] = 1 << 49
        elif m == killers[ply, 1]:
            keys[ply, m] = 1 << 48
        else:
            keys[ply, m] = hist[side, m]
    alpha0 = alpha
    best = -INF
    best_m = -1
    win = MATE - (ply + 1)
    for i in range(nm):
        j_best = i
        for j in range(i + 1, nm):
            if keys[ply, j] > keys[ply, j_best]:
                j_best = j
        if j_best != i:
            moves[ply, i], moves[ply, j_best] = moves[ply, j_best], moves[ply, i]
            keys[ply, i], keys[ply, j_best] = keys[ply, j_best], keys[ply, i]
        m = moves[ply, i]
        h2, k, removed = make(board, n, m, side + 1, lc, st, zob, h)
        cnt2 = cnt + (1 if removed == 0 else 0)
        res = result(side, h2, cnt2, st, path_h, path_c, t + 1)
        if res >= 0:
            score = win if res == side else -win
        else:
            path_h[t + 1] = h2
            path_c[t + 1] = cnt2
            if best_m < 0:
                score = -negamax(board, n, 1 - side, lc, st, zob, h2, cnt2, path_h, path_c,
                                 t + 1, ply + 1, depth - 1, -beta, -alpha, tt_key, tt_move,
                                 tt_score, tt_depth, tt_flag, killers, hist, moves, keys,
                                 stats, stop)
            else:
                score = -negamax(board, n, 1 - side, lc, st, zob, h2, cnt2, path_h, path_c,
                                 t + 1, ply + 1, depth - 1, -alpha - 1, -alpha, tt_key,
                                 tt_move, tt_score, tt_depth, tt_flag, killers, hist, moves,
                                 keys, stats, stop)
                if alpha < score < beta:
                    score = -negamax(board, n, 1 - side, lc, st, zob, h2, cnt2, path_h,
                                     path_c, t + 1, ply + 1, depth - 1, -beta, -alpha, tt_key,
                                     tt_move, tt_score, tt_depth, tt_flag, killers, hist,
                                     moves, keys, stats, stop)
        unmake(board, n, m, k, removed, lc, st, zob, h2)
        if stats[1] != 0:
            return 0
        if score > best:
            best = score
            best_m = m
        if score > alpha:
            alpha = score
        if alpha >= beta:
            if res < 0 and m != killers[ply, 0]:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = m
            hist[side, m] += depth * depth
            break
    flag = TT_UPPER if best <= alpha0 else (TT_LOWER if best >= beta else TT_EXACT)
    tt_key[idx] = h
    tt_move[idx] = best_m
    tt_score[idx] = to_tt(best, ply)
    tt_depth[idx] = depth
    tt_flag[idx] = flag
    return best


@njit(nogil=True, cache=True)
def search_root(board, n, side, lc, st, zob, h, cnt, path_h, path_c, t, depth, order,
                scores, full_window, tt_key, tt_move, tt_score, tt_depth, tt_flag, killers,
                hist, moves, keys, stats, stop):
    """One iteration at the root over the moves in `order` (best guess first).

    Fills scores[m] (exact with full_window, else exact for the best and bounds for the
    rest) and returns (best move, score); stats[1] != 0 means the iteration was stopped
    and its figures must be discarded.
    """
    alpha = -INF
    beta = INF
    best = -INF
    best_m = order[0]
    one = depth - depth + 1  # int64, not a literal: see perft (one recursive specialisation)
    win = MATE - 1
    for i in range(order.size):
        m = order[i]
        h2, k, removed = make(board, n, m, side + 1, lc, st, zob, h)
        cnt2 = cnt + (1 if removed == 0 else 0)
        res = result(side, h2, cnt2, st, path_h, path_c, t + 1)
        if res >= 0:
            score = win if res == side else -win
        else:
            path_h[t + 1] = h2
            path_c[t + 1] = cnt2
            if full_window or i == 0:
                score = -negamax(board, n, 1 - side, lc, st, zob, h2, cnt2, path_h, path_c,
                                 t + 1, one, depth - 1, -beta, -alpha,
                                 tt_key, tt_move, tt_score, tt_depth, tt_flag, killers, hist,
                                 moves, keys, stats, stop)
            else:
                score = -negamax(board, n, 1 - side, lc, st, zob, h2, cnt2, path_h, path_c,
                                 t + 1, one, depth - 1, -alpha - 1, -alpha, tt_key, tt_move,
                                 tt_score, tt_depth, tt_flag, killers, hist, moves, keys,
                                 stats, stop)
                if score > alpha:
                    score = -negamax(board, n, 1 - side, lc, st, zob, h2, cnt2, path_h,
                                     path_c, t + 1, one, depth - 1, -beta, -alpha, tt_key,
                                     tt_move, tt_score, tt_depth, tt_flag, killers, hist,
                                     moves, keys, stats, stop)
        unmake(board, n, m, k, removed, lc, st, zob, h2)
        if stats[1] != 0:
            return best_m, best
        scores[m] = score
        if score > best:
            best = score
            best_m = m
        if not full_window and score > alpha:
            alpha = score
    idx = np.int64(h & np.uint64(tt_key.size - 1))
    tt_key[idx] = h
    tt_move[idx] = best_m
    tt_score[idx] = best
    tt_depth[idx] = depth
    tt_flag[idx] = TT_EXACT
    return best_m, best


@njit(nogil=True, cache=True)
def classify(board, n, side, lc, st, zob, h, cnt, path_h, path_c, t):
    """Per root move: 2 wins at once, -2 loses at once, -1 lets the opponent win at
    once, 0 otherwise (the one-move safety net, exact: no TT, the real history)."""
    codes = np.zeros(4 * n, dtype=np.int32)
    for m in range(4 * n):
        h2, k, removed = make(board, n, m, side + 1, lc, st, zob, h)
        cnt2 = cnt + (1 if removed == 0 else 0)
        res = result(side, h2, cnt2, st, path_h, path_c, t + 1)
        if res == side:
            codes[m] = 2
        elif res >= 0:
            codes[m] = -2
        else:
            path_h[t + 1] = h2
            path_c[t + 1] = cnt2
            for m2 in range(4 * n):
                h3, k2, removed2 = make(board, n, m2, 2 - side, lc, st, zob, h2)
                cnt3 = cnt2 + (1 if removed2 == 0 else 0)
                res2 = result(1 - side, h3, cnt3, st, path_h, path_c, t + 2)
                unmake(board, n, m2, k2, removed2, lc, st, zob, h3)
                if res2 == 1 - side:
                    codes[m] = -1
                    break
        unmake(board, n, m, k, removed, lc, st, zob, h2)
    return codes


@njit(nogil=True, cache=True)
def tt_pv(board, n, side, lc, st, zob, h, cnt, path_h, path_c, t, first, max_len, tt_key,
          tt_move):
    """The principal variation: `first`, then TT moves while they are stored (undone after)."""
    pv = np.full(max_len, -1, dtype=np.int32)
    ks = np.zeros(max_len, dtype=np.int64)
    rs = np.zeros(max_len, dtype=np.int8)
    length = 0
    m = first
    while length < max_len and m >= 0:
        h, k, removed = make(board, n, m, side + 1, lc, st, zob, h)
        cnt += 1 if removed == 0 else 0
        pv[length] = m
        ks[length] = k
        rs[length] = removed
        length += 1
        if result(side, h, cnt, st, path_h, path_c, t + length) >= 0:
            break
        path_h[t + length] = h
        path_c[t + length] = cnt
        side = 1 - side
        idx = np.int64(h & np.uint64(tt_key.size - 1))
        m = tt_move[idx] if tt_key[idx] == h else -1
        if m >= 4 * n:
            m = -1
    for i in range(length - 1, -1, -1):
        h = unmake(board, n, pv[i], ks[i], rs[i], lc, st, zob, h)
    return pv[:length]
