"""Pillars (CodeCup 2009), RULES.md section 3, the readable reference.

Cells are numbered 0..99 as row * 10 + column, row 0 being `A` (the top) and
column 0 `a`. A move is a rectangle of empty cells and whether it claims the
joker: `(top, left, bottom, right, claim)`, written `BdCh` or `!BdCh`. Red
always moves first, so the mover is the parity of the history; the native
position (the pillars, then the moves so far) starts from the pillars alone
and replays its moves into the history, so undo reaches the first move.
"""

from __future__ import annotations

import copy as _copy
import random
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.base import Game, MoveError, OptionSpec, PositionError, excerpt
from rules.clock import ClockKind, TimeControl
from rules.match import SumOfPoints
from rules.outcome import Ending, Outcome, Termination

SIZE = 10
CELLS = SIZE * SIZE
ROWS = "ABCDEFGHIJ"
COLS = "abcdefghij"
NAMES = ("red", "blue")
MARKS = ("R", "B")
PILLAR = -2  # `tiles` entries: a pillar, an empty cell, else the history index of the move
EMPTY = -1
WIN_POINTS = 18
LOSE_POINTS = 9
BLUE_FIRST_JOKER = 9  # Blue claiming on its first move
CONTEST_SECONDS = 5.0
START, QUIT = "Start", "Quit"
LAST_CELL = Ending(Termination.RULE, "last cell filled")  # the one ending: its filler loses
DIAGONAL = tuple(range(SIZE))  # the seed's example: Aa Bb .. Jj

PMove = tuple[int, int, int, int, bool]

_MOVE_RE = re.compile(r"(!?)([A-Ja-j])([A-Ja-j])([A-Ja-j])([A-Ja-j])")


def cell_name(cell: int) -> str:
    """0 -> "Aa", 99 -> "Jj"."""
    row, col = divmod(cell, SIZE)
    return ROWS[row] + COLS[col]


def random_pillars(seed: int | None) -> tuple[int, ...]:
    """The pillar's column in each row A..J: a random permutation (seed 1 gives the C
    perft's `seed1`, Ag Bi Cj Dh Ef Fd Ga He Ib Jc)."""
    cols = list(range(SIZE))
    random.Random(seed).shuffle(cols)
    return tuple(cols)


def parse_pillars(lines: Sequence[str]) -> tuple[int, ...]:
    """Ten pillar lines (`Aa`..), one per row and column, as the column of each row."""
    if len(lines) != SIZE:
        raise PositionError(f"expected {SIZE} pillar lines (like 'Bd'), got {len(lines)}")
    return check_pillar_lines(lines)


def check_pillar_lines(lines: Sequence[str]) -> tuple[int, ...]:
    """The first pillar lines (up to ten), checked: PositionError naming the first that
    is no pillar or repeats a row or column; the column of each row (-1: none yet)."""
    cols = [-1] * SIZE
    seen_cols: dict[int, str] = {}
    for i, raw in enumerate(lines, 1):
        text = raw.strip()
        if (len(text) != 2 or text[0] not in ROWS or text[1] not in COLS):
            raise PositionError(f"line {i}: {excerpt(text)} is not a pillar cell: a row A-J "
                                "and a column a-j, like 'Bd'")
        row, col = ROWS.index(text[0]), COLS.index(text[1])
        if cols[row] >= 0:
            raise PositionError(f"line {i}: a second pillar in row {text[0]}: the pillars must "
                                "be in 10 different rows and columns")
        if col in seen_cols:
            raise PositionError(f"line {i}: a second pillar in column {text[1]} (also "
                                f"{seen_cols[col]}): the pillars must be in 10 different rows "
                                "and columns")
        cols[row] = col
        seen_cols[col] = text
    return tuple(cols)


def rectangles(empty_rows: Sequence[int]) -> list[tuple[int, int, int, int]]:
    """Every rectangle of empty cells, by (top, left, bottom, right), given the empty cells
    of each row as a 10-bit mask (bit c = column c)."""
    out = []
    for top in range(SIZE):
        for left in range(SIZE):
            if not empty_rows[top] >> left & 1:
                continue
            for bottom in range(top, SIZE):
                if not empty_rows[bottom] >> left & 1:
                    break
                acc = 0
                for row in range(top, bottom + 1):
                    acc = empty_rows[row] if row == top else acc & empty_rows[row]
                for right in range(left, SIZE):
                    if not acc >> right & 1:
                        break
                    out.append((top, left, bottom, right))
    return sorted(out)


def joker_value(empty_before: int, blue_first: bool) -> int:
    """A claim's value: floor(empty cells before the move / 10), 9 on Blue's first move."""
    return BLUE_FIRST_JOKER if blue_first else empty_before // 10


@dataclass
class Pillars(Game):
    name = "pillars"
    title = "Pillars"
    tagline = "Fill rectangles on 10x10; whoever fills the last cell loses."
    default_marks = MARKS
    seat_names = NAMES
    option_specs = (
        OptionSpec("pillars", "Pillars", str, "random", ("random", "diagonal"),
                   help="10 pillars at random (one per row and column, from the seed) or "
                        "on the diagonal (the seed's example)"),
    )
    random_start = True
    clock = TimeControl(ClockKind.GAME, CONTEST_SECONDS)
    time_controls = (TimeControl(ClockKind.GAME, 300.0), TimeControl(ClockKind.GAME, 60.0),
                     TimeControl(ClockKind.GAME, 900.0))
    match_rule = SumOfPoints(length=2)
    moves_estimate = 12
    has_joker = True
    endings = (LAST_CELL,)
    summary = (
        "Red and blue fill rectangles of empty cells in turn, red first; the 10\n"
        "pillars (one per row and column) are never covered. Whoever fills the\n"
        "last empty cell LOSES. Once a game each side may claim victory with a\n"
        "move (the joker, !): it is worth the empty cells before it / 10, or 9 on\n"
        "blue's first move. The winner scores 18 + its joker, the loser 9 - its\n"
        "joker. Enter anchors a corner, Enter again fills; j arms the joker."
    )

    pillars: tuple[int, ...] = DIAGONAL  # the pillar's column in each row A..J
    tiles: list[int] = field(init=False, repr=False, compare=False)  # per cell: PILLAR,
    # EMPTY or the history index of the move that filled it
    rows: list[int] = field(init=False, repr=False, compare=False)  # empty cells per row
    empty: int = field(init=False, repr=False, compare=False)
    claims: list[int | None] = field(init=False, repr=False, compare=False)  # joker values
    claim_move: list[int | None] = field(init=False, repr=False, compare=False)  # and where
    _empty_before: list[int] = field(init=False, repr=False, compare=False)  # per move

    def __post_init__(self) -> None:
        if self.history:
            raise PositionError("build a Pillars game with new/from_native, then play the moves")
        self.pillars = tuple(self.pillars)
        if sorted(self.pillars) != list(range(SIZE)):
            raise PositionError("the pillars must be in 10 different rows and columns")
        self.tiles = [EMPTY] * CELLS
        for row, col in enumerate(self.pillars):
            self.tiles[row * SIZE + col] = PILLAR
        self.rows = [(1 << SIZE) - 1 & ~(1 << col) for col in self.pillars]
        self.empty = CELLS - SIZE
        self.claims, self.claim_move = [None, None], [None, None]
        self._empty_before = []

    # ----- construction ---------------------------------------------------
    @classmethod
    def new(cls, options: dict[str, Any] | None = None, seed: int | None = None) -> Pillars:
        opts = cls.parse_options(options or {})
        if opts.get("pillars", "random") == "diagonal":
            return cls(pillars=DIAGONAL)
        return cls(pillars=random_pillars(seed))

    @classmethod
    def from_native(cls, text: str) -> Pillars:
        """The pillar lines, an optional `Start`, then the moves so far (each with its `!`)."""
        if len(text) > 8192:
            raise PositionError("too long for a Pillars position (10 pillars and at most 90 "
                                "moves, one per line)")
        lines = [line.strip() for line in text.splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        if len(lines) < SIZE:
            raise PositionError(f"expected {SIZE} pillar lines (like 'Bd') then the moves, "
                                f"got {len(lines)} line{'s' if len(lines) != 1 else ''}")
        game = cls(pillars=parse_pillars(lines[:SIZE]))
        rest = lines[SIZE:]
        first = SIZE + 1
        if rest and rest[0] == START:
            rest, first = rest[1:], first + 1
        for number, text_move in enumerate(rest, first):
            if not text_move:
                raise PositionError(f"line {number} is empty: one move per line")
            try:
                game.play_text(text_move)
            except MoveError as err:
                raise PositionError(f"line {number}: {err}") from None
        return game

    def pillar_lines(self) -> list[str]:
        return [ROWS[row] + COLS[col] for row, col in enumerate(self.pillars)]

    def start_native(self) -> str:
        return "".join(line + "\n" for line in self.pillar_lines())

    def to_native(self) -> str:
        return self.start_native() + "".join(t + "\n" for t in self.history_text())

    @property
    def options(self) -> dict[str, Any]:
        return {}

    def copy(self) -> Pillars:
        twin = _copy.copy(self)
        twin.history, twin.tiles, twin.rows = list(self.history), list(self.tiles), list(self.rows)
        twin.claims, twin.claim_move = list(self.claims), list(self.claim_move)
        twin._empty_before = list(self._empty_before)
        return twin

    # ----- play -----------------------------------------------------------
    @property
    def to_move(self) -> int:
        return len(self.history) % 2

    def moves_left_estimate(self, player: int) -> int:
        """The mover's moves that still need thought: a rectangle takes a few cells, and
        once about 20 are left the endgame is solved at once, so about a fifth of the
        empty cells beyond 20; between 2 and 12."""
        return max(2, min(self.moves_estimate, (self.empty - 20) // 5))

    def moves_left_most(self, player: int) -> int | None:
        """A move fills a cell at least and the players take turns: the mover has at most
        half the empty cells (rounded up) still to fill, the other at most half rounded
        down."""
        return (self.empty + (player == self.to_move)) // 2

    def legal_moves(self) -> list[PMove]:
        """Every rectangle, each followed by its claiming twin while the mover may claim."""
        if self.is_over:
            return []
        can_claim = self.claims[self.to_move] is None
        out: list[PMove] = []
        for t, lc, b, r in rectangles(self.rows):
            out.append((t, lc, b, r, False))
            if can_claim:
                out.append((t, lc, b, r, True))
        return out

    def perft_moves(self, joker: bool = False) -> list[PMove]:
        if joker or self.is_over:
            return self.legal_moves()
        return [(t, lc, b, r, False) for t, lc, b, r in rectangles(self.rows)]

    def greedy_moves(self) -> list[PMove]:
        """The largest rectangles that do not fill the last cell (the last cell itself when
        nothing else is left), never claiming."""
        if self.is_over:
            return []
        rects = rectangles(self.rows)
        safe = [m for m in rects if _area(m) < self.empty] or rects
        best = max(_area(m) for m in safe)
        return [(t, lc, b, r, False) for t, lc, b, r in safe if _area((t, lc, b, r)) == best]

    def rectangles(self) -> list[tuple[int, int, int, int]]:
        """The rectangles that may be filled now (the joker aside)."""
        return [] if self.is_over else rectangles(self.rows)

    def is_legal(self, move: Hashable) -> bool:
        return not self.is_over and _well_formed(move) and self.problem(move) is None  # type: ignore[arg-type]

    def problem(self, move: PMove) -> str | None:
        """Why `move` is not legal here, in one line, or None if it is."""
        t, lc, b, r, claim = move
        if self.is_over:
            return "the game is over"
        if t > b:
            return (f"the top row {ROWS[t]} is below the bottom row {ROWS[b]}: write the top "
                    f"row first ({ROWS[b]}{COLS[lc]}{ROWS[t]}{COLS[r]})")
        if lc > r:
            return (f"the left column {COLS[lc]} is right of the right column {COLS[r]}: write "
                    f"the left column first ({ROWS[t]}{COLS[r]}{ROWS[b]}{COLS[lc]})")
        why = self.rect_problem(t, lc, b, r)
        if why is not None:
            return why
        if claim and self.claims[self.to_move] is not None:
            return f"{NAMES[self.to_move]} has already used the joker"
        return None

    def rect_problem(self, t: int, lc: int, b: int, r: int) -> str | None:
        """Why the rectangle from (t, lc) to (b, r) (in order) cannot be filled, or None."""
        for row in range(t, b + 1):
            for col in range(lc, r + 1):
                tile = self.tiles[row * SIZE + col]
                if tile == PILLAR:
                    return f"{ROWS[row]}{COLS[col]} is a pillar"
                if tile != EMPTY:
                    return (f"{ROWS[row]}{COLS[col]} is already filled (by "
                            f"{NAMES[tile % 2]}'s {self.move_text(self.history[tile])})")
        return None

    def why_illegal(self, move: Hashable) -> str:
        if not _well_formed(move):
            return super().why_illegal(move)
        return f"{self.move_text(move)} is not legal: {self.problem(move)}"  # type: ignore[arg-type]

    def claim_value(self) -> int:
        """What claiming the joker with the next move would be worth."""
        return joker_value(self.empty, len(self.history) == 1)

    def _apply(self, move: Hashable) -> None:
        t, lc, b, r, claim = move  # type: ignore[misc]
        index, mover = len(self.history), self.to_move
        self._empty_before.append(self.empty)
        if claim:
            self.claims[mover] = self.claim_value()
            self.claim_move[mover] = index
        cols = ((1 << (r - lc + 1)) - 1) << lc
        for row in range(t, b + 1):
            self.rows[row] &= ~cols
            for col in range(lc, r + 1):
                self.tiles[row * SIZE + col] = index
        self.empty -= (b - t + 1) * (r - lc + 1)

    def _unapply(self, move: Hashable) -> None:
        t, lc, b, r, claim = move  # type: ignore[misc]
        index = len(self.history)  # the history is already shorter: this move's index
        mover = index % 2
        self.empty = self._empty_before.pop()
        if claim:
            self.claims[mover] = self.claim_move[mover] = None
        cols = ((1 << (r - lc + 1)) - 1) << lc
        for row in range(t, b + 1):
            self.rows[row] |= cols
            for col in range(lc, r + 1):
                self.tiles[row * SIZE + col] = EMPTY

    def joker(self, player: int) -> int:
        """The player's own joker value (0 if it never claimed)."""
        return self.claims[player] or 0

    def natural_outcome(self) -> Outcome | None:
        if self.empty:
            return None
        loser = (len(self.history) - 1) % 2
        winner = 1 - loser
        points = [0, 0]
        points[winner] = WIN_POINTS + self.joker(winner)
        points[loser] = LOSE_POINTS - self.joker(loser)
        return Outcome(LAST_CELL, (winner,), (points[0], points[1]),
                       f"{NAMES[loser]} filled the last cell and loses")

    def forfeit_outcome(self, player: int, ending: Ending, reason: str) -> Outcome:
        """The faulting side scores 0; the other 18 + its joker, or, if it never claimed,
        18 + the empty cells now / 10 (`score_lines` says how)."""
        other = 1 - player
        points = [0, 0]
        points[other] = WIN_POINTS + self._forfeit_bonus(other)
        return Outcome(ending, (other,), (points[0], points[1]), reason, loser=player)

    def _forfeit_bonus(self, winner: int) -> int:
        claimed = self.claims[winner]
        return claimed if claimed is not None else self.empty // 10

    def score_lines(self) -> list[str]:
        """How each side's points were made, winner first, e.g. "blue 18 + 9 (joker) = 27",
        "red 9 - 4 (joker) = 5"; empty while the game goes on."""
        outcome = self.outcome
        if outcome is None or outcome.winner is None:
            return []
        winner = outcome.winner
        loser = 1 - winner
        if outcome.loser is not None:  # a forfeit
            bonus = self._forfeit_bonus(winner)
            how = ("its joker" if self.claims[winner] is not None
                   else f"{self.empty} empty cells / 10, no joker claimed")
            return [f"{NAMES[winner]} 18 + {bonus} ({how}) = {outcome.points[winner]}",
                    f"{NAMES[loser]} 0 ({outcome.label})"]
        out = []
        for player, base, sign in ((winner, WIN_POINTS, "+"), (loser, LOSE_POINTS, "-")):
            j = self.joker(player)
            how = f" (joker {self.move_text(self.history[self.claim_move[player]])})" if (
                self.claim_move[player] is not None) else " (no joker)"
            out.append(f"{NAMES[player]} {base} {sign} {j}{how} = {outcome.points[player]}")
        return out

    def scores(self) -> tuple[int, int]:
        """The points once the game is over; 0 each while it goes on (the panel shows the
        jokers)."""
        outcome = self.outcome
        if outcome is None:
            return (0, 0)
        return (outcome.points[0], outcome.points[1])

    def key(self) -> Hashable:
        return (tuple(self.rows), self.to_move, tuple(c is not None for c in self.claims))

    def parse_move(self, text: str) -> PMove:
        stripped = text.strip()
        if not stripped:
            raise MoveError("empty move: give the top row, left column, bottom row and right "
                            "column, e.g. BdCh (a single cell CcCc); ! first claims the joker")
        m = _MOVE_RE.fullmatch(stripped)
        if m is None:
            raise MoveError(f"{excerpt(stripped)} is not a move: give the top row, left column, "
                            "bottom row and right column, e.g. BdCh or !BdCh")
        # rows and columns are told apart by place (row, column, row, column), so the case
        # the player typed does not matter
        claim, t, lc, b, r = m.groups()
        return (ROWS.index(t.upper()), COLS.index(lc.lower()), ROWS.index(b.upper()),
                COLS.index(r.lower()), bool(claim))

    def move_text(self, move: Hashable) -> str:
        t, lc, b, r, claim = move  # type: ignore[misc]
        return f"{'!' if claim else ''}{ROWS[t]}{COLS[lc]}{ROWS[b]}{COLS[r]}"

    # ----- what a board widget and the panels need -------------------------------------
    def owner(self, cell: int) -> int | None:
        """The player whose tile is on `cell` (None: empty or a pillar)."""
        tile = self.tiles[cell]
        return tile % 2 if tile >= 0 else None

    def is_pillar(self, cell: int) -> bool:
        return self.tiles[cell] == PILLAR

    def regions(self) -> list[int]:
        """The sizes of the independent regions of empty cells (4-connected), largest first:
        a rectangle never spans two of them."""
        seen: set[int] = set()
        sizes = []
        for start in range(CELLS):
            if self.tiles[start] != EMPTY or start in seen:
                continue
            stack, size = [start], 0
            seen.add(start)
            while stack:
                cell = stack.pop()
                size += 1
                row, col = divmod(cell, SIZE)
                for nr, nc in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                    n = nr * SIZE + nc
                    if (0 <= nr < SIZE and 0 <= nc < SIZE and n not in seen
                            and self.tiles[n] == EMPTY):
                        seen.add(n)
                        stack.append(n)
            sizes.append(size)
        return sorted(sizes, reverse=True)

    def panel_lines(self) -> list[str]:
        """The empty cells and regions, then each side's joker: claimed (with which move
        and its value) or what claiming now would be worth."""
        regions = self.regions()
        lines = [f"{self.empty} empty in {len(regions)} region{'s' if len(regions) != 1 else ''}"]
        for player in (0, 1):
            at = self.claim_move[player]
            if at is not None:
                lines.append(f"{NAMES[player]}: joker {self.move_text(self.history[at])} "
                             f"worth {self.claims[player]}")
            elif player == self.to_move and not self.is_over:
                lines.append(f"{NAMES[player]}: joker unused (now {self.claim_value()})")
            else:
                lines.append(f"{NAMES[player]}: joker unused")
        return lines


def _area(rect: Sequence[int]) -> int:
    return (rect[2] - rect[0] + 1) * (rect[3] - rect[1] + 1)


def _well_formed(move: Any) -> bool:
    return (isinstance(move, tuple) and len(move) == 5
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE
                    for v in move[:4]) and isinstance(move[4], bool))


GAME = Pillars
