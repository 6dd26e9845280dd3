"""LOAPS evaluation: who connects first, and what a connection is worth on points.

A connection ends the game and the points decide it, so the value of a position
is modelled as an expected result (+1000 a win, -1000 a loss):

    E = p * T(d + 12) + (1 - p) * T(d - 12)

where d is the side to move's points minus the other side's, p the chance that
the side to move connects first, and T(x) = 1000 * erf(x / (sigma * sqrt 2)) the
expected result of a game ending with a margin of x points give or take the
points still to come (sigma). So while |d| < 12 the race to connect is all that
matters, a side far ahead wants anyone to connect (the other side's connection
still leaves it ahead), and a side far behind must not connect and must keep
the other side from connecting.

p is a logistic function of the race: the difference of the two sides'
concentration (the pieces' Chebyshev distances to their centre of mass, less
the least possible), of their mobility, and a tempo for the side to move.
Linear terms in the race and the points keep a decided race making progress
(and a point worth taking, or keeping from the other side, at any margin);
the points the side to move can score with its next move (d4, a bonus square,
a capture) count about as much as points scored, since a leaf's static value
would otherwise miss a piece shuttling between d4 and f6 for 10 points every
two moves; near the 50-move draw the value shrinks toward the draw's 0.

Before all that, a side to move that can connect and win on points has won
(MATE - ply - 1, exact): only a landing square next to every group of its
pieces but the moving piece's own can connect them, so a few bitboard masks
leave almost no move to flood-fill.

Self-play chose the features and weights (200 games each, colours alternating):
at depth 5, concentration alone beat concentration with group counts and pieces
outside the largest group 122-74 (4 draws); at 0.05 s a move, mobility added
125-69 and the win in one 108-85; the centre of mass's place, a bonus for
bonus squares in reach, other tempos, slopes, sigmas and weights did no better.
Later, at 0.2 s a move over 80 games from 40 seeded starts, colours swapped: the
points in reach (gain 40) and the linear points weight from 8 to 24 won 44 of
80 against the old weights in self-play, and 127 of 160 (79.4%) against the
sparring C program where the old weights won 112.5 (70.3%); a points weight of
48 did better against that program (78.1%) but lost to the old weights in
self-play (35 of 80), so it was not taken.
The weights, both curves and the search's switches are one int64 array
(`make_params`), so they can be tuned without recompiling.
"""

from __future__ import annotations

import math

import numpy as np

from ai.jit import njit
from ai.loaps.kernels import (
    ALL,
    BIT,
    BONUS,
    CONNECT_POINTS,
    ONE,
    P_C0,
    P_C1,
    P_C2,
    P_ME,
    P_OPP,
    P_PME,
    P_POPP,
    U1,
    U8,
    ZERO,
    connected,
    group_of,
    lowest,
    popcount,
    targets,
)

SCALE = 1000  # the value of a certain win (by the evaluation)
MATE = 1_000_000  # a win seen by the search: MATE - ply
WIN_BOUND = 900_000  # |value| above this: the end of the game is seen (ply inside)
# params layout: the weights, then the search's switches (late move reductions after this
# many moves, 0 off; the null move's depth reduction, 0 off; the win-in-one check at
# interior nodes, 0 off), then the logistic's and T's tables
W_CONC, TEMPO, W_MOB, W_RACE, W_POINTS, LEFT_FULL, LMR_FROM, NULL_R, WIN_CHECK = range(9)
THREAT_EXT = 9  # the threat extension at the last ply (see search.leaf_parent), 0 off
W_GAIN = 10  # per point the side to move can score with its next move
LMP = 11  # late move pruning near the horizon (see search.negamax): moves per ply, 0 off
SIG_R = 96  # the logistic table covers races -SIG_R..SIG_R quarter moves
EV_SIG = 16
EV_T = EV_SIG + 2 * SIG_R + 1
T_OFF = 512  # T's table covers margins -T_OFF..T_OFF
PARAMS_SIZE = EV_T + 2 * T_OFF + 1

DEFAULTS = {
    "conc": 2,  # quarter moves per unit of concentration
    "tempo": 3,  # quarter moves: the side to move's head start
    "mob": 3,  # eighths of a quarter move per move of mobility over the other side's
    "race": 2,  # per quarter move of the race, linear
    "points": 24,  # per point, linear (see the module's docstring)
    "left_full": 24,  # plies before the draw below which the value shrinks toward 0
    "slope": 6.0,  # quarter moves per unit of the logistic's argument
    "sigma": 8.0,  # the points still to come (T's spread)
    "lmr": 3,
    "null": 2,
    "win_check": 1,
    "threat": 1,
    "gain": 40,  # per point the side to move can score at once (about a point's worth)
    "lmp": 3,
}


def make_params(**changes: float) -> np.ndarray:
    """The evaluation's params array from DEFAULTS and `changes`."""
    w = {**DEFAULTS, **changes}
    unknown = set(changes) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown evaluation weights {sorted(unknown)}")
    ev = np.zeros(PARAMS_SIZE, dtype=np.int64)
    for i, name in enumerate(("conc", "tempo", "mob", "race", "points", "left_full", "lmr",
                              "null", "win_check", "threat", "gain", "lmp")):
        ev[i] = int(w[name])
    ev[LEFT_FULL] = max(1, ev[LEFT_FULL])
    for x in range(-SIG_R, SIG_R + 1):
        ev[EV_SIG + SIG_R + x] = round(1024 / (1 + math.exp(-x / w["slope"])))
    for x in range(-T_OFF, T_OFF + 1):
        ev[EV_T + T_OFF + x] = round(SCALE * math.erf(x / (w["sigma"] * math.sqrt(2))))
    return ev


PARAMS = make_params()
# the point squares as masks, from the kernels' landing points: d4 (7), b2 b6 f2 f6 (3)
CENTRE = np.uint64(sum(1 << sq for sq in range(64) if BONUS[sq] == BONUS.max()))
CORNERS = np.uint64(sum(1 << sq for sq in range(64) if 0 < BONUS[sq] < BONUS.max()))


def _bit_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROWB[j] / COLB[j]: the squares whose row / column has bit j set (a row sum is
    sum of 2^j * popcount(b & ROWB[j])); DISTB[c, j]: the squares whose Chebyshev
    distance to square c has bit j set."""
    rowb = np.zeros(3, dtype=np.uint64)
    colb = np.zeros(3, dtype=np.uint64)
    distb = np.zeros((64, 3), dtype=np.uint64)
    squares = [(r, c) for r in range(7) for c in range(7)]
    for r, c in squares:
        for j in range(3):
            if r >> j & 1:
                rowb[j] |= np.uint64(1 << (8 * r + c))
            if c >> j & 1:
                colb[j] |= np.uint64(1 << (8 * r + c))
    for cr, cc in squares:
        for r, c in squares:
            d = max(abs(r - cr), abs(c - cc))
            for j in range(3):
                if d >> j & 1:
                    distb[8 * cr + cc, j] |= np.uint64(1 << (8 * r + c))
    return rowb, colb, distb


ROWB, COLB, DISTB = _bit_tables()


@njit(nogil=True, cache=True)
def concentration(b):
    """The sum of the pieces of b's (not empty) Chebyshev distances from their centre of
    mass, less the least such sum for as many pieces (0: as tight as they can be)."""
    n = popcount(b)
    rsum = popcount(b & ROWB[0]) + 2 * popcount(b & ROWB[1]) + 4 * popcount(b & ROWB[2])
    csum = popcount(b & COLB[0]) + 2 * popcount(b & COLB[1]) + 4 * popcount(b & COLB[2])
    dist = DISTB[((2 * rsum + n) // (2 * n)) * 8 + (2 * csum + n) // (2 * n)]
    conc = popcount(b & dist[0]) + 2 * popcount(b & dist[1]) + 4 * popcount(b & dist[2]) - n + 1
    return conc if conc > 0 else 0


@njit(nogil=True, cache=True)
def dilate(b):
    """b and its 8 neighbours' squares (within the padded 8x8 board)."""
    x = b | (b << U1) | (b >> U1)
    return x | (x << U8) | (x >> U8)


@njit(nogil=True, cache=True)
def groups_of(b):
    """(the number of groups, the squares next to every group, the squares next to all
    groups but one) of the pieces b (not empty)."""
    groups = 0
    every = ALL
    but_one = ZERO
    rest = b
    while rest != ZERO:
        g = group_of(rest & (ZERO - rest), rest)
        rest ^= g
        groups += 1
        d = dilate(g)
        but_one = (but_one & d) | (every & ~d)
        every &= d
    return groups, every, but_one


@njit(nogil=True, cache=True)
def mobility(me, opp, c0, c1, c2):
    """The number of moves of the side with pieces me."""
    total = 0
    b = me
    while b != ZERO:
        k = lowest(b)
        b &= b - ONE
        total += popcount(targets(k, me, opp, c0, c1, c2))
    return total


@njit(nogil=True, cache=True)
def connecting_win(me, opp, c0, c1, c2, pme, popp):
    """(whether the side to move has a move that connects its pieces and wins on points,
    its mobility, the most points one of its moves scores). Only a landing square next
    to all groups but the moving piece's own can connect them, so few moves need the
    flood fill. A side already connected (only at the root of a native file) is not
    looked at."""
    groups, every, but_one = groups_of(me)
    near = every | but_one if groups > 1 else ZERO
    mob = 0
    gain = 0
    b = me
    while b != ZERO:
        k = lowest(b)
        b &= b - ONE
        t = targets(k, me, opp, c0, c1, c2)
        mob += popcount(t)
        if gain < 8 and t != ZERO:
            g = 0
            if (t & CENTRE) != ZERO:
                g = 8 if (t & CENTRE & opp) != ZERO else 7
            elif (t & CORNERS) != ZERO:
                g = 4 if (t & CORNERS & opp) != ZERO else 3
            elif (t & opp) != ZERO:
                g = 1
            if g > gain:
                gain = g
        t &= near
        while t != ZERO:
            to = lowest(t)
            t &= t - ONE
            if connected(me ^ BIT[k] ^ BIT[to]):
                gain_c = BONUS[to] + (1 if (opp & BIT[to]) != ZERO else 0)
                if pme + gain_c + CONNECT_POINTS > popp:
                    return True, mob, gain
    return False, mob, gain


@njit(nogil=True, cache=True)
def evaluate(me, opp, c0, c1, c2, pme, popp, left, ply, ev):
    """The value at `ply` for the side to move (pieces me, points pme) of a position that
    is not over (line counts c0, c1, c2), `left` plies before the 50-move draw: a win in
    one (MATE - ply - 1) when it can connect and win on points, else within +-SCALE plus
    the linear terms."""
    wins, mob_me, gain = connecting_win(me, opp, c0, c1, c2, pme, popp)
    if wins:
        return MATE - ply - 1
    return value_of(me, opp, c0, c1, c2, pme, popp, left, ev, mob_me,
                    mobility(opp, me, c0, c1, c2), gain)


@njit(nogil=True, cache=True)
def evaluate_threat(me, opp, c0, c1, c2, pme, popp, left, ply, ev):
    """(`evaluate`'s value, whether the other side, not to move, threatens to connect and
    win on points with its next move: True only when the side to move cannot win at
    once)."""
    wins, mob_me, gain = connecting_win(me, opp, c0, c1, c2, pme, popp)
    if wins:
        return MATE - ply - 1, False
    threat, mob_op, _ = connecting_win(opp, me, c0, c1, c2, popp, pme)
    return value_of(me, opp, c0, c1, c2, pme, popp, left, ev, mob_me, mob_op, gain), threat


@njit(nogil=True, cache=True)
def value_of(me, opp, c0, c1, c2, pme, popp, left, ev, mob_me, mob_op, gain):
    """The evaluation's value (within +-SCALE plus the linear terms) from both mobilities
    and the points the side to move can score at once."""
    race = ev[W_CONC] * (concentration(opp) - concentration(me)) + ev[TEMPO]
    race += (ev[W_MOB] * (mob_me - mob_op)) >> 3
    d = pme - popp
    x = race
    if x > SIG_R:
        x = SIG_R
    elif x < -SIG_R:
        x = -SIG_R
    p = ev[EV_SIG + SIG_R + x]
    dw = d + 12
    dl = d - 12
    if dw > T_OFF:
        dw = T_OFF
    if dl < -T_OFF:
        dl = -T_OFF
    value = (p * ev[EV_T + T_OFF + dw] + (1024 - p) * ev[EV_T + T_OFF + dl]) >> 10
    value += ev[W_RACE] * race + ev[W_POINTS] * d + ev[W_GAIN] * gain
    full = ev[LEFT_FULL]
    if left < full:
        value = value * left // full
    return value


@njit(nogil=True, cache=True)
def evaluate_position(pos, left, ev):
    """`evaluate` of a board kernels' position at ply 0 (tests)."""
    return evaluate(pos[P_ME], pos[P_OPP], pos[P_C0], pos[P_C1], pos[P_C2],
                    np.int64(pos[P_PME]), np.int64(pos[P_POPP]), left, 0, ev)

