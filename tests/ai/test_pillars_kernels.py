"""Pillars kernels against the rules.

Proven here, on about 2,000 random positions (random pillars, random play at every stage
down to the full board, with and without the jokers claimed) and hand-made edge cases:
the kernels' rectangles are exactly the rules' rectangles; the child words and empty
count after each rectangle are the rules' rows and empty count after playing it; perft
equals `reference_perft` at depths 1-3, with and without the joker twins, and the C
program's counts; a play-out returns 0/1, repeats for a given random state and is right
where every line of play ends alike; the exact solver equals a plain memoised misere
search over the rules on 300+ small positions; `position_key` is the same under the 8
symmetries of the board and any re-arrangement of the same region shapes, and differs
when the region shapes differ.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import numpy as np
import pytest

from ai import regions as bitsets
from ai.perft import reference_perft
from ai.pillars import kernels as K
from ai.pillars import solver as S
from ai.pillars.adapter import EXAMPLE
from rules.pillars import SIZE, Pillars, rectangles

ROWS = np.empty(SIZE, np.uint64)  # the play-outs' row scratch

FULL_ROW = (1 << SIZE) - 1

Rect = tuple[int, int, int, int]


def area(rect: tuple[int, ...]) -> int:
    return (rect[2] - rect[0] + 1) * (rect[3] - rect[1] + 1)


def claimed_bits(game: Pillars) -> int:
    return sum(1 << p for p in (0, 1) if game.claims[p] is not None)


def after(rows: tuple[int, ...] | list[int], rect: Rect) -> tuple[int, ...]:
    """The row masks with `rect` filled (plain arithmetic, for rows no game can reach)."""
    t, lc, b, r = rect
    cols = ((1 << (r - lc + 1)) - 1) << lc
    return tuple(rows[i] & ~cols if t <= i <= b else rows[i] for i in range(SIZE))


def rows_of(cells: set[tuple[int, int]]) -> list[int]:
    rows = [0] * SIZE
    for r, c in cells:
        rows[r] |= 1 << c
    return rows


def cells_of(rows: tuple[int, ...] | list[int]) -> set[tuple[int, int]]:
    return {(r, c) for r in range(SIZE) for c in range(SIZE) if rows[r] >> c & 1}


def leave_only(game: Pillars, keep: set[tuple[int, int]]) -> Pillars:
    """Fill (by legal single-row moves) every empty cell not in `keep`."""
    for r in range(SIZE):
        c = 0
        while c < SIZE:
            if game.rows[r] >> c & 1 and (r, c) not in keep:
                end = c
                while end + 1 < SIZE and game.rows[r] >> end + 1 & 1 and (r, end + 1) not in keep:
                    end += 1
                game.play((r, c, r, end, False))
                c = end
            c += 1
    assert cells_of(game.rows) == keep
    return game


def game_positions(rng: random.Random, index: int) -> list[Pillars]:
    """Every position of one random game to the full board: random pillars, rectangles
    capped in area (so some games last long and end fragmented), random claims; every
    fourth game red claims at once, then blue on its first move, or both."""
    game = Pillars.new(seed=rng.randrange(1 << 30))
    cap = rng.choice([100, 100, 12, 6, 3, 2])
    out = []
    while not game.is_over:
        if rng.random() < 0.5 or game.empty <= 2:
            out.append(game.copy())
        rects = [m for m in game.rectangles() if area(m) <= cap] or game.rectangles()
        ply = len(game.history)
        forced = (index % 4 == 1 and ply == 0) or (index % 4 == 2 and ply == 1) or (
            index % 4 == 3 and ply < 2)
        claim = game.claims[game.to_move] is None and (forced or rng.random() < 0.05)
        game.play((*rng.choice(rects), claim))
    out.append(game)
    return out


@cache
def positions() -> tuple[Pillars, ...]:
    """At least 2,000 positions at every stage (the same every run)."""
    rng = random.Random(2009)
    out: list[Pillars] = []
    index = 0
    while len(out) < 2100:
        out.extend(game_positions(rng, index))
        index += 1
    return tuple(out)


def kernel_rects(rows: tuple[int, ...] | list[int]) -> tuple[np.ndarray, np.uint64, np.uint64]:
    w0, w1 = K.words(list(rows))
    out = np.zeros(K.MAX_RECTS, np.int64)
    n = K.rect_codes(w0, w1, out)
    return out[:n].copy(), w0, w1


def kernel_children(codes: np.ndarray, w0: np.uint64,
                    w1: np.uint64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c0, c1 = np.zeros(codes.size, np.uint64), np.zeros(codes.size, np.uint64)
    left = np.zeros(codes.size, np.int64)
    K.children(w0, w1, codes, c0, c1, left)
    return c0, c1, left


# ----- words and move codes --------------------------------------------------------------
def test_words_place_each_cell_at_its_bit() -> None:
    rng = random.Random(1)
    for _ in range(200):
        rows = [rng.randrange(1 << SIZE) for _ in range(SIZE)]
        w0, w1 = K.words(rows)
        assert isinstance(w0, np.uint64) and isinstance(w1, np.uint64)
        for r in range(SIZE):
            word = int(w0 if r < 5 else w1)
            for c in range(SIZE):
                assert (word >> 10 * (r % 5) + c & 1) == (rows[r] >> c & 1)
        assert int(w0) >> 50 == 0 and int(w1) >> 50 == 0
        # the kernels count the cells with popcount: the one-cell child of a full move
        codes = np.zeros(K.MAX_RECTS, np.int64)
        n = K.rect_codes(w0, w1, codes)
        c0, c1, left = (np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.int64))
        K.children(w0, w1, codes[:n], c0, c1, left)
        empty = sum(bin(m).count("1") for m in rows)
        for i in range(n):
            t, lc, b, r, _ = K.decode(int(codes[i]))
            assert left[i] == empty - (b - t + 1) * (r - lc + 1)


def test_move_codes_round_trip() -> None:
    for t in range(SIZE):
        for b in range(t, SIZE):
            for lc in range(SIZE):
                for r in range(lc, SIZE):
                    for claim in (False, True):
                        code = K.encode(t, lc, b, r, claim)
                        assert code == (t << 12 | lc << 8 | b << 4 | r) + (K.CLAIM if claim else 0)
                        assert K.decode(code) == (t, lc, b, r, claim)


# ----- rectangles and children against the rules' play ----------------------------------
def test_differential_rectangles_and_children() -> None:
    stages: Counter = Counter()
    for game in positions():
        codes, w0, w1 = kernel_rects(game.rows)
        rects = [K.decode(int(c))[:4] for c in codes]
        text = game.to_native()
        assert not any(K.decode(int(c))[4] for c in codes)
        assert len(rects) == len(set(rects)) == len(game.rectangles()), text
        assert sorted(rects) == game.rectangles(), text
        c0, c1, left = kernel_children(codes, w0, w1)
        for i, rect in enumerate(rects):
            game.play((*rect, False))
            assert (c0[i], c1[i]) == K.words(game.rows), (text, rect)
            assert left[i] == game.empty, (text, rect)
            game.undo()
        stages[min(game.empty // 10, 9)] += 1
        stages["full"] += game.empty == 0
        stages["one"] += game.empty == 1
    assert sum(stages[s] for s in range(10)) >= 2000
    # every stage of the game is there, the very end included
    assert all(stages[s] >= 20 for s in range(10)), stages
    assert stages["full"] >= 50 and stages["one"] >= 50, stages


@pytest.mark.parametrize("rows", [
    (FULL_ROW,) * SIZE,  # no pillars at all: 55 * 55 rectangles
    (FULL_ROW,) + (0,) * 9,  # one full row, at the top
    (0,) * 9 + (FULL_ROW,),  # and at the bottom
    (1,) * SIZE,  # the left column
    (1 << 9,) * SIZE,  # the right column
    (1,) + (0,) * 9,  # a single cell in each corner
    (1 << 9,) + (0,) * 9,
    (0,) * 9 + (1,),
    (0,) * 9 + (1 << 9,),
    (0,) * 9 + (1 << 4,),  # a single cell at the bottom edge
    (0,) * 4 + (1 << 9,) + (0,) * 5,  # row 4, the last row of the first word
    (0,) * 5 + (1,) + (0,) * 4,  # row 5, the first row of the second word
    (0, 0, 0, 0b0111111000, 0b0111111000, 0b0111111000, 0b0111111000, 0, 0, 0),  # a rectangle
    # across the words
    (0b1111101111, 0b1010101010, FULL_ROW, 0, 0b1000000001, 0b1000000001, 0, 0, 0, 0),
    (0,) * SIZE,  # a full board
])
def test_edge_rows(rows: tuple[int, ...]) -> None:
    codes, w0, w1 = kernel_rects(rows)
    rects = [K.decode(int(c))[:4] for c in codes]
    assert sorted(rects) == rectangles(list(rows)) and len(rects) == len(set(rects))
    c0, c1, left = kernel_children(codes, w0, w1)
    for i, rect in enumerate(rects):
        child = after(rows, rect)
        assert (c0[i], c1[i]) == K.words(list(child))
        assert left[i] == sum(bin(m).count("1") for m in child)
    if rows == (FULL_ROW,) * SIZE:
        assert len(rects) == K.MAX_RECTS == 3025
    if rows == (0,) * SIZE:
        assert len(rects) == 0


@pytest.mark.parametrize("seed", [None, 1, 7])
def test_start_rectangles_along_the_edges_and_around_the_pillars(seed: int | None) -> None:
    game = Pillars.new({"pillars": "diagonal"}) if seed is None else Pillars.new(seed=seed)
    codes, _, _ = kernel_rects(game.rows)
    rects = {K.decode(int(c))[:4] for c in codes}
    assert sorted(rects) == game.rectangles()
    pillars = {(r, c) for r, c in enumerate(game.pillars)}
    for t, lc, b, r in rects:  # none covers a pillar
        assert not any(t <= pr <= b and lc <= pc <= r for pr, pc in pillars)
    for pr, pc in pillars:
        # the longest runs beside each pillar along its row and its column, to the edges
        if pc > 0:
            assert (pr, 0, pr, pc - 1) in rects
        if pc < SIZE - 1:
            assert (pr, pc + 1, pr, SIZE - 1) in rects
        if pr > 0:
            assert (0, pc, pr - 1, pc) in rects
        if pr < SIZE - 1:
            assert (pr + 1, pc, SIZE - 1, pc) in rects
        assert (pr, pc, pr, pc) not in rects
    # the four edges of the board outside their pillars
    for r0 in (0, SIZE - 1):
        p = game.pillars[r0]
        assert ((r0, 0, r0, p - 1) in rects) == (p > 0)
        assert ((r0, p + 1, r0, SIZE - 1) in rects) == (p < SIZE - 1)
    for c0 in (0, SIZE - 1):
        p = game.pillars.index(c0)
        assert ((0, c0, p - 1, c0) in rects) == (p > 0)
        assert ((p + 1, c0, SIZE - 1, c0) in rects) == (p < SIZE - 1)


def test_one_empty_cell_and_one_rectangle_region() -> None:
    game = Pillars.new(seed=3)
    game = leave_only(game, {(9, 9) if game.pillars[9] != 9 else (9, 0)})
    codes, w0, w1 = kernel_rects(game.rows)
    assert [K.decode(int(c))[:4] for c in codes] == game.rectangles() and codes.size == 1
    _, _, left = kernel_children(codes, w0, w1)
    assert list(left) == [0]
    # one region that is a rectangle: 3 rows by 4 columns clear of the diagonal's pillars
    block = {(r, c) for r in range(5, 8) for c in range(0, 4)}
    game = leave_only(Pillars.new({"pillars": "diagonal"}), block)
    codes, w0, w1 = kernel_rects(game.rows)
    rects = [K.decode(int(c))[:4] for c in codes]
    assert sorted(rects) == game.rectangles() and len(rects) == 6 * 10  # C(4,2) * C(5,2)
    c0, c1, left = kernel_children(codes, w0, w1)
    for i, rect in enumerate(rects):
        game.play((*rect, False))
        assert (c0[i], c1[i]) == K.words(game.rows) and left[i] == game.empty
        game.undo()


# ----- perft ------------------------------------------------------------------------------
def kernel_perft(game: Pillars, depth: int, joker: bool) -> list[int]:
    w0, w1 = K.words(game.rows)
    counts = K.perft(w0, w1, game.to_move, claimed_bits(game), depth, joker)
    assert counts.size == depth + 1  # the counts, then the checksum
    return [int(c) for c in counts[:depth]]


def test_perft_matches_reference() -> None:
    seen: Counter = Counter()
    for i, game in enumerate(positions()):
        n = len(game.rectangles())
        if i % 4 == 0:
            depth = 1
        elif n <= 40:
            depth = 3 if n <= 12 and i % 2 else 2
        else:
            continue
        for joker in (False, True):
            want = reference_perft(game, depth, joker)
            assert kernel_perft(game, depth, joker) == want, (game.to_native(), depth, joker)
        seen[depth] += 1
        seen["claimed", claimed_bits(game)] += 1
        seen["twins", claimed_bits(game) >> game.to_move & 1] += 1
    assert seen[1] >= 400 and seen[2] >= 150 and seen[3] >= 20, seen
    # neither side, red only, blue only and both sides claimed
    assert all(seen["claimed", bits] >= 20 for bits in range(4)), seen
    assert seen["twins", 0] >= 20 and seen["twins", 1] >= 20, seen


def test_perft_the_c_programs_counts() -> None:
    start = Pillars.from_native("\n".join(EXAMPLE.splitlines()[:SIZE]) + "\n")
    assert start.pillars == tuple(range(SIZE)) and not start.history
    assert kernel_perft(start, 2, False) == [990, 800646]
    assert kernel_perft(start, 2, True) == [1980, 3202584]
    assert kernel_perft(Pillars.new(seed=1), 1, False) == [909]
    assert kernel_perft(Pillars.new(seed=1), 1, True) == [2 * 909]
    # the seed's example game (blue has claimed): its rectangles, and the twins for red
    example = Pillars.from_native(EXAMPLE)
    assert example.claims[1] is not None and example.claims[0] is None
    for joker in (False, True):
        assert kernel_perft(example, 1, joker) == reference_perft(example, 1, joker)


def test_perft_after_a_claim_on_the_diagonal() -> None:
    """Red claims, the board is filled down to a corner of 11 cells: depth 3 with twins
    for blue only, then for neither side once blue has claimed too."""
    game = Pillars.new({"pillars": "diagonal"})
    game.play((0, 1, 0, 1, True))
    corner = {(r, c) for r in range(7, 10) for c in range(4)} - {(7, 0)}
    leave_only(game, corner)
    assert game.claims[0] is not None and game.claims[1] is None
    for joker in (False, True):
        assert kernel_perft(game, 3, joker) == reference_perft(game, 3, joker)
    game.play((7, 1, 7, 1, game.to_move == 1))
    game.play((7, 2, 7, 2, game.to_move == 1))
    assert claimed_bits(game) == 3
    for joker in (False, True):
        assert kernel_perft(game, 3, joker) == reference_perft(game, 3, False)


def test_perft_at_the_full_board_is_zero() -> None:
    game = [g for g in positions() if g.empty == 0][0]
    for joker in (False, True):
        assert kernel_perft(game, 2, joker) == [0, 0] == reference_perft(game, 2, joker)


# ----- play-outs --------------------------------------------------------------------------
def wins_at_once(rows: tuple[int, ...] | list[int]) -> bool:
    empty = sum(bin(m).count("1") for m in rows)
    return any(area(m) == empty - 1 for m in rectangles(list(rows)))


def test_playouts_are_bits_and_repeat_by_state() -> None:
    rng = random.Random(44)
    results: Counter = Counter()
    for game in positions()[::5]:
        if game.empty == 0:
            continue
        w0, w1 = K.words(game.rows)
        for _ in range(3):
            state = np.uint64(rng.getrandbits(64) | 1)
            r, s = K.playout(w0, w1, state, ROWS)
            assert r in (0, 1)
            assert K.playout(w0, w1, state, ROWS) == (r, s)  # same state, same play-out
            results[r] += 1
            if game.empty == 1:
                assert r == 0, game.to_native()  # the mover must fill the last cell
            elif wins_at_once(game.rows):
                assert r == 1, game.to_native()  # it leaves one cell
    assert results[0] >= 50 and results[1] >= 50, results
    # the other side filled the last cell: the mover has won
    assert K.playout(np.uint64(0), np.uint64(0), np.uint64(5), ROWS)[0] == 1


def test_the_roots_playouts_share_one_row_buffer_without_leaking_between_playouts() -> None:
    """`fixed_playouts` runs every child's play-outs through one scratch buffer: the same
    wins as single play-outs from the same random streams."""
    from ai.bits import mix_seed

    games = [g for g in positions()[::7] if g.empty > 1][:12]
    c0 = np.array([K.words(g.rows)[0] for g in games], np.uint64)
    c1 = np.array([K.words(g.rows)[1] for g in games], np.uint64)
    seed, each = np.uint64(77), 9
    wins = np.zeros(len(games), np.int64)
    assert K.fixed_playouts(c0, c1, len(games), each, seed, wins, np.zeros(1, np.bool_))
    for i in range(len(games)):
        s, won = np.uint64(mix_seed(seed, i)), 0  # unsigned, as in the kernel
        for _ in range(each):
            r, state = K.playout(c0[i], c1[i], s, ROWS)
            s = np.uint64(state % (1 << 64))  # the JIT hands it back as a signed int
            won += 1 - r
        assert wins[i] == won, i
    assert 0 < wins.sum() < each * len(games)


def test_playouts_from_lone_cells_follow_the_parity() -> None:
    """k separate single cells: every line of play fills one at a time, so the mover fills
    the last one (and loses) exactly when k is odd."""
    rng = random.Random(3)
    board = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r + c) % 2 == 0]
    for k in range(1, 30):
        for _ in range(3):
            rows = rows_of(set(rng.sample(board, k)))
            w0, w1 = K.words(rows)
            r, _ = K.playout(w0, w1, np.uint64(rng.getrandbits(64) | 1), ROWS)
            assert r == (k % 2 == 0), k


def test_playout_one_cell_and_a_win_at_once() -> None:
    rng = random.Random(8)
    for seed in range(5):
        game = Pillars.new(seed=seed)
        cell = [(r, c) for r in range(SIZE) for c in range(SIZE) if game.rows[r] >> c & 1]
        one = leave_only(game.copy(), {rng.choice(cell)})
        w0, w1 = K.words(one.rows)
        assert K.playout(w0, w1, np.uint64(99), ROWS)[0] == 0
        # one line of 3..9 cells alone: filling all but one of it wins at once
        r0 = next(r for r in range(SIZE) if game.pillars[r] >= 3)
        line = leave_only(game.copy(), {(r0, c) for c in range(game.pillars[r0])})
        w0, w1 = K.words(line.rows)
        for s in range(1, 6):
            assert K.playout(w0, w1, np.uint64(s), ROWS)[0] == 1
    # a 2x3 block and a single cell elsewhere: filling the block leaves one cell
    rows = rows_of({(r, c) for r in (2, 3) for c in (4, 5, 6)} | {(8, 1)})
    w0, w1 = K.words(rows)
    assert wins_at_once(rows)
    for s in range(1, 6):
        assert K.playout(w0, w1, np.uint64(s), ROWS)[0] == 1


# ----- the exact solver against a plain memoised search over the rules ---------------------
def normal(rows: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The row masks moved to the top left corner (a translation: the same game)."""
    live = list(rows)
    while live and live[0] == 0:
        live.pop(0)
    while live and live[-1] == 0:
        live.pop()
    if not live:
        return (0,) * SIZE
    low = min((m & -m).bit_length() - 1 for m in live if m)
    return tuple([m >> low for m in live] + [0] * (SIZE - len(live)))


@cache
def mover_wins(rows: tuple[int, ...]) -> bool:
    """The plainest search: misere, one empty cell left loses; a position wins if some
    rectangle that does not fill every empty cell leaves the other side a lost position.
    Memoised on the rows (moved to the corner)."""
    empty = sum(bin(m).count("1") for m in rows)
    assert empty > 0
    if empty == 1:
        return False
    return any(not mover_wins(normal(after(rows, rect)))
               for rect in rectangles(list(rows)) if area(rect) < empty)


REGION_MEMO: dict[tuple, bool] = {}


def region_key(rows: tuple[int, ...] | list[int]) -> tuple:
    """The regions of empty cells, each moved to the corner (not turned), in sorted order:
    a rectangle never spans two regions, so this is the whole position up to where each
    region sits. (Flood fills on one int, `ai.regions`': the memoised search keys
    hundreds of thousands of positions.)"""
    return tuple(sorted(bitsets.placed(region)[0]
                        for region in bitsets.components(bitsets.pack(rows))))


def mover_wins_by_regions(rows: tuple[int, ...]) -> bool:
    """The same search memoised on `region_key` (far fewer entries with many regions)."""
    k = region_key(rows)
    if k not in REGION_MEMO:
        empty = sum(bin(m).count("1") for m in rows)
        REGION_MEMO[k] = empty > 1 and any(
            not mover_wins_by_regions(after(rows, rect))
            for rect in rectangles(list(rows)) if area(rect) < empty)
    return REGION_MEMO[k]


def plain_value(rows: tuple[int, ...] | list[int]) -> int:
    return S.WIN if mover_wins_by_regions(tuple(rows)) else S.LOSS


def blob(rng: random.Random, free: set[tuple[int, int]], size: int) -> set[tuple[int, int]]:
    """A random connected set of up to `size` cells of `free`."""
    cells = {rng.choice(sorted(free))}
    while len(cells) < size:
        edge = sorted({(r + a, c + b) for r, c in cells for a, b in
                       ((0, 1), (1, 0), (0, -1), (-1, 0))} & free - cells)
        if not edge:
            break
        cells.add(rng.choice(edge))
    return cells


def small_position(rng: random.Random, target: int) -> Pillars:
    """A random start brought down to about `target` empty cells: by random play with
    small rectangles once the board is fairly full (the empties end up scattered in
    several regions), or by filling all but one to three random blobs."""
    game = Pillars.new(seed=rng.randrange(1 << 30))
    parts = rng.choice([0, 0, 1, 2, 3])
    if parts == 0:
        cap = rng.choice([2, 3, 4, 6])
        while game.empty > target:
            limit = game.empty - target if game.empty > 40 else min(cap, game.empty - target)
            game.play((*rng.choice([m for m in game.rectangles() if area(m) <= limit]), False))
        return game
    free = cells_of(game.rows)
    keep: set[tuple[int, int]] = set()
    for part in range(parts, 0, -1):  # the blobs may touch: then fewer regions
        size = (target - len(keep)) // part
        if size > 0:
            keep |= blob(rng, free - keep, size)
    return leave_only(game, keep)


def solve(rows: tuple[int, ...] | list[int], tabs: tuple[np.ndarray, ...],
          stop: np.ndarray | None = None) -> int:
    w0, w1 = K.words(list(rows))
    stop = np.zeros(1, np.int32) if stop is None else stop
    return int(S.solve(w0, w1, *tabs[:6], tabs[6], stop, tabs[7]))


def test_the_two_plain_searches_agree() -> None:
    """The region-keyed search the solver is checked against, against the plainest one."""
    rng = random.Random(76)
    for i in range(120):
        game = small_position(rng, 2 + i % 10)
        assert mover_wins_by_regions(tuple(game.rows)) == mover_wins(normal(game.rows))


def test_solver_matches_plain_search() -> None:
    rng = random.Random(77)
    tabs = S.new_tables(16)  # one table for all: its entries must hold across positions
    seen: Counter = Counter()
    for i in range(450):
        game = small_position(rng, 2 + i % 15)
        assert 1 <= game.empty <= 16
        want = plain_value(game.rows)
        assert solve(game.rows, tabs) == want, game.to_native()
        if i % 5 == 0:  # and from an empty table
            assert solve(game.rows, S.new_tables(8)) == want, game.to_native()
        seen[want] += 1
        seen["regions", min(len(game.regions()), 4)] += 1
    assert seen[S.WIN] >= 100 and seen[S.LOSS] >= 60, seen
    assert all(seen["regions", k] >= 20 for k in (1, 2, 3, 4)), seen


@pytest.mark.parametrize(("cells", "value"), [
    ({(0, 0)}, S.LOSS),  # the last cell must be filled
    ({(0, 0), (0, 1)}, S.WIN),  # a domino: fill one
    ({(0, 0), (5, 5)}, S.WIN),  # two lone cells: fill one
    ({(0, 0), (5, 5), (9, 9)}, S.LOSS),  # three lone cells: parity
    ({(r, c) for r in (3, 4) for c in (3, 4)}, S.LOSS),  # a 2x2 square (filling it loses)
    ({(r, c) for r in (3, 4) for c in (3, 4)} | {(9, 0)}, S.WIN),  # fill the square
    ({(0, 0), (0, 1), (1, 0)}, S.WIN),  # an L: fill two in a line
    ({(4, c) for c in range(10)}, S.WIN),  # a full row
    ({(r, 9) for r in range(10)} | {(0, 0)}, S.WIN),  # a full column and a cell
    ({(r, c) for r in range(2, 5) for c in range(6, 10)}, S.WIN),  # a 3x4 rectangle region
    ({(r, c) for r in range(3) for c in range(3)}, S.WIN),  # a 3x3 square: the centre
])
def test_solver_hand_positions(cells: set[tuple[int, int]], value: int) -> None:
    rows = rows_of(cells)
    assert plain_value(rows) == value
    assert solve(rows, S.new_tables(10)) == value


def test_solver_stops_when_told() -> None:
    start = Pillars.new({"pillars": "diagonal"})
    stop = np.ones(1, np.int32)
    assert solve(start.rows, S.new_tables(10), stop) == S.UNKNOWN


# ----- position keys ----------------------------------------------------------------------
SYMMETRIES = [
    lambda r, c: (r, c), lambda r, c: (c, r), lambda r, c: (SIZE - 1 - r, c),
    lambda r, c: (r, SIZE - 1 - c), lambda r, c: (SIZE - 1 - r, SIZE - 1 - c),
    lambda r, c: (c, SIZE - 1 - r), lambda r, c: (SIZE - 1 - c, r),
    lambda r, c: (SIZE - 1 - c, SIZE - 1 - r),
]


def key(rows: tuple[int, ...] | list[int]) -> int:
    w0, w1 = K.words(list(rows))
    return int(S.position_key(w0, w1, np.zeros((4, SIZE), np.int64)))


def regions(cells: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    """The 4-connected regions of `cells` (cells of the board)."""
    assert all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells), sorted(cells)
    out = []
    for region in bitsets.components(bitsets.pack(rows_of(cells))):
        found = set()
        while region:
            bit = region & -region
            found.add(divmod(bit.bit_length() - 1, bitsets.STRIDE))
            region ^= bit
        out.append(found)
    return out


def normalised(cells: set[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def shape(cells: set[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The region's shape up to the 8 symmetries and translation."""
    return min(normalised({f(r, c) for r, c in cells}) for f in SYMMETRIES)


def shapes(rows: tuple[int, ...] | list[int]) -> tuple:
    return tuple(sorted(shape(reg) for reg in regions(cells_of(rows))))


def test_position_key_is_the_same_under_the_symmetries() -> None:
    sample = [g for g in positions()[::7]]
    for game in sample:
        cells = cells_of(game.rows)
        want = key(game.rows)
        for f in SYMMETRIES:
            image = rows_of({f(r, c) for r, c in cells})
            assert key(image) == want, (game.to_native(), f)
    assert len(sample) >= 250


def rearranged(rng: random.Random, rows: list[int]) -> list[int] | None:
    """The same regions each turned by a random symmetry and put at a random place (no two
    touching), or None if they did not fit."""
    placed: set[tuple[int, int]] = set()
    for region in sorted(regions(cells_of(rows)), key=len, reverse=True):
        turn = rng.choice(SYMMETRIES)
        form = normalised({turn(r, c) for r, c in region})
        h = max(r for r, _ in form) + 1
        w = max(c for _, c in form) + 1
        for _ in range(200):
            dr, dc = rng.randrange(SIZE - h + 1), rng.randrange(SIZE - w + 1)
            cells = {(r + dr, c + dc) for r, c in form}
            near = {(r + a, c + b) for r, c in cells for a, b in ((0, 1), (1, 0), (0, -1),
                                                                 (-1, 0), (0, 0))}
            if not near & placed:
                placed |= cells
                break
        else:
            return None
    return rows_of(placed)


def test_position_key_ignores_where_the_regions_are() -> None:
    rng = random.Random(12)
    moved = 0
    for game in positions()[3::6]:
        if game.empty > 45:
            continue
        image = rearranged(rng, game.rows)
        if image is None:
            continue
        assert shapes(image) == shapes(game.rows)
        assert key(image) == key(game.rows), (game.to_native(), image)
        moved += 1
    assert moved >= 100


def test_position_key_differs_with_the_shapes() -> None:
    by_key: dict[int, tuple] = {}
    by_shapes: dict[tuple, int] = {}
    for game in positions()[1::3]:
        k, s = key(game.rows), shapes(game.rows)
        assert by_key.setdefault(k, s) == s, game.to_native()
        assert by_shapes.setdefault(s, k) == k, game.to_native()
    assert len(by_key) >= 500
    # hand-made: the same number of cells in different shapes
    hand = [
        {(0, 0), (0, 1), (0, 2)},  # I-tromino
        {(0, 0), (0, 1), (1, 0)},  # L-tromino
        {(0, 0), (0, 1), (5, 5)},  # a domino and a cell
        {(0, 0), (5, 5), (9, 9)},  # three cells
        {(r, c) for r in (3, 4) for c in (3, 4)},  # a square
        {(3, c) for c in range(4)},  # a line of 4
        {(3, 3), (3, 4), (3, 5), (4, 4)},  # a T
        {(3, 3), (3, 4), (4, 4), (4, 5)},  # an S
        {(3, 3), (3, 4), (3, 5), (4, 3)},  # an L of 4
        {(0, 0), (0, 1), (9, 8), (9, 9)},  # two dominoes
    ]
    keys = [key(rows_of(cells)) for cells in hand]
    assert len(set(keys)) == len(keys)
    assert key([0] * SIZE) not in keys
