"""The Pah-Tum board: a 7x7 grid, rows A-G and columns 1-7.

Every state also reads without colour: `#` blocked, `.` empty, `(X)` the last
move, `[ ]` the cursor, `<.>` the hint; scoring runs are lit in their owner's
colour and underlined. The cursor is a cell number, as moves are.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.geometry import Size

from rules import Game
from rules.pahtum import BLOCK, EMPTY, ROWS, SIZE, PahTum, cell_name
from tui.widgets.boards.grid import GridBoard

CELL_W = 5  # columns per cell: a space, a 3-character box, a space
LEFT = 4  # the row label gutter
TOP = 1  # the column label line
BOLD = Style(bold=True)


class PahTumBoard(GridBoard):
    """The board widget for Pah-Tum."""

    def shape(self) -> tuple[int, int]:
        return SIZE, SIZE

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return LEFT + SIZE * CELL_W

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return TOP + 2 * SIZE - 1

    # ----- drawing -----------------------------------------------------------------
    def render(self) -> Text:
        game = self.game
        text = Text(no_wrap=True)
        text.append(" " * LEFT + "".join(f"{c + 1:^{CELL_W}}" for c in range(SIZE)) + "\n",
                    style="bold")
        if not isinstance(game, PahTum):
            return text
        run_owner: dict[int, int] = {}
        for seat in range(game.players):
            for cells, _points in game.runs(seat):
                for cell in cells:
                    run_owner[cell] = seat
        for r in range(SIZE):
            text.append(f" {ROWS[r]}  ", style="bold")
            for c in range(SIZE):
                cell = r * SIZE + c
                text.append(" ")
                self._cell(text, game, cell, run_owner.get(cell))
                text.append(" ")
            if r < SIZE - 1:
                text.append("\n\n")
        return text

    def _cell(self, text: Text, game: PahTum, cell: int, run: int | None) -> None:
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
        if mark == BLOCK:
            style, body = self.style("blocked"), "#"
        elif mark == EMPTY or seat is None:
            hint_bg = Style(bgcolor=self.style("hint").bgcolor)
            style, body = (empty + hint_bg if cell == self.hint else empty), "."
        else:
            style = Style(bgcolor=empty.bgcolor) + self.seat_style(seat, run=run == seat)
            body = mark
        bracket = self.style("cursor") + Style(bgcolor=style.bgcolor) if at_cursor \
            else style + BOLD
        text.append(left, bracket)
        text.append(body, style)
        text.append(right, bracket)

    # ----- input ---------------------------------------------------------------------
    def target_at(self, x: int, y: int) -> int | None:
        """The cell under a content offset, or None off the grid."""
        col, row = (x - LEFT) // CELL_W, (y - TOP) // 2
        if x < LEFT or y < TOP or not (0 <= col < SIZE and 0 <= row < SIZE):
            return None
        return row * SIZE + col

    # ----- the end screen ----------------------------------------------------------------
    @classmethod
    def describe_result(cls, game: Game) -> list[str]:
        """The reason, then each side's scoring runs on the final board."""
        lines = super().describe_result(game)
        if not isinstance(game, PahTum) or game.outcome is None:
            return lines
        for seat, mark in enumerate(game.marks):
            runs = game.runs(seat)
            parts = [f"{cell_name(cells[0])}-{cell_name(cells[-1])} {points}"
                     for cells, points in sorted(runs, key=lambda run: -run[1])]
            total = sum(points for _, points in runs)
            lines.append(f"{mark} {total}: " + (", ".join(parts) if parts else "no runs"))
        return lines


BOARD = PahTumBoard
