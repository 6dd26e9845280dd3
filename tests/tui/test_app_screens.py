"""Issue 23's faults on the screens around the board, driven through Pilot: the setup's
focus shown without colour and a refused program said where it is typed, the setup's
words from the game's own options, the menu at 60x20, the replay's first position."""

from __future__ import annotations

from rich.console import Console
from textual.widgets import Input, Label, OptionList, Static

from rules import PlayerSpec, TimeControl, game_names, get_game
from rules.base import COUNT_OPTION
from tests.tui.test_app import own_saves_folder  # noqa: F401 - the fixture
from tests.tui.test_replay import finished, open_replay, saved
from tui.app import ArenaApp
from tui.screens.dialogs import ResultScreen
from tui.screens.load_dialog import LoadDialog
from tui.screens.menu import MenuScreen
from tui.screens.seat_picker import MARKED, PROGRAM
from tui.screens.setup import SetupScreen

SIZE = (80, 24)


async def settle(pilot) -> None:
    for _ in range(3):
        await pilot.pause()


def marked_rows(screen: SetupScreen) -> list[str]:
    return [str(label.content).strip() for label in screen.query(".setup-row Label")
            .results(Label) if str(label.content).startswith(MARKED)]


async def open_setup(app: ArenaApp, pilot, index: int = 0) -> SetupScreen:
    await settle(pilot)
    app.screen.query_one("#games", OptionList).highlighted = index
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, SetupScreen)
    return app.screen


async def test_the_setup_marks_the_focused_row_with_a_glyph_and_reverse(tmp_path) -> None:
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_setup(app, pilot)
        names = get_game(game_names()[0])
        first = (names.seat_names or names.default_marks)[0].capitalize()
        assert marked_rows(screen) == [f"{MARKED.strip()} {first} plays"]
        label = screen.query(".setup-row Label").results(Label).__next__()
        assert label.styles.text_style.reverse and label.styles.text_style.bold
        await pilot.press("tab")
        await settle(pilot)
        assert len(marked_rows(screen)) == 1 and first not in marked_rows(screen)[0]
        others = [lab for lab in screen.query(".setup-row Label").results(Label)
                  if not str(lab.content).startswith(MARKED)]
        assert others and not any(lab.styles.text_style.reverse for lab in others)


async def test_a_missing_command_is_said_under_its_field_which_takes_the_focus(
        tmp_path) -> None:
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_setup(app, pilot)
        screen.query_one("#player-1").value = PROGRAM
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)
        field = screen.query_one("#command-1", Input)
        assert screen.focused is field
        error = screen.query_one("#error-1", Static)
        assert error.display and "give the command line of the program" in str(error.content)
        assert error.region.y == screen.query_one("#seat-1").region.bottom  # right under it
        assert any("plays" in row for row in marked_rows(screen))  # its row is marked
        await pilot.press("space")  # typing clears the complaint, the field has the space
        await settle(pilot)
        assert field.value == " " and not error.display


async def test_the_setup_names_only_the_game_s_own_options(tmp_path) -> None:
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        for index, name in enumerate(game_names()):
            screen = await open_setup(app, pilot, index)
            line = str(screen.query_one("#status", Static).content)
            cls = get_game(name)
            assert line.startswith("Pick the players") and "the clock, then Start" in line
            assert ("board" in line) == any("board" in spec.label.lower()
                                            for spec in cls.option_specs)
            for spec in cls.option_specs:
                if spec.name != COUNT_OPTION:
                    assert spec.label.lower() in line
            await pilot.press("escape")
            await settle(pilot)


async def test_the_menu_at_60x20_wraps_its_lines_under_themselves(tmp_path) -> None:
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        options = app.screen.query_one("#games", OptionList)
        console = Console(width=options.scrollable_content_region.width - 1, record=True)
        for index in range(options.option_count):
            console.print(options.get_option_at_index(index).prompt)
        lines = console.export_text().splitlines()
        titles = {get_game(name).title for name in game_names()}
        wrapped = [line for line in lines if line.strip() and line.strip() not in titles]
        assert len(wrapped) > len(titles)  # some taglines do take two lines here
        assert all(line.startswith("  ") for line in wrapped)


async def test_the_too_small_notice_has_nothing_over_it(tmp_path) -> None:
    path = saved(finished(control=TimeControl.none()), tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        # the end screen fits the terminal; behind it no scrollbar shows through the notice
        assert isinstance(app.screen, ResultScreen)
        dialog = app.screen.query_one("#dialog")
        assert dialog.region.right <= 60
        behind = app.screen_stack[-2]
        assert behind.too_small
        assert not behind.show_vertical_scrollbar and not behind.show_horizontal_scrollbar


async def test_a_replay_names_its_first_position_as_a_replay(tmp_path) -> None:
    for name in game_names():
        session = finished(name, control=TimeControl.none())
        path = saved(session, tmp_path)
        app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_replay(app, pilot)
            await pilot.press("home")
            await settle(pilot)
            board = screen.board
            game = screen.game
            if hasattr(board, "info_text"):
                line = board.info_text().plain
                assert line == f"start position: {game.seat_name(game.to_move)} to move"
                await pilot.press("right")
                await settle(pilot)
                line = board.info_text().plain
                assert line.startswith(f"after move 1 of {screen.total}: ")
                assert "waiting" not in line
                await pilot.press("end")
                await settle(pilot)
                assert game.outcome.reason in board.info_text().plain


async def test_the_load_list_names_players_as_the_game_does(tmp_path) -> None:
    session = finished(players=(PlayerSpec.human(), PlayerSpec.ai("hard")),
                       control=TimeControl.none())
    saved(session, tmp_path)
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LoadDialog)
        options = app.screen.query_one("#saves", OptionList)
        console = Console(width=70, record=True)
        console.print(options.get_option_at_index(0).prompt)
        assert " · You v AI (hard) · " in console.export_text()


async def test_the_highlighted_entry_differs_by_weight_not_only_colour(tmp_path) -> None:
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        options = app.screen.query_one("#games", OptionList)
        assert options.has_focus and options.highlighted == 0

        def styles(y: int) -> set[tuple[bool, bool]]:
            return {(bool(seg.style.underline), bool(seg.style.bold))
                    for seg in options.render_line(y) if seg.text.strip() and seg.style}

        assert styles(1) == {(True, True)}  # the highlighted entry: underlined and bold
        assert all(not underline for underline, _ in styles(3))  # the next one: neither
