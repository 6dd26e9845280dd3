"""The shared models every game uses: clocks, outcomes, match rules, player specs."""

from __future__ import annotations

import math

import pytest

from rules import (
    Clock,
    ClockKind,
    MatchPoints,
    MatchState,
    Outcome,
    PlainWins,
    PlayerError,
    PlayerSpec,
    SumOfMargins,
    Termination,
    TimeControl,
)
from rules.match import mark_of, participant_of
from rules.outcome import Ending, outcome_from_json
from rules.pahtum import BOARD_FULL


def win(winner: int | None, points: tuple[int, ...] = (0, 0)) -> Outcome:
    return Outcome(BOARD_FULL, () if winner is None else (winner,), points, "")


# ----- clocks -------------------------------------------------------------------------


def test_a_move_clock_limits_each_move_and_a_game_clock_the_sum() -> None:
    move = Clock.start(TimeControl(ClockKind.MOVE, 10), 2)
    move.charge(0, 9.5)
    assert move.left(0, 3.0) == 7.0  # what is left of the move under way
    assert not move.flagged(0, 10.0) and move.flagged(0, 10.01)
    game = Clock.start(TimeControl(ClockKind.GAME, 60), 2)
    game.charge(0, 50.0)
    assert game.left(0, 5.0) == 5.0 and game.left(1) == 60.0
    assert game.flagged(0, 10.5) and not game.flagged(1, 59.0)
    free = Clock.start(TimeControl.none(), 3)
    free.charge(2, 1000.0)
    assert free.left(2) is None and not free.flagged(2, 1e9) and free.spent(2, 1.0) == 1001.0


def test_the_ai_never_plans_past_its_clock() -> None:
    game = Clock.start(TimeControl(ClockKind.GAME, 60), 2)
    game.charge(1, 58.0)
    assert game.ai_seconds(1, 25.0, moves_left=10) < 2.0 / 10
    assert game.ai_seconds(0, 1.0, moves_left=10) == 1.0  # the level's own time fits
    move = Clock.start(TimeControl(ClockKind.MOVE, 10), 2)
    assert move.ai_seconds(0, 25.0, moves_left=1) < 10 * 0.81
    assert Clock.start(TimeControl.none(), 2).ai_seconds(0, 25.0, 1) == 25.0


def test_a_long_game_of_quick_moves_never_runs_out_of_a_game_clock() -> None:
    """Pillars plans for two more moves once the exact solver should take over, but the
    rules may allow many more (a busy machine solves later): with each of them kept its
    least time and an overhead beyond the budget (here 8 ms a move), the clock lasts."""
    from rules.clock import LEAST_SECONDS, RESERVE_PER_MOVE

    clock = Clock.start(TimeControl(ClockKind.GAME, 5), 2)
    most = 45
    for moves_most in range(most, 0, -1):
        budget = clock.ai_seconds(0, float("inf"), moves_left=2, moves_most=moves_most)
        clock.charge(0, budget + 0.008)
        assert not clock.flagged(0), f"ran out with {moves_most - 1} moves to go"
    # without the bound the same game runs out
    clock = Clock.start(TimeControl(ClockKind.GAME, 5), 2)
    for _ in range(most):
        clock.charge(0, clock.ai_seconds(0, float("inf"), moves_left=2) + 0.008)
    assert clock.flagged(0)
    assert RESERVE_PER_MOVE > LEAST_SECONDS + 0.008


def test_time_controls_read_and_write_their_text() -> None:
    for text in ("none", "move:10", "game:300", "game:0.5"):
        assert TimeControl.parse(text).key() == text
    assert TimeControl(ClockKind.GAME, 300).describe() == "5 min a game"
    assert TimeControl(ClockKind.MOVE, 10).describe() == "10 s a move"
    assert TimeControl.none().describe() == "no clock"
    for bad in ("", "hour:3", "move:", "move:-1", "move:inf", "game:nan", "game:1e400"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)
    for bad in ({"kind": "move", "seconds": math.inf}, {"kind": "x"}, [], {"kind": "game",
                                                                          "seconds": True}):
        with pytest.raises(ValueError):
            TimeControl.from_json(bad)
    clock = TimeControl(ClockKind.GAME, 60)
    assert TimeControl.from_json(clock.to_json()) == clock


# ----- outcomes and match rules ---------------------------------------------------------


def test_outcomes_round_trip_and_bad_ones_are_refused() -> None:
    out = Outcome(Ending.of(Termination.TIME), (1, 2), (3, 0, 5), "X ran out of time", loser=0)
    assert outcome_from_json(out.to_json(), 3) == out
    assert out.winner is None and not out.is_draw and out.won(2)
    v1 = outcome_from_json({"winner": 1, "points": [4, 9], "reason": "board full"}, 2)
    assert v1.winners == (1,) and v1.points == (4, 9)
    for bad in ({"points": [1]}, {"points": [1, 2], "winners": [2]},
                {"points": [1, 2], "winners": [0, 0]}, {"points": [1, True]},
                {"points": [1, 2], "kind": "resigned"}, {"points": [1, 2], "kind": "time"},
                {"points": [10**20, 0]}, "x"):
        with pytest.raises(ValueError):
            outcome_from_json(bad, 2)


def test_seats_rotate_each_game() -> None:
    for n in (2, 3, 5):
        for g in range(n):
            assert sorted(mark_of(p, g, n) for p in range(n)) == list(range(n))
            for p in range(n):
                assert participant_of(mark_of(p, g, n), g, n) == p
    assert [mark_of(0, g, 2) for g in range(4)] == [0, 1, 0, 1]


def test_match_points_and_plain_wins() -> None:
    rule = MatchPoints()
    # participant 0 wins game 1 as mark 0, game 2 is a draw
    assert rule.standing([win(0), win(None)], 2) == [3.0, 1.0]
    # participant 0 holds mark 1 in game 2 and wins it
    assert rule.standing([win(1), win(1)], 2) == [2.0, 2.0]
    assert rule.leaders([2.0, 2.0]) == [0, 1]
    assert PlainWins().standing([win(2, (0, 0, 9))], 3) == [0, 0, 1]
    assert PlainWins().standing([win(None)], 2) == [0.5, 0.5]
    three = SumOfMargins(length=3)
    assert three.standing([win(0, (10, 4, 1))], 3) == [6.0, -6.0, -9.0]
    assert SumOfMargins.number(6.0) == "+6" and MatchPoints.number(3.0) == "3"


def test_match_state_checks_the_rule() -> None:
    rule = SumOfMargins(length=2)
    state = MatchState.from_json({"length": 2, "index": 1, "results": [[41, 13]]}, rule, 2)
    assert state.standing() == [28.0, -28.0]
    assert state.mark_of(0) == 1 and state.participant_of(1) == 0
    assert MatchState.from_json(state.to_json(), rule, 2) == state
    assert state.standing(win(0, (10, 0))) == [18.0, -18.0]  # game 2's X is participant 1
    for bad in ({"length": 3, "index": 0, "results": []},
                {"length": 2, "index": 7, "results": []},
                {"length": 2, "index": 1, "results": [[1]]},
                {"length": 2, "index": 1, "results": [{"x": 1}]},
                {"length": 2, "index": 1, "results": []},
                {"length": 2, "index": True, "results": []}, [1]):
        with pytest.raises(ValueError):
            MatchState.from_json(bad, rule, 2)


# ----- players ------------------------------------------------------------------------------


def test_player_specs() -> None:
    assert PlayerSpec.parse(" AI ") == PlayerSpec.ai("hard")
    assert PlayerSpec.parse("ai", default_level="easy").level == "easy"
    assert PlayerSpec.parse("ai:max").text() == "ai:max"
    assert PlayerSpec.parse("human") == PlayerSpec.human()
    assert PlayerSpec.ai("medium").label() == "AI (medium)"
    assert PlayerSpec.human().label(only_human=True) == "You"
    for bad in ("", "robot", "ai:", "ai:godlike", "human:hard"):
        with pytest.raises(PlayerError):
            PlayerSpec.parse(bad)
    spec = PlayerSpec.from_json({"kind": "human", "name": "Ann\ud800\n"})
    assert spec.name == "Ann"
    assert PlayerSpec.from_json(spec.to_json()) == spec
    assert PlayerSpec.from_json({"kind": "ai"}).level == "hard"


def test_a_program_player_keeps_its_command_line_exactly() -> None:
    spec = PlayerSpec.parse("prog: python3 Bots/Mine.py --Level 3 ")
    assert spec.is_program and not spec.is_ai and not spec.is_human
    assert spec.command == "python3 Bots/Mine.py --Level 3"  # case kept, ends trimmed
    assert spec.text() == "prog:python3 Bots/Mine.py --Level 3"
    assert PlayerSpec.parse(spec.text()) == spec
    assert PlayerSpec.from_json(spec.to_json()) == spec
    assert spec.label() == "Mine.py"
    assert PlayerSpec.program("/usr/local/bin/greedy -q").label() == "greedy"
    for bad, words in [("prog:", "command line"), ("prog:a\tb", "printable"),
                       ("prog:" + "x" * 5000, "printable line")]:
        with pytest.raises(PlayerError, match=words):
            PlayerSpec.parse(bad)
    with pytest.raises(PlayerError, match="only a program"):
        PlayerSpec("ai", "hard", command="x")
