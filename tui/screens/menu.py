"""The main menu: every registered game with a one-line description."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from rules import game_names, get_game
from tui.widgets.boards import has_board

DESCRIPTIONS = {
    "pahtum": "7x7 with blocked cells; runs of 3+ in a line score. A two-game match.",
    "pousse": "Push markers in from the edges; whoever makes more straight lines wins.",
}


class MenuScreen(Screen):
    """Choose a game."""

    BINDINGS = [Binding("l", "load", "Load a saved game"),
                Binding("q", "app.quit", "Quit", show=False)]

    def compose(self) -> ComposeResult:
        yield Static("Arena · terminal board games", id="title")
        options = []
        for name in game_names():
            cls = get_game(name)
            text = Text(cls.title, style="bold")
            text.append(f"\n  {DESCRIPTIONS.get(name, '')}", style="dim")
            if not has_board(name):
                text.append("  (no board yet)", style="italic")
            options.append(Option(text, id=name, disabled=not has_board(name)))
        yield OptionList(*options, id="games")
        yield Static("Choose a game and press Enter, or l to load a saved game.", id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#games", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from tui.screens.setup import SetupScreen

        if event.option.id:
            self.app.switch_screen(SetupScreen(event.option.id))

    def action_load(self) -> None:
        self.app.choose_save(self._load_from, self._status)

    def _load_from(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            session = self.app.load_session(path)
        except Exception as err:  # noqa: BLE001 - a bad file leaves the menu as it was
            self._status(f"Load failed: {err}")
            return
        self.app.start_session(session, f"Loaded {path.name}.")

    def _status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)
