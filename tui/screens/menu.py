"""The main menu: every registered game with its title and tagline."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from rules import game_names, get_game
from tui.messages import OpenSetup, StartSession
from tui.screens.dialogs import LoadDialog
from tui.services import Services
from tui.widgets.boards import has_board


class MenuScreen(Screen):
    """Choose a game."""

    BINDINGS = [Binding("l", "load", "Load a saved game"),
                Binding("q", "app.quit", "Quit", show=False)]

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services

    def compose(self) -> ComposeResult:
        yield Static("Arena · terminal board games", id="title")
        options = []
        for name in game_names():
            cls = get_game(name)
            text = Text(cls.title, style="bold")
            text.append(f"\n  {cls.tagline}", style="dim")
            if not has_board(name):
                text.append("  (no board yet)", style="italic")
            options.append(Option(text, id=name, disabled=not has_board(name)))
        yield OptionList(*options, id="games")
        yield Static("Choose a game and press Enter, or l to load a saved game.", id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#games", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.post_message(OpenSetup(event.option.id))

    def action_load(self) -> None:
        try:
            folder, saves = self.services.list_saves()
        except Exception as err:  # noqa: BLE001 - one line in the status
            self._status(f"Cannot list saves: {err}")
            return
        self.app.push_screen(LoadDialog(folder, saves), self._load_from)

    def _load_from(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            session = self.services.load_session(path)
        except Exception as err:  # noqa: BLE001 - a bad file leaves the menu as it was
            self._status(f"Load failed: {err}")
            return
        self.post_message(StartSession(session, f"Loaded {path.name}."))

    def _status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)
