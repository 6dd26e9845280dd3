"""Boxing for more than two players: the endgame table (`ai.boxing.multi`) against a
max^n search over the rules, the play-outs' early end (`playouts.settles`) against games
played out by the rules, and the adapter choosing by the table."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from ai.boxing import kernels as K
from ai.boxing import multi as M
from ai.boxing import playouts as P
from ai.engine import Budget, Engine, new_engine
from rules.boxing import CELLS, HEIGHT, MARKS, WIDTH, Boxing

TIE = 1e-6


def arena(vacant: list[int], players: int) -> Boxing:
    cells = ["o"] * CELLS
    for i in vacant:
        cells[i] = "-"
    return Boxing(start="".join(cells), seat_marks=MARKS[:players])


def oracle(game: Boxing) -> tuple[float, ...]:
    """Each player's chance (by turns after the mover) of making the last move when every
    player takes a move best for itself, equals alike: a search over the rules' moves."""
    players = game.players

    @functools.cache
    def chances(cells: str) -> tuple[float, ...]:
        g = Boxing(start=cells, seat_marks=MARKS[:players])
        moves = g.legal_moves()
        if not moves:
            return tuple(1.0 if j == players - 1 else 0.0 for j in range(players))
        best, total, ties = -1.0, [0.0] * players, 0
        for move in moves:
            g.play(move)
            child = chances("".join(c if c == "-" else "o" for c in g.board))
            g.undo()
            mine = child[players - 1]
            if mine > best + TIE:
                best, total, ties = mine, [0.0] * players, 0
            if mine >= best - TIE:
                ties += 1
                total = [t + c for t, c in zip(total, (mine, *child[:-1]), strict=True)]
        return tuple(t / ties for t in total)

    return chances("".join(c if c == "-" else "o" for c in game.board))


def random_patch(rng: random.Random, cells: int) -> list[int]:
    top, left = rng.randrange(HEIGHT - 4), rng.randrange(WIDTH - 5)
    patch = [(top + r) * WIDTH + left + c for r in range(4) for c in range(5)]
    return sorted(rng.sample(patch, cells))


@pytest.fixture(scope="module")
def engine() -> Engine:
    fresh = new_engine("boxing")
    fresh.warm_up()
    return fresh


@pytest.mark.parametrize("seed", range(24))
def test_table_matches_a_search_over_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 3
    game = arena(random_patch(rng, rng.randint(1, 9)), players)
    table = M.new_table(players, 9)
    index = np.zeros((HEIGHT, WIDTH), np.int64)
    n = M.chances(K.row_masks(game.rows), players, table, np.zeros(400, np.int64), index)
    assert n == game.vacant
    assert np.allclose(table[(1 << n) - 1], oracle(game), atol=1e-5)


def test_two_players_table_is_the_winner() -> None:
    # a 2x2 square: the mover takes it whole and wins; two apart cells: the mover loses
    square = arena([0, 1, WIDTH, WIDTH + 1], 2)
    apart = arena([0, 5], 2)
    for game, mover_wins in ((square, 1.0), (apart, 0.0)):
        table = M.new_table(2, 4)
        n = M.chances(K.row_masks(game.rows), 2, table, np.zeros(400, np.int64),
                      np.zeros((HEIGHT, WIDTH), np.int64))
        assert table[(1 << n) - 1, 0] == mover_wins


def test_settles_is_exact_for_three_players(engine: Engine) -> None:
    assert P.settles(3, 2) and not P.settles(3, 3) and not P.settles(3, 6)
    assert P.settles(2, 1) and not P.settles(2, 2)
    assert P.settles(8, 1) and not P.settles(8, 2)
    rng = random.Random(7)
    checked = 0
    for seed in range(20):
        game = Boxing.new({"players": 3}, seed=seed)
        while game.largest_box() >= 3:
            game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            continue
        mover, vacant = game.to_move, game.vacant
        winner, _ = P.playout(K.row_masks(game.rows), 3, np.uint64(seed + 1),
                              np.zeros((K.MAX_BOX + 1, HEIGHT), np.uint64),
                              np.zeros(HEIGHT, np.uint64), *engine.adapter.tables[:2], 0,
                              np.zeros((2, HEIGHT), np.uint64), np.zeros(32, np.uint64))
        assert winner == (vacant - 1) % 3  # the play-out ends at once, right
        while not game.is_over:  # any play from here: the same player moves last
            game.play(rng.choice(game.legal_moves()))
        assert game.last_mover() == (mover + vacant - 1) % 3
        checked += 1
    assert checked >= 15


def test_three_players_endgame_plays_the_best_chance(engine: Engine) -> None:
    # a 3x3 square and a lone cell, three players: boxes of every size, and the counts
    # of moves they leave decide who moves last
    square = [r * WIDTH + c for r in range(3) for c in range(3)]
    game = arena([*square, 10], 3)
    chances = oracle(game)
    result = engine.search(game, Budget(seconds=60.0, max_depth=2))
    assert result.depth == 2
    game.play(result.move)
    after = oracle(game)
    assert after[2] == pytest.approx(chances[0])  # the move kept the mover's best chance
