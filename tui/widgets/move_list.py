"""The moves panel of the game screen and the replay: every move of the line, numbered in
rounds, that can be walked with the keys (once it has the focus) or clicked.

It only shows what it is given (`show`) and says which position the person chose
(`Chosen`: the number of moves from the start, 0 the start position, or a step from the
position shown, so that keys pressed faster than the screen answers each count); the screen
decides what that means (the replay steps to it, the game screen looks back at it)
and gives the list its new state back.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static


@dataclass(frozen=True)
class Line:
    """What the list shows: the line's move texts, the seats taking turns, how many of the
    moves are on the board, and a dim note under the moves (None: none)."""

    texts: tuple[str, ...]
    players: int
    current: int
    empty: str = "no moves yet"  # what an empty list says
    note: str | None = None

    @property
    def browsing(self) -> bool:
        return self.current < len(self.texts)


class MoveList(Static, can_focus=True):
    """The moves so far, numbered in rounds (one move per seat); newest at the bottom. The
    move on the board is reversed while an earlier one is shown (or the list has the
    focus); the moves after it are dim."""

    DEFAULT_CSS = """
    MoveList { text-wrap: nowrap; }
    MoveList:focus { background: $boost; }
    """
    BINDINGS = [
        Binding("left", "step(-1)", "Back", key_display="←"),
        Binding("right", "step(1)", "Forward", key_display="→"),
        Binding("up", "round(-1)", "Round back", show=False),
        Binding("down", "round(1)", "Round forward", show=False),
        Binding("pageup", "page(-1)", "Page back", show=False),
        Binding("pagedown", "page(1)", "Page forward", show=False),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
    ]

    class Chosen(Message):
        """The person chose the position after `moves` moves (0: the start), or, with
        `moves` None, the one `step` moves from the position shown (a key: the next key
        may come before the screen has shown this one, so the screen counts from where
        it is)."""

        def __init__(self, moves: int | None, step: int = 0) -> None:
            super().__init__()
            self.moves = moves
            self.step = step

        def target(self, shown: int) -> int:
            """The moves from the start chosen, given the position the screen shows."""
            return shown + self.step if self.moves is None else self.moves

    line: Line | None = None
    _spans: list[list[tuple[int, int, int]]]  # per row shown: (first x, last x, move)

    def on_mount(self) -> None:
        self._spans = []

    def on_resize(self) -> None:
        if self.line is not None:
            self.show(self.line)  # the rows depend on the panel's size

    def on_focus(self) -> None:
        if self.line is not None:
            self.show(self.line)

    def on_blur(self) -> None:
        if self.line is not None:
            self.show(self.line)

    # ----- drawing ------------------------------------------------------------------
    def show(self, line: Line) -> None:
        self.line = line
        texts, n, current = line.texts, max(1, line.players), line.current
        spans: list[list[tuple[int, int, int]]] = []
        if not texts:
            self._spans = spans
            self.update(Text(line.empty))
            return
        # a from-to move ("b7 b5") takes 5; the moves of a round two spaces apart, or
        # three where a move has a space inside ("e1 e3   g3 f2"): wider than any gap in one
        w = max(2, *(len(t) for t in texts))
        sep = " " * (2 + any(" " in t for t in texts))
        # the round numbers right-aligned as wide as the last one ("nn. ", "nnn. " from
        # round 100: a fixed two ran the number into the move before it)
        digits = max(2, len(str((len(texts) - 1) // n + 1)))
        lead = digits + 2
        width = lead + w * n + len(sep) * (n - 1)  # the number and n moves of w, sep between
        room = self.content_size.width  # 0 until the list is laid out
        per_row = max(1, (room + 1) // (width + 1))
        # a round wider than the list (many seats) goes on under its first move's column
        per_line = n if width <= room or not room else max(1, (room - lead + len(sep))
                                                             // (w + len(sep)))
        marked = line.browsing or self.has_focus
        rows: list[Text] = []
        line_of = [0] * len(texts)  # each move's row
        for first in range(0, len(texts), n * per_row):
            rounds = range(first, min(first + n * per_row, len(texts)), n)
            for part in range(0, n, per_line):
                row, row_spans = Text(no_wrap=True), []
                for r in rounds:
                    if r + part >= len(texts):
                        break
                    row.append(" " * ((r - first) // n * (width + 1) - row.cell_len))
                    number = f"{r // n + 1:>{digits}}. " if part == 0 else " " * lead
                    row.append(number, style="dim" if marked else "")
                    for m in range(r + part, min(r + part + per_line, r + n, len(texts))):
                        if m > r + part:
                            row.append(sep)
                        x = row.cell_len
                        style = ("reverse bold" if m == current - 1 and marked
                                 else "dim" if m >= current else "")
                        row.append(texts[m], style=style)
                        row.append(" " * (w - len(texts[m])))
                        row_spans.append((x, x + w - 1, m))
                        line_of[m] = len(rows)
                if not row_spans:
                    break
                row.rstrip()
                rows.append(row)
                spans.append(row_spans)
        height = max(1, self.content_size.height - (1 if line.note else 0))
        if not line.browsing:
            top = max(0, len(rows) - height)  # the newest at the bottom
        else:
            here = line_of[max(0, current - 1)]  # the row of the move on the board
            top = min(max(0, here - height // 2), max(0, len(rows) - height))
        shown = rows[top:top + height]
        self._spans = spans[top:top + height]
        out = Text("\n").join(shown)
        if line.note:
            out.append("\n")
            out.append(line.note, style="dim italic")
        self.update(out)

    # ----- choosing -----------------------------------------------------------------
    def _choose(self, moves: int) -> None:
        if self.line is None:
            return
        moves = max(0, min(len(self.line.texts), moves))
        if moves != self.line.current:
            self.post_message(self.Chosen(moves))

    def _step(self, step: int) -> None:
        if self.line is not None and step:
            self.post_message(self.Chosen(None, step))

    def _round(self) -> int:
        return max(1, self.line.players) if self.line is not None else 1

    def action_step(self, step: int) -> None:
        self._step(step)

    def action_round(self, step: int) -> None:
        self._step(step * self._round())

    def action_page(self, step: int) -> None:
        self._step(step * max(1, self.content_size.height - 1) * self._round())

    def action_jump(self, where: int) -> None:
        if self.line is not None:
            self._choose(len(self.line.texts) if where < 0 else where)

    def move_at(self, x: int, y: int) -> int | None:
        """The move (from 0) drawn at content cell (x, y), else the next one in its row (a
        round's number names its first move), else the row's last; None below the moves."""
        if not 0 <= y < len(self._spans) or not self._spans[y]:
            return None
        row = self._spans[y]
        return next((move for _first, last, move in row if x <= last), row[-1][2])

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        move = self.move_at(offset.x, offset.y)
        if move is not None:
            event.stop()
            self._choose(move + 1)
