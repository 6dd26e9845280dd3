"""LOAPS's adapter: PVS alpha-beta with a transposition table over the bitboard kernels.

The transposition table persists across depths, searches and games: its key holds
everything a position's value depends on (board, side to move, points
difference, plies left before the 50-move draw). Each depth searches the root
moves in the order of the last depth's scores. A one-move safety net narrows the
root to the candidates: a move that wins at once if there is one, else the moves
that neither lose at once nor let the other side win at once (a draw at once
stays a candidate: the search weighs it), and the search looks at those only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from ai.adapter import Adapter, Depth, touch
from ai.engine import Budget
from ai.loaps import kernels as K
from ai.loaps import search as S
from ai.loaps.evaluate import PARAMS
from rules import Game
from rules.loaps import MARKS, MOVE_LIMIT, Loaps

TT_BITS = 21  # 2^20 buckets of two entries: 32 MiB


def bitboards(game: Loaps) -> tuple[int, int]:
    """(player 1's, player 2's) pieces as kernel bitboards."""
    boards = [0, 0]
    for sq, mark in enumerate(game.board):
        if mark in MARKS:
            boards[MARKS.index(mark)] |= 1 << K.kernel_square(sq)
    return boards[0], boards[1]


def plies_left(made: list[int], side: int) -> int:
    """Moves (of either side, `side` first) until both have made MOVE_LIMIT moves."""
    m, n = list(made), 0
    while min(m) < MOVE_LIMIT:
        m[side] += 1
        side = 1 - side
        n += 1
    return n


def kernel_position(game: Loaps) -> tuple[np.ndarray, int, int, int]:
    """(the board kernels' position, side to move, plies left, board hash) of a game."""
    side = game.to_move
    boards = bitboards(game)
    pos = np.zeros(K.PWORDS, dtype=np.uint64)
    K.load(np.uint64(boards[side]), np.uint64(boards[1 - side]), game.points[side],
           game.points[1 - side], pos)
    h = int(S.start_hash(np.uint64(boards[0]), np.uint64(boards[1]), side))
    return pos, side, plies_left(game.made, side), h


def rules_move(code: int) -> tuple[int, int]:
    """A kernel move code as the rules' (from, to)."""
    return K.rules_square(code >> 6), K.rules_square(code & 63)


def move_code(move: tuple[int, int]) -> int:
    return K.kernel_square(move[0]) << 6 | K.kernel_square(move[1])


@dataclass
class Position:
    st: np.ndarray  # the search stack, the root in row 0
    side: int
    left: int
    moves: list[int]  # every legal move code
    codes: dict[int, int]  # classify's verdict per move code
    pool: list[int]  # the candidates, in preference order
    order: np.ndarray  # the candidates, best guess first
    scores: np.ndarray  # the last depth's root values by move code


class LoapsAdapter(Adapter):
    game_class = Loaps
    # Per move; the contest's clock is 60 s for the whole game (the engine's caller caps a
    # move by it). Depth reached at 1 s: 11.8 on average over 12 seeded positions (9.8
    # before late move pruning and log-scaled reductions). The driver starts no depth
    # after 40% of the budget, so a move takes 40-100% of it.
    # The first player wins most games between equals (hard against itself, 20 games from
    # two random moves: red 15, blue 3, 2 draws), and past depth 11 more search buys little:
    # max (5 s, depth 12-14) beat a hard searching 0.5 s (depth 10-11) in only 60.8% of 120
    # games, and at 10 s in 60.0%. Below that every ply counts, so the levels are spaced by
    # depth: medium stops at 4 and hard at 7 (`arena match loaps ai:max ai:hard -n 40
    # --clock none`, 2026-11-28: max against hard at 9 scored 66.9% on seeds 1, 301, 401
    # and 501, at 8 71.9% (61.3-83.8% a seed), at 7 78.1% (76.2-81.2%); hard at 7 beat
    # medium 86.9% on seeds 1 and 101, and medium beat easy 98.8%).
    # Against loaps_bot (a C alpha-beta program) at the contest's 60 s a side, Arena as the
    # contest program (max) scored 215 of 280 match points over seven seeds (76.8%).
    levels = {
        "easy": Budget(seconds=0.1, max_depth=2, noise=150),
        "medium": Budget(seconds=0.1, max_depth=4),
        "hard": Budget(seconds=0.5, max_depth=7),
        "max": Budget(seconds=5.0),
    }
    bench_budget = Budget(seconds=3600.0, max_depth=12)

    def __init__(self, tt_bits: int = TT_BITS, params: np.ndarray | None = None) -> None:
        self.tt = np.zeros(((1 << tt_bits) // 2, 4), dtype=np.uint64)
        self.killers = np.full((S.MAX_PLY, 2), -1, dtype=np.int64)
        self.hist = np.zeros((2, 4096), dtype=np.int64)
        self.moves = np.zeros((S.MAX_PLY, S.MAX_MOVES), dtype=np.int64)
        self.keys = np.zeros((S.MAX_PLY, S.MAX_MOVES), dtype=np.int64)
        self.frames = np.zeros((S.MAX_PLY + 1, S.FRAME), dtype=np.int64)
        self.stats = np.zeros(2, dtype=np.int64)
        self.ev = PARAMS if params is None else params
        touch(self.tt)  # its pages now (see TOUCH_TABLES)

    def _tables(self) -> tuple:
        return (self.tt, self.killers, self.hist, self.moves, self.keys, self.frames,
                self.stats)

    # ----- search -------------------------------------------------------------
    def load(self, game: Game) -> Position:
        assert isinstance(game, Loaps)
        pos, side, left, h = kernel_position(game)
        st = np.zeros((S.MAX_PLY + 2, S.SWORDS), dtype=np.uint64)
        st[0, :K.PWORDS] = pos
        st[0, S.S_H] = np.uint64(h)
        moves = np.zeros(S.MAX_MOVES, dtype=np.int64)
        codes = np.zeros(S.MAX_MOVES, dtype=np.int64)
        n = S.classify(pos, left, moves, codes)
        verdict = {int(moves[i]): int(codes[i]) for i in range(n)}
        pool = self._pool(verdict)
        self.killers[:] = -1
        self.hist //= 8  # keep some ordering knowledge, let the new position dominate
        return Position(st, side, left, list(verdict), verdict, pool,
                        np.array(pool, dtype=np.int64), np.zeros(4096, dtype=np.int64))

    @staticmethod
    def _pool(verdict: dict[int, int]) -> list[int]:
        """The safety net: win at once if possible; else neither lose at once nor let the
        other side win at once; else the least bad."""
        for wanted in ((S.WINS,), (S.QUIET, S.DRAWS), (S.ALLOWS_WIN,)):
            pool = [m for m, code in verdict.items() if code in wanted]
            if pool:
                return pool
        return list(verdict)

    def root_moves(self, pos: Position) -> list[int]:
        first = [int(m) for m in pos.order]
        return first + [m for m in pos.moves if m not in pos.pool]

    def candidates(self, pos: Position) -> list[int]:
        return [int(m) for m in pos.order]

    def next_depth(self, pos: Position, depth: int, budget: Budget) -> int | None:
        if depth >= 1 and len(pos.pool) == 1:
            return None  # one candidate: nothing to choose
        return depth + 1 if depth < min(budget.max_depth, S.MAX_PLY - 8) else None

    def search_depth(self, pos: Position, depth: int, stop: np.ndarray,
                     all_scores: bool) -> Depth:
        self.stats[:] = 0
        best, score = S.search_root(pos.st, pos.side, pos.left, depth, pos.order, pos.scores,
                                    all_scores, *self._tables(), stop, self.ev)
        nodes = int(self.stats[0])
        if self.stats[1]:
            # stopped: the best of the root moves finished (the last depth's best first)
            finished = score > -S.INF
            return Depth(int(best) if finished else -1, int(score) if finished else 0,
                         completed=False, nodes=nodes, partial=finished)
        # next depth: best first, then by this depth's scores (stable)
        scores = pos.scores
        pos.order = np.array(sorted(pos.order, key=lambda m: (m != best, -scores[m])),
                             dtype=np.int64)
        return Depth(int(best), int(score), completed=True,
                     exact=self.proven(pos, depth, score), nodes=nodes,
                     scores={int(m): int(scores[m]) for m in pos.order})

    def proven(self, pos: Position, depth: int, score: float) -> bool:
        return abs(score) > S.WIN_BOUND

    def pv(self, pos: Position, move: int, depth: int) -> list[int]:
        line = S.tt_pv(pos.st, pos.side, pos.left, move, max(1, depth), self.tt)
        return [int(m) for m in line]

    def to_move(self, pos: Position, code: int) -> tuple[int, int]:
        return rules_move(code)

    # ----- tools --------------------------------------------------------------
    def perft(self, game: Game, depth: int, joker: bool = False) -> list[int]:
        assert isinstance(game, Loaps)
        pos, _, left, _ = kernel_position(game)
        return [int(c) for c in K.perft(pos, depth, left)]

    def scratch(self) -> LoapsAdapter:
        return LoapsAdapter(tt_bits=10, params=self.ev)

    def warm_up_searches(self) -> list[tuple[Game, Budget]]:
        game = Loaps.from_native(SAMPLE3)
        return [(game, Budget(seconds=60.0, max_depth=3)),
                (game, Budget(seconds=60.0, max_depth=2, noise=50))]

    def bench_positions(self) -> list[Game]:
        """The start, the seed's second and third sample files, and two seeded openings
        of 12 moves that do not end the game."""
        games: list[Game] = [Loaps(), Loaps.from_native(SAMPLE2), Loaps.from_native(SAMPLE3)]
        for seed in (1, 2):
            game = Loaps()
            game.advance(random.Random(seed), 12)
            games.append(game)
        return games


# the seed's second and third sample input files
SAMPLE2 = ("1 10\n1  4  5.34\n2  5  9.49\n.11....\n2....1.\n2.2.2..\n..1...1\n......2\n"
           "22.....\n.11....\n")
SAMPLE3 = ("2 28\n1 13  8.91\n2  7 40.7\n.1..11.\n2....2.\n.......\n...1.1.\n2.....2\n"
           "......2\n.1..1..\n")
