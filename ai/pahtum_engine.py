"""The Pah-Tum engine: Python-side iterative deepening over the Numba kernels.

Each iteration is one kernel call, so `on_info` sees every completed depth.
As soon as the remaining empty cells fit the budget the search goes straight
to the end of the game (the exact solver), whose score is proven.
"""

from __future__ import annotations

import random
import threading
import time

import numpy as np

from ai import pahtum_kernels as K
from ai.engine import Budget, Engine, InfoCallback, SearchResult, StopFlag
from rules import Game, MoveError
from rules.pahtum import BLOCK, CELLS, O, PahTum, X, cell_name

# Exact solve from this many empties, by budget seconds (measured on random
# positions: 14 empties ~0.05 s mean, 18 ~1 s, 20 ~12 s).
EXACT_EMPTIES = ((8.0, 18), (2.0, 16), (0.3, 14), (0.0, 12))


def exact_empties(seconds: float) -> int:
    """How many empties the budget can solve outright."""
    for limit, empties in EXACT_EMPTIES:
        if seconds >= limit:
            return empties
    return 14


def board_bits(game: PahTum) -> tuple[np.uint64, np.uint64, np.uint64]:
    """(X, O, blocked) bitboards of the current position."""
    xb = ob = bl = 0
    for cell, mark in enumerate(game.board):
        if mark == X:
            xb |= 1 << cell
        elif mark == O:
            ob |= 1 << cell
        elif mark == BLOCK:
            bl |= 1 << cell
    return np.uint64(xb), np.uint64(ob), np.uint64(bl)


class PahTumEngine(Engine):
    """Alpha-beta with a transposition table; exact once the endgame is small enough."""

    game_name = "pahtum"
    levels = {
        "easy": Budget(seconds=0.2, max_depth=1, noise=12),
        # a little noise: with the blocking evaluation a noiseless depth-4 search holds
        # deep searches to 0-0 draws, so medium would play (nearly) like max
        "medium": Budget(seconds=0.3, max_depth=4, noise=2),
        "hard": Budget(seconds=2.0),
        "max": Budget(seconds=8.0),
    }
    bench_budget = Budget(seconds=3600.0, max_depth=8)

    def __init__(self, tt_bits: int = 21) -> None:
        self._lock = threading.Lock()
        self._tt = K.new_tt(tt_bits)
        self._tt_blocks: int | None = None
        self._hist = np.zeros((2, CELLS), np.int64)
        self._killers = np.full((K.MAX_PLY, 2), -1, np.int64)
        self._rng = random.Random()
        self.etab = K.EXPECT  # the evaluation's per-line table (swappable for tuning)

    # ----- search -----------------------------------------------------------
    def search(
        self,
        game: Game,
        budget: Budget,
        stop: StopFlag | None = None,
        on_info: InfoCallback | None = None,
    ) -> SearchResult:
        if not isinstance(game, PahTum):
            raise MoveError(f"the Pah-Tum engine cannot play {type(game).__name__}")
        if game.is_over:
            raise MoveError("the game is over")
        with self._lock:
            return self._search(game, budget, stop or StopFlag(), on_info)

    def _prepare(self, blocks: int) -> None:
        """Reuse the TT between searches on the same board; keys omit the blocked cells."""
        if self._tt_blocks != blocks:
            for arr in self._tt:
                arr.fill(0)
            self._tt_blocks = blocks
        self._hist //= 8  # keep some ordering knowledge, let the new position dominate
        self._killers.fill(-1)

    def _search(self, game: PahTum, budget: Budget, stop: StopFlag,
                on_info: InfoCallback | None) -> SearchResult:
        start = time.perf_counter()
        xb, ob, bl = board_bits(game)
        self._prepare(int(bl))
        empties = game.empty_count()
        deadline = StopFlag()  # our own budget; `stop` stays the caller's
        deadline.arm(budget.seconds)
        stats = np.zeros(2, np.int64)
        scores = np.zeros(CELLS, np.int64)
        moves = game.legal_moves()
        result = SearchResult(moves[0], cell_name(moves[0]))
        nodes = 0
        max_depth = min(budget.max_depth, empties)
        exact_from = exact_empties(budget.seconds) if budget.max_depth >= empties else -1
        depth = 0
        best = -1
        try:
            while depth < max_depth:
                # two quick plies first so a cut-off exact solve still leaves a move
                depth = empties if depth >= 2 and empties <= exact_from else depth + 1
                stats[:] = 0
                move, value = K.search_root(xb, ob, bl, depth, -K.INF, K.INF, best, *self._tt,
                                            self._hist, self._killers, stop.array,
                                            deadline.array, stats, scores, self.etab)
                nodes += int(stats[0])
                if stats[1]:
                    break  # stopped mid-iteration: keep the last completed one
                best = move
                result = self._result(xb, ob, bl, move, value, depth, nodes, start,
                                      depth >= empties)
                if on_info is not None:
                    on_info(result)
                if result.exact:
                    break
                # the next iteration costs several times this one: don't start what cannot end
                if time.perf_counter() - start > budget.seconds * 0.4:
                    break
            if budget.noise > 0 and result.depth > 0:
                stats[:] = 0
                result = self._noisy(xb, ob, bl, result, budget, stop, deadline, stats)
                nodes += int(stats[0])
        finally:
            deadline.disarm()
        result.nodes = nodes
        result.seconds = time.perf_counter() - start
        return result

    def _result(self, xb, ob, bl, move: int, value: int, depth: int, nodes: int,
                start: float, exact: bool) -> SearchResult:
        pv = np.zeros(K.MAX_PLY, np.int64)
        n = K.tt_pv(xb, ob, bl, *self._tt, pv)
        line = [int(c) for c in pv[:n]]
        if not line or line[0] != move:
            line = [move]
        return SearchResult(
            move=move, move_text=cell_name(move), depth=depth, nodes=nodes,
            score=round(value / K.SCALE), pv=[cell_name(c) for c in line],
            seconds=time.perf_counter() - start, exact=exact,
        )

    def _noisy(self, xb, ob, bl, result: SearchResult, budget: Budget, stop: StopFlag,
               deadline: StopFlag, stats: np.ndarray) -> SearchResult:
        """Pick at random among moves within `noise` points of the best (weak levels)."""
        out = np.full(CELLS, -K.INF, np.int64)
        K.score_moves(xb, ob, bl, result.depth, *self._tt, self._hist, self._killers,
                      stop.array, deadline.array, stats, out, self.etab)
        if stats[1]:
            return result
        top = int(out.max())
        near = [c for c in range(CELLS) if out[c] > -K.INF and top - out[c] <= budget.noise
                * K.SCALE]
        move = self._rng.choice(near)
        result.move, result.move_text = move, cell_name(move)
        result.score = round(int(out[move]) / K.SCALE)
        result.pv = [cell_name(move)]
        return result

    # ----- tools ------------------------------------------------------------
    def warm_up(self) -> None:
        game = PahTum.from_native("XO-OXX-\n------+\n---+-O-\nO------\n--++---\n--XXXX-\n+X-OOOO\n")
        self.perft(game, 2)
        engine = PahTumEngine(tt_bits=10)
        engine.search(game, Budget(seconds=5.0, max_depth=2, noise=5))
        small = game.copy()
        while small.empty_count() > 4:
            small.play(small.legal_moves()[0])
        engine.search(small, Budget(seconds=5.0))
        xb, ob, bl = board_bits(game)
        K.score(xb)
        K.legal_moves(xb, ob, bl, np.zeros(CELLS, np.int64))

    def perft(self, game: Game, depth: int) -> list[int]:
        if not isinstance(game, PahTum):
            raise MoveError(f"the Pah-Tum engine cannot count {type(game).__name__}")
        if depth <= 0:
            return []
        xb, ob, bl = board_bits(game)
        return [int(n) for n in K.perft(xb, ob, bl, depth)]

    def bench_endgames(self) -> tuple[list[Game], float]:
        """20 random positions with 14 empties: each must be solved exactly within 1 s."""
        games: list[Game] = []
        for seed in range(20):
            rng = random.Random(seed)
            game = PahTum.new({"blocks": str(rng.randrange(1, 26, 2))}, seed=seed)
            while game.empty_count() > 14:
                game.play(rng.choice(game.legal_moves()))
            games.append(game)
        return games, 1.0

    def bench_positions(self) -> list[Game]:
        games: list[Game] = []
        for seed, blocks, plies in ((1, 5, 0), (2, 9, 8), (3, 13, 12), (4, 7, 16)):
            game = PahTum.new({"blocks": str(blocks)}, seed=seed)
            rng = random.Random(seed)
            for _ in range(plies):
                game.play(rng.choice(game.legal_moves()))
            games.append(game)
        return games
