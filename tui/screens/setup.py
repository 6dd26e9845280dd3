"""The new-game screen, made from the game's declaration: who plays each seat, the board
options, the clock, a seed (for games with a random start), Start."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from rules import LEVELS, PlayerSpec, RulesError, TimeControl, get_game
from tui.messages import OpenMenu, StartSession
from tui.services import Services
from tui.session import Session

PLAYER_CHOICES = [("Human", "human")] + [(f"AI ({level})", f"ai:{level}") for level in LEVELS]
OTHER_SEATS = "ai:medium"  # the first seat is a person's, the others the AI's by default
COUNT_OPTION = "players"  # a game with a range of players takes the count as this option


class SetupScreen(Screen):
    """Set up a new game of `game_name`."""

    BINDINGS = [Binding("escape", "back", "Back"), Binding("ctrl+s", "start", "Start")]
    AUTO_FOCUS = "Select"  # the first field, not the scrolling box around them

    def __init__(self, game_name: str, services: Services) -> None:
        super().__init__()
        self.game_name = game_name
        self.services = services
        self.cls = get_game(game_name)
        low, high = self.cls.player_count
        self.counts = range(low, high + 1)

    def _row(self, label: str, field: Select | Input, row_id: str | None = None) -> Horizontal:
        return Horizontal(Label(label), field, classes="setup-row", id=row_id)

    def compose(self) -> ComposeResult:
        cls = self.cls
        yield Static(f"Arena · {cls.title} · new game", id="title")
        with VerticalScroll(id="setup"):
            with Vertical(id="setup-rows"):
                if len(self.counts) > 1:
                    counts = [(str(n), n) for n in self.counts]
                    yield self._row("Players", Select(counts, value=self._default_count(),
                                                      allow_blank=False, id="player-count",
                                                      compact=True))
                for seat in range(self.counts[-1]):
                    yield self._row(f"{cls.default_marks[seat]} plays",
                                    Select(PLAYER_CHOICES,
                                           value="human" if seat == 0 else OTHER_SEATS,
                                           allow_blank=False, id=f"player-{seat}", compact=True),
                                    f"seat-{seat}")
                for spec in cls.option_specs:
                    if spec.name == COUNT_OPTION and len(self.counts) > 1:
                        continue  # the Players field above is this option
                    choices = spec.choices or tuple(range(spec.low or 0, (spec.high or 0) + 1))
                    yield self._row(spec.label, Select([(str(c), c) for c in choices],
                                                       value=spec.default, allow_blank=False,
                                                       id=f"opt-{spec.name}",
                                                       tooltip=spec.help, compact=True))
                yield self._row("Clock", Select([(c.describe(), c.key())
                                                 for c in cls.offered_time_controls()],
                                                value=cls.offered_time_controls()[0].key(),
                                                allow_blank=False, id="clock", compact=True))
                if cls.random_start:
                    yield self._row("Seed", Input(placeholder="random", id="seed",
                                                  type="integer", compact=True))
            with Horizontal(id="setup-buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Back", id="back")
        yield Static("Pick the players, the board and the clock, then Start.", id="status")
        yield Footer()

    def _default_count(self) -> int:
        for spec in self.cls.option_specs:
            if spec.name == COUNT_OPTION and spec.default in self.counts:
                return int(spec.default)
        return self.counts[0]

    def on_mount(self) -> None:
        self._show_seats(self._default_count())

    @property
    def player_count(self) -> int:
        if len(self.counts) == 1:
            return self.counts[0]
        return int(self.query_one("#player-count", Select).value)  # type: ignore[arg-type]

    def _show_seats(self, count: int) -> None:
        for seat in range(self.counts[-1]):
            self.query_one(f"#seat-{seat}").display = seat < count

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "player-count":
            self._show_seats(self.player_count)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def on_input_submitted(self) -> None:
        self.action_start()

    def action_back(self) -> None:
        self.post_message(OpenMenu())

    def action_start(self) -> None:
        count = self.player_count
        try:
            players = [PlayerSpec.parse(str(self.query_one(f"#player-{seat}", Select).value))
                       for seat in range(count)]
            options = {spec.name: self.query_one(f"#opt-{spec.name}", Select).value
                       for spec in self.cls.option_specs
                       if not (spec.name == COUNT_OPTION and len(self.counts) > 1)}
            if len(self.counts) > 1 and any(s.name == COUNT_OPTION for s in self.cls.option_specs):
                options[COUNT_OPTION] = count
            control = TimeControl.parse(str(self.query_one("#clock", Select).value))
            seed = None
            if self.cls.random_start:
                seed_text = self.query_one("#seed", Input).value.strip()
                seed = int(seed_text) if seed_text else None
            session = Session.new(self.game_name, players, options, seed, control,
                                  now=self.services.now)
        except (RulesError, ValueError) as err:
            self.query_one("#status", Static).update(f"Cannot start: {err}")
            return
        self.post_message(StartSession(session))
