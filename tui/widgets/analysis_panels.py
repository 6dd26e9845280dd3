"""The analysis board's side panels: the best lines of the position, and the line of moves
being analysed (the game's moves, then those played on the board)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from tui.widgets.panels import join_moves, move_gap

if TYPE_CHECKING:
    from ai.analysis import Analysis


class LinesPanel(Static):
    """The best root moves of the last finished depth: rank, score (or the proven result)
    and principal variation, one a row, as many as fit."""

    DEFAULT_CSS = "LinesPanel { text-wrap: nowrap; text-overflow: ellipsis; }"

    _wrapped: str | None = None  # a text shown wrapped to the panel's width (on resize too)

    def show_lines(self, analysis: Analysis) -> None:
        self._wrapped = None
        rows = []
        width = max(len(line.verdict()) for line in analysis.lines)
        for rank, line in enumerate(analysis.lines, 1):
            row = Text(no_wrap=True, overflow="ellipsis")
            row.append(f"{rank}. ", style="dim")
            style = "bold #ffd75f" if line.proven else "bold"
            row.append(f"{line.verdict():>{width}}", style=style)
            row.append("  ")
            pv = line.pv or [line.move_text]
            row.append(pv[0], style="bold")
            if len(pv) > 1:  # the same gap between the first move and the rest
                whole = join_moves(pv)
                row.append(whole[len(pv[0]):], style="dim")
            rows.append(row)
        self.update(Text("\n").join(rows))

    def show_text(self, text: str, wrap: bool = False) -> None:
        self._wrapped = text if wrap else None
        if wrap:
            width = max(1, self.content_size.width or 30)
            text = "\n".join(textwrap.wrap(text, width) or [""])
        self.update(Text(text, no_wrap=True, overflow="ellipsis"))

    def on_resize(self) -> None:
        if self._wrapped is not None:
            self.show_text(self._wrapped, wrap=True)


class LineMoves(Static):
    """The line's moves numbered in rounds: the position on the board's last move reversed,
    moves after it (a step forward brings them back) dim, those played on the analysis
    board (after the game's own) underlined."""

    DEFAULT_CSS = "LineMoves { text-wrap: nowrap; }"

    _shown: tuple[list[str], int, int, int] | None = None

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)

    def show(self, texts: list[str], players: int, current: int, base: int) -> None:
        """`texts` the line's moves, `current` how many are on the board, `base` how many
        came from the game the analysis began from."""
        self._shown = (texts, players, current, base)
        if not texts:
            self.update(Text("no moves yet:\nplay one on the board", style="dim"))
            return
        w = max(2, *(len(t) for t in texts))
        gap = move_gap(texts)  # between the moves of a round
        digits = max(2, len(str((len(texts) - 1) // players + 1)))  # the last round's
        width = digits + 2 + w * players + len(gap) * (players - 1) + 1
        per_row = max(1, (self.content_size.width + 1) // (width + 1))
        rounds = [list(range(i, min(i + players, len(texts))))
                  for i in range(0, len(texts), players)]
        rows: list[Text] = []
        for r in range(0, len(rounds), per_row):
            row = Text(no_wrap=True)
            for j, moves in enumerate(rounds[r:r + per_row]):
                if j:
                    row.append(" ")
                row.append(f"{r + j + 1:>{digits}}. ", style="dim")
                for k, m in enumerate(moves):
                    if k:
                        row.append(gap)
                    style = "reverse bold" if m == current - 1 else "dim" if m >= current else ""
                    if m >= base:
                        style += " underline"
                    row.append(f"{texts[m]:<{w}}", style=style.strip())
                row.append(" ")
            row.rstrip()
            rows.append(row)
        height = max(1, self.content_size.height)
        here = max(0, current - 1) // players // per_row
        first = min(max(0, here - height // 2), max(0, len(rows) - height))
        self.update(Text("\n").join(rows[first:first + height]))
