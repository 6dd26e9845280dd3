"""Pousse's adapter: alpha-beta (PVS, TT, killers, history) with the repetition rule inside.

The game's configurations so far go to the kernels as a hash path, which is how
the search knows that repeating one of them loses. The transposition table
persists across depths and searches (cleared when the board size changes); each
depth searches the root moves in the order of the last depth's scores. A
one-move safety net narrows the candidates: a move that wins at once if there
is one, else moves that neither lose at once nor let the opponent win at once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from types import ModuleType

import numpy as np

from ai.adapter import Adapter, Depth, touch
from ai.engine import Budget
from ai.pousse import bitboard as bb
from ai.pousse import lines as ln
from ai.pousse import search as ps
from ai.pousse.common import MAX_N, MAX_PLY, WIN_BOUND, WORDS
from rules import Game, RulesError
from rules.pousse import SIDES, Pousse

TT_BITS = 20
# The kernels check repetition against the path of configurations since the game's
# start, scanning back over those with the current marker count at every node: on a
# full board that is all of them, so a game of 100,000 moves would cost 50,000
# comparisons a node (and loading it, one such scan per move, 2.5e9). The path holds
# the last PATH_WINDOW configurations instead; older ones are far out of a search's
# reach in practice, and the root moves are still checked against the whole game by
# the rules, so the move played never repeats a configuration.
PATH_WINDOW = 4096
CELL_CODES = {".": 0, "X": 1, "O": 2}  # the rules' marks as the kernels' colours
# classify's codes per root move
WINS, LOSES, ALLOWS_WIN, QUIET = 2, -2, -1, 0


def move_index(n: int, move: tuple[str, int]) -> int:
    """The kernel's move number for a rules move ("L", 2) -> 1 (side * N + index - 1)."""
    side, index = move
    return SIDES.index(side) * n + index - 1


def index_move(n: int, m: int) -> tuple[str, int]:
    return SIDES[m // n], int(m) % n + 1


def engine_of(n: int) -> ModuleType:
    """The kernel engine for an N x N board: bitboards up to 8x8, line masks above."""
    return bb if n <= bb.MAX_BB else ln


@cache
def tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(geometry, Zobrist tables) of the engine for an N x N board."""
    engine = engine_of(n)
    return engine.geometry(n), engine.ZT


@dataclass
class KernelPosition:
    """A rules game loaded into a kernel stack (root in row 0) and its hash path, which
    has room for a full search line after the root."""

    n: int
    side: int
    stack: np.ndarray
    path_h: np.ndarray
    t: int  # path index of the current configuration
    irr: int  # first path index with the current marker count
    winner: int

    @classmethod
    def load(cls, game: Pousse, window: int | None = None) -> KernelPosition:
        """The game's position, its path holding the last `window` configurations
        (PATH_WINDOW by default; the whole game when it is no longer). With a window the
        moves before it are played by the rules (undone on a copy) and the winner is the
        rules' (the whole game's)."""
        n = game.size
        g, zt = tables(n)
        window = PATH_WINDOW if window is None else window
        played = len(game.history)
        t = min(played, window)
        if t == played:
            past = Pousse(size=n)
        else:
            past = game.copy()
            for _ in range(t):
                past.undo()
        stack = np.zeros((MAX_PLY + 2, WORDS), dtype=np.uint64)
        cells = np.array([CELL_CODES[mark] for mark in past.board], dtype=np.int8)
        engine_of(n).load_s(cells, n, past.to_move, g, stack)
        moves = np.array([move_index(n, m) for m in game.history[played - t:]], dtype=np.int32)
        path_h = np.zeros(t + MAX_PLY + 2, dtype=np.uint64)
        path_irr = np.zeros(t + 1, dtype=np.int64)
        winner = int(ps.replay(stack, n, past.to_move, g, zt, moves, path_h, path_irr))
        if t < played:
            outcome = game.natural_outcome()
            winner = outcome.winner if outcome is not None and outcome.winner is not None else -1
        return cls(n, game.to_move, stack, path_h, t, int(path_irr[t]), winner)

    def args(self) -> tuple:
        """The leading kernel arguments shared by classify, search and pv."""
        g, zt = tables(self.n)
        return (self.stack, self.n, self.side, g, zt, self.path_h, self.t, self.irr)

    def perft(self, depth: int) -> list[int]:
        g, zt = tables(self.n)
        return [int(c) for c in engine_of(self.n).perft_s(self.stack, self.n, self.side, g, zt,
                                               self.path_h, self.t, self.irr, depth)]


@dataclass
class Position:
    kp: KernelPosition
    codes: np.ndarray  # classify's one-move verdict per move
    order: np.ndarray  # root moves, best guess first
    scores: np.ndarray  # the last depth's root values


class PousseAdapter(Adapter):
    game_class = Pousse
    levels = {
        "easy": Budget(seconds=2.0, max_depth=2, noise=12),
        "medium": Budget(seconds=0.5),
        "hard": Budget(seconds=3.0),
        "max": Budget(seconds=25.0),
    }
    bench_budget = Budget(seconds=3600.0, max_depth=7)

    def __init__(self, tt_bits: int = TT_BITS, window: int = PATH_WINDOW) -> None:
        self.window = window  # configurations on the kernels' path (PATH_WINDOW)
        size = 1 << tt_bits
        self.tt = np.zeros((size // 2, 4), dtype=np.uint64)  # buckets of two [key, data]
        self.killers = np.full((MAX_PLY, 2), -1, dtype=np.int32)
        self.hist = np.zeros((2, 4 * MAX_N), dtype=np.int64)
        self.moves = np.zeros((MAX_PLY, 4 * MAX_N), dtype=np.int32)
        self.keys = np.zeros((MAX_PLY, 4 * MAX_N), dtype=np.int64)
        self.frames = np.zeros((MAX_PLY + 1, ps.FRAME), dtype=np.int64)
        self.stats = np.zeros(2, dtype=np.int64)
        touch(self.tt)  # its pages now (see TOUCH_TABLES)
        self._tt_size = 0  # board size the TT holds entries for (hashes ignore N)

    def _tables(self) -> tuple:
        return (self.tt, self.killers, self.hist, self.moves, self.keys, self.frames, self.stats)

    # ----- search -------------------------------------------------------------
    def load(self, game: Game) -> Position:
        assert isinstance(game, Pousse)
        kp = KernelPosition.load(game, self.window)
        if self._tt_size != kp.n:
            self.tt[:] = 0
            self._tt_size = kp.n
        self.killers[:] = -1
        self.hist[:] = 0
        codes = ps.classify(*kp.args())
        if kp.t < len(game.history) and not game.is_over:
            # the path is a window: a move repeating an older configuration loses too
            for move in game.legal_moves():
                if game.preview(move).repeats:
                    codes[move_index(kp.n, move)] = LOSES
        return Position(kp, codes, np.arange(4 * kp.n, dtype=np.int32),
                        np.zeros(4 * kp.n, dtype=np.int64))

    def root_moves(self, pos: Position) -> list[int]:
        return [int(m) for m in pos.order]

    def candidates(self, pos: Position) -> list[int]:
        """The one-move safety net (exact: no TT, the real history)."""
        order = self.root_moves(pos)
        for wanted in ((WINS,), (QUIET,), (ALLOWS_WIN,)):
            pool = [m for m in order if pos.codes[m] in wanted]
            if pool:
                return pool
        return order

    def next_depth(self, pos: Position, depth: int, budget: Budget) -> int | None:
        return depth + 1 if depth < min(budget.max_depth, MAX_PLY - 8) else None

    def search_depth(self, pos: Position, depth: int, stop: np.ndarray,
                     all_scores: bool) -> Depth:
        self.stats[:] = 0
        best, score = ps.search_root(*pos.kp.args(), depth, pos.order, pos.scores, all_scores,
                                     *self._tables(), stop)
        nodes = int(self.stats[0])
        if self.stats[1]:
            return Depth(-1, 0, completed=False, nodes=nodes)
        # next depth: best first, then by this depth's scores (stable)
        scores = pos.scores
        pos.order = np.array(sorted(pos.order, key=lambda m: (m != best, -scores[m])),
                             dtype=np.int32)
        return Depth(int(best), int(score), completed=True,
                     exact=self.proven(pos, depth, score), nodes=nodes,
                     scores={int(m): int(scores[m]) for m in pos.order})

    def proven(self, pos: Position, depth: int, score: float) -> bool:
        return abs(score) > WIN_BOUND

    def pv(self, pos: Position, move: int, depth: int) -> list[int]:
        line = ps.tt_pv(*pos.kp.args(), move, depth, self.tt)
        return [int(m) for m in line]

    def to_move(self, pos: Position, code: int) -> tuple[str, int]:
        return index_move(pos.kp.n, code)

    # ----- tools --------------------------------------------------------------
    def perft(self, game: Game, depth: int, joker: bool = False) -> list[int]:
        assert isinstance(game, Pousse)
        kp = KernelPosition.load(game)
        if depth + kp.t + 2 > kp.path_h.size:
            raise RulesError(f"perft depth {depth} is too deep")
        return kp.perft(depth)

    def scratch(self) -> PousseAdapter:
        return PousseAdapter(tt_bits=10)

    def warm_up_searches(self) -> list[tuple[Game, Budget]]:
        searches: list[tuple[Game, Budget]] = []
        for size in (4, bb.MAX_BB + 1):  # each engine's kernels: bitboards, then lines
            game = Pousse.new({"size": size})
            game.replay(["L1", "T2"])
            searches += [(game, Budget(seconds=60.0, max_depth=2)),
                         (game, Budget(seconds=60.0, max_depth=2, noise=5))]
        return searches

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
