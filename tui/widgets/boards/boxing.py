"""The Boxing board: the 16x32 arena, rows A-P from the top, columns 1-32, a square box a move.

The cursor is the box's top-left cell and the box's size k is chosen apart: `+` and `-`
grow and shrink it (1 to 16), a digit sets it (`1` then `0`-`6` within a second makes
10-16; any other key, or a second's pause, ends the number), `m` takes the largest box
that fits at the cursor. The box is previewed as the cursor moves; a mouse drag from
one corner to the other picks the square it spans (its size the larger of the row and
column spans, from the top-left of the two corners) and plays it on release; a click
plays the current size at the cell clicked. Enter (or Space) on a box that covers a
cell not vacant or leaves the arena is refused, with the reason.

Every state also reads without colour: `·` a vacant cell, `o` an unusable one (dim),
a player's mark in its seat's colour, the last move's cells in reverse video, `+` the
cells the box would mark, `×` its vacant cells when it cannot be marked, the cells in
its way struck through, `□` the vacant cells of the AI's suggestion, and the box's
top-left cell (the cursor) in reverse video, in the cursor's colour. One character a cell
beside the side panel at 80x24 (the column numbers on two lines, tens over units), two
characters a cell when the room allows (120x40). The AI's view shades each vacant cell
by the best box with its top-left corner there (any size). Under the board a line says what
Enter would do, or why it was refused; a line too long for the room goes whole to the
screen's status line too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size

from rules.boxing import HEIGHT, MAX_BOX, ROWS, UNUSABLE, VACANT, WIDTH, Boxing, cell_name
from tui.widgets.boards.grid import SIDE_WHOLE, GridBoard

LABEL = 2  # the row letter and a space before the first cell
TYPING = 1.0  # seconds within which a second digit makes a two-digit size
BOLD = Style(bold=True)
HINT = "□"  # a vacant cell of the AI's suggested box (where the preview is elsewhere)

BoxMove = tuple[int, int, int]


@dataclass(frozen=True)
class Geometry:
    """Cell width (1 or 2: a gap, then the glyph), lines of column numbers over the grid
    (2: tens over units), and lines under it for what Enter would do (0: the status
    line)."""

    cw: int
    head: int
    info: int

    @property
    def width(self) -> int:
        return LABEL + WIDTH * self.cw

    @property
    def height(self) -> int:
        return self.head + HEIGHT + self.info

    def cell_x(self, col: int) -> int:
        """The column of a cell's glyph (its last character)."""
        return LABEL + col * self.cw + self.cw - 1

    def cell_y(self, row: int) -> int:
        return self.head + row


LAYOUTS = [Geometry(2, 2, 3), Geometry(2, 2, 1), Geometry(1, 2, 3), Geometry(1, 2, 1),
           Geometry(1, 2, 0)]


def fit(width: int, height: int) -> Geometry:
    """The best layout that fits `width` x `height` (the smallest when none does)."""
    return next((g for g in LAYOUTS if g.width <= width and g.height <= height), LAYOUTS[-1])


def shade(style: Style) -> Style:
    """What paints a blank like a cell of `style`: its background, or in reverse video its
    colour."""
    if style.reverse:
        return Style(color=style.color, bgcolor=style.bgcolor, reverse=True)
    return Style(bgcolor=style.bgcolor)


def box_text(move: BoxMove) -> str:
    r, c, k = move
    return f"{cell_name(r, c)}x{k}"


def cells_text(n: int) -> str:
    return f"{n} cell{'s' * (n != 1)}"


def inside(move: BoxMove | None, row: int, col: int) -> bool:
    if move is None:
        return False
    r, c, k = move
    return r <= row < r + k and c <= col < c + k


class BoxingBoard(GridBoard[Boxing]):
    """The board widget for Boxing: a top-left cell (the cursor) and a size."""

    BINDINGS: ClassVar = [
        Binding("enter,space", "play", "Mark", show=False),
        # two footer entries: the screen's own keys must fit 80 columns too
        Binding("plus,equals_sign", "grow", "Size", key_display="+/-"),
        Binding("minus", "shrink", "", show=False),  # `?` lists it under "+/-"
        Binding("m", "largest", "Largest"),
        *(Binding(str(d), f"digit({d})", "Type a size", key_display="0-9", show=False)
          for d in range(10)),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(id=id, classes=classes)
        self.size_k = 1  # the box's side
        self.refusal: str | None = None  # why the last choice was refused, until the next key
        self.clock = clock
        self._typed: tuple[int, float] | None = None  # a digit that a second one may extend
        self._press: int | None = None  # the cell a mouse button went down on
        self._dragged = False

    def shape(self) -> tuple[int, int]:
        return HEIGHT, WIDTH

    def home(self) -> Hashable:
        return 0  # the top-left corner: boxes grow down and right from the cursor

    def size_needed(self) -> Size:
        return Size(LAYOUTS[-1].width, LAYOUTS[-1].height)

    # ----- the choice ---------------------------------------------------------------
    def on_new_game(self) -> None:
        super().on_new_game()
        self.size_k, self.refusal, self._typed = 1, None, None
        self._press, self._dragged = None, False

    def refresh_game(self) -> None:
        self.refusal, self._typed = None, None
        super().refresh_game()

    def box(self) -> BoxMove:
        """The box the cursor and the size stand for."""
        r, c = divmod(self.cursor, WIDTH)  # type: ignore[call-overload]
        return r, c, self.size_k

    def set_size(self, k: int) -> None:
        self.size_k = max(1, min(MAX_BOX, k))
        self.refusal = None
        self.refresh()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("grow", "shrink", "largest", "digit"):  # a watched game: +/- pace
            return self.game is not None and not self.game.is_over and not self.watched
        return super().check_action(action, parameters)

    def action_grow(self) -> None:
        self._typed = None
        self.set_size(self.size_k + 1)

    def action_shrink(self) -> None:
        self._typed = None
        self.set_size(self.size_k - 1)

    def action_digit(self, digit: int) -> None:
        """A size typed: a digit alone, or `1` and a second digit within a second (10-16)."""
        now = self.clock()
        typed, self._typed = self._typed, None
        if typed is not None and now - typed[1] <= TYPING and typed[0] * 10 + digit <= MAX_BOX:
            self.set_size(typed[0] * 10 + digit)
            return
        if digit == 0:
            self.refusal = "no 0x0 box: sizes run 1 to 16 (1 then 0-6 for 10-16)"
            self.refresh()
            return
        self.set_size(digit)
        if digit * 10 <= MAX_BOX:
            self._typed = (digit, now)  # 1: a second digit may follow

    def action_largest(self) -> None:
        """The largest box that fits with its top-left at the cursor."""
        self._typed = None
        game = self.game
        if game is None:
            return
        largest = game.largest_boxes()[self.cursor]  # type: ignore[index]
        if largest:
            self.set_size(largest)
            return
        r, c = divmod(self.cursor, WIDTH)  # type: ignore[call-overload]
        what = "unusable (o)" if game.is_unusable(self.cursor) else (  # type: ignore[arg-type]
            f"already marked {game.board[self.cursor]}")  # type: ignore[index]
        self.refusal = f"no box fits at {cell_name(r, c)}: it is {what}"
        self.refresh()

    def choose(self) -> None:
        """Enter: mark the box, or say why not."""
        self._typed = None
        game = self.playing()
        if game is None:
            return
        move = self.box()
        why = game.problem(move)
        if why is not None:
            self.refusal = f"{box_text(move)}: {why}"
            self.refresh()
        else:
            self.refusal = None
            self.pick(move)

    def action_play(self) -> None:
        self.choose()

    def action_step(self, key: str) -> None:
        self.refusal, self._typed = None, None
        super().action_step(key)

    def move_for(self, target: Hashable) -> Hashable:
        r, c = divmod(target, WIDTH)  # type: ignore[call-overload]
        return r, c, self.size_k

    def target_for(self, move: Hashable) -> Hashable:
        r, c, _k = move  # type: ignore[misc]
        return r * WIDTH + c

    def keys_for(self, move: Hashable) -> list[str]:
        """The size's digits (one, or `1` and the units for 10-16), none if it is set."""
        k = move[2]  # type: ignore[index]
        if k == self.size_k:
            return []
        return [str(k)] if k < 10 else ["1", str(k - 10)]

    def show_hint(self, move: Hashable | None) -> None:
        """The hint's size is set and the cursor goes to its top-left cell: Enter plays it."""
        if move is not None and self.game is not None and self.game.is_legal(move):
            self.size_k, self.refusal, self._typed = move[2], None, None  # type: ignore[index]
        super().show_hint(move)

    # ----- the mouse ------------------------------------------------------------------
    def dragged_box(self, a: int, b: int) -> BoxMove:
        """The square a drag from cell `a` to cell `b` spans: from the top-left of the two,
        its side the larger of the row and column spans."""
        (ra, ca), (rb, cb) = divmod(a, WIDTH), divmod(b, WIDTH)
        return min(ra, rb), min(ca, cb), max(abs(ra - rb), abs(ca - cb)) + 1

    def _take(self, move: BoxMove) -> None:
        r, c, k = move
        self.hover = None
        self.cursor = r * WIDTH + c
        self.set_size(k)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        target = self._target(event)
        if target is None or self.playing() is None:
            return
        self.capture_mouse()
        self._press, self._dragged, self._typed = target, False, None  # type: ignore[assignment]
        self.refusal = None
        self.cursor = target

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """A drag previews the square it spans."""
        target = self._target(event)
        if self._press is None or target is None or self.playing() is None:
            return
        if target != self._press:
            self._dragged = True
        if self._dragged:
            self._take(self.dragged_box(self._press, target))  # type: ignore[arg-type]

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """The end of a click (the current size at that cell) or of a drag (its square)."""
        press, dragged = self._press, self._dragged
        if press is not None:
            self.release_mouse()
        self._press, self._dragged = None, False
        target = self._target(event)
        if press is None or target is None or self.playing() is None:
            return
        if dragged or target != press:
            self._take(self.dragged_box(press, target))  # type: ignore[arg-type]
        else:
            self.cursor = target
        self.choose()

    def on_click(self, event: events.Click) -> None:
        event.prevent_default()  # the button's going down and up act

    # ----- size ---------------------------------------------------------------------------
    def layout(self, width: int, height: int) -> Geometry:
        return fit(width, height)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The grid's width, or more, up to 64, so the line under it reads whole (but not
        at the cost of the players' names)."""
        room = self.room(container, viewport)
        spare = self.room(container, viewport, side=SIDE_WHOLE).width
        return max(self.layout(room.width, room.height).width, min(spare, 64))

    # ----- what is being chosen ---------------------------------------------------------
    def preview(self) -> tuple[BoxMove, str | None] | None:
        """The box at the cursor and why it cannot be marked (None when it can), while a
        move is being chosen here."""
        game = self.game
        if not self.active() or game is None:
            return None
        move = self.box()
        return move, game.problem(move)

    def info_text(self) -> Text:
        """What Enter would do, why it was refused, or whose turn it is."""
        game = self.game
        if game is None:
            return Text()
        if game.outcome is not None:
            return Text(". ".join([game.outcome.reason, *game.score_lines()]) + ".", style=BOLD)
        if self.refusal is not None:
            return Text(self.refusal, style=self.style("bad"))
        mover = game.seat_name(game.to_move)
        if self.locked:
            return Text(f"{mover} to move (waiting)", style="dim")
        seen = self.preview()
        if seen is None:
            return Text(f"{mover} to move: box size {self.size_k}, Enter marks it at the "
                        "cursor.", style=self.style("info"))
        move, why = seen
        if why is not None:
            return Text(f"{box_text(move)}: {why}", style=self.style("bad"))
        if self._typed is not None:
            return Text(f"Size {self._typed[0]}, or 10-16 with a second digit now",
                        style=self.style("warn"))
        k = move[2]
        hint = "hint: " if move == self.hint else ""
        text = Text(f"{hint}Enter marks {box_text(move)} ({cells_text(k * k)})",
                    style=self.style("info"))
        if k * k == game.vacant:
            text.append(f": the last cells, {mover} wins", style=self.style("good"))
        if self.geometry().info > 1:  # the keys, where there is room for them
            text.append(". +/- size, 1-16 type it, m largest.", style="dim")
        return text

    # ----- drawing ---------------------------------------------------------------------
    def _cell(self, game: Boxing, row: int, col: int, seen: tuple[BoxMove, str | None] | None,
              last: BoxMove | None, hint: BoxMove | None, overlay: str | None = None
              ) -> tuple[str, Style]:
        """A cell's glyph and style (a vacant one on the overlay's shade, if any)."""
        cell = row * WIDTH + col
        char = game.board[cell]
        if char == VACANT:
            shade = self.style(f"chequer-{(row // 4 + col // 4) % 2}")
            glyph, style = "·", Style(color=shade.color, bgcolor=shade.bgcolor)
            style += self.overlay_background(overlay)
        elif char == UNUSABLE:
            blocked = self.style("blocked")
            glyph, style = "o", Style(color=blocked.color, bgcolor=blocked.bgcolor, dim=True)
        else:
            seat = game.seat_marks.index(char)
            colour = self.seat_style(seat).color
            run = self.style(f"run-{seat}").bgcolor
            # the last move in reverse video: the player's colour behind its marks (reverse,
            # not swapped colours, so that it still shows with the colours off)
            glyph, style = char, Style(color=colour, bgcolor=run, bold=True,
                                       reverse=inside(last, row, col))
        if seen is not None and inside(seen[0], row, col):
            path = self.style("path")
            if char == VACANT:
                glyph = "+" if seen[1] is None else "×"
                colour = path.color if seen[1] is None else self.style("bad").color
                style = Style(color=colour, bgcolor=path.bgcolor, bold=True)
            else:  # in the way: struck through
                off = self.style("off")
                style = Style(color=off.color, bgcolor=off.bgcolor, bold=True, strike=True)
        if inside(hint, row, col):
            style += Style(bgcolor=self.style("hint").bgcolor)
            if glyph == "·":
                glyph = HINT
        if seen is not None and cell == self.cursor:  # reverse video in the cursor's colour
            cursor = self.style("cursor")
            style = Style(color=cursor.color, bgcolor=style.bgcolor, bold=True, reverse=True,
                          strike=style.strike)
        return glyph, style

    def render(self) -> Text:
        game = self.game
        g = self.geometry()
        text = Text(no_wrap=True, overflow="crop")
        if game is None:
            return text
        seen = self.preview()
        last = self.last_move()
        hint = self.hint if isinstance(self.hint, tuple) else None
        shades = self.overlay_map()
        frow, fcol = divmod(self.cursor, WIDTH) if seen is not None else (None, None)
        label = self.style("label")
        lit = self.style("cursor")
        # the column numbers, tens over units, over each cell's glyph
        for line in range(g.head):
            if line:
                text.append("\n")
            text.append(" " * LABEL)
            for col in range(WIDTH):
                text.append(" " * (g.cw - 1))
                text.append(f"{col + 1:>2}"[line], style=lit if col == fcol else label)
        for row in range(HEIGHT):
            text.append("\n")
            text.append(ROWS[row], style=lit if row == frow else label)
            text.append(" ")
            left: Style | None = None
            for col in range(WIDTH):
                glyph, style = self._cell(game, row, col, seen, last, hint,  # type: ignore[arg-type]
                                          shades.get(row * WIDTH + col))
                if g.cw == 2:
                    # the gap left of a cell: the cell's shade when its left neighbour has
                    # the same (one player's marks, the preview, a chequer square), else bare
                    joined = left is not None and shade(left) == shade(style)
                    text.append(" ", style=shade(style) if joined else Style())
                text.append(glyph, style=style)
                left = style
        self._info(text, g)
        return text

    def _info(self, text: Text, g: Geometry) -> None:
        """The lines under the board; a line longer than their room goes whole to the
        screen's status line too."""
        info = self.info_text()
        width = max(g.width, self.content_size.width) - 1
        if not g.info:
            self.note(info)
            return
        lines = info.wrap(self.app.console, width, no_wrap=False)
        if len(lines) > g.info:
            lines = lines[:g.info]
            lines[-1].truncate(width - 1)
            lines[-1].append("…")
            self.note(info)
        else:
            self.note(None)
        for line in lines:
            text.append("\n ")
            text.append_text(line)
        text.append("\n " * (g.info - len(lines)))  # the height stays the layout's

    # ----- input ----------------------------------------------------------------------
    def target_at(self, x: int, y: int) -> int | None:
        """The cell under a content offset (with the gap left of it), or None."""
        g = self.geometry()
        if x < LABEL or x >= g.width or not g.head <= y < g.head + HEIGHT:
            return None
        return (y - g.head) * WIDTH + (x - LABEL) // g.cw


BOARD = BoxingBoard
