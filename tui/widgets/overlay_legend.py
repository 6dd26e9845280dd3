"""The legend of the AI's view on the board: what its shades mean, and what it is doing.

It sits in the side panel under the engine panel while the view is on (the screens'
`o`); its swatches are the board's own overlay shades (tui/boards.tcss), so the
legend and the board always agree.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tui.widgets.boards.grid import GridBoard
from tui.widgets.boards.overlay import LOSS, SCALE, WIN

SWATCH = "  "  # one shade's sample: two blank cells on its background


def legend_text(board: GridBoard, line: str) -> Text:
    """Three lines: the scale from the best move to the worst, the proven shades, and
    `line` (the depth scored, or why nothing is shaded)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("best ")
    for shade in SCALE:
        text.append(SWATCH, style=board.overlay_background(shade))
    text.append(" worst\n")
    text.append(SWATCH, style=board.overlay_background(WIN))
    text.append(" proven win ")
    text.append(SWATCH, style=board.overlay_background(LOSS))
    text.append(" loss\n")
    text.append(line, style="dim")
    return text


class OverlayLegend(Static):
    """What the overlay's shades mean (`show` with the board they are read from)."""

    DEFAULT_CSS = """
    OverlayLegend {
        height: auto;
        border: round $secondary;
        padding: 0 1;
    }
    """

    def show(self, board: GridBoard, line: str) -> None:
        self.update(legend_text(board, line))
