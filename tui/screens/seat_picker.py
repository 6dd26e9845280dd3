"""Who plays each seat: the seat rows of the new-game screen (a kind of player, and the
command line of a program), and the dialog the replay's `c` asks with before a new game
from one of its moves.

A row is a `Select` of the kinds (`player-N`) and an `Input` for a program's command
(`command-N`, shown only for a program), with a line under it saying what is wrong with
that command (`error-N`); `read_seat` checks the command when the game starts, so a bad
one never reaches the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, Select, Static

from rules import LEVELS, PlayerSpec, RulesError
from tui.play.programs import CommandError, parse_command
from tui.screens.common import printable

PROGRAM = "prog"  # the kind choice of a contest program; its command is in the row's field
PLAYER_CHOICES = ([("Human", "human")] + [(f"AI ({level})", f"ai:{level}") for level in LEVELS]
                  + [("Program", PROGRAM)])
BUILT_IN_CHOICES = [("Random", "random"), ("Greedy", "greedy")]  # a replay's seats offer them
MARKED, UNMARKED = "▶ ", "  "  # before the label of the row holding the focus, and the others
ERROR_MARK = "  ↑ "  # the line under a seat's row saying what is wrong with its program


def seat_row(seat: int, label: str, value: str, choices: Sequence[tuple[str, str]],
             command: str = "") -> ComposeResult:
    """The row of seat `seat` (its kind `value`, a program's `command`), then its error
    line."""
    yield Horizontal(
        Label(f"{UNMARKED}{label}"),
        Select(list(choices), value=value, allow_blank=False, id=f"player-{seat}",
               compact=True),
        Input(command, placeholder="command, e.g. python3 bot.py", id=f"command-{seat}",
              classes="command", compact=True),
        classes="setup-row", id=f"seat-{seat}")
    yield Static(id=f"error-{seat}", classes="setup-error")


def show_commands(screen: Screen, seats: int) -> None:
    """A seat played by a program shows the field for its command line."""
    for seat in range(seats):
        program = screen.query_one(f"#player-{seat}", Select).value == PROGRAM
        screen.query_one(f"#seat-{seat}").set_class(program, "program")


def show_error(screen: Screen, seats: int, seat: int | None, text: str = "") -> None:
    """The line under a seat's row saying what is wrong with its command (None: clear
    every one)."""
    for other in range(seats):
        shown = other == seat
        line = screen.query_one(f"#error-{other}", Static)
        line.update(Text(f"{ERROR_MARK}{text}" if shown else ""))
        line.display = shown
        screen.query_one(f"#seat-{other}").set_class(shown, "-error")


def mark_focused(screen: Screen) -> None:
    """The row holding the focus is marked by a glyph (and, in arena.tcss, reversed)."""
    focused = screen.focused
    for row in screen.query(".setup-row").results(Horizontal):
        label = row.query_one(Label)
        here = focused is not None and row in focused.ancestors_with_self
        text = str(label.content)
        label.update((MARKED if here else UNMARKED) + text[len(UNMARKED):])
        row.set_class(here, "-focused")  # (:focus-within misses the label, a sibling)


def read_seat(screen: Screen, seats: int, seat: int, name: str) -> PlayerSpec:
    """The seat's player; a program's command is checked now (CommandError, and its field
    takes the focus with the error line under it)."""
    value = str(screen.query_one(f"#player-{seat}", Select).value)
    if value != PROGRAM:
        return PlayerSpec.parse(value)
    field = screen.query_one(f"#command-{seat}", Input)
    command = field.value.strip()
    try:
        if not command:
            raise CommandError("give the command line of the program")
        parse_command(command)
        return PlayerSpec.program(command)
    except (CommandError, RulesError) as err:
        field.focus()
        show_error(screen, seats, seat, f"{name}: {err}")
        raise CommandError(f"{name}: {err}") from None


def choice_of(spec: PlayerSpec) -> str:
    """The kind choice showing `spec` (a program's command goes in its field)."""
    return PROGRAM if spec.is_program else spec.text()


class SeatsDialog(ModalScreen[tuple[PlayerSpec, ...] | None]):
    """Who plays each seat of a new game from a replayed move, starting as it was recorded;
    dismisses with a player per seat (in seat order), or None. A seat left as recorded
    keeps its player exactly (a name, an AI's own time); a program typed here is the
    person's own, one recorded is approved before it runs, as from a save."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel"),
                Binding("ctrl+s", "start", "Start")]
    AUTO_FOCUS = "Select"

    def __init__(self, title: str, seats: Sequence[str], players: Sequence[PlayerSpec]) -> None:
        super().__init__()
        self.title_text = title
        self.names = list(seats)
        self.recorded = list(players)
        choices = PLAYER_CHOICES[:-1] + BUILT_IN_CHOICES + PLAYER_CHOICES[-1:]
        known = {value for _, value in choices}
        extra = [(printable(spec.text()), spec.text()) for spec in self.recorded
                 if choice_of(spec) not in known]  # an AI with its own time, an old engine
        self.choices = choices[:-1] + list(dict.fromkeys(extra)) + choices[-1:]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="wide seats"):
            yield Label(self.title_text, id="dialog-title")
            recorded = ", ".join(f"{name} {spec.label()}" for name, spec
                                 in zip(self.names, self.recorded, strict=True))
            yield Static(printable(f"Recorded: {recorded}. A seat left as it is keeps "
                                   "its player."), classes="dim")
            with Vertical(id="setup-rows", classes="packed"):
                for seat, (name, spec) in enumerate(zip(self.names, self.recorded,
                                                        strict=True)):
                    yield from seat_row(seat, f"{name.capitalize()} plays", choice_of(spec),
                                        self.choices, spec.command or "")
            yield Static("", id="seats-status")
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Cancel", id="cancel")
            yield Static("keys: tab moves, enter opens a choice, ctrl+s starts, escape "
                         "cancels", classes="dim keys")

    def on_mount(self) -> None:
        show_commands(self, len(self.names))

    def on_descendant_focus(self) -> None:
        mark_focused(self)

    def on_select_changed(self) -> None:
        show_commands(self, len(self.names))

    def on_input_changed(self) -> None:
        show_error(self, len(self.names), None)

    def on_input_submitted(self) -> None:
        self.focus_next()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.dismiss(None)

    def action_start(self) -> None:
        n = len(self.names)
        try:
            players = [read_seat(self, n, seat, self.names[seat]) for seat in range(n)]
        except (CommandError, RulesError) as err:
            self.query_one("#seats-status", Static).update(printable(f"Cannot start: {err}"))
            return
        kept = [recorded if recorded.text() == player.text() else player
                for recorded, player in zip(self.recorded, players, strict=True)]
        self.dismiss(tuple(kept))
