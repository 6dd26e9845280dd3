"""The Pillars engine through `new_engine("pillars")`, judged by a plain misere search over
the rules.

Proven here: a win at once (one rectangle leaves a single cell) is taken and reported
exact; in small won positions the engine's move leaves the other side a lost position,
and small lost positions are reported as exact losses; a proven win claims the joker
while it is unused (never once it is used); no level ever fills the last cell while
another move is left; the engine's perft (with the joker twins) is `reference_perft`.
"""

from __future__ import annotations

import random

import pytest

from ai.engine import Budget, Engine, get_engine, new_engine
from ai.perft import reference_perft
from ai.pillars.adapter import EXAMPLE
from rules.pillars import SIZE, Pillars, rectangles
from tests.ai.test_pillars_kernels import cells_of, leave_only, regions

Cell = tuple[int, int]


@pytest.fixture(scope="module")
def engine() -> Engine:
    """A fresh engine, compiled first: a compilation inside a search would eat its
    budget before the solver runs."""
    fresh = new_engine("pillars")
    fresh.warm_up()
    return fresh


def area(rect: tuple[int, ...]) -> int:
    return (rect[2] - rect[0] + 1) * (rect[3] - rect[1] + 1)


MEMO: dict[tuple, bool] = {}


def after(rows: tuple[int, ...], rect: tuple[int, ...]) -> tuple[int, ...]:
    t, lc, b, r = rect[:4]
    cols = ((1 << (r - lc + 1)) - 1) << lc
    return tuple(rows[i] & ~cols if t <= i <= b else rows[i] for i in range(SIZE))


def mover_wins(rows: tuple[int, ...]) -> bool:
    """Plain misere search over the rules' rectangles: one empty cell left loses; a
    position wins if some rectangle that does not fill every empty cell leaves a lost
    one. Memoised on the regions of empty cells, each moved to the corner (a rectangle
    never spans two regions)."""
    key = tuple(sorted(
        tuple(sorted((r - min(x for x, _ in reg), c - min(y for _, y in reg)) for r, c in reg))
        for reg in regions(cells_of(rows))))
    if key not in MEMO:
        empty = sum(bin(m).count("1") for m in rows)
        assert empty > 0
        MEMO[key] = empty > 1 and any(not mover_wins(after(rows, rect))
                                      for rect in rectangles(list(rows)) if area(rect) < empty)
    return MEMO[key]


def wins_at_once(game: Pillars) -> bool:
    return any(area(m) == game.empty - 1 for m in game.rectangles())


def small_position(rng: random.Random, target: int, claim: bool = False) -> Pillars:
    """A random start played down to `target` empty cells, small rectangles once the board
    is fairly full; with `claim`, red claims with its first move."""
    game = Pillars.new(seed=rng.randrange(1 << 30))
    cap = rng.choice([2, 3, 4])
    first = True
    while game.empty > target:
        limit = game.empty - target if game.empty > 40 else min(cap, game.empty - target)
        rect = rng.choice([m for m in game.rectangles() if area(m) <= limit])
        game.play((*rect, claim and first))
        first = False
    return game


def positions(seed: int, count: int, won: bool | None, low: int = 3,
              high: int = 14) -> list[Pillars]:
    """`count` small positions (the same every run) that the plain search calls won (or
    lost), with no win at once unless `won` is None (then any)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = small_position(rng, rng.randint(low, high))
        if won is None:
            out.append(game)
        elif mover_wins(tuple(game.rows)) == won and not wins_at_once(game):
            out.append(game)
    return out


def played(game: Pillars, move: tuple) -> Pillars:
    child = game.copy()
    child.play(move)
    return child


# ----- wins and losses ------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_takes_a_win_at_once(engine: Engine, seed: int) -> None:
    rng = random.Random(seed)
    game = Pillars.new(seed=seed)
    # a few regions, one of which can be filled but for one cell
    while not wins_at_once(game) or game.empty > 30:
        game.play((*rng.choice([m for m in game.rectangles() if area(m) < game.empty]), False))
    result = engine.search(game, Budget(2.0))
    assert result.exact and result.score > 0, game.to_native()
    assert game.is_legal(result.move)
    assert played(game, result.move).empty == 1, (game.to_native(), result.move_text)


def test_takes_a_win_at_once_beyond_the_solver(engine: Engine) -> None:
    """A 5x5 block and a lone cell, 26 empty cells, with one depth only (no exact solve):
    filling the block is still found, at depth 1."""
    game = leave_only(Pillars.new({"pillars": "diagonal"}),
                      {(r, c) for r in range(5, SIZE) for c in range(5)} | {(0, 9)})
    assert game.empty == 26 and wins_at_once(game)
    result = engine.search(game, Budget(0.1, max_depth=1))
    assert result.exact and result.score > 0
    assert played(game, result.move).empty == 1, result.move_text


def test_wins_small_won_positions(engine: Engine) -> None:
    for game in positions(11, 10, won=True):
        result = engine.search(game, Budget(2.0))
        child = played(game, result.move)
        assert not mover_wins(tuple(child.rows)), (game.to_native(), result.move_text)
        assert result.exact and result.score > 0, game.to_native()


def test_small_lost_positions_are_exact_losses(engine: Engine) -> None:
    for game in positions(12, 6, won=False):
        result = engine.search(game, Budget(2.0))
        assert game.is_legal(result.move)
        assert result.exact and result.score < 0, game.to_native()
        assert area(result.move) < game.empty
        assert not result.move[4]  # no claim in a proven loss


def test_a_proven_win_claims_the_unused_joker(engine: Engine) -> None:
    for game in positions(13, 6, won=True, low=10, high=14):
        assert game.claims[game.to_move] is None
        result = engine.search(game, Budget(2.0))
        assert result.exact and result.move[4], (game.to_native(), result.move_text)
        assert game.is_legal(result.move)
        assert not mover_wins(tuple(played(game, result.move).rows))


def test_a_win_at_once_claims_the_unused_joker(engine: Engine) -> None:
    """A 3x4 block and a lone cell: filling the block wins at once, and the claim is
    worth 13 // 10 = 1 point more."""
    game = leave_only(Pillars.new({"pillars": "diagonal"}),
                      {(r, c) for r in range(5, 8) for c in range(4)} | {(0, 9)})
    assert game.empty == 13 and game.claims == [None, None] and game.claim_value() == 1
    result = engine.search(game, Budget(2.0))
    assert result.exact and played(game, result.move).empty == 1
    assert result.move[4], result.move_text


def test_no_claim_once_the_joker_is_used(engine: Engine) -> None:
    rng = random.Random(14)
    checked = 0
    while checked < 4:
        game = small_position(rng, rng.randint(8, 14), claim=True)
        if game.to_move != 0 or not mover_wins(tuple(game.rows)):
            continue  # red, who claimed, to move in a won position
        assert game.claims[0] is not None
        result = engine.search(game, Budget(2.0))
        assert game.is_legal(result.move) and not result.move[4]
        assert not mover_wins(tuple(played(game, result.move).rows)), game.to_native()
        checked += 1


DOMINO = {(3, 4), (3, 5)}  # on the diagonal board: fill one cell of it, not both


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_never_fills_the_last_cell_while_another_move_is_left(engine: Engine,
                                                              level: str) -> None:
    hand = [
        DOMINO,
        {(r, c) for r in (3, 4) for c in (0, 1)},  # a 2x2 square alone: lost
        {(0, 5), (5, 0), (9, 4)},  # three lone cells: lost
        {(2, c) for c in range(3, 10)},  # a line of 7: fill 6 of it
    ]
    games = [leave_only(Pillars.new({"pillars": "diagonal"}), cells) for cells in hand]
    games += positions(15, 16, won=None, low=2, high=8)
    checked = 0
    for game in games:
        if level == "easy" and wins_at_once(game):
            continue  # see test_noise_with_a_win_at_once
        result = engine.choose(game, level, seconds=0.3)
        assert game.is_legal(result.move)
        assert area(result.move) < game.empty, (level, game.to_native(), result.move_text)
        checked += 1
    assert checked >= 8
    # the very last cell: the only move
    last = leave_only(Pillars.new({"pillars": "diagonal"}), {(9, 0)})
    assert engine.choose(last, level, seconds=0.3).move[:4] == (9, 0, 9, 0)


def test_noise_with_a_win_at_once(engine: Engine) -> None:
    """The easy level (noise) rescores every root move; with a win at once every move
    must still get a score, and the win is among the best."""
    game = leave_only(Pillars.new({"pillars": "diagonal"}), DOMINO)
    assert wins_at_once(game)
    result = engine.choose(game, "easy")
    assert area(result.move) == 1
    scores = engine.score_moves(game, 1)
    # the win is proven and the joker unused: every candidate claims it
    assert set(scores) == {(3, 4, 3, 4, True), (3, 5, 3, 5, True)}
    assert result.move[4]


# ----- perft ------------------------------------------------------------------------------
def test_perft_through_the_engine(engine: Engine) -> None:
    example = Pillars.from_native(EXAMPLE)  # blue has claimed: twins for red only
    assert engine.perft(example, 2, joker=True) == reference_perft(example, 2, joker=True)
    rng = random.Random(16)
    neither = small_position(rng, 24)  # nobody has claimed
    assert neither.claims == [None, None]
    red = small_position(rng, 18, claim=True)  # red has claimed
    assert red.claims[0] is not None and red.claims[1] is None
    for game in (neither, red):
        for joker in (False, True):
            assert engine.perft(game, 3, joker) == reference_perft(game, 3, joker)


def test_the_shared_engine_is_pillars() -> None:
    shared = get_engine("pillars")
    assert shared.game_name == "pillars"
    game = leave_only(Pillars.new(seed=2), set())  # a full board: nothing to count
    assert shared.perft(game, 2, joker=True) == [0, 0]


def test_the_claims_tally_adds_up() -> None:
    from ai.pillars.claims import tally_claims

    tally = tally_claims("easy", "random", 2, seed=3)
    assert tally.games == 2 and 0 <= tally.wins <= 2
    made = sum(c[0] for c in tally.claims.values())
    assert made <= 2 and sum(c[1] for c in tally.claims.values()) <= tally.wins
    assert 0 <= tally.points <= 2 * 27
    assert len(tally.lines("easy", "random")) == 3
