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
    # a 3x3 square and two lone cells, three players: with 11 cells no box settles the
    # winner on the mover (depth 1 has no win), so the table chooses
    square = [r * WIDTH + c for r in range(3) for c in range(3)]
    game = arena([*square, 10, 5 * WIDTH + 10], 3)
    assert P.settle_move(K.row_masks(game.rows), 3) < 0
    chances = oracle(game)
    result = engine.search(game, Budget(seconds=60.0, max_depth=2))
    assert result.depth == 2
    game.play(result.move)
    after = oracle(game)
    assert after[2] == pytest.approx(chances[0])  # the move kept the mover's best chance


def few_squares(seed: int, most: int) -> Boxing | None:
    """A seeded three-player endgame: scattered vacant cells in a 7 x 12 window with one
    to `most` 3x3 squares of vacant cells planted (None if the cells fell so that none
    fits)."""
    rng = random.Random(seed)
    vacant = {(r, c) for r in range(7) for c in range(12) if rng.random() < 0.4}
    for _ in range(rng.randint(1, most)):
        top, left = rng.randrange(5), rng.randrange(10)
        vacant |= {(top + r, left + c) for r in range(3) for c in range(3)}
    game = arena([(4 + r) * WIDTH + 8 + c for r, c in vacant], 3)
    return game if game.largest_box() >= 3 else None


@pytest.mark.parametrize("seed", range(12))
def test_settle_win_matches_the_rules(seed: int) -> None:
    game = few_squares(seed, 2)
    if game is None:
        pytest.skip("no position with few 3x3 boxes")
    code = P.settle_move(K.row_masks(game.rows), 3)
    wins = []
    for move in game.legal_moves():  # after it no 3x3 fits and the mover moves last
        game.play(move)
        if game.largest_box() < 3 and game.vacant % 3 == 0:
            wins.append(move)
        game.undo()
    assert (code >= 0) == bool(wins)
    if code >= 0:
        assert K.decode(code) in wins


def test_three_players_take_a_settling_win(engine: Engine) -> None:
    found = 0
    for seed in range(30):
        game = few_squares(seed, 2)
        if game is None or P.settle_move(K.row_masks(game.rows), 3) < 0:
            continue
        result = engine.search(game, Budget(seconds=60.0, max_depth=1))
        assert result.exact
        mover = game.to_move
        game.play(result.move)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        assert game.last_mover() == mover
        found += 1
    assert found >= 3


def test_three_players_avoid_handing_over_a_settling_win(engine: Engine) -> None:
    checked = 0
    for seed in range(30):
        game = few_squares(seed, 5)
        if game is None or P.settle_move(K.row_masks(game.rows), 3) >= 0:
            continue
        rows = K.row_masks(game.rows)
        codes = np.zeros(K.MAX_MOVES, np.int64)
        n = K.box_codes(rows, codes)
        kids = np.zeros((n, HEIGHT), np.uint64)
        left = np.zeros(n, np.int64)
        K.children(rows, codes[:n].copy(), n, kids, left)
        lost = np.zeros(n, np.int64)
        P.settle_wins(kids, left, n, 3, lost)
        if lost.all() or not lost.any():
            continue
        result = engine.search(game, Budget(seconds=60.0, max_depth=2))
        i = int(np.flatnonzero(codes[:n] == K.encode(*result.move))[0])
        assert not lost[i]
        checked += 1
    assert checked >= 3


def turning_count(game: Boxing, side: int) -> int:
    """The vacant side x side boxes of `game`, by the rules' cells."""
    vacant = [c == "-" for c in game.board]
    return sum(all(vacant[(r + i) * WIDTH + c + j] for i in range(side) for j in range(side))
               for r in range(HEIGHT - side + 1) for c in range(WIDTH - side + 1))


@pytest.mark.parametrize("players", [3, 4])
def test_turning_boxes_counts_every_vacant_box_that_changes_the_count(players: int) -> None:
    side = P.turning(players)
    assert side == (3 if players == 3 else 2)
    rng = random.Random(players)
    games = []
    for seed in range(6):
        game = Boxing.new({"players": players}, seed=seed)
        for _ in range(rng.randrange(40)):
            game.play(rng.choice(game.legal_moves()))
        games.append(game)
    kids = np.array([K.row_masks(g.rows) for g in games], np.uint64)
    out = np.zeros(len(games), np.int64)
    P.turning_boxes(kids, len(games), players, out)
    assert list(out) == [turning_count(g, side) for g in games]
    assert out.min() > 0


def test_the_holder_of_the_count_keeps_it_and_breaks_up_the_most_turning_boxes(
        engine: Engine) -> None:
    # three 4x4 blocks apart (four 3x3 boxes each) and seven lone cells: 55 vacant cells,
    # so the mover holds the count (were no 3x3 box played, it would fill the last
    # cell). No box settles it (the blocks are apart); one box inside a block over its
    # centre clears that block's four. Left to the play-outs a lone cell, or a 3x3 box
    # that hands the count on, was as likely as such a box.
    blocks = [(r0 + r) * WIDTH + c0 + c for r0, c0 in ((0, 0), (0, 10), (8, 20))
              for r in range(4) for c in range(4)]
    lone = [14 * WIDTH + 2 * i for i in range(7)]
    game = arena(blocks + lone, 3)
    assert game.vacant % 3 == 1 and P.settle_move(K.row_masks(game.rows), 3) < 0
    best = set()
    for move in game.legal_moves():
        game.play(move)
        if move[2] % 3 and turning_count(game, 3) == 8:
            best.add(move)
        game.undo()
    assert len(best) == 3 * (4 + 9 + 1)  # per block: its centre's 4 cells, 9 2x2s, the 4x4
    assert set(engine.score_moves(game, 2)) == best
    result = engine.search(game, Budget(seconds=60.0, max_depth=2))
    assert result.move in best


@pytest.mark.parametrize(("lone", "count"), [(6, 0), (5, 2)])
def test_a_search_past_hards_depth_takes_the_count_or_brings_it_on(
        engine: Engine, lone: int, count: int) -> None:
    # three 3x3 blocks apart and some lone cells; no box settles the winner.
    # - Six lone cells, 33 vacant: the count puts the last move on the player before the
    #   mover (were no 3x3 box played). A 3x3 box puts it on the mover and leaves two
    #   blocks, which no single box of the next player clears: max takes it.
    # - Five, 32 vacant: the count is on the next player, and no box puts it on the
    #   mover. A 3x3 box puts it on the player before the mover, from whom the mover can
    #   take it next turn: max plays one.
    # Either way any of the three blocks; at hard's depth the play-outs choose among all
    # the moves, and most are not such a box.
    blocks = [(r0 + r) * WIDTH + c0 + c for r0, c0 in ((0, 0), (0, 10), (8, 20))
              for r in range(3) for c in range(3)]
    game = arena(blocks + [14 * WIDTH + 2 * i for i in range(lone)], 3)
    assert game.vacant % 3 == count and P.settle_move(K.row_masks(game.rows), 3) < 0
    threes = {(r0 * WIDTH + c0, 3) for r0, c0 in ((0, 0), (0, 10), (8, 20))}
    for seconds in (0.3, 1.0):
        result = engine.search(game, Budget(seconds=seconds, max_depth=5))
        row, col, side = result.move
        assert (row * WIDTH + col, side) in threes, result.move
