"""Other people's contest programs as players in the app (issue 12): a person against a
program, programs watched to the end, each protocol's faults on the end screen, in the
save and in programs.log, the jury's clock, and no process left behind on a timeout, an
undo or quitting. The program is the scripted tests/programs/bot.py."""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static

from rules import ClockKind, PlayerSpec, RulesError, TimeControl, get_game
from rules.outcome import Termination
from rules.pahtum import BOARD_FULL
from tests.processes import group_gone
from tui import cli
from tui.app import ArenaApp
from tui.play.session import Session
from tui.screens.dialogs import ResultScreen
from tui.screens.game import GameScreen
from tui.screens.setup import SetupScreen

SIZE = (80, 24)
HUMAN = PlayerSpec.human()
BOT = Path(__file__).resolve().parents[1] / "programs" / "bot.py"


def bot(game: str, mode: str = "random") -> PlayerSpec:
    return PlayerSpec.program(f"{shlex.quote(sys.executable)} {BOT} {game} {mode}")


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    monkeypatch.setenv("ARENA_SAVE_DIR", str(folder))
    return folder


def app_for(game: str, players, **kw) -> ArenaApp:
    options = {"blocks": "21"} if game == "pahtum" else None
    return ArenaApp(game, options=options, seed=4, players=players, clocks_running=False, **kw)


async def wait_for(pilot, condition: Callable[[], object], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        await pilot.pause(0.02)


def game_screen(app: ArenaApp) -> GameScreen:
    screen = app.game_screen()
    assert screen is not None
    return screen


def thinking_pid(screen: GameScreen) -> int | None:
    """The process (and group: each program runs in its own) of the move under way."""
    turn = screen.driver.current
    player = None if turn is None else turn.player
    proc = None if player is None else (player._proc or getattr(player, "_running", None))
    return None if proc is None else proc.pid


# ----- playing a program -----------------------------------------------------------------------
async def test_a_person_plays_a_program_that_answers_on_the_board() -> None:
    app = app_for("pahtum", [HUMAN, bot("pahtum")])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        s = screen.session
        assert not s.machine_to_move and s.has_human and s.has_program
        move = sorted(s.game.legal_moves())[0]
        screen._play(move)
        await wait_for(pilot, lambda: len(s.game.history) == 2)
        answer = s.game.history[1]
        assert not screen.board.locked
        assert screen._status == f"O played {s.game.move_text(answer)}."
        assert s.game.board[answer] == "O"  # on the board the screen draws
        assert "answered in" in str(screen.query_one("#engine").render())
        # undo goes back to the person's turn, past the program's answer
        await pilot.press("u")
        await pilot.pause()
        assert s.game.history == [] and not s.machine_to_move
        await pilot.press("ctrl+q", "q")
    assert app.services.programs == 0


async def test_two_programs_are_watched_to_the_end_at_pace_zero() -> None:
    app = app_for("pahtum", [bot("pahtum"), bot("pahtum")])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        assert screen.check_action("pace", ())  # no person plays: the pace keys apply
        await pilot.press(*["plus"] * 5)
        assert screen.pace_index == 0
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), 20.0)
        game = screen.session.game
        assert game.outcome is not None and game.outcome.ending == BOARD_FULL
        assert not game.legal_moves()
        assert app.services.programs == 0  # closed with the game


# ----- faults, one per protocol ----------------------------------------------------------------
@pytest.mark.parametrize(("game", "seat", "mode", "fault", "shown"), [
    ("pahtum", 0, "malformed", "malformed", "'hello world\\n'"),  # STDIN
    ("loaps", 1, "illegal", "illegal", None),  # FILE (a first move is never illegal)
    ("pillars", 0, "crash", "crash", None),  # SESSION: its second move
])
async def test_a_faulty_program_loses_with_its_output_on_the_end_screen_and_in_the_save(
        game: str, seat: int, mode: str, fault: str, shown: str | None,
        own_saves_folder: Path) -> None:
    players = [bot(game), bot(game)]
    players[seat] = bot(game, mode)
    app = app_for(game, players)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press(*["plus"] * 5)
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), 15.0)
        s = screen.session
        outcome = s.game.outcome
        assert outcome is not None and outcome.kind is Termination.FAULT
        assert outcome.fault == fault and outcome.loser == seat
        assert outcome.winners == (1 - seat,)
        assert outcome.output is not None
        name = s.game.seat_name(seat)
        assert outcome.reason.startswith(f"{name} (bot.py ")  # the seat and the program
        text = "\n".join(app.screen.lines)
        assert outcome.reason in text
        assert f"Fault: {fault}; its output: {repr(outcome.output)[:40]}" in text
        if shown is not None:
            assert shown in outcome.reason and repr(outcome.output) == shown
        assert "programs.log" in screen._status
        path = app.services.save_session(s, "faulty")
        result = json.loads(path.read_text())["result"]
        assert result["fault"] == fault and result["output"] == outcome.output
        assert result["kind"] == "fault"
        assert app.services.writer.flush(5.0)
        log = (own_saves_folder / "programs.log").read_text()
        assert f"game={game} seat={name}" in log and f"fault={fault}" in log
        assert f"output={outcome.output!r}" in log


async def test_a_hanging_program_loses_on_time_and_its_process_group_is_killed() -> None:
    control = TimeControl(ClockKind.MOVE, 2.0)  # long enough to see it think on a busy machine
    app = app_for("pahtum", [bot("pahtum", "hang"), HUMAN], control=control)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await wait_for(pilot, lambda: thinking_pid(screen) is not None)
        pgid = thinking_pid(screen)
        assert pgid is not None
        await wait_for(pilot, lambda: screen.session.game.is_over)
        outcome = screen.session.game.outcome
        assert outcome.kind is Termination.TIME and outcome.fault == "timeout"
        assert outcome.loser == 0 and "2.00 s" in outcome.reason
        assert group_gone(pgid)  # the program and the child it started


async def test_undo_while_a_program_thinks_kills_it() -> None:
    app = app_for("pahtum", [HUMAN, bot("pahtum", "sleep:2")])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        s = screen.session
        screen._play(sorted(s.game.legal_moves())[0])
        await wait_for(pilot, lambda: thinking_pid(screen) is not None)
        pgid = thinking_pid(screen)
        assert "bot.py (program) thinking..." in str(screen.query_one("#engine").render())
        assert screen.board.locked
        await pilot.press("u")
        await pilot.pause()
        assert s.game.history == [] and screen.driver.current is None
        assert group_gone(pgid)
        await pilot.pause(0.1)
        assert s.game.history == []  # no stale answer came


async def test_quitting_while_a_program_thinks_leaves_no_process() -> None:
    app = app_for("pahtum", [bot("pahtum", "sleep:5"), HUMAN])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await wait_for(pilot, lambda: thinking_pid(screen) is not None)
        pgid = thinking_pid(screen)
        app.quit_now()
        await pilot.pause()
    assert pgid is not None and group_gone(pgid)
    assert app.services.programs == 0


async def test_a_whole_game_program_that_cannot_take_back_refuses_the_undo() -> None:
    app = app_for("pillars", [HUMAN, bot("pillars")])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        s = screen.session
        for plies in (2, 4):
            screen._play(sorted(s.game.legal_moves(), key=str)[0])
            await wait_for(pilot, lambda plies=plies: len(s.game.history) == plies)
        # back before its second move: it cannot take a move back, nor join afresh
        await pilot.press("u")
        await pilot.pause()
        assert len(s.game.history) == 4
        assert screen._status.startswith("Cannot undo: bot.py is a whole-game program")
        await pilot.press("ctrl+q", "q")


async def test_a_command_that_does_not_start_loses_the_game() -> None:
    app = app_for("pahtum", [PlayerSpec.program("/nonexistent/bot"), HUMAN])
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen))
        outcome = game_screen(app).session.game.outcome
        assert outcome.fault == "start" and "did not start" in outcome.reason


# ----- the setup screen and the command line ------------------------------------------------
async def test_the_setup_screen_takes_a_program_and_refuses_a_bad_command() -> None:
    app = ArenaApp(clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        app.switch_screen(SetupScreen("pahtum", app.services))
        await pilot.pause()
        screen = app.screen
        field = screen.query_one("#command-1", Input)
        assert not field.display
        screen.query_one("#player-1", Select).value = "prog"
        await pilot.pause()
        assert field.display and field.region.y == screen.query_one("#player-1").region.y
        status = screen.query_one("#status", Static)
        for command, words in [("", "give the command line"),
                               ("no-such-program-xyz --fast", "not a command on the PATH")]:
            field.value = command
            screen.action_start()
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            assert words in str(status.render()) and field.has_focus
        field.value = f"{sys.executable} {BOT} pahtum random"
        screen.action_start()
        await wait_for(pilot, lambda: app.game_screen() is not None)
        s = game_screen(app).session
        assert s.participants[1].command == field.value
        assert app.services.setup_choices("pahtum")["command-1"] == field.value
        await pilot.press("ctrl+q", "q")


def test_arena_play_refuses_a_program_that_does_not_start() -> None:
    cls = get_game("pahtum")
    with pytest.raises(RulesError, match="--o: 'no-such-program-xyz' is not a command"):
        cli._players(cls, None, None, "prog:no-such-program-xyz", "hard", {})
    players = cli._players(cls, None, f"prog:{sys.executable} {BOT} pahtum", "ai:easy", "hard",
                           {})
    assert players[0].is_program and players[1].is_ai


def test_undo_against_a_program_goes_back_to_the_persons_turn() -> None:
    s = Session.new("pahtum", [HUMAN, bot("pahtum")], {"blocks": "21"}, seed=4)
    assert not s.machine_to_move and s.label(0) == "You" and s.label(1) == "bot.py"
    moves = sorted(s.game.legal_moves())
    s.play(moves[0])
    assert s.program_to_move and s.machine_to_move and not s.ai_to_move
    s.play(moves[1])
    assert s.undo() == [moves[1], moves[0]]
    assert s.redo() == [moves[0], moves[1]]  # back to the person's turn
