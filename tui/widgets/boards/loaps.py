"""The LOAPS board: 7x7 in chess notation, files a-g under (and over) it, ranks 1-7 beside it.

A move is chosen in two steps: a piece (Enter, Space or a click), then one of its
lit destinations. Every state also reads without colour: `1`/`2` the pieces,
`+7`/`+3` an empty bonus square's points, `.` another empty square, `[ ]` the
cursor, `{ }` the chosen piece, `> <` its destinations, `< >` the hint, `( )`
the last move's from and to squares (`x x` on the to square when it captured).
Under the board, when there is room, a few lines say what the choice would do
or why it is refused; without room that line goes to the screen's status line.
Cells grow with the space the screen gives. The AI's view shades each piece by its
best move and each square by the best move landing there (with a piece chosen, by
that piece's moves only); `f` turns the board a quarter turn, so that blue's edges
(files a and g) are on top and at the bottom, the ranks along the top.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding

from rules import Outcome
from rules.loaps import BONUS, EMPTY, FILES, MARKS, NAMES, SIZE, LMove, Loaps, square_name
from tui.widgets.boards.cells import ChipCells
from tui.widgets.boards.grid import GridBoard

LEFT = 3  # the rank label gutter: " 7 "
RIGHT = 2  # the right rank labels: " 7"
SCALES = range(8, 1, -1)  # scales tried, largest first; 2 is the 80x24 board
INFO = 3  # lines under the board for the choice's verdict (a reason may take two)
BOLD = Style(bold=True)


@dataclass(frozen=True)
class Geometry(ChipCells):
    """The layout from one scale `k` (Pah-Tum's chip cells), which labels are drawn and
    how many info lines follow the board."""

    right: bool  # rank labels on the right as well as the left
    top: bool  # file labels over the board as well as under it
    info: int  # lines under the board (0: its lines go to the status line)

    @property
    def grid_y(self) -> int:
        """The first line of the grid."""
        return int(self.top)

    @property
    def grid_h(self) -> int:
        return SIZE * self.ch - 1

    @property
    def width(self) -> int:
        return LEFT + SIZE * self.cw + (RIGHT if self.right else 0)

    @property
    def height(self) -> int:
        return self.grid_y + self.grid_h + 1 + self.info


def layouts() -> list[Geometry]:
    """Every layout, best first: the largest cells, then the most labels; the smallest
    one last without its info lines."""
    out = [Geometry(k, right, top, INFO) for k in SCALES
           for right, top in ((True, True), (False, True), (False, False))]
    return [*out, Geometry(SCALES[-1], False, False, 0)]


LAYOUTS = layouts()


def fit(width: int, height: int) -> Geometry:
    """The best layout that fits `width` x `height` (the smallest when none does).

    A fixed point: `fit(g.width, g.height) == g`, since a better layout that fit
    g's size would have fit the room g was chosen for.
    """
    return next((g for g in LAYOUTS if g.width <= width and g.height <= height), LAYOUTS[-1])


def points_text(game: Loaps) -> str:
    """Both sides' points: "red 23 points, blue 15"."""
    red, blue = game.points
    return f"{NAMES[0]} {red} point{'s' * (red != 1)}, {NAMES[1]} {blue}"


def preview(game: Loaps, move: LMove) -> tuple[str, Outcome | None]:
    """What a legal move scores, "b7 d4: capture +1, d4 +7 = +8", with the end it brings
    (also named in the line)."""
    _frm, to = move
    mover = game.to_move
    twin = game.copy()
    twin.play(move)
    parts = []
    if game.board[to] != EMPTY:
        parts.append("capture +1")
    if to in BONUS:
        parts.append(f"{square_name(to)} +{BONUS[to]}")
    gain = twin.points[mover] - game.points[mover]
    if gain > (game.board[to] != EMPTY) + BONUS.get(to, 0):
        parts.append("connects +12")
    line = f"{game.move_text(move)}: " + (", ".join(parts) or "no points")
    line += f" = +{gain}" if len(parts) > 1 else ""
    if twin.outcome is not None:
        line += f"; ends the game: {twin.outcome.reason}"
    return line, twin.outcome


class LoapsBoard(GridBoard[Loaps]):
    """The board widget for LOAPS: choose a piece, then where it goes."""

    BINDINGS: ClassVar = [
        Binding("enter,space", "play", "Choose", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("f", "flip", "Flip"),
    ]
    FLIPS = True  # red starts on the top and bottom edges, blue on the left and right
    FLIP_TURNS = 1

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.selected: int | None = None  # the chosen piece's square
        self.refusal: str | None = None  # why the last choice was refused, until the next

    def shape(self) -> tuple[int, int]:
        return SIZE, SIZE

    # ----- the choice --------------------------------------------------------------------
    @property
    def targets(self) -> frozenset[int]:
        """The chosen piece's destinations (lit on the board)."""
        if self.selected is None or self.game is None:
            return frozenset()
        return frozenset(self.game.destinations(self.selected))

    def _set_choice(self, selected: int | None, refusal: str | None = None) -> None:
        self.selected, self.refusal = selected, refusal
        self.refresh()

    def on_new_game(self) -> None:
        super().on_new_game()
        self._set_choice(None)

    def refresh_game(self) -> None:
        self.selected, self.refusal = None, None  # a move, undo or redo: choose afresh
        super().refresh_game()

    def choose(self, sq: int) -> None:
        """The user chose square `sq`: a piece to move, its destination, or a refusal."""
        game = self.playing()
        if game is None:
            return
        mover, mark = NAMES[game.to_move], MARKS[game.to_move]
        name = square_name(sq)
        if sq == self.selected:
            self._set_choice(None)  # choosing it again puts it back
        elif game.board[sq] == mark:
            if game.destinations(sq):
                self._set_choice(sq)
            else:
                self._set_choice(self.selected, f"{name} has no legal move: choose another "
                                                "piece")
        elif self.selected is None:
            whose = "empty" if game.board[sq] == EMPTY else f"{NAMES[1 - game.to_move]}'s piece"
            self._set_choice(None, f"{name} is {whose}: choose one of {mover}'s pieces ({mark})")
        elif sq in self.targets:
            self.pick((self.selected, sq))
        else:
            self._set_choice(self.selected, game.problem((self.selected, sq)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":  # otherwise Esc goes on to the screen, as on other boards
            return self.selected is not None
        return super().check_action(action, parameters)

    def action_cancel(self) -> None:
        self._set_choice(None)

    def action_play(self) -> None:
        self.choose(self.cursor)  # type: ignore[arg-type]

    def action_step(self, key: str) -> None:
        self.refusal = None
        super().action_step(key)

    def on_click(self, event: events.Click) -> None:
        event.prevent_default()  # not the base's click, which picks a move at once
        target = self._target(event)
        if target is not None and not self.locked:
            self.cursor = target
            self.choose(target)  # type: ignore[arg-type]

    def move_for(self, target: Hashable) -> Hashable:
        """The move choosing `target` makes now: from the chosen piece (None without one)."""
        return None if self.selected is None else (self.selected, target)

    def target_for(self, move: Hashable) -> Hashable:
        return move[1]  # type: ignore[index]

    def choices_for(self, move: Hashable) -> list[Hashable]:
        return [move[0], move[1]]  # type: ignore[index]

    def overlay_targets(self, move: Hashable) -> list[Hashable]:
        """The piece (its best move) and the square it goes to (the best move there)."""
        return [move[0], move[1]]  # type: ignore[index]

    def overlay_moves(self) -> list[Hashable]:
        """With a piece chosen, its moves only: its squares show where it is best to go."""
        moves = list(super().overlay_moves())
        if self.selected is None:
            return moves
        return [m for m in moves if m[0] == self.selected]  # type: ignore[index]

    def show_hint(self, move: Hashable | None) -> None:
        """Mark the hint's two squares and leave the board so that Enter plays it: its
        piece chosen, the cursor on its destination."""
        if move is not None and self.game is not None and self.game.is_legal(move):
            self._set_choice(move[0])  # type: ignore[index]
        super().show_hint(move)

    # ----- size --------------------------------------------------------------------
    def layout(self, width: int, height: int) -> Geometry:
        return fit(width, height)

    # ----- the lines under the board ---------------------------------------------------
    def info_text(self) -> Text:
        """What the choice would do, why it was refused, or whose turn it is."""
        game = self.game
        if game is None:
            return Text()
        if game.outcome is not None:
            return Text(f"{game.outcome.reason}. {points_text(game)}.", style=BOLD)
        if self.refusal is not None:
            return Text(self.refusal, style=self.style("bad"))
        mover, mark = NAMES[game.to_move], MARKS[game.to_move]
        if self.locked:
            return Text(f"{mover} ({mark}) to move (waiting)", style="dim")
        if self.selected is not None:
            targets = self.targets
            if self.cursor in targets and self.active():
                move = (self.selected, self.cursor)
                line, end = preview(game, move)  # type: ignore[arg-type]
                if move == self.hint:
                    line = "hint " + line
                verdict = "info" if end is None else (
                    "good" if end.winners == (game.to_move,) else "warn")
                return Text(line, style=self.style(verdict))
            count = len(targets)
            return Text(f"{square_name(self.selected)} chosen: {count} square"
                        f"{'s' * (count != 1)} lit. Enter on one moves there, Esc cancels.",
                        style=self.style("info"))
        text = Text(f"{mover} ({mark}) to move: choose a piece.", style=self.style("info"))
        last = self.last_move()
        if last is not None:
            frm, to = last  # type: ignore[misc]
            who = NAMES[1 - game.to_move]
            took = f", taking a {mover} piece" if game.captured_last() else ""
            gain = int(game.captured_last()) + BONUS.get(to, 0)  # a connection ends the game
            text.append(f" Last: {who} {square_name(frm)} {square_name(to)}{took}"
                        + (f" (+{gain})" if gain else "") + ".", style="dim")
        return text

    # ----- drawing -----------------------------------------------------------------
    def render(self) -> Text:
        game = self.game
        g = self.geometry()
        text = Text(no_wrap=True, overflow="crop")
        if game is None:
            return text
        self.note(None if g.info else self.info_text())
        targets = self.targets
        shades = self.overlay_map()
        focus = self.place_of(self.cursor) if self.active() else None  # type: ignore[arg-type]
        fcol, frow = divmod(focus, SIZE)[::-1] if isinstance(focus, int) else (None, None)
        if g.top:
            self._files(text, g, fcol)
            text.append("\n")
        for r in range(SIZE):
            for line in range(g.ch if r < SIZE - 1 else g.chip_y + g.chip_h):
                if r or line:
                    text.append("\n")
                middle = line == g.mark_y
                rank = self._label(r * SIZE, 1) if middle else " "
                label = self.style("cursor") if r == frow else self.style("label")
                text.append(f" {rank} ", style=label)
                in_chip = g.chip_y <= line < g.chip_y + g.chip_h
                for c in range(SIZE):
                    if in_chip:  # the chip draws the space before it (see `_chip`)
                        sq = self.shown(r * SIZE + c)
                        self._chip(text, g, game, sq, middle, targets, shades.get(sq))
                    else:
                        text.append(" " * (g.chip_w + 1))
                    text.append(" ")
                if g.right:
                    text.append(f" {rank}", style=label)
        text.append("\n")
        self._files(text, g, fcol)
        if g.info:
            lines = self.info_text().wrap(self.app.console, g.width - 1, no_wrap=False)
            if len(lines) > g.info:
                lines = lines[:g.info]
                lines[-1].truncate(g.width - 2)
                lines[-1].append("…")
            for line in lines:
                text.append("\n ")
                text.append_text(line)
            text.append("\n " * (g.info - len(lines)))  # the height stays the layout's
        return text

    def _label(self, place: int, step: int) -> str:
        """The label of the line of places from `place` on, `step` apart (a row: 1, a
        column: SIZE): the rank or the file its squares share (turned, the lines swap)."""
        a, b = self.shown(place), self.shown(place + step)
        return str(SIZE - a // SIZE) if a // SIZE == b // SIZE else FILES[a % SIZE]

    def _files(self, text: Text, g: Geometry, focus_col: int | None) -> None:
        text.append(" " * LEFT)
        for c in range(SIZE):
            name = self._label(c, SIZE)
            style = self.style("cursor") if c == focus_col else self.style("label")
            text.append(f"{name:^{g.cw}}", style=style)
        if g.right:
            text.append(" " * RIGHT)

    def _chip(self, text: Text, g: Geometry, game: Loaps, sq: int, middle: bool,
              targets: frozenset[int], shade: str | None = None) -> None:
        """One line of a square's chip, after the space before it: brackets at its edges,
        the glyph in the middle (on the overlay's shade, if any)."""
        mark = game.board[sq]
        seat = self.seat_of(mark)
        empty = self.style("empty")
        last = self.last_move()
        bg = self.overlay_background(shade).bgcolor or empty.bgcolor
        # the glyph: a piece, a bonus square's points ("+7": never a bare digit like a
        # piece's, the "+" in the chip, or in its left bracket on a narrow chip), or a dot
        plus = ""
        if seat is not None:
            body, style = mark, self.seat_style(seat)
        elif sq in BONUS:
            body, style, plus = str(BONUS[sq]), self.style("label"), "+"
        else:
            body, style = ".", Style(color=empty.color)
        # the brackets and the chip's shade: each state below wins over those above it
        left = right = " "
        bracket = BOLD
        hint = self.hint if isinstance(self.hint, tuple) else ()
        if isinstance(last, tuple) and sq in last:
            left, right = "(", ")"
            bracket = self.seat_style(1 - game.to_move) + self.style("last")  # its mover
            if sq == last[1] and game.captured_last():
                left = right = "x"
                bracket = self.style("off")
        if sq in hint:
            left, right, bracket = "<", ">", BOLD
        if sq in targets:
            left, right, bracket = ">", "<", self.style("path")
            if shade is None:  # a shaded square keeps the AI's view of going there
                bg = (self.style("off") if seat is not None else self.style("path")).bgcolor
        if sq == self.selected and seat is not None:
            left, right, bracket = "{", "}", self.style("cursor")
            bg = self.style(f"run-{seat}").bgcolor
        if sq in hint:  # the suggestion's two squares stay green whatever else they are
            bg = self.style("hint").bgcolor
        at_cursor = sq == self.cursor and self.active()
        if at_cursor:
            left, right, bracket = "[", "]", self.style("cursor")
        elif not middle:
            left = right = " "  # on a tall chip only the cursor frames it from top to bottom
            bracket = Style()
        back = Style(bgcolor=bg)
        inner = g.chip_w - 2
        lead, lead_style = " ", Style()
        if middle and plus and inner < 2:
            # a narrow chip has no room for "+7" between brackets: the "+" takes the left
            # bracket's place, and a bracket moves out to the space before the chip, so
            # the cursor on a bonus square reads "[+7]", never a bare "[7]"
            if left != " ":
                lead, lead_style = left, bracket
            left, bracket, plus = plus, style, ""
        text.append(lead, lead_style)
        text.append(left, back + bracket)
        if middle:
            side = (inner - 1) // 2
            body = plus[:side] + body
            side -= len(body) - 1
            text.append(" " * side, back)
            text.append(body, back + style)
            text.append(" " * (inner - len(body) - side), back)
        else:
            text.append(" " * inner, back)
        text.append(right, back + bracket)

    # ----- input ---------------------------------------------------------------------
    def target_at(self, x: int, y: int) -> int | None:
        """The square under a content offset (its chip or the space round it), or None."""
        g = self.geometry()
        col, row = (x - LEFT) // g.cw, (y - g.grid_y) // g.ch
        if x < LEFT or y < g.grid_y or y >= g.grid_y + g.grid_h or not (
                0 <= col < SIZE and 0 <= row < SIZE):
            return None
        return self.shown(row * SIZE + col)

    # ----- the end screen ----------------------------------------------------------------
    @classmethod
    def describe_result(cls, game: Loaps) -> list[str]:
        """The reason, both sides' points, and how connected each side ended."""
        lines = super().describe_result(game)
        if game.outcome is None:
            return lines
        lines.append(points_text(game))
        for player in (0, 1):
            sizes = [len(group) for group in game.groups(player)]
            if not sizes:
                shape = "no pieces left"
            elif len(sizes) == 1:
                shape = f"{sizes[0]} piece{'s' * (sizes[0] != 1)}, connected"
            else:
                shape = f"{sum(sizes)} pieces in {len(sizes)} groups ({'+'.join(map(str, sizes))})"
            lines.append(f"{MARKS[player]} {NAMES[player]}: {shape}")
        return lines


BOARD = LoapsBoard
