"""The Boxing Match (POTM, January 1994): RULES.md section 4, the readable reference.

The arena is 16 rows (`A`..`P`, top to bottom) by 32 columns (`1`..`32`); cells
are numbered row * 32 + column from 0. A move is a square box `(row, col, size)`
by its top-left cell, written `C12x5`. Players move in the fixed order of their
marks, starting with `first`, so the mover is `(first + len(history)) % players`.

The native arena (528 bytes) holds no move count and no player list, so a game
read from it takes its players from the marks it shows (A, B, .. by default) and
estimates whose turn it is (see `infer_mover`); the contest program is told its
mark (`rules/codecs/boxing.py`), and a saved game keeps marks and first mover in its
options. For the same reason `key()` is the arena alone: the same 528 bytes are
the same position whichever way they were read.
"""

from __future__ import annotations

import copy as _copy
import math
import random
import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.base import Game, MoveError, OptionSpec, PositionError, excerpt
from rules.clock import ClockKind, TimeControl
from rules.match import PlainWins
from rules.outcome import Ending, Outcome, Termination

HEIGHT, WIDTH = 16, 32
CELLS = HEIGHT * WIDTH
MAX_BOX = 16  # the seed's weapons: 1x1 through 16x16 (the arena's height, too)
NATIVE_BYTES = HEIGHT * (WIDTH + 1)  # 528: 16 lines of 32 characters and a newline
ROWS = "ABCDEFGHIJKLMNOP"
VACANT, UNUSABLE = "-", "o"
MARKS = ("A", "B", "C", "D", "E", "F", "G", "H")
MIN_PLAYERS, MAX_PLAYERS = 2, len(MARKS)
MAX_UNUSABLE = CELLS // 2  # a user-chosen count: at most half the arena
RANDOM_UNUSABLE = (10, 30)  # a random count: about the seed's arenas (15 and 20)
CONTEST_SECONDS = 1.0
# The endings: the last vacant cell filled (its filler wins), or an arena that came full.
LAST_CELL = Ending(Termination.RULE, "last cell filled")
CAME_FULL = Ending(Termination.RULE, "board full")

BoxMove = tuple[int, int, int]  # (row, column, size), 0-based row and column

# The seed's sample arena (15 unusable cells).
SAMPLE_ARENA = (
    "--------------------------------\n"
    "--------------------------------\n"
    "-----o--------------------------\n"
    "--------------------------------\n"
    "--------------------------------\n"
    "--------------------------------\n"
    "--------------------------------\n"
    "----------------o---------------\n"
    "---------------o-o--------------\n"
    "------------------o------------o\n"
    "--oo---------------o------------\n"
    "--oo----------------------------\n"
    "--oo----------------------------\n"
    "--------------------------------\n"
    "--------------------------------\n"
    "------------------------------oo\n"
)

# The seed's sample partial game after its five moves (20 unusable cells), and the
# moves as its notes tell them: A 9x9 lower left, B 8x8 top right, A 5x5 top left,
# B 11x11, A 6x6 near the bottom right. B is to move.
PARTIAL_ARENA = (
    "oAAAAA-----BBBBBBBBBBB--BBBBBBBB\n"
    "-AAAAA-----BBBBBBBBBBB--BBBBBBBB\n"
    "-AAAAA-----BBBBBBBBBBB-oBBBBBBBB\n"
    "-AAAAA-----BBBBBBBBBBB--BBBBBBBB\n"
    "-AAAAAooo--BBBBBBBBBBB--BBBBBBBB\n"
    "--AAAAAAAAABBBBBBBBBBB--BBBBBBBB\n"
    "--AAAAAAAAABBBBBBBBBBBo-BBBBBBBB\n"
    "--AAAAAAAAABBBBBBBBBBB--BBBBBBBB\n"
    "--AAAAAAAAABBBBBBBBBBB----AAAAAA\n"
    "ooAAAAAAAAABBBBBBBBBBB----AAAAAA\n"
    "-oAAAAAAAAABBBBBBBBBBB----AAAAAA\n"
    "--AAAAAAAAA---------------AAAAAA\n"
    "--AAAAAAAAA------------o--AAAAAA\n"
    "--AAAAAAAAA---------------AAAAAA\n"
    "oooo-------------------------ooo\n"
    "-----------------------------ooo\n"
)
PARTIAL_MOVES = ("F3x9", "A25x8", "A2x5", "A12x11", "I27x6")
PARTIAL_START = re.sub(r"[AB]", VACANT, PARTIAL_ARENA)  # the arena before those moves
EMPTY_ARENA = (VACANT * WIDTH + "\n") * HEIGHT

ARENAS = ("random", "sample", "partial", "empty")
UNUSABLE_OFFER = ("random", "0", "5", "10", "15", "20", "30", "40", "60", "100", "128", "256")

_MOVE_RE = re.compile(r"([A-Za-z])([0-9]+)(?:[xX]([0-9]+))?")
# One shared tuple per box: a long history holds references, not copies.
_MOVES = {(r, c, k): (r, c, k) for r in range(HEIGHT) for c in range(WIDTH)
          for k in range(1, MAX_BOX + 1)}
_FULL_ROW = (1 << WIDTH) - 1


def cell_name(row: int, col: int) -> str:
    """(2, 11) -> "C12"."""
    return f"{ROWS[row]}{col + 1}"


def is_mark(char: str) -> bool:
    """A player's mark: printable ASCII but space, other than `-` and `o`."""
    return len(char) == 1 and "!" <= char <= "~" and char not in (VACANT, UNUSABLE)


@dataclass(frozen=True)
class CountSpec(OptionSpec):
    """An option that is `random` or any whole number from `low` to `high`: `choices` are
    only what the setup screen offers (a select of 257 numbers helps no one), while the CLI
    takes any count in range."""

    def parse(self, raw: Any) -> Any:
        text = "" if isinstance(raw, int) and raw.bit_length() > 64 else str(raw).strip().lower()
        if text == "random":
            return text
        if re.fullmatch(r"[0-9]{1,12}", text):
            value = int(text)
            if self.low is not None and self.high is not None and self.low <= value <= self.high:
                return str(value)
        raise PositionError(f"{self.name} must be 'random' or a whole number from {self.low} "
                            f"to {self.high}, not {excerpt(raw)}")


def parse_arena(text: str) -> str:
    """The 528-byte native arena as its 512 cells (row by row, no newlines); PositionError
    says what is wrong in one line."""
    if not isinstance(text, str):
        raise PositionError(f"an arena is text, not {type(text).__name__}")
    if not text:
        raise PositionError("empty input: expected the arena, 16 lines of 32 characters, each "
                            "ended by \\n (528 bytes)")
    if "\r" in text:
        raise PositionError("the arena has \\r characters (Windows line ends?): each of its 16 "
                            "lines must end with \\n alone")
    if not text.endswith("\n"):
        raise PositionError("the arena must end with a newline: 16 lines of 32 characters, "
                            "each ended by \\n (528 bytes)")
    lines = text.count("\n")  # counted before splitting: a huge input makes no list
    if lines != HEIGHT:
        raise PositionError(f"expected 16 lines of 32 characters (528 bytes), got {lines} "
                            f"line{'s' if lines != 1 else ''} ({len(text)} characters)")
    rows = text[:-1].split("\n")
    for number, row in enumerate(rows, 1):
        if len(row) != WIDTH:
            raise PositionError(f"line {number} has {len(row)} characters, expected 32")
        for col, char in enumerate(row, 1):
            if char not in (VACANT, UNUSABLE) and not is_mark(char):
                raise PositionError(
                    f"line {number}, column {col}: {excerpt(char)} is not a cell: - (vacant), "
                    "o (unusable) or a player's mark (printable ASCII, not a space)")
    cells = "".join(rows)
    found = marks_in(cells)
    if len(found) > MAX_PLAYERS:
        raise PositionError(f"the arena has {len(found)} different marks "
                            f"({' '.join(found[:10])}{' ...' if len(found) > 10 else ''}): "
                            f"at most {MAX_PLAYERS} players")
    return cells


def marks_in(cells: str) -> list[str]:
    """The different marks on the arena, in ASCII order."""
    return sorted(set(cells) - {VACANT, UNUSABLE})


def native(cells: Sequence[str] | str) -> str:
    """512 cells as the 528-byte native text."""
    flat = "".join(cells)
    return "".join(flat[r * WIDTH:(r + 1) * WIDTH] + "\n" for r in range(HEIGHT))


def random_arena(count: int | None, seed: int | None) -> str:
    """A vacant arena with `count` unusable cells at random places (a random count about the
    seed's arenas' if None), as 512 cells; the seed decides both."""
    rng = random.Random(seed)
    if count is None:
        count = rng.randint(*RANDOM_UNUSABLE)
    if not 0 <= count <= MAX_UNUSABLE:
        raise PositionError(f"unusable cells must be 0 to {MAX_UNUSABLE}, not {excerpt(count)}")
    cells = [VACANT] * CELLS
    for cell in rng.sample(range(CELLS), count):
        cells[cell] = UNUSABLE
    return "".join(cells)


def marks_for(found: Iterable[str], mover: str | None = None) -> tuple[str, ...]:
    """The players' marks for an arena showing `found` (and the mover's mark, if told): the
    first A, B, .. up to the last default mark in use (at least two), else all of them in
    ASCII order, with default marks added up to two players. The order is the turn order."""
    used = set(found) | ({mover} if mover else set())
    if used <= set(MARKS):
        last = max((MARKS.index(m) for m in used), default=0)
        return MARKS[:max(MIN_PLAYERS, last + 1)]
    extra = [m for m in MARKS if m not in used][:max(0, MIN_PLAYERS - len(used))]
    marks = tuple(sorted(used | set(extra)))
    if len(marks) > MAX_PLAYERS:
        raise PositionError(f"{len(marks)} players' marks ({' '.join(marks)}): at most "
                            f"{MAX_PLAYERS} players")
    return marks


def box_count(cells: Sequence[str] | str, mark: str) -> int:
    """An estimate of the boxes `mark` has played: the fewest that `_scan_boxes` finds on the
    arena and its three mirror images. Exact while a player's boxes stand apart; boxes that
    touch are usually cut right, but boxes that together make a larger square cannot be told
    from it (random play: exact in 400 of 400 positions of up to 40 moves, about 14 in 15
    of crowded ones of up to 150)."""
    best = CELLS
    for flip_rows in (False, True):
        for flip_cols in (False, True):
            rows = range(HEIGHT - 1, -1, -1) if flip_rows else range(HEIGHT)
            cols = range(WIDTH - 1, -1, -1) if flip_cols else range(WIDTH)
            taken = [cells[r * WIDTH + c] == mark for r in rows for c in cols]
            best = min(best, _scan_boxes(taken))
    return best


def _scan_boxes(taken: list[bool]) -> int:
    """Cut the taken cells, row by row, into the largest square whose top-left is the first
    cell not yet cut; the number of squares (`taken` is used up)."""
    boxes = 0
    for start in range(CELLS):
        if not taken[start]:
            continue
        row, col = divmod(start, WIDTH)
        size = 1
        while (row + size < HEIGHT and col + size < WIDTH
               and all(taken[(row + size) * WIDTH + c] for c in range(col, col + size + 1))
               and all(taken[r * WIDTH + col + size] for r in range(row, row + size))):
            size += 1
        for r in range(row, row + size):
            taken[r * WIDTH + col:r * WIDTH + col + size] = [False] * size
        boxes += 1
    return boxes


def infer_mover(cells: Sequence[str] | str, marks: Sequence[str]) -> int:
    """Whose turn it is on an arena read without its history: the marks play in order from
    the first, so the mover is the number of boxes played (`box_count` of each mark) modulo
    the players. The arena cannot say more (a 4x4 of one mark may be 1, 4, 7, 8 .. boxes)."""
    return sum(box_count(cells, m) for m in marks) % len(marks)


@dataclass
class Boxing(Game):
    name = "boxing"
    title = "Boxing"
    tagline = "2-8 players box vacant squares; whoever fills the last cell wins."
    default_marks = MARKS
    player_count = (MIN_PLAYERS, MAX_PLAYERS)
    option_specs = (
        OptionSpec("players", "Players", int, MIN_PLAYERS, low=MIN_PLAYERS, high=MAX_PLAYERS,
                   help="2 to 8 players, moving in turn: A, B, C, .."),
        OptionSpec("arena", "Arena", str, "random", ARENAS,
                   help="random unusable cells (from the seed), the seed's sample arena, its "
                        "sample partial game (two players, B to move) or no unusable cell"),
        CountSpec("unusable", "Unusable cells", str, "random", UNUSABLE_OFFER, low=0,
                  high=MAX_UNUSABLE, help="how many o cells a random arena has (random: 10-30)"),
    )
    random_start = True
    clock = TimeControl(ClockKind.MOVE, CONTEST_SECONDS)
    time_controls = (TimeControl.none(), TimeControl(ClockKind.MOVE, 10.0),
                     TimeControl(ClockKind.MOVE, 30.0), TimeControl(ClockKind.GAME, 300.0))
    match_rule = PlainWins(length=0)  # one game per player, each moving first once (the
    # seed's stage 1 with two)
    moves_estimate = 15
    endings = (LAST_CELL, CAME_FULL)
    summary = (
        "2 to 8 players take turns, A first, on a 16x32 arena: a move marks one\n"
        "square box, 1x1 to 16x16, of vacant (·) cells with the mover's letter;\n"
        "o cells are never usable. A move is its top-left cell and size: C12x5.\n"
        "Whoever fills the last vacant cell wins and scores its marks on the\n"
        "final board; everyone else scores 0. Until then the panel counts marks."
    )

    start: str = VACANT * CELLS  # the 512 cells before `history`
    seat_marks: tuple[str, ...] = MARKS[:MIN_PLAYERS]  # the players' marks, in turn order
    first: int = 0  # the player to move at `start`
    board: list[str] = field(init=False, repr=False, compare=False)
    rows: list[int] = field(init=False, repr=False, compare=False)  # vacant cells per row,
    # bit c = column c
    vacant: int = field(init=False, repr=False, compare=False)
    cells: list[int] = field(init=False, repr=False, compare=False)  # marks per player

    def __post_init__(self) -> None:
        if self.history:
            raise PositionError("build a Boxing game with new/from_native, then play the moves")
        self.seat_marks = tuple(self.seat_marks)
        marks = self.seat_marks
        if not MIN_PLAYERS <= len(marks) <= MAX_PLAYERS:
            raise PositionError(f"{len(marks)} players: Boxing takes {MIN_PLAYERS} to "
                                f"{MAX_PLAYERS}")
        for mark in marks:
            if not is_mark(mark):
                raise PositionError(f"{excerpt(mark)} cannot be a mark: one printable ASCII "
                                    "character, not a space, - or o")
        if len(set(marks)) != len(marks):
            raise PositionError(f"the marks {excerpt(''.join(marks))} repeat one: each player "
                                "needs its own")
        if not 0 <= self.first < len(marks):
            raise PositionError(f"there is no player {self.first + 1} to move first")
        if len(self.start) != CELLS:
            raise PositionError(f"an arena has {CELLS} cells, not {len(self.start)}")
        stray = [m for m in marks_in(self.start) if m not in marks]
        if stray:
            raise PositionError(f"the arena has the mark {excerpt(stray[0])}, which is not a "
                                f"player's ({', '.join(marks)})")
        self.board = list(self.start)
        self.rows = [sum(1 << c for c in range(WIDTH) if self.board[r * WIDTH + c] == VACANT)
                     for r in range(HEIGHT)]
        self.vacant = self.board.count(VACANT)
        self.cells = [self.board.count(m) for m in marks]

    # ----- the declaration, per instance ------------------------------------------
    @property
    def players(self) -> int:
        return len(self.seat_marks)

    @property
    def marks(self) -> tuple[str, ...]:
        return self.seat_marks

    # ----- construction ---------------------------------------------------
    @classmethod
    def new(cls, options: dict[str, Any] | None = None, seed: int | None = None) -> Boxing:
        opts = cls.parse_options(options or {})
        players = opts.get("players", MIN_PLAYERS)
        arena = opts.get("arena", "random")
        marks = MARKS[:players]
        if arena == "partial":
            if players != 2:
                raise PositionError(f"the seed's partial game has two players (A and B), not "
                                    f"{players}")
            game = cls(start=parse_arena(PARTIAL_START), seat_marks=marks)
            game.replay(list(PARTIAL_MOVES))
            return game
        if arena == "sample":
            return cls(start=parse_arena(SAMPLE_ARENA), seat_marks=marks)
        if arena == "empty":
            return cls(start=VACANT * CELLS, seat_marks=marks)
        raw = opts.get("unusable", "random")
        count = None if raw == "random" else int(raw)
        return cls(start=random_arena(count, seed), seat_marks=marks)

    @classmethod
    def from_native(cls, text: str) -> Boxing:
        """The arena; its players are the marks it shows (`marks_for`), and the mover is
        estimated (`infer_mover`)."""
        cells = parse_arena(text)
        marks = marks_for(marks_in(cells))
        return cls(start=cells, seat_marks=marks, first=infer_mover(cells, marks))

    @classmethod
    def from_start(cls, options: dict[str, Any], start: str) -> Boxing:
        """The saved start: the arena, and the marks and first mover from `options`."""
        cells = parse_arena(start)
        if not isinstance(options, dict) or "marks" not in options:
            return cls.from_native(start)
        marks, first = options.get("marks"), options.get("first")
        if not isinstance(marks, str) or not isinstance(first, str) or first not in marks:
            raise PositionError("the options need 'marks' (the players' marks in turn order) "
                                "and 'first' (one of them)")
        game = cls(start=cells, seat_marks=tuple(marks), first=marks.index(first))
        if options.get("players", game.players) != game.players:
            raise PositionError(f"the options say {excerpt(options.get('players'))} players "
                                f"but list {game.players} marks")
        return game

    def start_native(self) -> str:
        return native(self.start)

    def to_native(self) -> str:
        return native(self.board)

    @property
    def options(self) -> dict[str, Any]:
        return {"players": self.players, "marks": "".join(self.seat_marks),
                "first": self.seat_marks[self.first]}

    def copy(self) -> Boxing:
        twin = _copy.copy(self)
        twin.history, twin.board = list(self.history), list(self.board)
        twin.rows, twin.cells = list(self.rows), list(self.cells)
        return twin

    # ----- play -----------------------------------------------------------
    @property
    def to_move(self) -> int:
        return (self.first + len(self.history)) % self.players

    def moves_made(self, player: int) -> int:
        """The moves of `player` in the history (the first mover may be anyone)."""
        n = self.players
        return (len(self.history) + n - 1 - (player - self.first) % n) // n

    def moves_left_estimate(self, player: int) -> int:
        """Boxes shrink as the arena fills: about a box per 8 vacant cells is still to come,
        shared by the players, at least 2."""
        return max(2, min(self.moves_estimate, self.vacant // (8 * self.players)))

    def largest_boxes(self) -> list[int]:
        """Per cell, the size of the largest box of vacant cells with that top-left (0 where
        the cell is not vacant): every legal move is a cell and a size up to this."""
        sizes = [0] * (CELLS + WIDTH + 1)  # a row of zeros below and a zero right of each row
        for row in range(HEIGHT - 1, -1, -1):
            bits = self.rows[row]
            base = row * WIDTH
            for col in range(WIDTH - 1, -1, -1):
                if bits >> col & 1:
                    i = base + col
                    right = sizes[i + 1] if col + 1 < WIDTH else 0
                    sizes[i] = 1 + min(right, sizes[i + WIDTH], sizes[i + WIDTH + 1]
                                       if col + 1 < WIDTH else 0)
        return sizes[:CELLS]

    def legal_moves(self) -> list[BoxMove]:
        """Every box of vacant cells, by top-left cell (row by row), then size."""
        if self.is_over:
            return []
        out: list[BoxMove] = []
        for i, largest in enumerate(self.largest_boxes()):
            if largest:
                row, col = divmod(i, WIDTH)
                out.extend(_MOVES[(row, col, k)] for k in range(1, largest + 1))
        return out

    def largest_box(self) -> int:
        """The side of the largest box that still fits (0 once the arena is full)."""
        return max(self.largest_boxes(), default=0)

    def greedy_moves(self) -> list[BoxMove]:
        """Fill the rest at once if it is one box; else the largest boxes that do not leave
        the next player one box to win with (all the largest when every move does)."""
        moves = self.legal_moves()
        if not moves:
            return []
        safe = []
        for move in moves:
            left = self.vacant - move[2] * move[2]
            if left == 0:
                return [move]
            if not self._rest_is_one_box(move, left):
                safe.append(move)
        pool = safe or moves
        best = max(k for _, _, k in pool)
        return [m for m in pool if m[2] == best]

    def _rest_is_one_box(self, move: BoxMove, left: int) -> bool:
        """Whether the `left` vacant cells outside `move` form one square box."""
        side = math.isqrt(left)
        if side * side != left:
            return False
        r, c, k = move
        mask = ((1 << k) - 1) << c
        rows = [bits & ~mask if r <= row < r + k else bits for row, bits in enumerate(self.rows)]
        used = [row for row, bits in enumerate(rows) if bits]
        if len(used) != side or used[-1] - used[0] + 1 != side:
            return False
        bits = rows[used[0]]  # the same run of `side` columns in each of those rows
        return all(rows[row] == bits for row in used) and bits.bit_count() == side and (
            bits + (bits & -bits)) & bits == 0

    def is_legal(self, move: Hashable) -> bool:
        if self.is_over or not _well_formed(move):
            return False
        r, c, k = move  # type: ignore[misc]
        if r + k > HEIGHT or c + k > WIDTH:
            return False
        mask = ((1 << k) - 1) << c
        return all(self.rows[row] & mask == mask for row in range(r, r + k))

    def problem(self, move: BoxMove) -> str | None:
        """Why `move` is not legal here, in one line, or None if it is."""
        if self.is_over:
            return "the game is over"
        r, c, k = move
        below, past = r + k - HEIGHT, c + k - WIDTH
        if below > 0 or past > 0:  # short: the board has about 40 columns to say it
            where = []
            if below > 0:
                where.append(f"{below} row{'s' if below > 1 else ''}")
            if past > 0:
                where.append(f"{past} column{'s' if past > 1 else ''}")
            return f"off the arena by {' and '.join(where)}"
        bad = [(row, col) for row in range(r, r + k) for col in range(c, c + k)
               if self.board[row * WIDTH + col] != VACANT]
        if not bad:
            return None
        row, col = bad[0]
        char = self.board[row * WIDTH + col]
        what = "unusable (o)" if char == UNUSABLE else f"marked {char}"
        more = len(bad) - 1
        tail = f", {more} more used" if more else ""
        return f"{cell_name(row, col)} is {what}{tail}"

    def why_illegal(self, move: Hashable) -> str:
        if not _well_formed(move):
            return f"{excerpt(move)} is not a Boxing move: (row 0-15, column 0-31, size 1-16)"
        return f"{self.move_text(move)} is not legal: {self.problem(move)}"  # type: ignore[arg-type]

    def _apply(self, move: Hashable) -> None:
        self._mark(move, self.seat_marks[self.to_move], -1)

    def _unapply(self, move: Hashable) -> None:
        self._mark(move, VACANT, 1)  # the history is already shorter: to_move is the mover

    def _mark(self, move: Hashable, char: str, sign: int) -> None:
        """Fill the box with `char`; `sign` -1 marks it, +1 makes it vacant again."""
        r, c, k = move  # type: ignore[misc]
        mask = ((1 << k) - 1) << c
        for row in range(r, r + k):
            self.rows[row] = self.rows[row] | mask if sign > 0 else self.rows[row] & ~mask
            base = row * WIDTH
            self.board[base + c:base + c + k] = [char] * k
        self.vacant += sign * k * k
        self.cells[self.to_move] -= sign * k * k

    def last_mover(self) -> int | None:
        """The player who made the last move of the history (None before any)."""
        return (self.to_move - 1) % self.players if self.history else None

    def natural_outcome(self) -> Outcome | None:
        """Over once no cell is vacant: the last mover wins and scores its marks. An arena
        that came full has no known last mover: no one wins, no one scores."""
        if self.vacant:
            return None
        n = self.players
        winner = self.last_mover()
        if winner is None:
            return Outcome(CAME_FULL, (), (0,) * n,
                           "the arena came with no vacant cell: no move to make, no winner")
        points = tuple(self.cells[p] if p == winner else 0 for p in range(n))
        count = self.cells[winner]
        return Outcome(LAST_CELL, (winner,), points,
                       f"{self.seat_marks[winner]} filled the last vacant cell and wins with "
                       f"{count} mark{'s' if count != 1 else ''}")

    def forfeit_outcome(self, player: int, ending: Ending, reason: str) -> Outcome:
        """Every other player wins and scores its marks on the board as it stands (as if it
        had filled the last cell); the faulting player scores 0."""
        winners = tuple(p for p in range(self.players) if p != player)
        points = tuple(0 if p == player else self.cells[p] for p in range(self.players))
        return Outcome(ending, winners, points, reason, loser=player)

    def scores(self) -> tuple[int, ...]:
        """The points once the game is over; until then each player's marks on the board
        (what it would score by filling the last cell)."""
        outcome = self.outcome
        return outcome.points if outcome is not None else tuple(self.cells)

    def scores_unit(self) -> str:
        """Marks while the game goes on (only the winner scores, at the end), then points."""
        return self.score_unit if self.outcome is not None else "marks"

    def score_lines(self) -> list[str]:
        """How the points were made, winners first, e.g. "A 302 (its marks)", "B 0"; empty
        while the game goes on."""
        outcome = self.outcome
        if outcome is None:
            return []
        out = [f"{self.seat_marks[p]} {outcome.points[p]} (its marks)" for p in outcome.winners]
        for p in range(self.players):
            if p not in outcome.winners:
                why = outcome.label if p == outcome.loser else "did not fill the last cell"
                out.append(f"{self.seat_marks[p]} 0 ({why})")
        return out

    def key(self) -> Hashable:
        """The arena: all a Boxing position holds in its native form (see the module)."""
        return "".join(self.board)

    def parse_move(self, text: str) -> BoxMove:
        stripped = text.strip()
        if not stripped:
            raise MoveError("empty move: give the box's top-left cell and its size, e.g. C12x5 "
                            "(rows A-P, columns 1-32, sizes 1-16)")
        m = _MOVE_RE.fullmatch(stripped)
        if m is None:
            raise MoveError(f"{excerpt(stripped)} is not a move: give the top-left cell and the "
                            "size, e.g. C12x5")
        letter, col_text, size_text = m.groups()
        row = ROWS.find(letter.upper())
        if row < 0:
            raise MoveError(f"row {letter.upper()} is off the arena: rows run A to P")
        col = _small(col_text)
        if not 1 <= col <= WIDTH:
            raise MoveError(f"column {excerpt(col_text)} is off the arena: columns run 1 to 32")
        if size_text is None:
            name = cell_name(row, col - 1)
            raise MoveError(f"{name} has no size: add x and the size, e.g. {name}x1 for that "
                            "one cell")
        size = _small(size_text)
        if not 1 <= size <= MAX_BOX:
            raise MoveError(f"size {excerpt(size_text)} is not a box size: 1 to 16 (1x1 up to "
                            "16x16)")
        return _MOVES[(row, col - 1, size)]

    def move_text(self, move: Hashable) -> str:
        r, c, k = move  # type: ignore[misc]
        return f"{cell_name(r, c)}x{k}"

    # ----- what a board widget and the panels need -------------------------------------
    def owner(self, cell: int) -> int | None:
        """The player whose mark is on `cell` (None: vacant or unusable)."""
        char = self.board[cell]
        return self.seat_marks.index(char) if char not in (VACANT, UNUSABLE) else None

    def is_unusable(self, cell: int) -> bool:
        return self.board[cell] == UNUSABLE

    def regions(self) -> list[int]:
        """The sizes of the regions of vacant cells (4-connected), largest first: a box
        never spans two of them."""
        seen = [False] * CELLS
        sizes = []
        for start in range(CELLS):
            if seen[start] or self.board[start] != VACANT:
                continue
            stack, size = [start], 0
            seen[start] = True
            while stack:
                cell = stack.pop()
                size += 1
                row, col = divmod(cell, WIDTH)
                for nr, nc in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                    n = nr * WIDTH + nc
                    if (0 <= nr < HEIGHT and 0 <= nc < WIDTH and not seen[n]
                            and self.board[n] == VACANT):
                        seen[n] = True
                        stack.append(n)
            sizes.append(size)
        return sorted(sizes, reverse=True)

    def panel_lines(self) -> list[str]:
        """The vacant cells and their regions, the largest box left, and a warning when one
        box takes the rest (the mover wins with it)."""
        if not self.vacant:
            return ["no vacant cell left"]
        regions = len(self.regions())
        largest = self.largest_box()
        lines = [f"{self.vacant} vacant in {regions} region{'s' if regions != 1 else ''}",
                 f"largest box {largest}x{largest}"]
        if largest * largest == self.vacant and not self.is_over:
            lines.append(f"{self.seat_name(self.to_move)} can fill the rest in one box")
        return lines


def _small(digits: str) -> int:
    """ASCII digits as a number; past three significant digits 1000, out of any range here
    (int() would fail on thousands of digits)."""
    significant = digits.lstrip("0") or "0"
    return int(significant) if len(significant) <= 3 else 1000


def _well_formed(move: Any) -> bool:
    return (isinstance(move, tuple) and len(move) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) for v in move)
            and 0 <= move[0] < HEIGHT and 0 <= move[1] < WIDTH and 1 <= move[2] <= MAX_BOX)


GAME = Boxing
