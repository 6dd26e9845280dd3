"""The Boxing engine (`ai.boxing.grundy`, `playouts`, `adapter`) against plain search and
the rules.

Proven here: the Grundy value of a region is a brute-force mex/XOR search's (over 400
random small regions at random places, and the known values of a cell, a line and a
square); a shape's key is the same for its 8 symmetric images anywhere in the arena and
differs between different shapes; `split`, `flood`, `rest_is_one_box` and `all_levels`
agree with `Boxing.regions()`, `_rest_is_one_box` and `legal_moves()` on 2,000 played
positions; `position_xor` is the brute-force XOR of small endgames, and the engine
reports those as exact wins or losses, playing a winning move of the largest size; the
symmetry strategy takes the centre box, answers every box with its mirror image and
wins whole games against random and greedy players; with three or more players no move
hands the next player the rest in one box while another move is left, and a box that
fills the rest is played; the engine's perft is `reference_perft`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from functools import cache

import numpy as np
import pytest

from ai.boxing import grundy as G
from ai.boxing import kernels as K
from ai.boxing import playouts as P
from ai.boxing.adapter import CENTRE, mirror, symmetry_win
from ai.engine import Engine, new_engine
from ai.perft import reference_perft
from rules.boxing import CELLS, HEIGHT, MARKS, MAX_BOX, UNUSABLE, VACANT, WIDTH, Boxing
from tests.ai.test_boxing_kernels import kernel_children, kernel_moves

Cell = tuple[int, int]
Move = tuple[int, int, int]
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
STOP = np.zeros(1, np.int32)  # never set: the solves here run to the end
NO_LIMIT = 1 << 40


@pytest.fixture(scope="module")
def engine() -> Engine:
    """A fresh engine, compiled first: a compilation inside a search would eat its budget
    before the solver runs."""
    fresh = new_engine("boxing")
    fresh.warm_up()
    return fresh


@pytest.fixture(scope="module")
def tables() -> tuple[np.ndarray, ...]:
    return G.new_tables(20)


# ----- plain cells, regions and Grundy values ----------------------------------------------
def rows_of(cells: Iterable[Cell]) -> list[int]:
    rows = [0] * HEIGHT
    for r, c in cells:
        rows[r] |= 1 << c
    return rows


def cells_in(rows: Iterable[int]) -> set[Cell]:
    return {(r, c) for r, m in enumerate(rows) for c in range(WIDTH) if int(m) >> c & 1}


def components(cells: Iterable[Cell]) -> list[frozenset[Cell]]:
    """The 4-connected regions of `cells`."""
    left = set(cells)
    out = []
    while left:
        start = min(left)
        left.discard(start)
        stack, region = [start], {start}
        while stack:
            r, c = stack.pop()
            for dr, dc in DIRS:
                n = (r + dr, c + dc)
                if n in left:
                    left.discard(n)
                    region.add(n)
                    stack.append(n)
        out.append(frozenset(region))
    return out


def normal(cells: Iterable[Cell]) -> frozenset[Cell]:
    """The cells moved to the corner (0, 0)."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def images(shape: frozenset[Cell]) -> list[frozenset[Cell]]:
    """The 8 images of a shape under the symmetries of the square, each at the corner."""
    maps = (lambda r, c: (r, c), lambda r, c: (r, -c), lambda r, c: (-r, c),
            lambda r, c: (-r, -c), lambda r, c: (c, r), lambda r, c: (c, -r),
            lambda r, c: (-c, r), lambda r, c: (-c, -r))
    return [normal(f(r, c) for r, c in shape) for f in maps]


def canonical(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    return min(tuple(sorted(image)) for image in images(normal(cells)))


def boxes_in(shape: frozenset[Cell]) -> list[frozenset[Cell]]:
    """Every k x k box of the shape's cells."""
    out = []
    for r, c in shape:
        k = 1
        while True:
            box = frozenset((r + i, c + j) for i in range(k) for j in range(k))
            if not box <= shape:
                break
            out.append(box)
            k += 1
    return out


@cache
def brute_grundy(shape: frozenset[Cell]) -> int:
    """The Grundy value of one region (at the corner) by plain search: the mex over its
    boxes of the XOR of the regions each leaves."""
    seen = {brute_xor(shape - box) for box in boxes_in(shape)}
    g = 0
    while g in seen:
        g += 1
    return g


def brute_xor(cells: Iterable[Cell]) -> int:
    x = 0
    for region in components(cells):
        x ^= brute_grundy(normal(region))
    return x


def random_shape(rng: random.Random, size: int, compact: bool | None = None) -> frozenset[Cell]:
    """A random 4-connected shape of `size` cells at the corner: grown cell by cell, a
    compact one favouring cells with more neighbours in it."""
    if compact is None:
        compact = rng.random() < 0.5
    cells = {(0, 0)}
    while len(cells) < size:
        grow = [(r + dr, c + dc) for r, c in cells for dr, dc in DIRS
                if (r + dr, c + dc) not in cells]
        if not compact:
            grow = sorted(set(grow))
        cells.add(rng.choice(grow))
    return normal(cells)


def dims(shape: frozenset[Cell]) -> tuple[int, int]:
    return max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1


def placed(shape: frozenset[Cell], rng: random.Random) -> frozenset[Cell]:
    """The shape at a random place in the arena (an edge or a corner now and then)."""
    h, w = dims(shape)
    r0 = rng.choice([0, HEIGHT - h] + [rng.randint(0, HEIGHT - h)] * 3)
    c0 = rng.choice([0, WIDTH - w] + [rng.randint(0, WIDTH - w)] * 3)
    return frozenset((r + r0, c + c0) for r, c in shape)


def game_of(vacant: Iterable[Cell], players: int = 2) -> Boxing:
    """A game whose vacant cells are `vacant`, every other cell unusable."""
    vacant = set(vacant)
    start = "".join(VACANT if divmod(i, WIDTH) in vacant else UNUSABLE for i in range(CELLS))
    return Boxing(start=start, seat_marks=MARKS[:players])


def box_of(move: Move) -> set[Cell]:
    r, c, k = move
    return {(r + i, c + j) for i in range(k) for j in range(k)}


def mirror_box(move: Move) -> Move:
    r, c, k = move
    return HEIGHT - r - k, WIDTH - c - k, k


def region_value(region: Iterable[Cell], tables: tuple[np.ndarray, ...],
                 limit: int = NO_LIMIT) -> int:
    return G.region_value(K.row_masks(rows_of(region)), *tables, STOP, limit)


def position_xor(rows: list[int], tables: tuple[np.ndarray, ...], cap: int = G.MAX_CELLS) -> int:
    scratch = np.zeros((512, HEIGHT), np.uint64)
    return G.position_xor(K.row_masks(rows), cap, *tables, STOP, NO_LIMIT, scratch)


# ----- Grundy values against plain search ----------------------------------------------------
def test_grundy_values_against_plain_search(tables: tuple[np.ndarray, ...]) -> None:
    rng = random.Random(401)
    values: set[int] = set()
    sizes: set[int] = set()
    for _ in range(400):
        shape = random_shape(rng, rng.choice([rng.randint(1, 12), rng.randint(7, 12)]))
        region = placed(shape, rng)
        want = brute_grundy(shape)
        assert region_value(region, tables) == want, sorted(region)
        values.add(want)
        sizes.add(len(shape))
    assert sizes == set(range(1, 13))
    assert len(values) >= 4, values  # not only 0 and 1


def test_grundy_with_a_crowded_table() -> None:
    """A table of 64 entries overwrites entries all through a solve: a value returned is
    still exact (UNKNOWN only if the node limit stops the solve)."""
    small = G.new_tables(6)
    rng = random.Random(402)
    exact = 0
    for _ in range(60):
        shape = random_shape(rng, rng.randint(6, 12), compact=True)
        got = region_value(placed(shape, rng), small, limit=200_000)
        assert got in (brute_grundy(shape), G.UNKNOWN), sorted(shape)
        exact += got != G.UNKNOWN
    assert exact >= 40


def test_known_values(tables: tuple[np.ndarray, ...]) -> None:
    for r, c in ((0, 0), (0, WIDTH - 1), (HEIGHT - 1, 0), (HEIGHT - 1, WIDTH - 1), (7, 15)):
        assert region_value({(r, c)}, tables) == 1
    for n in range(1, WIDTH + 1):  # a row of n cells: 1x1 boxes only
        for r, c0 in ((0, 0), (9, WIDTH - n), (HEIGHT - 1, (WIDTH - n) // 2)):
            assert region_value({(r, c0 + j) for j in range(n)}, tables) == n % 2, (n, r, c0)
    for n in range(1, HEIGHT + 1):
        for c in (0, 17, WIDTH - 1):
            assert region_value({(i, c) for i in range(n)}, tables) == n % 2, (n, c)
            assert region_value({(HEIGHT - 1 - i, c) for i in range(n)}, tables) == n % 2
    for k in range(2, 6):  # the whole square is a box to an empty region: never 0
        square = {(3 + i, 20 + j) for i in range(k) for j in range(k)}
        value = region_value(square, tables)
        assert value > 0, k
        if k <= 3:
            assert value == brute_grundy(normal(square))
    assert region_value(set(), tables) == 0
    # an L of three cells: a cell leaves a domino (0) or two lone cells (0): value 1
    assert region_value({(5, 5), (5, 6), (6, 5)}, tables) == 1 == brute_grundy(
        normal({(5, 5), (5, 6), (6, 5)}))


# ----- shape keys ----------------------------------------------------------------------------
def shape_key(cells: Iterable[Cell]) -> tuple[int, bool]:
    key, line = G.shape_key(K.row_masks(rows_of(cells)), np.zeros(32, np.uint64))
    return int(key), bool(line)


def test_shape_key_is_the_same_for_the_8_images_anywhere() -> None:
    rng = random.Random(403)
    for _ in range(300):
        shape = random_shape(rng, rng.randint(3, 14))
        h, w = dims(shape)
        key, line = shape_key(placed(shape, rng))
        assert line == (h == 1 or w == 1)
        for image in images(shape):
            for _ in range(2):
                assert shape_key(placed(image, rng)) == (key, line), sorted(shape)


def test_shape_key_tells_shapes_apart() -> None:
    rng = random.Random(404)
    by_form: dict[tuple[Cell, ...], int] = {}
    by_key: dict[int, tuple[Cell, ...]] = {}
    for _ in range(6000):
        shape = random_shape(rng, rng.randint(3, 16))
        if min(dims(shape)) == 1:
            continue  # a line: no key needed, its value is its length modulo 2
        form = canonical(shape)
        key, line = shape_key(placed(shape, rng))
        assert not line
        assert by_form.setdefault(form, key) == key, form
        assert by_key.setdefault(key, form) == form, (form, by_key[key])
    assert len(by_form) >= 3000, len(by_form)


# ----- regions, finishes and levels against the rules ---------------------------------------
def random_box(game: Boxing, rng: random.Random, cap: int) -> Move:
    moves = game.legal_moves()
    small = [m for m in moves if m[2] <= cap]
    return rng.choice(small or moves)


@cache
def played_positions() -> tuple[Boxing, ...]:
    """2,000 positions (the same every run) of games on random arenas, 2 to 4 players,
    with greedy and random boxes, kept at every stage down to the full arena."""
    rng = random.Random(1994)
    out: list[Boxing] = []
    while len(out) < 2000:
        options = {"arena": "random", "players": rng.randint(2, 4),
                   "unusable": rng.choice(["random", "0", "40", "120", "256"])}
        game = Boxing.new(options, seed=rng.randrange(1 << 30))
        greedy = rng.choice([0.0, 0.2, 0.5, 0.9])
        cap = rng.choice([1, 2, 3, 5, 16])
        keep = rng.choice([0.1, 0.3])
        while not game.is_over and len(out) < 2000:
            if rng.random() < (keep if game.vacant > 40 else 0.6):
                out.append(game.copy())
            if rng.random() < greedy:
                game.play(rng.choice(game.greedy_moves()))
            else:
                game.play(random_box(game, rng, cap))
        if len(out) < 2000:
            out.append(game)
    return tuple(out)


def test_split_and_flood_against_the_rules() -> None:
    regions = np.zeros((512, HEIGHT), np.uint64)
    comp = np.zeros(HEIGHT, np.uint64)
    counts = set()
    for game in played_positions():
        masks = K.row_masks(game.rows)
        n = G.split(masks, regions)
        found = [cells_in(regions[i]) for i in range(n)]
        assert sorted(map(len, found), reverse=True) == game.regions(), game.to_native()
        vacant = cells_in(game.rows)
        assert set(map(frozenset, found)) == set(components(vacant)), game.to_native()
        size = G.flood(masks, comp)
        if vacant:
            first = min(vacant)  # by row, then column
            want = next(r for r in components(vacant) if first in r)
            assert size == len(want) and cells_in(comp) == want, game.to_native()
        else:
            assert size == 0
        assert [int(m) for m in masks] == game.rows  # neither touched its input
        counts.add(min(n, 20))
    assert {0, 1, 2, 5, 20} <= counts, counts


def test_rest_is_one_box_against_the_rules() -> None:
    rng = random.Random(405)
    said = {True: 0, False: 0}
    for game in played_positions():
        if game.is_over:
            continue
        codes, masks = kernel_moves(game.rows)
        kids, left = kernel_children(codes, masks)
        square = [i for i in range(codes.size)
                  if left[i] > 0 and math.isqrt(int(left[i])) ** 2 == left[i]]
        others = rng.sample(range(codes.size), min(10, codes.size))
        for i in set(square) | set(others):
            if left[i] == 0:
                assert not P.rest_is_one_box(kids[i], 0)
                continue
            move = K.decode(codes[i])
            want = game._rest_is_one_box(move, int(left[i]))
            assert P.rest_is_one_box(kids[i], left[i]) == want, (game.to_native(), move)
            said[want] += 1
    assert said[True] >= 20 and said[False] >= 10_000, said


def near_one_box(rng: random.Random) -> Boxing:
    """A square and a box or a few cells beside it or apart (a box may leave the square
    alone, or a square's worth of cells that is not one box)."""
    k = rng.randint(1, 6)
    r0, c0 = rng.randint(0, HEIGHT - k), rng.randint(0, WIDTH - k)
    square = {(r0 + i, c0 + j) for i in range(k) for j in range(k)}
    if rng.random() < 0.5:
        j = rng.randint(1, 4)
        extra = box_of((rng.randint(0, HEIGHT - j), rng.randint(0, WIDTH - j), j))
    else:
        extra = {(rng.randrange(HEIGHT), rng.randrange(WIDTH)) for _ in range(rng.randint(1, 4))}
    return game_of(square | extra, rng.randint(2, 4))


@pytest.mark.parametrize("rows", [
    [0b101, 0b101] + [0] * 14,  # 4 cells, 2 a row, not a run
    [0b11, 0, 0b11] + [0] * 13,  # two dominoes a row apart
    [0b1111] + [0] * 15,  # a line of 4
    [0b11, 0b110] + [0] * 14,  # a skew 2x2
    [0b111] * 2 + [0] * 14,  # 6 cells
    [0] * 13 + [0b111 << 29] * 3,  # a 3x3 in the bottom right corner
    [1 << 31] + [0] * 15,  # one cell
    [0xFFFF] * 16,  # a 16x16
    [0xFFFF] * 15 + [0xFFFE],  # a 16x16 but one cell
])
def test_rest_is_one_box_edge_cases(rows: list[int]) -> None:
    left = sum(m.bit_count() for m in rows)
    cells = cells_in(rows)
    box = len(cells) == math.isqrt(left) ** 2 and any(
        box_of((r, c, math.isqrt(left))) == cells for r, c in cells)
    assert P.rest_is_one_box(K.row_masks(rows), left) == box


def test_rest_is_one_box_near_one_box() -> None:
    rng = random.Random(415)
    said = {True: 0, False: 0}
    for _ in range(300):
        game = near_one_box(rng)
        codes, masks = kernel_moves(game.rows)
        kids, left = kernel_children(codes, masks)
        for i in range(codes.size):
            if left[i]:
                want = game._rest_is_one_box(K.decode(codes[i]), int(left[i]))
                assert P.rest_is_one_box(kids[i], left[i]) == want, (
                    game.to_native(), K.decode(codes[i]))
                said[want] += 1
    assert said[True] >= 200 and said[False] >= 2000, said


def test_all_levels_against_the_legal_moves() -> None:
    lev = np.zeros((MAX_BOX + 1, HEIGHT), np.uint64)
    largest = set()
    for game in played_positions():
        lev[:] = 0
        top = P.all_levels(K.row_masks(game.rows), lev)
        legal = game.legal_moves()
        assert top == max((k for _, _, k in legal), default=0), game.to_native()
        for k in range(1, top + 1):
            boxes = {(r, c) for r, c in cells_in(lev[k])}
            want = {(r, c) for r, c, size in legal if size == k}
            assert sum(int(m).bit_count() for m in lev[k]) == len(want), (game.to_native(), k)
            assert boxes == want, (game.to_native(), k)
        largest.add(top)
    assert {0, 1, 2, 3, 8, 16} <= largest, largest


# ----- exact endgames ------------------------------------------------------------------------
def small_endgame(rng: random.Random, players: int = 2) -> Boxing:
    """1 to 4 random regions of 1 to 12 cells, apart from each other, the rest unusable."""
    taken: set[Cell] = set()
    for _ in range(rng.randint(1, 4)):
        while True:
            region = placed(random_shape(rng, rng.randint(1, 12)), rng)
            near = {(r + dr, c + dc) for r, c in region for dr, dc in DIRS} | region
            if not near & taken:
                taken |= region
                break
    return game_of(taken, players)


def played_endgame(rng: random.Random) -> Boxing:
    """A random arena played down (greedy and random boxes) until every region has at most
    12 cells."""
    game = Boxing.new({"arena": "random", "unusable": rng.choice(["20", "60", "120"])},
                      seed=rng.randrange(1 << 30))
    while not game.is_over and (game.vacant > 40 or game.regions()[0] > 12):
        if game.vacant > 150 and rng.random() < 0.5:
            game.play(rng.choice(game.greedy_moves()))
        else:
            game.play(random_box(game, rng, 2 if game.vacant < 120 else 4))
    return game


@cache
def endgames() -> tuple[Boxing, ...]:
    rng = random.Random(406)
    out = [small_endgame(rng) for _ in range(50)]
    while len(out) < 60:
        game = played_endgame(rng)
        if not game.is_over:
            out.append(game)
    return tuple(out)


def test_position_xor_against_plain_search(tables: tuple[np.ndarray, ...]) -> None:
    values = set()
    for game in endgames():
        cells = cells_in(game.rows)
        want = brute_xor(cells)
        assert position_xor(game.rows, tables) == want, game.to_native()
        largest = game.regions()[0]
        assert position_xor(game.rows, tables, cap=largest) == want
        if largest > 1:
            assert position_xor(game.rows, tables, cap=largest - 1) == G.UNKNOWN
        values.add(want)
    assert 0 in values and len(values) >= 4, values


def test_reply_wins_against_plain_search(tables: tuple[np.ndarray, ...]) -> None:
    """Depth 3's look: with the largest region over the cap, the mover has a proven win by
    one box exactly when a box leaves every region within the cap and the XOR 0."""
    scratch = np.zeros((512, HEIGHT), np.uint64)
    seen = set()
    for game in endgames():
        cells = cells_in(game.rows)
        sizes = game.regions()
        for cap in {sizes[0] - 1, sizes[0] - 4}:
            if cap < 1:
                continue
            want = 0
            for move in game.legal_moves():
                left = cells - box_of(move)
                if all(len(r) <= cap for r in components(left)) and brute_xor(left) == 0:
                    want = 1
                    break
            got = G.reply_wins(K.row_masks(game.rows), cap, *tables, STOP, NO_LIMIT, scratch)
            assert got == want, (game.to_native(), cap)
            seen.add((want, sum(size > cap for size in sizes) > 1))
    # found wins and found none, and the early "two regions over the cap" answer
    assert {(1, False), (0, False), (0, True)} <= seen, seen


def test_playouts_end_on_the_tables_values(tables: tuple[np.ndarray, ...]) -> None:
    """A two-player play-out from a position the table values is decided at once: the mover
    wins a non-zero XOR, whatever the random state; without `exact_left` it is played out."""
    lev = np.zeros((MAX_BOX + 1, HEIGHT), np.uint64)
    work = np.zeros(HEIGHT, np.uint64)
    scratch = np.zeros((2, HEIGHT), np.uint64)
    cols = np.zeros(32, np.uint64)
    keys, vals = tables[0], tables[1]
    outcomes = set()
    for game in endgames():
        want = 0 if position_xor(game.rows, tables) else 1  # fills the table
        rows = K.row_masks(game.rows)
        for seed in range(1, 6):
            got, _ = P.playout(rows, 2, np.uint64(seed), lev, work, keys, vals, CELLS, scratch,
                               cols)
            assert got == want, game.to_native()
        outcomes.add(want)
        played = {P.playout(rows, 2, np.uint64(seed), lev, work, keys, vals, 0, scratch,
                            cols)[0] for seed in range(1, 40)}
        if game.vacant > 20 and len(played) == 2:
            outcomes.add(2)  # random play-outs disagree where the table does not
    assert outcomes == {0, 1, 2}, outcomes


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playout_sizes_play_for_the_last_move(players: int) -> None:
    """A play-out's box side k makes its mover the last to move were the count of moves
    left not changed again (k^2 = vacant cells modulo players): the largest such when the
    draw's bit 1 is set, else each of them; 0 (the plain draw) when no side does."""
    rng = random.Random(players)
    for _ in range(300):
        kmax, left = rng.randint(1, MAX_BOX), rng.randint(1, CELLS)
        sides = [k for k in range(1, kmax + 1) if (k * k - left) % players == 0]
        drawn = set()
        for _ in range(60):
            s = rng.getrandbits(64)
            k = P.parity_size(kmax, left, players, np.uint64(s))
            if not sides:
                assert k == 0
                continue
            assert k in sides
            if s & 2:
                assert k == sides[-1]
            drawn.add(k)
        if 0 < len(sides) <= 4:
            assert drawn == set(sides), (kmax, left, sides, drawn)


def winning_moves(game: Boxing) -> list[Move]:
    """The moves to a position of XOR 0 (by plain search)."""
    cells = cells_in(game.rows)
    return [m for m in game.legal_moves() if brute_xor(cells - box_of(m)) == 0]


def test_engine_solves_small_endgames(engine: Engine) -> None:
    won = lost = 0
    for game in endgames():
        text = game.to_native()
        if symmetry_win(game.rows) is not None:
            continue  # a proven win, but not by the Grundy values
        cells = cells_in(game.rows)
        # the hard level with room to spare: a solve here takes milliseconds, but a loaded
        # machine must not cut depth 2 off (the search ends as soon as it is exact)
        result = engine.choose(game, "hard", 2.0)
        assert game.is_legal(result.move), (text, result.move_text)
        assert result.exact, (text, result.move_text, result.score)
        if brute_xor(cells) == 0:
            assert result.score < 0, (text, result.move_text)
            lost += 1
            continue
        assert result.score > 0, (text, result.move_text)
        assert brute_xor(cells - box_of(result.move)) == 0, (text, result.move_text)
        best = max(k for _, _, k in winning_moves(game))
        assert result.move[2] == best, (text, result.move_text, best)
        won += 1
    assert won >= 20 and lost >= 5, (won, lost)


# ----- the symmetry strategy -----------------------------------------------------------------
def symmetric_game(rng: random.Random, pairs: int, centre: bool = True) -> Boxing:
    """`pairs` unusable cells and their half-turn images; the four centre cells vacant (or,
    without `centre`, one of them and its image unusable)."""
    blocked: set[Cell] = set()
    while len(blocked) < 2 * pairs:
        r, c = rng.randrange(HEIGHT), rng.randrange(WIDTH)
        if (r, c) not in CENTRE:
            blocked |= {(r, c), (HEIGHT - 1 - r, WIDTH - 1 - c)}
    if not centre:
        r, c = rng.choice(CENTRE)
        blocked |= {(r, c), (HEIGHT - 1 - r, WIDTH - 1 - c)}
    return game_of({(r, c) for r in range(HEIGHT) for c in range(WIDTH)} - blocked)


def is_symmetric(rows: list[int]) -> bool:
    return mirror(rows) == list(rows)


def test_mirror() -> None:
    rng = random.Random(407)
    for _ in range(50):
        cells = {(rng.randrange(HEIGHT), rng.randrange(WIDTH)) for _ in range(rng.randint(0, 30))}
        rows = rows_of(cells)
        assert cells_in(mirror(rows)) == {(HEIGHT - 1 - r, WIDTH - 1 - c) for r, c in cells}
        assert mirror(mirror(rows)) == rows


def test_symmetry_win_takes_the_centre() -> None:
    assert symmetry_win(Boxing.new({"arena": "empty"}).rows) == (0, 8, 16)
    rng = random.Random(408)
    sizes = set()
    for _ in range(40):
        game = symmetric_game(rng, rng.randint(0, 40))
        assert is_symmetric(game.rows)
        box = symmetry_win(game.rows)
        assert box is not None and game.is_legal(box), game.to_native()
        assert set(CENTRE) <= box_of(box), (game.to_native(), box)
        game.play(box)
        assert is_symmetric(game.rows), (game.to_native(), box)
        sizes.add(box[2])
    assert len(sizes) >= 3, sizes


def test_the_engine_answers_with_the_mirror(engine: Engine) -> None:
    rng = random.Random(409)
    answered = 0
    for _ in range(4):
        game = symmetric_game(rng, rng.randint(0, 30))
        first = engine.choose(game, "hard", 1.0)  # ends at once: a proven win
        assert first.exact and first.score > 0, game.to_native()
        assert first.move == symmetry_win(game.rows)
        game.play(first.move)
        legal = game.legal_moves()
        biggest = [m for m in legal if m[2] >= max(k for _, _, k in legal) - 1]
        for reply in rng.sample(legal, min(25, len(legal))) + biggest[:5]:
            after = game.copy()
            after.play(reply)
            if after.is_over:
                continue
            assert symmetry_win(after.rows) == mirror_box(reply), (game.to_native(), reply)
            result = engine.choose(after, "hard", 1.0)
            assert result.exact and result.score > 0, (after.to_native(), reply)
            assert result.move == mirror_box(reply) or after.vacant == result.move[2] ** 2, (
                after.to_native(), reply, result.move_text)
            answered += 1
    assert answered >= 100


def random_player(game: Boxing, rng: random.Random) -> Move:
    return rng.choice(game.legal_moves())


def greedy_player(game: Boxing, rng: random.Random) -> Move:
    return rng.choice(game.greedy_moves())


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("other", [random_player, greedy_player], ids=["random", "greedy"])
def test_the_symmetry_strategy_wins_whole_games(engine: Engine, seed: int, other) -> None:
    rng = random.Random(410 + seed)
    game = symmetric_game(rng, rng.randint(0, 25))
    start = game.to_native()
    while not game.is_over:
        if game.to_move == 0:
            result = engine.choose(game, "hard", 0.05)
            assert game.is_legal(result.move), (start, game.to_native(), result.move_text)
            game.play(result.move)
        else:
            game.play(other(game, rng))
    assert game.outcome is not None and game.outcome.winners == (0,), start


def test_a_symmetric_arena_without_the_centre(engine: Engine) -> None:
    """Every box has a disjoint mirror image: the second player wins by mirroring, so no
    move may be called a proven win; after any box the mirror is the win."""
    rng = random.Random(411)
    for _ in range(3):
        game = symmetric_game(rng, rng.randint(0, 20), centre=False)
        assert is_symmetric(game.rows)
        assert symmetry_win(game.rows) is None, game.to_native()
        result = engine.choose(game, "hard", 0.05)
        assert game.is_legal(result.move)
        assert not (result.exact and result.score > 0), (game.to_native(), result.move_text)
        if result.exact:
            assert result.score < 0
        for move in rng.sample(game.legal_moves(), 20):
            after = game.copy()
            after.play(move)
            assert symmetry_win(after.rows) == mirror_box(move), (game.to_native(), move)


# ----- more than two players -----------------------------------------------------------------
def finishes(game: Boxing) -> tuple[list[Move], list[Move], list[Move]]:
    """The legal moves that fill the rest, that leave the rest as one box (the next player
    fills it), and the others."""
    fill, give, other = [], [], []
    for move in game.legal_moves():
        left = game.vacant - move[2] ** 2
        if left == 0:
            fill.append(move)
        elif game._rest_is_one_box(move, left):
            give.append(move)
        else:
            other.append(move)
    return fill, give, other


def handing_over(rng: random.Random, players: int) -> Boxing:
    """A square of side 2 to 5 and a few cells apart from it: some moves leave the square
    alone (the next player fills it), others do not, and none fills the rest."""
    while True:
        k = rng.randint(2, 5)
        r0, c0 = rng.randint(0, HEIGHT - k), rng.randint(0, WIDTH - k)
        square = {(r0 + i, c0 + j) for i in range(k) for j in range(k)}
        extra = placed(random_shape(rng, rng.randint(1, 4)), rng)
        if extra & square:
            continue
        game = game_of(square | extra, players)
        fill, give, other = finishes(game)
        if give and other and not fill:
            return game


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_no_finish_is_handed_over(engine: Engine, level: str) -> None:
    rng = random.Random(412)
    for i in range(24):
        game = handing_over(rng, 3 + i % 3)
        fill, give, other = finishes(game)
        result = engine.choose(game, level, 0.1)
        assert game.is_legal(result.move)
        assert result.move not in give, (game.to_native(), level, result.move_text)


@pytest.mark.parametrize("players", [3, 4])
def test_fills_the_rest(engine: Engine, players: int) -> None:
    rng = random.Random(413 + players)
    for k in range(1, 7):
        r0, c0 = rng.randint(0, HEIGHT - k), rng.randint(0, WIDTH - k)
        game = game_of({(r0 + i, c0 + j) for i in range(k) for j in range(k)}, players)
        result = engine.choose(game, "hard", 1.0)  # ends at once: a proven win
        assert result.move == (r0, c0, k) and result.exact and result.score > 0
    for _ in range(6):  # played games, up to the first position one box fills
        game = Boxing.new({"players": players, "unusable": "60"}, seed=rng.randrange(1 << 30))
        while game.largest_box() ** 2 != game.vacant:
            game.play(random_box(game, rng, 2 if game.vacant < 60 else 16))
        fill, _, _ = finishes(game)
        result = engine.choose(game, "hard", 1.0)
        assert result.move in fill, (game.to_native(), result.move_text)
        assert result.exact and result.score > 0


# ----- perft ---------------------------------------------------------------------------------
def test_perft_through_the_engine(engine: Engine) -> None:
    partial = Boxing.new({"arena": "partial"})
    assert engine.perft(partial, 2) == reference_perft(partial, 2) == [330, 101530]
    rng = random.Random(414)
    game = Boxing.new({"arena": "random", "players": 3}, seed=414)
    for _ in range(6):
        game.play(rng.choice(game.greedy_moves()))
    while len(game.legal_moves()) > 250:
        game.play(random_box(game, rng, 4))
    assert engine.perft(game, 2) == reference_perft(game, 2)
    assert engine.perft(game, 3)[:2] == reference_perft(game, 2)
