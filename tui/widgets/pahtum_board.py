"""The Pah-Tum board: a 7x7 grid, rows A-G and columns 1-7.

Every state also reads without colour: `#` blocked, `.` empty, `(X)` the last
move, `[ ]` the cursor, `<.>` the hint; scoring runs are lit in their owner's
colour and underlined.
"""

from __future__ import annotations

from collections.abc import Hashable

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.reactive import reactive

from rules import Game
from rules.pahtum import BLOCK, EMPTY, MARKS, ROWS, SIZE, PahTum, X, cell_name
from tui.widgets.board import BoardWidget

CELL_W = 5  # columns per cell: a space, a 3-character box, a space
LEFT = 4  # the row label gutter
TOP = 1  # the column label line

COLOURS = {X: "#ff6b6b", "O": "#5fb4ff"}
RUN_BG = {X: "#4a1f24", "O": "#1c3350"}
EMPTY_BG = "#2a2d38"
BLOCK_STYLE = Style(color="#777777", bgcolor="#121212")
HINT_BG = "#3d5a1e"
CURSOR = Style(color="#ffd75f", bold=True)


class PahTumBoard(BoardWidget):
    """The board widget for Pah-Tum."""

    BINDINGS = [
        Binding("up", "cursor(-1, 0)", "Up", show=False),
        Binding("down", "cursor(1, 0)", "Down", show=False),
        Binding("left", "cursor(0, -1)", "Left", show=False),
        Binding("right", "cursor(0, 1)", "Right", show=False),
        Binding("enter,space", "play", "Play", show=False),
    ]

    cursor: reactive[int] = reactive(3 * SIZE + 3)

    def on_new_game(self) -> None:
        self.cursor = 3 * SIZE + 3

    def get_content_width(self, container, viewport) -> int:  # noqa: ANN001
        return LEFT + SIZE * CELL_W

    def get_content_height(self, container, viewport, width) -> int:  # noqa: ANN001
        return TOP + 2 * SIZE - 1

    # ----- drawing -----------------------------------------------------------------
    def render(self) -> Text:
        game = self.game
        text = Text(no_wrap=True)
        text.append(" " * LEFT + "".join(f"{c + 1:^{CELL_W}}" for c in range(SIZE)) + "\n",
                    style="bold")
        if not isinstance(game, PahTum):
            return text
        run_owner: dict[int, str] = {}
        for player, mark in enumerate(MARKS):
            for cells, _points in game.runs(player):
                for cell in cells:
                    run_owner[cell] = mark
        last = game.history[-1] if game.history else None
        for r in range(SIZE):
            text.append(f" {ROWS[r]}  ", style="bold")
            for c in range(SIZE):
                cell = r * SIZE + c
                text.append(" ")
                self._cell(text, game, cell, run_owner.get(cell), last)
                text.append(" ")
            if r < SIZE - 1:
                text.append("\n\n")
        return text

    def _cell(self, text: Text, game: PahTum, cell: int, run: str | None,
              last: Hashable | None) -> None:
        mark = game.board[cell]
        focus = self.has_focus and not self.locked
        left, right = " ", " "
        if cell == last:
            left, right = "(", ")"
        if cell == self.hint:
            left, right = "<", ">"
        if cell == self.cursor and focus:
            left, right = "[", "]"
        if mark == BLOCK:
            style = BLOCK_STYLE
            body = "#"
        elif mark == EMPTY:
            style = Style(color="#8a8fa3", bgcolor=HINT_BG if cell == self.hint else EMPTY_BG)
            body = "."
        else:
            bg = RUN_BG[mark] if run == mark else EMPTY_BG
            style = Style(color=COLOURS[mark], bgcolor=bg, bold=True, underline=run == mark)
            body = mark
        bracket = CURSOR + Style(bgcolor=style.bgcolor) if left != " " else style
        text.append(left, bracket if cell == self.cursor and focus else style + Style(bold=True))
        text.append(body, style)
        text.append(right, bracket if cell == self.cursor and focus else style + Style(bold=True))

    # ----- input ---------------------------------------------------------------------
    def move_at(self, x: int, y: int) -> int | None:
        """The cell under a content offset, or None off the grid."""
        col, row = (x - LEFT) // CELL_W, (y - TOP) // 2
        if x < LEFT or y < TOP or not (0 <= col < SIZE and 0 <= row < SIZE):
            return None
        return row * SIZE + col

    def action_cursor(self, dr: int, dc: int) -> None:
        r, c = divmod(self.cursor, SIZE)
        self.cursor = ((r + dr) % SIZE) * SIZE + (c + dc) % SIZE

    def action_play(self) -> None:
        self.pick(self.cursor)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = self.move_at(offset.x, offset.y)
        if cell is not None:
            self.cursor = cell
            self.pick(cell)

    # ----- the end screen ----------------------------------------------------------------
    @classmethod
    def describe_result(cls, game: Game) -> list[str]:
        lines = super().describe_result(game)
        if not isinstance(game, PahTum):
            return lines
        for player, mark in enumerate(MARKS):
            runs = game.runs(player)
            parts = [f"{cell_name(cells[0])}-{cell_name(cells[-1])} {points}"
                     for cells, points in sorted(runs, key=lambda r: -r[1])]
            total = sum(points for _, points in runs)
            lines.append(f"{mark} {total}: " + (", ".join(parts) if parts else "no runs"))
        return lines
