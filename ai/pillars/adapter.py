"""Pillars's adapter: region values estimate every move, the sum solver proves what it can.

Depth 1 values each root move by the regions it leaves (`regions`: Grundy values and
which regions are tame or heap-like, memoised on their shapes for the whole game): the
misere Nim rule on their values is an estimate of whether the other side loses after
the move, exact when every region is tame. Depth 2 runs the exact sum solver (`sums`)
on the moves in the order of that estimate, the surest first, until one is proven to
leave a lost position (a win: played, and the joker claimed), every one is proven to
leave a won one (a loss), or the time is up; the moves proven to lose are then set aside
and the estimate chooses among the rest. Where no region value is known (the opening,
one large region), further depths share random play-outs among the moves left, every
depth doubling them, within a small share of the time: they tell little, and the time
is worth more in the middle game, where the values and proofs decide.

Among moves the estimate likes alike, the one whose estimate rests on the fewest cells
of untamed or unknown regions is played (its estimate is the surest). In a lost
position the move chosen is the one most likely to mislead a fallible opponent: one the
estimate likes, else one leaving the largest region (the hardest to value).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import numpy as np

from ai.adapter import Adapter, Depth, touch
from ai.engine import Budget
from ai.pillars import kernels as K
from ai.pillars import sums as U
from ai.pillars.solver import LOSS, UNKNOWN, WIN
from rules import Game
from rules.pillars import Pillars

TT_BITS = 22  # the sum solver's table: 4 Mi entries of 8 bytes (32 MiB)
REGION_BITS = 22  # the region table: 4 Mi entries of 10 bytes (40 MiB)
PROVEN = 1000  # the score of a proven win
GOOD, OPEN, BAD = 60, 30, 0  # the estimate says the other side loses / unknown / wins
TIE = 29  # the tie-break within a class: 0 to TIE
SURVIVAL = 100  # a pass of the solver survived counts more than the estimate
MAX_PASSES = 8
FIRST_LIMIT = 32  # nodes a move's first solve may visit (most refutations take a few)
SURVIVE_GROWTH = 4
REGIONS_PER_SECOND = 50_000  # the Grundy solver's pace on a large region (new regions)
GRUNDY_SHARE = 0.5  # of a move's time, what new region values may cost at most
GRUNDY_SECONDS = 2.0  # and never more than this (beyond, a region is too large to matter)
GRUNDY_CELLS = 30  # the largest region valued (one of 33 cells takes over 400,000 new
# regions: seconds)
PER_MOVE = 2  # play-outs per move at depth 3, doubled by every further depth
EXPLORE = 0.5  # UCB1's exploration constant
OPEN_SHARE = 0.15  # of a move's time, what play-outs may use where no value is known
SOLVE_ANY = 30  # up to this many empty cells every move is solved; beyond, only those
# whose regions all have known values (a region too large to value is too large to solve)


@dataclass
class Position:
    game: Pillars
    codes: np.ndarray  # the root's rectangles worth trying (none fills the last cell
    # while another move is left)
    c0: np.ndarray  # the position after each of them
    c1: np.ndarray
    can_claim: bool
    info: np.ndarray  # per move: estimate, largest region, unknown cells, untamed cells
    exact: np.ndarray  # per move: the child's exact value for its mover, or UNKNOWN
    visits: np.ndarray  # play-outs and our wins per move
    wins: np.ndarray
    budget: Budget = field(default_factory=lambda: Budget(1.0))
    win_now: int = -1  # a rectangle that leaves one cell (the other must fill it)
    verdict: int = UNKNOWN  # the exact value of the root, once known
    best: int = -1  # the move the last depth chose
    claim: bool = False  # whether the chosen move claims the joker
    survived: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # per
    # move: the solver's passes it survived (not refuted within the pass's node limit)
    passes: int = 0  # complete passes of the solver
    estimated: bool = False  # depth 1 done
    started: float = field(default_factory=time.perf_counter)

    @property
    def n(self) -> int:
        return len(self.codes)


class PillarsAdapter(Adapter):
    game_class = Pillars
    has_lines = False  # `pv` is the root move alone (play-outs keep no line)
    # Per move; the contest's clock is 5 s for the whole game, and the caller caps a move
    # by the clock's share.
    levels = {
        "easy": Budget(seconds=0.1, max_depth=1, noise=40),
        "medium": Budget(seconds=0.2, max_depth=2),
        "hard": Budget(seconds=0.4),
        "max": Budget(seconds=3.0),
    }
    bench_budget = Budget(seconds=3600.0, max_depth=6)

    def __init__(self, tt_bits: int = TT_BITS, region_bits: int = REGION_BITS) -> None:
        self.own, self.rt = U.new_tables(tt_bits, region_bits)
        touch(self.own[0])  # their pages now (see TOUCH_TABLES)
        touch(self.rt[0])
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
        m = int(keep.sum())
        win_now = int(np.flatnonzero(left[keep] == 1)[0]) if (left[keep] == 1).any() else -1
        pos = Position(game, all_codes[keep], c0[keep], c1[keep],
                       game.claims[game.to_move] is None, np.full((m, 4), -1, np.int64),
                       np.full(m, UNKNOWN, np.int64), np.zeros(m, np.int64),
                       np.zeros(m, np.float64), win_now=win_now,
                       survived=np.zeros(m, np.int64))
        if win_now >= 0:
            pos.verdict, pos.best = WIN, win_now
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
        if depth >= 1 and (pos.verdict != UNKNOWN or pos.n == 1):
            return None
        if depth >= 2 and not self._open(pos):
            return None  # the estimate decides: nothing for play-outs to add
        if depth >= 3 and time.perf_counter() - pos.started > OPEN_SHARE * budget.seconds:
            return None  # play-outs tell little: keep the time for the middle game
        return depth + 1 if depth < min(budget.max_depth, 40) else None

    def search_depth(self, pos: Position, depth: int, stop: np.ndarray,
                     all_scores: bool) -> Depth:
        if pos.win_now >= 0:  # leave one cell: a proven win, which claims
            pos.claim = pos.can_claim
            if all_scores and not self._estimate(pos, stop):
                return Depth(-1, 0, completed=False, nodes=0)
            scores = self._scores(pos) if all_scores else None
            if scores is not None:
                scores[pos.win_now] = PROVEN
            return self._done(pos, pos.win_now, PROVEN, 1, all_scores, scores)
        if pos.n == 1:  # nothing to choose (the last cell, or one rectangle left)
            left = int(pos.c0[0]).bit_count() + int(pos.c1[0]).bit_count()
            return self._done(pos, 0, -PROVEN if left == 0 else 0, 1, all_scores,
                              np.zeros(1))
        if depth == 1:
            nodes = self._estimate(pos, stop)
            if not nodes:
                return Depth(-1, 0, completed=False, nodes=0)
            return self._decided(pos, nodes, all_scores)
        if depth == 2:
            return self._solve(pos, stop, all_scores)
        return self._playouts(pos, depth, stop, all_scores)

    def _grundy_budget(self, pos: Position) -> int:
        seconds = min(pos.budget.seconds * GRUNDY_SHARE, GRUNDY_SECONDS)
        return max(2000, int(REGIONS_PER_SECOND * seconds))

    def _estimate(self, pos: Position, stop: np.ndarray) -> int:
        """Depth 1: every move's estimate; 0 if stopped (else a count of the work)."""
        if pos.estimated:
            return 1
        budget = self.own[-1]
        budget[0], budget[1] = self._grundy_budget(pos), GRUNDY_CELLS
        stats = self.rt[-1]
        before = int(stats[0])
        done = U.child_info(pos.c0, pos.c1, pos.n, pos.info, self.rt, stop, budget)
        if done < pos.n:
            return 0
        pos.estimated = True
        return max(1, pos.n + int(stats[0]) - before)

    def _solve(self, pos: Position, stop: np.ndarray, all_scores: bool) -> Depth:
        """Depth 2: the exact value of the moves, in passes: every move not yet known gets
        a solve of at most `limit` nodes (the estimate's surest first), `limit` growing
        SURVIVE_GROWTH times a pass, until a win is found (every move with all_scores),
        all lose, or the time is up. A move the solver cannot refute within a pass has
        survived it: the other side's win, if it has one, is hard to find. Moves leaving
        a region of unknown value are not tried unless the position is small."""
        if not self._estimate(pos, stop):
            return Depth(-1, 0, completed=False, nodes=0)
        stats = self.own[-2]
        before = int(stats[0])
        small = pos.game.empty <= SOLVE_ANY
        order = [i for i in self._order(pos) if small or pos.info[i, 2] == 0]
        limit = FIRST_LIMIT
        # Past MAX_PASSES a survivor counts no more, and a pass costs minutes: a search
        # given all the time it wants (arena bench) ends here too.
        while not stop[0] and pos.passes < MAX_PASSES:
            alive = [i for i in order if pos.exact[i] == UNKNOWN]
            if not alive:
                break
            for i in alive:
                self.own[-1][:] = self._grundy_budget(pos), GRUNDY_CELLS, limit
                value = U.solve_sum(pos.c0[i], pos.c1[i], self.own, self.rt, stop)
                if stop[0]:
                    break
                pos.exact[i] = value
                if value == UNKNOWN:
                    pos.survived[i] += 1
                elif value == LOSS and not all_scores:
                    return self._decided(pos, max(1, int(stats[0]) - before), all_scores)
            else:
                pos.passes += 1
            limit *= SURVIVE_GROWTH
        return self._decided(pos, max(1, int(stats[0]) - before), all_scores)

    def _order(self, pos: Position) -> list[int]:
        """The moves by their estimate, the surest (fewest untamed or unknown cells) first."""
        est, doubt = pos.info[:, 0], pos.info[:, 2] + pos.info[:, 3]
        rank = np.where(est == 1, 0, np.where(est == -1, 1, 2))
        return [int(i) for i in np.lexsort((doubt, rank))]

    def _open(self, pos: Position) -> bool:
        """Whether the best moves left are unknown to the estimate (play-outs may help)."""
        alive = pos.exact != WIN
        est = pos.info[:, 0]
        return bool(alive.any()) and not (est[alive] == 1).any() and bool(
            (est[alive] == -1).sum() > 1)

    def _scores(self, pos: Position) -> np.ndarray:
        """Every move's score from what is known: a proven win, then the passes of the
        solver it survived (counting the complete ones only), then the estimate's class
        (it says the other side loses, it does not know, it says the other side wins) and
        a tie-break within it; proven losses last."""
        est, largest = pos.info[:, 0], pos.info[:, 1]
        doubt = np.minimum(pos.info[:, 2] + pos.info[:, 3], TIE)
        visits = np.maximum(pos.visits, 1)
        rate = np.where(pos.visits > 0, pos.wins / visits, 0.5)
        scores = np.where(est == 1, GOOD + TIE - doubt,
                          np.where(est == -1, OPEN + np.round(rate * TIE),
                                   BAD + np.minimum(largest, TIE))).astype(np.float64)
        scores += SURVIVAL * np.minimum(np.minimum(pos.survived, pos.passes), MAX_PASSES)
        scores[pos.exact == LOSS] = PROVEN
        lost = pos.exact == WIN
        if lost.all():  # a proven loss: keep the estimate's order, below every other score
            scores -= 2 * PROVEN
        else:
            scores[lost] = -PROVEN
        return scores

    def _decided(self, pos: Position, nodes: int, all_scores: bool) -> Depth:
        scores = self._scores(pos)
        best = int(np.argmax(scores))
        if pos.exact[best] == LOSS:
            pos.verdict = WIN
        elif (pos.exact == WIN).all():
            pos.verdict = LOSS
        pos.claim = pos.can_claim and pos.verdict == WIN
        score = PROVEN if pos.verdict == WIN else (-PROVEN if pos.verdict == LOSS
                                                  else int(scores[best]))
        return self._done(pos, best, score, nodes, all_scores, scores)

    def _playouts(self, pos: Position, depth: int, stop: np.ndarray,
                  all_scores: bool) -> Depth:
        """Depth 3 and on: random play-outs shared by UCB1 among the moves the estimate
        cannot tell apart (those unknown to it and not proven lost)."""
        cand = np.flatnonzero((pos.exact != WIN) & (pos.info[:, 0] == -1))
        if all_scores:
            cand = np.flatnonzero(pos.exact != WIN)
        m = len(cand)
        count = PER_MOVE * m << (depth - 3)
        visits, wins = pos.visits[cand].copy(), pos.wins[cand].copy()
        done = K.ucb_playouts(pos.c0[cand], pos.c1[cand], m, visits, wins, count,
                              np.uint64(self.rng.getrandbits(63)), EXPLORE, stop)
        if done < count:
            return Depth(-1, 0, completed=False, nodes=done)
        pos.visits[cand], pos.wins[cand] = visits, wins
        return self._decided(pos, done, all_scores)

    def _done(self, pos: Position, best: int, score: int, nodes: int, all_scores: bool,
              scores: np.ndarray | None = None) -> Depth:
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
        return PillarsAdapter(tt_bits=12, region_bits=12)

    def warm_up_searches(self) -> list[tuple[Game, Budget]]:
        game = Pillars.from_native(EXAMPLE)
        small = game.copy()
        rng = random.Random(1)
        while small.empty > 14:
            moves = [m for m in small.legal_moves() if not m[4]]
            small.play(rng.choice(moves))
        return [(small, Budget(seconds=60.0, max_depth=3)),
                (game, Budget(seconds=60.0, max_depth=3)),
                (game, Budget(seconds=60.0, max_depth=1, noise=50))]

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
        """10 random positions with 36 empty cells, each to be solved within the `hard`
        budget."""
        games: list[Game] = []
        for seed in range(10):
            game = Pillars.new(seed=seed)
            rng = random.Random(seed)
            while game.empty > 36:
                moves = [m for m in game.rectangles()
                         if (m[2] - m[0] + 1) * (m[3] - m[1] + 1) <= game.empty - 36 + 2]
                t, lc, b, r = rng.choice(moves)
                game.play((t, lc, b, r, False))
            games.append(game)
        return games, self.levels["hard"].seconds


# the seed's example game after five moves (the C perft's default position)
EXAMPLE = ("Aa\nBb\nCc\nDd\nEe\nFf\nGg\nHh\nIi\nJj\nAcBd\n!AeAj\nCeDj\nGaHb\nEgFj\n")
