"""The exact Pillars endgame solver: misere search memoised on canonical region sets.

Filling a rectangle never joins two regions of empty cells (4-connected), so a
position is the set of its regions, and its value (win or loss for the player to
move: the game is impartial) depends only on their shapes up to the board's 8
symmetries and translation. The key of a position is a sum of one 64-bit hash per
region, each the least hash of its 8 images, so equal region sets share one entry
of the table, whichever board they sit on and in whatever order they arose.

Misere theory does not add regions up as simply as Sprague-Grundy does for normal
play, so the search runs on the whole position, with these shortcuts: one cell
left is a loss (it must be filled); a rectangle leaving exactly one cell wins at
once; a rectangle filling every empty cell is never tried while another move is
left. The search is a loop over explicit frames (no recursion), largest rectangles
first, and polls the stop flag.
"""

from __future__ import annotations

import numpy as np

from ai.jit import entry, njit
from ai.pillars.kernels import (
    IV_COUNT,
    IV_LEFT,
    IV_MASK,
    IV_RIGHT,
    IV_START,
    LONGEST,
    MAX_RECTS,
    ROW_MASK,
    SIZE,
    SPAN0,
    SPAN1,
    ZERO,
    popcount,
    row_of,
)

WIN, LOSS, UNKNOWN = 1, 0, -1
MAX_PLY = 92
# the reversed 10-bit masks (column c -> 9 - c)
REV10 = np.array([int(f"{m:010b}"[::-1], 2) for m in range(1024)], np.int64)


@njit(nogil=True, cache=True, inline="always")
def mix(x: np.uint64) -> np.uint64:
    """splitmix64's finaliser: every input bit reaches every output bit."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@njit(nogil=True, cache=True, inline="always")
def shape_hash(rows: np.ndarray, h: int, reverse_rows: bool, flip: bool, width: int) -> np.uint64:
    """The hash of `h` row masks (column 0 leftmost), read bottom-up with
    `reverse_rows`, each mirrored within `width` with `flip`."""
    x = np.uint64(h * 16 + width) * np.uint64(0x9E3779B97F4A7C15)
    for i in range(h):
        m = rows[h - 1 - i] if reverse_rows else rows[i]
        if flip:
            m = REV10[m] >> (SIZE - width)
        x = mix(x ^ np.uint64(m + 1024 * i + 1))
    return x


@njit(nogil=True, cache=True)
def region_hash(comp: np.ndarray, rows: np.ndarray, trans: np.ndarray) -> np.uint64:
    """The canonical hash of one region given as 10 row masks: the least hash of its 8
    images (`rows`, `trans`: scratch for its normalised rows and their transpose)."""
    top, bottom, lo, hi = SIZE, -1, SIZE, -1
    for r in range(SIZE):
        m = comp[r]
        if m:
            if top == SIZE:
                top = r
            bottom = r
            low = 0
            while not m >> low & 1:
                low += 1
            high = SIZE - 1
            while not m >> high & 1:
                high -= 1
            lo = min(lo, low)
            hi = max(hi, high)
    h, w = bottom - top + 1, hi - lo + 1
    for c in range(w):
        trans[c] = 0
    for i in range(h):
        m = comp[top + i] >> lo
        rows[i] = m
        c = 0
        while m:
            if m & 1:
                trans[c] |= 1 << i
            m >>= 1
            c += 1
    best = np.uint64(0xFFFFFFFFFFFFFFFF)
    for v in range(8):
        if v < 4:
            x = shape_hash(rows, h, v & 1 == 1, v & 2 == 2, w)
        else:
            x = shape_hash(trans, w, v & 1 == 1, v & 2 == 2, h)
        if x < best:
            best = x
    return best


@njit(nogil=True, cache=True)
def position_key(w0: np.uint64, w1: np.uint64, scratch: np.ndarray) -> np.uint64:
    """The key of a position: the sum of its regions' mixed canonical hashes.

    `scratch` is a (4, SIZE) int64 array: the empty rows, one region, and two
    buffers for `region_hash`."""
    left = scratch[0]
    comp = scratch[1]
    for r in range(SIZE):
        left[r] = np.int64(row_of(w0, w1, r))
    key = np.uint64(0)
    for start in range(SIZE):
        while left[start]:
            for r in range(SIZE):
                comp[r] = 0
            comp[start] = left[start] & -left[start]
            changed = True
            while changed:  # grow the region: along its rows, then to the rows beside
                changed = False
                for r in range(start, SIZE):
                    x = comp[r]
                    if r > start:
                        x |= comp[r - 1] & left[r]
                    if r < SIZE - 1:
                        x |= comp[r + 1] & left[r]
                    if x == 0:
                        continue
                    grown = (x | x << 1 | x >> 1) & left[r]
                    while grown != x:
                        x = grown
                        grown = (x | x << 1 | x >> 1) & left[r]
                    if x != comp[r]:
                        comp[r] = x
                        changed = True
            for r in range(start, SIZE):
                left[r] &= ~comp[r]
            key += mix(region_hash(comp, scratch[2], scratch[3]) ^ np.uint64(0x632BE59BD9B4E019))
    return key


@njit(nogil=True, cache=True, inline="always")
def tt_get(tt: np.ndarray, key: np.uint64) -> int:
    entry = tt[key & np.uint64(tt.size - 1)]
    if entry != ZERO and entry >> np.uint64(1) == key >> np.uint64(1):
        return np.int64(entry & np.uint64(1))
    return UNKNOWN


@njit(nogil=True, cache=True, inline="always")
def tt_put(tt: np.ndarray, key: np.uint64, value: int) -> None:
    tt[key & np.uint64(tt.size - 1)] = (key >> np.uint64(1) << np.uint64(1)) | np.uint64(value)


@entry
@njit(nogil=True, cache=True)
def solve(w0: np.uint64, w1: np.uint64, tt: np.ndarray, c0: np.ndarray, c1: np.ndarray,
          keys: np.ndarray, nn: np.ndarray, ii: np.ndarray, scratch: np.ndarray,
          stop: np.ndarray, stats: np.ndarray) -> int:
    """WIN or LOSS for the player to move in a position with empty cells, or UNKNOWN when
    `stop` was set. `c0`/`c1` (MAX_PLY, MAX_RECTS) hold each frame's children, `keys`,
    `nn`, `ii` (MAX_PLY) its key, child count and next child; stats[0] counts nodes."""
    ply = 0
    x0, x1 = w0, w1
    result = np.int64(UNKNOWN)  # (typed, not literal: the AOT compiler unifies none)
    while True:
        # ----- enter the node (x0, x1) at `ply` -----
        stats[0] += 1
        if stats[0] & 1023 == 0 and stop[0]:
            return UNKNOWN
        empty = popcount(x0) + popcount(x1)
        result = np.int64(UNKNOWN)
        if empty == 1:
            result = np.int64(LOSS)
        else:
            key = position_key(x0, x1, scratch)
            result = tt_get(tt, key)
            if result == UNKNOWN:
                keys[ply] = key
                # children, largest first by a pass per height; a win at once ends it
                n = 0
                for t in range(SIZE):
                    acc = ROW_MASK
                    for b in range(t, SIZE):
                        acc &= row_of(x0, x1, b)
                        if acc == ZERO:
                            break
                        a = np.int64(acc)
                        h = b - t + 1
                        if (empty - 1) % h == 0 and (empty - 1) // h <= LONGEST[a]:
                            result = np.int64(WIN)
                            break
                        for k in range(IV_START[a] + IV_COUNT[a] - 1, IV_START[a] - 1, -1):
                            if h * (IV_RIGHT[k] - IV_LEFT[k] + 1) == empty:
                                continue  # fills every cell: never while another is left
                            iv = IV_MASK[k]
                            c0[ply, n] = x0 & ~(iv * SPAN0[t, b])
                            c1[ply, n] = x1 & ~(iv * SPAN1[t, b])
                            n += 1
                    if result == WIN:
                        break
                if result == WIN:
                    tt_put(tt, key, WIN)
                else:
                    nn[ply], ii[ply] = n, 0
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
                x0, x1 = c0[ply, k], c1[ply, k]
                ply += 1
                break
            tt_put(tt, keys[ply], LOSS)  # every child wins
            result = np.int64(LOSS)


def new_tables(tt_bits: int) -> tuple[np.ndarray, ...]:
    """(tt, c0, c1, keys, nn, ii, scratch, stats) for `solve`."""
    return (np.zeros(1 << tt_bits, np.uint64), np.zeros((MAX_PLY, MAX_RECTS), np.uint64),
            np.zeros((MAX_PLY, MAX_RECTS), np.uint64), np.zeros(MAX_PLY, np.uint64),
            np.zeros(MAX_PLY, np.int64), np.zeros(MAX_PLY, np.int64),
            np.zeros((4, SIZE), np.int64), np.zeros(2, np.int64))
