"""What both Pousse kernel engines share: constants, the repetition scan, the TT score
convention, move ordering and the evaluation from per-line marker counts.

A position lives in one row of a `stack` (uint64[MAX_PLY + 2, WORDS]), written by
the engine's copy-make; word 0 is always the Zobrist hash of the configuration.
"""

from __future__ import annotations

import numpy as np

from ai.jit import njit

MAX_N = 20
MAX_PLY = 128
WORDS = 4 * MAX_N + 4  # the widest engine's state (lines: four masks a line and 4 words)
MATE = 1_000_000
WIN_BOUND = 900_000  # |score| above this is a forced win/loss (mate distance inside)
INF = 2_000_000
TT_EXACT, TT_LOWER, TT_UPPER = 0, 1, 2
THREAT = 4000  # a pure line one marker short: the side to move completes it next move




@njit(nogil=True, cache=True, inline="always")
def repeats(h, path_h, t, irr):
    """Whether configuration t (hash h) repeats one of configurations irr..t-2 with the same
    side to move: those since the last marker was added, as the count never falls."""
    i = t - 2
    while i >= irr:
        if path_h[i] == h:
            return True
        i -= 2
    return False


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


@njit(nogil=True, cache=True)
def line_term(a, b, n, e, threats):
    """Add one line with a markers of the side to move and b of the other to the running
    (e, threats): lines weighted by markers, pure lines double; threats counts the other
    side's pure lines one short, or is -1 once the side to move has one."""
    e += a * a * (2 if b == 0 else 1) - b * b * (2 if a == 0 else 1)
    if b == 0 and a == n - 1:
        threats = -1
    elif a == 0 and b == n - 1 and threats >= 0:
        threats += 1
    return e, threats


@njit(nogil=True, cache=True)
def threat_value(e, threats):
    """The evaluation from line_term's totals: a pure line one short of the side to move
    wins a straight next move; two of the other side's cannot both be blocked."""
    if threats < 0:
        return e + THREAT
    if threats > 1:
        return e - THREAT // 2
    return e


@njit(nogil=True, cache=True)
def evaluate_counts(lc, n):
    """Static score for the side to move from lc[0, line] (its markers per line) and
    lc[1, line] (the other's), rows then columns (see line_term)."""
    e = 0
    threats = 0
    for line in range(2 * n):
        e, threats = line_term(lc[0, line], lc[1, line], n, e, threats)
    return threat_value(e, threats)


@njit(nogil=True, cache=True, inline="always")
def pick_next(i, nm, ply, moves, keys):
    """Selection-sort step: bring the best remaining move to slot i and return it
    (cut-offs usually come early, so sorting the rest is wasted)."""
    j_best = i
    for j in range(i + 1, nm):
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
