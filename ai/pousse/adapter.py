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

import numpy as np

from ai.adapter import Adapter, Depth
from ai.engine import Budget
from ai.pousse import kernels as pk
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
    def load(cls, game: Pousse, window: int | None = None) -> KernelPosition:
        """The game's position, its path holding the last `window` configurations
        (PATH_WINDOW by default; the whole game when it is no longer)."""
        n = game.size
        t = len(game.history)
        window = PATH_WINDOW if window is None else window
        if t <= window:
            moves = np.array([move_index(n, m) for m in game.history], dtype=np.int32)
            board = np.zeros(n * n, dtype=np.int8)
            lc = np.zeros((3, 2 * n), dtype=np.int16)
            st = np.zeros(3, dtype=np.int32)
            path_h = np.zeros(t + pk.MAX_PLY + 2, dtype=np.uint64)
            path_c = np.zeros(t + pk.MAX_PLY + 2, dtype=np.int32)
            winner = pk.replay(board, n, moves, lc, st, pk.ZOBRIST, path_h, path_c)
            return cls(n, t % 2, board, lc, st, path_h[t], int(path_c[t]), path_h, path_c, t,
                       int(winner))
        return cls._load_window(game, window)

    @classmethod
    def _load_window(cls, game: Pousse, window: int) -> KernelPosition:
        """The last `window` moves played from the board before them (the rules give
        it, by undoing them on a copy); the winner is the rules' (the whole game's)."""
        n = game.size
        past = game.copy()
        for _ in range(window):
            past.undo()
        board = np.array([CELL_CODES[mark] for mark in past.board], dtype=np.int8)
        lc = np.zeros((3, 2 * n), dtype=np.int16)
        st = np.zeros(3, dtype=np.int32)
        path_h = np.zeros(window + pk.MAX_PLY + 2, dtype=np.uint64)
        path_c = np.zeros(window + pk.MAX_PLY + 2, dtype=np.int32)
        h = pk.init_state(board, n, past.to_move, lc, st, pk.ZOBRIST)
        cnt = int(np.count_nonzero(board))  # the kernels' count: markers on the board
        path_h[0], path_c[0] = h, cnt
        side = past.to_move
        for i, move in enumerate(game.history[-window:], 1):
            h, _, removed = pk.make(board, n, move_index(n, move), side + 1, lc, st,
                                    pk.ZOBRIST, h)
            if removed == 0:  # nothing fell off: one more marker
                cnt += 1
            path_h[i], path_c[i] = h, cnt
            side = 1 - side
        outcome = game.natural_outcome()
        winner = outcome.winner if outcome is not None and outcome.winner is not None else -1
        return cls(n, side, board, lc, st, path_h[window], cnt, path_h, path_c, window,
                   winner)

    def args(self) -> tuple:
        """The leading kernel arguments shared by perft, classify, search and pv."""
        return (self.board, self.n, self.side, self.lc, self.st, pk.ZOBRIST, self.h, self.cnt,
                self.path_h, self.path_c, self.t)


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
        for arr in (self.tt_key, self.tt_move, self.tt_score, self.tt_depth, self.tt_flag):
            arr.fill(0)  # touch the pages now, not in the first search's time
        self._tt_size = 0  # board size the TT holds entries for (hashes ignore N)

    def _tables(self) -> tuple:
        return (self.tt_key, self.tt_move, self.tt_score, self.tt_depth, self.tt_flag,
                self.killers, self.hist, self.moves, self.keys, self.stats)

    # ----- search -------------------------------------------------------------
    def load(self, game: Game) -> Position:
        assert isinstance(game, Pousse)
        kp = KernelPosition.load(game, self.window)
        if self._tt_size != kp.n:
            self.tt_key[:] = 0
            self.tt_depth[:] = 0
            self._tt_size = kp.n
        self.killers[:] = -1
        self.hist[:] = 0
        codes = pk.classify(*kp.args())
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
        return depth + 1 if depth < min(budget.max_depth, pk.MAX_PLY - 8) else None

    def search_depth(self, pos: Position, depth: int, stop: np.ndarray,
                     all_scores: bool) -> Depth:
        self.stats[:] = 0
        best, score = pk.search_root(*pos.kp.args(), depth, pos.order, pos.scores, all_scores,
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
        return abs(score) > pk.WIN_BOUND

    def pv(self, pos: Position, move: int, depth: int) -> list[int]:
        line = pk.tt_pv(*pos.kp.args(), move, depth, self.tt_key, self.tt_move)
        return [int(m) for m in line]

    def to_move(self, pos: Position, code: int) -> tuple[str, int]:
        return index_move(pos.kp.n, code)

    # ----- tools --------------------------------------------------------------
    def perft(self, game: Game, depth: int) -> list[int]:
        assert isinstance(game, Pousse)
        kp = KernelPosition.load(game)
        if depth + kp.t + 2 > kp.path_h.size:
            raise RulesError(f"perft depth {depth} is too deep")
        return [int(c) for c in pk.perft(*kp.args(), depth)]

    def scratch(self) -> PousseAdapter:
        return PousseAdapter(tt_bits=10)

    def warm_up_searches(self) -> list[tuple[Game, Budget]]:
        game = Pousse.new({"size": 4})
        game.replay(["L1", "T2"])
        return [(game, Budget(seconds=5.0, max_depth=2)),
                (game, Budget(seconds=5.0, max_depth=2, noise=5))]

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
