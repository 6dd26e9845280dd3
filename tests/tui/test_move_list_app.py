"""The walkable move list on screen (tui/widgets/move_list.py), through Pilot at 80x24:
in a game, `[`/`]`, home/end, the list's own keys and a click show an earlier position
while the game waits; a move there starts a new line that replaces the old one only once
confirmed; in a replay the list drives the step; and the replay's `c` asks who plays each
seat before the new game starts. Then snapshots of a game looking back and of that
question."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import PlayerSpec
from tests.tui.test_app import (
    app_for,
    nearest,
    own_saves_folder,  # noqa: F401 - the fixture
    play_by_keys,
    seats,
)
from tests.tui.test_replay import ANN, finished, open_replay, saved
from tui.app import ArenaApp
from tui.messages import OpenReplay
from tui.screens.dialogs import ChoiceDialog, ProgramsDialog
from tui.screens.game import GameScreen
from tui.screens.replay import ReplayScreen
from tui.screens.seat_picker import SeatsDialog
from tui.widgets.move_list import MoveList
from tui.widgets.panels import PlayersPanel

SIZE = (80, 24)


FIRST_MOVE = (1 + 1 + 4, 1)  # the first move's text in the moves panel: after its border
# and padding, then "nn. "; on its first row, under the top border


@pytest.mark.parametrize("name", ["pahtum", "loaps", "pillars", "boxing", "pousse"])
async def test_looking_back_and_a_new_line_by_keys(name: str) -> None:
    app = app_for(name, seats(name, first=PlayerSpec.human("Ann")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        s, driver = screen.session, screen.driver
        for _ in range(3):
            await play_by_keys(pilot, screen.board, nearest(screen.board))
        old = list(s.game.history)
        assert len(old) == 3
        await pilot.press("left_square_bracket", "left_square_bracket")
        assert driver.viewing == 1 and screen.board.game.history == old[:1]
        assert screen.title_line[1] == "looking at move 1 of 3"
        # the players panel shows that position's scores and turn, not the game's
        viewed = s.position_at(1)
        lines = str(screen.query_one(PlayersPanel).render()).split("\n")
        for mark, score in enumerate(viewed.scores()):
            assert f" {score:>3} " in lines[mark]
            assert lines[mark].startswith("▶") == (mark == viewed.to_move)
        await pilot.press("right_square_bracket")
        assert driver.viewing == 2 and s.game.history == old  # the game itself waits
        await play_by_keys(pilot, screen.board, nearest(screen.board))  # a new line
        assert isinstance(app.screen, ChoiceDialog)
        assert "Replace the moves after move 2?" in app.screen.title_text
        await pilot.press("escape")  # play on in the new line, decide later
        await pilot.pause()
        assert s.old_line is not None and s.game.history[:2] == old[:2]
        assert "old line: 1 more after move 2" in str(screen.query_one(MoveList).render())
        await pilot.press("k")
        await pilot.pause()
        await pilot.press("o")  # back to the old line
        await pilot.pause()
        assert s.old_line is None and s.game.history == old and screen.board.game is s.game


async def test_a_click_and_the_lists_keys_in_a_game_then_replace() -> None:
    app = app_for("pahtum")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        s, driver = screen.session, screen.driver
        for _ in range(5):
            await play_by_keys(pilot, screen.board, nearest(screen.board))
        old = list(s.game.history)
        await pilot.click("#moves", offset=FIRST_MOVE)
        await pilot.pause()
        assert driver.viewing == 1 and screen.board.game.history == old[:1]
        assert screen.query_one(MoveList).has_focus
        await pilot.press("home")
        assert driver.viewing == 0
        await pilot.press("down", "right")  # a round (two moves), then one move
        assert driver.viewing == 3
        await pilot.press("end")
        assert driver.viewing is None and screen.board.game is s.game
        await pilot.press("left", "left", "left")
        assert driver.viewing == 2
        moves = screen.query_one(MoveList)
        moves.action_step(1)  # two keys before the screen answers the first
        moves.action_step(1)
        await pilot.pause()
        assert driver.viewing == 4
        await pilot.press("left", "left")
        await pilot.press("tab")  # back to the board, a move there
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        await pilot.press("r")  # replace the moves after move 2
        await pilot.pause()
        assert s.old_line is None and len(s.game.history) == 3
        assert s.game.history[:2] == old[:2] and s.game.history[2] != old[2]


async def test_the_replay_list_drives_the_step(tmp_path: Path) -> None:
    app = ArenaApp(load=saved(finished(), tmp_path), save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_replay(app, pilot)
        moves = screen.query_one(MoveList)
        assert moves.has_focus  # the board takes no focus in a replay
        await pilot.click("#moves", offset=FIRST_MOVE)
        await pilot.pause()
        assert screen.k == 1 and moves.line.current == 1
        await pilot.press("down", "down", "right")  # two rounds and a move
        assert screen.k == 6
        await pilot.press("left", "p")  # the replay's own step keys too
        assert screen.k == 4
        await pilot.press("end")
        assert screen.k == screen.total
        # keys faster than the screen answers (a held key): each counts, none is lost
        moves.action_step(-1)
        moves.action_step(-1)
        moves.action_round(-1)
        await pilot.pause()
        assert screen.k == screen.total - 4 and moves.line.current == screen.k


async def test_continue_asks_the_seats_and_starts_a_person_against_the_ai(
        tmp_path: Path) -> None:
    app = ArenaApp(load=saved(finished(), tmp_path), save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        await pilot.press("home", *["right"] * 4, "c")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, SeatsDialog)
        assert [str(dialog.query_one(f"#player-{i}").value) for i in (0, 1)] == [
            "human", "human"]
        dialog.query_one("#player-1").value = "ai:easy"
        await pilot.press("ctrl+s")
        await pilot.pause()
        new = app.screen
        assert isinstance(new, GameScreen) and not isinstance(new, ReplayScreen)
        assert new.session.players_by_mark == (ANN, PlayerSpec.ai("easy"))
        assert len(new.session.game.history) == 4 and new.session.player(0) == ANN


async def test_escape_in_the_seat_question_keeps_the_replay(tmp_path: Path) -> None:
    app = ArenaApp(load=saved(finished(), tmp_path), save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_replay(app, pilot)
        await pilot.press("home", "right", "c")
        await pilot.pause()
        dialog = app.screen
        dialog.query_one("#player-0").value = "prog"
        await pilot.press("ctrl+s")  # no command: one line under the seat, nothing starts
        await pilot.pause()
        assert app.screen is dialog and "give the command line" in str(
            dialog.query_one("#error-0").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


def test_snapshot_of_a_game_looking_back(snap_compare) -> None:
    app = ArenaApp("pahtum", options={"blocks": "7"}, seed=11, clocks_running=False,
                   now=lambda: 0.0, players=(PlayerSpec.human("Ann"), PlayerSpec.human("Bob")))
    # X D4, O C4, X D5, O C5, X D3, then back two moves: the position after move 3
    keys = ["enter", "up", "enter", "down", "right", "enter", "up", "enter",
            "down", "left", "left", "enter", "left_square_bracket", "left_square_bracket"]
    assert snap_compare(app, press=keys, terminal_size=SIZE)


def test_snapshot_of_the_seat_question(snap_compare, tmp_path: Path) -> None:
    path = saved(finished(), tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)

    async def ask(pilot) -> None:
        await open_replay(app, pilot)
        await pilot.press("home", *["right"] * 4, "c")
        await pilot.pause()

    assert snap_compare(app, run_before=ask, terminal_size=SIZE)


async def test_a_recorded_program_is_asked_about_and_a_typed_one_is_not(
        tmp_path: Path) -> None:
    bot = PlayerSpec.program("python3 bot.py")
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        app.post_message(OpenReplay(finished(players=(ANN, bot))))  # (a record's game)
        await pilot.pause()
        await pilot.press("home", *["right"] * 4, "c")
        await pilot.pause()
        await pilot.press("ctrl+s")  # the recorded program: its command is shown first
        await pilot.pause()
        assert isinstance(app.screen, ProgramsDialog)
        await pilot.press("escape")  # nothing starts
        await pilot.pause()
        assert not isinstance(app.screen, GameScreen)
        app.post_message(OpenReplay(finished(players=(ANN, bot))))
        await pilot.pause()
        await pilot.press("home", *["right"] * 4, "c")
        await pilot.pause()
        app.screen.query_one("#command-1").value = "python3 mine.py"  # typed here: the
        await pilot.press("ctrl+s")  # person's own, as on the setup screen
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.player(1).command == "python3 mine.py"
