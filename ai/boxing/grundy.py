"""Exact two-player Boxing: Sprague-Grundy values of regions, memoised on their shapes.

With two players Boxing is last-move-wins and impartial, and a box never spans two
regions (4-connected sets of vacant cells), so a position is the sum of its regions and
its value is the XOR of theirs: the mover wins exactly when it is not 0. A region's value
is the mex of its options' values, an option being the XOR of the regions a box leaves.

A region is 16 row masks in arena coordinates (as in `kernels`). Its value depends on its
shape only, the same under the 8 symmetries of the square (a box turned is a box), so the
table is keyed by the least hash of the shape's 8 images, taken from its bounding box. A
straight line of cells only allows 1x1 boxes: its value is its length modulo 2.

The solve walks an explicit stack of regions (no recursion): a region's boxes are tried
in turn; a box whose leftover regions are not all in the table pushes the first missing
one, and is tried again once that one is solved. Everything stored is exact, so a solve
cut short by `stop` or its node limit still leaves useful entries for the next.
"""

from __future__ import annotations

import numpy as np

from ai.boxing.kernels import HEIGHT, MAX_BOX, MAX_MOVES, ONE, SIDE, ZERO, box_codes, next_level
from ai.boxing.kernels import vacant as cells_of
from ai.jit import entry, leading_zeros, njit, trailing_zeros

UNKNOWN = -1
MAX_CELLS = 160  # the largest region solved: the stack holds one frame per cell
MAX_CODES = 1024  # boxes of one region (a 12x12 square has 650)
SEEN_WORDS = 16  # mex over values below 1024
PROBES = 8
PRIME = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
M1 = np.uint64(0x55555555)
M2 = np.uint64(0x33333333)
M4 = np.uint64(0x0F0F0F0F)
M8 = np.uint64(0x00FF00FF)
M16 = np.uint64(0x0000FFFF)
ROW32 = np.uint64(0xFFFFFFFF)


def new_tables(tt_bits: int) -> tuple[np.ndarray, ...]:
    """The table (keys, values) and the solver's stack, allocated once per adapter."""
    size = 1 << tt_bits
    return (np.zeros(size, np.uint64), np.zeros(size, np.int16),
            np.zeros((MAX_CELLS + 1, HEIGHT), np.uint64),  # each frame's region
            np.zeros((MAX_CELLS + 1, MAX_CODES), np.int64),  # its boxes
            np.zeros(MAX_CELLS + 1, np.int64),  # how many
            np.zeros(MAX_CELLS + 1, np.int64),  # the next to try
            np.zeros((MAX_CELLS + 1, SEEN_WORDS), np.uint64),  # the option values seen
            np.zeros(MAX_CELLS + 1, np.uint64),  # its key
            np.zeros(8, np.int64))  # figures: nodes


# ----- regions --------------------------------------------------------------------------
@njit(nogil=True, cache=True)
def flood(rem: np.ndarray, out: np.ndarray) -> int:
    """The region of `rem` holding its first vacant cell (by row, then column) into `out`;
    its cells (0 when `rem` is empty)."""
    first = -1
    for r in range(HEIGHT):
        out[r] = ZERO
        if first < 0 and rem[r] != ZERO:
            first = r
    if first < 0:
        return 0
    out[first] = rem[first] & (ZERO - rem[first])
    changed = True
    while changed:
        changed = False
        for r in range(HEIGHT):
            m = rem[r]
            x = out[r]
            g = x | (((m + x) ^ m) & m)  # up each run of the row at once
            g |= (g >> ONE) & m
            if r > 0:
                g |= out[r - 1] & m
            if r < HEIGHT - 1:
                g |= out[r + 1] & m
            if g != x:
                out[r] = g
                changed = True
    return cells_of(out)


@njit(nogil=True, cache=True, inline="always")
def reverse32(x: np.uint64) -> np.uint64:
    x = ((x >> ONE) & M1) | ((x & M1) << ONE)
    x = ((x >> np.uint64(2)) & M2) | ((x & M2) << np.uint64(2))
    x = ((x >> np.uint64(4)) & M4) | ((x & M4) << np.uint64(4))
    x = ((x >> np.uint64(8)) & M8) | ((x & M8) << np.uint64(8))
    return ((x >> np.uint64(16)) & M16) | ((x & M16) << np.uint64(16))


@njit(nogil=True, cache=True, inline="always")
def finish(h: np.uint64) -> np.uint64:
    h = (h ^ (h >> np.uint64(30))) * MIX1
    h = (h ^ (h >> np.uint64(27))) * MIX2
    return (h ^ (h >> np.uint64(31))) | ONE  # 0 marks an empty table slot


@njit(nogil=True, cache=True, inline="always")
def step(h: np.uint64, x: np.uint64) -> np.uint64:
    """One row into a shape's hash."""
    h = (h ^ x) * PRIME
    return h ^ (h >> np.uint64(32))


@njit(nogil=True, cache=True)
def shape_key(region: np.ndarray, cols: np.ndarray) -> tuple[np.uint64, bool]:
    """The region's key (the least hash of its 8 images in its bounding box), and whether
    it is a straight line of cells. `cols` is scratch of at least 32 words."""
    r0, r1 = HEIGHT, -1
    span = ZERO
    for r in range(HEIGHT):
        if region[r] != ZERO:
            if r0 > r:
                r0 = r
            r1 = r
            span |= region[r]
    c0 = np.int64(trailing_zeros(span))
    w = 64 - np.int64(leading_zeros(span)) - c0
    h = r1 - r0 + 1
    if h == 1 or w == 1:
        return ZERO, True
    shift = np.uint64(c0)
    back = np.uint64(32 - w)
    for c in range(w):
        cols[c] = ZERO
    a = finish(np.uint64(h) * PRIME)  # rows top down; b: bottom up; each as is and
    # mirrored (c, d)
    b = a
    c = a
    d = a
    for i in range(h):
        x = region[r0 + i] >> shift
        y = region[r1 - i] >> shift
        a = step(a, x)
        b = step(b, y)
        c = step(c, reverse32(x) >> back)
        d = step(d, reverse32(y) >> back)
        m = x
        while m != ZERO:
            j = np.int64(trailing_zeros(m))
            cols[j] |= ONE << np.uint64(i)
            m &= m - ONE
    best = min(min(finish(a), finish(b)), min(finish(c), finish(d)))
    a = finish(np.uint64(w) * PRIME)  # the transposed images (columns as rows)
    b = a
    c = a
    d = a
    back = np.uint64(32 - h)
    for j in range(w):
        x = cols[j]
        y = cols[w - 1 - j]
        a = step(a, x)
        b = step(b, y)
        c = step(c, reverse32(x) >> back)
        d = step(d, reverse32(y) >> back)
    best = min(best, min(min(finish(a), finish(b)), min(finish(c), finish(d))))
    return best, False


# ----- the table ---------------------------------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def probe(keys: np.ndarray, vals: np.ndarray, key: np.uint64) -> int:
    mask = np.uint64(keys.size - 1)
    i = key & mask
    for _ in range(PROBES):
        k = keys[np.int64(i)]
        if k == key:
            return np.int64(vals[np.int64(i)])
        if k == ZERO:
            return UNKNOWN
        i = (i + ONE) & mask
    return UNKNOWN


@njit(nogil=True, cache=True, inline="always")
def store(keys: np.ndarray, vals: np.ndarray, key: np.uint64, value: int) -> None:
    mask = np.uint64(keys.size - 1)
    i = key & mask
    for _ in range(PROBES):
        k = keys[np.int64(i)]
        if k == ZERO or k == key:
            break
        i = (i + ONE) & mask
    else:
        i = key & mask  # the probe run is full: replace its first entry
    keys[np.int64(i)] = key
    vals[np.int64(i)] = value


# ----- values ---------------------------------------------------------------------------
@njit(nogil=True, cache=True)
def known_value(region: np.ndarray, cells: int, keys: np.ndarray, vals: np.ndarray,
                cols: np.ndarray) -> tuple[int, np.uint64]:
    """The region's value if the table has it (or it is a line), else UNKNOWN; its key."""
    if cells == 1:
        return 1, ZERO
    key, line = shape_key(region, cols)
    if line:
        return cells & 1, ZERO
    return probe(keys, vals, key), key


@njit(nogil=True, cache=True, inline="always")
def without_box(rows: np.ndarray, code: int, left: np.ndarray) -> None:
    """`rows` without the box `code`, into `left`."""
    for r in range(HEIGHT):
        left[r] = rows[r]
    k = code >> 16
    row = code >> 8 & 255
    mask = SIDE[k] << np.uint64(code & 255)
    for r in range(row, row + k):
        left[r] &= ~mask


@njit(nogil=True, cache=True)
def option_value(rows: np.ndarray, code: int, keys: np.ndarray, vals: np.ndarray,
                 left: np.ndarray, comp: np.ndarray, cols: np.ndarray,
                 missing: np.ndarray) -> int:
    """The XOR of the regions the box `code` leaves of `rows`; UNKNOWN if one is not in the
    table (that region is copied into `missing`)."""
    without_box(rows, code, left)
    return table_xor(left, keys, vals, comp, cols, missing)


@njit(nogil=True, cache=True, inline="always")
def table_xor(left: np.ndarray, keys: np.ndarray, vals: np.ndarray, comp: np.ndarray,
              cols: np.ndarray, missing: np.ndarray) -> int:
    """The XOR of the regions of `left` (emptied on the way) when the table holds every
    one's value (or it is a line); else UNKNOWN, that region copied into `missing`."""
    x = 0
    while True:
        cells = flood(left, comp)
        if cells == 0:
            return x
        value, _ = known_value(comp, cells, keys, vals, cols)
        if value == UNKNOWN:
            for r in range(HEIGHT):
                missing[r] = comp[r]
            return UNKNOWN
        x ^= value
        for r in range(HEIGHT):
            left[r] &= ~comp[r]


@njit(nogil=True, cache=True)
def region_value(region: np.ndarray, keys: np.ndarray, vals: np.ndarray, frames: np.ndarray,
                 codes: np.ndarray, nn: np.ndarray, ii: np.ndarray, seen: np.ndarray,
                 fkeys: np.ndarray, stats: np.ndarray, stop: np.ndarray,
                 node_limit: int) -> int:
    """The Grundy value of one region (4-connected), or UNKNOWN if it has more than
    MAX_CELLS cells or `stop` or `node_limit` (new regions solved) cut the solve short."""
    left = np.empty(HEIGHT, np.uint64)
    comp = np.empty(HEIGHT, np.uint64)
    missing = np.empty(HEIGHT, np.uint64)
    cols = np.empty(32, np.uint64)
    cells = cells_of(region)
    if cells == 0:
        return 0
    value, key = known_value(region, cells, keys, vals, cols)
    if value != UNKNOWN:
        return value
    if cells > MAX_CELLS:
        return UNKNOWN
    nodes = 0
    d = 0
    for r in range(HEIGHT):
        frames[0, r] = region[r]
    fkeys[0] = key
    nn[0] = box_codes(region, codes[0])
    ii[0] = 0
    seen[0, :] = ZERO
    while True:
        if ii[d] == nn[d]:  # every box tried: the mex
            g = 0
            w = 0
            while w < SEEN_WORDS and seen[d, w] == ~ZERO:
                w += 1
            g = 64 * w + np.int64(trailing_zeros(~seen[d, w])) if w < SEEN_WORDS else 64 * w
            store(keys, vals, fkeys[d], g)
            if d == 0:
                stats[0] += nodes
                return g
            d -= 1
            continue
        x = option_value(frames[d], codes[d, ii[d]], keys, vals, left, comp, cols, missing)
        if x != UNKNOWN:
            if x < 64 * SEEN_WORDS:
                seen[d, x >> 6] |= ONE << np.uint64(x & 63)
            ii[d] += 1
            continue
        nodes += 1  # a new region to solve first
        if (nodes & 255 == 0 and stop[0]) or nodes > node_limit:
            stats[0] += nodes
            return UNKNOWN
        d += 1
        for r in range(HEIGHT):
            frames[d, r] = missing[r]
        fkeys[d], _ = shape_key(missing, cols)
        nn[d] = box_codes(missing, codes[d])
        ii[d] = 0
        seen[d, :] = ZERO


@njit(nogil=True, cache=True)
def split(rows: np.ndarray, out: np.ndarray) -> int:
    """The regions of `rows` into `out` (one row of 16 masks each); how many."""
    left = rows.copy()
    n = 0
    while flood(left, out[n]) > 0:
        for r in range(HEIGHT):
            left[r] &= ~out[n, r]
        n += 1
    return n


__all__ = ["MAX_BOX", "MAX_CELLS", "UNKNOWN", "cells_of", "flood", "new_tables",
           "next_level", "option_value", "region_value", "shape_key", "split", "table_xor"]


@entry
@njit(nogil=True, cache=True)
def position_xor(rows: np.ndarray, cap: int, keys: np.ndarray, vals: np.ndarray,
                 frames: np.ndarray, codes: np.ndarray, nn: np.ndarray, ii: np.ndarray,
                 seen: np.ndarray, fkeys: np.ndarray, stats: np.ndarray, stop: np.ndarray,
                 node_limit: int, regions: np.ndarray) -> int:
    """The XOR of the values of the regions of `rows` (0: the mover loses), or UNKNOWN when
    a region has more than `cap` cells or is not solved within `node_limit` new regions
    (all solves together) or before `stop`. `regions` is scratch of 512 x 16 words."""
    n = split(rows, regions)
    for i in range(n):
        if cells_of(regions[i]) > cap:
            return UNKNOWN
    x = 0
    start = stats[0]
    for i in range(n):
        left = node_limit - (stats[0] - start)
        if left <= 0:
            return UNKNOWN
        value = region_value(regions[i], keys, vals, frames, codes, nn, ii, seen, fkeys, stats,
                             stop, left)
        if value == UNKNOWN:
            return UNKNOWN
        x ^= value
    return x


@entry
@njit(nogil=True, cache=True)
def replies_to_zero(rows: np.ndarray, keys: np.ndarray, vals: np.ndarray,
                    regions: np.ndarray, codes: np.ndarray) -> tuple[int, int]:
    """How many moves of `rows` leave a position of value 0 (win for their mover), and how
    many moves there are; (-1, moves) if a value is missing from the table."""
    left = np.empty(HEIGHT, np.uint64)
    comp = np.empty(HEIGHT, np.uint64)
    missing = np.empty(HEIGHT, np.uint64)
    cols = np.empty(32, np.uint64)
    n = split(rows, regions)
    values = np.empty(n, np.int64)
    total = 0
    for i in range(n):
        value, _ = known_value(regions[i], cells_of(regions[i]), keys, vals, cols)
        if value == UNKNOWN:
            return -1, 0
        values[i] = value
        total ^= value
    wins = 0
    moves = 0
    for i in range(n):
        m = box_codes(regions[i], codes)
        moves += m
        want = total ^ values[i]
        for j in range(m):
            x = option_value(regions[i], codes[j], keys, vals, left, comp, cols, missing)
            if x == UNKNOWN:
                return -1, moves
            if x == want:
                wins += 1
    return wins, moves


@entry
@njit(nogil=True, cache=True)
def reply_wins(rows: np.ndarray, cap: int, keys: np.ndarray, vals: np.ndarray,
               frames: np.ndarray, codes: np.ndarray, nn: np.ndarray, ii: np.ndarray,
               seen: np.ndarray, fkeys: np.ndarray, stats: np.ndarray, stop: np.ndarray,
               node_limit: int, regions: np.ndarray) -> int:
    """Whether the mover of `rows` (a position with a region over `cap` cells) has a box
    that leaves every region within `cap` and the XOR 0, a proven win: 1 if it has, 0 if
    no box does, UNKNOWN if a solve was cut short first. A box lies in one region, so with
    two regions over `cap` no box can; with one, only the boxes that cut it into pieces
    within `cap` are solved."""
    n = split(rows, regions)
    big = -1
    for i in range(n):
        if cells_of(regions[i]) > cap:
            if big >= 0:
                return 0
            big = i
    if big < 0:
        return UNKNOWN  # every region fits: the caller's solve was cut short
    start = stats[0]
    x = 0
    for i in range(n):
        if i != big:
            value = region_value(regions[i], keys, vals, frames, codes, nn, ii, seen, fkeys,
                                 stats, stop, node_limit - (stats[0] - start))
            if value == UNKNOWN:
                return UNKNOWN
            x ^= value
    region = regions[big].copy()  # `regions` is scratch again below
    boxes = np.empty(MAX_MOVES, np.int64)
    m = box_codes(region, boxes)
    left = np.empty(HEIGHT, np.uint64)
    for j in range(m):
        without_box(region, boxes[j], left)
        y = position_xor(left, cap, keys, vals, frames, codes, nn, ii, seen, fkeys, stats,
                         stop, node_limit - (stats[0] - start), regions)
        if y == UNKNOWN:  # a piece over the cap, or the solve cut short
            if stop[0] or stats[0] - start >= node_limit:
                return UNKNOWN
        elif x ^ y == 0:
            return 1
    return 0
