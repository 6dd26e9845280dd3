"""Pillars regions: normal-play Grundy values memoised on shapes, and which regions
provably play like Nim heaps in misere play.

Filling a rectangle never joins two regions (4-connected sets of empty cells), so a
position is the sum of its regions. In normal play its Grundy value is the XOR of theirs;
a region's value is the mex of its options' values, an option being the XOR of the
regions a rectangle leaves. A region is two words in the kernels' layout (rows 0-4 in
the first, rows 5-9 in the second, ten bits a row); its value depends on its shape only,
the same under translation and the 8 symmetries of the board. The table holds a solved
region under two keys: its plain key (its cells moved to the corner, hashed: cheap, and
what most look-ups hit) and its canonical key (`solver.region_hash`, the least hash of
the 8 images: a miss on the plain key looks there, for the same shape turned).

Misere play is not a sum of values, but some regions provably behave like Nim heaps.
Call a region *tame* when every region any of its options leaves is tame, and:
  - its value a >= 2 and it has two options whose regions are all of value 0 or 1, of
    XOR 0 and of XOR 1 (it can shrink to the misere Nim ending either way), or
  - its value a <= 1 and every option leaves only regions of value 0 or 1.
Then a sum of tame regions follows the misere Nim rule: the mover loses exactly when
(some region has value >= 2 and the XOR is 0) or (none has and the XOR is 1). Proof by
induction over the sum (the Grundy property gives the usual Nim moves; the two clauses
give the moves into and within the ending where every value is 0 or 1), tested against
plain searches in tests/ai/test_pillars_regions.py. Straight lines are tame, of value
their length; so is every region of 3 cells or fewer.

Some regions are even equal to a Nim heap in misere play, beside anything at all. Call
a region *heap-like* of value a >= 1 (its Grundy value) when every region its options
leave is heap-like, so that each option equals a sum of heaps (pairs of *1 cancel: by
induction X + *1 + *1 has X's outcome for every X), and: for each b < a an option equals
the single heap *b, and every other option equals a single heap *c (c > a) or reverses
through *a (it has a move to something equal to *a). Then G + X has the outcome of
*a + X for every X: by induction on X, a P-position *a + X has only N options in G + X
(those equal to *b are N, and a reversing option has the P-position *a + X one move on),
and an N-position *a + X has a P option that G + X matches (a >= 1: *a + X is never
terminal). So a heap-like region may stand for its heap anywhere, which `sums` uses.
A 2x2 square is *1 (its options are *3, *2 and 0); lines of up to 3 cells are heaps,
but a line of 4 is not shown to be *4 (its option *1 + *2 neither equals a heap nor
reverses through *4), nor is any region that can leave one.

The solve walks an explicit stack (no recursion): a region's rectangles are tried in
turn; an option whose regions are not all in the table pushes the first missing one and
is tried again once that one is solved. Everything stored is exact, so a solve cut short
by `stop` or its node limit still leaves useful entries.
"""

from __future__ import annotations

import numpy as np

from ai.bits import popcount
from ai.jit import leading_zeros, njit, trailing_zeros
from ai.pillars.kernels import MAX_RECTS, ONE, ZERO, clear_mask, rect_codes, row_of
from ai.pillars.solver import mix, region_hash

UNKNOWN = -1
MAX_CELLS = 90  # a region pushes strictly smaller ones: one frame per cell at most
SEEN_WORDS = 8  # mex over values below 512
VALUE_BITS = 511
TAME = 512  # the flags stored with a value
HEAP = 1024
PROBES = 8
W50 = np.uint64((1 << 50) - 1)
COL0 = np.uint64(sum(1 << 10 * r for r in range(5)))
COL9 = COL0 << np.uint64(9)
LOW10 = np.uint64(1023)
# frame flags while a region's options are tried
ALL_TAME, ALL_SMALL, SMALL0, SMALL1, ALL_HEAP, ANY_REVERSING = 1, 2, 4, 8, 16, 32
# an option as heaps (`option_entry`): NOT_HEAPS, or its heaps of 2 or more (at most two
# kept: three or more never reverse to a single heap) and its *1 modulo 2
NOT_HEAPS = -1


def new_tables(tt_bits: int) -> tuple[np.ndarray, ...]:
    """(keys, vals, f0, f1, fkeys, codes, nn, ii, seen, flags, scratch, stats), allocated
    once: the table, then the solver's stack, row scratch and figures (stats[0]: regions
    solved). `seen` holds each frame's option values, then the values of its options
    that equal a single heap, then the heap values every reversing option allows."""
    size = 1 << tt_bits
    depth = MAX_CELLS + 1
    return (np.zeros(size, np.uint64), np.zeros(size, np.int16),
            np.zeros(depth, np.uint64), np.zeros(depth, np.uint64), np.zeros(depth, np.uint64),
            np.zeros((depth, MAX_RECTS), np.int64), np.zeros(depth, np.int64),
            np.zeros(depth, np.int64), np.zeros((depth, 3 * SEEN_WORDS), np.uint64),
            np.zeros(depth, np.int64), np.zeros((3, 10), np.int64), np.zeros(4, np.int64))


# ----- regions ---------------------------------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def spread(x0: np.uint64, x1: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The cells of (x0, x1) and their four neighbours on the board."""
    y0 = x0 | ((x0 & ~COL9) << ONE) | ((x0 & ~COL0) >> ONE)
    y1 = x1 | ((x1 & ~COL9) << ONE) | ((x1 & ~COL0) >> ONE)
    y0 |= ((x0 << np.uint64(10)) & W50) | (x0 >> np.uint64(10)) | ((x1 & LOW10) << np.uint64(40))
    y1 |= (((x1 << np.uint64(10)) | (x0 >> np.uint64(40))) & W50) | (x1 >> np.uint64(10))
    return y0, y1


@njit(nogil=True, cache=True)
def first_region(e0: np.uint64, e1: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The region of the empty cells (e0, e1) holding their lowest cell (both words 0 when
    there is none)."""
    if e0 != ZERO:
        x0, x1 = e0 & (ZERO - e0), ZERO
    elif e1 != ZERO:
        x0, x1 = ZERO, e1 & (ZERO - e1)
    else:
        return ZERO, ZERO
    while True:
        y0, y1 = spread(x0, x1)
        y0 &= e0
        y1 &= e1
        if y0 == x0 and y1 == x1:
            return x0, x1
        x0, x1 = y0, y1


@njit(nogil=True, cache=True)
def shape(x0: np.uint64, x1: np.uint64) -> tuple[np.uint64, int, bool]:
    """The region's plain key (its cells moved to the top left corner, hashed: cheap; a
    line's from its length alone), its cells, and whether it is a straight line (one row
    or one column: a Nim heap of its length, kept out of the table)."""
    m = x0 | x1
    m |= m >> np.uint64(10)
    m |= m >> np.uint64(20)
    m |= (x0 | x1) >> np.uint64(40)
    cols = m & LOW10
    lo = np.int64(trailing_zeros(cols))
    hi = 63 - np.int64(leading_zeros(cols))
    top = np.int64(trailing_zeros(x0)) // 10 if x0 != ZERO else 5 + np.int64(
        trailing_zeros(x1)) // 10
    bottom = 5 + (63 - np.int64(leading_zeros(x1))) // 10 if x1 != ZERO else (
        63 - np.int64(leading_zeros(x0))) // 10
    cells = popcount(x0) + popcount(x1)
    if top == bottom or lo == hi:
        return mix(np.uint64(cells) + np.uint64(0x7F4A7C159E3779B9)) | ONE, cells, True
    v0, v1 = x0 >> np.uint64(lo), x1 >> np.uint64(lo)
    if top >= 5:
        v0, v1 = v1 >> np.uint64(10 * (top - 5)), ZERO
    elif top > 0:
        v0 = (v0 >> np.uint64(10 * top)) | ((v1 << np.uint64(50 - 10 * top)) & W50)
        v1 >>= np.uint64(10 * top)
    return mix(mix(v0 + np.uint64(0x9E3779B97F4A7C15)) ^ v1) | ONE, cells, False


@njit(nogil=True, cache=True)
def canonical_key(x0: np.uint64, x1: np.uint64, scratch: np.ndarray) -> np.uint64:
    """The region's key under the 8 symmetries too (`solver.region_hash`: dearer)."""
    rows = scratch[0]
    for r in range(10):
        rows[r] = np.int64(row_of(x0, x1, r))
    return mix(region_hash(rows, scratch[1], scratch[2]) ^ np.uint64(0x3C6EF372FE94F82B)) | ONE


# ----- the table -------------------------------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def probe(keys: np.ndarray, vals: np.ndarray, key: np.uint64) -> int:
    """The stored entry (value | TAME) of `key`, or UNKNOWN."""
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
def store(keys: np.ndarray, vals: np.ndarray, key: np.uint64, entry: int) -> None:
    mask = np.uint64(keys.size - 1)
    i = key & mask
    for _ in range(PROBES):
        k = keys[np.int64(i)]
        if k == ZERO or k == key:
            break
        i = (i + ONE) & mask
    else:
        i = key & mask  # the probe run is full: replace its first entry
    keys[np.int64(i)] = key  # never 0 (the mark of an empty slot): keys end in a 1
    vals[np.int64(i)] = entry


@njit(nogil=True, cache=True)
def known(x0: np.uint64, x1: np.uint64, keys: np.ndarray, vals: np.ndarray,
          scratch: np.ndarray) -> tuple[int, np.uint64]:
    """The region's entry (value | TAME | HEAP) if it is a line or in the table, else
    UNKNOWN; and its plain key (a line's is its length's). The table holds each solved region under
    its plain key and its canonical key: a miss on the first looks for the second (the
    same shape turned) and copies it."""
    key, cells, line = shape(x0, x1)
    if line:  # *n; heap-like up to 3 cells (a line of 4 has the option *1+*2)
        return cells | TAME | (HEAP if cells <= 3 else 0), key
    entry = probe(keys, vals, key)
    if entry == UNKNOWN:
        entry = probe(keys, vals, canonical_key(x0, x1, scratch))
        if entry != UNKNOWN:
            store(keys, vals, key, entry)
    return entry, key


@njit(nogil=True, cache=True)
def option_entry(x0: np.uint64, x1: np.uint64, code: int, keys: np.ndarray,
                 vals: np.ndarray, scratch: np.ndarray
                 ) -> tuple[int, int, int, int, int, np.uint64, np.uint64]:
    """What the rectangle `code` leaves of the region (x0, x1): the XOR of its regions'
    values and the flags ALL_TAME (every one tame) and ALL_SMALL (every value 0 or 1);
    then as heaps: how many of 2 or more (NOT_HEAPS if a region is not heap-like; 3 stands
    for more), the first two, and the *1 modulo 2. UNKNOWN and the first region missing
    from the table."""
    m0, m1 = clear_mask(code)
    e0, e1 = x0 & ~m0, x1 & ~m1
    x = 0
    flags = ALL_TAME | ALL_SMALL
    k, c1, c2, ones = 0, 0, 0, 0
    while e0 != ZERO or e1 != ZERO:
        r0, r1 = first_region(e0, e1)
        entry, _ = known(r0, r1, keys, vals, scratch)
        if entry == UNKNOWN:
            return UNKNOWN, 0, 0, 0, 0, r0, r1
        value = entry & VALUE_BITS
        x ^= value
        if not entry & TAME:
            flags &= ~ALL_TAME
        if value > 1:
            flags &= ~ALL_SMALL
        if not entry & HEAP:
            k = NOT_HEAPS
        elif k != NOT_HEAPS:
            if value == 1:
                ones ^= 1
            elif k == 0:
                k, c1 = 1, value
            elif k == 1:
                k, c2 = 2, value
            else:
                k = 3
        e0 &= ~r0
        e1 &= ~r1
    return x, flags, k, c1 | c2 << 10, ones, ZERO, ZERO


@njit(nogil=True, cache=True, inline="always")
def set_bit(seen: np.ndarray, base: int, v: int) -> None:
    if v < 64 * SEEN_WORDS:
        seen[base + (v >> 6)] |= ONE << np.uint64(v & 63)


@njit(nogil=True, cache=True, inline="always")
def has_bit(seen: np.ndarray, base: int, v: int) -> bool:
    return v < 64 * SEEN_WORDS and seen[base + (v >> 6)] >> np.uint64(v & 63) & ONE != ZERO


@njit(nogil=True, cache=True)
def mex(seen: np.ndarray, base: int) -> int:
    w = 0
    while w < SEEN_WORDS and seen[base + w] == ~ZERO:
        w += 1
    g = 64 * w
    if w < SEEN_WORDS:
        m = ~seen[base + w]
        while not m >> np.uint64(g - 64 * w) & ONE:
            g += 1
    return g


@njit(nogil=True, cache=True)
def note_option(seen: np.ndarray, flags: np.ndarray, d: int, x: int, ofl: int, k: int,
                cs: int, ones: int) -> None:
    """Fold one option into frame d: its value, tameness and heaps."""
    set_bit(seen[d], 0, x)
    if not ofl & ALL_TAME:
        flags[d] &= ~ALL_TAME
    if ofl & ALL_SMALL:
        flags[d] |= SMALL0 if x == 0 else SMALL1
    else:
        flags[d] &= ~ALL_SMALL
    if k == NOT_HEAPS or k == 3:
        flags[d] &= ~ALL_HEAP
        return
    c1, c2 = cs & 1023, cs >> 10
    if k == 0 or (k == 1 and ones == 0):  # a single heap: *ones, or *c1
        set_bit(seen[d], SEEN_WORDS, ones if k == 0 else c1)
        return
    # it must reverse through the region's heap: *1 from *c + *1 (c to 0), or *c1 or *c2
    # from two heaps (the other one to 0, or to 1 beside a *1)
    allow = 2 * SEEN_WORDS
    if flags[d] & ANY_REVERSING == 0:  # the first such option: its heaps are the candidates
        flags[d] |= ANY_REVERSING
        for w in range(SEEN_WORDS):
            seen[d, allow + w] = ZERO
        if k == 1:
            set_bit(seen[d], allow, 1)
            set_bit(seen[d], allow, c1)
        else:
            set_bit(seen[d], allow, c1)
            set_bit(seen[d], allow, c2)
        return
    a, b = (1, c1) if k == 1 else (c1, c2)  # what this option allows, ANDed in
    keep_a, keep_b = has_bit(seen[d], allow, a), has_bit(seen[d], allow, b)
    for w in range(SEEN_WORDS):
        seen[d, allow + w] = ZERO
    if keep_a:
        set_bit(seen[d], allow, a)
    if keep_b:
        set_bit(seen[d], allow, b)


@njit(nogil=True, cache=True)
def region_entry(x0: np.uint64, x1: np.uint64, keys: np.ndarray, vals: np.ndarray,
                 f0: np.ndarray, f1: np.ndarray, fkeys: np.ndarray, codes: np.ndarray,
                 nn: np.ndarray, ii: np.ndarray, seen: np.ndarray, flags: np.ndarray,
                 scratch: np.ndarray, stats: np.ndarray, stop: np.ndarray,
                 node_limit: int) -> int:
    """The entry (Grundy value | TAME | HEAP) of one region, or UNKNOWN when `stop` or
    `node_limit` (new regions solved) cut the solve short."""
    entry, key = known(x0, x1, keys, vals, scratch)
    if entry != UNKNOWN:
        return entry
    nodes = 0
    d = 0
    f0[0], f1[0], fkeys[0] = x0, x1, key
    nn[0] = rect_codes(x0, x1, codes[0])
    ii[0] = 0
    seen[0, :] = ZERO
    flags[0] = ALL_TAME | ALL_SMALL | ALL_HEAP
    while True:
        if ii[d] == nn[d]:  # every rectangle tried: the mex, whether tame, heap-like
            g = mex(seen[d], 0)
            fl = flags[d]
            tame = fl & ALL_TAME != 0 and (
                (g >= 2 and fl & SMALL0 != 0 and fl & SMALL1 != 0)
                or (g <= 1 and fl & ALL_SMALL != 0))
            heap = (fl & ALL_HEAP != 0 and g >= 1 and mex(seen[d], SEEN_WORDS) >= g
                    and (fl & ANY_REVERSING == 0 or has_bit(seen[d], 2 * SEEN_WORDS, g)))
            entry = g | (TAME if tame else 0) | (HEAP if heap else 0)
            store(keys, vals, fkeys[d], entry)
            store(keys, vals, canonical_key(f0[d], f1[d], scratch), entry)
            if d == 0:
                stats[0] += nodes
                return entry
            d -= 1
            continue
        x, ofl, k, cs, ones, m0, m1 = option_entry(f0[d], f1[d], codes[d, ii[d]], keys, vals,
                                                   scratch)
        if x != UNKNOWN:
            note_option(seen, flags, d, x, ofl, k, cs, ones)
            ii[d] += 1
            continue
        nodes += 1  # a new region to solve first
        if (nodes & 63 == 0 and stop[0]) or nodes > node_limit:
            stats[0] += nodes
            return UNKNOWN
        d += 1
        _, k = known(m0, m1, keys, vals, scratch)
        f0[d], f1[d], fkeys[d] = m0, m1, k
        nn[d] = rect_codes(m0, m1, codes[d])
        ii[d] = 0
        seen[d, :] = ZERO
        flags[d] = ALL_TAME | ALL_SMALL | ALL_HEAP


@njit(nogil=True, cache=True)
def position_entry(w0: np.uint64, w1: np.uint64, cap: int, keys: np.ndarray,
                   vals: np.ndarray, f0: np.ndarray, f1: np.ndarray, fkeys: np.ndarray,
                   codes: np.ndarray, nn: np.ndarray, ii: np.ndarray, seen: np.ndarray,
                   flags: np.ndarray, scratch: np.ndarray, stats: np.ndarray,
                   stop: np.ndarray, node_limit: int) -> tuple[int, int, bool]:
    """(XOR, largest value, every region tame) of the position's regions; XOR UNKNOWN when
    a region of more than `cap` cells is not in the table or a solve was cut short
    (`node_limit`: new regions for all of them together)."""
    e0, e1 = w0, w1
    x, top, tame = 0, 0, True
    start = stats[0]
    while e0 != ZERO or e1 != ZERO:
        r0, r1 = first_region(e0, e1)
        e0 &= ~r0
        e1 &= ~r1
        entry, _ = known(r0, r1, keys, vals, scratch)
        if entry == UNKNOWN:
            if popcount(r0) + popcount(r1) > cap:
                return UNKNOWN, 0, False
            left = node_limit - (stats[0] - start)
            if left <= 0:
                return UNKNOWN, 0, False
            entry = region_entry(r0, r1, keys, vals, f0, f1, fkeys, codes, nn, ii, seen,
                                 flags, scratch, stats, stop, left)
            if entry == UNKNOWN:
                return UNKNOWN, 0, False
        value = entry & VALUE_BITS
        x ^= value
        top = max(top, value)
        tame = tame and entry & TAME != 0
    return x, top, tame


@njit(nogil=True, cache=True, inline="always")
def misere_loses(x: int, top: int) -> bool:
    """The misere Nim rule: whether the mover loses a sum of tame regions."""
    return (top >= 2 and x == 0) or (top <= 1 and x == 1)
