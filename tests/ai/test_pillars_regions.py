"""Pillars region values against plain searches over the rules.

Proven here, on a few hundred random small positions: `first_region` splits the empty
cells into the 4-connected regions; a region's Grundy value, and whether it is tame and
heap-like, are those of a plain memoised Python definition (mex over the rectangles,
and the two definitions of `regions` written out again); every position whose regions
are all tame is won or lost exactly as the misere Nim rule says (the theorem); putting
the Nim heap of its value in place of any heap-like region never changes a position's
misere outcome (the lemma); the table keys are the same under translation (plain) and
the 8 symmetries (canonical), and a line's value and key are its length's.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np

from ai.pillars import kernels as K
from ai.pillars import regions as R
from rules.pillars import SIZE, rectangles
from tests.ai.test_pillars_kernels import (
    SYMMETRIES,
    cells_of,
    normalised,
    plain_value,
    regions,
    rows_of,
    small_position,
)

Cells = frozenset[tuple[int, int]]


def words(cells: set[tuple[int, int]] | Cells) -> tuple[np.uint64, np.uint64]:
    return K.words(rows_of(set(cells)))


def cells_in(x0: np.uint64, x1: np.uint64) -> set[tuple[int, int]]:
    both = int(x0) | int(x1) << 50
    return {(r, c) for r in range(SIZE) for c in range(SIZE) if both >> 10 * r + c & 1}


def options(region: Cells) -> list[list[Cells]]:
    """What each rectangle leaves of the region, as regions."""
    out = []
    for t, lc, b, r in rectangles(rows_of(set(region))):
        rest = {(i, j) for i, j in region if not (t <= i <= b and lc <= j <= r)}
        out.append([frozenset(reg) for reg in regions(rest)])
    return out


@cache
def grundy(region: Cells) -> int:
    values = set()
    for parts in options(region):
        x = 0
        for part in parts:
            x ^= grundy(part)
        values.add(x)
    g = 0
    while g in values:
        g += 1
    return g


@cache
def tame(region: Cells) -> bool:
    """`regions`'s first definition, written out again."""
    g = grundy(region)
    small0 = small1 = False
    all_small = True
    for parts in options(region):
        if not all(tame(p) for p in parts):
            return False
        values = [grundy(p) for p in parts]
        x = 0
        for v in values:
            x ^= v
        if max(values, default=0) <= 1:
            small0, small1 = small0 or x == 0, small1 or x == 1
        else:
            all_small = False
    return (g >= 2 and small0 and small1) or (g <= 1 and all_small)


@cache
def heap_like(region: Cells) -> bool:
    """`regions`'s second definition, written out again."""
    g = grundy(region)
    line = len({r for r, _ in region}) == 1 or len({c for _, c in region}) == 1
    if line:
        return len(region) <= 3
    if g == 0:
        return False
    singles: set[int] = set()
    allowed: set[int] | None = None
    for parts in options(region):
        if not all(heap_like(p) for p in parts):
            return False
        values = [grundy(p) for p in parts]
        ones = sum(v == 1 for v in values) % 2
        big = sorted(v for v in values if v >= 2)
        if not big or (len(big) == 1 and not ones):
            singles.add(big[0] if big else ones)
            continue
        if len(big) > 2:
            return False
        these = {1, big[0]} if len(big) == 1 else set(big)
        allowed = these if allowed is None else allowed & these
    return all(b in singles for b in range(g)) and (allowed is None or g in allowed)


TABLES = R.new_tables(16)  # one table for every test: its entries hold across them
STOP = np.zeros(1, np.int32)


def entry(cells: set[tuple[int, int]] | Cells) -> int:
    keys, vals, f0, f1, fkeys, codes, nn, ii, seen, flags, scratch, stats = TABLES
    x0, x1 = words(cells)
    return int(R.region_entry(x0, x1, keys, vals, f0, f1, fkeys, codes, nn, ii, seen, flags,
                              scratch, stats, STOP, 1 << 30))


def sample(seed: int, count: int, high: int) -> list[list[Cells]]:
    """`count` random positions of 2 to `high` empty cells, as their regions."""
    rng = random.Random(seed)
    return [[frozenset(reg) for reg in regions(cells_of(small_position(rng, 2 + i % (high - 1))
                                                       .rows))]
            for i in range(count)]


def test_first_region_splits_into_the_regions() -> None:
    for parts in sample(1, 200, 30):
        e0, e1 = words(frozenset().union(*parts))
        found = []
        while e0 or e1:
            x0, x1 = R.first_region(e0, e1)
            found.append(frozenset(cells_in(x0, x1)))
            e0, e1 = np.uint64(int(e0) & ~int(x0)), np.uint64(int(e1) & ~int(x1))
        assert sorted(map(sorted, found)) == sorted(map(sorted, parts))


def test_values_and_flags_match_the_definitions() -> None:
    checked = tamed = heaps = 0
    for parts in sample(2, 260, 16):
        for region in parts:
            e = entry(region)
            assert e & R.VALUE_BITS == grundy(region), sorted(region)
            assert bool(e & R.TAME) == tame(region), sorted(region)
            assert bool(e & R.HEAP) == heap_like(region), sorted(region)
            checked += 1
            tamed += tame(region) and len(region) > 3
            heaps += heap_like(region) and len(region) > 3
    assert checked >= 1000 and tamed >= 30 and heaps >= 15, (checked, tamed, heaps)


@cache
def wins_with_heaps(cells: Cells, heaps: tuple[int, ...]) -> bool:
    """Plain misere search over cells beside Nim heaps: whether the mover wins."""
    if not cells and not heaps:
        return True
    for t, lc, b, r in rectangles(rows_of(set(cells))):
        rest = frozenset((i, j) for i, j in cells if not (t <= i <= b and lc <= j <= r))
        if not wins_with_heaps(rest, heaps):
            return True
    for i, h in enumerate(heaps):
        for k in range(h):
            smaller = tuple(sorted(heaps[:i] + heaps[i + 1:] + (k,) * (k > 0)))
            if not wins_with_heaps(cells, smaller):
                return True
    return False


def test_tame_positions_follow_the_misere_nim_rule() -> None:
    checked = 0
    for parts in sample(3, 300, 14):
        if not all(tame(p) for p in parts):
            continue
        x = top = 0
        for p in parts:
            x ^= grundy(p)
            top = max(top, grundy(p))
        rows = rows_of(set().union(*parts))
        assert (plain_value(rows) == 0) == R.misere_loses(x, top), sorted(map(sorted, parts))
        checked += 1
    assert checked >= 100


def placed(rng: random.Random, parts: list[Cells]) -> list[Cells] | None:
    """The regions put at random places on the board, no two touching (None if they did
    not fit)."""
    taken: set[tuple[int, int]] = set()
    out = []
    for part in parts:
        form = normalised(set(part))
        h = max(r for r, _ in form) + 1
        w = max(c for _, c in form) + 1
        for _ in range(100):
            dr, dc = rng.randrange(SIZE - h + 1), rng.randrange(SIZE - w + 1)
            cells = frozenset((r + dr, c + dc) for r, c in form)
            if not {(r + a, c + b) for r, c in cells for a in (-1, 0, 1) for b in (-1, 0, 1)
                    if abs(a) + abs(b) < 2} & taken:
                taken |= cells
                out.append(cells)
                break
        else:
            return None
    return out


def test_heap_like_regions_are_their_heaps() -> None:
    """Positions of a heap-like region and one or two others (any), their outcome with
    and without the heap in its place."""
    rng = random.Random(4)
    pool = sorted({frozenset(normalised(set(p))) for parts in sample(5, 300, 12)
                   for p in parts if 2 <= len(p) <= 8}, key=sorted)
    heapy = [p for p in pool if heap_like(p) and len(p) > 3]
    assert len(heapy) >= 8
    checked = 0
    while checked < 120:
        parts = placed(rng, [rng.choice(heapy)] + rng.sample(pool, rng.randint(1, 2)))
        if parts is None or sum(map(len, parts)) > 15:
            continue
        whole = plain_value(rows_of(set().union(*parts))) == 1
        assert wins_with_heaps(frozenset().union(*parts[1:]), (grundy(parts[0]),)) == whole
        checked += 1


def test_keys_follow_the_shapes() -> None:
    rng = random.Random(6)
    scratch = np.zeros((3, SIZE), np.int64)
    plain: dict[int, tuple] = {}
    for parts in sample(7, 150, 24):
        for region in parts:
            x0, x1 = words(region)
            key, cells, line = R.shape(x0, x1)
            assert cells == len(region)
            form = normalised(set(region))
            assert plain.setdefault(int(key), form) == form or line
            h = max(r for r, _ in form) + 1
            w = max(c for _, c in form) + 1
            dr, dc = rng.randrange(SIZE - h + 1), rng.randrange(SIZE - w + 1)
            moved = words({(r + dr, c + dc) for r, c in form})
            assert R.shape(*moved)[0] == key
            canonical = R.canonical_key(x0, x1, scratch)
            for f in SYMMETRIES:
                image = {f(r, c) for r, c in region}
                assert R.canonical_key(*words(image), scratch) == canonical


def test_lines_are_heaps_of_their_length() -> None:
    for n in range(1, SIZE + 1):
        row = {(4, c) for c in range(n)}
        column = {(r, 7) for r in range(SIZE - n, SIZE)}
        for line in (row, column):
            e = entry(line)
            assert e & R.VALUE_BITS == n and e & R.TAME
            assert bool(e & R.HEAP) == (n <= 3)
        assert R.shape(*words(row))[0] == R.shape(*words(column))[0]
    keys = {int(R.shape(*words({(0, c) for c in range(n)}))[0]) for n in range(2, 11)}
    assert len(keys) == 9  # one key a length: a wild line of 4 is not a line of 5


def test_a_2x2_square_is_a_heap_of_one() -> None:
    square = frozenset((r, c) for r in (2, 3) for c in (5, 6))
    e = entry(square)
    assert e & R.VALUE_BITS == 1 and e & R.HEAP and not e & R.TAME
