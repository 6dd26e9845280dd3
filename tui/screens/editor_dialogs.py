"""The position editor's two questions: which game to edit (from the menu), and who
plays each seat and on what clock when play starts from the edited position."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from rules import (
    DEFAULT_LEVEL,
    LEVELS,
    Game,
    PlayerSpec,
    TimeControl,
    codec_of,
    game_names,
    get_game,
)
from tui.screens.dialogs import BUTTON_KEYS
from tui.widgets.boards import has_board

# the setup screen's choices but a program (its command line needs the setup's own row)
SEAT_CHOICES = [("Human", "human"), *((f"AI ({level})", f"ai:{level}") for level in LEVELS)]
OTHER_SEATS = f"ai:{DEFAULT_LEVEL}"  # the first seat a person's, the others the AI's
FROM_POSITION = "position"  # the clock choice that keeps the clocks the position holds


class GamePicker(ModalScreen[str | None]):
    """Choose the game whose position to edit; dismisses with its name or None."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    AUTO_FOCUS = "OptionList"

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Edit a position: which game?", id="dialog-title")
            yield OptionList(*[Option(Text(get_game(name).title, style="bold"), id=name)
                               for name in game_names() if has_board(name)], id="games")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def on_button_pressed(self) -> None:
        self.dismiss(None)


@dataclass(frozen=True)
class Seats:
    """The answer: a player per seat, and the clock (None: the position's own clocks)."""

    players: tuple[PlayerSpec, ...]
    control: TimeControl | None


class SeatsDialog(ModalScreen[Seats | None]):
    """Who plays each seat of `game`, and the clock, as the setup screen asks them."""

    DEFAULT_CSS = """
    SeatsDialog .seat-row { height: 1; }  /* eight seats fit 24 rows */
    SeatsDialog .seat-row Label { width: 14; }
    SeatsDialog .seat-row Select { width: 1fr; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel"), *BUTTON_KEYS]
    AUTO_FOCUS = "Select"

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def _clocks(self) -> list[tuple[str, str]]:
        cls = type(self.game)
        clocks = [(cls.describe_time_control(c), c.key()) for c in cls.offered_time_controls()]
        if codec_of(cls).start_seconds_left(self.game) is not None:
            clocks.insert(0, ("as the position says", FROM_POSITION))
        return clocks

    def compose(self) -> ComposeResult:
        game = self.game
        with Vertical(id="dialog"):
            yield Label(f"Play {game.title} from this position", id="dialog-title")
            for seat in range(game.players):
                with Horizontal(classes="seat-row"):
                    yield Label(f"{game.seat_name(seat).capitalize()} plays")
                    yield Select(SEAT_CHOICES, value="human" if seat == 0 else OTHER_SEATS,
                                 allow_blank=False, id=f"seat-{seat}", compact=True)
            with Horizontal(classes="seat-row"):
                yield Label("Clock")
                clocks = self._clocks()
                yield Select(clocks, value=clocks[0][1], allow_blank=False, id="clock",
                             compact=True)
            with Horizontal(classes="buttons"):
                yield Button("Play", variant="primary", id="ok")
                yield Button("Cancel", id="cancel")
            yield Static("", id="seats-error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "ok":
            self.dismiss(None)
            return
        players = tuple(PlayerSpec.parse(str(self.query_one(f"#seat-{seat}", Select).value))
                        for seat in range(self.game.players))
        clock = str(self.query_one("#clock", Select).value)
        self.dismiss(Seats(players, None if clock == FROM_POSITION else TimeControl.parse(clock)))
