"""Pillars's adapter: Monte Carlo play-outs at the root, the exact solver once it fits.

Depth 1 shares a few play-outs per move among the root's moves by UCB1; depth 2
solves the position exactly when its empty cells fit the budget (the root's moves
in the order of their play-out scores, so a win is found early); every further
depth doubles the play-outs. A proven win is played at once; in a proven loss the
move with the best play-out score is played (it is the one a fallible opponent
most often gets wrong). With every score asked for (noise, `score_moves`) each move
gets the same number of play-outs from its own seeded stream, so the scores of a
depth do not depend on the search before it.

The joker: claimed with a proven win, or earlier when the play-outs say the claim
gains points on average: with the chance p of winning and the claim worth v now
against LATER if it waits for a proof, claiming gains p * (v - LATER) - (1 - p) * v.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from ai.adapter import Adapter, Depth, touch
from ai.engine import Budget
from ai.pillars import kernels as K
from ai.pillars import solver as S
from rules import Game
from rules.pillars import Pillars

TT_BITS = 22  # 4 Mi entries of 8 bytes: 32 MiB
PROVEN = 1000  # the score of a proven win; play-out scores are 1000 * p - 500
PER_MOVE = 2  # depth 1's play-outs per root move
EXPLORE = 0.5  # UCB1's exploration constant
LATER = 2  # what a claim is worth when it waits for a proof (about 25 empty cells)
MIN_VISITS = 64  # play-outs of the chosen move before its estimate may claim
# Exact solve from this many empty cells, by budget seconds. Measured on random
# positions with many regions (a fresh table): 25 empties 0.01-0.07 s, 30 0.3-0.9 s,
# 35 1.4-2.2 s; the table kept between moves makes later solves much cheaper.
EXACT_EMPTIES = ((3.0, 33), (1.0, 31), (0.4, 29), (0.15, 26), (0.0, 22))


def exact_empties(seconds: float) -> int:
    for limit, empties in EXACT_EMPTIES:
        if seconds >= limit:
            return empties
    return EXACT_EMPTIES[-1][1]


@dataclass
class Position:
    game: Pillars
    codes: np.ndarray  # the root's rectangles worth trying (none fills the last cell
    # while another move is left)
    c0: np.ndarray  # the position after each of them
    c1: np.ndarray
    visits: np.ndarray  # UCB1's play-outs and our wins per root move
    wins: np.ndarray
    can_claim: bool
    value: int  # what claiming now is worth
    budget: Budget = field(default_factory=lambda: Budget(1.0))
    win_now: int = -1  # a rectangle that leaves one cell (the other must fill it)
    verdict: int = S.UNKNOWN  # the exact value of the root, once solved
    best: int = -1  # index of the move the last depth chose
    claim: bool = False  # whether the chosen move claims the joker
    seed: int = 0

    @property
    def n(self) -> int:
        return len(self.codes)


class PillarsAdapter(Adapter):
    game_class = Pillars
    # Per move; the contest's clock is 5 s for the whole game and a game lasts about
    # 10 moves a side (the caller caps a move by the clock).
    levels = {
        "easy": Budget(seconds=0.1, max_depth=2, noise=100),
        "medium": Budget(seconds=0.2, max_depth=6),
        "hard": Budget(seconds=0.4),
        "max": Budget(seconds=3.0),
    }
    bench_budget = Budget(seconds=3600.0, max_depth=6)

    def __init__(self, tt_bits: int = TT_BITS) -> None:
        self.tables = S.new_tables(tt_bits)
        touch(self.tables[0])  # its pages now (see TOUCH_TABLES)
        self.scratch_codes = np.zeros(K.MAX_RECTS, np.int64)
        self.rng = random.Random(1)

    # ----- search -------------------------------------------------------------
    def load(self, game: Game) -> Position:
        assert isinstance(game, Pillars)
        w0, w1 = K.words(game.rows)
        n = K.rect_codes(w0, w1, self.scratch_codes)
        all_codes = self.scratch_codes[:n].copy()
        c0, c1 = np.zeros(n, np.uint64), np.zeros(n, np.uint64)
        left = np.zeros(n, np.int64)
        K.children(w0, w1, all_codes, c0, c1, left)
        keep = left > 0
        if not keep.any():
            keep[:] = True  # only the last rectangle is left: it must be filled
        win_now = int(np.flatnonzero(left[keep] == 1)[0]) if (left[keep] == 1).any() else -1
        can_claim = game.claims[game.to_move] is None
        pos = Position(game, all_codes[keep], c0[keep], c1[keep],
                       np.zeros(int(keep.sum()), np.int64), np.zeros(int(keep.sum()), np.float64),
                       can_claim, game.claim_value(), win_now=win_now,
                       seed=hash(tuple(game.rows)) & 0xFFFFFFFF)
        if win_now >= 0:
            pos.verdict, pos.best = S.WIN, win_now
        return pos

    def _code(self, pos: Position, i: int) -> int:
        return int(pos.codes[i]) | (K.CLAIM if pos.claim else 0)

    def root_moves(self, pos: Position) -> list[int]:
        order = list(range(pos.n))
        if pos.best >= 0:
            order.remove(pos.best)
            order.insert(0, pos.best)
        return [self._code(pos, i) for i in order]

    def next_depth(self, pos: Position, depth: int, budget: Budget) -> int | None:
        pos.budget = budget
        if depth >= 1 and (pos.verdict != S.UNKNOWN or pos.n == 1):
            return None
        return depth + 1 if depth < min(budget.max_depth, 40) else None

    def _solvable(self, pos: Position) -> bool:
        return pos.game.empty <= exact_empties(pos.budget.seconds)

    def search_depth(self, pos: Position, depth: int, stop: np.ndarray,
                     all_scores: bool) -> Depth:
        if pos.win_now >= 0:  # leave one cell: a proven win, which claims
            pos.claim = pos.can_claim
            scores = None
            if all_scores:
                scores, _ = self._fixed_scores(pos, depth, stop)
                if scores is None:
                    return Depth(-1, 0, completed=False, nodes=0)
            return self._done(pos, pos.win_now, PROVEN, depth, 1, all_scores, scores)
        if pos.n == 1:  # nothing to choose (the last cell, or one rectangle left)
            left = int(pos.c0[0]).bit_count() + int(pos.c1[0]).bit_count()
            return self._done(pos, 0, -PROVEN if left == 0 else 0, depth, 1, all_scores)
        if depth == 2 and self._solvable(pos):
            return self._solve(pos, stop, all_scores)
        if all_scores:
            scores, p = self._fixed_scores(pos, depth, stop)
            if scores is None:
                return Depth(-1, 0, completed=False, nodes=0)
            best = int(np.argmax(scores))
            pos.claim = self._claims(pos, p[best], MIN_VISITS)
            return self._done(pos, best, int(scores[best]), depth, pos.n, True, scores)
        count = PER_MOVE * pos.n << max(0, depth - 1)
        if depth > 1:
            count -= PER_MOVE * pos.n << max(0, depth - 2)  # the earlier depths' are kept
        done = K.ucb_playouts(pos.c0, pos.c1, pos.n, pos.visits, pos.wins, count,
                              np.uint64(self.rng.getrandbits(63)), EXPLORE, stop)
        if done < count:
            return Depth(-1, 0, completed=False, nodes=done)
        visits = np.maximum(pos.visits, 1)
        best = int(np.argmax(pos.visits * 1e6 + pos.wins / visits))  # the most played
        p = pos.wins[best] / visits[best]
        pos.claim = self._claims(pos, p, int(pos.visits[best]))
        scores = np.round(1000 * pos.wins / visits) - 500
        return self._done(pos, best, int(scores[best]), depth, done, False, scores)

    def _fixed_scores(self, pos: Position, depth: int,
                      stop: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
        """Every move's score from the same number of play-outs each, seeded by the
        position and the depth (a move leaving one cell: a proven win); and the chances."""
        each = PER_MOVE << max(0, depth - 1)
        wins = np.zeros(pos.n, np.float64)
        if not K.fixed_playouts(pos.c0, pos.c1, pos.n, each, np.uint64(pos.seed + depth),
                                wins, stop):
            return None, wins
        p = wins / each
        scores = np.round(1000 * p) - 500
        left = np.array([int(a).bit_count() + int(b).bit_count()
                         for a, b in zip(pos.c0, pos.c1, strict=True)])
        scores[left == 1] = PROVEN
        return scores, p

    def _claims(self, pos: Position, p: float, visits: int) -> bool:
        """Whether to claim now, given the chosen move's chance p of winning."""
        if not pos.can_claim or visits < MIN_VISITS or pos.value <= LATER:
            return False
        return p * (pos.value - LATER) > (1 - p) * pos.value

    def _solve(self, pos: Position, stop: np.ndarray, all_scores: bool) -> Depth:
        """Depth 2 when the position fits: every root move's exact value (all_scores), or
        until a win is found, the best play-out scores first."""
        tt, c0, c1, keys, nn, ii, scratch, stats = self.tables
        stats[:] = 0
        order = np.argsort(-(pos.wins / np.maximum(pos.visits, 1)), kind="stable")
        scores = np.full(pos.n, -PROVEN, np.float64)
        win = -1
        for i in order:
            value = S.solve(pos.c0[i], pos.c1[i], tt, c0, c1, keys, nn, ii, scratch, stop, stats)
            if value == S.UNKNOWN:
                return Depth(-1, 0, completed=False, nodes=int(stats[0]))
            if value == S.LOSS:  # the other side loses: we win
                scores[i] = PROVEN
                if win < 0:
                    win = int(i)
                if not all_scores:
                    break
        nodes = int(stats[0])
        if win >= 0:
            pos.verdict = S.WIN
            pos.claim = pos.can_claim
            return self._done(pos, win, PROVEN, 2, nodes, all_scores, scores)
        pos.verdict = S.LOSS
        pos.claim = False
        # lost against perfect play: the move the play-outs like best
        best = int(order[0])
        return self._done(pos, best, -PROVEN, 2, nodes, all_scores, scores)

    def _done(self, pos: Position, best: int, score: int, depth: int, nodes: int,
              all_scores: bool, scores: np.ndarray | None = None) -> Depth:
        if not all_scores:
            pos.best = best
        values = {}
        if scores is not None:
            values = {self._code(pos, i): float(scores[i]) for i in range(pos.n)}
        values[self._code(pos, best)] = float(score)
        return Depth(self._code(pos, best), score, completed=True,
                     exact=abs(score) >= PROVEN, nodes=max(nodes, 1), scores=values)

    def proven(self, pos: Position, depth: int, score: float) -> bool:
        return abs(score) >= PROVEN

    def pv(self, pos: Position, move: int, depth: int) -> list[int]:
        return [move]

    def to_move(self, pos: Position, code: int) -> tuple[int, int, int, int, bool]:
        return K.decode(code)

    # ----- tools --------------------------------------------------------------
    def perft(self, game: Game, depth: int, joker: bool = False) -> list[int]:
        assert isinstance(game, Pillars)
        w0, w1 = K.words(game.rows)
        claimed = sum(1 << p for p in (0, 1) if game.claims[p] is not None)
        counts = K.perft(w0, w1, game.to_move, claimed, depth, joker)
        return [int(c) for c in counts[:depth]]

    def scratch(self) -> PillarsAdapter:
        return PillarsAdapter(tt_bits=12)

    def warm_up_searches(self) -> list[tuple[Game, Budget]]:
        game = Pillars.from_native(EXAMPLE)
        small = game.copy()
        rng = random.Random(1)
        while small.empty > 14:
            moves = [m for m in small.legal_moves() if not m[4]]
            small.play(rng.choice(moves))
        return [(game, Budget(seconds=60.0, max_depth=2)),
                (game, Budget(seconds=60.0, max_depth=1, noise=50)),
                (small, Budget(seconds=60.0, max_depth=3))]

    def bench_positions(self) -> list[Game]:
        """The seed's example game, and three seeded random starts after 0, 4 and 8
        random moves."""
        games: list[Game] = [Pillars.from_native(EXAMPLE)]
        for seed, plies in ((1, 0), (2, 4), (3, 8)):
            game = Pillars.new(seed=seed)
            rng = random.Random(seed)
            for _ in range(plies):
                game.play(rng.choice([m for m in game.legal_moves() if not m[4]]))
            games.append(game)
        return games

    def bench_endgames(self) -> tuple[list[Game], float]:
        """10 random positions with 28 empty cells, each to be solved within the `hard`
        budget."""
        games: list[Game] = []
        for seed in range(10):
            game = Pillars.new(seed=seed)
            rng = random.Random(seed)
            while game.empty > 28:
                moves = [m for m in game.rectangles()
                         if (m[2] - m[0] + 1) * (m[3] - m[1] + 1) <= game.empty - 28 + 2]
                t, lc, b, r = rng.choice(moves)
                game.play((t, lc, b, r, False))
            games.append(game)
        return games, self.levels["hard"].seconds


# the seed's example game after five moves (the C perft's default position)
EXAMPLE = ("Aa\nBb\nCc\nDd\nEe\nFf\nGg\nHh\nIi\nJj\nAcBd\n!AeAj\nCeDj\nGaHb\nEgFj\n")
