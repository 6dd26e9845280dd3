"""Modal dialogs: end of game, a choice of buttons, file name (save, export, rename). Left
and right move between a dialog's buttons. The load dialog has its own module
(load_dialog.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from tui.screens.common import BUTTON_KEYS, printable


class ResultScreen(ModalScreen[str]):
    """The result and why; dismisses with "next" (the match's next game), "new" or "close".
    """

    BINDINGS = [Binding("escape", "dismiss('close')", "Close"), *BUTTON_KEYS]
    # Enter takes the next game if there is one, else just closes: a stray Enter after
    # the last move must not throw the finished board away (AUTO_FOCUS, not a query in
    # on_mount, which can race a quick dismiss)
    AUTO_FOCUS = "#next, #close"

    def __init__(self, title: str, lines: list[str], next_label: str | None = None) -> None:
        """`next_label` names the button to the match's next game (None: there is none)."""
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.next_label = next_label

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="result"):
            yield Label(self.title_text, id="dialog-title")
            yield Static("\n".join(self.lines), id="result-lines")
            with Horizontal(classes="buttons"):
                if self.next_label:
                    yield Button(self.next_label, variant="primary", id="next")
                yield Button("New game", id="new")
                yield Button("View board", id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "close")


class NameDialog(ModalScreen[str | None]):
    """Ask for a file name in `folder`; dismisses with the name or None.

    `check` returns why a name is refused (None: fine); a refused name stays in the
    dialog with that one line under it, and nothing is written. `replaced` says what a
    name would replace ("x exists"; None: nothing): the dialog says so and takes the name
    only when it is given again, so another saved game is never written over by a stray
    Enter.
    """

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel"), *BUTTON_KEYS]
    AUTO_FOCUS = "Input"

    def __init__(self, title: str, folder: Path, default: str, action: str = "Save",
                 check: Callable[[str], str | None] | None = None,
                 replaced: Callable[[str], str | None] | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.folder = folder
        self.default = default
        self.action = action
        self.check = check
        self.replaced = replaced
        self._replacing: str | None = None  # the name whose replacing was asked about

    def compose(self) -> ComposeResult:
        from tui.screens.common import short_path

        with Vertical(id="dialog"):
            yield Label(self.title_text, id="dialog-title")
            yield Static(f"in {short_path(self.folder)}", classes="dim")
            yield Input(self.default, id="name")
            yield Static("", id="name-error")
            with Horizontal(classes="buttons"):
                yield Button(self.action, variant="primary", id="ok")
                yield Button("Cancel", id="cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._submit(event.value)

    def on_input_changed(self) -> None:
        self.query_one("#name-error", Static).update("")
        self._replacing = None

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self._submit(self.query_one(Input).value)
        else:
            self.dismiss(None)

    def _submit(self, value: str) -> None:
        name = value.strip()
        if not name:
            self.dismiss(None)
            return
        problem = self.check(name) if self.check is not None else None
        if not problem and name != self._replacing and self.replaced is not None:
            there = self.replaced(name)
            if there:
                problem = f"{there}: {self.action} again to replace it"
                self._replacing = name
        if problem:
            self.query_one("#name-error", Static).update(printable(problem))
            self.query_one(Input).focus()
            return
        self.dismiss(name)


class ChoiceDialog(ModalScreen[str | None]):
    """A question with a row of buttons; dismisses with the chosen button's id, None for
    Cancel (or escape). Each choice is (id, label, key): the key chooses it too."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel"), *BUTTON_KEYS]
    AUTO_FOCUS = "#cancel"  # a stray Enter must not throw a game away

    def __init__(self, title: str, text: str, choices: Sequence[tuple[str, str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.choices = list(choices)

    def compose(self) -> ComposeResult:
        keys = "  ".join(f"{key} {label.lower()}" for _, label, key in self.choices)
        with Vertical(id="dialog", classes="wide"):
            yield Label(self.title_text, id="dialog-title")
            if self.text:
                yield Static(self.text, id="result-lines")
            with Horizontal(classes="buttons"):
                for index, (choice, label, _key) in enumerate(self.choices):
                    yield Button(label, id=choice, variant="primary" if index == 0 else "default")
                yield Button("Cancel", id="cancel")
            yield Static(f"keys: {keys}  escape cancel; left/right move", classes="dim keys")

    def on_key(self, event: events.Key) -> None:
        for choice, _label, key in self.choices:
            if event.key == key:
                event.stop()
                self.dismiss(choice)
                return

    def on_button_pressed(self, event: Button.Pressed) -> None:
        choice = event.button.id
        self.dismiss(None if choice == "cancel" else choice)


class ProgramsDialog(ChoiceDialog):
    """Before a program from a save, a record or the Resume entry runs: every seat's whole
    command line, and whether to run them, give their seats to the AI or to people.
    Dismisses with "run", "ai", "human", or None (nothing is started)."""

    AUTO_FOCUS = "#cancel"  # running a program takes a deliberate choice

    def __init__(self, seats: Sequence[tuple[str, str]]) -> None:
        lines = ["This game has programs in its seats. Running one runs that command on "
                 "this computer with your rights: run them only if you trust them.", ""]
        for seat, command in seats:
            lines.append(f"{seat} plays: {command}")
        super().__init__("Run these programs?", "\n".join(printable(line) for line in lines),
                         [("run", "Run them", "r"), ("ai", "AI plays", "a"),
                          ("human", "People play", "p")])

    def compose(self) -> ComposeResult:
        keys = "  ".join(f"{key} {label.lower()}" for _, label, key in self.choices)
        with Vertical(id="dialog", classes="wide"):
            yield Label(self.title_text, id="dialog-title")
            with VerticalScroll(id="program-commands"):
                yield Static(self.text, id="result-lines")
            with Horizontal(classes="buttons"):
                for choice, label, _key in self.choices:
                    yield Button(label, id=choice)
                yield Button("Cancel", id="cancel")
            yield Static(f"keys: {keys}  escape cancel; left/right move", classes="dim keys")
