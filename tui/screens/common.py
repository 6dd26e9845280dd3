"""What every screen shares: text that is safe to show, short paths, a status line that
never cuts a message silently, and the notice shown when the terminal is too small."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Label, Static
from textual.widgets._footer import FooterKey  # the Footer's own key widget

from tui.widgets.boards.grid import GridBoard, room_width

if TYPE_CHECKING:
    from rules import Game

ELLIPSIS = "…"


def printable(text: str) -> str:
    """`text` with what a terminal cannot show (lone surrogates, control characters)
    replaced, so a damaged file name or save never breaks the screen."""
    out = []
    for char in text:
        if unicodedata.category(char) in ("Cs", "Cc") and char != "\n":
            out.append("\N{REPLACEMENT CHARACTER}" if unicodedata.category(char) == "Cs"
                       else f"\\x{ord(char):02x}")
        else:
            out.append(char)
    return "".join(out)


def short_path(path: Path, saves: Path | None = None) -> str:
    """A path as the status line shows it: `saves/<name>` in the saves folder (by that
    folder's own name), `~/...` under the home folder, else whole."""
    path = Path(path)
    if saves is not None and path.parent == saves:
        return printable(f"{saves.name}/{path.name}")
    try:
        return printable("~/" + str(path.relative_to(Path.home())))
    except (ValueError, RuntimeError):  # not under home, or no home at all
        return printable(str(path))


def fit(text: Text, width: int) -> tuple[Text, bool]:
    """`text` on one line of `width` cells: cut with an ellipsis if longer; whether it was."""
    line = text.copy()
    line.plain = line.plain.replace("\n", " ")
    if width <= 0 or line.cell_len <= width:
        return line, False
    line.truncate(max(1, width - 1))
    line.append(ELLIPSIS)
    return line, True


class Entry(Group):
    """A list entry (the menu's, the load list's): its title, then its line indented; a
    line too long for the width wraps under itself, not under the title. As a string:
    the two lines."""

    def __init__(self, title: Text, line: Text) -> None:
        super().__init__(title, Padding(line, (0, 0, 0, 2)))
        self.text = f"{title.plain}\n  {line.plain}"

    def __str__(self) -> str:
        return self.text


def entry(title: Text, line: Text) -> Entry:
    return Entry(title, line)


class TooSmall(Static):
    """Covers the screen, saying what size it needs, while the terminal is too small."""


class SizedScreen(Screen):
    """A screen that needs `MIN_SIZE` (columns, rows); below it a notice says so instead of
    rows silently going missing, and the screen comes back as soon as the terminal grows."""

    MIN_SIZE = (80, 24)

    def compose_notice(self) -> ComposeResult:
        yield TooSmall(id="too-small")

    def on_mount(self) -> None:
        self.call_after_refresh(self._check_size)

    def on_resize(self, _event: events.Resize) -> None:
        self._check_size()

    def _check_size(self) -> None:
        notices = self.query(TooSmall)
        if not notices:
            return
        notice = notices.first()
        width, height = self.app.size
        need_w, need_h = self.MIN_SIZE
        small = width < need_w or height < need_h
        if small:
            notice.update(f"Arena needs {need_w}x{need_h}; this terminal is {width}x{height}.\n"
                          "Make the window larger to go on (ctrl+q quits).")
        notice.display = small

    @property
    def too_small(self) -> bool:
        width, height = self.app.size
        return width < self.MIN_SIZE[0] or height < self.MIN_SIZE[1]


class KeyFooter(Footer):
    """The Footer: the keys that fit the terminal's width, never one cut in half.

    The keys show in the order the focused widget, the screen and the app bind them
    (most important first); `PINNED` ones (help, quit) always show, last. Where they
    do not all fit, the last of the others go: `?` lists every key. The command
    palette's hint is left out (ctrl+p still opens it, and `?` names it).

    It is rebuilt only when the keys it shows change: Textual's Footer rebuilds
    on every bindings signal, and one comes each time a dialog opens or closes
    over the screen: about 80 ms of CPU a time on the development machine, the
    largest part of a dialog's key-to-screen time.
    """

    PINNED = ("rules", "help", "quit", "app.quit")  # actions shown whatever the width

    _shown: tuple[object, ...] | None = None

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact, show_command_palette=False)

    def bindings_changed(self, screen: Screen) -> None:
        if screen is not self.screen or not screen.is_current:
            self._bindings_ready = True  # keep what is shown while a dialog is over it
            return
        shown = (self._width(), *((binding.key, binding.description, binding.key_display,
                                   enabled, tip)
                                  for _node, binding, enabled, tip
                                  in screen.active_bindings.values() if binding.show))
        if shown == self._shown:
            return
        self._shown = shown
        super().bindings_changed(screen)

    def on_resize(self) -> None:
        if self._bindings_ready and self.is_attached and self.screen.is_current:
            self.bindings_changed(self.screen)

    def _width(self) -> int:
        return self.size.width or self.app.size.width

    def key_width(self, binding: Binding) -> int:
        """The cells one key takes in the footer, its margin included."""
        text = f"{self.app.get_key_display(binding)} {binding.description}"
        return cell_len(text) + (1 if self.compact else 2)

    def fitting(self) -> list[tuple[Binding, bool, str]]:
        """The keys shown: one per action, the pinned last, the others while they fit."""
        keys: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in keys:
                keys[binding.action] = (binding, enabled, tooltip)
        pinned = [key for action, key in keys.items() if action in self.PINNED]
        others = [key for action, key in keys.items() if action not in self.PINNED]
        room = self._width()  # the last key's margin counts too (the footer would scroll)
        while others and sum(self.key_width(b) for b, _, _ in others + pinned) > room:
            others.pop()
        return others + pinned

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        for binding, enabled, tooltip in self.fitting():
            yield FooterKey(binding.key, self.app.get_key_display(binding), binding.description,
                            binding.action, disabled=not enabled, tooltip=tooltip,
                            ).data_bind(compact=Footer.compact)


# left/right walk the buttons (an Input or a list keeps its own arrows: they bind first)
BUTTON_KEYS = [Binding("left", "app.focus_previous", "Previous", show=False),
               Binding("right", "app.focus_next", "Next", show=False)]


class RulesDialog(ModalScreen[None]):
    """A game's rules in brief, and its keys."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss(None)", "Close"), *BUTTON_KEYS]
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


def game_over_words(game: Game) -> str:
    """A finished game's title words: "game over: red wins", "... A and C win", "... a draw"."""
    outcome = game.outcome
    if outcome is None or not outcome.winners:
        return "game over: a draw"
    verb = " wins" if len(outcome.winners) == 1 else " win"
    return "game over: " + " and ".join(game.seat_name(w) for w in outcome.winners) + verb


KEY_NAMES = {"question_mark": "?", "equals_sign": "=", "plus": "+", "minus": "-",
             "escape": "esc", "enter": "enter", "space": "space"}


def sentence_case(words: str) -> str:
    """A key's description inside a sentence: its first letter small unless it opens an
    acronym ("Undo" -> "undo", "AI view" stays)."""
    return words if words[:2].isupper() else words[:1].lower() + words[1:]


class BoardFitScreen(SizedScreen):
    """A screen with a title line and a board in its frame: a board that needs more room
    than the terminal leaves it inside them drops both ("-tight", arena.tcss), and gets
    them back when the terminal grows."""

    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    CHROME_ROWS = 5  # title, status, footer and the frame's two lines
    FRAME_COLS = 4  # the frame's two lines and its padding
    _needed = Size(0, 0)

    def fit_board(self, needed: Size) -> None:
        """Keep the title and frame while the board's least `needed` size fits inside them
        (and beside a side panel of SIDE_MIN: a wider frame would squeeze its names)."""
        self._needed = needed
        self._fit()

    def on_resize(self) -> None:  # beside the subclasses' (Textual calls each class's)
        self._fit()

    def _fit(self) -> None:
        width, height = self.app.size
        cols = room_width(width) - self.FRAME_COLS
        rows = height - self.CHROME_ROWS
        self.set_class(self._needed.width > cols or self._needed.height > rows, "-tight")


class BoardScreen(BoardFitScreen):
    """The layout the game screen and the replay share: a title line, the board in its
    frame, the players, engine and moves panels beside it, a status line and the Footer."""

    board: GridBoard
    title_line: tuple[str, str]

    def side_panels(self) -> tuple[Widget, Widget, Widget]:
        """The players, engine and moves panels, with the ids #players, #engine, #moves."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="board-box") as box:
                box.border_title = "board"
                yield self.board
            with Vertical(id="side"):
                yield from self.side_panels()
        yield Static(id="status")
        yield KeyFooter(compact=True)
        yield from self.compose_notice()

    def _show_status(self) -> object:
        """Draw the status line to fit the screen's width."""
        raise NotImplementedError

    def on_resize(self) -> None:
        # the board sizes itself from the terminal: lay it out again (it grows and shrinks)
        self.board.refresh(layout=True)
        self.call_after_refresh(self._show_status)  # the line fits the new width

    def _post(self, message: Message) -> None:
        """Post from a worker thread; once the app's loop has closed (quitting) nobody is
        waiting, and the message is dropped."""
        try:
            self.post_message(message)
        except RuntimeError:
            pass

    def name_panels(self) -> None:
        for name in ("players", "engine", "moves"):
            self.query_one(f"#{name}").border_title = name

    KEYS_HEADING = "Game"  # what the screen's own keys are called in `?`

    def keys_text(self) -> str:
        """Every key of this screen, the board's own first (box sizes, a joker...): what
        `?` lists, since the footer cannot show them all."""
        def described(bindings: list[object]) -> list[str]:
            seen: list[str] = []
            for binding in bindings:
                if not isinstance(binding, Binding) or not binding.description:
                    continue
                key = binding.key_display or binding.key.split(",")[0]
                entry = f"{KEY_NAMES.get(key, key)} {sentence_case(binding.description)}"
                if binding.action.startswith(("step", "rules", "view_")) or entry in seen:
                    continue
                seen.append(entry)
            return seen

        board = described(list(type(self.board).BINDINGS)) if self.board.can_focus else []
        screen = described([b for b in self.BINDINGS if self.check_action(
            b.action.partition("(")[0], ()) is not False])
        lines = ["Keys: the arrows and Enter (or the mouse) play." if board else "",
                 "Board: " + ", ".join(board) + ".",
                 *self.extra_key_lines(),
                 f"{self.KEYS_HEADING}: " + ", ".join(screen)
                 + ", ctrl+p all commands, ctrl+z suspend, ctrl+q quit."]
        return "\n".join(line for line in lines if line and not line.endswith(": ."))

    def extra_key_lines(self) -> list[str]:
        """Lines `?` adds about keys the bindings do not say enough about (as markup)."""
        return []

    def action_rules(self) -> None:
        """The game's rules in a few lines and every key of this screen."""
        game = type(self.board.game) if self.board.game is not None else None
        if game is None:
            return
        # made once and kept installed: opening it again skips its compose and styling,
        # most of a dialog's key-to-screen time while the AI searches (docs/latency.py)
        name = f"rules-{id(self)}"
        if not self.app.is_screen_installed(name):
            self.app.install_screen(RulesDialog(f"{game.title}: rules and keys",
                                                f"{game.summary}\n\n{self.keys_text()}"), name)
        self.app.push_screen(name)

    def show_title(self, left: str, right: str) -> None:
        """The title row: the game on the left, whose turn (or the move) on the right."""
        self.title_line = (left, right)
        grid = Table.grid(expand=True, padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        grid.add_row(left, right)
        self.query_one("#title", Static).update(grid)
