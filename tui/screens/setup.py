"""The new-game screen, made from the game's declaration: who plays each seat, the board
options, the clock, a seed (for games with a random start), Start.

It starts on the last choices made for the game (this run's, else the last run's: the
services keep them); the seed is never kept, so each game gets a fresh board.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Select, Static
from textual.widgets.select import InvalidSelectValueError

from rules import DEFAULT_LEVEL, PlayerSpec, RulesError, TimeControl, get_game
from rules.base import COUNT_OPTION
from tui.messages import OpenMenu, StartSession
from tui.play.session import Session
from tui.screens.common import KeyFooter, SizedScreen
from tui.screens.seat_picker import (
    PLAYER_CHOICES,
    PROGRAM,
    UNMARKED,
    mark_focused,
    read_seat,
    seat_row,
    show_commands,
    show_error,
)
from tui.services import Services

OTHER_SEATS = f"ai:{DEFAULT_LEVEL}"  # the first seat is a person's, the others the AI's

SETUP_CHROME = 10  # lines around the rows: title, padding, buttons, status, footer


class SetupScreen(SizedScreen):
    """Set up a new game of `game_name`."""

    MIN_SIZE = (60, 16)  # the fields scroll; narrower, the choices no longer fit
    BINDINGS = [Binding("escape", "back", "Back"), Binding("ctrl+s", "start", "Start")]
    AUTO_FOCUS = "Select"  # the first field, not the scrolling box around them

    def __init__(self, game_name: str, services: Services) -> None:
        super().__init__()
        self.game_name = game_name
        self.services = services
        self.cls = get_game(game_name)
        low, high = self.cls.player_count
        self.counts = range(low, high + 1)

    def _row(self, label: str, field: Select | Input) -> Horizontal:
        return Horizontal(Label(f"{UNMARKED}{label}"), field, classes="setup-row")

    def _hint(self) -> str:
        """The status line's first words: what this game's setup asks for."""
        shown = [f"the {spec.label.lower()}" for spec in self.cls.option_specs
                 if not (spec.name == COUNT_OPTION and len(self.counts) > 1)]
        parts = ["the players", *shown, "the clock"]
        return f"Pick {', '.join(parts[:-1])} and {parts[-1]}, then Start."

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
                    names = cls.seat_names or cls.default_marks
                    yield from seat_row(seat, f"{names[seat].capitalize()} plays",
                                        "human" if seat == 0 else OTHER_SEATS, PLAYER_CHOICES)
                for spec in cls.option_specs:
                    if spec.name == COUNT_OPTION and len(self.counts) > 1:
                        continue  # the Players field above is this option
                    choices = spec.choices or tuple(range(spec.low or 0, (spec.high or 0) + 1))
                    yield self._row(spec.label, Select([(str(c), c) for c in choices],
                                                       value=spec.default, allow_blank=False,
                                                       id=f"opt-{spec.name}",
                                                       tooltip=spec.help, compact=True))
                yield self._row("Clock", Select([(cls.describe_time_control(c), c.key())
                                                 for c in cls.offered_time_controls()],
                                                value=cls.offered_time_controls()[0].key(),
                                                allow_blank=False, id="clock", compact=True))
                if cls.random_start:
                    yield self._row("Seed", Input(placeholder="random", id="seed",
                                                  type="integer", compact=True))
            with Horizontal(id="setup-buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Back", id="back")
        yield Static(self._hint(), id="status")
        yield KeyFooter()
        yield from self.compose_notice()

    def _default_count(self) -> int:
        for spec in self.cls.option_specs:
            if spec.name == COUNT_OPTION and spec.default in self.counts:
                return int(spec.default)
        return self.counts[0]

    def on_mount(self) -> None:
        self._recall()
        self._show_seats(self.player_count)

    def _selects(self) -> list[Select]:
        return list(self.query(Select))

    def _recall(self) -> None:
        """Put back the last choices made for this game, each only if still offered."""
        try:
            remembered = self.services.setup_choices(self.game_name)
        except Exception:  # noqa: BLE001 - the defaults, then
            return
        for select in self._selects():
            value = remembered.get(select.id or "")
            if value is None:
                continue
            try:
                select.value = value
            except InvalidSelectValueError:
                pass  # no longer offered (or a hand-edited file): the default stays
        for field in self.query("Input.command").results(Input):
            value = remembered.get(field.id or "")
            if isinstance(value, str) and value.isprintable():
                field.value = value
        self._show_commands()

    def _remember(self) -> None:
        choices: dict[str, object] = {select.id: select.value for select in self._selects()
                                      if select.id}
        choices.update({field.id: field.value.strip()
                        for field in self.query("Input.command").results(Input) if field.id})
        try:
            self.services.remember_setup(self.game_name, choices)
        except Exception:  # noqa: BLE001 - remembering is a convenience, never a failure
            pass

    @property
    def player_count(self) -> int:
        if len(self.counts) == 1:
            return self.counts[0]
        return int(self.query_one("#player-count", Select).value)  # type: ignore[arg-type]

    def _show_seats(self, count: int) -> None:
        for seat in range(self.counts[-1]):
            self.query_one(f"#seat-{seat}").display = seat < count
        self._fit_rows()

    def _fit_rows(self) -> None:
        """Rows one line apart while they fit; packed when they would push Start off the
        screen (many players at 80x24)."""
        rows = sum(1 for row in self.query(".setup-row") if row.display)
        spaced = 2 * rows + SETUP_CHROME
        self.query_one("#setup-rows").set_class(spaced > self.app.size.height, "packed")

    def on_resize(self) -> None:
        self._fit_rows()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "player-count":
            self._show_seats(self.player_count)
        elif (event.select.id or "").startswith("player-"):
            self._show_commands()
            if event.value == PROGRAM:
                seat = event.select.id.removeprefix("player-")  # type: ignore[union-attr]
                field = self.query_one(f"#command-{seat}", Input)
                if not field.value.strip():
                    self._say("Type the program's command line (it speaks the game's "
                              "contest protocol).")

    def _show_commands(self) -> None:
        """A seat played by a program shows the field for its command line."""
        show_commands(self, self.counts[-1])

    def _say(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def on_descendant_focus(self) -> None:
        mark_focused(self)

    def _show_error(self, seat: int | None, text: str = "") -> None:
        show_error(self, self.counts[-1], seat, text)

    def on_input_changed(self, event: Input.Changed) -> None:
        if (event.input.id or "").startswith("command-"):
            self._show_error(None)

    def _player(self, seat: int) -> PlayerSpec:
        """The seat's player; a program's command is checked now (CommandError, and its
        field takes the focus), so a bad one never reaches the board."""
        names = self.cls.seat_names or self.cls.default_marks
        return read_seat(self, self.counts[-1], seat, names[seat])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def on_input_submitted(self) -> None:
        self.focus_next()  # Enter in a text field moves on; Start (or ctrl+s) starts

    def action_back(self) -> None:
        self.post_message(OpenMenu(self.game_name))

    def action_start(self) -> None:
        count = self.player_count
        try:
            players = [self._player(seat) for seat in range(count)]
            options = {spec.name: self.query_one(f"#opt-{spec.name}", Select).value
                       for spec in self.cls.option_specs
                       if not (spec.name == COUNT_OPTION and len(self.counts) > 1)}
            if self.cls.takes_count():
                options[COUNT_OPTION] = count
            control = TimeControl.parse(str(self.query_one("#clock", Select).value))
            seed = None
            if self.cls.random_start:
                seed_text = self.query_one("#seed", Input).value.strip()
                seed = int(seed_text) if seed_text else None
            session = Session.new(self.game_name, players, options, seed, control,
                                  now=self.services.now)
        except (RulesError, ValueError) as err:
            self._say(f"Cannot start: {err}")
            return
        self._remember()
        self.services.approve(p.command for p in players if p.command is not None)  # typed here
        self.post_message(StartSession(session))
