"""The one board base: cursor, keys, clicks, hover, hint, lock, focus and colours.

A board shows one `Game` and reports the user's choice with `MovePicked`; the
screen owns the game and checks legality. The cursor lives in the board's own
target space (a cell, an insertion point on a frame...), which a game board
ties to moves and to the screen with a few hooks:

- `render()`: draw `self.game` (colours from `style(...)`, `seat_style(...)`);
- `target_at(x, y)`: the target under a content offset (clicks, hover), or None;
- `step(cursor, key)`: where an arrow key leads (default: a `shape()` grid of
  cell indexes, wrapping round); `home()`: the cursor's place in a new game;
- `move_for(target)` / `target_for(move)`: between targets and moves (default:
  the same value); `choices_for(move)` when a move takes several choices (a piece,
  then its destination), `keys_for(move)` when a key must arm part of it first;
- `describe_result(game)`: the end screen's lines;
- optionally `HOVER = True` (track the target under the mouse in `hover`),
  `size_needed()` and `get_content_width/height` (auto size, within `room(...)`);
- the AI's view (the overlay): `overlay_targets(move)`, the targets that show a move
  (default: `target_for(move)`; a piece's move: the piece and its square), `overlay_moves()`
  the moves shown now (default: all scored), and `render()` painting
  `overlay_map()`'s shades (`overlay_background(shade)`);
- `FLIPS = True` for a board whose seats sit on sides of it: `f` turns it
  (`flipped`: `FLIP_TURNS` quarter turns clockwise, a half turn by default), and
  `render()` / `target_at()` go through `shown(place)` and `place_of(cell)`.

The screen calls `set_game` for a new/loaded/return game, `refresh_game`
after each move/undo/redo, `show_hint` with the AI's suggestion, and sets
`locked` while it is not a person's turn.

The overlay: `set_overlay(scores, proven)` shades the place of every scored move by
its score, relative to the best (`overlay.shade_targets`: a scale of five shades
from the best to the worst, a proven win or loss apart); `set_overlay(None)` clears
it. `scores` maps moves (the game's own moves) to values in one unit, higher better
for the side to move (`Engine.rate_moves` gives them); `proven` holds the moves
whose value is proven (the end of the game seen). The shades stay until set again or
a new game is set: the screen clears them when the position changes.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from rules import Game
from tui.widgets.boards.overlay import SHADES, shade_targets

# The colours live once, in tui/boards.tcss; the app loads it too (CSS_PATH).
CSS_FILE = Path(__file__).resolve().parents[2] / "boards.tcss"
SEATS = 8  # seats with a colour of their own
SIDE_MIN = 34  # the side panel's narrowest players rows (30) inside their frame
SIDE_WHOLE = 35  # and its rows with a name such as "AI (medium)" whole (31)
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

G = TypeVar("G", bound=Game)


def room_width(terminal: int, side: int = SIDE_MIN) -> int:
    """The columns a board and its frame may take: about 60% of the terminal's width,
    always leaving the side panel `side`."""
    return min(terminal * 3 // 5, terminal - side)


class GridBoard(Widget, Generic[G], can_focus=True):
    """Base of the board widgets: shows a game, posts `MovePicked` for a user's move.

    A game's board is `GridBoard[TheGame]`: `game` is that game's class, so the board
    reads its position without asking what it is (the screen gives each game its own).
    """

    DEFAULT_CSS = CSS_FILE.read_text(encoding="utf-8")
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *(f"grid-board--player-{i}" for i in range(SEATS)),
        *(f"grid-board--run-{i}" for i in range(SEATS)),
        *(f"grid-board--{name}" for name in (
            "empty", "chequer-0", "chequer-1", "blocked", "hatch", "cursor", "hint", "last",
            "label", "path", "off", "bad", "good", "warn", "info", *SHADES)),
    }
    BINDINGS = [
        Binding("up", "step('up')", "Up", show=False),
        Binding("down", "step('down')", "Down", show=False),
        Binding("left", "step('left')", "Left", show=False),
        Binding("right", "step('right')", "Right", show=False),
        Binding("enter,space", "play", "Play", show=False),
        Binding("f", "flip", "Flip"),
    ]
    HOVER: ClassVar[bool] = False  # whether `hover` follows the mouse
    FLIPS: ClassVar[bool] = False  # whether `f` turns the board (seats on sides of it)
    FLIP_TURNS: ClassVar[int] = 2  # quarter turns clockwise when flipped (a square grid)

    class MovePicked(Message):
        """The user chose `move` (not yet checked for legality)."""

        def __init__(self, move: Hashable) -> None:
            super().__init__()
            self.move = move

    class Note(Message):
        """A line about the move being chosen, for the screen's status line (None: clear).

        Boards send it when they have no room to show that line themselves.
        """

        def __init__(self, text: Text | None) -> None:
            super().__init__()
            self.text = text

    cursor: reactive[Hashable] = reactive(None)
    hover: reactive[Hashable | None] = reactive(None)  # the target under the mouse
    hint: reactive[Hashable | None] = reactive(None)
    locked: reactive[bool] = reactive(False)  # True while it is not a person's turn
    # no person plays this game (machines only): keys for choosing a move step aside for
    # the screen's (a watched game's pace)
    watched = False

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.game: G | None = None
        self._sent_note: Text | None = None  # the last `Note`, so it is sent only on change
        self.overlay_scores: dict[Hashable, float] | None = None  # the AI's view, or None
        self.overlay_proven: frozenset[Hashable] = frozenset()
        self.flipped = False  # turned (kept across moves and games)

    # ----- the screen's calls ------------------------------------------------------------
    def set_game(self, game: G) -> None:
        """Show `game` (a new object: new game, loaded game, return game)."""
        self.game = game
        self.hint = None
        self.overlay_scores, self.overlay_proven = None, frozenset()
        self.on_new_game()
        self.refresh()

    def on_new_game(self) -> None:
        """Reset the per-game view state."""
        self.cursor = self.home()
        self.hover = None

    def refresh_game(self) -> None:
        """The game changed in place (a move, undo or redo): redraw."""
        self.hint = None
        self.refresh()

    def show_hint(self, move: Hashable | None) -> None:
        """Highlight a suggested move and put the cursor there (each time, even when the
        same move is suggested again after the cursor left it), or clear it with None."""
        self.hint = move
        if move is not None and self.game is not None and self.game.is_legal(move):
            self.hover = None  # the preview follows the cursor, not a mouse left on the board
            self.cursor = self.target_for(move)

    def set_overlay(self, scores: Mapping[Hashable, float] | None,
                    proven: Collection[Hashable] = ()) -> None:
        """Shade each scored move's place by its score (see the module's docstring), or
        clear the shades with None."""
        self.overlay_scores = None if scores is None else dict(scores)
        self.overlay_proven = frozenset(proven)
        self.refresh()

    def flip(self) -> None:
        """Turn the board, or back (a board that `FLIPS`)."""
        if self.FLIPS:
            self.flipped = not self.flipped
            self.refresh()

    def room(self, container: Size, viewport: Size, side: int = SIDE_MIN) -> Size:
        """The most space the board may take: up to about 60% of the terminal's width,
        always leaving the side panel `side` columns, and the height its container gives.
        Cells take up to SIDE_MIN; what is not cells (a line under the board) leaves the
        side panel SIDE_WHOLE, so the players' names read whole.

        A width:auto parent asks with a 0x0 container: the height is then guessed as
        the terminal's less the title, status, footer and a frame.
        """
        chrome = self.parent.gutter.width if isinstance(self.parent, Widget) else 0
        width = room_width(viewport.width, side) - chrome
        if container.width:
            width = min(width, container.width)
        return Size(max(1, width), container.height or viewport.height - 5)

    def layout(self, width: int, height: int) -> Any:
        """The board's layout for a size (an object with `width` and `height`), for a board
        that grows with the terminal; None (the default): Textual's own size rules."""
        return None

    def get_content_width(self, container: Size, viewport: Size) -> int:
        room = self.room(container, viewport)
        layout = self.layout(room.width, room.height)
        if layout is None:
            return super().get_content_width(container, viewport)
        return layout.width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        layout = self.layout(width, self.room(container, viewport).height)
        if layout is None:
            return super().get_content_height(container, viewport, width)
        return layout.height

    def geometry(self) -> Any:
        """The layout for the size the widget has now."""
        size = self.content_size
        return self.layout(size.width, size.height)

    def size_needed(self) -> Size:
        """The least size the board can be drawn in, columns and rows (the screen makes
        room if it must)."""
        return Size(0, 0)

    def playing(self) -> G | None:
        """The game while a person may choose a move on it (not locked, not over)."""
        game = self.game
        return None if self.locked or game is None or game.is_over else game

    def pick(self, move: Hashable) -> None:
        """Report a move the user chose, unless the board is locked or the game over."""
        if self.playing() is not None:
            self.post_message(self.MovePicked(move))

    def note(self, text: Text | None) -> None:
        """Send the screen a line about the move being chosen (only when it changes)."""
        if text is not None and not text.plain:
            text = None
        if text != self._sent_note:
            self._sent_note = text
            # later, from the board's own loop: a message made while the screen renders
            # would count the screen as its sender and stop bubbling there
            self.call_later(lambda: self.post_message(self.Note(text)))

    # ----- hooks a game board overrides ----------------------------------------------------
    def shape(self) -> tuple[int, int]:
        """Rows and columns of the default cursor's grid (the cursor is a cell index)."""
        raise NotImplementedError(f"{type(self).__name__} has no grid shape: override step")

    def home(self) -> Hashable:
        """Where the cursor starts in a new game: the middle of the grid."""
        rows, cols = self.shape()
        return rows // 2 * cols + cols // 2

    def step(self, cursor: Hashable, key: str) -> Hashable:
        """Where an arrow key ("up", "down", "left", "right") moves the cursor."""
        rows, cols = self.shape()
        r, c = divmod(self.place_of(cursor), cols)  # type: ignore[arg-type]
        dr, dc = DIRECTIONS[key]  # on the screen: up is up on a turned board too
        return self.shown((r + dr) % rows * cols + (c + dc) % cols)

    def target_at(self, x: int, y: int) -> Hashable | None:
        """The target under a content offset, or None where there is none."""
        return None

    def move_for(self, target: Hashable) -> Hashable:
        """The move a target stands for."""
        return target

    def target_for(self, move: Hashable) -> Hashable:
        """The target that picks `move` (where a hint puts the cursor)."""
        return move

    def choices_for(self, move: Hashable) -> list[Hashable]:
        """The targets chosen in turn (cursor and Enter, or a click each) to pick `move`:
        `target_for(move)` alone where one choice is a move; a board that chooses a
        piece, then where it goes, needs both."""
        return [self.target_for(move)]

    def keys_for(self, move: Hashable) -> list[str]:
        """Keys pressed before the choices to pick `move` as it is (a key that arms a claim
        the move makes, say); none by default."""
        return []

    def overlay_targets(self, move: Hashable) -> Iterable[Hashable]:
        """The targets that show `move`'s shade in the overlay (each shows its best move)."""
        return [self.target_for(move)]

    def overlay_moves(self) -> Iterable[Hashable]:
        """The scored moves the overlay shows now: all of them by default."""
        return self.overlay_scores or ()

    @classmethod
    def describe_result(cls, game: G) -> list[str]:
        """Lines explaining the final position (the end screen shows them): the reason,
        then how the points were made, if the game says (`Game.score_lines`)."""
        outcome = game.outcome
        return [outcome.reason, *game.score_lines()] if outcome else []

    # ----- what drawing needs -----------------------------------------------------------
    def active(self) -> bool:
        """Whether a move is being chosen here (show the cursor, previews)."""
        game = self.game
        return (game is not None and not game.is_over and not self.locked
                and (self.has_focus or self.hover is not None))

    def style(self, name: str) -> Style:
        """The Rich style of the component class `grid-board--<name>` (only what it sets)."""
        return self.get_component_rich_style(f"grid-board--{name}", partial=True)

    def seat_style(self, seat: int, run: bool = False) -> Style:
        """A seat's colour; with `run`, inside a line that counts (background, underline)."""
        style = self.style(f"player-{seat % SEATS}")
        return style + self.style(f"run-{seat % SEATS}") if run else style

    def seat_of(self, mark: str) -> int | None:
        """The seat whose mark this is, or None (an empty or blocked cell)."""
        marks = self.game.marks if self.game is not None else ()
        return marks.index(mark) if mark in marks else None

    def shown(self, place: int) -> int:
        """The cell drawn at a place of the `shape()` grid (row-major, on the screen):
        itself, or turned `FLIP_TURNS` quarter turns clockwise when `flipped`."""
        if not self.flipped:
            return place
        rows, cols = self.shape()
        r, c = divmod(place, cols)
        for _ in range(self.FLIP_TURNS % 4):
            r, c = rows - 1 - c, r  # a quarter turn: the left column drawn on top
        return r * cols + c

    def place_of(self, cell: int) -> int:
        """Where a cell is drawn: the inverse of `shown`."""
        if not self.flipped:
            return cell
        rows, cols = self.shape()
        r, c = divmod(cell, cols)
        for _ in range(self.FLIP_TURNS % 4):
            r, c = c, rows - 1 - r
        return r * cols + c

    def overlay_map(self) -> dict[Hashable, str]:
        """Each shaded target's shade (a component class name); empty with no overlay."""
        scores = self.overlay_scores
        if not scores:
            return {}
        shown = {m: scores[m] for m in self.overlay_moves() if m in scores}
        return shade_targets(shown, self.overlay_proven, self.overlay_targets)

    def overlay_background(self, shade: str | None) -> Style:
        """The background that paints a shade (nothing for None)."""
        return Style(bgcolor=self.style(shade).bgcolor) if shade else Style()

    def last_move(self) -> Hashable | None:
        game = self.game
        return game.history[-1] if game is not None and game.history else None

    # ----- input --------------------------------------------------------------------------
    def action_step(self, key: str) -> None:
        self.hover = None
        self.cursor = self.step(self.cursor, key)

    def action_play(self) -> None:
        self.pick(self.move_for(self.cursor))

    def action_flip(self) -> None:
        self.flip()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "flip":  # shown only on a board that turns
            return self.FLIPS
        return True

    def _target(self, event: events.MouseEvent) -> Hashable | None:
        offset = event.get_content_offset(self)
        return None if offset is None else self.target_at(offset.x, offset.y)

    def on_click(self, event: events.Click) -> None:
        target = self._target(event)
        if target is not None:
            self.cursor = target
            self.pick(self.move_for(target))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self.HOVER:
            self.hover = self._target(event)

    def on_leave(self) -> None:
        self.hover = None

    # reactive attributes redraw by themselves; focus does not
    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
