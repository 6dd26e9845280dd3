"""The editor's board: a draft (`rules.edit.Draft`) drawn cell by cell, with the boards'
cursor, keys, clicks and colours (it is a `GridBoard`, so `tui/boards.tcss` styles it).

A draft may be an illegal position, which no game board can show (they draw a `Game`),
so this one draws what the draft says each cell looks like. Choosing a cell (Enter or a
click) posts `CellChosen`; in area mode the first choice anchors a corner and the
second posts both.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive

from rules.edit import Draft
from rules.edit.base import Cell
from tui.widgets.boards.grid import GridBoard


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

    def _cell_width(self) -> int:
        """Three columns a cell where the board stays narrow, else two, else one (an arena
        32 cells wide)."""
        cols = self.draft.shape[1]
        return 3 if cols <= 10 else 2 if cols <= 20 else 1

    def _gutter(self) -> int:
        return max(len(self.draft.row_label(r)) for r in range(self.draft.shape[0])) + 1

    def get_content_width(self, container: object, viewport: object) -> int:
        return self._gutter() + self.draft.shape[1] * self._cell_width()

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return self.draft.shape[0] + 1

    def target_at(self, x: int, y: int) -> int | None:
        rows, cols = self.draft.shape
        col = (x - self._gutter()) // self._cell_width()
        row = y - 1
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
        cw, gutter = self._cell_width(), self._gutter()
        label = self.style("label")
        text = Text(no_wrap=True)
        text.append(" " * gutter)
        for col in range(cols):
            text.append(draft.col_label(col)[-cw:].center(cw), style=label)
        area = self._area_cells()
        for row in range(rows):
            text.append("\n")
            text.append(draft.row_label(row).rjust(gutter - 1) + " ", style=label)
            for col in range(cols):
                glyph, kind = draft.look((row, col))
                style = self.seat_style(kind) if isinstance(kind, int) else self.style(kind)
                target = row * cols + col
                if target in area:
                    style += self.style("path")
                cursor = target == self.cursor and self.active()
                if cursor:
                    style += self.style("cursor") + self.style("hint")
                if cw == 1:
                    text.append(glyph[:1], style=style)
                elif cursor and cw == 3:  # readable without colour too
                    text.append(f"[{glyph[:1]}]", style=style)
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
