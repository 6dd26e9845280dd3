"""Modal dialogs: end of game, file name (save, export), choose a save to load."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option


class ResultScreen(ModalScreen[str]):
    """The result and why; dismisses with "next" (the match's next game), "new" or "close".
    """

    BINDINGS = [Binding("escape", "dismiss('close')", "Close")]
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


class RulesDialog(ModalScreen[None]):
    """A game's rules in brief, and its keys."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss(None)", "Close")]
    AUTO_FOCUS = "Button"

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="wide"):
            yield Label(self.title_text, id="dialog-title")
            yield Static(self.text, id="result-lines")
            with Horizontal(classes="buttons"):
                yield Button("Close", variant="primary", id="close")

    def on_button_pressed(self) -> None:
        self.dismiss(None)


class NameDialog(ModalScreen[str | None]):
    """Ask for a file name in `folder`; dismisses with the name or None."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    AUTO_FOCUS = "Input"

    def __init__(self, title: str, folder: Path, default: str, action: str = "Save") -> None:
        super().__init__()
        self.title_text = title
        self.folder = folder
        self.default = default
        self.action = action

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, id="dialog-title")
            yield Static(f"in {self.folder}", classes="dim")
            yield Input(self.default, id="name")
            with Horizontal(classes="buttons"):
                yield Button(self.action, variant="primary", id="ok")
                yield Button("Cancel", id="cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        value = self.query_one(Input).value.strip()
        self.dismiss(value or None if event.button.id == "ok" else None)


class LoadDialog(ModalScreen[Path | None]):
    """Choose one of `saves`; dismisses with its path or None."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    AUTO_FOCUS = "OptionList, Button"

    def __init__(self, folder: Path, saves: list[Path]) -> None:
        super().__init__()
        self.folder = folder
        self.saves = saves

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="wide"):
            yield Label("Load a game", id="dialog-title")
            yield Static(f"from {self.folder}", classes="dim")
            if self.saves:
                from saves.store import describe_save

                yield OptionList(*[Option(Text.assemble((p.name, "bold"), "\n  ",
                                                        (describe_save(p), "dim")), id=str(i))
                                   for i, p in enumerate(self.saves)], id="saves")
            else:
                yield Static("No saves yet.")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.saves[int(event.option.id or 0)])

    def on_button_pressed(self) -> None:
        self.dismiss(None)


class ConfirmDialog(ModalScreen[bool]):
    """A yes/no question; dismisses with True for yes."""

    BINDINGS = [Binding("escape", "dismiss(False)", "No"), Binding("y", "dismiss(True)", "Yes")]
    AUTO_FOCUS = "#no"  # a stray Enter must not throw a game away

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.question, id="dialog-title")
            with Horizontal(classes="buttons"):
                yield Button("Yes", variant="warning", id="yes")
                yield Button("No", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
