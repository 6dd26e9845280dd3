"""The position editor through Pilot: from the menu, place letters until the rules object,
fix the position and play from it; save and export it; open it over a game, which it
leaves as it was, and start a new game from there; the grid's cells grow with the
terminal and a click finds its cell."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, OptionList, Select, Static

from rules import PlayerSpec
from saves.store import read_native
from tests.tui.test_app import own_saves_folder  # noqa: F401 - the fixture
from tui.app import ArenaApp
from tui.screens.editor import EditorScreen
from tui.screens.editor_dialogs import SeatsDialog
from tui.screens.game import GameScreen

SIZE = (80, 24)


async def settle(pilot) -> None:
    for _ in range(3):
        await pilot.pause()


def status(app: ArenaApp) -> str:
    return str(app.screen.query_one("#status", Static).render())


async def open_editor(app: ArenaApp, pilot, game_name: str) -> EditorScreen:
    """The menu's `d`, then the game in the picker."""
    await settle(pilot)
    await pilot.press("d")
    await settle(pilot)
    picker = app.screen.query_one("#games", OptionList)
    picker.highlighted = next(i for i in range(picker.option_count)
                              if picker.get_option_at_index(i).id == game_name)
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, EditorScreen)
    return app.screen


async def play_as_people(app: ArenaApp, pilot) -> GameScreen:
    await pilot.press("p")
    await settle(pilot)
    dialog = app.screen
    assert isinstance(dialog, SeatsDialog)
    for select in dialog.query(Select).results(Select):
        if (select.id or "").startswith("seat-"):
            select.value = "human"
    await pilot.click("#ok")
    await settle(pilot)
    assert isinstance(app.screen, GameScreen)
    return app.screen


async def test_place_letters_see_the_rules_object_fix_and_play(tmp_path) -> None:
    app = ArenaApp(save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await open_editor(app, pilot, "pahtum")
        assert status(app) == "Legal: X to move."
        await pilot.press("3", "enter", "right", "enter")  # X on D4 and D5
        await settle(pilot)
        assert status(app) == "Not legal: 2 X and 0 O: X must equal O or be one more"
        await pilot.press("p")  # refused: the reason again, no dialog
        await settle(pilot)
        assert isinstance(app.screen, EditorScreen)
        assert status(app) == "Cannot play: 2 X and 0 O: X must equal O or be one more"
        await pilot.press("4", "enter")  # D5 an O
        await settle(pilot)
        assert status(app) == "Legal: X to move."
        await pilot.press("u")  # undo: two X again
        await settle(pilot)
        assert status(app).startswith("Not legal")
        await pilot.press("enter")
        screen = await play_as_people(app, pilot)
        game = screen.session.game
        assert game.to_native().splitlines()[3] == "---XO--"
        assert game.to_move == 0 and all(p.kind == "human" for p in screen.session.participants)


async def test_save_and_export_keep_the_fields(tmp_path) -> None:
    app = ArenaApp(save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot, "loaps")
        screen.query_one("#field-points1", Input).value = "99"
        await settle(pilot)
        assert status(app) == ("Not legal: player 1 (red) has 99 points after 0 moves: at most 0 "
                               "are possible")
        screen.query_one("#field-points1", Input).value = "0"
        screen.query_one("#field-seconds2", Input).value = "42.5"
        screen.query_one("#field-mover", Select).value = "2"
        await settle(pilot)
        assert status(app) == "Legal: blue to move."
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("enter")  # the dialog's default name
        await settle(pilot)
        assert "Saved to" in status(app)
        await pilot.press("e")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert "Exported the position to" in status(app)
    saves = sorted(Path(tmp_path).iterdir())
    native = next(p for p in saves if not p.name.endswith(".arena.json"))
    game = read_native(native)
    assert game.to_move == 1 and game.seconds_left == (60.0, 42.5)
    saved = next(p for p in saves if p.name.endswith(".arena.json"))
    assert app.services.load_session(saved).game.to_native() == game.to_native()


def pousse_between_people(folder: Path) -> ArenaApp:
    """The app on a Pousse game between two people (no engine to load)."""
    people = [PlayerSpec.human(), PlayerSpec.human()]
    return ArenaApp("pousse", players=people, save_dir=folder, clocks_running=False,
                    now=lambda: 0.0)


async def test_over_a_game_escape_leaves_it_and_play_replaces_it(tmp_path) -> None:
    app = pousse_between_people(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = app.screen.session.game
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, EditorScreen)
        await pilot.press("enter")  # a push from the left into the middle row
        await settle(pilot)
        assert status(app) == "Legal: O to move."
        await pilot.press("escape", "l")  # the edit is not saved: asked, then left
        await settle(pilot)
        assert app.screen.session.game is game and not game.history
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("enter", "2", "enter")  # L4 then R4
        screen = await play_as_people(app, pilot)
        assert screen.session.game.history_text() == ["L4", "R4"]
        assert sum(isinstance(s, GameScreen) for s in app.screen_stack) == 1


async def test_play_over_a_finished_game_not_saved_asks_first(tmp_path) -> None:
    from rules import Termination
    from tui.screens.dialogs import ChoiceDialog

    app = pousse_between_people(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("enter")  # a move, then the game ends: over, in no save
        await settle(pilot)
        screen.session.game.forfeit(0, Termination.FAULT, "X faulted")
        screen._changed("X faulted.")
        await settle(pilot)
        await pilot.press("escape")  # the end screen
        await settle(pilot)
        finished = screen.session
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        dialog = app.screen
        await pilot.press("p")
        await settle(pilot)
        await pilot.click("#ok")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog) and app.screen is not dialog
        assert "This finished game is not saved" in str(
            app.screen.query_one("#result-lines", Static).render())
        await pilot.press("escape")  # stays: the finished game on its screen
        await settle(pilot)
        assert app.screen is screen and screen.session is finished


async def test_leaving_or_quitting_with_edits_not_saved_asks_first(tmp_path) -> None:
    from tui.app import QuitDialog
    from tui.screens.dialogs import ChoiceDialog

    app = ArenaApp(save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot, "pousse")
        await pilot.press("escape")  # nothing edited: left at once
        await settle(pilot)
        assert type(app.screen).__name__ == "MenuScreen"
        screen = await open_editor(app, pilot, "pousse")
        await pilot.press("enter")
        await settle(pilot)
        draft = screen.draft.copy()
        for keys in (["escape"], ["ctrl+q"]):
            await pilot.press(*keys)
            await settle(pilot)
            assert isinstance(app.screen, ChoiceDialog)
            note = str(app.screen.query_one("#result-lines", Static).render())
            place = "in the editor" if keys == ["ctrl+q"] else "on the board"
            assert f"The position {place} is not saved." in note
            assert isinstance(app.screen, QuitDialog) == (keys == ["ctrl+q"])
            await pilot.press("escape")  # cancel: the edits stay
            await settle(pilot)
            assert app.screen is screen and screen.draft.values == draft.values
            assert app.is_running
        await pilot.press("escape", "s")  # save first, then leave
        await settle(pilot)
        await pilot.press("enter")  # the offered name
        await settle(pilot)
        assert type(app.screen).__name__ == "MenuScreen"
        (saved,) = tmp_path.glob("pousse-*.arena.json")
        screen = await open_editor(app, pilot, "pousse")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("e", "enter")  # exported: nothing left to lose
        await settle(pilot)
        assert not screen.edited
        await pilot.press("ctrl+q")
        await settle(pilot)
        assert not app.is_running


async def test_analyse_opens_the_analysis_board_and_escape_steps_back(
        tmp_path, monkeypatch) -> None:
    from tui.screens.analysis import AnalysisScreen

    monkeypatch.setattr(AnalysisScreen, "AUTO_START", False)
    app = ArenaApp(save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot, "boxing")
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, AnalysisScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        screen.query_one("#field-players", Select).focus()
        await pilot.press("escape")  # from a field: back to the board, the draft kept
        await settle(pilot)
        assert app.screen is screen and app.focused is screen.grid
        await pilot.press("escape")
        await settle(pilot)
        assert type(app.screen).__name__ == "MenuScreen"


async def test_the_grid_grows_with_the_terminal_and_a_click_finds_its_cell(tmp_path) -> None:
    """LOAPS's 7x7 draft: larger cells at 120x40 than at 80x24 (the editor lays the grid
    out again on a resize), every cell found under its middle, and a click paints it."""
    app = ArenaApp(save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot, "loaps")
        grid = screen.grid
        small = grid.geometry()
        assert (small.cw, small.ch) > (3, 1) and grid.content_size.width >= small.width
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        large = grid.geometry()
        assert large.cw > small.cw and large.ch > small.ch
        assert grid.content_size.width >= large.width and grid.content_size.height >= large.height
        rows, cols = grid.draft.shape
        gutter = large.width - cols * large.cw
        for row in range(rows):
            for col in range(cols):
                x, y = gutter + col * large.cw + large.cw // 2, 1 + row * large.ch + large.ch // 2
                assert grid.target_at(x, y) == row * cols + col
        assert grid.target_at(gutter - 1, 1) is None and grid.target_at(gutter, 0) is None
        before = grid.draft.look((4, 2))
        await pilot.press("2")  # a red piece
        await pilot.click(grid, offset=(gutter + 2 * large.cw + 1, 1 + 4 * large.ch))
        await settle(pilot)
        assert before[1] == "empty" and grid.draft.look((4, 2)) != before


async def test_boxing_columns_read_whole_and_a_click_under_two_label_lines(tmp_path) -> None:
    """Boxing's 32 columns: the labels would touch, so they stand tens over units (they
    were the units alone, column 12 looking like 2 and 22), at 80x24 and at 120x40, and
    a click still finds its cell below the two label lines."""
    app = ArenaApp(save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot, "boxing")
        grid = screen.grid
        for size in (SIZE, (120, 40)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            g = grid.geometry()
            gutter = g.width - 32 * g.cw
            assert g.head == 2
            tens, units = str(grid.render()).splitlines()[:2]
            for col in range(32):
                x = gutter + col * g.cw + (g.cw - 1) // 2  # where str.center puts it
                assert (tens[x] + units[x]).strip() == str(col + 1), (size, col)
            assert grid.target_at(gutter, 1) is None
            assert grid.target_at(gutter + 21 * g.cw, 2 + 3 * g.ch) == 3 * 32 + 21
        before = grid.draft.look((3, 21))
        await pilot.press("2")  # unusable
        await pilot.click(grid, offset=(gutter + 21 * g.cw + g.cw // 2, 2 + 3 * g.ch))
        await settle(pilot)
        assert before[1] == "empty" and grid.draft.look((3, 21))[1] == "blocked"


async def test_pousse_20x20_fits_80x24_without_the_title_and_frame(tmp_path) -> None:
    """20 rows and two lines of column numbers: at 80x24 the title and the board's frame
    give way, as on the game screen (the last three rows were cut off), and come back
    for a 6x6 board or a taller terminal."""
    app = ArenaApp(save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot, "pousse")
        screen.query_one("#field-size", Select).value = "20"
        await settle(pilot)
        grid = screen.grid
        assert grid.draft.shape == (20, 20) and screen.has_class("-tight")
        assert grid.content_region.height >= grid.size_needed().height == 22
        assert grid.content_region.bottom <= screen.query_one("#status").region.y
        assert not screen.query_one("#title").display
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert screen.query_one("#title").display
        for size, tight in [((120, 27), False), ((120, 26), True)]:  # 22 rows in the frame
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert screen.has_class("-tight") == tight, size
            box = screen.query_one("#board-box")
            assert box.content_region.contains_region(grid.region), size
            assert grid.content_region.bottom <= screen.query_one("#status").region.y
        screen.query_one("#field-size", Select).value = "6"
        await settle(pilot)
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        assert not screen.has_class("-tight") and screen.query_one("#title").display
