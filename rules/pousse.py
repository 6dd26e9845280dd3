"""Pousse (ICFP 1998): RULES.md section 5, the readable reference.

The board is N x N (4..20). Cells are addressed (row, col) from 0 at the top
left; the notation numbers rows and columns from 1. A move is a tuple
(side, index) with side in "LRTB" and index 1..N, written `L2`, `T13`.
A configuration is the board together with the side to move; repeating one
loses for the mover, otherwise a majority of straights wins.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rules.base import Game, MoveError, OptionSpec, PositionError, excerpt
from rules.clock import ClockKind, TimeControl
from rules.match import PlainWins
from rules.outcome import Ending, Outcome, Termination

EMPTY, X, O = ".", "X", "O"  # noqa: E741
MARKS = (X, O)
SIDES = "LRTB"
MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 4, 20, 6
# The longest game a native position may hold. The rules set no limit, but a game
# this long takes seconds to replay (and 1 MB of moves); a longer one is refused up front.
MAX_MOVES = 200_000
# shift_in's (k, off) as shared tuples: one reference per move in a long game.
_UNDO_RECORDS = {(k, off): (k, off) for k in range(MAX_SIZE) for off in (EMPTY, X, O)}

PMove = tuple[str, int]
Cell = tuple[int, int]


def check_size(value: Any) -> int:
    """The board size as an int in 4..20; PositionError otherwise."""
    if isinstance(value, str) and (len(value.strip()) > 12 or not value.strip().isascii()):
        # int() would take other scripts' digits, and fail on thousands of them
        raise PositionError(f"board size must be a number from 4 to 20, not {excerpt(value)}")
    try:
        n = int(value)
    except (TypeError, ValueError, OverflowError):
        raise PositionError(
            f"board size must be a number from 4 to 20, not {excerpt(value)}") from None
    if isinstance(value, float) and value != n:
        raise PositionError(f"board size must be a whole number, not {excerpt(value)}")
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise PositionError(f"board size {excerpt(n)} is out of range: choose 4 to 20")
    return n


# The endings, after each move: a repetition loses for the mover, else more straights win.
REPETITION = Ending(Termination.RULE, "repetition")
STRAIGHTS = Ending(Termination.RULE, "more straights")

# One shared tuple per move: a long game's history holds references, not copies.
_MOVES = {(side, i): (side, i) for side in SIDES for i in range(1, MAX_SIZE + 1)}


def parse_pousse_move(text: str, n: int) -> PMove:
    """`L2` -> ("L", 2); MoveError names what is wrong, quoting at most an excerpt."""
    t = text.strip().upper()
    if not t:
        raise MoveError("empty move: use L, R, T or B and a number, e.g. L2")
    shown = excerpt(text.strip())
    if t[0] not in SIDES:
        raise MoveError(f"{shown}: a move starts with L, R, T or B (e.g. L2, T{n})")
    digits = t[1:]
    if not digits.isdigit() or not digits.isascii():
        raise MoveError(f"{shown}: after {t[0]} comes a row/column number 1-{n}")
    # Leading zeros are harmless; past two digits the number is out of range, and
    # int() on thousands of digits would fail with Python's own error.
    significant = digits.lstrip("0")
    index = int(significant) if 0 < len(significant) <= 2 else 0
    if not 1 <= index <= n:
        raise MoveError(f"{shown}: the number must be 1 to {n} on this board")
    return _MOVES[(t[0], index)]


@cache
def line_slice(n: int, move: PMove) -> slice:
    """The move's line as a slice of the row-major board, from the entry cell onward."""
    side, index = move
    i = index - 1
    if side == "L":
        return slice(i * n, i * n + n)
    if side == "R":
        return slice(i * n + n - 1, i * n - 1 if i else None, -1)
    if side == "T":
        return slice(i, None, n)
    return slice((n - 1) * n + i, None, -n)


def line_indices(n: int, move: PMove) -> range:
    """The flat indices (row * N + col) of the move's line, from the entry cell onward."""
    return range(n * n)[line_slice(n, move)]


def line_cells(n: int, move: PMove) -> list[Cell]:
    """The cells of the move's line, from the entry cell onward (push direction)."""
    return [divmod(idx, n) for idx in line_indices(n, move)]


def shift_in(board: list[str], line: slice, mark: str) -> tuple[int, str]:
    """Insert `mark` at the line's entry in place; returns (k, off) for `shift_out`.

    Markers slide one cell on up to the first empty cell, the k-th of the line;
    in a full line k is the last cell and its marker `off` falls off (`off` is
    EMPTY otherwise). Those two values are all it takes to undo the push.
    """
    values = board[line]
    k = values.index(EMPTY) if EMPTY in values else len(values) - 1
    off = values[k]
    board[line] = [mark, *values[:k], *values[k + 1:]]
    return k, off


def shift_out(board: list[str], line: slice, k: int, off: str) -> None:
    """Undo `shift_in` given its (k, off): slide the first k + 1 cells back, `off` last."""
    values = board[line]
    board[line] = [*values[1:k + 1], off, *values[k + 1:]]


def push(board: list[str], n: int, move: PMove, mark: str) -> tuple[list[Cell], Cell | None]:
    """Insert `mark` for `move` in place; returns the moved cells' paths and the pushed-off cell.

    The first list holds the line cells from the entry up to the first empty
    cell (or the whole line when full); the marker at the last of them falls
    off the board when the line was full, and that cell is the second value.
    """
    k, off = shift_in(board, line_slice(n, move), mark)
    cells = line_cells(n, move)[: k + 1]
    return cells, (cells[k] if off != EMPTY else None)


def line_mark(board: str | list[str], n: int, kind: str, i: int) -> str | None:
    """The mark of row or column `i` ("row" | "col") if it is a straight, else None."""
    cells = board[i * n:(i + 1) * n] if kind == "row" else board[i::n]
    first = cells[0]
    return first if first != EMPTY and cells.count(first) == n else None


def straights(board: list[str], n: int) -> list[tuple[str, int, str]]:
    """Every straight as ("row" | "col", 0-based index, mark)."""
    found: list[tuple[str, int, str]] = []
    for kind in ("row", "col"):
        for i in range(n):
            mark = line_mark(board, n, kind, i)
            if mark is not None:
                found.append((kind, i, mark))
    return found


# The same count with bit masks, for play: a long game counts straights after every
# move, and this costs a few big-int operations instead of 2N slices of the board.
_X_BITS = bytes.maketrans(b".XO", b"010")
_O_BITS = bytes.maketrans(b".XO", b"001")


def bit_masks(cells: bytes | bytearray) -> tuple[int, int]:
    """The board (as ASCII bytes) as two ints, the X cells' and the O cells'. The first
    cell is the highest bit: rows stay runs of N bits and columns bits N apart."""
    return int(cells.translate(_X_BITS), 2), int(cells.translate(_O_BITS), 2)


def _all_set(bits: int, step: int, length: int) -> int:
    """Bit i is set where bits i, i + step, ..., i + (length - 1) * step all are.

    Doubling: after the loop each bit ANDs a run of `span` bits; one last shift
    by the remaining (length - span) steps, overlapping that run, covers all of them.
    """
    span = 1
    while 2 * span <= length:
        bits &= bits >> span * step
        span *= 2
    return bits & bits >> (length - span) * step


@cache
def _row_starts(n: int) -> int:
    return sum(1 << r * n for r in range(n))


def full_lines(bits: int, n: int) -> int:
    """How many rows and columns a mark's bit mask fills: its straights."""
    rows = _all_set(bits, 1, n) & _row_starts(n)  # runs of N cells that start a row
    cols = _all_set(bits, n, n) & ((1 << n) - 1)  # N cells a row apart, up from the last row
    return rows.bit_count() + cols.bit_count()


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
    match_rule = PlainWins()
    moves_estimate = 40
    score_unit = "lines"  # straights
    endings = (STRAIGHTS, REPETITION)
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
    # The board again as ASCII bytes, kept in step by every move: the bit masks come
    # from it, where joining N * N one-letter strings would cost more than the move.
    _cells: bytearray = field(default_factory=bytearray, repr=False, compare=False)
    # Per move played, what undoing it needs: shift_in's (k, off). The outcome before a
    # move is always None (moves are played only while the game goes on), so a long game
    # costs a few bytes per move here, not a board copy.
    _undo: list[tuple[int, str]] = field(default_factory=list, repr=False, compare=False)
    # Every configuration reached in this game, the start included, as compact keys
    # (`_code`). A repetition ends the game, so each occurs once, bar the last. (Only
    # those with today's marker count can come back, but on a full board, where long
    # games are played, that is all of them: keeping them all costs nothing more.)
    _seen: set[int] = field(default_factory=set, repr=False, compare=False)
    _scores: tuple[int, int] = field(default=(0, 0), repr=False, compare=False)
    _outcome: Outcome | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.size = check_size(self.size)
        if self.history or self._undo:
            raise PositionError("build a Pousse game with new/from_native, then play the moves")
        self.board = [EMPTY] * (self.size * self.size)
        self._cells = bytearray(EMPTY.encode() * (self.size * self.size))
        self._seen.add(self._code(*bit_masks(self._cells)))

    # ----- construction ---------------------------------------------------
    @classmethod
    def new(cls, options: dict[str, Any] | None = None, seed: int | None = None) -> Pousse:
        return cls(size=check_size((options or {}).get("size", DEFAULT_SIZE)))

    @classmethod
    def from_native(cls, text: str) -> Pousse:
        # Count before splitting: a huge input is refused without a list of its lines.
        if text.count("\n") > MAX_MOVES + 1 or len(text) > 16 * (MAX_MOVES + 2):
            raise PositionError(f"too many moves: a Pousse game here has at most {MAX_MOVES:,}")
        lines = [line.strip() for line in text.splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            raise PositionError("empty input: expected N (4-20) on the first line, then moves")
        if len(lines) > MAX_MOVES + 1:
            raise PositionError(f"too many moves: a Pousse game here has at most {MAX_MOVES:,}")
        if not (lines[0].isdigit() and lines[0].isascii()):
            raise PositionError(
                f"line 1 must be the board size N (4-20), not {excerpt(lines[0])}")
        game = cls(size=check_size(lines[0]))
        for number, line in enumerate(lines[1:], 2):
            try:
                move = game.parse_move(line)
            except MoveError as err:
                raise PositionError(f"line {number}: {err}") from None
            if game.is_over:
                raise PositionError(
                    f"line {number}: {excerpt(line)} comes after the game has ended")
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
            raise PositionError(f"size option {excerpt(options['size'])} does not match "
                                f"the start {excerpt(start)}")
        return game

    def copy(self) -> Pousse:
        """An independent copy. Every element the containers hold is immutable, so
        copying the containers is enough (a deep copy of a long game takes seconds)."""
        twin = _copy.copy(self)
        twin.history, twin.board = list(self.history), list(self.board)
        twin._cells, twin._undo = bytearray(self._cells), list(self._undo)
        twin._seen = set(self._seen)
        return twin

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

    def _code(self, xs: int, os_: int) -> int:
        """The configuration (the board's bit masks, the side to move) as one int. About
        two bits a cell, where the board's string would take a byte and a list eight."""
        return ((xs << self.size * self.size | os_) << 1) + self.to_move

    def _result(self, mover: int, repeated: bool) -> Outcome | None:
        """The end rule for the configuration just reached by `mover`'s move."""
        x, o = self.scores()
        if repeated:
            return Outcome(REPETITION, (1 - mover,), (x, o),
                           f"{MARKS[mover]} repeated an earlier position and loses")
        if x == o:
            return None
        winner = 0 if x > o else 1
        most = max(x, o)
        return Outcome(STRAIGHTS, (winner,), (x, o), f"{MARKS[winner]} wins with "
                       f"{most} straight{'s' if most > 1 else ''} to {min(x, o)}")

    def _sync(self, line: slice) -> tuple[int, int]:
        """After a push or its undo along `line`: copy the line to `_cells`, count the
        straights again, and return the bit masks."""
        self._cells[line] = "".join(self.board[line]).encode()
        xs, os_ = bit_masks(self._cells)
        self._scores = (full_lines(xs, self.size), full_lines(os_, self.size))
        return xs, os_

    def _apply(self, move: Hashable) -> None:
        mover = self.to_move
        line = line_slice(self.size, move)  # type: ignore[arg-type]
        self._undo.append(_UNDO_RECORDS[shift_in(self.board, line, MARKS[mover])])
        code = self._code(*self._sync(line))
        repeated = code in self._seen
        self._seen.add(code)
        self._outcome = self._result(mover, repeated)

    def _unapply(self, move: Hashable) -> None:
        # A repeating move added nothing to `_seen`: its configuration was there before.
        if self._outcome is None or self._outcome.ending != REPETITION:
            self._seen.discard(self._code(*bit_masks(self._cells)))
        k, off = self._undo.pop()
        line = line_slice(self.size, move)  # type: ignore[arg-type]
        shift_out(self.board, line, k, off)
        self._sync(line)
        self._outcome = None

    def natural_outcome(self) -> Outcome | None:
        return self._outcome

    def scores(self) -> tuple[int, int]:
        return self._scores

    def key(self) -> Hashable:
        return (self.size, "".join(self.board), self.to_move)

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
            outcome = self._outcome
            repeats = outcome is not None and outcome.ending == REPETITION
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
