"""The Pillars sum solver against plain searches over the rules.

Proven here: on a few hundred random small positions the sum solver's value is the
plain memoised search's, with one table for all of them (and small tables, where
entries collide), whatever the Grundy budget (none: regions stay wild; or ample); on
positions of 18 to 21 empty cells it is the old exact solver's; lines of different
lengths left wild are told apart; a stop flag ends it; the children's estimates are
exact where no region is untamed or unknown.
"""

from __future__ import annotations

import random

import numpy as np

from ai.pillars import kernels as K
from ai.pillars import solver as S
from ai.pillars import sums as U
from rules.pillars import Pillars
from tests.ai.test_pillars_kernels import leave_only, plain_value, rows_of, small_position

STOP = np.zeros(1, np.int32)


def solve(rows: list[int] | tuple[int, ...], tables: tuple, budget: int,
          stop: np.ndarray = STOP) -> int:
    own, rt = tables
    own[-1][0] = budget
    w0, w1 = K.words(list(rows))
    return int(U.solve_sum(w0, w1, own, rt, stop))


def test_matches_plain_search() -> None:
    rng = random.Random(31)
    shared = U.new_tables(16, 16)
    tiny = U.new_tables(6, 14)  # positions overwrite one another all the time
    seen = {S.WIN: 0, S.LOSS: 0}
    for i in range(400):
        game = small_position(rng, 2 + i % 15)
        want = plain_value(game.rows)
        for tables in (shared, tiny):
            for budget in (0, 1 << 20):
                assert solve(game.rows, tables, budget) == want, (game.to_native(), budget)
        seen[want] += 1
    assert min(seen.values()) >= 60, seen


def test_matches_the_old_solver_on_larger_positions() -> None:
    rng = random.Random(32)
    shared = U.new_tables(18, 18)
    old = S.new_tables(18)
    for i in range(40):  # (at 22 cells the old solver takes 1 s a position)
        game = small_position(rng, 18 + i % 4)
        w0, w1 = K.words(game.rows)
        want = S.solve(w0, w1, *old[:6], old[6], STOP, old[7])
        assert solve(game.rows, shared, rng.choice([0, 300, 1 << 20])) == want, game.to_native()


def test_lines_left_wild_are_told_apart() -> None:
    """Lines of 4 cells and more are tame, not heap-like: they stay in the wild list,
    keyed by their length (one key for all of them once lost a won position)."""
    shared = U.new_tables(12, 14)
    rng = random.Random(33)
    for _ in range(40):
        cells = {(0, c) for c in range(rng.randint(4, 9))}
        cells |= {(r, 9) for r in range(2, 2 + rng.randint(4, 7))}
        cells |= {(r, c) for r in (5, 6) for c in (2, 3)} if rng.random() < 0.5 else {(8, 0)}
        rows = rows_of(cells)
        assert solve(rows, shared, 1 << 20) == plain_value(rows), sorted(cells)


def test_stops_when_told() -> None:
    start = Pillars.new({"pillars": "diagonal"})
    assert solve(start.rows, U.new_tables(10, 14), 0, np.ones(1, np.int32)) == S.UNKNOWN


def test_child_estimates() -> None:
    rng = random.Random(34)
    own, rt = U.new_tables(14, 14)
    exact = 0
    for i in range(80):
        game = small_position(rng, 4 + i % 12)
        w0, w1 = K.words(game.rows)
        codes = np.zeros(K.MAX_RECTS, np.int64)
        n = K.rect_codes(w0, w1, codes)
        c0, c1, left = np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.int64)
        K.children(w0, w1, codes[:n], c0, c1, left)
        info = np.zeros((n, 4), np.int64)
        own[-1][0] = 1 << 20
        assert U.child_info(c0, c1, n, info, rt, STOP, own[-1]) == n
        for j in range(n):
            if left[j] == 0:
                assert info[j, 0] == 0  # filling the last cell: the other side wins
                continue
            assert info[j, 2] == 0  # every value is known with an ample budget
            if info[j, 3] == 0:  # no untamed region: the estimate is exact
                child = leave_only(Pillars.new({"pillars": "diagonal"}), set())
                rows = [int(K.row_of(c0[j], c1[j], r)) for r in range(10)]
                assert (plain_value(rows) == S.LOSS) == (info[j, 0] == 1), child
                exact += 1
    assert exact >= 200
