"""The Pousse board: an N x N grid framed by its 4N insertion points.

The frame is the move picker: the top row shows the column numbers, which are
the T insertion points, the bottom row the B points, the left and right
columns the row numbers (L and R points). A cursor runs around the frame; the
line it would push is lit with arrows in the push direction, the marker that
would fall off is marked `×`, and the line under the board says what the move
would do (repeat and lose, hand the opponent a straight, win). Cells grow with
the space the screen gives. Without colour: `X`/`O`/`.` marks, arrows for the
preview, `×` for the falling marker, `*` for the last move's entry cell.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from rules import Game
from rules.pousse import EMPTY, MARKS, PMove, Pousse, PushPreview, X, line_cells
from tui.widgets.board import BoardWidget

SIDE_MIN = 36  # the side panel's players rows (32) inside their frame
CW_RANGE = range(9, 1, -1)  # cell widths tried, widest first; 2 fits N=20 in 44 columns
CH_RANGE = range(4, 0, -1)  # cell heights tried, tallest first

COLOURS = {X: "#ff6b6b", "O": "#5fb4ff"}
STRAIGHT_BG = {X: "#4a1f24", "O": "#1c3350"}
CELL_BG = ("#262a35", "#2e3340")  # a faint chequer so long rows stay countable
PATH_BG = "#4d4520"
OFF_BG = "#7a1f1f"
HINT_BG = "#3d5a1e"
LABEL = Style(color="#8a8fa3")
LABEL_ALT = Style(color="#d0d4e4")
CURSOR = Style(color="#ffd75f", bold=True, reverse=True)
ARROWS = {"L": "→", "R": "←", "T": "↓", "B": "↑"}
WORDS = {"L": "right", "R": "left", "T": "down", "B": "up"}


@dataclass(frozen=True)
class Geometry:
    """Where everything is: label width, gaps, cell size, and whether the info line fits."""

    n: int
    label: int  # row-number columns on each side
    gap: int  # blank columns between the labels and the grid
    cw: int
    ch: int
    info: bool

    @property
    def width(self) -> int:
        return 2 * (self.label + self.gap) + self.n * self.cw

    @property
    def height(self) -> int:
        return 2 + self.n * self.ch + int(self.info)

    @property
    def left(self) -> int:
        """The x of the grid's first column."""
        return self.label + self.gap

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
    gap, cw = 0, 2
    for wide in CW_RANGE:
        if 2 * (label + 1) + n * wide <= width:
            gap, cw = 1, wide
            break
    ch, info = 1, 2 + n + 1 <= height
    for tall in CH_RANGE:
        if 2 + n * tall + 1 <= height:
            ch = tall
            break
    ch = min(ch, (cw + 1) // 2)
    cw = min(cw, 2 * ch + 2)
    return Geometry(n, label, gap, cw, ch, info)


def step(move: PMove, key: str, n: int) -> PMove:
    """The insertion point an arrow key leads to from `move`.

    Along an edge the arrows follow it and turn the corner onto the next edge
    (Right past T{n} is R1, Up past L1 is T1); across an edge they jump to the
    opposite one (Down on T3 is B3).
    """
    side, i = move
    along = ("left", "right") if side in "TB" else ("up", "down")
    if key not in along:
        return ({"T": "B", "B": "T", "L": "R", "R": "L"}[side], i)
    j = i + (1 if key in ("right", "down") else -1)
    if 1 <= j <= n:
        return (side, j)
    if side in "TB":
        return ("R" if j > n else "L", 1 if side == "T" else n)
    return ("B" if j > n else "T", 1 if side == "L" else n)


def preview_line(game: Pousse, p: PushPreview) -> str:
    """What the move would do, warnings first."""
    mover = MARKS[game.to_move]
    other = MARKS[1 - game.to_move]
    head = f"{game.move_text(p.move)}: "
    if p.repeats:
        return head + f"REPEATS a position: {mover} LOSES"
    if p.outcome is not None:
        winner = MARKS[p.outcome.winner] if p.outcome.winner is not None else "?"
        x, o = p.straights
        return head + f"{winner} WINS, straights X {x} O {o}"
    parts = []
    if p.gives_opponent_straight:
        parts.append(f"gives {other} a straight!")
    if p.pushed_off_mark:
        parts.append(f"pushes {p.pushed_off_mark} off")
    parts.append(f"moves {len(p.moved)} {WORDS[p.move[0]]}" if p.moved else "no push")
    return head + ", ".join(parts)


class PousseBoard(BoardWidget):
    """The board widget for Pousse: pick an insertion point on the frame."""

    DEFAULT_CSS = """
    PousseBoard {
        width: auto;
        height: auto;
    }
    """

    BINDINGS = [
        Binding("up", "step('up')", "Up", show=False),
        Binding("down", "step('down')", "Down", show=False),
        Binding("left", "step('left')", "Left", show=False),
        Binding("right", "step('right')", "Right", show=False),
        Binding("enter,space", "play", "Insert", show=False),
    ]

    cursor: reactive[PMove] = reactive(("T", 1))
    _sent_note: Text | None = None  # the last `Note` posted, so it is sent only on change
    hover: reactive[PMove | None] = reactive(None)  # the insertion point under the mouse

    def on_new_game(self) -> None:
        n = self._n()
        self.cursor = ("T", (n + 1) // 2)
        self.hover = None

    def rows_needed(self) -> int:
        return self._n() + 3  # a row per board row, the T and B rows, the info line

    def _n(self) -> int:
        return self.game.size if isinstance(self.game, Pousse) else 4

    # ----- size --------------------------------------------------------------------
    def get_content_width(self, container: Size, viewport: Size) -> int:
        # The board box is as wide as its board: up to about 60% of a wide terminal, so
        # larger terminals get larger cells, always leaving the side panel its width.
        # (A width:auto parent asks with a 0x0 container: then guess the height from
        # the terminal less the title, status, footer and a frame.)
        chrome = self.parent.gutter.width if isinstance(self.parent, Widget) else 0
        budget = min(viewport.width * 3 // 5, viewport.width - SIDE_MIN) - chrome
        height = container.height or viewport.height - 5
        return fit(self._n(), max(container.width, budget), height).width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return fit(self._n(), width, container.height).height

    def geometry(self) -> Geometry:
        """The layout for the size the widget has now."""
        size = self.content_size
        return fit(self._n(), size.width, size.height)

    # ----- what to show ----------------------------------------------------------------
    def _active(self) -> bool:
        """Whether a move is being chosen here (cursor and preview shown)."""
        game = self.game
        return (game is not None and not game.is_over and not self.locked
                and (self.has_focus or self.hover is not None))

    def target(self) -> PMove | None:
        """The insertion point previewed: the hovered one, else the cursor's."""
        if not self._active():
            return None
        return self.hover or self.cursor

    def preview(self) -> PushPreview | None:
        target = self.target()
        if target is None or not isinstance(self.game, Pousse):
            return None
        return self.game.preview(target)

    def info_text(self) -> Text:
        """The line under the board: the preview's verdict, or how the game ended."""
        game = self.game
        if not isinstance(game, Pousse):
            return Text()
        if game.outcome is not None:
            return Text(game.outcome.reason, style="bold")
        p = self.preview()
        if p is None:
            mark = MARKS[game.to_move]
            return Text(f"{mark} to move" + (" (waiting)" if self.locked else ""), style="dim")
        line = preview_line(game, p)
        if self.hint is not None and p.move == self.hint:
            line = "hint " + line
        if p.repeats or (p.outcome is not None and p.outcome.winner != game.to_move):
            style = "bold #ff5f5f"
        elif p.outcome is not None:
            style = "bold #87d75f"
        elif p.gives_opponent_straight:
            style = "bold #ffaf5f"
        else:
            style = "#b0b4c4"
        return Text(line, style=style)

    # ----- drawing -----------------------------------------------------------------
    def render(self) -> Text:
        game = self.game
        if not isinstance(game, Pousse):
            return Text()
        g = self.geometry()
        self._send_note(g)
        n = game.size
        p = self.preview()
        path: set[tuple[int, int]] = set()
        if p is not None:
            path = {p.entry, *(b for _, b in p.moved)}
        straight: dict[tuple[int, int], str] = {}
        for kind, index, mark in game.straight_lines():
            for k in range(n):
                straight[(index, k) if kind == "row" else (k, index)] = mark
        last = game.last_move
        last_entry = None
        if last is not None:
            last_entry = line_cells(n, last)[0]
        text = Text(no_wrap=True, overflow="crop")
        self._edge_row(text, g, "T", p)
        for r in range(n):
            for line in range(g.ch):
                text.append("\n")
                self._side_block(text, g, ("L", r + 1), line, left=True)
                text.append(" " * g.gap)
                for c in range(n):
                    self._cell(text, g, game, (r, c), line, p, path, straight.get((r, c)),
                               last_entry)
                text.append(" " * g.gap)
                self._side_block(text, g, ("R", r + 1), line, left=False)
        text.append("\n")
        self._edge_row(text, g, "B", p)
        if g.info:
            text.append("\n")
            info = self.info_text()
            info.truncate(g.width, overflow="ellipsis")
            text.append_text(info)
        return text

    def _label_style(self, move: PMove) -> Style:
        game = self.game
        style = LABEL
        if game is not None and move == getattr(game, "last_move", None):
            mover = MARKS[(len(game.history) - 1) % 2]
            style = Style(color=COLOURS[mover], bold=True, underline=True)
        if move == self.hint:
            style += Style(bgcolor=HINT_BG, bold=True)
        if self._active():
            if move == self.cursor:
                style += CURSOR
            elif move == self.hover:
                style += Style(color="#ffd75f", bold=True, underline=True)
        return style

    def _edge_row(self, text: Text, g: Geometry, side: str, p: PushPreview | None) -> None:
        corner = " " * (g.label + g.gap)
        if not g.info and p is not None and side == "T":
            corner = self._flag(p).ljust(len(corner))[:len(corner)]
            text.append(corner, style="bold #ff5f5f" if corner.strip() != "++"
                        else "bold #87d75f")
        else:
            text.append(corner)
        for c in range(g.n):
            digits = str(c + 1)
            start = max(0, g.mark_x - len(digits) + 1)
            block = (" " * start + digits).ljust(g.cw)[:g.cw]
            style = self._label_style((side, c + 1))
            if g.cw == 2 and c % 2:
                style = LABEL_ALT + style  # two-digit numbers touch: alternate their shade
            text.append(block, style=style)
        text.append(" " * (g.label + g.gap))

    def _flag(self, p: PushPreview) -> str:
        """The info line's verdict in two characters, for when no line is left for it."""
        game = self.game
        if p.repeats or (p.outcome is not None and game is not None
                         and p.outcome.winner != game.to_move):
            return "!!"
        if p.outcome is not None:
            return "++"
        return "!" if p.gives_opponent_straight else ""

    def _side_block(self, text: Text, g: Geometry, move: PMove, line: int, left: bool) -> None:
        digits = str(move[1]) if line == g.mark_y else ""
        block = digits.rjust(g.label) if left else digits.ljust(g.label)
        text.append(block, style=self._label_style(move))

    def _cell(self, text: Text, g: Geometry, game: Pousse, rc: tuple[int, int], line: int,
              p: PushPreview | None, path: set[tuple[int, int]], straight: str | None,
              last_entry: tuple[int, int] | None) -> None:
        r, c = rc
        mark = game.cell(r, c)
        if p is not None and rc == p.pushed_off:
            bg, slot, slot_style = OFF_BG, "×", Style(color="#ffffff", bold=True)
        elif rc in path:
            assert p is not None
            bg, slot, slot_style = PATH_BG, ARROWS[p.move[0]], Style(color="#ffd75f", bold=True)
        else:
            bg = STRAIGHT_BG[straight] if straight else CELL_BG[(r + c) % 2]
            slot, slot_style = " ", Style()
            if rc == last_entry:
                slot, slot_style = "*", Style(color=COLOURS[mark] if mark != EMPTY else None,
                                              bold=True)
        base = Style(bgcolor=bg)
        if line != g.mark_y:
            text.append(" " * g.cw, style=base)
            return
        if mark == EMPTY:
            mark_style = base + Style(color="#5c6070")
        else:
            mark_style = base + Style(color=COLOURS[mark], bold=True, underline=bool(straight))
        text.append(" " * (g.mark_x - 1), style=base)
        text.append(slot, style=base + slot_style)
        text.append(mark, style=mark_style)
        text.append(" " * (g.cw - g.mark_x - 1), style=base)

    def _send_note(self, g: Geometry) -> None:
        """With no room for the info line, the screen shows it (sent only when it changes)."""
        info = None if g.info else self.info_text()
        if info is not None and not info.plain:
            info = None
        if info != self._sent_note:
            self._sent_note = info
            self.post_message(self.Note(info))

    def watch_hint(self, hint: Hashable | None) -> None:
        if hint is not None and isinstance(self.game, Pousse) and self.game.is_legal(hint):
            self.cursor = hint  # type: ignore[assignment]

    # ----- input ---------------------------------------------------------------------
    def move_at(self, x: int, y: int) -> PMove | None:
        """The insertion point under a content offset, or None (cells and corners)."""
        g = self.geometry()
        n, left, right = g.n, g.left, g.left + g.n * g.cw
        bottom = 1 + n * g.ch
        if left <= x < right and y in (0, bottom):
            return ("T" if y == 0 else "B", (x - left) // g.cw + 1)
        if 1 <= y < bottom and 0 <= x < g.width and not left <= x < right:
            return ("L" if x < left else "R", (y - 1) // g.ch + 1)
        return None

    def action_step(self, key: str) -> None:
        self.hover = None
        self.cursor = step(self.cursor, key, self._n())

    def action_play(self) -> None:
        self.pick(self.cursor)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        move = self.move_at(offset.x, offset.y) if offset is not None else None
        if move is not None:
            self.cursor = move
            self.pick(move)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        offset = event.get_content_offset(self)
        self.hover = self.move_at(offset.x, offset.y) if offset is not None else None

    def on_leave(self) -> None:
        self.hover = None

    # ----- the end screen ----------------------------------------------------------------
    @classmethod
    def describe_result(cls, game: Game) -> list[str]:
        lines = super().describe_result(game)
        if not isinstance(game, Pousse) or game.outcome is None:
            return lines
        repeated = "repeated" in game.outcome.reason
        lines.append("Rule: " + ("repeating a position loses for the mover" if repeated
                                 else "more straights wins"))
        found = game.straight_lines()
        for mark in MARKS:
            mine = [f"{'row' if kind == 'row' else 'column'} {index + 1}"
                    for kind, index, m in found if m == mark]
            count = f"{len(mine)} straight" + ("" if len(mine) == 1 else "s")
            lines.append(f"{mark} {count}" + (": " + ", ".join(mine) if mine else ""))
        return lines
