"""The editor's board: a draft (`rules.edit.Draft`) drawn cell by cell, with the boards'
cursor, keys, clicks and colours (it is a `GridBoard`, so `tui/boards.tcss` styles it).

A draft may be an illegal position, which no game board can show (they draw a `Game`),
so this one draws what the draft says each cell looks like. Choosing a cell (Enter or a
click) posts `CellChosen`; in area mode the first choice anchors a corner and the
second posts both. Its cells grow with the terminal (`layout`), as the game boards' do.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive

from rules.edit import Draft
from rules.edit.base import Cell
from tui.widgets.boards.grid import GridBoard


class Cells(NamedTuple):
    """The grid's layout: `cw` columns by `ch` lines a cell, `head` lines of column
    labels (labels that would touch are written downwards: tens over units), and the
    whole size."""

    cw: int
    ch: int
    head: int
    width: int
    height: int


# cell sizes (columns, lines), smallest first: past three columns a cell grows about
# square (2k+1 by k), as the game boards' cells do on a large terminal
CELL_SIZES = ((1, 1), (2, 1), (3, 1), (5, 2), (7, 3), (9, 4))


class DraftGrid(GridBoard):
    """Shows `draft`; reports the cells a person chooses."""

    class CellChosen(Message):
        """`cell` chosen; `corner` is the anchored corner in area mode (else None)."""

        def __init__(self, cell: Cell, corner: Cell | None) -> None:
            super().__init__()
            self.cell, self.corner = cell, corner

    anchor: reactive[int | None] = reactive(None)  # the first corner of an area

    def __init__(self, draft: Draft, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.draft = draft
        self.area = False  # whether choices come in pairs of corners
        self.cursor = self.home()

    def set_draft(self, draft: Draft) -> None:
        """Show another draft (after an edit, an undo, a new size)."""
        rows, cols = draft.shape
        if self.draft.shape != (rows, cols):
            self.cursor = rows // 2 * cols + cols // 2
            self.anchor = None
        self.draft = draft
        self.refresh(layout=True)

    def set_area(self, area: bool) -> None:
        self.area = area
        self.anchor = None

    # ----- the grid -----------------------------------------------------------------------
    def shape(self) -> tuple[int, int]:
        return self.draft.shape

    def _gutter(self) -> int:
        return max(len(self.draft.row_label(r)) for r in range(self.draft.shape[0])) + 1

    def _cells(self, cw: int, ch: int) -> Cells:
        rows, cols = self.draft.shape
        widest = max(len(self.draft.col_label(c)) for c in range(cols))
        head = 1 if widest == 1 or widest < cw else widest  # labels keep a gap between them
        return Cells(cw, ch, head, self._gutter() + cols * cw, head + rows * ch)

    def size_needed(self) -> Size:
        least = self.layout(0, 0)  # its cells and labels
        return Size(least.width, least.height)

    def layout(self, width: int, height: int) -> Cells:
        """The largest cells the room takes; at the least three columns a cell where the
        board stays narrow, else two, else one (an arena 32 cells wide)."""
        cols = self.draft.shape[1]
        least = 3 if cols <= 10 else 2 if cols <= 20 else 1
        best = self._cells(least, 1)
        for cw, ch in CELL_SIZES:
            cells = self._cells(cw, ch)
            if cw > least and cells.width <= width and cells.height <= height:
                best = cells
        return best

    def target_at(self, x: int, y: int) -> int | None:
        rows, cols = self.draft.shape
        g = self.geometry()
        col = (x - self._gutter()) // g.cw
        row = (y - g.head) // g.ch if y >= g.head else -1
        if x < self._gutter() or not (0 <= row < rows and 0 <= col < cols):
            return None
        return row * cols + col

    def active(self) -> bool:
        return self.has_focus or self.hover is not None

    # ----- input -----------------------------------------------------------------------------
    def _choose(self, target: int) -> None:
        cols = self.draft.shape[1]
        cell = divmod(target, cols)
        if not self.area:
            self.post_message(self.CellChosen(cell, None))
        elif self.anchor is None:
            self.anchor = target
        else:
            corner = divmod(self.anchor, cols)
            self.anchor = None
            self.post_message(self.CellChosen(cell, corner))

    def action_play(self) -> None:
        self._choose(self.cursor)  # type: ignore[arg-type]

    def on_click(self, event: events.Click) -> None:
        target = self._target(event)
        if target is not None:
            self.cursor = target
            self._choose(target)

    # ----- drawing ---------------------------------------------------------------------------
    def render(self) -> Text:
        draft = self.draft
        rows, cols = draft.shape
        g, gutter = self.geometry(), self._gutter()
        cw, middle = g.cw, g.ch // 2  # the line of a cell that holds its glyph
        label = self.style("label")
        text = Text(no_wrap=True)
        labels = [draft.col_label(col).rjust(g.head) for col in range(cols)]
        for line in range(g.head):
            if line:
                text.append("\n")
            text.append(" " * gutter)
            for col in range(cols):
                shown = labels[col] if g.head == 1 else labels[col][line]
                text.append(shown.strip().center(cw), style=label)
        area = self._area_cells()
        for row in range(rows):
            for line in range(g.ch):
                text.append("\n")
                row_label = draft.row_label(row) if line == middle else ""
                text.append(row_label.rjust(gutter - 1) + " ", style=label)
                for col in range(cols):
                    glyph, kind = draft.look((row, col))
                    style = self.seat_style(kind) if isinstance(kind, int) else self.style(kind)
                    target = row * cols + col
                    if target in area:
                        style += self.style("path")
                    cursor = target == self.cursor and self.active()
                    if cursor:
                        style += self.style("cursor") + self.style("hint")
                    if line != middle:
                        text.append(" " * cw, style=style)
                    elif cw == 1:
                        text.append(glyph[:1], style=style)
                    elif cursor and cw >= 3:  # readable without colour too
                        inside = glyph if len(glyph) + 2 <= cw else glyph[:1]
                        text.append(f"[{inside}]".center(cw), style=style)
                    else:
                        text.append(glyph.center(cw), style=style)
        return text

    def _area_cells(self) -> set[int]:
        """The rectangle between the anchored corner and the cursor, while choosing one."""
        if self.anchor is None:
            return set()
        cols = self.draft.shape[1]
        (r1, c1), (r2, c2) = divmod(self.anchor, cols), divmod(self.cursor, cols)  # type: ignore[call-overload]
        return {r * cols + c for r in range(min(r1, r2), max(r1, r2) + 1)
                for c in range(min(c1, c2), max(c1, c2) + 1)}
