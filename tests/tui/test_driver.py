"""The turn driver without a screen: any game between any players, with a fake clock.

Every place a game is played goes through `tui.play.driver.Driver`; these tests play
whole games with it and no Textual at all: built-in and AI players, a program's fault,
the pause of a watched game (nobody's time), undo refused where a whole-game program
could not follow, and an older revision's engine (`rev:REV:LEVEL`).
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest

from ai.strength import start_position
from rules import MoveError, PlayerSpec, TimeControl, game_names, get_game
from rules.outcome import Termination
from rules.pousse import REPETITION
from tui.play.driver import Driver
from tui.play.players import Computed, Player, Verdict
from tui.play.seats import make_player
from tui.play.session import Session

RANDOM, GREEDY = PlayerSpec.parse("random"), PlayerSpec.parse("greedy")
BOT = Path(__file__).resolve().parents[1] / "programs" / "bot.py"


class Now:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def driver_for(game, specs, control=None, now=None, rng=None, pace=0.0):  # noqa: ANN001, ANN201
    rng = rng or random.Random(1)
    session = Session(game, specs, control=control, now=now or Now())
    return Driver(session, lambda spec: make_player(spec, type(game), rng=rng), pace=pace)


def test_every_game_plays_to_its_end_between_built_in_players(game_name: str) -> None:
    cls = get_game(game_name)
    game = start_position(cls, {}, seed=2)
    specs = [RANDOM, GREEDY, *[RANDOM] * (game.players - 2)]
    outcome = driver_for(game, specs).play_game()
    assert outcome is not None and game.is_over


def test_pousse_games_end_by_repetition_or_straights_never_a_draw() -> None:
    kinds = set()
    for seed in range(24):
        game = start_position(get_game("pousse"), {"size": 4}, seed)
        outcome = driver_for(game, [RANDOM, RANDOM], rng=random.Random(seed)).play_game()
        assert not outcome.is_draw
        kinds.add(outcome.ending)
    assert REPETITION in kinds


def test_a_watched_games_pause_is_nobodys_time() -> None:
    """A 1 s clock and a 5 s pause before each move: nobody flags."""
    now = Now()
    game = get_game("pahtum").new({"blocks": "25"}, seed=1)
    driver = driver_for(game, [RANDOM, RANDOM], control=TimeControl.parse("move:1"), now=now,
                        pace=5.0)
    waited: list[float] = []

    def wait(seconds: float) -> None:
        waited.append(seconds)
        now.t += seconds

    outcome = driver.play_game(wait=wait)
    assert outcome.kind is not Termination.TIME and len(waited) == len(game.history) - 1
    assert max(driver.session.clock.moves) < 1.0


class Slow(Player):
    """A player that thinks `seconds` on the fake clock."""

    def __init__(self, now: Now, seconds: float) -> None:
        self.now, self.seconds = now, seconds

    def move(self, game, clock, stop=None, info=None) -> Verdict:  # noqa: ANN001
        self.now.t += self.seconds
        return Verdict(game.legal_moves()[0], self.seconds)


def test_a_player_over_its_clock_loses_on_time() -> None:
    now = Now()
    game = get_game("pahtum").new({"blocks": "25"}, seed=1)
    session = Session(game, [RANDOM, RANDOM], control=TimeControl.parse("move:1"), now=now)
    driver = Driver(session, lambda spec: Slow(now, 1.5))
    outcome = driver.play_game()
    assert outcome.kind is Termination.TIME and outcome.loser == 0


def test_a_machine_is_charged_its_own_time_not_the_boards_wait() -> None:
    """A 1 s clock; the machine thinks 0.2 s, then the board (drawing, a busy machine)
    takes 2 s to take its answer: the move stands, charged 0.2 s."""
    now = Now()
    game = get_game("pahtum").new({"blocks": "25"}, seed=1)
    session = Session(game, [RANDOM, RANDOM], control=TimeControl.parse("move:1"), now=now)
    driver = Driver(session, lambda spec: Slow(now, 0.2))
    turn = driver.turn()
    assert turn is not None and driver.begin(turn)
    verdict = driver.run(turn)
    now.t += 2.0
    assert driver.settle(turn, verdict)
    assert not game.is_over and len(game.history) == 1
    assert session.clock.moves == [pytest.approx(0.2)]


def test_a_programs_fault_ends_the_game_with_its_output() -> None:
    game = get_game("pahtum").new({"blocks": "25"}, seed=1)
    bad = PlayerSpec.program(f"{sys.executable} {BOT} pahtum malformed")
    driver = driver_for(game, [RANDOM, bad], control=TimeControl.parse("move:10"))
    outcome = driver.play_game()
    assert outcome.kind is Termination.FAULT and outcome.fault == "malformed"
    assert outcome.loser == 1 and "hello world" in (outcome.output or "")


def test_a_person_is_not_asked_by_a_headless_game() -> None:
    game = get_game("pahtum").new({"blocks": "25"}, seed=1)
    driver = driver_for(game, [PlayerSpec.human(), RANDOM])
    with pytest.raises(MoveError, match="person"):
        driver.play_game()
    driver.submit(game.legal_moves()[0])
    assert driver.turn() is not None  # the random player's turn


def test_undo_refuses_what_a_whole_game_program_cannot_follow() -> None:
    game = get_game("pillars").new({}, seed=2)
    prog = PlayerSpec.program(f"{sys.executable} {BOT} pillars random")
    driver = driver_for(game, [PlayerSpec.human(), prog])
    try:
        for _ in range(2):  # the person, the program, the person, the program, the person
            driver.submit(next(m for m in game.legal_moves() if not m[4]))
            turn = driver.turn()
            assert turn is not None and driver.begin(turn)
            assert driver.settle(turn, driver.run(turn))
        driver.submit(next(m for m in game.legal_moves() if not m[4]))
        assert driver.undo_problem() is None and len(driver.undo()) == 1  # the person's
        # the next would take back the program's second move, which it cannot: back to
        # before its first move would be fine (a new process starts)
        assert driver.undo_problem() is not None
        with pytest.raises(MoveError, match="whole-game program"):
            driver.undo()
    finally:
        driver.close()


def test_a_computed_player_is_one_class() -> None:
    first = Computed(lambda game: game.legal_moves()[0])
    game = get_game("pahtum").new({"blocks": "25"}, seed=1)
    session = Session(game, [RANDOM, RANDOM])
    outcome = Driver(session, lambda spec: first).play_game()
    assert outcome is not None


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_an_older_revisions_engine_plays_legal_moves() -> None:
    game = start_position(get_game("pahtum"), {"blocks": "25"}, seed=3)
    old = PlayerSpec("rev", "easy", revision="HEAD", seconds=0.02)
    driver = driver_for(game, [old, RANDOM])
    played = []
    outcome = driver.play_game(on_move=lambda turn, verdict: played.append(verdict.move))
    assert outcome is not None and len(played) >= 3


def test_the_games_are_the_registered_ones() -> None:
    assert set(game_names()) == {"pahtum", "loaps", "pillars", "boxing", "pousse"}
