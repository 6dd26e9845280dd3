"""The analysis without a clock (ai/analysis.py), headless on Pah-Tum's kernels: the best
root moves sorted with their lines, proven results on a small endgame, the stop flag
honoured, and the whole-game evaluations of the graph."""

from __future__ import annotations

import random
import threading

import pytest

from ai.analysis import Analysis, Evaluation, Line, analyse, evaluate_line, graph_engine
from ai.engine import Engine, StopFlag, get_engine
from rules import MoveError
from rules.pahtum import PahTum


@pytest.fixture(scope="module")
def engine() -> Engine:
    eng = get_engine("pahtum")
    eng.warm_up()
    return eng


def endgame(seed: int, empties: int) -> PahTum:
    rng = random.Random(seed)
    game = PahTum.new({"blocks": "7"}, seed=seed)
    while game.empty_count() > empties:
        game.play(rng.choice(game.legal_moves()))
    return game


def test_the_top_moves_come_sorted_with_their_lines_and_are_proven_once_solved(
        engine: Engine) -> None:
    game = endgame(3, 12)
    before = game.to_native()
    seen: list[Analysis] = []
    last = analyse(engine, game, StopFlag(), seen.append)
    assert game.to_native() == before  # the position given is left alone
    assert last is not None and last is seen[-1] and last.finished
    assert [a.depth for a in seen] == sorted({a.depth for a in seen})  # one report a depth
    for found in seen:
        assert 3 <= len(found.lines) <= 5
        scores = [line.score for line in found.lines]
        assert scores == sorted(scores, reverse=True)
        assert all(line.pv[0] == game.move_text(line.move) for line in found.lines)
        assert set(found.scores) == set(game.legal_moves())
        assert max(found.scores.values()) == found.lines[0].score
    solved = last.lines
    assert all(line.proven and line.depth == 12 for line in solved)
    assert any(len(line.pv) > 1 for line in solved)  # lines beyond their first move
    for line in solved:  # the exact scores agree with the engine's own proven search
        assert line.result == ("win" if line.score > 0 else "loss" if line.score < 0
                               else "draw")
        assert line.verdict().startswith(f"proven {line.result}")


def test_a_proven_win_in_one_is_said_so(engine: Engine) -> None:
    for seed in range(40):
        game = endgame(seed, 1)
        last = analyse(engine, game, StopFlag(), lambda _a: None)
        assert last is not None and last.finished
        line = last.lines[0]
        assert line.plies == 1  # the one move ends the game
        if line.result == "win":
            assert line.wins_in == 1 and line.verdict() == "proven win in 1"
            return
    pytest.fail("no seed gives a last move that wins")


def test_the_stop_flag_ends_the_analysis(engine: Engine) -> None:
    game = PahTum.new({"blocks": "5"}, seed=1)  # far from solved: it would go on and on
    stop = StopFlag()
    stop.set()
    assert analyse(engine, game, stop, lambda _a: pytest.fail("nothing reported")) is None
    stop = StopFlag()
    seen: list[Analysis] = []

    def after_two(found: Analysis) -> None:
        seen.append(found)
        if found.depth >= 2:
            stop.set()

    last = analyse(engine, game, stop, after_two)
    assert last is not None and last.depth == 2 and not last.finished
    # from another thread, mid-depth: the kernels poll the flag
    stop = StopFlag()
    thread = threading.Thread(target=analyse, args=(engine, game, stop, lambda _a: None))
    thread.start()
    threading.Timer(0.2, stop.set).start()
    thread.join(5.0)
    assert not thread.is_alive()


def test_a_finished_game_is_refused(engine: Engine) -> None:
    game = endgame(2, 0)
    with pytest.raises(MoveError):
        analyse(engine, game, StopFlag(), lambda _a: None)


def test_the_graph_gets_one_evaluation_per_position_for_the_first_player(
        engine: Engine) -> None:
    game = endgame(5, 2)
    start = PahTum.from_start(game.options, game.start_native())
    moves = list(game.history)[-4:]
    for move in game.history[:-4]:
        start.play(move)
    rest = game.copy()
    while rest.legal_moves():
        rest.play(rest.legal_moves()[0])
        moves.append(rest.history[-1])
    found: dict[int, Evaluation] = {}
    evaluate_line(graph_engine(engine), start, moves, StopFlag(), found.__setitem__,
                  seconds=0.05)
    assert sorted(found) == list(range(len(moves) + 1))
    assert found[len(moves)].proven  # the end: its result for the first player
    x, o = rest.scores()
    first = start.to_move
    mine, theirs = (x, o) if first == 0 else (o, x)
    assert found[len(moves)].score == (0 if mine == theirs else 1 if mine > theirs else -1)
    assert found[len(moves) - 1].proven  # one empty left: solved
    assert graph_engine(engine) is graph_engine(engine)
    assert graph_engine(engine) is not engine  # beside the analysis, never waiting for it
    # cancelled: nothing more comes
    stop = StopFlag()
    stop.set()
    more: list[int] = []
    evaluate_line(graph_engine(engine), start, moves, stop, lambda i, _v: more.append(i))
    assert more == []


def test_verdicts_in_words() -> None:
    assert Line("a", "a", 12.4, 3, ["a"]).verdict() == "+12"
    assert Line("a", "a", -3.0, 3, ["a"]).verdict() == "-3"
    assert Line("a", "a", 0, 3, ["a"], "draw").verdict() == "proven draw"
    assert Line("a", "a", -9, 3, ["a"], "loss").verdict() == "proven loss"
    assert Line("a", "a", 9, 3, ["a", "b", "c"], "win", 3, 2).verdict() == "proven win in 2"
    assert Line("a", "a", 9, 3, ["a"], "win").verdict() == "proven win"
