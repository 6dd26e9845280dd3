"""The new-game screen: who plays each side, the board options, a seed, Start."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from rules import RulesError, get_game
from tui.session import LEVELS, Player, Session

PLAYER_CHOICES = [("Human", "human")] + [(f"AI ({level})", f"ai:{level}") for level in LEVELS]


class SetupScreen(Screen):
    """Set up a new game of `game_name`."""

    BINDINGS = [Binding("escape", "back", "Back"), Binding("ctrl+s", "start", "Start")]

    def __init__(self, game_name: str) -> None:
        super().__init__()
        self.game_name = game_name
        self.cls = get_game(game_name)

    def compose(self) -> ComposeResult:
        yield Static(f"Arena · {self.cls.title} · new game", id="title")
        with VerticalScroll(id="setup"):
            with Grid(id="setup-grid"):
                for mark, name in enumerate(self.cls.player_names):
                    yield Label(f"{name} plays")
                    yield Select(PLAYER_CHOICES, value="human" if mark == 0 else "ai:medium",
                                 allow_blank=False, id=f"player-{mark}")
                for spec in self.cls.option_specs:
                    yield Label(spec.label)
                    choices = spec.choices or tuple(range(spec.low or 0, (spec.high or 0) + 1))
                    yield Select([(str(c), c) for c in choices], value=spec.default,
                                 allow_blank=False, id=f"opt-{spec.name}", tooltip=spec.help)
                yield Label("Seed")
                yield Input(placeholder="random", id="seed", type="integer")
            with Horizontal(id="setup-buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Back", id="back")
        yield Static("Pick the players and the board, then Start.", id="status")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def on_input_submitted(self) -> None:
        self.action_start()

    def action_back(self) -> None:
        from tui.screens.menu import MenuScreen

        self.app.switch_screen(MenuScreen())

    def action_start(self) -> None:
        players = [Player.parse(str(self.query_one(f"#player-{m}", Select).value))
                   for m in (0, 1)]
        options = {spec.name: self.query_one(f"#opt-{spec.name}", Select).value
                   for spec in self.cls.option_specs}
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            session = Session.new(self.game_name, players, options,
                                  int(seed_text) if seed_text else None, now=self.app.now)
        except (RulesError, ValueError) as err:
            self.query_one("#status", Static).update(f"Cannot start: {err}")
            return
        self.app.start_session(session)
