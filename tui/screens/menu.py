"""The main menu: Resume entries (each game's unfinished game, the most recently played
first), then every registered game with its title and tagline."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from rules import game_names, get_game
from tui.messages import OpenEditor, OpenSetup, StartSession
from tui.screens.common import KeyFooter, SizedScreen, entry, fit, printable
from tui.screens.editor_dialogs import GamePicker
from tui.screens.load_dialog import LoadDialog
from tui.services import Services
from tui.widgets.boards import has_board

RESUME = "resume:"  # the option ids of the autosaved games: resume:<game> (no game has a :)


class MenuScreen(SizedScreen):
    """Choose a game, or resume an unfinished one."""

    MIN_SIZE = (50, 12)

    BINDINGS = [Binding("l", "load", "Load a saved game"),
                Binding("d", "edit", "Edit a position"),
                Binding("q", "app.quit", "Quit", show=False)]

    def __init__(self, services: Services, game_name: str | None = None) -> None:
        super().__init__()
        self.services = services
        self.game_name = game_name  # the game come back from: its entry is highlighted

    def compose(self) -> ComposeResult:
        yield Static("Arena · terminal board games", id="title")
        options = []
        for name, line in self.services.describe_autosaves():
            title = get_game(name).title
            options.append(Option(entry(Text(f"Resume {title}", style="bold"),
                                        Text(printable(line), style="dim")), id=RESUME + name))
        for name in game_names():
            cls = get_game(name)
            text = Text(cls.tagline, style="dim")
            if not has_board(name):
                text.append("  (no board yet)", style="italic")
            options.append(Option(entry(Text(cls.title, style="bold"), text), id=name,
                                  disabled=not has_board(name)))
        yield OptionList(*options, id="games")
        yield Static("Choose a game and press Enter, or l to load a saved game.", id="status")
        yield KeyFooter()
        yield from self.compose_notice()

    def on_mount(self) -> None:
        games = self.query_one("#games", OptionList)
        games.focus()
        if self.game_name is not None:  # back from its setup, game or editor: Enter returns
            with suppress(OptionDoesNotExist):  # not listed: the first stays highlighted
                games.highlighted = games.get_option_index(self.game_name)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and event.option.id.startswith(RESUME):
            self._resume(event.option.id.removeprefix(RESUME))
        elif event.option.id:
            self.post_message(OpenSetup(event.option.id))

    def _resume(self, game_name: str | None = None) -> None:
        try:
            session = self.services.resume_session(game_name)
        except Exception as err:  # noqa: BLE001 - the menu stays, saying why
            self._status(f"Cannot resume: {err}")
            return
        if session is None:
            self._status("The game to resume could not be read; it was set aside.")
            return
        self.post_message(StartSession(session, f"Resumed the unfinished {session.game.title} "
                                                f"game."))

    def action_load(self) -> None:
        try:
            folder, saves = self.services.list_saves()
        except Exception as err:  # noqa: BLE001 - one line in the status
            self._status(f"Cannot list saves: {err}")
            return
        # the dialog reads the folder again as the services list it, after a rename or a delete
        dialog = LoadDialog(folder, saves, lambda: self.services.list_saves()[1])
        self.app.push_screen(dialog, self._load_from)

    def action_edit(self) -> None:
        """Choose a game, then set up a position of it in the editor."""
        self.app.push_screen(GamePicker(),
                             lambda name: name is not None and self.post_message(OpenEditor(name)))

    def _load_from(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            session = self.services.load_session(path)
        except Exception as err:  # noqa: BLE001 - a bad file leaves the menu as it was
            self._status(f"Load failed: {err}")
            return
        self.post_message(StartSession(session, f"Loaded {printable(path.name)}."))

    def _status(self, text: str) -> None:
        """One line; one too long for it is also shown whole in a notification."""
        line, cut = fit(Text(printable(text)), self.app.size.width - 2)
        self.query_one("#status", Static).update(line)
        if cut:
            self.notify(printable(text), timeout=8)

