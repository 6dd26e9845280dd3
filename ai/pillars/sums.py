"""The Pillars misere solver over sums: wild regions searched, heap-like ones as Nim heaps.

A position is a sum of regions (`regions`). A heap-like region equals the Nim heap of
its Grundy value in misere play, beside anything, so a node is the multiset of its
other ("wild") regions, searched rectangle by rectangle, plus a multiset of Nim heaps,
the heaps of 1 counted modulo 2 (*1 + *1 is 0 in misere play). Heaps of 2 or more are
kept one by one: in misere play two Nim positions with the same XOR need not be
interchangeable beside a wild region (a 6-cell region beside *1+*2+*2+*5 wins, beside
*4 loses). A node whose wild regions are all tame is decided at once by the misere Nim
rule (`regions`: tame regions and heaps follow it). A region whose value is not found
within the node budget stays wild and untamed: searched cell by cell, always right.

The search is a loop over explicit frames (no recursion): a frame's moves are made all
at once with their child keys, a child known lost (in the table, or by the rule) wins at
once, and the rest are tried in the order of the normal-play estimate (the misere Nim
rule on every region's Grundy value), larger rectangles first among equals.
"""

from __future__ import annotations

import numpy as np

from ai.bits import popcount
from ai.jit import entry, njit
from ai.pillars import regions as G
from ai.pillars.kernels import MAX_RECTS, ZERO, clear_mask, rect_codes
from ai.pillars.solver import LOSS, UNKNOWN, WIN, mix, tt_get, tt_put

MAX_PLY = 200  # wild cells (at most 90) plus heap moves
MAX_WILD = 32  # wild regions of one node
MAX_HEAPS = 48  # heaps of 2 or more of one node
MAX_MOVES = MAX_RECTS + 1024  # a node's rectangles plus its heap moves
SMALL = 10  # a region this small is always given its value (whatever the budget)
HEAP_MOVE = np.int64(1) << 40
ONES_KEY = np.uint64(0x2545F4914F6CDD1D)
BIG = 1 << 20  # in an estimate: a value of 2 or more
WIN_GUESS, UNKNOWN_GUESS = 10000, 5000  # move scores: the estimate says the child loses


def new_tables(tt_bits: int, region_bits: int) -> tuple[tuple[np.ndarray, ...],
                                                        tuple[np.ndarray, ...]]:
    """The sum solver's table, stack and scratch; and the region tables
    (`regions.new_tables`)."""
    own = (np.zeros(1 << tt_bits, np.uint64),  # tt
           np.zeros((MAX_PLY, MAX_WILD), np.uint64),  # wr0: each node's wild regions
           np.zeros((MAX_PLY, MAX_WILD), np.uint64),  # wr1
           np.zeros((MAX_PLY, MAX_WILD), np.uint64),  # wk: their keys
           np.zeros((MAX_PLY, MAX_WILD), np.int64),  # wv: their entries (or UNKNOWN)
           np.zeros(MAX_PLY, np.int64),  # nw: how many
           np.zeros(MAX_PLY, np.int64),  # nwt: how many are not tame
           np.zeros((MAX_PLY, MAX_HEAPS), np.int64),  # hp: each node's heaps of 2 or more
           np.zeros(MAX_PLY, np.int64),  # nh: how many
           np.zeros(MAX_PLY, np.int64),  # ones: its heaps of 1, modulo 2
           np.zeros(MAX_PLY, np.uint64),  # keys
           np.zeros((MAX_PLY, MAX_MOVES), np.int64),  # mv: the moves, best first
           np.zeros((MAX_PLY, MAX_MOVES), np.int64),  # ms: their scores
           np.zeros(MAX_PLY, np.int64),  # nn: how many
           np.zeros(MAX_PLY, np.int64),  # ii: the next to try
           np.zeros(MAX_RECTS, np.int64),  # codes: one region's rectangles
           np.zeros((3, MAX_WILD + 1), np.uint64),  # tw: a child's new wild regions
           np.zeros(MAX_WILD + 1, np.int64),  # tv: and their entries
           np.zeros(MAX_HEAPS + 1, np.int64),  # th: a child's new heaps
           np.zeros(8, np.int64),  # stats: nodes
           np.array([0, G.MAX_CELLS, 0], np.int64))  # budget: new regions the Grundy
    # solver may still solve, the largest region it tries, and the nodes a solve may
    # visit (0: no limit)
    return own, G.new_tables(region_bits)


@njit(nogil=True, cache=True, inline="always")
def heap_key(a: int) -> np.uint64:
    return mix(np.uint64(a) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x51ED27))


@njit(nogil=True, cache=True, inline="always")
def wild_key(key: np.uint64) -> np.uint64:
    return mix(key ^ np.uint64(0x632BE59BD9B4E019))


@njit(nogil=True, cache=True, inline="always")
def ones_key(ones: int) -> np.uint64:
    return ONES_KEY if ones else ZERO


@njit(nogil=True, cache=True, inline="always")
def rule_loses(x: int, big: bool) -> bool:
    """The misere Nim rule: whether the mover loses tame regions and heaps of XOR x (big:
    one of their values is 2 or more)."""
    return (big and x == 0) or (not big and x == 1)


@njit(nogil=True, cache=True, inline="always")
def add_estimate(est: int, entry: int) -> int:
    """Fold a region's entry into an estimate (XOR of values, BIG; -1 once unknown)."""
    if est < 0 or entry == UNKNOWN:
        return -1
    value = entry & G.VALUE_BITS
    return (est ^ value) | (BIG if value >= 2 else 0)


@njit(nogil=True, cache=True, inline="always")
def estimate_loses(x: int, big: bool, est: int) -> int:
    """1 if the misere Nim rule on every value (heaps XOR x, big; wild regions `est`) says
    the mover loses, 0 if it says it wins, -1 if a wild region's value is unknown. Exact
    when every wild region is tame."""
    if est < 0:
        return -1
    return 1 if rule_loses(x ^ (est & G.VALUE_BITS), big or est & BIG != 0) else 0


@njit(nogil=True, cache=True)
def classify(r0: np.uint64, r1: np.uint64, rt: tuple, stop: np.ndarray, budget: np.ndarray
             ) -> tuple[int, np.uint64]:
    """A region's entry (value | TAME | HEAP), UNKNOWN past the budget (budget[0]: new
    regions the Grundy solver may still solve; small regions are solved whatever it
    says; none larger than budget[1] cells is tried); and its plain key."""
    keys, vals, f0, f1, fkeys, codes, nn, ii, seen, flags, scratch, stats = rt
    entry, key = G.known(r0, r1, keys, vals, scratch)
    if entry == UNKNOWN:
        cells = popcount(r0) + popcount(r1)
        small = cells <= SMALL
        if (budget[0] > 0 and cells <= budget[1]) or small:
            before = stats[0]
            entry = G.region_entry(r0, r1, keys, vals, f0, f1, fkeys, codes, nn, ii, seen,
                                   flags, scratch, stats, stop,
                                   1 << 30 if small else budget[0])
            budget[0] -= stats[0] - before
    return entry, key


@njit(nogil=True, cache=True)
def split_into(e0: np.uint64, e1: np.uint64, tw: np.ndarray, tv: np.ndarray,
               th: np.ndarray, rt: tuple, stop: np.ndarray, budget: np.ndarray
               ) -> tuple[int, int, int, int, int, np.uint64, int]:
    """The regions of (e0, e1): wild ones into tw (words, keys) and tv (entries), heaps of
    2 or more into th. Returns (wild count, not tame among them, heaps of 2 or more, the
    heaps of 1 modulo 2, the heaps' XOR, the keys' sum of all, the wild ones' estimate);
    the wild count is -1 past MAX_WILD or MAX_HEAPS."""
    ksum = ZERO
    est = 0
    n, untamed, h, ones, x = 0, 0, 0, 0, 0
    while e0 != ZERO or e1 != ZERO:
        r0, r1 = G.first_region(e0, e1)
        e0 &= ~r0
        e1 &= ~r1
        entry, key = classify(r0, r1, rt, stop, budget)
        if entry != UNKNOWN and entry & G.HEAP:
            value = entry & G.VALUE_BITS
            x ^= value
            if value == 1:
                ones ^= 1
            else:
                if h == MAX_HEAPS:
                    return -1, 0, 0, 0, 0, ksum, -1
                th[h] = value
                h += 1
                ksum += heap_key(value)
            continue
        if n == MAX_WILD:
            return -1, 0, 0, 0, 0, ksum, -1
        tw[0, n], tw[1, n], tw[2, n], tv[n] = r0, r1, key, entry
        n += 1
        if entry == UNKNOWN or not entry & G.TAME:
            untamed += 1
        ksum += wild_key(key)
        est = add_estimate(est, entry)
    return n, untamed, h, ones, x, ksum, est


@njit(nogil=True, cache=True)
def heap_xor(hp: np.ndarray, nh: int, ones: int) -> int:
    x = ones
    for i in range(nh):
        x ^= hp[i]
    return x


@njit(nogil=True, cache=True)
def node_estimate(own: tuple, ply: int, skip: int) -> int:
    """The estimate of the node's wild regions but region `skip`."""
    wv, nw = own[4], own[5]
    est = 0
    for i in range(nw[ply]):
        if i != skip:
            est = add_estimate(est, wv[ply, i])
    return est


@entry
@njit(nogil=True, cache=True)
def solve_sum(w0: np.uint64, w1: np.uint64, own: tuple, rt: tuple, stop: np.ndarray) -> int:
    """WIN or LOSS for the player to move in the position (w0, w1), or UNKNOWN when `stop`
    was set or a limit was reached (own[-1][2] nodes, unless 0). own[-2][0] counts nodes;
    own[-1][0] is the Grundy solver's allowance of new regions (spent as it goes)."""
    (tt, wr0, wr1, wk, wv, nw, nwt, hp, nh, ones, keys, mv, ms, nn, ii, codes, tw, tv, th,
     stats, budget) = own
    if w0 == ZERO and w1 == ZERO:
        return WIN  # the other side filled the last cell
    n, untamed, h, o, _, ksum, _ = split_into(w0, w1, tw, tv, th, rt, stop, budget)
    if n < 0:
        return UNKNOWN
    for i in range(n):
        wr0[0, i], wr1[0, i], wk[0, i], wv[0, i] = tw[0, i], tw[1, i], tw[2, i], tv[i]
    for i in range(h):
        hp[0, i] = th[i]
    nw[0], nwt[0], nh[0], ones[0] = n, untamed, h, o
    keys[0] = ksum + ones_key(o)
    ply = 0
    result = np.int64(UNKNOWN)  # (typed, not literal: the AOT compiler unifies none)
    last = stats[0] + budget[2] if budget[2] > 0 else np.int64(1) << 62
    while True:
        # ----- enter the node at `ply` -----
        stats[0] += 1
        if (stats[0] & 255 == 0 and stop[0]) or stats[0] > last:
            return UNKNOWN
        if nwt[ply] == 0:
            lose = estimate_loses(heap_xor(hp[ply], nh[ply], ones[ply]), nh[ply] > 0,
                                  node_estimate(own, ply, -1))
            result = np.int64(LOSS) if lose == 1 else np.int64(WIN)
        else:
            result = tt_get(tt, keys[ply])
            if result == UNKNOWN:
                if ply + 1 >= MAX_PLY:
                    return UNKNOWN
                result = expand(ply, own, rt, stop)
                if result == WIN:
                    tt_put(tt, keys[ply], WIN)
        # ----- return results up, or descend into the next child -----
        while True:
            if result != UNKNOWN:
                if ply == 0:
                    return result
                ply -= 1
                if result == LOSS:  # the child loses: this node wins
                    tt_put(tt, keys[ply], WIN)
                    result = np.int64(WIN)
                    continue
                result = np.int64(UNKNOWN)  # that child wins: try the next
            if ii[ply] < nn[ply]:
                k = ii[ply]
                ii[ply] += 1
                if not make(ply, mv[ply, k], own, rt, stop):
                    return UNKNOWN
                ply += 1
                break
            tt_put(tt, keys[ply], LOSS)  # every child wins
            result = np.int64(LOSS)


@njit(nogil=True, cache=True)
def heap_child(own: tuple, ply: int, j: int, b: int) -> tuple[np.uint64, int, int]:
    """The key, the *1 parity and the XOR after heap j (MAX_HEAPS: the *1) goes to b."""
    hp, nh, ones, keys = own[7], own[8], own[9], own[10]
    key, o = keys[ply], ones[ply]
    x = heap_xor(hp[ply], nh[ply], o)
    if j == MAX_HEAPS:
        return key - ONES_KEY, 0, x ^ 1
    a = hp[ply, j]
    key -= heap_key(a)
    if b >= 2:
        key += heap_key(b)
    elif b == 1:
        key += ZERO - ONES_KEY if o else ONES_KEY
        o ^= 1
    return key, o, x ^ a ^ b


@njit(nogil=True, cache=True)
def make(ply: int, move: int, own: tuple, rt: tuple, stop: np.ndarray) -> bool:
    """The child of the node at `ply` after `move`, into frame ply + 1; False past the
    wild-region or heap limit."""
    (tt, wr0, wr1, wk, wv, nw, nwt, hp, nh, ones, keys, mv, ms, nn, ii, codes, tw, tv, th,
     stats, budget) = own
    c = ply + 1
    if move & HEAP_MOVE:
        j = (move >> 20) & 0xFFFFF
        b = move & 0xFFFFF
        for i in range(nw[ply]):
            wr0[c, i], wr1[c, i], wk[c, i], wv[c, i] = (wr0[ply, i], wr1[ply, i], wk[ply, i],
                                                        wv[ply, i])
        nw[c], nwt[c] = nw[ply], nwt[ply]
        key, o, _ = heap_child(own, ply, j, b)
        h = 0
        for i in range(nh[ply]):
            if i != j:
                hp[c, h] = hp[ply, i]
                h += 1
        if j != MAX_HEAPS and b >= 2:
            hp[c, h] = b
            h += 1
        nh[c], ones[c], keys[c] = h, o, key
        return True
    region = move >> 20
    code = move & 0xFFFFF
    m0, m1 = clear_mask(code)
    n, untamed, h, o, _, add, _ = split_into(wr0[ply, region] & ~m0, wr1[ply, region] & ~m1,
                                             tw, tv, th, rt, stop, budget)
    if n < 0 or n + nw[ply] - 1 > MAX_WILD or h + nh[ply] > MAX_HEAPS:
        return False
    key = keys[ply] - wild_key(wk[ply, region]) + add
    k = 0
    for i in range(nw[ply]):
        if i != region:
            wr0[c, k], wr1[c, k], wk[c, k], wv[c, k] = (wr0[ply, i], wr1[ply, i], wk[ply, i],
                                                        wv[ply, i])
            k += 1
    for i in range(n):
        wr0[c, k], wr1[c, k], wk[c, k], wv[c, k] = tw[0, i], tw[1, i], tw[2, i], tv[i]
        k += 1
    for i in range(nh[ply]):
        hp[c, i] = hp[ply, i]
    for i in range(h):
        hp[c, nh[ply] + i] = th[i]
    was = wv[ply, region]
    nw[c] = k
    nwt[c] = nwt[ply] - (1 if was == UNKNOWN or not was & G.TAME else 0) + untamed
    nh[c] = nh[ply] + h
    ones[c] = ones[ply] ^ o
    keys[c] = key - ones_key(ones[ply]) + ones_key(ones[c])
    return True


@njit(nogil=True, cache=True, inline="always")
def guess_score(guess: int) -> int:
    return WIN_GUESS if guess == 1 else (UNKNOWN_GUESS if guess == -1 else 0)


@njit(nogil=True, cache=True)
def expand(ply: int, own: tuple, rt: tuple, stop: np.ndarray) -> int:
    """List the node's moves in frame `ply`, best first; WIN at once if one leaves a known
    loss (in the table, or by the misere Nim rule when nothing untamed is left)."""
    (tt, wr0, wr1, wk, wv, nw, nwt, hp, nh, ones, keys, mv, ms, nn, ii, codes, tw, tv, th,
     stats, budget) = own
    nwild = nw[ply]
    est_all = node_estimate(own, ply, -1)
    hx = heap_xor(hp[ply], nh[ply], ones[ply])
    n = 0
    # the heaps' moves: one heap of each value to every smaller value, and the *1 taken
    if ones[ply]:
        key, _, x = heap_child(own, ply, MAX_HEAPS, 0)
        if tt_get(tt, key) == LOSS:
            return WIN
        mv[ply, n] = HEAP_MOVE | np.int64(MAX_HEAPS) << 20
        ms[ply, n] = guess_score(estimate_loses(x, nh[ply] > 0, est_all))
        n += 1
    for j in range(nh[ply]):
        a = hp[ply, j]
        dup = False
        for i in range(j):
            dup = dup or hp[ply, i] == a
        if dup:
            continue
        others_big = nh[ply] > 1
        for b in range(a - 1, -1, -1):
            key, _, x = heap_child(own, ply, j, b)
            if tt_get(tt, key) == LOSS:
                return WIN
            mv[ply, n] = HEAP_MOVE | np.int64(j) << 20 | b
            ms[ply, n] = guess_score(estimate_loses(x, others_big or b >= 2, est_all))
            n += 1
    # the wild regions' rectangles
    for i in range(nwild):
        r0, r1 = wr0[ply, i], wr1[ply, i]
        was = wv[ply, i]
        untamed_rest = nwt[ply] - (1 if was == UNKNOWN or not was & G.TAME else 0)
        base = keys[ply] - wild_key(wk[ply, i]) - ones_key(ones[ply])
        est_rest = node_estimate(own, ply, i)
        count = rect_codes(r0, r1, codes)
        for j in range(count):
            code = codes[j]
            m0, m1 = clear_mask(code)
            cn, untamed, h, o, x, add, est = split_into(r0 & ~m0, r1 & ~m1, tw, tv, th, rt,
                                                        stop, budget)
            if cn < 0:
                est = -1  # past a limit: tried, and cut short if it gets there
            else:
                if est >= 0 and est_rest >= 0:
                    est = (est ^ (est_rest & G.VALUE_BITS)) | (est_rest & BIG)
                else:
                    est = -1
                big = nh[ply] > 0 or h > 0
                if untamed_rest + untamed == 0:  # decided by the rule
                    if estimate_loses(hx ^ x, big, est) == 1:
                        return WIN
                    continue  # a child the rule says wins: never worth trying
                if tt_get(tt, base + add + ones_key(ones[ply] ^ o)) == LOSS:
                    return WIN
            score = popcount(m0) + popcount(m1)  # larger rectangles first among equals
            score += guess_score(estimate_loses(hx ^ x, nh[ply] > 0 or h > 0, est))
            mv[ply, n] = np.int64(i) << 20 | code
            ms[ply, n] = score
            n += 1
    # best first (insertion sort by score, descending; stable)
    for a in range(1, n):
        sm, sk = mv[ply, a], ms[ply, a]
        b = a - 1
        while b >= 0 and ms[ply, b] < sk:
            mv[ply, b + 1], ms[ply, b + 1] = mv[ply, b], ms[ply, b]
            b -= 1
        mv[ply, b + 1], ms[ply, b + 1] = sm, sk
    nn[ply], ii[ply] = n, 0
    return UNKNOWN


@entry
@njit(nogil=True, cache=True)
def child_info(c0: np.ndarray, c1: np.ndarray, n: int, out: np.ndarray, rt: tuple,
               stop: np.ndarray, budget: np.ndarray) -> int:
    """For each of the n positions (c0[i], c1[i]) (the root's children): out[i] = (the
    estimate: 1 if the misere Nim rule on its regions' values says its mover loses, 0 if
    it says it wins, -1 if a value is unknown; its largest region; its cells in regions
    of unknown value; its cells in regions neither heap-like nor tame). The estimate is
    exact when the last two are 0. A region's value is sought (within the budget) only
    where it can complete the estimate: not beside a region too large to value. Returns
    how many were done before `stop`."""
    keys, vals, scratch = rt[0], rt[1], rt[10]
    for i in range(n):
        if stop[0]:
            return i
        hopeless = False  # a region too large to value: leave the others be
        e0, e1 = c0[i], c1[i]
        while e0 != ZERO or e1 != ZERO:
            r0, r1 = G.first_region(e0, e1)
            e0 &= ~r0
            e1 &= ~r1
            if popcount(r0) + popcount(r1) > max(budget[1], SMALL):
                entry, _ = G.known(r0, r1, keys, vals, scratch)
                hopeless = hopeless or entry == UNKNOWN
        e0, e1 = c0[i], c1[i]
        x, big, known = 0, False, True
        largest, unknown, untamed = 0, 0, 0
        while e0 != ZERO or e1 != ZERO:
            r0, r1 = G.first_region(e0, e1)
            e0 &= ~r0
            e1 &= ~r1
            cells = popcount(r0) + popcount(r1)
            largest = max(largest, cells)
            if hopeless:
                entry, _ = G.known(r0, r1, keys, vals, scratch)
            else:
                entry, _ = classify(r0, r1, rt, stop, budget)
            if entry == UNKNOWN:
                known = False
                unknown += cells
                continue
            value = entry & G.VALUE_BITS
            x ^= value
            big = big or value >= 2
            if not entry & (G.HEAP | G.TAME):
                untamed += cells
        out[i, 0] = (1 if rule_loses(x, big) else 0) if known else -1
        out[i, 1], out[i, 2], out[i, 3] = largest, unknown, untamed
    return n
