"""The load dialog as a save manager, on screen: the filter, the game filter, the orders,
rename and delete (each refused or cancelled without a change on disk), the preview that
follows the highlight, and a load. SVG snapshots at 80x24 and 120x40. (The list's logic
itself: tests/saves/test_manage.py.)"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from rules import PlayerSpec, game_names, get_game
from saves.format import doc_from_game
from saves.store import export_native, list_saves, write_save
from tui.screens.dialogs import ChoiceDialog, NameDialog
from tui.screens.load_dialog import LoadDialog
from tui.widgets.boards import board_class

TUI = Path(__file__).resolve().parents[2] / "tui"
SAVED_AT = "2026-03-04T05:06:00Z"


def make_saves(folder: Path) -> list[Path]:
    """A save of each game (the first game's twice), newest first, and an unreadable file;
    fixed dates, so the pictures never depend on the clock."""
    folder.mkdir(exist_ok=True)
    made = []
    names = [*game_names(), game_names()[0]]
    for index, name in enumerate(names):
        game = get_game(name).new(None, seed=1)
        for _ in range(index + 1):
            game.play(sorted(game.legal_moves(), key=str)[0])
        players = [PlayerSpec.human("Ann")] + [PlayerSpec.ai("hard")] * (game.players - 1)
        doc = doc_from_game(game, players)
        doc.saved_at = SAVED_AT
        path = folder / f"{name}-{index + 1}.arena.json"
        write_save(path, doc)
        os.utime(path, (10_000 - index, 10_000 - index))
        made.append(path)
    (folder / "broken.arena.json").write_text("{not json")
    os.utime(folder / "broken.arena.json", (1, 1))
    return [*made, folder / "broken.arena.json"]


class Host(App[None]):
    """The dialog alone, with the app's styles; `chosen` is what it dismissed with."""

    CSS_PATH = [TUI / "arena.tcss", TUI / "boards.tcss"]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.chosen: Path | None | str = "open"

    def on_mount(self) -> None:
        dialog = LoadDialog(self.folder, list_saves(self.folder, native=True))
        self.push_screen(dialog, self.done)

    def done(self, path: Path | None) -> None:
        self.chosen = path


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The saves folder, shown as ~/saves (the home is the test's), dates in UTC."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    make_saves(tmp_path / "saves")
    return tmp_path / "saves"


@pytest.fixture(autouse=True)
def restore_tz():
    yield
    time.tzset()  # monkeypatch has put TZ back by now


async def settle(pilot: Pilot) -> None:
    """Let the preview's thread finish and its result be drawn."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def shown(dialog: LoadDialog) -> list[str]:
    return [entry.name for entry in dialog.shown]


def text(widget: Static) -> str:
    return str(widget.render())


async def test_filter_game_filter_and_sort(folder: Path) -> None:
    app = Host(folder)
    first, second = game_names()[:2]
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = app.screen
        assert isinstance(dialog, LoadDialog)
        assert dialog.query_one("#saves", OptionList).has_focus
        everything = shown(dialog)
        assert everything[0] == f"{first}-1.arena.json" and everything[-1] == "broken.arena.json"
        await pilot.press("slash")
        assert dialog.query_one("#filter", Input).has_focus
        await pilot.press(*f"{first}-")  # words of the name
        assert shown(dialog) == [f"{first}-1.arena.json", f"{first}-{len(game_names()) + 1}"
                                 ".arena.json"]
        await pilot.press("enter")  # back to the list, the filter kept
        assert dialog.query_one("#saves", OptionList).has_focus
        dialog.query_one("#filter", Input).value = "unreadable"  # words of the line
        await pilot.pause()
        assert shown(dialog) == ["broken.arena.json"]
        dialog.query_one("#filter", Input).value = "nothing like it"
        await pilot.pause()
        assert shown(dialog) == [] and "No save matches" in text(dialog.query_one("#load-empty"))
        dialog.query_one("#filter", Input).value = ""
        await pilot.pause()
        await pilot.press("g")  # the first game only
        assert {e.game for e in dialog.shown} == {first}
        assert text(dialog.query_one("#load-state")).startswith(get_game(first).title)
        await pilot.press("g")
        assert shown(dialog) == [f"{second}-2.arena.json"]
        await pilot.press(*["g"] * (len(game_names()) - 1))  # round to every game again
        assert shown(dialog) == everything
        await pilot.press("s")
        assert shown(dialog) == sorted(everything, key=str.casefold)
        assert "by name" in text(dialog.query_one("#load-state"))
        await pilot.press("s")
        titles = [e.title for e in dialog.shown]
        assert titles[-1] is None and titles[:-1] == sorted(titles[:-1])  # unreadable last
        assert "by game" in text(dialog.query_one("#load-state"))
        await pilot.press("s")
        assert shown(dialog) == everything and "newest first" in text(
            dialog.query_one("#load-state"))
        assert dialog.highlighted().name == game_names()[-1] + f"-{len(game_names())}.arena.json"
        await pilot.press("home", "down", "enter")  # the highlighted save is the one loaded
        assert app.chosen == folder / everything[1]


async def test_rename_refuses_then_renames(folder: Path) -> None:
    app = Host(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = app.screen
        assert isinstance(dialog, LoadDialog)
        old = dialog.shown[0].path
        content = old.read_bytes()
        before = sorted(p.name for p in folder.iterdir())
        await pilot.press("r")
        prompt = app.screen
        assert isinstance(prompt, NameDialog)
        assert prompt.query_one(Input).value == old.name.removesuffix(".arena.json")
        for bad, why in [("../out", "cannot contain '/'"), (dialog.shown[1].name,
                                                              "already exists")]:
            prompt.query_one(Input).value = bad
            await pilot.press("enter")
            assert app.screen is prompt  # refused, in one line under the name
            assert why in text(prompt.query_one("#name-error"))
        await pilot.press("escape")
        assert app.screen is dialog and "Rename cancelled" in text(
            dialog.query_one("#load-message"))
        assert sorted(p.name for p in folder.iterdir()) == before
        await pilot.press("r")
        app.screen.query_one(Input).value = "kept game"
        await pilot.press("enter")
        new = folder / "kept game.arena.json"
        assert not old.exists() and new.read_bytes() == content
        assert dialog.highlighted() is not None and dialog.highlighted().name == new.name
        assert "Renamed" in text(dialog.query_one("#load-message"))
        assert new in dialog.saves and old not in dialog.saves


async def test_delete_asks_first(folder: Path) -> None:
    app = Host(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = app.screen
        assert isinstance(dialog, LoadDialog)
        await pilot.press("down")
        doomed = dialog.shown[1].path
        after = dialog.shown[2].path
        await pilot.press("d")
        assert isinstance(app.screen, ChoiceDialog)
        assert doomed.name in text(app.screen.query_one("#result-lines"))
        await pilot.press("enter")  # Cancel holds the focus: a stray Enter keeps the file
        assert app.screen is dialog and doomed.exists()
        assert "nothing was removed" in text(dialog.query_one("#load-message"))
        await pilot.press("d")
        await pilot.press("escape")
        assert doomed.exists()
        await pilot.press("d", "y")
        assert app.screen is dialog and not doomed.exists()
        assert doomed not in dialog.saves and doomed.name not in shown(dialog)
        assert dialog.highlighted() is not None and dialog.highlighted().path == after
        assert f"Deleted {doomed.name}" in text(dialog.query_one("#load-message"))


async def test_the_preview_follows_the_highlight(folder: Path) -> None:
    app = Host(folder)
    async with app.run_test(size=(120, 40)) as pilot:  # beside the list
        dialog = app.screen
        assert isinstance(dialog, LoadDialog)
        await settle(pilot)
        for index, entry in enumerate(dialog.shown[:len(game_names())]):
            if index:
                await pilot.press("down")
                await settle(pilot)
            boards = list(dialog.query("#preview-board > *"))
            assert len(boards) == 1 and isinstance(boards[0], board_class(entry.game or ""))
            assert not boards[0].can_focus and boards[0].locked
            line = text(dialog.query_one("#preview-line"))
            # index + 1 moves, counted as the list counts them (the move to play)
            players = boards[0].game.players
            assert entry.name in line and f"move {(index + 1) // players + 1} " in line
        await pilot.press("end")
        await settle(pilot)
        assert "cannot preview" in text(dialog.query_one("#preview-line"))
        assert not list(dialog.query("#preview-board > *"))
        await pilot.press("p")  # the pane can be put away, and brought back
        assert not dialog.query_one("#preview").display
        await pilot.press("p")
        assert dialog.query_one("#preview").display


async def test_narrow_preview_takes_the_lists_place(folder: Path) -> None:
    app = Host(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = app.screen
        assert isinstance(dialog, LoadDialog)
        await settle(pilot)
        assert not dialog.query_one("#preview").display
        assert dialog.preview is None  # nothing read while the pane is hidden
        await pilot.press("p")
        await settle(pilot)
        assert dialog.query_one("#preview").display and not dialog.query_one("#saves").display
        first = dialog.shown[0]
        assert first.name in text(dialog.query_one("#preview-line"))
        await pilot.press("down")  # up and down still walk the list
        await settle(pilot)
        second = dialog.shown[1]
        assert second.name in text(dialog.query_one("#preview-line"))
        assert isinstance(dialog.query_one("#preview-board > *"), board_class(second.game or ""))
        await pilot.press("escape")  # back to the list, not out of the dialog
        assert app.screen is dialog and dialog.query_one("#saves").display
        await pilot.press("p", "enter")
        assert app.chosen == second.path


async def test_the_filter_hint_is_whole_or_only_its_key(folder: Path) -> None:
    """At 60 columns the hint was cut mid-phrase ("/ filter: words of"); it shrinks to
    its key there and comes back whole when the terminal widens."""
    from tui.screens.load_dialog import FILTER_HINT, FILTER_HINT_SHORT

    app = Host(folder)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#filter", Input)
        assert field.placeholder == FILTER_HINT_SHORT
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert field.placeholder == FILTER_HINT
        assert field.content_size.width >= len(FILTER_HINT)


async def test_an_empty_folder_says_so(tmp_path: Path) -> None:
    app = Host(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = app.screen
        assert isinstance(dialog, LoadDialog)
        assert "No saves yet." in text(dialog.query_one("#load-empty"))
        await pilot.press("enter", "d", "r")
        assert app.screen is dialog and "Nothing to rename" in text(
            dialog.query_one("#load-message"))
        await pilot.press("escape")
        assert app.chosen is None


async def test_the_menu_opens_it_and_loads_from_it(folder: Path) -> None:
    """The app's own callers: the menu's `l` opens the manager, whose list is read again
    through the app's services after a delete, and Enter starts the game."""
    from tui.app import ArenaApp
    from tui.screens.game import GameScreen

    first = get_game(game_names()[0])
    for stamp, name in [(20_000, "a.txt"), (19_999, "b.txt")]:  # positions: people play,
        export_native(first.new(None, seed=stamp), folder / name)  # no engine is started
        os.utime(folder / name, (stamp, stamp))
    app = ArenaApp(save_dir=folder, clocks_running=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, LoadDialog) and dialog.relist is not None
        assert [e.name for e in dialog.shown[:2]] == ["a.txt", "b.txt"]
        await pilot.press("d", "y")
        assert not (folder / "a.txt").exists() and folder / "a.txt" not in dialog.saves
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and not app.screen.session.has_ai
        assert app.screen.session.game.key() == first.new(None, seed=19_999).key()


def test_snapshot_80x24(snap_compare, folder: Path) -> None:
    export_native(get_game(game_names()[0]).new(None, seed=2), folder / "position.txt")
    os.utime(folder / "position.txt", (5, 5))
    assert snap_compare(Host(folder), terminal_size=(80, 24), run_before=settle)


def test_snapshot_120x40(snap_compare, folder: Path) -> None:
    async def highlight_second(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)

    assert snap_compare(Host(folder), terminal_size=(120, 40), run_before=highlight_second)
