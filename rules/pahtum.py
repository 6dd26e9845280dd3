"""Pah-Tum (POTM): RULES.md section 1, the readable reference.

Cells are numbered 0..48 as row*7 + column, row A at the top; a move is a cell
number and is written row letter + column digit (`B7`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from rules.base import Game, MoveError, OptionSpec, PositionError, excerpt
from rules.clock import ClockKind, TimeControl
from rules.match import SumOfMargins
from rules.outcome import Ending, Outcome, Termination

SIZE = 7
CELLS = SIZE * SIZE
ROWS = "ABCDEFG"
EMPTY, BLOCK, X, O = "-", "+", "X", "O"  # noqa: E741
MARKS = (X, O)

# score(n) = 2*score(n-1) + n from score(3) = 3; runs of 1 or 2 score nothing.
RUN_POINTS = (0, 0, 0, 3, 10, 25, 56, 119)

# The seed's sample starting board (B7, C4, E3, E4, G1 blocked).
SAMPLE_BOARD = "-------\n------+\n---+---\n-------\n--++---\n-------\n+------\n"

BLOCK_CHOICES = ("random", *range(1, 26, 2))

BOARD_FULL = Ending(Termination.RULE, "board full")  # the game's one ending: the points decide


def cell_name(cell: int) -> str:
    return f"{ROWS[cell // SIZE]}{cell % SIZE + 1}"


def parse_cell(text: str) -> int:
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in ROWS or t[1] not in "1234567":
        raise MoveError(
            f"{excerpt(text.strip())} is not a square: use a row A-G and a column 1-7, e.g. D4")
    return ROWS.index(t[0]) * SIZE + int(t[1]) - 1


def lines() -> list[list[int]]:
    """The 14 lines that score: 7 rows then 7 columns, as cell lists."""
    rows = [[r * SIZE + c for c in range(SIZE)] for r in range(SIZE)]
    cols = [[r * SIZE + c for r in range(SIZE)] for c in range(SIZE)]
    return rows + cols


LINES = lines()


def scoring_runs(board: list[str] | str, mark: str) -> list[tuple[tuple[int, ...], int]]:
    """Every maximal row/column run of `mark` that scores, with its points."""
    runs: list[tuple[tuple[int, ...], int]] = []
    for line in LINES:
        run: list[int] = []
        for cell in [*line, -1]:
            if cell >= 0 and board[cell] == mark:
                run.append(cell)
                continue
            if len(run) >= 3:
                runs.append((tuple(run), RUN_POINTS[len(run)]))
            run = []
    return runs


def score(board: list[str] | str, mark: str) -> int:
    return sum(points for _, points in scoring_runs(board, mark))


def parse_board(text: str) -> list[str]:
    """The 56-byte native board as a cell list; PositionError says what is wrong."""
    if not text:
        raise PositionError("empty input: expected 7 lines of 7 characters from -+XO")
    if not text.endswith("\n"):
        raise PositionError("the position must end with a newline (56 bytes: 7 lines of 7 + \\n)")
    count = text.count("\n")  # counted before splitting: a huge input makes no list
    if count != SIZE:
        raise PositionError(f"expected 7 lines, got {count}")
    rows = text[:-1].split("\n")
    for i, row in enumerate(rows):
        if len(row) != SIZE:
            raise PositionError(f"line {i + 1} has {len(row)} characters, expected 7")
        bad = sorted(set(row) - set("-+XO"))
        if bad:
            raise PositionError(f"line {i + 1} has {bad[0]!r}; only - + X O are allowed")
    board = list("".join(rows))
    blocks, xs, os_ = board.count(BLOCK), board.count(X), board.count(O)
    if blocks % 2 == 0 or not 1 <= blocks <= 25:
        raise PositionError(f"{blocks} blocked cells: there must be an odd number from 1 to 25")
    if xs not in (os_, os_ + 1):
        raise PositionError(f"{xs} X and {os_} O: X must equal O or be one more")
    return board


def random_board(blocks: int | None, seed: int | None) -> list[str]:
    """A start with `blocks` (odd, 1..25) blocked cells, or a random odd count if None."""
    rng = random.Random(seed)
    if blocks is None:
        blocks = rng.randrange(1, 26, 2)
    if blocks % 2 == 0 or not 1 <= blocks <= 25:
        raise PositionError(
            f"blocked cells must be an odd number from 1 to 25, not {excerpt(blocks)}")
    board = [EMPTY] * CELLS
    for cell in rng.sample(range(CELLS), blocks):
        board[cell] = BLOCK
    return board


@dataclass
class PahTum(Game):
    """A Pah-Tum game; `start` is the 49-cell start board, `board` the current one."""

    name = "pahtum"
    title = "Pah-Tum"
    tagline = "7x7 with blocked cells; runs of 3+ in a line score. A two-game match."
    default_marks = (X, O)
    random_start = True
    clock = TimeControl(ClockKind.MOVE, 10.0)
    time_controls = (TimeControl.none(), TimeControl(ClockKind.MOVE, 10.0),
                     TimeControl(ClockKind.MOVE, 30.0), TimeControl(ClockKind.GAME, 300.0))
    match_rule = SumOfMargins(length=2)
    endings = (BOARD_FULL,)
    moves_estimate = 24
    summary = (
        "X and O take turns putting their letter on an empty square (# is blocked);\n"
        "X moves first. When the board is full, every unbroken row or column run of\n"
        "3 or more of one letter scores: 3 -> 3, 4 -> 10, 5 -> 25, 6 -> 56, 7 -> 119.\n"
        "Higher score wins. A match is two games on the same board, each side\n"
        "moving first once; the larger sum of (own - other's) points wins it."
    )
    option_specs = (
        OptionSpec("board", "Board", str, "random", ("random", "sample"),
                   help="a random board or the seed's sample board"),
        OptionSpec("blocks", "Blocked cells", str, "random", tuple(map(str, BLOCK_CHOICES)),
                   help="how many blocked cells on a random board (odd, 1-25)"),
    )

    start: list[str] = field(default_factory=lambda: [EMPTY] * CELLS)
    board: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.board:
            self.board = list(self.start)

    # ----- construction ---------------------------------------------------
    @classmethod
    def new(cls, options: dict[str, Any] | None = None, seed: int | None = None) -> PahTum:
        opts = options or {}
        if opts.get("board", "random") == "sample":
            return cls.from_native(SAMPLE_BOARD)
        raw = opts.get("blocks", "random")
        if raw == "random":
            blocks = None
        elif isinstance(raw, int) and not isinstance(raw, bool):
            blocks = raw
        elif isinstance(raw, str) and raw.strip().isascii() and raw.strip().isdigit() and len(
                raw.strip()) <= 3:  # int() would fail on thousands of digits
            blocks = int(raw)
        else:
            raise PositionError(
                f"blocks must be 'random' or an odd number, not {excerpt(raw)}")
        return cls(start=random_board(blocks, seed))

    @classmethod
    def from_native(cls, text: str) -> PahTum:
        return cls(start=parse_board(text))

    @staticmethod
    def _native(board: list[str]) -> str:
        return "".join("".join(board[r * SIZE:(r + 1) * SIZE]) + "\n" for r in range(SIZE))

    def to_native(self) -> str:
        return self._native(self.board)

    def start_native(self) -> str:
        return self._native(self.start)

    @property
    def options(self) -> dict[str, Any]:
        return {"blocked": [cell_name(c) for c in range(CELLS) if self.start[c] == BLOCK]}

    # ----- play -----------------------------------------------------------
    @property
    def to_move(self) -> int:
        return (self.board.count(X) + self.board.count(O)) % 2

    def legal_moves(self) -> list[int]:
        if self.ended is not None:
            return []
        return [c for c in range(CELLS) if self.board[c] == EMPTY]

    def is_legal(self, move: Hashable) -> bool:
        return (self.ended is None and isinstance(move, int) and not isinstance(move, bool)
                and 0 <= move < CELLS and self.board[move] == EMPTY)

    def why_illegal(self, move: Hashable) -> str:
        """A blocked or taken cell in words: "D4 is blocked", "D4 is taken by X"."""
        if self.ended is None and isinstance(move, int) and not isinstance(move, bool) \
                and 0 <= move < CELLS:
            mark = self.board[move]
            if mark == BLOCK:
                return f"{cell_name(move)} is blocked: a letter goes on an empty cell"
            if mark != EMPTY:
                return f"{cell_name(move)} is taken by {mark}: a letter goes on an empty cell"
        return super().why_illegal(move)

    def _apply(self, move: Hashable) -> None:
        self.board[move] = MARKS[self.to_move]  # type: ignore[index]

    def _unapply(self, move: Hashable) -> None:
        self.board[move] = EMPTY  # type: ignore[index]

    def natural_outcome(self) -> Outcome | None:
        if EMPTY in self.board:
            return None
        x, o = self.board_points()
        winners = (0,) if x > o else (1,) if o > x else ()
        if not winners:
            reason = f"board full: X and O both score {x}"
        else:
            reason = f"board full: {MARKS[winners[0]]} wins {max(x, o)} to {min(x, o)}"
        return Outcome(BOARD_FULL, winners, (x, o), reason)

    def scores(self) -> tuple[int, int]:
        """The runs' points on the board; after a forfeit, the forfeit's points."""
        if self.ended is not None:
            return self.ended.points  # type: ignore[return-value]
        return self.board_points()

    def board_points(self) -> tuple[int, int]:
        return score(self.board, X), score(self.board, O)

    def forfeit_outcome(self, player: int, ending: Ending, reason: str) -> Outcome:
        """The forfeiting side scores 0; the other its runs on the board as they stand, at
        least 1 (RULES.md is silent: a forfeit always counts as a lost game in the match's
        sum of margins, where points as they stood could even favour the side that
        forfeited, and a board with no run yet made two flags a drawn match)."""
        other = 1 - player
        points = [0, 0]
        points[other] = max(1, self.board_points()[other])
        return Outcome(ending, (other,), (points[0], points[1]), reason, loser=player)

    def runs(self, player: int) -> list[tuple[tuple[int, ...], int]]:
        """The runs that score for `player` now (the breakdown of its score)."""
        return scoring_runs(self.board, MARKS[player])

    def key(self) -> Hashable:
        return "".join(self.board)

    def parse_move(self, text: str) -> int:
        return parse_cell(text)

    def move_text(self, move: Hashable) -> str:
        return cell_name(move)  # type: ignore[arg-type]

    def empty_count(self) -> int:
        return self.board.count(EMPTY)


GAME = PahTum
