"""A move without compiled kernels: iterative-deepening alpha-beta over the `rules` objects.

The engine's Numba kernels take 10-60 s to compile on a cold cache, longer than a
contest program's clock; `choose` answers within its `seconds` from the call, in
pure Python. Each game's knowledge lives in its own module `ai.<name>.quick`, found
by the game's name:

- `evaluate(game, player) -> float`: the position's worth to `player` (required).
  Heuristics stay well within +-PROVEN; a value from PROVEN up to EVAL_CAP (or as
  low) is the module's own proof (an exact endgame solver), taken as exact.
- `moves(game) -> list` (optional): the candidates to search, best first; a subset
  of `legal_moves()` (prune the hopeless, put the likely best first); an empty list
  means every legal move.
- `forget()` (optional): drop the tables the module keeps for the whole process (an
  endgame solver's), to measure what a fresh process per move would play.

A module's own long work (an endgame solver inside `evaluate`) polls `deadline()`.
The search plays candidates with `Game._apply` (they are legal by construction), undoes
them with `undo()`, keys its table by `key()` and the player to move, and orders moves
by the table's best move, killers and a history count (moves are hashable values).

Two players: negamax. Three or more: paranoid search, the player to move at
the root against a coalition of all the others, each of which minimises the root
player's value. Max-n would model the others better, but it cannot prune, and in
pure Python it would not see past the next move; paranoid keeps alpha-beta's depth
and errs on the safe side.

This module, `ai.regions` and the `ai.<name>.quick` modules import neither numpy nor
numba (nor anything that does): the path must work before any kernel is compiled, and
they load in a few milliseconds beyond `rules`.
"""

from __future__ import annotations

import gc
import random
import threading
import time
from collections.abc import Callable, Hashable
from importlib import import_module
from types import ModuleType
from typing import Any

from rules.base import Game
from rules.outcome import Outcome

WIN = 1_000_000.0  # a terminal win; WIN - PLY_COST * ply prefers the faster one
PLY_COST = 1_000.0
MARGIN_CAP = 999.0  # the final score margin orders wins (and losses) of the same length
EVAL_CAP = 500_000.0  # a game module's evaluation is clamped here, below any terminal value
PROVEN = 400_000.0  # an evaluation this large is the game module's proof, not a guess
MAX_DEPTH = 128
# The deadline comes this early: the work between two clock checks (one node's moves
# and evaluation) must still fit, and on a loaded machine the process may wait for a CPU
# for a scheduler's time slice or two (measured: 20-30 ms at a load of 4-5 on 2 cores).
# Beyond it, the search stops once the widest gap seen between two of its clock checks
# would no longer fit before the deadline: a node that costs more than the margin (a
# huge board's evaluation), or a machine so busy that each check waits for a core.
MARGIN_SECONDS = 0.01
MARGIN_SHARE = 0.06
MARGIN_MOST = 0.3

EXACT, LOWER, UPPER = 0, 1, 2  # transposition-table bounds


_running = threading.local()  # this thread's `choose` under way: its `deadline`


def deadline() -> float:
    """When the `choose` under way in this thread must stop (perf_counter time): a game
    module's own long work, such as an endgame solver inside `evaluate`, polls it."""
    return getattr(_running, "deadline", float("inf"))


class _Timeout(Exception):
    """The deadline passed: the search unwinds (every `play` is undone on the way)."""


def choose(game: Game, seconds: float, rng: random.Random | None = None) -> Hashable:
    """A legal move of `game` (not over; left unchanged), returned within `seconds`."""
    began = time.perf_counter()
    margin = min(MARGIN_MOST, MARGIN_SECONDS + seconds * MARGIN_SHARE)
    stop_at = began + max(0.0, seconds - margin)
    # A full collection in a process with many objects takes tens of milliseconds, more
    # than the margin; the search makes no cycles, so collecting can wait for the caller.
    collecting = gc.isenabled()
    gc.disable()
    outer, _running.deadline = deadline(), stop_at
    try:
        work = game.copy()
        legal = work.legal_moves()
        if not legal:
            raise ValueError("the game is over: there is no move to choose")
        search = Search(work, knowledge(game.name), stop_at, rng or random.Random())
        move = search.run(legal)
    finally:
        _running.deadline = outer
        if collecting:
            gc.enable()
    return move if move in legal else legal[0]


def knowledge(name: str) -> ModuleType:
    """The game's module `ai.<name>.quick` (its evaluation and candidate moves)."""
    return import_module(f"ai.{name}.quick")


class Search:
    """One move's search: iterative deepening, each depth an alpha-beta (negamax) search.

    Values are for the team of the player to move at a node: the root player's team
    (+1) or the others' (-1); with two players that is plain negamax.
    """

    def __init__(self, game: Game, module: ModuleType, deadline: float,
                 rng: random.Random) -> None:
        self.game = game
        self.deadline = deadline
        self.rng = rng
        self.me = game.to_move
        self.evaluate: Callable[[Game, int], float] = module.evaluate
        self.candidates: Callable[[Game], list[Any]] | None = getattr(module, "moves", None)
        self.table: dict[Hashable, tuple[int, float, int, Any, bool]] = {}
        self.killers: dict[int, list[Any]] = {}
        self.history: dict[Any, int] = {}
        self.nodes = 0
        self.checked = time.perf_counter()  # the last clock check
        self.widest = 0.0  # the widest gap seen between two clock checks
        self.depth = 0  # the last depth completed
        self.value = 0.0  # and its value for the root player
        self.cut = False  # a leaf was evaluated, not played out: the depth's value is not exact

    # ----- the driver -----------------------------------------------------------------
    def run(self, legal: list[Any]) -> Any:
        """The best move of the deepest search completed in time, or of an unfinished one
        if a move beat the previous best there (its value is exact); at worst the first
        candidate."""
        root = self._moves(self.game) or legal
        best = root[0]
        for depth in range(1, MAX_DEPTH + 1):
            self.cut = False
            scored: list[tuple[float, float, Any]] = []
            raiser: list[Any] = []  # the moves that raised alpha, in turn: the last is best
            try:
                self._root(depth, root, scored, raiser)
            except _Timeout:
                if raiser and (depth == 1 or raiser[-1] != root[0]):
                    best = raiser[-1]
                break
            # Depth 1's values are exact: the best of them, ties at random. Deeper, only
            # a move that raised alpha has an exact value; the others' are bounds, which
            # may equal the best's and still order the next depth (best first).
            if depth == 1:
                best = max(scored, key=lambda s: (s[0], s[1]))[2]
            else:
                best = raiser[-1]
            self.value = max(s[0] for s in scored if s[2] == best)
            scored.sort(key=lambda s: (s[2] == best, s[0], s[1]), reverse=True)
            root = [s[2] for s in scored]
            self.depth = depth
            if not self.cut or abs(self.value) >= PROVEN:
                break  # the game's end is seen along every line, or a forced result
        return best

    def _root(self, depth: int, root: list[Any], scored: list[tuple[float, float, Any]],
              raiser: list[Any]) -> None:
        """Searches every root move to `depth`, appending (value, tie-break, move) to
        `scored` as each completes, and to `raiser` each move that raised alpha. Depth 1
        uses the full window (exact values, to order the next depth)."""
        game = self.game
        alpha = -float("inf")
        for move in root:
            self._tick()
            same = self._play(move)
            try:
                low = -float("inf") if depth == 1 else alpha
                value = self._child(depth - 1, low, float("inf"), 1, same)
            finally:
                game.undo()
            scored.append((value, self.rng.random(), move))
            if value > alpha:
                alpha = value
                raiser.append(move)

    # ----- the search -------------------------------------------------------------------
    def _child(self, depth: int, alpha: float, beta: float, ply: int, same: bool) -> float:
        """The value, for the parent's team, of the position just reached."""
        if same:
            return self._negamax(depth, alpha, beta, ply)
        return -self._negamax(depth, -beta, -alpha, ply)

    def _negamax(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._tick()
        game = self.game
        outcome = game.outcome
        team = 1.0 if game.to_move == self.me else -1.0
        if outcome is not None:
            return team * self._terminal(outcome, ply)
        if depth <= 0:
            value = self.evaluate(game, self.me)
            if abs(value) < PROVEN:
                self.cut = True
            return team * max(-EVAL_CAP, min(EVAL_CAP, value))
        key = (game.key(), game.to_move)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            e_depth, e_value, e_bound, hint, e_exact = entry
            if e_depth >= depth and (e_bound == EXACT or (e_bound == LOWER and e_value >= beta)
                                     or (e_bound == UPPER and e_value <= alpha)):
                if not e_exact:
                    self.cut = True
                return e_value
        moves = self._ordered(game, ply, hint)
        cut_before, self.cut = self.cut, False
        start_alpha, best, best_move = alpha, -float("inf"), None
        for move in moves:
            same = self._play(move)
            try:
                value = self._child(depth - 1, alpha, beta, ply + 1, same)
            finally:
                game.undo()
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._remember(move, ply, depth)
                        break
        exact = not self.cut
        self.cut = self.cut or cut_before
        bound = LOWER if best >= beta else UPPER if best <= start_alpha else EXACT
        self.table[key] = (depth, best, bound, best_move, exact)
        return best

    def _terminal(self, outcome: Outcome, ply: int) -> float:
        """A finished game's value for the root player: a win or loss, sooner is bigger,
        then the score margin; a draw 0."""
        if not outcome.winners:
            return 0.0
        points = outcome.points
        others = [p for i, p in enumerate(points) if i != self.me]
        margin = points[self.me] - max(others) if others else 0
        margin = max(-MARGIN_CAP, min(MARGIN_CAP, margin))
        if outcome.won(self.me):
            return WIN - PLY_COST * ply + margin
        return -WIN + PLY_COST * ply + margin

    # ----- moves ------------------------------------------------------------------------
    def _moves(self, game: Game) -> list[Any]:
        """The game module's candidates, or every legal move."""
        if self.candidates is not None:
            moves = self.candidates(game)
            if moves:
                return moves
        return game.legal_moves()

    def _ordered(self, game: Game, ply: int, hint: Any) -> list[Any]:
        """The candidates with the table's move first, then this ply's killers (moves
        that refuted a sibling), then the rest by how often they refuted anything."""
        moves = self._moves(game)
        if self.history:
            history = self.history
            moves = sorted(moves, key=lambda m: -history.get(m, 0))
        front = [m for m in self.killers.get(ply, ()) if m != hint and m in moves]
        if hint is not None and hint in moves:
            front.insert(0, hint)
        if front:
            moves = front + [m for m in moves if m not in front]
        return moves

    def _remember(self, move: Any, ply: int, depth: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    def _play(self, move: Any) -> bool:
        """Plays a candidate (legal by construction: `Game.play`'s check would double a
        node's cost); whether the player to move after it is on the mover's team."""
        game = self.game
        mover = game.to_move
        game._apply(move)
        game.history.append(move)
        self.nodes += 1
        return (game.to_move == self.me) == (mover == self.me)

    def _tick(self) -> None:
        now = time.perf_counter()
        gap = now - self.checked
        self.checked = now
        if gap > self.widest:
            self.widest = gap
        if now + self.widest >= self.deadline:
            raise _Timeout
