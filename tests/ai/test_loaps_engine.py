"""LOAPS's engine facts: connections found (in one and forced in two) when the points win
them, connections stopped and avoided when the points lose them, the safety net, levels,
legal moves under any budget."""

from __future__ import annotations

import random
from collections.abc import Hashable

import numpy as np
import pytest

from ai.engine import Budget, Engine, StopFlag, new_engine
from ai.loaps import kernels as K
from ai.loaps import search as S
from ai.loaps.adapter import LoapsAdapter, move_code, rules_move
from ai.loaps.evaluate import make_params
from ai.strength import wins_at_once
from rules.loaps import CONNECTION, Loaps

# Found by random play and checked below through the rules, not trusted as given.
WIN_IN_1 = ("1 16\n1 15 60.00\n2 1 60.00\n..1..2.\n...11..\n...2..2\n...1...\n12..1..\n"
            "....1.2\n...2...\n")
WIN_IN_2 = ("1 18\n1 15 60.00\n2 1 60.00\n..1..2.\n...11..\n..12..2\n1..1..2\n...2...\n"
            "....1..\n...2...\n")
THREATENED = ("2 24\n1 14 60.00\n2 9 60.00\n..2..1.\n211....\n...1...\n2......\n.1.....\n"
              "...22..\n.....2.\n")  # 24 of blue's 27 moves let red connect and win at once
ONE_PARRY = ("2 16\n1 8 60.00\n2 15 60.00\n.......\n2......\n2...2..\n..12...\n.1.1...\n"
             "22...1.\n...1.1.\n")  # 1 of blue's 23 moves keeps red from winning at once
BEHIND = ("2 45\n1 40 30.00\n2 6 30.00\n1......\n1..2...\n..2...1\n1.1....\n.....1.\n"
          "...11..\n.......\n")  # blue can connect, but 6 + 12 points lose to 40


@pytest.fixture(scope="module")
def engine() -> Engine:
    eng = new_engine("loaps", tt_bits=16)
    eng.warm_up()
    return eng


def position(text: str) -> Loaps:
    return Loaps.from_native(text)


def connects(game: Loaps, move: Hashable) -> bool:
    """`move` connects the mover's pieces (and so ends the game)."""
    probe = game.copy()
    probe.play(move)
    return (probe.outcome is not None and probe.outcome.ending == CONNECTION
            and len(probe.groups(game.to_move)) == 1)


def loses_at_once(game: Loaps, move: Hashable) -> bool:
    """After `move` the mover has lost, or the other side can win at once."""
    probe = game.copy()
    probe.play(move)
    if probe.is_over:
        return not probe.outcome.won(game.to_move)
    return bool(wins_at_once(probe))


def forced_win_in_2(game: Loaps, move: Hashable) -> bool:
    """`move` wins at once, or every reply loses or allows a win at once."""
    me = game.to_move
    probe = game.copy()
    probe.play(move)
    if probe.is_over:
        return probe.outcome.won(me)
    for reply in probe.legal_moves():
        probe.play(reply)
        ok = probe.outcome.won(me) if probe.is_over else bool(wins_at_once(probe))
        probe.undo()
        if not ok:
            return False
    return True


def test_levels_form_a_ladder_within_the_contest_clock() -> None:
    levels = LoapsAdapter.levels
    seconds = [levels[name].seconds for name in ("easy", "medium", "hard", "max")]
    assert seconds[1] < seconds[2] < seconds[3] < Loaps.clock.seconds / 10
    assert seconds[0] <= seconds[1]
    assert levels["easy"].max_depth <= 2 and levels["easy"].noise > 0
    assert levels["easy"].max_depth < levels["medium"].max_depth < levels["hard"].max_depth
    assert all(levels[name].noise == 0 for name in ("medium", "hard", "max"))


def test_finds_a_winning_connection_in_1(engine: Engine) -> None:
    game = position(WIN_IN_1)
    wins = wins_at_once(game)
    assert wins and all(connects(game, m) for m in wins)
    assert len(wins) < len(game.legal_moves())
    result = engine.search(game, Budget(seconds=5.0, max_depth=4))
    assert result.move in wins
    assert result.exact and result.score == S.MATE - 1


def test_finds_a_forced_connection_in_2(engine: Engine) -> None:
    game = position(WIN_IN_2)
    assert not wins_at_once(game)
    winning = [m for m in game.legal_moves() if forced_win_in_2(game, m)]
    assert 0 < len(winning) < len(game.legal_moves())
    result = engine.search(game, Budget(seconds=10.0, max_depth=5))
    assert result.move in winning
    assert result.exact and result.score == S.MATE - 3


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_stops_a_winning_connection(engine: Engine, depth: int) -> None:
    game = position(THREATENED)
    losing = [m for m in game.legal_moves() if loses_at_once(game, m)]
    assert len(game.legal_moves()) // 2 < len(losing) < len(game.legal_moves())
    result = engine.search(game, Budget(seconds=10.0, max_depth=depth))
    assert not loses_at_once(game, result.move)


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_does_not_connect_when_the_points_lose(engine: Engine, depth: int) -> None:
    game = position(BEHIND)
    connecting = [m for m in game.legal_moves() if connects(game, m)]
    assert connecting and all(loses_at_once(game, m) for m in connecting)
    result = engine.search(game, Budget(seconds=10.0, max_depth=depth))
    assert not connects(game, result.move)
    assert not loses_at_once(game, result.move)


def root_search(game: Loaps, depth: int) -> tuple[int, int, np.ndarray, list[int]]:
    """The search kernel itself over every root move, without the safety net."""
    adapter = LoapsAdapter(tt_bits=12)
    pos = adapter.load(game)
    order = np.array(pos.moves, dtype=np.int64)
    best, value = S.search_root(pos.st, pos.side, pos.left, depth, order, pos.scores, True,
                                *adapter._tables(), np.zeros(1, np.int32), adapter.ev)
    return int(best), int(value), pos.scores, pos.moves


@pytest.mark.parametrize("depth", [1, 3])
def test_the_search_itself_scores_connections_by_the_points(depth: int) -> None:
    # connecting while behind is a loss at once, connecting while ahead a win at once
    game = position(BEHIND)
    best, value, scores, codes = root_search(game, depth)
    for move in game.legal_moves():
        if connects(game, move):
            assert scores[move_code(move)] == -(S.MATE - 1)
    assert not connects(game, rules_move(best))
    assert value > -(S.MATE - 1)
    game = position(WIN_IN_1)
    best, value, scores, codes = root_search(game, depth)
    assert value == S.MATE - 1
    wins = {move_code(m) for m in wins_at_once(game)}
    assert best in wins and all(scores[c] == S.MATE - 1 for c in wins)


def test_safety_net_candidates(engine: Engine) -> None:
    adapter = engine.adapter
    game = position(THREATENED)
    pos = adapter.load(game)
    safe = {adapter.to_move(pos, m) for m in adapter.candidates(pos)}
    assert safe == {m for m in game.legal_moves() if not loses_at_once(game, m)}
    game = position(WIN_IN_1)
    pos = adapter.load(game)
    assert {adapter.to_move(pos, m) for m in adapter.candidates(pos)} == set(wins_at_once(game))
    assert set(adapter.root_moves(pos)) == set(pos.moves)


def test_easy_level_still_avoids_losing_at_once(engine: Engine) -> None:
    for text in (THREATENED, BEHIND):
        game = position(text)
        for _ in range(4):
            assert not loses_at_once(game, engine.choose(game, "easy").move)


def test_plays_only_legal_moves_and_honours_the_stop_flag(engine: Engine) -> None:
    rng = random.Random(6)
    for _ in range(6):
        game = Loaps()
        game.advance(rng, rng.randrange(0, 30))
        for seconds in (0.001, 0.02):
            result = engine.search(game, Budget(seconds=seconds))
            assert game.is_legal(result.move)
        stop = StopFlag()
        stop.set()
        result = engine.search(game, Budget(seconds=60.0), stop)
        assert game.is_legal(result.move) and result.depth == 0


def test_a_whole_game_of_legal_moves(engine: Engine) -> None:
    game = Loaps()
    game.advance(random.Random(2), 2)
    while not game.is_over:
        result = engine.search(game, Budget(seconds=0.05, max_depth=4))
        game.play(result.move)  # the rules refuse an illegal move
    assert game.outcome is not None


def test_one_specialisation_per_kernel(engine: Engine) -> None:
    # a literal-typed extra specialisation would be a needless compile
    engine.search(Loaps(), Budget(seconds=60.0, max_depth=3, noise=10))
    engine.perft(Loaps(), 2)
    assert len(S.search_root.signatures) == 1 and len(K.perft.signatures) == 1


def leaf_value(game: Loaps, params: np.ndarray) -> int:
    """negamax at depth 1 (its last ply: every child evaluated, threats extended)."""
    adapter = LoapsAdapter(tt_bits=12, params=params)
    pos = adapter.load(game)
    return int(S.negamax(pos.st, 0, pos.side, pos.left, 1, -S.INF, S.INF, adapter.tt,
                         adapter.killers, adapter.hist, adapter.moves, adapter.keys,
                         adapter.frames, adapter.stats, np.zeros(1, np.int32), params))


def test_the_threat_extension_sees_a_forced_connection_past_the_horizon() -> None:
    # at the last ply, a move that threatens a winning connection the other side cannot
    # parry is a win (in two of the mover's moves), not the evaluation's guess
    game = position(WIN_IN_2)
    assert leaf_value(game, make_params()) == S.MATE - 3
    assert abs(leaf_value(game, make_params(threat=0))) < S.WIN_BOUND
    # a threat that can be parried is not a win: THREATENED's side to move has parries
    game = position(THREATENED)
    assert abs(leaf_value(game, make_params())) < S.WIN_BOUND


def test_a_stopped_depth_still_names_the_best_move_it_finished() -> None:
    game = Loaps()
    game.advance(random.Random(3), 6)
    adapter = LoapsAdapter(tt_bits=12)
    full = adapter.search_depth(adapter.load(game), 5, np.zeros(1, np.int32), False)
    assert full.completed and not full.partial
    # a stop flag set from the start stops the search at its first poll (2048 nodes),
    # after the first few root moves (in the same order, on the same fresh tables)
    adapter = LoapsAdapter(tt_bits=12)
    pos = adapter.load(game)
    first = list(pos.order)
    stopped = adapter.search_depth(pos, 5, np.ones(1, np.int32), False)
    assert not stopped.completed and stopped.partial and stopped.nodes == S.POLL + 1
    assert stopped.move != full.move and first.index(stopped.move) < first.index(full.move)
    assert stopped.score == full.scores[stopped.move] < full.score


def not_lost(game: Loaps, depth: int, params: np.ndarray) -> bool:
    """Whether negamax at `depth` (fresh tables) finds the position not lost: a null window
    just above a loss, so the root is off the principal line, where pruning applies."""
    adapter = LoapsAdapter(tt_bits=12, params=params)
    pos = adapter.load(game)
    lost = -S.WIN_BOUND
    return lost < int(S.negamax(pos.st, 0, pos.side, pos.left, depth, lost, lost + 1, adapter.tt,
                                adapter.killers, adapter.hist, adapter.moves, adapter.keys,
                                adapter.frames, adapter.stats, np.zeros(1, np.int32), params))


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_pruning_never_skips_the_parry_when_the_moves_tried_lose(depth: int) -> None:
    # late move pruning (here after 1 move a ply) skips a late quiet move only once a
    # move that does not lose is found, so a lone parry ordered late is still searched
    game = position(ONE_PARRY)
    parries = [m for m in game.legal_moves() if not loses_at_once(game, m)]
    assert len(parries) == 1 and len(game.legal_moves()) == 23
    for params in (make_params(), make_params(lmp=1), make_params(lmp=1, lmr=1, null=3)):
        assert not_lost(game, depth, params)
