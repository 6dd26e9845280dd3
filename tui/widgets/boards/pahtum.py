"""The Pah-Tum board: a 7x7 grid, rows A-G and columns 1-7.

Every state also reads without colour: `#` blocked (on a hatched chip), `.`
empty, `(X)` the last move, `[ ]` the cursor, `<.>` the hint; scoring runs are
lit in their owner's colour and underlined. The cursor is a cell number, as
moves are. Cells grow with the space the screen gives. The AI's view shades each
empty cell; `f` turns the board a half turn (row G on top, column 7 on the left).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from rules.pahtum import BLOCK, EMPTY, ROWS, SIZE, PahTum, cell_name
from tui.widgets.boards.cells import ChipCells
from tui.widgets.boards.grid import GridBoard

LEFT = 4  # the row label gutter
TOP = 1  # the column label line
SCALES = range(8, 1, -1)  # scales tried, largest first; 2 is the 80x24 board
BOLD = Style(bold=True)
HATCH = "╱"  # a blocked cell's fill round its glyph (where no cursor brackets it)


@dataclass(frozen=True)
class Geometry(ChipCells):
    """The board at one scale: its chip cells with the labels' gutters."""

    @property
    def width(self) -> int:
        return LEFT + SIZE * self.cw

    @property
    def height(self) -> int:
        return TOP + SIZE * self.ch - 1


def fit(width: int, height: int) -> Geometry:
    """The largest cells that fit `width` x `height` (the smallest when none does).

    A fixed point: `fit(g.width, g.height) == g`, so the size the widget asks for
    gives back the same geometry when it is rendered.
    """
    for k in SCALES:
        g = Geometry(k)
        if g.width <= width and g.height <= height:
            return g
    return Geometry(SCALES[-1])


class PahTumBoard(GridBoard[PahTum]):
    """The board widget for Pah-Tum."""

    FLIPS = True  # the two players sit on opposite sides

    def shape(self) -> tuple[int, int]:
        return SIZE, SIZE

    def home(self) -> int:
        """The free cell nearest the middle (the middle itself may be blocked)."""
        middle = super().home()
        game = self.game
        if game is None:
            return middle  # type: ignore[return-value]
        mr, mc = divmod(middle, SIZE)  # type: ignore[call-overload]
        free = [c for c in range(SIZE * SIZE) if game.board[c] == EMPTY]
        return min(free, key=lambda c: (abs(c // SIZE - mr) + abs(c % SIZE - mc), c),
                   default=middle)

    # ----- size --------------------------------------------------------------------
    def layout(self, width: int, height: int) -> Geometry:
        return fit(width, height)

    # ----- drawing -----------------------------------------------------------------
    def render(self) -> Text:
        game = self.game
        g = self.geometry()
        text = Text(no_wrap=True)
        text.append(" " * LEFT + "".join(f"{self.shown(c) % SIZE + 1:^{g.cw}}"
                                         for c in range(SIZE)), style="bold")
        if game is None:
            return text
        run_owner: dict[int, int] = {}
        for seat in range(game.players):
            for cells, _points in game.runs(seat):
                for cell in cells:
                    run_owner[cell] = seat
        shades = self.overlay_map()
        for r in range(SIZE):
            for line in range(g.ch if r < SIZE - 1 else g.chip_y + g.chip_h):
                text.append("\n")
                if not g.chip_y <= line < g.chip_y + g.chip_h:
                    continue  # a blank line between two rows of chips
                row = self.shown(r * SIZE) // SIZE
                text.append(f" {ROWS[row]}  " if line == g.mark_y else " " * LEFT, style="bold")
                for c in range(SIZE):
                    cell = self.shown(r * SIZE + c)
                    text.append(" ")
                    self._chip(text, g, game, cell, run_owner.get(cell), line == g.mark_y,
                               shades.get(cell))
                    text.append(" ")
        return text

    def _chip(self, text: Text, g: Geometry, game: PahTum, cell: int, run: int | None,
              middle: bool, shade: str | None = None) -> None:
        """One line of a cell's chip: brackets at its edges, the glyph in the middle (on
        the overlay's shade, if any)."""
        mark = game.board[cell]
        at_cursor = cell == self.cursor and self.active()
        left, right = " ", " "
        if cell == self.last_move():
            left, right = "(", ")"
        if cell == self.hint:
            left, right = "<", ">"
        if at_cursor:
            left, right = "[", "]"
        empty = self.style("empty")
        seat = self.seat_of(mark)
        fill, fill_style = " ", None
        if mark == BLOCK:
            style, body = self.style("blocked"), "#"
            fill, fill_style = HATCH, self.style("blocked") + self.style("hatch")
        elif mark == EMPTY or seat is None:
            hint_bg = Style(bgcolor=self.style("hint").bgcolor)
            style, body = empty + self.overlay_background(shade), "."
            if cell == self.hint:
                style += hint_bg
        else:
            style = Style(bgcolor=empty.bgcolor) + self.seat_style(seat, run=run == seat)
            body = mark
        bracket = self.style("cursor") + Style(bgcolor=style.bgcolor) if at_cursor \
            else style + BOLD
        if mark == BLOCK and not at_cursor:
            left, right, bracket = fill, fill, fill_style  # hatched from edge to edge
        text.append(left, bracket)
        inner = g.chip_w - 2
        if middle:
            side = (inner - 1) // 2
            text.append(fill * side, fill_style or style)
            text.append(body, style)
            text.append(fill * (inner - 1 - side), fill_style or style)
        else:
            text.append(fill * inner, fill_style or Style(bgcolor=style.bgcolor))
        text.append(right, bracket)

    # ----- input ---------------------------------------------------------------------
    def target_at(self, x: int, y: int) -> int | None:
        """The cell under a content offset (its chip or the space round it), or None."""
        g = self.geometry()
        col, row = (x - LEFT) // g.cw, (y - TOP) // g.ch
        if x < LEFT or y < TOP or not (0 <= col < SIZE and 0 <= row < SIZE):
            return None
        return self.shown(row * SIZE + col)

    # ----- the end screen ----------------------------------------------------------------
    @classmethod
    def describe_result(cls, game: PahTum) -> list[str]:
        """The reason, then each side's scoring runs on the final board."""
        lines = super().describe_result(game)
        if game.outcome is None:
            return lines
        outcome = game.outcome
        for seat, mark in enumerate(game.marks):
            runs = game.runs(seat)
            parts = [f"{cell_name(cells[0])}-{cell_name(cells[-1])} {points}"
                     for cells, points in sorted(runs, key=lambda run: -run[1])]
            total = sum(points for _, points in runs)
            text = ", ".join(parts) if parts else "no runs"
            if outcome.loser == seat:
                text = f"forfeits the game ({'runs ' + text if parts else text} on the board)"
            elif outcome.loser is not None and outcome.points[seat] > total:
                text += ", at least 1 for a win by forfeit"
            lines.append(f"{mark} {outcome.points[seat]}: {text}")
        return lines


BOARD = PahTumBoard
