"""Pah-Tum's engine facts: optimal endgames, the exact-solve jump, a forced block."""

from __future__ import annotations

import random
import threading
import time
from functools import cache

import pytest

from ai.engine import Budget, Engine, SearchResult, StopFlag, get_engine, new_engine
from ai.pahtum.adapter import EXACT_EMPTIES, exact_empties
from rules.pahtum import PahTum

SEED_IN_PROGRESS = "XO-OXX-\n------+\n---+-O-\nO------\n--++---\n--XXXX-\n+X-OOOO\n"


@pytest.fixture(scope="module")
def engine() -> Engine:
    eng = get_engine("pahtum")
    eng.warm_up()
    return eng


def endgame(seed: int, empties: int) -> PahTum:
    rng = random.Random(seed)
    game = PahTum.new({"blocks": str(rng.randrange(1, 26, 2))}, seed=seed)
    while game.empty_count() > empties:
        game.play(rng.choice(game.legal_moves()))
    return game


def brute_force(game: PahTum) -> dict[int, int]:
    """Exact final (mover - other) after each legal move: plain memoised minimax over rules."""

    @cache
    def value(key: str) -> int:  # for the side to move in `key`
        if game.is_over:
            x, o = game.scores()
            return x - o if game.to_move == 0 else o - x
        best = None
        for move in game.legal_moves():
            game.play(move)
            v = -value(game.key())
            game.undo()
            best = v if best is None else max(best, v)
        assert best is not None
        return best

    values = {}
    for move in game.legal_moves():
        game.play(move)
        values[move] = -value(game.key())
        game.undo()
    return values


@pytest.mark.parametrize(("seed", "empties"), [(1, 6), (2, 8), (3, 8), (4, 10), (5, 10)])
def test_endgame_move_is_optimal(engine: Engine, seed: int, empties: int) -> None:
    game = endgame(seed, empties)
    values = brute_force(game)
    result = engine.search(game, Budget(seconds=30.0))
    assert result.exact
    assert values[result.move] == max(values.values())
    assert result.score == max(values.values())


def test_noisy_exact_scores_are_the_true_values(engine: Engine) -> None:
    game = endgame(6, 8)
    values = brute_force(game)
    scored = engine.score_moves(game, game.empty_count())
    assert scored == {move: float(v) for move, v in values.items()}


def test_search_jumps_to_the_exact_solve_after_two_plies(engine: Engine) -> None:
    seconds = 2.0
    empties = exact_empties(seconds)
    assert (seconds, empties) in EXACT_EMPTIES
    game = endgame(7, empties)
    infos: list[SearchResult] = []
    result = engine.search(game, Budget(seconds), on_info=infos.append)
    assert [r.depth for r in infos] == [1, 2, empties]
    assert result.exact and not infos[1].exact
    # one empty more than the budget solves: plain deepening, no jump
    deeper = endgame(7, empties + 1)
    infos.clear()
    engine.search(deeper, Budget(seconds, max_depth=4), on_info=infos.append)
    assert [r.depth for r in infos] == [1, 2, 3, 4]


def test_stop_during_an_exact_solve(engine: Engine) -> None:
    """A big endgame under a long budget is solved exactly: the flag still ends it."""
    game = endgame(1, exact_empties(600.0))  # a slow one: about 1.3 s to solve
    stop = StopFlag()
    timer = threading.Timer(0.3, stop.set)
    began = time.perf_counter()
    timer.start()
    result = engine.search(game, Budget(600.0), stop)
    elapsed = time.perf_counter() - began
    timer.join()
    assert game.is_legal(result.move)
    if not result.exact:  # cut during the solve: the depth-2 result stands
        # well short of the solve's 1.3 s, with room for a busy machine's scheduling
        assert result.depth == 2 and elapsed < 0.3 + 0.3, f"{elapsed:.3f} s"


def test_engine_finds_a_forced_block() -> None:
    # O owns A1-A4 with A5-A7 open: unless X blocks A5, O makes 5 then threatens 6
    game = PahTum.from_native("OOOO---\nX-X----\n-------\n----X--\n-------\n-X-----\n------+\n")
    result = new_engine("pahtum", tt_bits=16).search(game, Budget(seconds=5.0, max_depth=3))
    assert result.move_text == "A5"


def test_imported_position_with_letters(engine: Engine) -> None:
    game = PahTum.from_native(SEED_IN_PROGRESS)
    result = engine.search(game, Budget(seconds=0.5, max_depth=3))
    assert game.is_legal(result.move)
    line = game.copy()
    line.replay(result.pv)


def test_concurrent_searches_wait_for_each_other(engine: Engine) -> None:
    game = PahTum.new({"blocks": "5"}, seed=6)
    results: list[SearchResult] = []
    threads = [threading.Thread(target=lambda: results.append(
        engine.search(game.copy(), Budget(seconds=0.3, max_depth=3)))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2
    assert all(game.is_legal(r.move) for r in results)


def test_bench_positions_and_endgames_are_fixed(engine: Engine) -> None:
    a = [g.to_native() for g in engine.bench_positions()]
    b = [g.to_native() for g in engine.bench_positions()]
    assert a == b and len(a) >= 3
    assert len({g.empty_count() for g in engine.bench_positions()}) > 1
    games, seconds = engine.bench_endgames()
    assert len(games) >= 20 and all(g.empty_count() == 20 for g in games)
    assert exact_empties(seconds) >= 20  # the bench's budget goes exact from 20 empties
