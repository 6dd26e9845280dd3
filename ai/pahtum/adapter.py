"""Pah-Tum's adapter: alpha-beta with a transposition table, exact once the endgame fits.

As soon as the remaining empty cells fit the budget the search goes straight to
the end of the game (the exact solver), whose score is proven. Move codes are
cell numbers, which are also the `rules` moves. The adapter owns every array
the kernels write (the TT and the search's scratch arrays), allocated once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from ai.adapter import Adapter, Depth, touch
from ai.engine import Budget
from ai.pahtum import kernels as K
from rules import Game
from rules.pahtum import BLOCK, CELLS, O, PahTum, X

# Exact solve from this many empties, by budget seconds. Measured on 20 random
# positions each (random odd block count, random moves; CPU seconds, mean / slowest):
# 16 empties 0.004 / 0.013, 18 0.018 / 0.059, 20 0.076 / 0.17, 21 0.16 / 0.40,
# 22 0.39 / 1.3, 23 0.68 / 2.1, 24 1.7 / 4.9. The slowest solve stays within about
# a third of the budget: a solve cut off by the deadline leaves only a 2-ply move.
EXACT_EMPTIES = ((8.0, 22), (2.0, 21), (0.5, 20), (0.2, 18), (0.0, 16))
BENCH_ENDGAME_EMPTIES = 20


def exact_empties(seconds: float) -> int:
    """How many empties the budget can solve outright."""
    for limit, empties in EXACT_EMPTIES:
        if seconds >= limit:
            return empties
    return EXACT_EMPTIES[-1][1]


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


@dataclass
class Position:
    xb: np.uint64
    ob: np.uint64
    bl: np.uint64
    moves: list[int]  # the empty cells, ascending
    best: int = -1  # the last completed depth's best move: searched first at the next

    @property
    def empties(self) -> int:
        return len(self.moves)


class PahTumAdapter(Adapter):
    game_class = PahTum
    levels = {
        "easy": Budget(seconds=0.2, max_depth=1, noise=12),
        # a little noise: with the blocking evaluation a noiseless depth-4 search holds
        # deep searches to 0-0 draws, so medium would play (nearly) like max
        "medium": Budget(seconds=0.3, max_depth=4, noise=2),
        # Near-perfect play draws Pah-Tum: at 2 s hard drew or beat max (8 s) in half of
        # 40 games, so the levels would not be a ladder. A tenth of a second (exact from 16
        # empties) still wins every match against medium, and max wins 72.5% of the
        # two-game matches against it (seed 11, 2026-11-27).
        "hard": Budget(seconds=0.1),
        "max": Budget(seconds=8.0),
    }
    bench_budget = Budget(seconds=3600.0, max_depth=8)

    def __init__(self, tt_bits: int = 21) -> None:
        self.tt = K.new_tt(tt_bits)
        touch(self.tt)  # its pages now (see TOUCH_TABLES)
        self._tt_blocks: int | None = None
        # the search's scratch arrays, allocated once (kernels allocate nothing)
        self.work = K.new_work()
        self.hist, self.killers, *_, self.stats = self.work
        self.root_scores = np.zeros(CELLS, np.int64)
        self.all_scores = np.zeros(CELLS, np.int64)

    # ----- search -------------------------------------------------------------
    def load(self, game: Game) -> Position:
        assert isinstance(game, PahTum)
        xb, ob, bl = board_bits(game)
        # the TT persists between searches on one board; its keys omit the blocked cells
        if self._tt_blocks != int(bl):
            self.tt.fill(0)
            self._tt_blocks = int(bl)
        self.hist //= 8  # keep some ordering knowledge, let the new position dominate
        self.killers.fill(-1)
        return Position(xb, ob, bl, game.legal_moves())

    def root_moves(self, pos: Position) -> list[int]:
        if pos.best < 0:
            return list(pos.moves)
        return [pos.best, *(c for c in pos.moves if c != pos.best)]

    def next_depth(self, pos: Position, depth: int, budget: Budget) -> int | None:
        empties = pos.empties
        if depth >= min(budget.max_depth, empties):
            return None
        exact_from = exact_empties(budget.seconds) if budget.max_depth >= empties else -1
        # two quick plies first so a cut-off exact solve still leaves a move
        return empties if depth >= 2 and empties <= exact_from else depth + 1

    def search_depth(self, pos: Position, depth: int, stop: np.ndarray,
                     all_scores: bool) -> Depth:
        self.stats[:] = 0
        if all_scores:
            out = self.all_scores
            out.fill(-K.INF)
            K.score_moves(pos.xb, pos.ob, pos.bl, depth, self.tt, *self.work, stop, out)
            move = max(pos.moves, key=lambda c: out[c])
            value = int(out[move])
        else:
            out = self.root_scores
            move, value = K.search_root(pos.xb, pos.ob, pos.bl, depth, -K.INF, K.INF, pos.best,
                                        self.tt, *self.work, stop, out)
        nodes = int(self.stats[0])
        if self.stats[1]:
            return Depth(-1, 0, completed=False, nodes=nodes)
        if not all_scores:
            pos.best = int(move)
        return Depth(int(move), round(value / K.SCALE), completed=True,
                     exact=self.proven(pos, depth, 0), nodes=nodes,
                     scores={c: int(out[c]) / K.SCALE for c in pos.moves})

    def proven(self, pos: Position, depth: int, score: float) -> bool:
        return depth >= pos.empties

    def pv(self, pos: Position, move: int, depth: int) -> list[int]:
        line = np.zeros(K.MAX_PLY, np.int64)
        n = K.tt_pv(pos.xb, pos.ob, pos.bl, self.tt, line)
        cells = [int(c) for c in line[:n]]
        return cells if cells and cells[0] == move else [move]

    def to_move(self, pos: Position, code: int) -> int:
        return int(code)

    # ----- tools --------------------------------------------------------------
    def perft(self, game: Game, depth: int, joker: bool = False) -> list[int]:
        assert isinstance(game, PahTum)
        xb, ob, bl = board_bits(game)
        return [int(n) for n in K.perft(xb, ob, bl, depth)]

    def scratch(self) -> PahTumAdapter:
        return PahTumAdapter(tt_bits=10)

    def warm_up_searches(self) -> list[tuple[Game, Budget]]:
        game = PahTum.from_native("XO-OXX-\n------+\n---+-O-\nO------\n--++---\n--XXXX-\n"
                                  "+X-OOOO\n")
        small = game.copy()
        while small.empty_count() > 4:
            small.play(small.legal_moves()[0])
        return [(game, Budget(seconds=5.0, max_depth=2, noise=5)), (small, Budget(seconds=5.0))]

    def bench_endgames(self) -> tuple[list[Game], float]:
        """20 random positions with 20 empties: each must be solved exactly within 2 s
        (the target is under 2 s on average)."""
        games: list[Game] = []
        for seed in range(20):
            rng = random.Random(seed)
            game = PahTum.new({"blocks": str(rng.randrange(1, 26, 2))}, seed=seed)
            while game.empty_count() > BENCH_ENDGAME_EMPTIES:
                game.play(rng.choice(game.legal_moves()))
            games.append(game)
        return games, 2.0

    def bench_positions(self) -> list[Game]:
        games: list[Game] = []
        for seed, blocks, plies in ((1, 5, 0), (2, 9, 8), (3, 13, 12), (4, 7, 16)):
            game = PahTum.new({"blocks": str(blocks)}, seed=seed)
            rng = random.Random(seed)
            for _ in range(plies):
                game.play(rng.choice(game.legal_moves()))
            games.append(game)
        return games
