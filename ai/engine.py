"""The one engine driver: a `rules` position and a budget in, a move and figures out.

`Engine` runs every game's search the same way over the game's adapter
(`ai.<name>.ADAPTER`): iterative deepening one kernel call per depth, so
`on_info` sees each finished depth; a deadline it always arms itself, plus the
caller's stop flag linked to it; levels as budgets; noise for weak levels; the
adapter's root safety net. Kernels poll one int32 flag array.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from importlib import import_module
from typing import Any

import numpy as np

from ai.adapter import Adapter, Depth
from rules import Game, MoveError, RulesError, canonical_name
from rules.players import LEVELS

__all__ = [
    "LEVELS", "Budget", "Engine", "InfoCallback", "MoveScores", "SearchResult", "StopFlag",
    "get_engine", "new_engine",
]

# The deadline fires this much early: a loaded machine wakes the timer thread late.
DEADLINE_MARGIN = 0.01
# The least time a search is given: enough for its first depth on a busy machine.
FIRST_DEPTH = 0.02
# Called once, just before the process's first kernel search (`arena bench --startup`
# measures a contest process from its exec to there).
FIRST_SEARCH: list[Callable[[], None]] = []


@dataclass(frozen=True)
class Budget:
    """What one search may spend: wall-clock seconds, a depth cap, and noise.

    `noise` > 0 makes weaker levels pick at random among moves whose score is
    within `noise` of the best (in the unit of `SearchResult.score`), so easy
    play varies and makes human mistakes.
    """

    seconds: float
    max_depth: int = 99
    noise: float = 0

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
    exact: bool = False  # True when the score is proven (the end of the game is seen)

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def verdict(self) -> str:
        """The score in words for the mover: "eval +12", or "proven win" ("loss",
        "draw") once the end is seen (a proven score's number is a distance to the end,
        not an evaluation)."""
        if not self.exact:
            return f"eval {self.score:+d}"
        return "proven " + ("win" if self.score > 0 else "loss" if self.score < 0 else "draw")


InfoCallback = Callable[[SearchResult], None]


@dataclass(frozen=True)
class MoveScores:
    """Every scored root move's exact value at one depth (the unit of
    `SearchResult.score`, the mover's view), and those of them the adapter calls proven
    (the end of the game is seen): what the board's overlay shades."""

    depth: int
    scores: dict[Hashable, float]
    proven: frozenset[Hashable]


class StopFlag:
    """A one-element int32 array shared with kernels: non-zero means stop now.

    Linked child flags are set with it, so a search can poll one array that
    both its own deadline and the caller's flag set.
    """

    def __init__(self) -> None:
        self.array = np.zeros(1, dtype=np.int32)
        self.deadline = 0.0  # seconds after the search began (a search's own flag)
        self._timer: threading.Timer | None = None
        self._children: list[StopFlag] = []
        self._lock = threading.Lock()

    def set(self) -> None:
        with self._lock:
            self.array[0] = 1
            children = list(self._children)
        for child in children:
            child.set()

    def clear(self) -> None:
        self.disarm()
        self.array[0] = 0

    @property
    def is_set(self) -> bool:
        return bool(self.array[0])

    def link(self, child: StopFlag) -> None:
        """Set `child` whenever this flag is set (at once if it already is)."""
        with self._lock:
            self._children.append(child)
            already = bool(self.array[0])
        if already:
            child.set()

    def unlink(self, child: StopFlag) -> None:
        with self._lock:
            if child in self._children:
                self._children.remove(child)

    def arm(self, seconds: float) -> None:
        """Set the flag after `seconds` (the deadline), from a daemon timer."""
        self.disarm()
        # threading.Timer overflows past TIMEOUT_MAX (its thread dies and the flag never sets)
        self._timer = threading.Timer(min(max(0.0, seconds), threading.TIMEOUT_MAX), self.set)
        self._timer.daemon = True
        self._timer.start()

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Engine:
    """Chooses moves for one game over its adapter; reusable for many searches.

    Searches on one instance run one at a time (the adapter's tables are shared);
    the time spent waiting for another search counts against the budget.
    """

    def __init__(self, adapter: Adapter) -> None:
        self.adapter = adapter
        self.game_class = adapter.game_class
        self.game_name: str = adapter.game_class.name
        self.levels: dict[str, Budget] = dict(adapter.levels)
        self.bench_budget: Budget = adapter.bench_budget
        self._lock = threading.Lock()
        self._rng = random.Random()

    # ----- levels -------------------------------------------------------------
    def budget(self, level: str, seconds: float | None = None) -> Budget:
        if level not in self.levels:
            raise RulesError(f"unknown level {level!r}; levels: {', '.join(self.levels)}")
        return self.levels[level].with_seconds(seconds)

    def choose(self, game: Game, level: str = "hard", seconds: float | None = None) -> SearchResult:
        """Search with a level's budget (`seconds` overrides its time)."""
        return self.search(game, self.budget(level, seconds))

    # ----- search -------------------------------------------------------------
    def _check(self, game: Game, doing: str = "play") -> None:
        if not isinstance(game, self.game_class):
            raise RulesError(f"the {self.game_class.title} engine cannot {doing} "
                             f"{getattr(game, 'title', type(game).__name__)}")

    def search(self, game: Game, budget: Budget, stop: StopFlag | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Best move for the player to move; ends within `budget.seconds` (plus the
        kernels' polling latency) whether or not `stop` is given; `stop.set()` ends
        it early. MoveError if the game is over, RulesError if it is another game."""
        start = time.perf_counter()
        self._check(game)
        if game.is_over:
            raise MoveError("the game is over")
        flag = StopFlag()
        flag.deadline = budget.seconds - min(DEADLINE_MARGIN, budget.seconds / 10)
        flag.arm(flag.deadline)
        if stop is not None:
            stop.link(flag)
        try:
            with self._lock:
                return self._search(game, budget, flag, on_info, start, stop)
        finally:
            flag.disarm()
            if stop is not None:
                stop.unlink(flag)

    def _search(self, game: Game, budget: Budget, flag: StopFlag,
                on_info: InfoCallback | None, start: float,
                stop: StopFlag | None = None) -> SearchResult:
        adapter = self.adapter
        pos = adapter.load(game)
        last: Depth | None = None
        result: SearchResult | None = None
        nodes = depth = 0
        while depth == 0 or not flag.is_set:
            if depth == 0:  # the first depth gets FIRST_DEPTH however long loading took
                # (it is a few milliseconds, and a move from no search is any legal
                # move), unless the caller has stopped the search
                if stop is not None and stop.is_set:
                    break
                flag.clear()
                flag.arm(max(FIRST_DEPTH, flag.deadline - (time.perf_counter() - start)))
            nxt = adapter.next_depth(pos, depth, budget)
            if nxt is None:
                break
            while FIRST_SEARCH:
                FIRST_SEARCH.pop()()
            found = adapter.search_depth(pos, nxt, flag.array, False)
            nodes += found.nodes
            if not found.completed:
                # stopped mid-depth: keep the last completed one, unless the stopped depth
                # (which searched the last best first) found a better move
                if found.partial and last is not None and found.move != last.move:
                    last = replace(last, move=found.move, score=found.score)
                    result = self._result(game, pos, replace(found, exact=False), nxt,
                                          nodes, start)
                    if on_info is not None:
                        on_info(result)
                break
            depth, last = nxt, found
            result = self._result(game, pos, found, depth, nodes, start)
            if on_info is not None:
                on_info(result)
            if found.exact or (time.perf_counter() - start
                               > adapter.last_start(pos, depth) * budget.seconds):
                break
        noisy: dict[int, float] | None = None
        if budget.noise > 0 and last is not None and not flag.is_set:
            rescored = adapter.search_depth(pos, depth, flag.array, True)
            nodes += rescored.nodes
            if rescored.completed:
                noisy = rescored.scores
        chosen = self._choose(pos, last, noisy, budget.noise)
        if result is None or last is None or chosen != last.move:
            result = self._other(game, pos, chosen, depth, last, noisy)
        result.nodes = nodes
        result.seconds = time.perf_counter() - start
        return result

    def _choose(self, pos: Any, last: Depth | None, noisy: dict[int, float] | None,
                noise: float) -> int:
        """The search's move, within the adapter's candidates; at random among those
        within `noise` of the best when noise is on."""
        pool = self.adapter.candidates(pos) or self.adapter.root_moves(pos)
        if last is None:
            return pool[0]
        if noisy is not None:
            top = max(noisy[m] for m in pool)
            return self._rng.choice([m for m in pool if top - noisy[m] <= noise])
        if last.move in pool:
            return last.move
        return max(pool, key=lambda m: last.scores.get(m, -np.inf))

    def _text(self, game: Game, pos: Any, code: int) -> str:
        return game.move_text(self.adapter.to_move(pos, code))

    def _result(self, game: Game, pos: Any, found: Depth, depth: int, nodes: int,
                start: float) -> SearchResult:
        line = self.adapter.pv(pos, found.move, depth) or [found.move]
        return SearchResult(
            move=self.adapter.to_move(pos, found.move),
            move_text=self._text(game, pos, found.move), depth=depth, nodes=nodes,
            score=found.score, pv=[self._text(game, pos, m) for m in line],
            seconds=time.perf_counter() - start, exact=found.exact)

    def _other(self, game: Game, pos: Any, chosen: int, depth: int, last: Depth | None,
               noisy: dict[int, float] | None) -> SearchResult:
        """The result for a move other than the search's best (noise, safety net)."""
        scores = noisy if noisy is not None else (last.scores if last else {})
        value = scores.get(chosen)
        return SearchResult(
            move=self.adapter.to_move(pos, chosen), move_text=self._text(game, pos, chosen),
            depth=depth, score=0 if value is None else round(value),
            pv=[self._text(game, pos, chosen)],
            exact=value is not None and self.adapter.proven(pos, depth, value))

    def score_moves(self, game: Game, depth: int) -> dict[Hashable, float]:
        """Exact values at `depth` of the moves the engine may choose among (what noise
        picks from), in the unit of `SearchResult.score`; `depth` is at least 1 (a
        search that finished no depth has no scores)."""
        self._check(game)
        if depth < 1:
            raise ValueError(f"score_moves needs a depth of at least 1, not {depth}")
        if game.is_over:
            raise MoveError("the game is over")
        with self._lock:
            pos = self.adapter.load(game)
            found = self.adapter.search_depth(pos, depth, np.zeros(1, np.int32), True)
            pool = self.adapter.candidates(pos) or self.adapter.root_moves(pos)
            return {self.adapter.to_move(pos, m): found.scores[m] for m in pool}

    def rate_moves(self, game: Game, seconds: float,
                   stop: StopFlag | None = None) -> MoveScores | None:
        """`score_moves` deepened while `seconds` allow (the deepest completed depth), or
        None if not even the first depth finished; `stop.set()` ends it early. The
        clock starts once the engine is free (a search under way finishes first)."""
        self._check(game)
        if game.is_over:
            raise MoveError("the game is over")
        flag = StopFlag()
        if stop is not None:
            stop.link(flag)
        try:
            with self._lock:
                start = time.perf_counter()
                flag.arm(max(FIRST_DEPTH, seconds))
                return self._rate(game, Budget(seconds), flag, start)
        finally:
            flag.disarm()
            if stop is not None:
                stop.unlink(flag)

    def _rate(self, game: Game, budget: Budget, flag: StopFlag, start: float
              ) -> MoveScores | None:
        adapter = self.adapter
        pos = adapter.load(game)
        rated: MoveScores | None = None
        depth = 0
        while not flag.is_set:
            nxt = adapter.next_depth(pos, depth, budget)
            if nxt is None:
                break
            found = adapter.search_depth(pos, nxt, flag.array, True)
            if not found.completed:
                break
            depth = nxt
            codes = [m for m in adapter.root_moves(pos) if m in found.scores]
            scores = {adapter.to_move(pos, m): float(found.scores[m]) for m in codes}
            proven = frozenset(adapter.to_move(pos, m) for m in codes
                               if adapter.proven(pos, depth, found.scores[m]))
            rated = MoveScores(depth, scores, proven)
            if found.exact or (time.perf_counter() - start
                               > adapter.last_start(pos, depth) * budget.seconds):
                break
        return rated

    # ----- tools --------------------------------------------------------------
    def warm_up(self) -> None:
        """Compile or load every kernel (slow the first time; call off the UI thread).

        The searches run on scratch tables so they leave this engine's ordering alone.
        Once they have run in a process they are not run again for the same adapter
        class: its kernels are then compiled or loaded for good (an app opened again,
        a second engine), and one game's searches take about 3 s of CPU.
        """
        kind = type(self.adapter)
        if kind in _warmed:
            return
        scratch = Engine(self.adapter.scratch())
        searches = self.adapter.warm_up_searches()
        for game, budget in searches:
            self.perft(game, 2)
            scratch.search(game, budget)
        # again, now that the kernels are loaded: a first search whose compile outlasted
        # its budget stopped before the paths its deeper depths and noise take (a native
        # build exports only what has been compiled)
        for game, budget in searches:
            scratch.search(game, budget)
        _warmed.add(kind)

    def load(self) -> None:
        """Load kernels compiled already (a native module): a count of one ply loads the
        game's module, and every kernel binds from it at its first call. The searches of
        `warm_up` would only spend time there (up to about 3 s of CPU)."""
        game, _ = self.adapter.warm_up_searches()[0]
        self.perft(game, 1)

    def perft(self, game: Game, depth: int, joker: bool = False) -> list[int]:
        """Leaf counts for depths 1..`depth` through the kernels.

        perft(d) counts the move sequences of exactly d moves from `game`; a line
        that ends the game early contributes nothing to deeper counts. With `joker`
        (a game that has one) the claiming twins count as moves too.
        """
        self._check(game, "count")
        if joker and not type(game).has_joker:
            raise RulesError(f"{type(game).title} has no joker to count")
        if depth <= 0:
            return []
        if game.is_over:
            return [0] * depth
        return self.adapter.perft(game, depth, joker)

    def bench_positions(self) -> list[Game]:
        """The fixed positions `arena bench` searches (the same every run)."""
        return self.adapter.bench_positions()

    def bench_endgames(self) -> tuple[list[Game], float]:
        """Positions the engine must solve exactly within the given seconds (maybe none)."""
        return self.adapter.bench_endgames()


_instances: dict[str, Engine] = {}
_warmed: set[type] = set()  # adapter classes whose warm-up has run in this process
_lock = threading.Lock()


def new_engine(game_name: str, **options: Any) -> Engine:
    """A fresh engine with its own tables (`options` go to the adapter, e.g. tt_bits)."""
    name = canonical_name(game_name)
    return Engine(import_module(f"ai.{name}").ADAPTER(**options))


def get_engine(game_name: str) -> Engine:
    """The shared engine for a game; imports its kernels on first use."""
    name = canonical_name(game_name)
    with _lock:
        if name not in _instances:
            _instances[name] = new_engine(name)
        return _instances[name]
