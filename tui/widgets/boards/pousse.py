"""The Pousse board: an N x N grid framed by its 4N insertion points.

The frame is the move picker: the top row shows the column numbers, which are
the T insertion points, the bottom row the B points, the left and right
columns the row numbers (L and R points). A cursor runs around the frame; the
line it would push is lit with arrows in the push direction, the marker that
would fall off is marked `×`, and the line under the board says what the move
would do (repeat and lose, hand the opponent a straight, win). Cells grow with
the space the screen gives; where cells are too narrow for two-digit column
numbers to stand apart, a number that would touch its neighbour shows on one
edge only (odd ones on top, even ones at the bottom). The AI's view shades each
insertion point's number on the frame. Without colour: `X`/`O`/`.`
marks, arrows for the preview, `×` for the falling marker, `*` for the last
move's entry cell.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size

from rules.pousse import EMPTY, REPETITION, STRAIGHTS, PMove, Pousse, PushPreview, line_cells
from tui.widgets.boards.grid import GridBoard

CW_RANGE = range(9, 1, -1)  # cell widths tried, widest first; 2 fits N=20 in 46 columns
GAP = 1  # blank columns between the row labels and the grid: marks never touch a label
MARGIN = 1  # a blank column right of the right-hand labels: they never touch a border
CH_RANGE = range(4, 0, -1)  # cell heights tried, tallest first

ARROWS = {"L": "→", "R": "←", "T": "↓", "B": "↑"}
WORDS = {"L": "right", "R": "left", "T": "down", "B": "up"}
OPPOSITE = {"T": "B", "B": "T", "L": "R", "R": "L"}
RULES = {
    REPETITION: "repeating a position loses for the mover",
    STRAIGHTS: "more straights wins",
}


@dataclass(frozen=True)
class Geometry:
    """Where everything is: label width, gaps, cell size, and whether the info line fits.

    Left to right: the row numbers (L points), `lead` blank columns, the grid, `gap` blank
    columns, the row numbers (R points) and a margin, so that no number touches what is
    beside the board. `lead` is 0 only where nothing else fits (N=20 at 80x24): each cell
    starts with its arrow column, which then keeps the marks off the row numbers.
    """

    n: int
    label: int  # row-number columns on each side
    gap: int  # blank columns between the grid and the right-hand labels
    cw: int
    ch: int
    info: bool
    lead: int = GAP  # blank columns between the left-hand labels and the grid

    @property
    def width(self) -> int:
        return 2 * self.label + self.lead + self.gap + MARGIN + self.n * self.cw

    @property
    def height(self) -> int:
        return 2 + self.n * self.ch + int(self.info)

    @property
    def left(self) -> int:
        """The x of the grid's first column."""
        return self.label + self.lead

    @property
    def mark_x(self) -> int:
        """The mark's offset inside a cell; the column numbers end there too."""
        return self.cw // 2

    @property
    def mark_y(self) -> int:
        return (self.ch - 1) // 2


def fit(n: int, width: int, height: int) -> Geometry:
    """The largest cells (about twice as wide as tall) that fit `width` x `height`.

    A fixed point: `fit(n, g.width, g.height) == g`, so the size the widget asks
    for gives back the same geometry when it is rendered.
    """
    label = len(str(n))
    frame = 2 * (label + GAP) + MARGIN  # the columns that are not cells
    cw = next((wide for wide in CW_RANGE if frame + n * wide <= width), 2)
    lead = 0 if frame + n * cw > width and frame - GAP + n * cw <= width else GAP
    ch, info = 1, 2 + n + 1 <= height
    for tall in CH_RANGE:
        if 2 + n * tall + 1 <= height:
            ch = tall
            break
    ch = min(ch, (cw + 1) // 2)
    cw = min(cw, 2 * ch + 2)
    return Geometry(n, label, GAP, cw, ch, info, lead)


def column_labels(g: Geometry, side: str) -> list[str]:
    """Each column's label block (`g.cw` wide) on the T or B edge.

    A number ends at the mark's offset; one that would touch a neighbour's (two
    digits in a 2-wide cell) shows on one edge only: odd numbers on top, even
    ones at the bottom, so no two numbers on an edge ever run together.
    """
    blocks = []
    for i in range(1, g.n + 1):
        digits = str(i)
        start = max(0, g.mark_x - len(digits) + 1)
        blocks.append((" " * start + digits).ljust(g.cw)[:g.cw])

    def touch(a: int, b: int) -> bool:  # 0-based neighbours a, b = a + 1
        return 0 <= a and b < g.n and blocks[a][-1] != " " and blocks[b][0] != " "

    mine = 1 if side == "T" else 0  # the parity of the numbers an edge keeps
    return [block if (i + 1) % 2 == mine or not (touch(i - 1, i) or touch(i, i + 1))
            else " " * g.cw for i, block in enumerate(blocks)]


def frame_step(move: PMove, key: str, n: int) -> PMove:
    """The insertion point an arrow key leads to from `move`.

    Along an edge the arrows follow it and turn the corner onto the next edge
    (Right past T{n} is R1, Up past L1 is T1); across an edge they jump to the
    opposite one (Down on T3 is B3).
    """
    side, i = move
    along = ("left", "right") if side in "TB" else ("up", "down")
    if key not in along:
        return (OPPOSITE[side], i)
    j = i + (1 if key in ("right", "down") else -1)
    if 1 <= j <= n:
        return (side, j)
    if side in "TB":
        return ("R" if j > n else "L", 1 if side == "T" else n)
    return ("B" if j > n else "T", 1 if side == "L" else n)


def preview_line(game: Pousse, p: PushPreview) -> str:
    """What the move would do, warnings first."""
    marks = game.marks
    mover = marks[game.to_move]
    other = marks[1 - game.to_move]
    head = f"{game.move_text(p.move)}: "
    if p.repeats:
        return head + f"REPEATS a position: {mover} LOSES"
    if p.outcome is not None:
        winner = marks[p.outcome.winner] if p.outcome.winner is not None else "?"
        counts = " ".join(f"{mark} {count}" for mark, count in zip(marks, p.straights,
                                                                   strict=True))
        return head + f"{winner} WINS, straights {counts}"
    parts = []
    if p.gives_opponent_straight:
        parts.append(f"gives {other} a straight!")
    if p.pushed_off_mark:
        parts.append(f"pushes {p.pushed_off_mark} off")
    parts.append(f"moves {len(p.moved)} {WORDS[p.move[0]]}" if p.moved else "moves no marker")
    return head + ", ".join(parts)


class PousseBoard(GridBoard[Pousse]):
    """The board widget for Pousse: pick an insertion point on the frame (the cursor)."""

    BINDINGS = [Binding("enter,space", "play", "Insert", show=False)]
    HOVER = True  # the insertion point under the mouse is previewed

    def home(self) -> PMove:
        return ("T", (self._n() + 1) // 2)

    def step(self, cursor: Hashable, key: str) -> PMove:
        return frame_step(cursor, key, self._n())  # type: ignore[arg-type]

    def size_needed(self) -> Size:
        # the least layout (a row and two columns a cell), with no lead and the info line
        least = replace(fit(self._n(), 0, 0), lead=0, info=True)
        return Size(least.width, least.height)

    def _n(self) -> int:
        return self.game.size if self.game is not None else 4

    # ----- size --------------------------------------------------------------------
    def get_content_width(self, container: Size, viewport: Size) -> int:
        # as wide as the room allows, so larger terminals get larger cells
        room = self.room(container, viewport)
        return fit(self._n(), room.width, room.height).width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return fit(self._n(), width, container.height).height

    def geometry(self) -> Geometry:
        """The layout for the size the widget has now."""
        size = self.content_size
        return fit(self._n(), size.width, size.height)

    # ----- what to show ----------------------------------------------------------------
    def target(self) -> PMove | None:
        """The insertion point previewed: the hovered one, else the cursor's."""
        if not self.active():
            return None
        return self.hover or self.cursor  # type: ignore[return-value]

    def preview(self) -> PushPreview | None:
        target = self.target()
        if target is None or self.game is None:
            return None
        return self.game.preview(target)

    def _loses(self, p: PushPreview) -> bool:
        return p.repeats or (p.outcome is not None and self.game is not None
                             and p.outcome.winner != self.game.to_move)

    def info_text(self) -> Text:
        """The line under the board: the preview's verdict, or how the game ended."""
        game = self.game
        if game is None:
            return Text()
        if game.outcome is not None:
            return Text(game.outcome.reason, style="bold")
        p = self.preview()
        if p is None:
            mark = game.marks[game.to_move]
            return Text(f"{mark} to move" + (" (waiting)" if self.locked else ""), style="dim")
        line = preview_line(game, p)
        if self.hint is not None and p.move == self.hint:
            line = "hint " + line
        if self._loses(p):
            style = self.style("bad")
        elif p.outcome is not None:
            style = self.style("good")
        elif p.gives_opponent_straight:
            style = self.style("warn")
        else:
            style = self.style("info")
        return Text(line, style=style)

    # ----- drawing -----------------------------------------------------------------
    def render(self) -> Text:
        game = self.game
        if game is None:
            return Text()
        g = self.geometry()
        self.note(None if g.info else self.info_text())
        n = game.size
        p = self.preview()
        path: set[tuple[int, int]] = set()
        if p is not None:
            path = {p.entry, *(b for _, b in p.moved)}
        straight: dict[tuple[int, int], int | None] = {}
        for kind, index, mark in game.straight_lines():
            for k in range(n):
                straight[(index, k) if kind == "row" else (k, index)] = self.seat_of(mark)
        last = game.last_move
        last_entry = line_cells(n, last)[0] if last is not None else None
        text = Text(no_wrap=True, overflow="crop")
        self._shades = self.overlay_map()
        self._edge_row(text, g, "T", p)
        for r in range(n):
            for line in range(g.ch):
                text.append("\n")
                self._side_block(text, g, ("L", r + 1), line, left=True)
                text.append(" " * g.lead)
                for c in range(n):
                    self._cell(text, g, game, (r, c), line, p, path, straight.get((r, c)),
                               last_entry)
                text.append(" " * g.gap)
                self._side_block(text, g, ("R", r + 1), line, left=False)
                text.append(" " * MARGIN)
        text.append("\n")
        self._edge_row(text, g, "B", p)
        if g.info:
            text.append("\n")
            info = self.info_text()
            info.truncate(g.width, overflow="ellipsis")
            text.append_text(info)
        return text

    _shades: dict = {}  # the overlay's shades while a frame is drawn

    def _label_style(self, move: PMove) -> Style:
        game = self.game
        style = self.style("label")
        if game is not None and move == self.last_move():
            mover = (len(game.history) - 1) % game.players
            style = self.seat_style(mover) + self.style("last")
        style += self.overlay_background(self._shades.get(move))
        if move == self.hint:
            style += self.style("hint")
        if self.active():
            if move == self.cursor:
                style += self.style("cursor") + Style(reverse=True)
            elif move == self.hover:
                style += self.style("cursor") + Style(underline=True)
        return style

    def _edge_row(self, text: Text, g: Geometry, side: str, p: PushPreview | None) -> None:
        corner = " " * g.left
        if not g.info and p is not None and side == "T":
            corner = self._flag(p).ljust(len(corner))[:len(corner)]
            text.append(corner, style=self.style("good" if corner.strip() == "++" else "bad"))
        else:
            text.append(corner)
        for c, block in enumerate(column_labels(g, side)):
            text.append(block, style=self._label_style((side, c + 1)))
        text.append(" " * (g.gap + g.label + MARGIN))

    def _flag(self, p: PushPreview) -> str:
        """The info line's verdict in two characters, for when no line is left for it."""
        if self._loses(p):
            return "!!"
        if p.outcome is not None:
            return "++"
        return "!" if p.gives_opponent_straight else ""

    def _side_block(self, text: Text, g: Geometry, move: PMove, line: int, left: bool) -> None:
        digits = str(move[1]) if line == g.mark_y else ""
        block = digits.rjust(g.label) if left else digits.ljust(g.label)
        text.append(block, style=self._label_style(move))

    def _cell(self, text: Text, g: Geometry, game: Pousse, rc: tuple[int, int], line: int,
              p: PushPreview | None, path: set[tuple[int, int]], straight: int | None,
              last_entry: tuple[int, int] | None) -> None:
        r, c = rc
        mark = game.cell(r, c)
        seat = self.seat_of(mark)
        chequer = self.style(f"chequer-{(r + c) % 2}")
        if p is not None and rc == p.pushed_off:
            slot, slot_style = "×", self.style("off")
        elif rc in path:
            assert p is not None
            slot, slot_style = ARROWS[p.move[0]], self.style("path")
        else:
            look = self.style(f"run-{straight}") if straight is not None else chequer
            slot, slot_style = " ", Style(bgcolor=look.bgcolor)
            if rc == last_entry:
                slot = "*"
                slot_style += self.seat_style(seat) if seat is not None else Style(bold=True)
        base = Style(bgcolor=slot_style.bgcolor)
        if line != g.mark_y:
            text.append(" " * g.cw, style=base)
            return
        if mark == EMPTY or seat is None:
            mark_style = base + Style(color=chequer.color)
        else:
            mark_style = base + self.seat_style(seat) + Style(underline=straight is not None)
        text.append(" " * (g.mark_x - 1), style=base)
        text.append(slot, style=slot_style)
        text.append(mark, style=mark_style)
        text.append(" " * (g.cw - g.mark_x - 1), style=base)

    # ----- input ---------------------------------------------------------------------
    def target_at(self, x: int, y: int) -> PMove | None:
        """The insertion point under a content offset, or None (cells and corners)."""
        g = self.geometry()
        n, left, right = g.n, g.left, g.left + g.n * g.cw
        bottom = 1 + n * g.ch
        if left <= x < right and y in (0, bottom):
            return ("T" if y == 0 else "B", (x - left) // g.cw + 1)
        if 1 <= y < bottom and 0 <= x < g.width and not left <= x < right:
            return ("L" if x < left else "R", (y - 1) // g.ch + 1)
        return None

    # ----- the end screen ----------------------------------------------------------------
    @classmethod
    def describe_result(cls, game: Pousse) -> list[str]:
        """The reason, the rule that decided (none for a forfeit), each side's straights."""
        lines = super().describe_result(game)
        outcome = game.outcome
        if outcome is None:
            return lines
        if outcome.ending in RULES:
            lines.append("Rule: " + RULES[outcome.ending])
        found = game.straight_lines()
        for mark in game.marks:
            mine = [f"{'row' if kind == 'row' else 'column'} {index + 1}"
                    for kind, index, m in found if m == mark]
            count = f"{len(mine)} straight" + ("" if len(mine) == 1 else "s")
            lines.append(f"{mark} {count}" + (": " + ", ".join(mine) if mine else ""))
        return lines


BOARD = PousseBoard
