"""Clocks in the app are charged only for thinking: a watched game's pause between moves
is nobody's time, the wait for the kernels to compile is not a person's when they asked
for a hint, nor are the save, load and export dialogs, and the engine panel says how far
a compile has got."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import PlayerSpec, TimeControl, game_names
from rules.outcome import Termination
from tests.tui.test_app import (
    HUMAN,
    FakeClock,
    app_for,
    nearest,
    play_by_keys,
    seats,
    text_of,
    wait_engine,
)
from tui.messages import EngineReady
from tui.screens.game import PACES
from tui.services import Compiling
from tui.widgets.panels import EnginePanel

SIZE = (80, 24)
MOVE_1 = TimeControl.parse("move:1")


async def test_a_watched_games_pause_is_not_charged_to_the_ai(tmp_path: Path) -> None:
    """The pause before a watched AI's move (here 2 s of a 1 s clock) is nobody's. The
    real pause is 2 s, so that a busy machine still sees the first move alone."""
    name = game_names()[0]
    now = FakeClock()
    easy = PlayerSpec.ai("easy")
    app = app_for(name, [easy, easy], control=MOVE_1, now=now, ai_seconds=0.05,
                  save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        s = screen.session
        screen.pace_index = PACES.index(2.0)
        await wait_engine(app, pilot, name)
        for _ in range(200):  # the first move (no pause before it)
            await pilot.pause(0.02)
            if s.game.history:
                break
        assert len(s.game.history) == 1
        now.t += 2.0  # the pause runs 2 s on the game's clock (the timer is real)
        screen._tick()  # the clock's tick during the pause: no flag, the AI's clock stands
        assert not s.game.is_over and s.clock_left(s.to_move) == 1.0
        for _ in range(400):
            await pilot.pause(0.02)
            if len(s.game.history) >= 2 or s.game.is_over:
                break
        outcome = s.game.outcome
        assert outcome is None or outcome.kind is not Termination.TIME, outcome
        assert len(s.game.history) >= 2


@pytest.mark.parametrize("ready_first", [False, True])
async def test_a_hint_waiting_for_the_kernels_does_not_charge_the_person(
        monkeypatch: pytest.MonkeyPatch, ready_first: bool) -> None:
    """The wait is nobody's, but the 20 s thought before the hint stay the person's, and
    the clock runs on from them once the kernels are ready (it was put back to the move's
    start: a clock that jumped up by the time already thought)."""
    name = game_names()[0]
    now = FakeClock()
    app = app_for(name, seats(name, PlayerSpec.ai("easy")), control=TimeControl.parse(
        "game:300"), now=now)
    monkeypatch.setattr(app.services, "prepare_engine", lambda name: None)
    ready = [False]
    monkeypatch.setattr(app.services, "engine_ready", lambda name: ready[0])
    monkeypatch.setattr(app.services, "engine_error", lambda name: None)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        s = screen.session
        now.t += 20.0  # thinking
        screen._tick()
        await pilot.press("h")
        for _ in range(3):  # 90 s of compiling, seen by the clock's tick
            now.t += 30
            screen._tick()
        assert 19.5 < s.clock_spent(s.to_move) < 20.5
        assert "your clock waits" in screen._status
        thought = 20.0
        if ready_first:
            ready[0] = True
            monkeypatch.setattr(screen, "_ask", lambda request: None)  # not the hint itself
            screen.on_engine_ready(EngineReady(name, None))
            now.t += 5.0  # thinking on after the hint
            screen._tick()
            thought += 5.0
            assert thought - 0.5 < s.clock_spent(s.to_move) < thought + 0.5
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        assert thought - 0.5 < s.clock.used[0] < thought + 0.5


@pytest.mark.parametrize("key", ["s", "l", "e"])
async def test_a_file_dialog_does_not_charge_the_person(tmp_path: Path, key: str) -> None:
    name = game_names()[0]
    now = FakeClock()
    app = app_for(name, control=TimeControl.parse("game:300"), now=now,
                  clocks_running=True, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        s = screen.session
        now.t += 2.0  # thinking: charged
        await pilot.press(key)
        await pilot.pause()
        assert app.screen is not screen  # the dialog
        now.t += 60.0  # the dialog open a minute: not charged
        assert 1.5 < s.clock_spent(s.to_move) < 2.5
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and not s.clock_paused
        now.t += 1.0
        assert 2.5 < s.clock_spent(s.to_move) < 3.5


async def test_a_terminal_too_small_for_the_board_stops_the_person_s_clock(
        tmp_path: Path) -> None:
    """While the board is hidden ("Arena needs 80x24") a person cannot play, so their clock
    stands; it runs on from where it stood once the board shows, and a person's turn that
    begins while the board is hidden (a move played blind) waits too."""
    name = game_names()[0]
    now = FakeClock()
    app = app_for(name, control=TimeControl.parse("game:300"), now=now, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        s = screen.session
        now.t += 5.0  # thinking with the board in sight: charged
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert screen.too_small
        now.t += 30.0  # the board hidden: not charged
        screen._tick()
        assert 4.5 < s.clock_spent(0) < 5.5 and not s.game.is_over
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        now.t += 2.0
        assert 6.5 < s.clock_spent(0) < 7.5
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await play_by_keys(pilot, screen.board, nearest(screen.board))  # blind
        assert len(s.game.history) == 1 and 6.5 < s.clock.used[0] < 7.5
        now.t += 40.0  # the second person's turn, begun with the board hidden
        screen._tick()
        assert s.clock_spent(1) < 0.5
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        now.t += 3.0
        assert 2.5 < s.clock_spent(1) < 3.5


async def test_the_compile_progress_shows_while_the_person_thinks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine panel follows the build while the person to move thinks (their clock
    runs: they are not waiting for the AI), but not over news of a turn."""
    name = game_names()[0]
    now = FakeClock()
    app = app_for(name, seats(name, PlayerSpec.ai("easy")), control=TimeControl.parse(
        "game:300"), now=now)
    monkeypatch.setattr(app.services, "prepare_engine", lambda name: None)
    monkeypatch.setattr(app.services, "engine_ready", lambda name: False)
    step = ["starting"]
    monkeypatch.setattr(app.services, "compile_progress", lambda name: f"compiling: {step[0]}")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        s = screen.session
        panel = screen.query_one(EnginePanel)
        await pilot.pause()
        assert "compiling: starting" in text_of(panel)
        step[0] = "building"
        now.t += 30
        screen._tick()
        await pilot.pause()
        assert "compiling: building" in text_of(panel)
        assert 29 < s.clock_spent(s.to_move) < 31  # the person thinks: charged
        screen._engine_line("Blue (program) answered in 0.20 s")
        step[0] = "linking"
        screen._tick()
        await pilot.pause()
        assert "answered" in text_of(panel)


async def test_a_hint_in_a_game_between_people_shows_the_build(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without an AI seat the panel says so, until a hint waits for the kernels: then it
    follows their build like an AI seat's."""
    name = game_names()[0]
    app = app_for(name)
    monkeypatch.setattr(app.services, "prepare_engine", lambda name: None)
    monkeypatch.setattr(app.services, "engine_ready", lambda name: False)
    monkeypatch.setattr(app.services, "compile_progress", lambda name: "compiling: 40%")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        panel = screen.query_one(EnginePanel)
        assert not screen.session.has_ai
        await pilot.pause()
        assert "no AI in this game" in text_of(panel)
        await pilot.press("h")
        await pilot.pause()
        assert "compiling: 40%" in text_of(panel)


def test_the_compile_progress_says_how_far_and_how_long() -> None:
    progress = Compiling("pahtum", estimate=20.0, began=100.0, step="building")
    text = progress.describe(105.0)
    assert text.startswith("compiling the Pah-Tum AI (once): 25%, about 15 s left")
    assert text.endswith("building")
    assert "nearly done" in progress.describe(125.0) and "99%" in progress.describe(125.0)


async def test_ctrl_z_stands_a_persons_clock_and_waits_for_a_machines_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+Z suspends the app (Textual sends the process SIGTSTP: here recorded). While
    the AI thinks it waits for its move (a stopped process cannot answer, and the stop
    would count on its clock); on a person's turn it suspends at once, and their clock
    stands until the app is resumed."""
    import threading

    import textual.app

    suspended: list[int] = []
    monkeypatch.setattr(textual.app.App, "action_suspend_process",
                        lambda self: suspended.append(len(self.game_screen().session.game.history)))
    name = game_names()[0]
    now = FakeClock()
    app = app_for(name, seats(name, HUMAN, first=PlayerSpec.ai("easy")),
                  control=TimeControl.parse("game:300"), now=now, save_dir=tmp_path)
    go = threading.Event()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        s = screen.session
        ask = screen.driver.run
        monkeypatch.setattr(screen.driver, "run",
                            lambda *args: go.wait(60) and ask(*args))
        await wait_engine(app, pilot, name)
        for _ in range(500):  # the AI's turn under way
            await pilot.pause(0.02)
            if screen.driver.current is not None:
                break
        assert screen.driver.current is not None and not s.game.history
        await pilot.press("ctrl+z")
        assert suspended == [] and screen._status.startswith("Ctrl+Z: suspending once")
        go.set()
        for _ in range(500):
            await pilot.pause(0.02)
            if suspended:
                break
        assert suspended == [1] and s.clock_paused  # after its move, the person's clock stood
        now.t += 100.0  # in the shell
        app.app_resume_signal.publish(app)
        await pilot.pause()
        assert not s.clock_paused and s.elapsed() == 0.0
        now.t += 7.0  # thinking, back in the game
        await pilot.press("ctrl+z")
        assert suspended == [1, 1] and s.clock_paused
        now.t += 50.0
        app.app_resume_signal.publish(app)
        await pilot.pause()
        assert s.elapsed() == 7.0 and s.clock_left(s.to_move) == 293.0
