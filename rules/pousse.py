"""Pousse (ICFP 1998): RULES.md section 5, the readable reference.

The board is N x N (4..20). Cells are addressed (row, col) from 0 at the top
left; the notation numbers rows and columns from 1. A move is a tuple
(side, index) with side in "LRTB" and index 1..N, written `L2`, `T13`.
A configuration is the board together with the side to move; repeating one
loses for the mover, otherwise a majority of straights wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from rules.base import Game, MoveError, OptionSpec, PositionError, Protocol
from rules.clock import ClockKind, TimeControl
from rules.match import PlainWins
from rules.outcome import Outcome, Termination

EMPTY, X, O = ".", "X", "O"  # noqa: E741
MARKS = (X, O)
SIDES = "LRTB"
MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 4, 20, 6

PMove = tuple[str, int]
Cell = tuple[int, int]


def check_size(value: Any) -> int:
    """The board size as an int in 4..20; PositionError otherwise."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise PositionError(f"board size must be a number from 4 to 20, not {value!r}") from None
    if isinstance(value, float) and value != n:
        raise PositionError(f"board size must be a whole number, not {value!r}")
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise PositionError(f"board size {n} is out of range: choose 4 to 20")
    return n


def parse_pousse_move(text: str, n: int) -> PMove:
    """`L2` -> ("L", 2); MoveError names what is wrong."""
    t = text.strip().upper()
    if not t:
        raise MoveError("empty move: use L, R, T or B and a number, e.g. L2")
    if t[0] not in SIDES:
        raise MoveError(f"{text.strip()!r}: a move starts with L, R, T or B (e.g. L2, T{n})")
    digits = t[1:]
    if not digits.isdigit() or not digits.isascii():
        raise MoveError(f"{text.strip()!r}: after {t[0]} comes a row/column number 1-{n}")
    index = int(digits)
    if not 1 <= index <= n:
        raise MoveError(f"{text.strip()!r}: the number must be 1 to {n} on this board")
    return (t[0], index)


def line_cells(n: int, move: PMove) -> list[Cell]:
    """The cells of the move's line, from the entry cell onward (push direction)."""
    side, index = move
    i = index - 1
    order = range(n) if side in "LT" else range(n - 1, -1, -1)
    if side in "LR":
        return [(i, c) for c in order]
    return [(r, i) for r in order]


def push(board: list[str], n: int, move: PMove, mark: str) -> tuple[list[Cell], Cell | None]:
    """Insert `mark` for `move` in place; returns the moved cells' paths and the pushed-off cell.

    The first list holds the line cells from the entry up to the first empty
    cell (or the whole line when full); the marker at the last of them falls
    off the board when the line was full, and that cell is the second value.
    """
    cells = line_cells(n, move)
    values = [board[r * n + c] for r, c in cells]
    k = values.index(EMPTY) if EMPTY in values else n - 1
    off = cells[k] if values[k] != EMPTY else None
    for j in range(k, 0, -1):
        r, c = cells[j]
        board[r * n + c] = values[j - 1]
    r, c = cells[0]
    board[r * n + c] = mark
    return cells[: k + 1], off


def straights(board: list[str], n: int) -> list[tuple[str, int, str]]:
    """Every straight as ("row" | "col", 0-based index, mark)."""
    found: list[tuple[str, int, str]] = []
    for r in range(n):
        row = board[r * n:(r + 1) * n]
        if row[0] != EMPTY and row.count(row[0]) == n:
            found.append(("row", r, row[0]))
    for c in range(n):
        col = board[c::n]
        if col[0] != EMPTY and col.count(col[0]) == n:
            found.append(("col", c, col[0]))
    return found


@dataclass(frozen=True)
class PushPreview:
    """What a move would do, for a board widget to show before it is played.

    `moved` pairs each marker that shifts with its destination (from, to);
    `pushed_off` is the cell whose marker falls off the board (its mark in
    `pushed_off_mark`). `outcome` is set when the move would end the game.
    """

    move: PMove
    board: tuple[str, ...]  # the board after the move, row-major
    entry: Cell
    moved: tuple[tuple[Cell, Cell], ...]
    pushed_off: Cell | None
    pushed_off_mark: str | None
    straights: tuple[int, int]  # (X, O) straights after the move
    repeats: bool  # the move repeats a configuration: the mover loses
    gives_opponent_straight: bool  # the opponent gains a straight
    outcome: Outcome | None


@dataclass
class Pousse(Game):
    """A Pousse game of size N; the state is derived from the empty start and `history`."""

    name = "pousse"
    title = "Pousse"
    tagline = "Push markers in from the edges; more straight lines wins. No draws."
    default_marks = (X, O)
    clock = TimeControl(ClockKind.MOVE, 30.0)
    time_controls = (TimeControl.none(), TimeControl(ClockKind.MOVE, 30.0),
                     TimeControl(ClockKind.GAME, 300.0), TimeControl(ClockKind.GAME, 900.0))
    protocol = Protocol.STDIN
    match_rule = PlainWins()
    moves_estimate = 40
    score_unit = "lines"  # straights
    summary = (
        "X and O take turns inserting a marker from an edge: L/R into a row, T/B\n"
        "into a column. Markers in the way slide one cell on, up to the first empty\n"
        "cell; in a full line the far marker falls off. A straight is a whole row\n"
        "or column of one colour. After a move: repeating an earlier position (board\n"
        "and side to move) loses for the mover; otherwise more straights wins,\n"
        "even when the mover's push made the opponent's. There are no draws."
    )
    option_specs = (
        OptionSpec("size", "Board size", int, DEFAULT_SIZE, tuple(range(MIN_SIZE, MAX_SIZE + 1)),
                   low=MIN_SIZE, high=MAX_SIZE, help="N for an N x N board (4-20)"),
    )

    size: int = DEFAULT_SIZE
    board: list[str] = field(default_factory=list)
    # Per move played: (board before, outcome before); undo pops it.
    _undo: list[tuple[list[str], Outcome | None]] = field(
        default_factory=list, repr=False, compare=False)
    # Configurations (board, side to move) seen in this game, the start included.
    _seen: Counter[tuple[str, int]] = field(default_factory=Counter, repr=False, compare=False)
    _outcome: Outcome | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.size = check_size(self.size)
        if self.history or self._undo:
            raise PositionError("build a Pousse game with new/from_native, then play the moves")
        self.board = [EMPTY] * (self.size * self.size)
        self._seen[self._config()] += 1

    # ----- construction ---------------------------------------------------
    @classmethod
    def new(cls, options: dict[str, Any] | None = None, seed: int | None = None) -> Pousse:
        return cls(size=check_size((options or {}).get("size", DEFAULT_SIZE)))

    @classmethod
    def from_native(cls, text: str) -> Pousse:
        lines = [line.strip() for line in text.splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            raise PositionError("empty input: expected N (4-20) on the first line, then moves")
        if not lines[0].isdigit():
            raise PositionError(f"line 1 must be the board size N (4-20), not {lines[0]!r}")
        game = cls(size=check_size(lines[0]))
        for number, line in enumerate(lines[1:], 2):
            try:
                move = game.parse_move(line)
            except MoveError as err:
                raise PositionError(f"line {number}: {err}") from None
            if game.is_over:
                raise PositionError(f"line {number}: {line!r} comes after the game has ended")
            game.play(move)
        return game

    def to_native(self) -> str:
        return self.start_native() + "".join(self.move_text(m) + "\n" for m in self.history)

    def start_native(self) -> str:
        return f"{self.size}\n"

    @property
    def options(self) -> dict[str, Any]:
        return {"size": self.size}

    @classmethod
    def from_start(cls, options: dict[str, Any], start: str) -> Pousse:
        game = cls.from_native(start)
        if "size" in options and check_size(options["size"]) != game.size:
            raise PositionError(f"size option {options['size']} does not match the start {start!r}")
        return game

    def contest_reply(self, move: Hashable) -> str:
        """The Pousse program prints only its move, one line."""
        self.play(move)
        return self.move_text(move) + "\n"

    # ----- play -----------------------------------------------------------
    @property
    def to_move(self) -> int:
        return len(self._undo) % 2

    def legal_moves(self) -> list[PMove]:
        if self.is_over:
            return []
        return [(side, i) for side in SIDES for i in range(1, self.size + 1)]

    def is_legal(self, move: Hashable) -> bool:
        return (not self.is_over and isinstance(move, tuple) and len(move) == 2
                and move[0] in SIDES and isinstance(move[1], int)
                and 1 <= move[1] <= self.size)

    def _config(self) -> tuple[str, int]:
        return "".join(self.board), self.to_move

    def _result(self, mover: int) -> Outcome | None:
        """The end rule for the configuration just reached by `mover`'s move."""
        x, o = self.scores()
        if self._seen[self._config()] > 1:
            return Outcome(Termination.REPETITION, (1 - mover,), (x, o),
                           f"{MARKS[mover]} repeated an earlier position and loses")
        if x == o:
            return None
        winner = 0 if x > o else 1
        most = max(x, o)
        return Outcome(Termination.STRAIGHTS, (winner,), (x, o), f"{MARKS[winner]} wins with "
                       f"{most} straight{'s' if most > 1 else ''} to {min(x, o)}")

    def _apply(self, move: Hashable) -> None:
        mover = self.to_move
        self._undo.append((list(self.board), self._outcome))
        push(self.board, self.size, move, MARKS[mover])  # type: ignore[arg-type]
        self._seen[self._config()] += 1
        self._outcome = self._result(mover)

    def _unapply(self, move: Hashable) -> None:
        config = self._config()
        self._seen[config] -= 1
        if not self._seen[config]:
            del self._seen[config]
        self.board, self._outcome = self._undo.pop()

    def natural_outcome(self) -> Outcome | None:
        return self._outcome

    def scores(self) -> tuple[int, int]:
        found = straights(self.board, self.size)
        x = sum(1 for *_, mark in found if mark == X)
        return x, len(found) - x

    def key(self) -> Hashable:
        return (self.size, *self._config())

    def parse_move(self, text: str) -> PMove:
        return parse_pousse_move(text, self.size)

    def move_text(self, move: Hashable) -> str:
        side, index = move  # type: ignore[misc]
        return f"{side}{index}"

    # ----- what a board widget needs ----------------------------------------
    def cell(self, row: int, col: int) -> str:
        """The mark at (row, col), 0-based: "X", "O" or "."."""
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise IndexError(f"cell ({row}, {col}) is off a {self.size}x{self.size} board")
        return self.board[row * self.size + col]

    def rows(self) -> list[str]:
        """The board as N strings of ".XO", top row first."""
        n = self.size
        return ["".join(self.board[r * n:(r + 1) * n]) for r in range(n)]

    def straight_lines(self) -> list[tuple[str, int, str]]:
        """The straights now, as ("row" | "col", 0-based index, mark)."""
        return straights(self.board, self.size)

    @property
    def last_move(self) -> PMove | None:
        return self.history[-1] if self.history else None  # type: ignore[return-value]

    def preview(self, move: Hashable) -> PushPreview:
        """What `move` would do now (nothing is changed); MoveError if it is not legal."""
        if self.is_over:
            raise MoveError("the game is over")
        if not self.is_legal(move):
            raise MoveError(f"{move!r} is not a move on this board")
        mover = self.to_move
        before = self.scores()
        after_board = list(self.board)
        path, off = push(after_board, self.size, move, MARKS[mover])  # type: ignore[arg-type]
        off_mark = self.board[off[0] * self.size + off[1]] if off else None
        self._apply(move)
        try:
            after = self.scores()
            repeats = self._seen[self._config()] > 1
            outcome = self._outcome
        finally:
            self._unapply(move)
        # Markers from the entry to just before the end of the path shift one cell on;
        # the last path cell was empty, or (a full line) its marker fell off.
        moved = tuple(zip(path[:-1], path[1:], strict=True))
        return PushPreview(
            move=move,  # type: ignore[arg-type]
            board=tuple(after_board),
            entry=path[0],
            moved=moved,
            pushed_off=off,
            pushed_off_mark=off_mark,
            straights=after,
            repeats=repeats,
            gives_opponent_straight=after[1 - mover] > before[1 - mover],
            outcome=outcome,
        )


GAME = Pousse
