"""The Pousse engine: forced wins, the one-move safety net, stopping, info, bench."""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable

import pytest

from ai import pousse_kernels as pk
from ai.engine import Budget, SearchResult, StopFlag, get_engine
from ai.pousse_engine import PousseEngine
from rules.pousse import Pousse

# Found by random play and checked below through the rules, not trusted as given.
WIN_IN_2 = ("T1 R1 L2 T3 T3 T4 R1 B1 R3 B3 B3 T1 B1 B1 B4 B1 B1 B1 L2 B1 B4 T1 R2 R4 R4 "
            "R3 R3 T3 R2 T4 L1 T2 B1 R3 L1")
THREATENED = "R4 R1 T4 B4 L3 L1 B4 R1 R4 R2 B4 B1"  # 13 of 16 X moves let O win at once


@pytest.fixture(scope="module")
def engine() -> PousseEngine:
    eng = PousseEngine(tt_bits=16)
    eng.warm_up()
    return eng


def game_with(moves: str, size: int = 4) -> Pousse:
    game = Pousse.new({"size": size})
    game.replay(moves.split())
    return game


def wins_now(game: Pousse) -> list[Hashable]:
    return [m for m in game.legal_moves()
            if (o := game.preview(m).outcome) is not None and o.winner == game.to_move]


def loses_at_once(game: Pousse, move: Hashable) -> bool:
    """After `move` the game is lost for the mover or the opponent can win immediately."""
    probe = game.copy()
    probe.play(move)
    if probe.is_over:
        return probe.outcome.winner != game.to_move
    return bool(wins_now(probe))


def forced_win_in_2(game: Pousse, move: Hashable) -> bool:
    """`move` wins at once, or every reply loses or allows an immediate win."""
    me = game.to_move
    probe = game.copy()
    probe.play(move)
    if probe.is_over:
        return probe.outcome.winner == me
    for reply in probe.legal_moves():
        probe.play(reply)
        ok = probe.outcome.winner == me if probe.is_over else bool(wins_now(probe))
        probe.undo()
        if not ok:
            return False
    return True


def test_registry_and_levels() -> None:
    assert isinstance(get_engine("pousse"), PousseEngine)
    eng = PousseEngine(tt_bits=10)
    assert set(eng.levels) == {"easy", "medium", "hard", "max"}
    assert eng.levels["max"].seconds < Pousse.move_seconds
    assert eng.levels["easy"].max_depth <= 2 and eng.levels["easy"].noise > 0


def test_finds_win_in_1(engine: PousseEngine) -> None:
    game = game_with("L1 L2 L1 L2 L1 L2")
    result = engine.search(game, Budget(seconds=5.0, max_depth=6))
    assert result.move in wins_now(game)
    assert result.exact and result.score == pk.MATE - 1


def test_finds_win_in_2(engine: PousseEngine) -> None:
    game = game_with(WIN_IN_2)
    assert not wins_now(game)
    assert any(forced_win_in_2(game, m) for m in game.legal_moves())
    result = engine.search(game, Budget(seconds=10.0, max_depth=5))
    assert forced_win_in_2(game, result.move)
    assert result.exact and result.score == pk.MATE - 3


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_avoids_losing_in_1(engine: PousseEngine, depth: int) -> None:
    game = game_with(THREATENED)
    losing = [m for m in game.legal_moves() if loses_at_once(game, m)]
    assert 0 < len(losing) < len(game.legal_moves())
    result = engine.search(game, Budget(seconds=10.0, max_depth=depth))
    assert not loses_at_once(game, result.move)


def test_easy_level_still_avoids_losing_in_1(engine: PousseEngine) -> None:
    game = game_with(THREATENED)
    for _ in range(5):
        assert not loses_at_once(game, engine.choose(game, "easy").move)


def test_stop_flag_ends_a_search_quickly(engine: PousseEngine) -> None:
    game = game_with("L1 T2 R3 B4 L5 T6", size=20)
    stop = StopFlag()
    timer = threading.Timer(0.3, stop.set)
    start = time.perf_counter()
    timer.start()
    result = engine.search(game, Budget(seconds=120.0), stop)
    stopped_after = time.perf_counter() - start - 0.3
    assert stopped_after < 0.25
    assert result.move in game.legal_moves()


def test_info_after_each_depth(engine: PousseEngine) -> None:
    game = game_with("L1 T2 R3 B4", size=6)
    infos: list[SearchResult] = []
    result = engine.search(game, Budget(seconds=30.0, max_depth=5), on_info=infos.append)
    assert [r.depth for r in infos] == [1, 2, 3, 4, 5]
    assert result.depth == 5 and result.nodes >= infos[-1].nodes > 0
    assert result.pv and result.pv[0] == result.move_text
    probe = game.copy()
    probe.replay(result.pv)  # the principal variation is playable


def test_refuses_finished_game(engine: PousseEngine) -> None:
    game = game_with("L1 L2 L1 L2 L1 L2 L1")
    with pytest.raises(ValueError):
        engine.search(game, Budget(seconds=1.0))


def test_recursive_kernels_have_one_specialisation(engine: PousseEngine) -> None:
    # A literal-typed second specialisation segfaults when loaded from the cache.
    assert len(pk.negamax.signatures) <= 1 and len(pk.perft_walk.signatures) <= 1


def test_bench_positions_are_fixed() -> None:
    eng = PousseEngine(tt_bits=10)
    first, second = eng.bench_positions(), eng.bench_positions()
    assert [g.to_native() for g in first] == [g.to_native() for g in second]
    assert all(not g.is_over for g in first)
    assert {g.size for g in first} == {5, 6, 8, 12}
