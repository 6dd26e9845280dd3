"""What a game's engine package provides: its kernels behind one small interface.

The driver (`ai.engine.Engine`) owns everything every game shares: iterative
deepening, the deadline and stop flag, levels, noise, the principal line and
`on_info`. An adapter only knows its own kernels: it loads a `rules` position
into kernel arrays, searches it to ONE given depth, and converts kernel move
codes (ints) back to `rules` moves.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from rules import Game

if TYPE_CHECKING:
    from ai.engine import Budget


# Whether a new adapter faults its tables' pages in at once (the app's first search must
# not pay for them); a one-move contest process turns it off: its one short search
# touches few of them, and its start-up is on the clock.
TOUCH_TABLES = [True]
# A depth whose search has used this share of the budget is the last one started:
# the next costs several times as much and would not finish.
NEXT_DEPTH_SHARE = 0.4


def touch(table: np.ndarray) -> None:
    """Fault a freshly allocated table's pages in now (see TOUCH_TABLES)."""
    if TOUCH_TABLES[0]:
        table.fill(0)


@dataclass
class Depth:
    """One depth searched at the root.

    `score` is in the unit of `SearchResult.score`; `scores` maps move codes to
    their root values in the same unit (exact for every move when all scores were
    asked for, else exact for the best and bounds for the rest). When `completed`
    is False the search was stopped and nothing but `nodes` may be used, unless
    `partial`: then `move` and `score` are the best of the root moves that depth
    finished, the last depth's best among them (so `move` may be played instead).
    """

    move: int
    score: int
    completed: bool
    exact: bool = False
    nodes: int = 0
    scores: dict[int, float] = field(default_factory=dict)
    partial: bool = False


class Adapter(ABC):
    """One game's kernels; an instance holds the tables that persist between searches.

    The position type is the adapter's own (`Any` to the driver); searching one
    may update it (move ordering for the next depth).
    """

    game_class: ClassVar[type[Game]]
    levels: ClassVar[dict[str, Budget]]
    bench_budget: ClassVar[Budget]
    # Whether `pv` follows a line past its root move; False where the searches keep none
    # (play-outs): the analysis board (`ai.analysis`) then shows each move alone instead
    # of searching the position after it for the rest of its line.
    has_lines: ClassVar[bool] = True

    @abstractmethod
    def load(self, game: Game) -> Any:
        """The position in kernel form, ready for `search_depth` (tables prepared)."""

    @abstractmethod
    def root_moves(self, pos: Any) -> list[int]:
        """Every legal move code at the root, the most promising first."""

    def candidates(self, pos: Any) -> list[int]:
        """The moves the driver may choose among, in preference order (a safety net may
        narrow them); by default every legal move."""
        return self.root_moves(pos)

    @abstractmethod
    def next_depth(self, pos: Any, depth: int, budget: Budget) -> int | None:
        """The depth to search after `depth` (0 at the start), or None to stop deepening."""

    def last_start(self, pos: Any, depth: int) -> float:
        """The share of the budget after which no depth after `depth` starts (an adapter
        whose next depth keeps to a deadline of its own may start it later)."""
        return NEXT_DEPTH_SHARE

    @abstractmethod
    def search_depth(self, pos: Any, depth: int, stop: np.ndarray, all_scores: bool) -> Depth:
        """Search the root to `depth`, polling `stop` (non-zero: stop now).

        With `all_scores` every root move gets its exact value at that depth.
        """

    @abstractmethod
    def proven(self, pos: Any, depth: int, score: float) -> bool:
        """Whether a root value at `depth` is exact (the end of the game is seen)."""

    @abstractmethod
    def pv(self, pos: Any, move: int, depth: int) -> list[int]:
        """The principal line starting with `move`, as move codes."""

    @abstractmethod
    def to_move(self, pos: Any, code: int) -> Hashable:
        """The `rules` move of a kernel move code."""

    @abstractmethod
    def perft(self, game: Game, depth: int, joker: bool = False) -> list[int]:
        """Kernel leaf counts for depths 1..depth from a game that is not over; with
        `joker` (games that have one) each claiming twin counts as a move too."""

    @abstractmethod
    def warm_up_searches(self) -> list[tuple[Game, Budget]]:
        """Small searches that compile every kernel the engine uses (noise included)."""

    @abstractmethod
    def scratch(self) -> Adapter:
        """A fresh instance with small tables (for warm-up searches)."""

    @abstractmethod
    def bench_positions(self) -> list[Game]:
        """The fixed positions `arena bench` searches (the same every run)."""

    def bench_endgames(self) -> tuple[list[Game], float]:
        """Positions to solve exactly, each within the given seconds (none by default)."""
        return [], 0.0
