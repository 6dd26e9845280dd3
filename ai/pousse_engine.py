"""The Pousse engine: iterative deepening over the alpha-beta kernel, with a one-move safety net.

Python runs one kernel call per depth (the transposition table persists across
iterations and searches) so `on_info` sees each finished depth. The game's
configurations so far go to the kernel as a hash path, which is how the
search knows that repeating one of them loses.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass

import numpy as np

from ai import pousse_kernels as pk
from ai.engine import Budget, Engine, InfoCallback, SearchResult, StopFlag
from rules import Game, RulesError
from rules.pousse import SIDES, Pousse

TT_BITS = 20


def move_index(n: int, move: tuple[str, int]) -> int:
    """The kernel's move number for a rules move ("L", 2) -> 1 (side * N + index - 1)."""
    side, index = move
    return SIDES.index(side) * n + index - 1


def index_move(n: int, m: int) -> tuple[str, int]:
    return SIDES[m // n], m % n + 1


@dataclass
class KernelPosition:
    """A rules game loaded into kernel arrays; the path has room for a full search line."""

    n: int
    side: int
    board: np.ndarray
    lc: np.ndarray
    st: np.ndarray
    h: np.uint64
    cnt: int
    path_h: np.ndarray
    path_c: np.ndarray
    t: int  # path index of the current configuration
    winner: int

    @classmethod
    def load(cls, game: Pousse) -> KernelPosition:
        n = game.size
        moves = np.array([move_index(n, m) for m in game.history], dtype=np.int32)
        t = moves.size
        board = np.zeros(n * n, dtype=np.int8)
        lc = np.zeros((3, 2 * n), dtype=np.int16)
        st = np.zeros(3, dtype=np.int32)
        path_h = np.zeros(t + pk.MAX_PLY + 2, dtype=np.uint64)
        path_c = np.zeros(t + pk.MAX_PLY + 2, dtype=np.int32)
        winner = pk.replay(board, n, moves, lc, st, pk.ZOBRIST, path_h, path_c)
        return cls(n, t % 2, board, lc, st, path_h[t], int(path_c[t]), path_h, path_c, t,
                   int(winner))

    def args(self) -> tuple:
        """The leading kernel arguments shared by perft, classify, search and pv."""
        return (self.board, self.n, self.side, self.lc, self.st, pk.ZOBRIST, self.h, self.cnt,
                self.path_h, self.path_c, self.t)


class PousseEngine(Engine):
    """Alpha-beta (PVS, TT, killers, history) with the repetition rule inside the search."""

    game_name = "pousse"
    levels = {
        "easy": Budget(seconds=2.0, max_depth=2, noise=12),
        "medium": Budget(seconds=0.5),
        "hard": Budget(seconds=3.0),
        "max": Budget(seconds=25.0),
    }
    bench_budget = Budget(seconds=3600.0, max_depth=7)

    def __init__(self, tt_bits: int = TT_BITS) -> None:
        size = 1 << tt_bits
        self.tt_key = np.zeros(size, dtype=np.uint64)
        self.tt_move = np.zeros(size, dtype=np.int16)
        self.tt_score = np.zeros(size, dtype=np.int32)
        self.tt_depth = np.zeros(size, dtype=np.int8)
        self.tt_flag = np.zeros(size, dtype=np.int8)
        self.killers = np.full((pk.MAX_PLY, 2), -1, dtype=np.int32)
        self.hist = np.zeros((2, 4 * pk.MAX_N), dtype=np.int64)
        self.moves = np.zeros((pk.MAX_PLY, 4 * pk.MAX_N), dtype=np.int32)
        self.keys = np.zeros((pk.MAX_PLY, 4 * pk.MAX_N), dtype=np.int64)
        self.stats = np.zeros(2, dtype=np.int64)
        self._tt_size = 0  # board size the TT holds entries for (hashes ignore N)
        self._lock = threading.Lock()
        self._rng = random.Random()

    def _tt(self) -> tuple:
        return (self.tt_key, self.tt_move, self.tt_score, self.tt_depth, self.tt_flag,
                self.killers, self.hist, self.moves, self.keys, self.stats)

    def clear(self) -> None:
        """Forget the transposition table (new game, other size)."""
        self.tt_key[:] = 0
        self.tt_depth[:] = 0

    # ----- search ---------------------------------------------------------
    def search(self, game: Game, budget: Budget, stop: StopFlag | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        if not isinstance(game, Pousse):
            raise RulesError(f"the Pousse engine cannot play {game.title}")
        if game.is_over:
            raise RulesError("the game is over: there is no move to search")
        own_stop = stop is None
        if stop is None:
            stop = StopFlag()
            stop.arm(budget.seconds)
        try:
            with self._lock:
                return self._search(game, budget, stop, on_info)
        finally:
            if own_stop:
                stop.disarm()

    def _search(self, game: Pousse, budget: Budget, stop: StopFlag,
                on_info: InfoCallback | None) -> SearchResult:
        start = time.perf_counter()
        pos = KernelPosition.load(game)
        n = pos.n
        if self._tt_size != n:
            self.clear()
            self._tt_size = n
        self.killers[:] = -1
        self.hist[:] = 0
        codes = pk.classify(*pos.args())
        order = np.arange(4 * n, dtype=np.int32)
        scores = np.zeros(4 * n, dtype=np.int64)
        last = np.zeros(4 * n, dtype=np.int64)
        full = budget.noise > 0
        done: SearchResult | None = None
        nodes = 0
        max_depth = min(budget.max_depth, pk.MAX_PLY - 8)
        for depth in range(1, max_depth + 1):
            self.stats[:] = 0
            best_m, score = pk.search_root(*pos.args(), depth, order, scores, full, *self._tt(),
                                           stop.array)
            nodes += int(self.stats[0])
            if self.stats[1]:
                break
            last[:] = scores
            # Next iteration: best first, then by this iteration's scores (stable).
            order = np.array(sorted(order, key=lambda m: (m != best_m, -scores[m])),
                             dtype=np.int32)
            pv = pk.tt_pv(*pos.args(), best_m, depth, self.tt_key, self.tt_move)
            done = SearchResult(
                move=index_move(n, int(best_m)), move_text=game.move_text(index_move(n, best_m)),
                depth=depth, nodes=nodes, score=int(score),
                pv=[game.move_text(index_move(n, int(m))) for m in pv],
                seconds=time.perf_counter() - start, exact=abs(int(score)) > pk.WIN_BOUND)
            if on_info is not None:
                on_info(done)
            elapsed = time.perf_counter() - start
            # A proven result cannot change; a next depth started this late would not finish.
            if done.exact or stop.is_set or elapsed > 0.4 * budget.seconds:
                break
        chosen = self._choose(n, codes, order, last, done, budget)
        if done is None or chosen != done.move:
            m = move_index(n, chosen)
            done = SearchResult(
                move=chosen, move_text=game.move_text(chosen), depth=done.depth if done else 0,
                nodes=nodes, score=int(last[m]) if done else 0,
                pv=[game.move_text(chosen)], exact=bool(codes[m] == 2))
        done.nodes = nodes
        done.seconds = time.perf_counter() - start
        return done

    def _choose(self, n: int, codes: np.ndarray, order: np.ndarray, last: np.ndarray,
                done: SearchResult | None, budget: Budget) -> tuple[str, int]:
        """The search's move, overruled only by the exact one-move safety net."""
        wins = [int(m) for m in order if codes[m] == 2]
        if wins:
            return index_move(n, wins[0])
        safe = [int(m) for m in order if codes[m] == 0]
        pool = safe or [int(m) for m in order if codes[m] == -1] or [int(m) for m in order]
        if done is None:
            return index_move(n, pool[0])
        best = move_index(n, done.move)  # type: ignore[arg-type]
        if budget.noise > 0:
            top = max(int(last[m]) for m in pool)
            near = [m for m in pool if int(last[m]) >= top - budget.noise]
            return index_move(n, self._rng.choice(near))
        if best in pool:
            return done.move  # type: ignore[return-value]
        return index_move(n, max(pool, key=lambda m: int(last[m])))

    # ----- tools ------------------------------------------------------------
    def warm_up(self) -> None:
        game = Pousse.new({"size": 4})
        game.replay(["L1", "T2"])
        self.perft(game, 2)
        self.search(game, Budget(seconds=5.0, max_depth=2))
        self.search(game, Budget(seconds=5.0, max_depth=2, noise=5))

    def perft(self, game: Game, depth: int) -> list[int]:
        if not isinstance(game, Pousse):
            raise RulesError(f"the Pousse engine cannot count {game.title}")
        if game.is_over or depth <= 0:
            return [0] * max(depth, 0)
        pos = KernelPosition.load(game)
        if depth + pos.t + 2 > pos.path_h.size:
            raise RulesError(f"perft depth {depth} is too deep")
        return [int(c) for c in pk.perft(*pos.args(), depth)]

    def bench_positions(self) -> list[Game]:
        """Openings of 12 moves at sizes 5, 6, 8 and 12 from fixed seeds (no game ends)."""
        games: list[Game] = []
        for n in (5, 6, 8, 12):
            rng = random.Random(1998 + n)
            game = Pousse.new({"size": n})
            while len(game.history) < 12:
                moves = [m for m in game.legal_moves() if game.preview(m).outcome is None]
                game.play(rng.choice(moves))
            games.append(game)
        return games
