"""LOAPS in a session: the cumulative clocks (a fake clock, no waiting), a native file's
seconds left, saves and exports that keep clocks, points and move numbers, the match."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import ClockKind, PlayerSpec, Termination, TimeControl
from rules.clock import RESERVE_PER_MOVE
from rules.loaps import Loaps
from tests.rules.test_loaps import SAMPLES
from tui.play.session import Session
from tui.services import Services

HUMAN, AI = PlayerSpec.human(), PlayerSpec.ai("hard")
FIVE_MIN = TimeControl(ClockKind.GAME, 300.0)


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_offered_controls_put_a_persons_clock_first_and_keep_the_contests() -> None:
    offered = Loaps.offered_time_controls()
    assert offered[0] == FIVE_MIN
    assert TimeControl(ClockKind.GAME, 60.0) in offered and TimeControl.none() in offered
    assert TimeControl(ClockKind.GAME, 900.0) in offered


def test_each_clock_runs_only_on_its_turn_and_running_out_loses() -> None:
    now = FakeClock()
    s = Session(Loaps.new(), (HUMAN, HUMAN), control=TimeControl(ClockKind.GAME, 60.0), now=now)
    now.t += 7.5
    assert s.clock_left(0) == 52.5 and s.clock_left(1) == 60.0  # red's clock runs
    s.play(s.game.parse_move("b7 b5"))
    now.t += 20.0
    assert s.clock_left(0) == 52.5 and s.clock_left(1) == 40.0  # now blue's
    s.play(s.game.legal_moves()[0])
    now.t += 52.6  # red thinks past what it has left
    assert s.check_time()
    outcome = s.game.outcome
    assert outcome is not None and outcome.kind is Termination.TIME
    assert outcome.winners == (1,) and s.clock_left(0) == 0.0


def test_a_native_file_continues_with_the_seconds_it_gives() -> None:
    s = Session(Loaps.from_native(SAMPLES[2]), (HUMAN, HUMAN), now=FakeClock())
    assert s.control == TimeControl(ClockKind.GAME, 60.0)  # the contest's control
    assert s.clock_left(0) == pytest.approx(8.91) and s.clock_left(1) == pytest.approx(40.7)
    chosen = Session(Loaps.from_native(SAMPLES[2]), (HUMAN, HUMAN), control=FIVE_MIN,
                     now=FakeClock())
    assert chosen.clock_left(1) == 300.0  # a control chosen by a person wins


def test_the_ai_shares_its_clock_over_the_moves_left_before_the_limit() -> None:
    # blue has 40.7 s for at most 23 more moves (50 - 27), planned as at least a sixth
    # of them (3), once each of the 22 after this one is kept its RESERVE_PER_MOVE, less
    # the clock's safety share
    s = Session(Loaps.from_native(SAMPLES[2]), (HUMAN, AI), now=FakeClock())
    assert s.game.moves_left_estimate(1) == 3 and s.game.moves_left_most(1) == 23
    assert s.request().seconds == pytest.approx((40.7 - 22 * RESERVE_PER_MOVE) / 3 * 0.8 - 0.05)
    assert Loaps.new().moves_left_estimate(0) == 8  # a typical game, not all 50


def test_save_and_load_keep_clocks_points_move_numbers_and_the_match(tmp_path: Path) -> None:
    now = FakeClock()
    services = Services(lambda message: None, save_dir=tmp_path, now=now)
    s = Session(Loaps.from_native(SAMPLES[2]), (HUMAN, HUMAN), now=now)
    rng = random.Random(3)
    for _ in range(4):
        now.t += 1.25
        s.play(rng.choice(s.game.legal_moves()))
    path = services.save_session(s, "mid")
    loaded = services.load_session(path)
    assert loaded.game.key() == s.game.key()
    assert loaded.game.made == s.game.made == [30, 29]
    assert loaded.game.scores() == s.game.scores()
    for mark in (0, 1):
        assert loaded.clock_left(mark) == s.clock_left(mark)
    assert loaded.game.start_native() == s.game.start_native()  # the file's start, clocks too


def test_the_match_standing_survives_a_save(tmp_path: Path) -> None:
    now = FakeClock()
    services = Services(lambda message: None, save_dir=tmp_path, now=now)
    s = Session(Loaps.new(), (HUMAN, PlayerSpec.human("Bo")), control=FIVE_MIN, now=now)
    rng = random.Random(5)
    while not s.game.is_over:
        s.play(rng.choice(s.game.legal_moves()))
    first = s.standing()
    outcome = s.game.outcome
    assert outcome is not None
    assert first == ([1.0, 1.0] if outcome.is_draw else
                     [2.0 if outcome.won(0) else 0.0, 2.0 if outcome.won(1) else 0.0])
    s.next_game()
    assert s.mark_of(0) == 1  # the return game: the other side moves first
    loaded = services.load_session(services.save_session(s, "match"))
    assert loaded.match.index == 1 and loaded.standing() == first
    assert loaded.clock_left(0) == 300.0


def test_export_writes_the_clocks_into_the_native_file(tmp_path: Path) -> None:
    now = FakeClock()
    services = Services(lambda message: None, save_dir=tmp_path, now=now)
    s = Session(Loaps.new(), (HUMAN, HUMAN), control=TimeControl(ClockKind.GAME, 60.0), now=now)
    now.t += 12.5
    s.play(s.game.parse_move("b7 b5"))
    now.t += 3.0
    path = services.export_position(s, "pos")
    lines = path.read_text().splitlines()
    assert lines[:3] == ["2 1", "1 0 47.50", "2 0 57.00"]
    again = Loaps.from_native(path.read_text())
    assert again.key() == s.game.key() and again.seconds_left == (47.5, 57.0)
    untimed = Session(Loaps.new(), (HUMAN, HUMAN), control=TimeControl.none(), now=now)
    lines = services.export_position(untimed, "free").read_text().splitlines()
    assert lines[1:3] == ["1 0 60.00", "2 0 60.00"]  # no limit: a fresh contest clock
