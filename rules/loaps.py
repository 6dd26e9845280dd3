"""LOAPS (POTM): Lines of Action on 7x7 with points, RULES.md section 2, the readable reference.

Squares are numbered 0..48 as row * 7 + column, row 0 being rank 7 (the top
line of the native file) and column 0 file a; the notation is chess's (`b4`).
A move is a (from, to) pair of squares, written `b4 c3`. Player 1 (red, `1`)
always moves first; `made` counts each side's moves, so the 50-move draw is
known in a game loaded from a native file half-way through.
"""

from __future__ import annotations

import copy as _copy
import math
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.base import Game, MoveError, PositionError, excerpt
from rules.clock import ClockKind, TimeControl
from rules.match import MatchPoints
from rules.outcome import Ending, Outcome, Termination

SIZE = 7
CELLS = SIZE * SIZE
FILES = "abcdefg"
EMPTY = "."
MARKS = ("1", "2")  # the native file's marks: player 1 (red) and player 2 (blue)
NAMES = ("red", "blue")
MOVE_LIMIT = 50  # moves per player: when both have made them, the game is drawn
CONNECT_POINTS = 12
CAPTURE_POINTS = 1
CONTEST_SECONDS = 60.0

# The endings: a connection (the points decide), the 50-move draw, a side that cannot move.
CONNECTION = Ending(Termination.RULE, "connection")
MOVE_LIMIT_DRAW = Ending(Termination.LIMIT, "move limit")
NO_MOVES = Ending(Termination.NO_MOVES, "no legal move")

START_ROWS = (".11.11.", "2.....2", "2.....2", ".......", "2.....2", "2.....2", ".11.11.")

LMove = tuple[int, int]

# The four lines through a square, as (row, col) steps; each is walked both ways.
LINE_STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))
DIRECTIONS = tuple(d for dr, dc in LINE_STEPS for d in ((dr, dc), (-dr, -dc)))
NEIGHBOURS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def square_name(sq: int) -> str:
    """0 -> "a7", 48 -> "g1"."""
    row, col = divmod(sq, SIZE)
    return f"{FILES[col]}{SIZE - row}"


def parse_square(text: str) -> int:
    """`b4` -> its square; MoveError says what is wrong."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in FILES or t[1] not in "1234567":
        raise MoveError(f"{excerpt(text.strip())} is not a square: use a file a-g and a "
                        "rank 1-7, e.g. b4")
    return (SIZE - int(t[1])) * SIZE + FILES.index(t[0])


def _bonus() -> dict[int, int]:
    table = {parse_square("d4"): 7}
    table.update({parse_square(name): 3 for name in ("b2", "b6", "f2", "f6")})
    return table


BONUS = _bonus()  # landing points by square: d4 7, b2 b6 f2 f6 3


def _ray(sq: int, dr: int, dc: int) -> list[int]:
    """The squares from `sq` (excluded) to the edge in direction (dr, dc)."""
    row, col = divmod(sq, SIZE)
    out = []
    row, col = row + dr, col + dc
    while 0 <= row < SIZE and 0 <= col < SIZE:
        out.append(row * SIZE + col)
        row, col = row + dr, col + dc
    return out


RAYS = tuple(tuple(tuple(_ray(sq, dr, dc)) for dr, dc in DIRECTIONS) for sq in range(CELLS))
# the whole line through a square for each of the 4 line kinds (the square included)
LINES = tuple(tuple((sq, *RAYS[sq][2 * k], *RAYS[sq][2 * k + 1]) for k in range(4))
              for sq in range(CELLS))
ADJACENT = tuple(tuple(r[0] for r in RAYS[sq] if r) for sq in range(CELLS))

_MOVES = {(a, b): (a, b) for a in range(CELLS) for b in range(CELLS)}
_MOVE_RE = re.compile(r"\s*([a-gA-G][1-7])\s*(?:[-x:]\s*|\s+)?([a-gA-G][1-7])\s*")


def start_board() -> list[str]:
    return list("".join(START_ROWS))


def moves_from(board: Sequence[str], sq: int) -> list[int]:
    """The squares the piece on `sq` can move to (none for an empty square)."""
    mine = board[sq]
    if mine == EMPTY:
        return []
    out = []
    for k in range(4):
        count = sum(board[s] != EMPTY for s in LINES[sq][k])
        for ray in (RAYS[sq][2 * k], RAYS[sq][2 * k + 1]):
            if len(ray) < count:
                continue  # it would leave the board
            passed, target = ray[:count - 1], ray[count - 1]
            if board[target] == mine:
                continue
            if any(board[s] not in (EMPTY, mine) for s in passed):
                continue  # never over the other side's pieces
            out.append(target)
    return out


def why_not(board: Sequence[str], sq: int, to: int) -> str:
    """Why the piece on `sq` cannot move to `to` (one line for a person)."""
    mine = board[sq]
    name, target = square_name(sq), square_name(to)
    if sq == to:
        return f"{name} must move: choose another square"
    for k in range(4):
        count = sum(board[s] != EMPTY for s in LINES[sq][k])
        for ray in (RAYS[sq][2 * k], RAYS[sq][2 * k + 1]):
            if to not in ray:
                continue
            distance = ray.index(to) + 1
            if distance != count:
                return (f"{name} moves exactly {count} square{'s' if count > 1 else ''} "
                        f"along that line ({count} piece{'s' if count > 1 else ''} on it), "
                        f"not {distance}")
            if board[to] == mine:
                return f"{target} holds your own piece"
            blocker = next(s for s in ray[:count - 1] if board[s] not in (EMPTY, mine))
            return f"{name} cannot jump over the other side's piece on {square_name(blocker)}"
    return f"{target} is not on a line through {name}: move along a row, column or diagonal"


def groups(board: Sequence[str], mark: str) -> list[list[int]]:
    """The 8-connected groups of `mark`'s pieces, largest first."""
    seen: set[int] = set()
    out = []
    for sq in range(CELLS):
        if board[sq] != mark or sq in seen:
            continue
        group, todo = [], [sq]
        seen.add(sq)
        while todo:
            s = todo.pop()
            group.append(s)
            for t in ADJACENT[s]:
                if board[t] == mark and t not in seen:
                    seen.add(t)
                    todo.append(t)
        out.append(sorted(group))
    out.sort(key=lambda g: (-len(g), g))
    return out


def connected(board: Sequence[str], mark: str) -> bool:
    """All of `mark`'s pieces in one group (one piece is connected, none is not)."""
    return len(groups(board, mark)) == 1


def _number(text: str, what: str, line: int, real: bool = False) -> float:
    ok = re.fullmatch(r"[0-9]{1,7}(\.[0-9]{0,6})?" if real else r"[0-9]{1,6}", text)
    if not ok:
        kind = "a number of seconds" if real else "a whole number"
        raise PositionError(f"line {line}: {what} must be {kind}, not {excerpt(text)}")
    return float(text) if real else int(text)


def _well_formed(move: Any) -> bool:
    """A (from, to) pair of squares (a move on this board, legal or not)."""
    return (isinstance(move, tuple) and len(move) == 2
            and all(isinstance(sq, int) and 0 <= sq < CELLS for sq in move))


@dataclass(frozen=True)
class Undo:
    """What taking one move back needs: the piece it captured and the points before."""

    captured: str
    points: tuple[int, int]


@dataclass
class Loaps(Game):
    """A LOAPS game: the start (board, mover, points, moves made, seconds left) and moves."""

    name = "loaps"
    title = "LOAPS"
    tagline = "Lines of Action on 7x7 with points: connect, but the points decide."
    default_marks = MARKS
    seat_names = NAMES
    clock = TimeControl(ClockKind.GAME, CONTEST_SECONDS)
    time_controls = (TimeControl(ClockKind.GAME, 300.0), TimeControl(ClockKind.GAME, 900.0),
                     TimeControl(ClockKind.GAME, CONTEST_SECONDS), TimeControl.none())
    match_rule = MatchPoints(length=2)
    endings = (CONNECTION, MOVE_LIMIT_DRAW, NO_MOVES)
    # A player's moves in a typical game, for sharing the game clock: games between
    # engines end by a connection after 8 to 23 moves a side (13 on average: ai:max
    # against a C alpha-beta program, 35 games at 20 s a side; at 60 s, planning 14
    # moves, ai:max still used only 17 s of its 60 on average, 33 s at most; planning
    # 12, with at least a quarter of the moves to the limit, it left 2/3 unused).
    moves_estimate = 8
    summary = (
        "Red (1) and blue (2) move in turn, red first. A piece moves in a straight\n"
        "line (8 directions) exactly as many squares as there are pieces on that\n"
        "line; it may jump its own pieces, never the other side's, and captures by\n"
        "landing on one. Points: a capture 1, landing on d4 7, on b2 b6 f2 f6 3.\n"
        "Connecting all your pieces scores 12 and ends the game; so does a capture\n"
        "that leaves the other side connected (12 to them). Then the points decide.\n"
        "After 50 moves each it is a draw; a side that cannot move loses."
    )

    board: list[str] = field(default_factory=start_board)
    mover: int = 0  # to move at the start (the native file's first number, less 1)
    points: list[int] = field(default_factory=lambda: [0, 0])
    made: list[int] = field(default_factory=lambda: [0, 0])  # moves each side has made
    seconds_left: tuple[float, float] | None = None  # the native file's clocks at the start
    _start: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    _undo: list[Undo] = field(default_factory=list, repr=False, compare=False)
    _outcome: Outcome | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.history:
            raise PositionError("build a LOAPS game with new/from_native, then play the moves")
        self._start = (tuple(self.board), self.mover, tuple(self.points), tuple(self.made))
        self._outcome = self._judge_to_move(self.mover)

    # ----- construction ---------------------------------------------------
    @classmethod
    def new(cls, options: dict[str, Any] | None = None, seed: int | None = None) -> Loaps:
        return cls()

    @classmethod
    def from_native(cls, text: str) -> Loaps:
        if len(text) > 4096:
            raise PositionError("too long for a LOAPS position (10 short lines)")
        lines = [line.strip() for line in text.splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            raise PositionError("empty input: expected the mover and move number, two "
                                "players' lines, then 7 board lines")
        if len(lines) != 10:
            raise PositionError(f"expected 10 lines (mover and move number, two players' "
                                f"points and seconds, 7 board lines), got {len(lines)}")
        head = lines[0].split()
        if len(head) != 2:
            raise PositionError(f"line 1 must be the player to move (1 or 2) and its move "
                                f"number (1-50), not {excerpt(lines[0])}")
        if head[0] not in MARKS:
            raise PositionError(f"line 1: the player to move must be 1 or 2, not "
                                f"{excerpt(head[0])}")
        mover = MARKS.index(head[0])
        number = int(_number(head[1], "the move number", 1))
        if not 1 <= number <= MOVE_LIMIT:
            raise PositionError(f"line 1: the move number must be 1 to {MOVE_LIMIT}, "
                                f"not {number}")
        points, left = [0, 0], [0.0, 0.0]
        for player in (0, 1):
            fields = lines[1 + player].split()
            if len(fields) != 3 or fields[0] != MARKS[player]:
                raise PositionError(f"line {2 + player} must be {MARKS[player]}, that player's "
                                    f"points and seconds left, not {excerpt(lines[1 + player])}")
            points[player] = int(_number(fields[1], "the points", 2 + player))
            left[player] = _number(fields[2], "the seconds left", 2 + player, real=True)
        rows = lines[3:]
        for i, row in enumerate(rows):
            if len(row) != SIZE:
                raise PositionError(f"line {4 + i}: a board line has 7 squares, not "
                                    f"{excerpt(row)}")
            bad = sorted(set(row) - set("12."))
            if bad:
                raise PositionError(f"line {4 + i} has {bad[0]!r}; only 1, 2 and . are allowed")
        board = list("".join(rows))
        # each side has made number - 1 moves, but player 1 one more when 2 is to move
        made = [number - 1 + (mover == 1), number - 1]
        # a side named as the file names it and as the board does ("player 2 (blue)")
        side = [f"player {MARKS[p]} ({NAMES[p]})" for p in (0, 1)]
        for player in (0, 1):
            pieces = board.count(MARKS[player])
            other = 1 - player
            if pieces > 8:
                raise PositionError(f"{side[player]} has {pieces} pieces: at most 8")
            if pieces < 8 - made[other]:
                raise PositionError(f"{side[player]} has {pieces} pieces, but {NAMES[other]} "
                                    f"has made only {made[other]} moves")  # to capture them
            most = (CAPTURE_POINTS + max(BONUS.values())) * made[player]
            if points[player] > most:
                raise PositionError(f"{side[player]} has {points[player]} points after "
                                    f"{made[player]} moves: at most {most} are possible")
        return cls(board=board, mover=mover, points=points, made=made,
                   seconds_left=(left[0], left[1]))

    def native_text(self, seconds_left: Sequence[float | None] | None = None) -> str:
        """The native file for the position now; the clocks from `seconds_left` (per player,
        None: no limit, written as the contest's 60 s), else as loaded, else 60 s each."""
        left = list(seconds_left) if seconds_left is not None else list(
            self.seconds_left or (CONTEST_SECONDS, CONTEST_SECONDS))
        shown = [CONTEST_SECONDS if s is None else max(0.0, s) for s in left]
        mover = self.to_move
        number = min(MOVE_LIMIT, self.made[mover] + 1)
        out = [f"{mover + 1} {number}"]
        out += [f"{p + 1} {self.points[p]} {math.floor(shown[p] * 100 + 1e-6) / 100:.2f}"
                for p in (0, 1)]
        out += ["".join(self.board[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]
        return "\n".join(out) + "\n"

    def to_native(self) -> str:
        return self.native_text()

    def start_native(self) -> str:
        board, mover, points, made = self._start
        return Loaps(board=list(board), mover=mover, points=list(points), made=list(made),
                     seconds_left=self.seconds_left).to_native()

    @property
    def options(self) -> dict[str, Any]:
        return {}

    def copy(self) -> Loaps:
        twin = _copy.copy(self)
        twin.history, twin.board = list(self.history), list(self.board)
        twin.points, twin.made, twin._undo = list(self.points), list(self.made), list(self._undo)
        return twin

    # ----- play -----------------------------------------------------------
    @property
    def to_move(self) -> int:
        return (self.mover + len(self.history)) % 2

    def moves_left_estimate(self, player: int) -> int:
        """At most the moves left before the 50-move draw, and a typical game's share, but
        never fewer than a sixth of the moves left (a long game spends its clock
        geometrically, never all of it)."""
        left = MOVE_LIMIT - self.made[player]
        return max(1, min(left, max(self.moves_estimate - self.made[player], left // 6)))

    def moves_left_most(self, player: int) -> int | None:
        return max(0, MOVE_LIMIT - self.made[player])

    def legal_moves(self) -> list[LMove]:
        if self.is_over:
            return []
        return self._moves()

    def _moves(self, player: int | None = None) -> list[LMove]:
        mark = MARKS[self.to_move if player is None else player]
        return [_MOVES[(sq, to)] for sq in range(CELLS) if self.board[sq] == mark
                for to in moves_from(self.board, sq)]

    def is_legal(self, move: Hashable) -> bool:
        if self.is_over or not _well_formed(move):
            return False
        frm, to = move  # type: ignore[misc]
        return self.board[frm] == MARKS[self.to_move] and to in moves_from(self.board, frm)

    def why_illegal(self, move: Hashable) -> str:
        if not _well_formed(move):
            return super().why_illegal(move)
        return self.problem(move)  # type: ignore[arg-type]

    def problem(self, move: LMove) -> str:
        """Why `move` is not legal here, in one line."""
        frm, to = move
        if self.board[frm] != MARKS[self.to_move]:
            whose = ("the other side's piece" if self.board[frm] != EMPTY else "empty")
            return (f"{square_name(frm)} is {whose}: move one of "
                    f"{NAMES[self.to_move]}'s pieces ({MARKS[self.to_move]})")
        return why_not(self.board, frm, to)

    def _apply(self, move: Hashable) -> None:
        frm, to = move  # type: ignore[misc]
        mover, other = self.to_move, 1 - self.to_move
        captured = self.board[to]
        self._undo.append(Undo(captured, (self.points[0], self.points[1])))
        self.board[to], self.board[frm] = self.board[frm], EMPTY
        self.points[mover] += (CAPTURE_POINTS if captured != EMPTY else 0) + BONUS.get(to, 0)
        self.made[mover] += 1
        self._outcome = None
        name, other_name = NAMES[mover], NAMES[other]
        if connected(self.board, MARKS[mover]):
            self.points[mover] += CONNECT_POINTS
            self._outcome = self._connection(f"{name} connected all its pieces (+12)")
        elif captured != EMPTY and connected(self.board, MARKS[other]):
            self.points[other] += CONNECT_POINTS
            self._outcome = self._connection(
                f"{name}'s capture left {other_name} connected (+12 to {other_name})")
        else:
            self._outcome = self._judge_to_move(other)

    def _connection(self, how: str) -> Outcome:
        p = (self.points[0], self.points[1])
        if p[0] == p[1]:
            return Outcome(CONNECTION, (), p, f"{how}; {p[0]} points each: a draw")
        winner = 0 if p[0] > p[1] else 1
        return Outcome(CONNECTION, (winner,), p,
                       f"{how}; {NAMES[winner]} wins on points, {max(p)} to {min(p)}")

    def _judge_to_move(self, stuck: int) -> Outcome | None:
        """The endings that do not need a connection, for `stuck` to move: the 50-move draw,
        then no legal move. (Called from `_apply` before the history grows.)"""
        p = (self.points[0], self.points[1])
        if min(self.made) >= MOVE_LIMIT:
            return Outcome(MOVE_LIMIT_DRAW, (), p,
                           f"both sides made {MOVE_LIMIT} moves: a draw, whatever the points")
        if not self._moves(stuck):
            return Outcome(NO_MOVES, (1 - stuck,), p,
                           f"{NAMES[stuck]} has no legal move and loses")
        return None

    def _unapply(self, move: Hashable) -> None:
        frm, to = move  # type: ignore[misc]
        undo = self._undo.pop()
        self.board[frm], self.board[to] = self.board[to], undo.captured
        self.points = list(undo.points)
        self.made[self.to_move] -= 1  # the history is shorter: to_move is the mover again
        self._outcome = None

    def natural_outcome(self) -> Outcome | None:
        return self._outcome

    def scores(self) -> tuple[int, int]:
        return (self.points[0], self.points[1])

    def key(self) -> Hashable:
        return ("".join(self.board), self.to_move, tuple(self.points), tuple(self.made))

    def parse_move(self, text: str) -> LMove:
        if not text.strip():
            raise MoveError("empty move: give the piece's square and its target, e.g. b4 c3")
        m = _MOVE_RE.fullmatch(text)
        if m is None:
            raise MoveError(f"{excerpt(text.strip())} is not a move: give two squares, "
                            "from and to, e.g. b4 c3")
        return _MOVES[(parse_square(m.group(1)), parse_square(m.group(2)))]

    def move_text(self, move: Hashable) -> str:
        frm, to = move  # type: ignore[misc]
        return f"{square_name(frm)} {square_name(to)}"

    # ----- what a board widget and the panels need -------------------------------------
    def destinations(self, sq: int) -> list[int]:
        """Where the piece on `sq` may go now (none if it is not the mover's or the game
        is over)."""
        if self.is_over or self.board[sq] != MARKS[self.to_move]:
            return []
        return moves_from(self.board, sq)

    def groups(self, player: int) -> list[list[int]]:
        return groups(self.board, MARKS[player])

    def captured_last(self) -> bool:
        """Whether the last move captured a piece."""
        return bool(self._undo) and self._undo[-1].captured != EMPTY

    def panel_lines(self) -> list[str]:
        """The move number out of 50 (the side to move's next; once over, the last made, as
        the moves panel numbers it) and each side's groups (how close it is to connecting)."""
        number = min(MOVE_LIMIT, max(self.made) if self.is_over else self.made[self.to_move] + 1)
        lines = [f"move {number} of {MOVE_LIMIT}"]
        for player in (0, 1):
            sizes = [len(g) for g in self.groups(player)]
            pieces = sum(sizes)
            if not sizes:
                lines.append(f"{MARKS[player]} {NAMES[player]}: no pieces")
            elif len(sizes) == 1:
                lines.append(f"{MARKS[player]} {NAMES[player]}: {pieces} piece"
                             f"{'s' * (pieces != 1)}, connected")
            else:
                lines.append(f"{MARKS[player]} {NAMES[player]}: {len(sizes)} groups "
                             f"({'+'.join(map(str, sizes))})")
        return lines


GAME = Loaps
