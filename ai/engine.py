"""The one engine interface: a `rules` position and a budget in, a move and figures out.

Levels are budgets and settings, not separate code. A search is stopped by a
shared flag array that the kernels poll; the Python side sets it at the
deadline (`StopFlag.arm`) or on cancel (`StopFlag.set`).
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from importlib import import_module

import numpy as np

from rules import Game, RulesError

LEVELS = ("easy", "medium", "hard", "max")


@dataclass(frozen=True)
class Budget:
    """What one search may spend: wall-clock seconds, a depth cap, and noise.

    `noise` > 0 makes weaker levels pick at random among moves whose score is
    within `noise` of the best, so easy play varies and makes human mistakes.
    """

    seconds: float
    max_depth: int = 99
    noise: int = 0

    def with_seconds(self, seconds: float | None) -> Budget:
        return self if seconds is None else replace(self, seconds=seconds)


@dataclass
class SearchResult:
    """The chosen move and the figures of the search that chose it."""

    move: Hashable
    move_text: str
    depth: int = 0
    nodes: int = 0
    score: int = 0
    pv: list[str] = field(default_factory=list)
    seconds: float = 0.0
    exact: bool = False  # True when the score is proven (endgame solved)

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> str:
        kind = "exact" if self.exact else f"depth {self.depth}"
        return f"{kind}  score {self.score:+d}  best {self.move_text}  {self.nodes} nodes"


InfoCallback = Callable[[SearchResult], None]


class StopFlag:
    """A one-element int32 array shared with kernels: non-zero means stop now."""

    def __init__(self) -> None:
        self.array = np.zeros(1, dtype=np.int32)
        self._timer: threading.Timer | None = None

    def set(self) -> None:
        self.array[0] = 1

    def clear(self) -> None:
        self.disarm()
        self.array[0] = 0

    @property
    def is_set(self) -> bool:
        return bool(self.array[0])

    def arm(self, seconds: float) -> None:
        """Set the flag after `seconds` (the deadline), from a daemon timer."""
        self.disarm()
        self._timer = threading.Timer(max(0.0, seconds), self.set)
        self._timer.daemon = True
        self._timer.start()

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Engine(ABC):
    """Chooses moves for one game; one instance may be reused for many searches."""

    game_name: str
    levels: dict[str, Budget]

    @abstractmethod
    def search(
        self,
        game: Game,
        budget: Budget,
        stop: StopFlag | None = None,
        on_info: InfoCallback | None = None,
    ) -> SearchResult:
        """Best move for the side to move in `game` (which must not be over)."""

    @abstractmethod
    def warm_up(self) -> None:
        """Compile or load the kernels (slow the first time; call off the UI thread)."""

    @abstractmethod
    def perft(self, game: Game, depth: int) -> list[int]:
        """Leaf counts for depths 1..`depth` through the kernels.

        perft(d) counts the move sequences of exactly d moves from `game`; a
        line that ends the game early contributes nothing to deeper counts.
        """

    @abstractmethod
    def bench_positions(self) -> list[Game]:
        """The fixed positions `arena bench` searches (same every run)."""

    bench_budget: Budget = Budget(seconds=3600.0, max_depth=6)

    def bench_endgames(self) -> tuple[list[Game], float]:
        """Positions the engine must solve exactly within the given seconds (none by default)."""
        return [], 0.0

    def budget(self, level: str, seconds: float | None = None) -> Budget:
        if level not in self.levels:
            raise RulesError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        return self.levels[level].with_seconds(seconds)

    def choose(self, game: Game, level: str = "hard", seconds: float | None = None) -> SearchResult:
        """Search with a level's budget, the deadline enforced through a stop flag."""
        budget = self.budget(level, seconds)
        stop = StopFlag()
        stop.arm(budget.seconds)
        try:
            return self.search(game, budget, stop)
        finally:
            stop.disarm()


_ENGINES: dict[str, tuple[str, str]] = {
    "pahtum": ("ai.pahtum_engine", "PahTumEngine"),
    "pousse": ("ai.pousse_engine", "PousseEngine"),
}
_instances: dict[str, Engine] = {}
_lock = threading.Lock()


def get_engine(game_name: str) -> Engine:
    """The (shared) engine for a game; imports its kernels on first use."""
    with _lock:
        if game_name not in _instances:
            if game_name not in _ENGINES:
                raise RulesError(f"no engine for game {game_name!r}")
            module, cls = _ENGINES[game_name]
            _instances[game_name] = getattr(import_module(module), cls)()
        return _instances[game_name]


class Timer:
    """Wall-clock seconds since creation."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start
