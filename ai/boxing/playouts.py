"""Boxing play-outs for any number of players: the game played to its end at random.

A play-out move is a box at a random place among the boxes of its size: the largest that
fits half the time, else 1 to the largest, uniformly. A move is drawn again (a few times)
when it would leave the next player the rest in one box. Whoever can fill the rest in one
box does. So play-outs move about like a greedy player and last tens of moves, not
hundreds.

Two-player play-outs from the engine's depth 4 (`exact_left` > 0) model the phase that
decides the game. They end early on the Grundy table: once every region a play-out leaves
has a value there, the XOR names the winner. And the size is one after which the mover
would make the last move if no later box changed the count of moves left (`parity_size`,
below: an odd side when the vacant cells are odd, else an even one), the largest such
half the time, else one of them at random: sizes drawn without regard to the count let
the other side answer at random where the count decides the game (hard with the count in
all its play-outs beat hard without 29 of 40; given to every level it made easy and
medium as much stronger, and the levels closer, so it is depth 4's). With more than two
players play-outs in which everyone plays for the count misjudged the game, where a
player who cannot take the count makes another's game (hard with them won 0 of 24
three-player games against two hards without).

With P players a box of side k takes one move for k^2 cells, so the moves left are the
vacant cells less the sum of (k^2 - 1) over the boxes still to come. Where no box left
has k^2 - 1 divisible by P (`settles`) that sum is 0 modulo P, so whoever moves, the
player (vacant - 1) turns after the mover makes the last move: with three players that
is as soon as no 3 x 3 box fits (2 x 2, 4 x 4 and 5 x 5 boxes change nothing modulo 3),
and a play-out for more than two players ends there.

So before that the game is about the boxes of the smallest side t that changes the count
(`turning`: 3 with three players, else 2): a box that overlaps every t x t box still
vacant settles the winner, and the mover who can settle it on itself (`settle_win`: the
cells left after it a multiple of the players) has won. With more than two players a
play-out mover who can does, as one who can fill the rest in one box does.
"""

from __future__ import annotations

import numpy as np

from ai.bits import below, mix_seed, next_random, popcount, ucb_pick
from ai.boxing.grundy import UNKNOWN, table_xor
from ai.boxing.kernels import HEIGHT, MAX_BOX, SIDE, ZERO, next_level, vacant
from ai.jit import entry, leading_zeros, njit, trailing_zeros

RETRIES = 4  # draws per move before a box that hands over a finish is accepted


@njit(nogil=True, cache=True)
def all_levels(rows: np.ndarray, lev: np.ndarray) -> int:
    """Level k of the boxes into `lev[k]` (bit c of row r: the k x k box at (r, c) is
    vacant) for every k that has one; the largest such k (0 when none)."""
    for r in range(HEIGHT):
        lev[1, r] = rows[r]
    any_bit = ZERO
    for r in range(HEIGHT):
        any_bit |= rows[r]
    if any_bit == ZERO:
        return 0
    k = 1
    while k < MAX_BOX:
        for r in range(HEIGHT):
            lev[k + 1, r] = lev[k, r]
        if not next_level(lev[k + 1], HEIGHT - k + 1):
            break
        for r in range(HEIGHT - k, HEIGHT):
            lev[k + 1, r] = ZERO
        k += 1
    return k


@entry
@njit(nogil=True, cache=True)
def rest_is_one_box(rows: np.ndarray, left: int) -> bool:
    """Whether the `left` vacant cells of `rows` form one square box (the mover then
    fills them and wins)."""
    if left == 0:
        return False
    side = 1
    while side * side < left:
        side += 1
    if side * side != left:
        return False
    first = -1
    bits = ZERO
    used = 0
    for r in range(HEIGHT):
        if rows[r] != ZERO:
            if first < 0:
                first, bits = r, rows[r]
            elif rows[r] != bits or r != first + used:
                return False
            used += 1
    if used != side or popcount(bits) != side:
        return False
    low = bits & (ZERO - bits)
    return (bits + low) & bits == ZERO  # one run of bits


@njit(nogil=True, cache=True)
def pick(lev: np.ndarray, k: int, s: np.uint64) -> tuple[int, int, np.uint64]:
    """A uniformly chosen box of level k: its row and column, and the random state."""
    total = 0
    for r in range(HEIGHT):
        total += popcount(lev[k, r])
    s = next_random(s)
    i = below(s, total)
    for r in range(HEIGHT):
        n = popcount(lev[k, r])
        if i < n:
            m = lev[k, r]
            for _ in range(i):
                m &= m - np.uint64(1)
            return r, np.int64(trailing_zeros(m)), s
        i -= n
    return -1, -1, s


@njit(nogil=True, cache=True)
def settled(rows: np.ndarray, keys: np.ndarray, vals: np.ndarray, scratch: np.ndarray,
            cols: np.ndarray) -> int:
    """The XOR of the regions of `rows` (two players) when the table holds every one's
    value (or it is a line), else UNKNOWN. `scratch` is 2 x HEIGHT words."""
    for r in range(HEIGHT):
        scratch[0, r] = rows[r]
    return table_xor(scratch[0], keys, vals, scratch[1], cols, scratch[1])


@njit(nogil=True, cache=True, inline="always")
def settles(players: int, kmax: int) -> bool:
    """Whether no box of side 2..kmax changes who makes the last move with `players`
    players (k^2 = 1 modulo players for every such k)."""
    for k in range(2, kmax + 1):
        if (k * k) % players != 1:
            return False
    return True


@njit(nogil=True, cache=True, inline="always")
def turning(players: int) -> int:
    """The smallest side k > 1 whose box changes who makes the last move (k^2 is not 1
    modulo players)."""
    k = 2
    while (k * k) % players == 1:
        k += 1
    return k


@njit(nogil=True, cache=True)
def settle_win(lev: np.ndarray, kmax: int, left: int, players: int) -> int:
    """A box (move code) after which no box can change who moves last and the mover
    makes the last move (`left` vacant cells, the levels `lev` up to kmax), or -1. Such a
    box overlaps every box of side t = `turning` (their rows and columns span at most
    t - 1 past it) and leaves a multiple of `players` cells."""
    t = turning(players)
    if kmax < t:
        return -1
    top, bottom, first, last = HEIGHT, -1, 64, -1
    for r in range(HEIGHT - t + 1):
        b = lev[t, r]
        if b == ZERO:
            continue
        if top == HEIGHT:
            top = r
        bottom = r
        lo = np.int64(trailing_zeros(b))
        hi = 63 - np.int64(leading_zeros(b))
        if lo < first:
            first = lo
        if hi > last:
            last = hi
    for k in range(1, kmax + 1):
        if (left - k * k) % players != 0:
            continue
        r0 = max(bottom - k + 1, 0)
        r1 = min(top + t - 1, HEIGHT - k)
        c0 = max(last - k + 1, 0)
        c1 = min(first + t - 1, 32 - k)
        if r0 > r1 or c0 > c1:
            continue
        window = (SIDE[c1 - c0 + 1]) << np.uint64(c0)
        for r in range(r0, r1 + 1):
            hit = lev[k, r] & window
            if hit != ZERO:
                return k << 16 | r << 8 | np.int64(trailing_zeros(hit))
    return -1


@entry
@njit(nogil=True, cache=True)
def settle_wins(kids: np.ndarray, left: np.ndarray, n: int, players: int,
                out: np.ndarray) -> None:
    """out[i]: 1 if the player who moved to kids[i] (left[i] vacant cells) has lost
    there: the winner is settled and another, or the player to move can settle it on
    itself (`settle_win`); else 0."""
    lev = np.zeros((MAX_BOX + 1, HEIGHT), np.uint64)
    for i in range(n):
        kmax = all_levels(kids[i], lev)
        if settles(players, kmax):
            out[i] = 1 if left[i] % players != 0 else 0
        else:
            out[i] = 1 if settle_win(lev, kmax, left[i], players) >= 0 else 0


@entry
@njit(nogil=True, cache=True)
def settle_move(rows: np.ndarray, players: int) -> int:
    """`settle_win` for the player to move in `rows`: a move code or -1."""
    lev = np.zeros((MAX_BOX + 1, HEIGHT), np.uint64)
    kmax = all_levels(rows, lev)
    return settle_win(lev, kmax, vacant(rows), players)


@entry
@njit(nogil=True, cache=True)
def turning_boxes(kids: np.ndarray, n: int, players: int, out: np.ndarray) -> None:
    """out[i]: how many boxes of the side that changes who moves last (`turning`) are
    vacant in kids[i], overlapping ones each counted."""
    t = turning(players)
    for i in range(n):
        count = 0
        for r in range(HEIGHT - t + 1):
            rows = kids[i, r]
            for j in range(1, t):
                rows &= kids[i, r + j]
            boxes = rows
            for j in range(1, t):
                boxes &= rows >> np.uint64(j)
            count += popcount(boxes)
        out[i] = count


@njit(nogil=True, cache=True, inline="always")
def parity_size(kmax: int, left: int, players: int, s: np.uint64) -> int:
    """A side k <= kmax after whose box the mover would make the last move if no box
    changed the count again (k^2 = left modulo players): the largest such half the time
    (the draw's bit 1), else one of them at random (its upper bits); 0 when there is
    none."""
    want = left % players
    n = 0
    top = 0
    for k in range(1, kmax + 1):
        if (k * k) % players == want:
            n += 1
            top = k
    if n == 0:
        return 0
    if s & np.uint64(2):
        return top
    i = below(s, n)
    for k in range(1, kmax + 1):
        if (k * k) % players == want:
            if i == 0:
                return k
            i -= 1
    return top


@njit(nogil=True, cache=True)
def playout(rows: np.ndarray, players: int, s: np.uint64, lev: np.ndarray,
            work: np.ndarray, keys: np.ndarray, vals: np.ndarray, exact_left: int,
            scratch: np.ndarray, cols: np.ndarray) -> tuple[int, np.uint64]:
    """Play `rows` (not full) to the end: the winner, counted in moves from the player to
    move (0: that player), and the random state after. With `exact_left` > 0 (two players)
    a play-out down to that many vacant cells ends as soon as the table values its
    position (the mover wins a non-zero XOR), and its movers play for the count."""
    for r in range(HEIGHT):
        work[r] = rows[r]
    left = vacant(work)
    turn = 0
    while True:
        if left <= exact_left:
            x = settled(work, keys, vals, scratch, cols)
            if x != UNKNOWN:
                return turn if x != 0 else 1 - turn, s
        kmax = all_levels(work, lev)
        if kmax * kmax == left:
            return turn, s  # the rest is one box: the mover fills it
        if players > 2:  # (for two players too it makes their play-outs 4 times faster,
            # but the two-player levels were measured without it: measure them again with
            # it before it is turned on)
            if settles(players, kmax):
                return (turn + left - 1) % players, s
            if settle_win(lev, kmax, left, players) >= 0:
                return turn, s  # the mover settles the winner on itself
        for attempt in range(RETRIES):
            s = next_random(s)
            k = parity_size(kmax, left, players, s) if exact_left > 0 else 0
            if k == 0:
                k = kmax if s & np.uint64(1) else 1 + below(s, kmax)
            row, col, s = pick(lev, k, s)
            mask = SIDE[k] << np.uint64(col)
            for r in range(row, row + k):
                work[r] &= ~mask
            if attempt == RETRIES - 1 or not rest_is_one_box(work, left - k * k):
                break
            for r in range(row, row + k):  # it hands the next player a finish: undo
                work[r] |= mask
        left -= k * k
        turn += 1
        if turn == players:
            turn = 0


@entry
@njit(nogil=True, cache=True)
def ucb_playouts(kids: np.ndarray, n: int, players: int, visits: np.ndarray,
                 wins: np.ndarray, count: int, seed: np.uint64, explore: float,
                 keys: np.ndarray, vals: np.ndarray, exact_left: int,
                 stop: np.ndarray) -> int:
    """`count` play-outs shared among the root's `n` children (positions after our move,
    none full) by UCB1, adding to `visits` and `wins` (our wins); how many ran before
    `stop` was set."""
    lev = np.zeros((MAX_BOX + 1, HEIGHT), np.uint64)
    work = np.zeros(HEIGHT, np.uint64)
    scratch = np.zeros((2, HEIGHT), np.uint64)
    cols = np.zeros(32, np.uint64)
    s = mix_seed(seed, 0)
    total = 0
    for i in range(n):
        total += visits[i]
    done = 0
    while done < count:
        if done & 15 == 0 and stop[0]:
            break
        best = ucb_pick(visits, wins, n, total, explore)
        w, s = playout(kids[best], players, s, lev, work, keys, vals, exact_left,
                       scratch, cols)
        visits[best] += 1
        if (w + 1) % players == 0:  # the child's mover is the next player
            wins[best] += 1
        total += 1
        done += 1
    return done


@entry
@njit(nogil=True, cache=True)
def fixed_playouts(kids: np.ndarray, n: int, players: int, each: int, seed: np.uint64,
                   wins: np.ndarray, keys: np.ndarray, vals: np.ndarray, exact_left: int,
                   stop: np.ndarray) -> bool:
    """`each` play-outs of every child, child i's from its own stream of `seed` (so a
    child's score does not depend on the others); False if `stop` cut it short."""
    lev = np.zeros((MAX_BOX + 1, HEIGHT), np.uint64)
    work = np.zeros(HEIGHT, np.uint64)
    scratch = np.zeros((2, HEIGHT), np.uint64)
    cols = np.zeros(32, np.uint64)
    for i in range(n):
        if stop[0]:
            return False
        s = mix_seed(seed, i)
        won = 0
        for _ in range(each):
            w, s = playout(kids[i], players, s, lev, work, keys, vals, exact_left, scratch,
                           cols)
            if (w + 1) % players == 0:
                won += 1
        wins[i] = won
    return True
