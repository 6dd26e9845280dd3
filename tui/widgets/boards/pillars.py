"""The Pillars board: 10x10, rows A-J from the top, columns a-j, a rectangle a move.

A move is chosen in two steps: one corner (Enter, Space or a click anchors it),
then the opposite one (Enter or a click fills the rectangle between them; the
same cell twice is a single cell); a mouse drag from one corner to the other
does both. `j` arms the joker for the move (`!` in the notation). Cells sit
one gap apart: a gap between two cells of the same move (or two empty cells)
is painted like them, so every rectangle reads as one block, and each tile
shows the number of the move that filled it in its side's colour.

Every state also reads without colour: `·` an empty cell, `#` on a hatch a
pillar, the move's number a tile (red's bold, blue's plain), the last move's tiles
in reverse video, `[ ]` the cursor, `{ }` the anchor, `+` the cells the rectangle
would fill (`!` with the joker armed), `×` its empty cells when it cannot be filled
and what is in its way struck through, `□` the empty cells of the AI's suggestion
where the preview is elsewhere. Where rows sit
without a gap line between them, a rectangle's bottom edge is underlined.
The AI's view shades each empty cell by the best rectangle with its top left corner
there (the better of a rectangle and its joker twin), and once a corner is anchored,
each opposite corner by the rectangle from the anchor to it; `f` turns the board a half
turn (row J on top, column j on the left).
Under the board, when there is room, a few lines say what Enter would do, or
why it was refused; without room that line goes to the screen's status line.
Cells grow with the space the screen gives.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding

from rules.pillars import COLS, EMPTY, NAMES, PILLAR, ROWS, SIZE, Pillars, cell_name
from tui.widgets.boards.grid import GridBoard

LABEL = 2  # the row letter and a space (the edge gap follows: a bracket never touches it)
INFO = 3  # lines under the board for what Enter would do (a reason may take two)
HATCH = "╱"  # a pillar's fill round its `#`
HINT = "□"  # an empty cell of the AI's suggested rectangle (where the preview is elsewhere)
BOLD = Style(bold=True)
# cell width, cell height, gap line between rows; largest first (3, 1, 0 is the 80x24 board)
SHAPES = ((7, 3, 1), (5, 1, 1), (3, 1, 1), (3, 1, 0), (2, 1, 0))

Rect = tuple[int, int, int, int]


@dataclass(frozen=True)
class Geometry:
    """Where everything is: the cells' size, a gap column between the cells and left of
    the first, a gap line between rows or none, the column labels under the board too or
    not, how many info lines follow the board (0: they go to the status line), and whether
    a gap column follows the last cell (without it, a bracket right of a cell in the last
    column takes the cell's last character, which only a pillar's hatch fills)."""

    cw: int
    ch: int
    gy: int
    bottom: bool
    info: int
    edge: bool = True

    @property
    def grid_y(self) -> int:
        """The first line of the grid (the column labels are over it)."""
        return 1

    @property
    def grid_h(self) -> int:
        return SIZE * self.ch + (SIZE - 1) * self.gy

    @property
    def width(self) -> int:
        return LABEL + SIZE * (self.cw + 1) + int(self.edge)

    @property
    def height(self) -> int:
        return self.grid_y + self.grid_h + int(self.bottom) + self.info

    @property
    def mark_x(self) -> int:
        """A glyph's column in its cell (a move number ends there)."""
        return self.cw // 2

    @property
    def mark_y(self) -> int:
        """The line of a cell that holds its glyph."""
        return (self.ch - 1) // 2

    def cell_x(self, col: int) -> int:
        return LABEL + 1 + col * (self.cw + 1)

    def cell_y(self, row: int) -> int:
        return self.grid_y + row * (self.ch + self.gy)


def layouts() -> list[Geometry]:
    """Every layout, best first: the largest cells, then labels under the board too, then
    a gap after the last column; the smallest ones last without their info lines."""
    out = [Geometry(cw, ch, gy, bottom, INFO, edge) for cw, ch, gy in SHAPES
           for bottom in (True, False) for edge in (True, False)]
    return [*out, *(Geometry(cw, 1, 0, False, 0, edge) for cw in (3, 2)
                    for edge in (True, False))]


LAYOUTS = layouts()


def fit(width: int, height: int) -> Geometry:
    """The best layout that fits `width` x `height` (the smallest when none does).

    A fixed point: `fit(g.width, g.height) == g`, since a better layout that fit
    g's size would have fit the room g was chosen for.
    """
    return next((g for g in LAYOUTS if g.width <= width and g.height <= height), LAYOUTS[-1])


def span(a: int, b: int) -> Rect:
    """The rectangle with cells `a` and `b` at opposite corners, as (top, left, bottom,
    right)."""
    (ra, ca), (rb, cb) = divmod(a, SIZE), divmod(b, SIZE)
    return min(ra, rb), min(ca, cb), max(ra, rb), max(ca, cb)


def corners(move: Hashable) -> set[int]:
    """The cells at the corners of a move's rectangle."""
    t, lc, b, r, _claim = move  # type: ignore[misc]
    return {t * SIZE + lc, t * SIZE + r, b * SIZE + lc, b * SIZE + r}


def area(rect: Rect) -> int:
    t, lc, b, r = rect
    return (b - t + 1) * (r - lc + 1)


def inside(rect: Rect | None, row: int, col: int) -> bool:
    return rect is not None and rect[0] <= row <= rect[2] and rect[1] <= col <= rect[3]


def rect_text(rect: Rect, claim: bool = False) -> str:
    t, lc, b, r = rect
    return f"{'!' * claim}{ROWS[t]}{COLS[lc]}{ROWS[b]}{COLS[r]}"


def cells_text(n: int) -> str:
    return f"{n} cell{'s' * (n != 1)}"


class PillarsBoard(GridBoard[Pillars]):
    """The board widget for Pillars: anchor a corner, then fill up to the opposite one."""

    BINDINGS: ClassVar = [
        Binding("enter,space", "play", "Choose", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("j", "joker", "Joker"),
        Binding("f", "flip", "Flip"),
    ]
    FLIPS = True  # the two players sit on opposite sides

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.anchor: int | None = None  # the corner chosen first
        self.armed = False  # the joker goes with the next move
        self.refusal: str | None = None  # why the last choice was refused, until the next key
        self._press: int | None = None  # the cell a mouse button went down on
        self._dragged = False  # the mouse moved to another cell with the button down

    def shape(self) -> tuple[int, int]:
        return SIZE, SIZE

    # ----- the choice --------------------------------------------------------------------
    def _set_choice(self, anchor: int | None, refusal: str | None = None) -> None:
        self.anchor, self.refusal = anchor, refusal
        self.refresh()

    def on_new_game(self) -> None:
        super().on_new_game()
        self.armed = False
        self._press, self._dragged = None, False
        self._set_choice(None)

    def refresh_game(self) -> None:
        # a move, undo or redo: choose afresh, the joker disarmed
        self.anchor, self.refusal, self.armed = None, None, False
        super().refresh_game()

    def choose(self, cell: int) -> None:
        """Enter or a click on `cell`: anchor it, or fill the rectangle from the anchor to
        it, or say why not."""
        game = self.playing()
        if game is None:
            return
        if self.anchor is None:
            why = game.rect_problem(*span(cell, cell))
            if why is not None:
                self._set_choice(None, f"{why}: anchor an empty cell")
            else:
                self._set_choice(cell)
            return
        rect = span(self.anchor, cell)
        why = game.rect_problem(*rect)
        if why is not None:
            self._set_choice(self.anchor, f"{rect_text(rect)}: {why}")
        else:
            self.pick((*rect, self.armed))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":  # otherwise Esc goes on to the screen, as on other boards
            return self.anchor is not None
        if action == "joker":
            return self.game is not None and not self.game.is_over
        return super().check_action(action, parameters)

    def action_cancel(self) -> None:
        self._set_choice(None)

    def action_play(self) -> None:
        self.choose(self.cursor)  # type: ignore[arg-type]

    def action_joker(self) -> None:
        """Arm the joker for the next move, or disarm it; refused once the mover claimed."""
        game = self.playing()
        if game is None:
            return
        mover = game.to_move
        at = game.claim_move[mover]
        if at is not None:
            self.armed = False
            self.refusal = (f"{NAMES[mover]} has already used the joker "
                            f"({game.move_text(game.history[at])}, worth {game.claims[mover]})")
        else:
            self.armed, self.refusal = not self.armed, None
        self.refresh()

    def action_step(self, key: str) -> None:
        self.refusal = None
        super().action_step(key)

    def move_for(self, target: Hashable) -> Hashable:
        """The move choosing `target` makes now: from the anchor (None without one)."""
        if self.anchor is None:
            return None
        return (*span(self.anchor, target), self.armed)  # type: ignore[arg-type]

    def target_for(self, move: Hashable) -> Hashable:
        t, lc, b, r, _claim = move  # type: ignore[misc]
        return b * SIZE + r

    def choices_for(self, move: Hashable) -> list[Hashable]:
        """The top left corner (anchored), then the bottom right one."""
        t, lc, b, r, _claim = move  # type: ignore[misc]
        return [t * SIZE + lc, b * SIZE + r]

    def overlay_targets(self, move: Hashable) -> list[Hashable]:
        """The rectangle's top left corner (where the best of its corner's moves shows);
        with a corner anchored, the anchor and the rectangle's opposite corner (where a
        click or Enter would fill it)."""
        t, lc, b, r, _claim = move  # type: ignore[misc]
        if self.anchor is None:
            return [t * SIZE + lc]
        row, col = divmod(self.anchor, SIZE)
        return [self.anchor, (t + b - row) * SIZE + lc + r - col]

    def overlay_moves(self) -> list[Hashable]:
        """With a corner anchored, the rectangles with a corner there only."""
        moves = list(super().overlay_moves())
        if self.anchor is None:
            return moves
        return [m for m in moves if self.anchor in corners(m)]

    def keys_for(self, move: Hashable) -> list[str]:
        """`j` for a claiming move (when the joker is not armed already), after Esc if a
        corner is anchored already; none for a plain move on a fresh board."""
        keys = ["escape"] if self.anchor is not None else []
        return keys + ["j"] * (bool(move[4]) != self.armed)  # type: ignore[index]

    def show_hint(self, move: Hashable | None) -> None:
        """Mark the hint's rectangle and leave the board so that Enter plays it: its top
        left corner anchored, the joker armed if it claims, the cursor on the opposite
        corner."""
        if move is not None and self.game is not None and self.game.is_legal(move):
            self.armed = bool(move[4])  # type: ignore[index]
            self._set_choice(self.choices_for(move)[0])  # type: ignore[arg-type]
        super().show_hint(move)

    # ----- the mouse -------------------------------------------------------------------
    def on_mouse_down(self, event: events.MouseDown) -> None:
        target = self._target(event)
        if target is None or self.playing() is None:
            return
        self.capture_mouse()
        self._press, self._dragged = target, False  # type: ignore[assignment]
        self.refusal = None
        self.cursor = target

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """A drag previews the rectangle from where it started; after a click has anchored
        a corner, the mouse leads the cursor (the preview follows it)."""
        target = self._target(event)
        if target is None or self.playing() is None:
            return
        if self._press is not None and target != self._press and not self._dragged:
            self._dragged = True
            self._set_choice(self._press)
        if (self._press is not None or self.anchor is not None) and target != self.cursor:
            self.refusal = None
            self.cursor = target

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """The end of a click (anchor, or fill up to here) or of a drag (fill from where it
        started to here)."""
        press, dragged = self._press, self._dragged
        if press is not None:
            self.release_mouse()
        self._press, self._dragged = None, False
        target = self._target(event)
        if press is None or target is None or self.playing() is None:
            return
        self.cursor = target
        if dragged or target != press:
            self.anchor = press
        self.choose(target)  # type: ignore[arg-type]

    def on_click(self, event: events.Click) -> None:
        event.prevent_default()  # not the base's click: the button's going down and up act

    # ----- size --------------------------------------------------------------------
    def layout(self, width: int, height: int) -> Geometry:
        return fit(width, height)

    # ----- what is being chosen -----------------------------------------------------
    def preview(self) -> tuple[Rect, str | None] | None:
        """The rectangle from the anchor to the cursor and why it cannot be filled (None
        when it can), while a corner is anchored on an active board."""
        game = self.game
        if self.anchor is None or not self.active() or game is None:
            return None
        rect = span(self.anchor, self.cursor)  # type: ignore[arg-type]
        return rect, game.rect_problem(*rect)

    def _joker_note(self, game: Pillars) -> str:
        return f"joker armed: worth {game.claim_value()}, j disarms"

    def info_text(self) -> Text:
        """What Enter would do, why it was refused, or whose turn it is."""
        game = self.game
        if game is None:
            return Text()
        if game.outcome is not None:
            return Text(". ".join([game.outcome.reason, *game.score_lines()]) + ".", style=BOLD)
        if self.refusal is not None:
            return Text(self.refusal, style=self.style("bad"))
        mover = NAMES[game.to_move]
        if self.locked:
            return Text(f"{mover} to move (waiting)", style="dim")
        seen = self.preview()
        if seen is not None:
            rect, why = seen
            if why is not None:
                return Text(f"{rect_text(rect)}: {why}", style=self.style("bad"))
            claim = self.armed
            hint = "hint: " if (*rect, claim) == self.hint else ""
            line = f"{hint}Enter fills {rect_text(rect, claim)} ({cells_text(area(rect))})"
            style = self.style("info")
            if claim:
                line += f" with the joker (worth {game.claim_value()})"
                style = self.style("good")
            if area(rect) == game.empty:
                line += f": the last cell, {mover} loses"
                style = self.style("warn")
            return Text(line + ". Esc drops the anchor.", style=style)
        if self.anchor is not None:
            return Text(f"{cell_name(self.anchor)} anchored: Enter on the opposite corner "
                        "fills the rectangle.", style=self.style("info"))
        text = Text(f"{mover} to move: Enter anchors a corner.", style=self.style("info"))
        if self.armed:
            text.append(f" {self._joker_note(game)[:1].upper()}{self._joker_note(game)[1:]}.",
                        style=self.style("good"))
        last = self.last_move()
        if last is not None:
            n = area(last[:4])  # type: ignore[index, arg-type]
            text.append(f" Last: {NAMES[1 - game.to_move]} {game.move_text(last)} "
                        f"({cells_text(n)}).", style="dim")
        return text

    # ----- drawing -----------------------------------------------------------------
    def _looks(self, game: Pillars) -> list[list[tuple[object, Style, str, Style]]]:
        """Each cell's group (cells of one group are joined across their gap; None joins
        nothing), background, glyph and glyph style, in the order drawn (`shown`)."""
        seen = self.preview()
        rect, why = seen if seen is not None else (None, None)
        hint = self.hint[:4] if isinstance(self.hint, tuple) else None
        shades = self.overlay_map()
        last = len(game.history) - 1
        empty = self.style("empty")
        blocked = self.style("blocked")
        out = []
        for row in range(SIZE):
            line = []
            for col in range(SIZE):
                tile = game.tiles[row * SIZE + col]
                group: object
                reverse: Style | None = None  # the shade of a last-move tile
                if tile == PILLAR:
                    group, bg, glyph = None, blocked.bgcolor, "#"
                    style = Style(color=blocked.color, bold=True)
                elif tile == EMPTY:
                    group, bg, glyph = "empty", empty.bgcolor, "·"
                    style = Style(color=empty.color)
                    shade = shades.get(row * SIZE + col)
                    if shade is not None:  # the AI's view: a place of its own, not joined
                        group, bg = None, self.overlay_background(shade).bgcolor
                else:
                    # a tile: its move's number, red's bold and blue's plain (so the sides
                    # differ without colour too), the last move in reverse video
                    seat = tile % 2
                    group, glyph = tile, str(tile + 1)
                    run = self.style(f"run-{seat}").bgcolor
                    colour = self.seat_style(seat).color
                    bg, style = run, Style(color=colour, bold=seat == 0)
                    if tile == last:
                        reverse = Style(color=colour, bgcolor=run, reverse=True)
                if inside(rect, row, col):
                    # the rectangle on the path shade; when it cannot be filled, its empty
                    # cells crossed out and what is in the way on the `off` shade
                    path = self.style("path")
                    group, bg = "preview", path.bgcolor
                    if tile == EMPTY and why is None:
                        glyph, style = "!" if self.armed else "+", Style(color=path.color,
                                                                        bold=True)
                    elif tile == EMPTY:
                        glyph, style = "×", Style(color=self.style("bad").color, bold=True)
                    else:  # in the way: struck through
                        reverse = None
                        bg = self.style("off").bgcolor
                        style = Style(color=self.style("off").color, bold=True, strike=True)
                if inside(hint, row, col):  # the suggestion stays green whatever else it is
                    group, bg = "hint", self.style("hint").bgcolor
                    glyph = HINT if glyph == "·" else glyph
                if reverse is not None:
                    line.append((group, reverse, glyph, Style(bold=style.bold)))
                else:
                    line.append((group, Style(bgcolor=bg), glyph, style))
            out.append(line)
        return [[out[i // SIZE][i % SIZE] for i in (self.shown(r * SIZE + c) for c in range(SIZE))]
                for r in range(SIZE)]

    def render(self) -> Text:
        game = self.game
        g = self.geometry()
        text = Text(no_wrap=True, overflow="crop")
        if game is None:
            return text
        self.note(None if g.info else self.info_text())
        looks = self._looks(game)
        focus = self.cursor if self.active() else None
        frow, fcol = divmod(self.place_of(focus), SIZE) if isinstance(focus, int) else (None, None)
        armed = self.armed and self.playing() is not None
        self._columns(text, g, fcol, corner="!" if armed else " ")
        for row in range(SIZE):
            for line in range(g.ch):
                text.append("\n")
                self._cell_line(text, g, game, looks, row, line, frow, focus)
            if g.gy and row < SIZE - 1:
                text.append("\n")
                self._gap_line(text, g, looks, row)
        if g.bottom:
            text.append("\n")
            self._columns(text, g, fcol)
        if g.info:
            lines = self.info_text().wrap(self.app.console, g.width - 1, no_wrap=False)
            if len(lines) > g.info:
                lines = lines[:g.info]
                lines[-1].truncate(g.width - 2)
                lines[-1].append("…")
            for info_line in lines:
                text.append("\n ")
                text.append_text(info_line)
            text.append("\n " * (g.info - len(lines)))  # the height stays the layout's
        return text

    def _columns(self, text: Text, g: Geometry, focus_col: int | None,
                 corner: str = " ") -> None:
        text.append(corner, style=self.style("warn"))
        text.append(" " * (LABEL - 1))
        for col in range(SIZE):
            style = self.style("cursor") if col == focus_col else self.style("label")
            text.append(" ")
            name = COLS[self.shown(col) % SIZE]
            text.append(" " * g.mark_x + name + " " * (g.cw - g.mark_x - 1), style=style)
        text.append(" " * g.edge)

    def _frame(self, cell: int) -> tuple[str, str, Style] | None:
        """The brackets round a cell: the cursor's, else the anchor's."""
        if cell == self.cursor and self.active():
            return "[", "]", self.style("cursor")
        if cell == self.anchor and self.playing() is not None:
            return "{", "}", self.style("cursor")
        return None

    def _cell_line(self, text: Text, g: Geometry, game: Pillars, looks: list, row: int,
                   line: int, focus_row: int | None, focus: int | None) -> None:
        label = self.style("cursor") if row == focus_row else self.style("label")
        text.append(ROWS[self.shown(row * SIZE) // SIZE] if line == g.mark_y else " ",
                    style=label)
        text.append(" " * (LABEL - 1))
        middle = line == g.mark_y
        # a rectangle's bottom edge, underlined where no gap line separates the rows
        under = [not g.gy and line == g.ch - 1 and row < SIZE - 1
                 and isinstance(looks[row][col][0], int)
                 and looks[row + 1][col][0] != looks[row][col][0] for col in range(SIZE)]
        frames = {}
        for cell in (self.anchor, focus):
            if cell is not None and self.place_of(cell) // SIZE == row and (
                    f := self._frame(cell)):
                frames[self.place_of(cell) % SIZE] = f
        inner = None  # a bracket right of the last column with no gap for it: in its cell
        if not g.edge and SIZE - 1 in frames:
            inner = frames[SIZE - 1][1], frames[SIZE - 1][2]
        for col in range(SIZE + 1):
            if col == SIZE and not g.edge:
                break
            # the gap left of `col`: a bracket, or joined to both sides, or bare
            left = looks[row][col - 1] if col else None
            right = looks[row][col] if col < SIZE else None
            gap_style = Style()
            if left is not None and right is not None and left[0] is not None and (
                    left[0] == right[0]):
                gap_style = left[1] + Style(underline=under[col - 1] and under[col])
            char = " "
            if col in frames:
                char = frames[col][0]
                gap_style += frames[col][2]
            elif col - 1 in frames:
                char = frames[col - 1][1]
                gap_style += frames[col - 1][2]
            text.append(char, style=gap_style)
            if col == SIZE:
                break
            group, bg, glyph, style = right  # type: ignore[misc]
            back = bg + Style(underline=under[col])
            cell = Text()
            if game.tiles[self.shown(row * SIZE + col)] == PILLAR:
                hatch = back + Style(color=self.style("hatch").color)
                if middle:
                    cell.append(HATCH * g.mark_x, style=hatch)
                    cell.append(glyph, style=back + style)
                    cell.append(HATCH * (g.cw - g.mark_x - 1), style=hatch)
                else:
                    cell.append(HATCH * g.cw, style=hatch)
            elif middle:
                start = g.mark_x - len(glyph) + 1
                cell.append(" " * start, style=back)
                cell.append(glyph, style=back + style)
                cell.append(" " * (g.cw - start - len(glyph)), style=back)
            else:
                cell.append(" " * g.cw, style=back)
            if inner is not None and col == SIZE - 1:
                cell = cell[:-1]
                cell.append(inner[0], style=back + inner[1])
            text.append_text(cell)

    def _gap_line(self, text: Text, g: Geometry, looks: list, row: int) -> None:
        """The gap line under `row`: joined where the cells above and below are one group."""
        text.append(" " * LABEL)
        for col in range(SIZE + 1):
            if col == SIZE and not g.edge:
                break
            groups = [looks[r][c][0] for r in (row, row + 1) for c in (col - 1, col)
                      if 0 <= c < SIZE]
            joined = len(groups) == 4 and groups[0] is not None and len(set(groups)) == 1
            text.append(" ", style=looks[row][col - 1][1] if joined else Style())
            if col == SIZE:
                break
            above, below = looks[row][col], looks[row + 1][col]
            same = above[0] is not None and above[0] == below[0]
            text.append(" " * g.cw, style=above[1] if same else Style())

    # ----- input ---------------------------------------------------------------------
    def target_at(self, x: int, y: int) -> int | None:
        """The cell under a content offset (with the gap left of it and the gap line under
        it; the last column's right gap too), or None."""
        g = self.geometry()
        col = min((x - LABEL) // (g.cw + 1), SIZE - 1)
        row = (y - g.grid_y) // (g.ch + g.gy)
        if x < LABEL or x >= g.width or y < g.grid_y or y >= g.grid_y + g.grid_h or not (
                0 <= row < SIZE):
            return None
        return self.shown(row * SIZE + col)


BOARD = PillarsBoard
