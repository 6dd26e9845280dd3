"""The Pah-Tum engine: optimal endgames, stopping, levels and search reports."""

from __future__ import annotations

import random
import threading
import time
from functools import cache

import pytest

from ai.engine import LEVELS, Budget, SearchResult, StopFlag, get_engine
from ai.pahtum_engine import PahTumEngine
from rules.pahtum import PahTum

SEED_IN_PROGRESS = "XO-OXX-\n------+\n---+-O-\nO------\n--++---\n--XXXX-\n+X-OOOO\n"


@pytest.fixture(scope="module")
def engine() -> PahTumEngine:
    eng = get_engine("pahtum")
    assert isinstance(eng, PahTumEngine)
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
def test_endgame_move_is_optimal(engine: PahTumEngine, seed: int, empties: int) -> None:
    game = endgame(seed, empties)
    values = brute_force(game)
    result = engine.search(game, Budget(seconds=30.0))
    assert result.exact
    assert values[result.move] == max(values.values())
    assert result.score == max(values.values())


def test_engine_finds_a_forced_block() -> None:
    # O owns A1-A4 with A5-A7 open: unless X blocks A5, O makes 5 then threatens 6
    game = PahTum.from_native("OOOO---\nX-X----\n-------\n----X--\n-------\n-X-----\n------+\n")
    eng = PahTumEngine(tt_bits=16)
    result = eng.search(game, Budget(seconds=5.0, max_depth=3))
    assert result.move_text == "A5"


def test_stop_flag_ends_a_search_quickly(engine: PahTumEngine) -> None:
    """Design target: 100 ms after the flag; asserted at 250 ms to avoid flaky timing."""
    game = PahTum.new({"blocks": "1"}, seed=3)
    stop = StopFlag()
    set_at: list[float] = []

    def fire() -> None:
        set_at.append(time.perf_counter())
        stop.set()

    timer = threading.Timer(0.5, fire)
    timer.start()
    result = engine.search(game, Budget(seconds=600.0), stop)
    done = time.perf_counter()
    timer.join()
    assert set_at, "the search ended before the flag: make the position harder"
    assert done - set_at[0] < 0.25
    assert game.is_legal(result.move)
    assert result.depth >= 1


@pytest.mark.parametrize("level", LEVELS)
def test_levels_return_legal_moves(engine: PahTumEngine, level: str) -> None:
    game = PahTum.new(seed=8)
    for _ in range(2):
        game.play(game.legal_moves()[len(game.legal_moves()) // 2])
    result = engine.choose(game, level, seconds=0.3)
    assert game.is_legal(result.move)
    assert result.move_text == game.move_text(result.move)


def test_on_info_reports_increasing_depths(engine: PahTumEngine) -> None:
    game = PahTum.new({"blocks": "9"}, seed=4)
    infos: list[SearchResult] = []
    result = engine.search(game, Budget(seconds=30.0, max_depth=4), on_info=infos.append)
    depths = [r.depth for r in infos]
    assert depths == [1, 2, 3, 4]
    assert result.depth == 4
    assert all(r.pv and r.pv[0] == r.move_text for r in infos)
    assert all(a.nodes <= b.nodes for a, b in zip(infos, infos[1:], strict=False))


def test_imported_position_with_letters(engine: PahTumEngine) -> None:
    game = PahTum.from_native(SEED_IN_PROGRESS)
    result = engine.search(game, Budget(seconds=0.5, max_depth=3))
    assert game.is_legal(result.move)
    # pv is a playable line
    line = game.copy()
    line.replay(result.pv)


def test_concurrent_searches_wait_for_each_other(engine: PahTumEngine) -> None:
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


def test_bench_positions_are_fixed(engine: PahTumEngine) -> None:
    a = [g.to_native() for g in engine.bench_positions()]
    b = [g.to_native() for g in engine.bench_positions()]
    assert a == b and len(a) >= 3
    assert len({g.empty_count() for g in engine.bench_positions()}) > 1


def test_searching_a_finished_game_is_refused(engine: PahTumEngine) -> None:
    game = endgame(9, 0)
    with pytest.raises(ValueError):
        engine.search(game, Budget(seconds=1.0))
