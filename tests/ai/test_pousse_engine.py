"""Pousse's engine facts: forced wins, the one-move safety net, levels, strength counting."""

from __future__ import annotations

from collections.abc import Hashable

import pytest

from ai.engine import Budget, Engine, new_engine
from ai.pousse import search as ps
from ai.pousse.common import MATE
from rules.pousse import Pousse

# Found by random play and checked below through the rules, not trusted as given.
WIN_IN_2 = ("T1 R1 L2 T3 T3 T4 R1 B1 R3 B3 B3 T1 B1 B1 B4 B1 B1 B1 L2 B1 B4 T1 R2 R4 R4 "
            "R3 R3 T3 R2 T4 L1 T2 B1 R3 L1")
THREATENED = "R4 R1 T4 B4 L3 L1 B4 R1 R4 R2 B4 B1"  # 13 of 16 X moves let O win at once


@pytest.fixture(scope="module")
def engine() -> Engine:
    eng = new_engine("pousse", tt_bits=16)
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


def test_levels_fit_the_contest_clock() -> None:
    eng = new_engine("pousse", tt_bits=10)
    assert eng.levels["max"].seconds < Pousse.clock.seconds
    assert eng.levels["easy"].max_depth <= 2 and eng.levels["easy"].noise > 0


def test_finds_win_in_1(engine: Engine) -> None:
    game = game_with("L1 L2 L1 L2 L1 L2")
    result = engine.search(game, Budget(seconds=5.0, max_depth=6))
    assert result.move in wins_now(game)
    assert result.exact and result.score == MATE - 1


def test_finds_win_in_2(engine: Engine) -> None:
    game = game_with(WIN_IN_2)
    assert not wins_now(game)
    assert any(forced_win_in_2(game, m) for m in game.legal_moves())
    result = engine.search(game, Budget(seconds=10.0, max_depth=5))
    assert forced_win_in_2(game, result.move)
    assert result.exact and result.score == MATE - 3


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_avoids_losing_in_1(engine: Engine, depth: int) -> None:
    game = game_with(THREATENED)
    losing = [m for m in game.legal_moves() if loses_at_once(game, m)]
    assert 0 < len(losing) < len(game.legal_moves())
    result = engine.search(game, Budget(seconds=10.0, max_depth=depth))
    assert not loses_at_once(game, result.move)


def test_safety_net_candidates(engine: Engine) -> None:
    adapter = engine.adapter
    threatened = game_with(THREATENED)
    pos = adapter.load(threatened)
    safe = {adapter.to_move(pos, m) for m in adapter.candidates(pos)}
    assert safe == {m for m in threatened.legal_moves() if not loses_at_once(threatened, m)}
    winning = game_with("L1 L2 L1 L2 L1 L2")
    pos = adapter.load(winning)
    assert {adapter.to_move(pos, m) for m in adapter.candidates(pos)} == set(wins_now(winning))


def test_easy_level_still_avoids_losing_in_1(engine: Engine) -> None:
    game = game_with(THREATENED)
    for _ in range(5):
        assert not loses_at_once(game, engine.choose(game, "easy").move)


def test_search_kernels_have_one_specialisation_per_engine(engine: Engine) -> None:
    # one per engine (bitboards, lines); a literal-typed extra one would mean a needless
    # compile, and for a recursive kernel a crash when loaded from the cache
    for size in (4, 9):
        result = engine.search(Pousse.new({"size": size}), Budget(seconds=60.0, max_depth=2))
        assert result.depth == 2
    assert 1 <= len(ps.search_root.signatures) <= 2 and len(ps.negamax.signatures) <= 2


def test_bench_positions_are_fixed() -> None:
    eng = new_engine("pousse", tt_bits=10)
    first, second = eng.bench_positions(), eng.bench_positions()
    assert [g.to_native() for g in first] == [g.to_native() for g in second]
    assert all(not g.is_over for g in first)
    assert {g.size for g in first} == {5, 6, 8, 12}
    assert eng.bench_endgames() == ([], 0.0)


def test_strength_starts_vary_and_do_not_end_the_game() -> None:
    from ai.strength import start_position

    starts = [start_position(Pousse, {"size": 5}, seed) for seed in range(6)]
    assert all(len(g.history) == 2 and not g.is_over for g in starts)
    assert len({g.key() for g in starts}) > 3
    assert start_position(Pousse, {"size": 5}, 3).key() == starts[3].key()
