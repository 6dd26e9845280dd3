"""Pah-Tum kernels against the rules: moves, scores, perft and search values must agree
exactly (the search's values against plain minimax over the rules)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from ai.engine import new_engine
from ai.pahtum import kernels as K
from ai.pahtum.adapter import board_bits
from ai.pahtum.kernels import EXPECT_P
from ai.perft import reference_perft
from rules.pahtum import CELLS, EMPTY, LINES, MARKS, PahTum, score


def random_position(rng: random.Random, full: bool = False) -> PahTum:
    game = PahTum.new({"blocks": str(rng.randrange(1, 26, 2))}, seed=rng.randrange(1 << 30))
    plies = game.empty_count() if full else rng.randrange(game.empty_count() + 1)
    for _ in range(plies):
        game.play(rng.choice(game.legal_moves()))
    return game


def test_differential_moves_and_scores() -> None:
    rng = random.Random(2024)
    out = np.zeros(CELLS, np.int64)
    for i in range(2400):
        game = random_position(rng, full=i % 3 == 0)
        xb, ob, bl = board_bits(game)
        n = K.legal_moves(xb, ob, bl, out)
        assert [int(c) for c in out[:n]] == game.legal_moves()
        assert (K.score(xb), K.score(ob)) == game.scores()
        if i % 3 == 0:
            assert n == 0 and game.is_over


def test_score_bits_matches_transposed_columns() -> None:
    rng = random.Random(7)
    for _ in range(200):
        b = np.uint64(rng.getrandbits(49))
        # a board and its transpose score the same: rows and columns swap roles
        assert K.score(b) == K.score(K.transpose(b))
        assert K.transpose(K.transpose(b)) == b


def test_evaluation_of_a_full_board_is_the_score_difference() -> None:
    rng = random.Random(11)
    for _ in range(100):
        game = random_position(rng, full=True)
        xb, ob, bl = board_bits(game)
        eb = np.uint64(0)
        v = K.evaluate(xb, ob, K.transpose(xb), K.transpose(ob), eb, eb)
        x, o = game.scores()
        assert v == (x - o) * K.SCALE


@pytest.mark.parametrize(("seed", "plies", "depth"),
                         [(1, 0, 2), (2, 10, 3), (3, 20, 4), (4, 28, 5)])
def test_perft_matches_reference(seed: int, plies: int, depth: int) -> None:
    rng = random.Random(seed)
    game = PahTum.new({"blocks": "11"}, seed=seed)
    for _ in range(min(plies, game.empty_count() - 4)):
        game.play(rng.choice(game.legal_moves()))
    assert new_engine("pahtum", tt_bits=10).perft(game, depth) == reference_perft(game, depth)


def test_perft_stops_at_the_end_of_the_game() -> None:
    game = PahTum.new({"blocks": "25"}, seed=5)
    while game.empty_count() > 3:
        game.play(game.legal_moves()[0])
    xb, ob, bl = board_bits(game)
    assert list(K.perft(xb, ob, bl, 5)) == [3, 6, 6, 0, 0] == reference_perft(game, 5)



def expected_line_points(line: str, mark: str, p: float) -> float:
    """Expected points of `mark` in a 7-cell line if each empty becomes `mark` with chance p."""
    empties = [i for i, c in enumerate(line) if c == "-"]
    total = 0.0
    for fill in itertools.product((True, False), repeat=len(empties)):
        cells = list(line)
        chance = 1.0
        for i, mine in zip(empties, fill, strict=True):
            cells[i] = mark if mine else "#"
            chance *= p if mine else 1 - p
        board = "".join(cells) + "#" * 42
        total += chance * score(board, mark)
    return total


def test_evaluation_is_the_expected_score_difference() -> None:
    rng = random.Random(5)
    for _ in range(40):
        game = random_position(rng)
        xb, ob, bl = board_bits(game)
        eb = ~(xb | ob | bl) & K.FULL
        v = K.evaluate(xb, ob, K.transpose(xb), K.transpose(ob), eb, K.transpose(eb))
        want = 0
        for cells in LINES:
            line = "".join(game.board[c] for c in cells)
            want += round(expected_line_points(line, "X", EXPECT_P) * K.SCALE)
            want -= round(expected_line_points(line, "O", EXPECT_P) * K.SCALE)
        assert v == want


def filled(board: list[str], mark: str) -> list[str]:
    """The board with every empty cell given to `mark`."""
    return [mark if c == EMPTY else c for c in board]


def test_incremental_score_updates_match_the_rules() -> None:
    """The search's per-move updates (`gain`): the mover's points, and the other side's
    points if it owned every empty cell, which loses the cell the mover takes."""
    rng = random.Random(31)
    checked = 0
    for _ in range(2500):
        game = random_position(rng)
        moves = game.legal_moves()
        if not moves:
            continue
        xb, ob, _ = board_bits(game)
        eb = ~(xb | ob | board_bits(game)[2]) & K.FULL
        for cell in rng.sample(moves, min(3, len(moves))):
            for mover in (0, 1):
                mark, other = MARKS[mover], MARKS[1 - mover]
                me, them = (xb, ob) if mover == 0 else (ob, xb)
                after = list(game.board)
                after[cell] = mark
                want = (score(after, mark) - score(game.board, mark)) * K.SCALE
                assert K.gain(me, K.transpose(me), cell) == want
                pot = them | eb
                lost = (score(filled(game.board, other), other)
                        - score(filled(after, other), other)) * K.SCALE
                assert K.gain(pot ^ K.BIT[cell], K.transpose(pot ^ K.BIT[cell]), cell) == lost
                checked += 1
    assert checked > 10000


def test_evaluation_change_matches_evaluations() -> None:
    rng = random.Random(32)
    for _ in range(1500):
        game = random_position(rng)
        moves = game.legal_moves()
        if not moves:
            continue
        xb, ob, bl = board_bits(game)
        me, them = (xb, ob) if game.to_move == 0 else (ob, xb)
        eb = ~(xb | ob | bl) & K.FULL
        tr = K.transpose
        before = K.evaluate(me, them, tr(me), tr(them), eb, tr(eb))
        cell = rng.choice(moves)
        b = K.BIT[cell]
        after = K.evaluate(me | b, them, tr(me | b), tr(them), eb ^ b, tr(eb ^ b))
        change = K.eval_change(me, them, tr(me), tr(them), eb, tr(eb), cell)
        assert change == after - before


def test_tt_entries_round_trip() -> None:
    board = np.uint64((1 << 49) - 1)
    for value in (-13328, -1, 0, 7, 13328):
        for depth, flag, move in ((0, K.EXACT, 0), (49, K.UPPER, 48), (12, K.LOWER, 17)):
            w0, w1 = (np.uint64(w) for w in K.tt_words(board, board, value, depth, flag, move))
            assert (w0 & K.FULL, w1 & K.FULL) == (board, board)
            assert K.tt_value(w0) == value
            assert K.tt_data(w1) == depth << 8 | flag << 6 | (move + 1)


# ----- the search against plain minimax over the rules --------------------------------
def minimax(game: PahTum, depth: int) -> int:
    """The mover's value (SCALE units) by plain negamax over the rules: the final score
    difference at the end, else at depth 0 the evaluation clamped to what the sides can
    still prove (own points now, and points if every empty cell became theirs)."""
    mark, other = MARKS[game.to_move], MARKS[1 - game.to_move]
    if game.is_over:
        return (score(game.board, mark) - score(game.board, other)) * K.SCALE
    if depth == 0:
        lo = score(game.board, mark) - score(filled(game.board, other), other)
        hi = score(filled(game.board, mark), mark) - score(game.board, other)
        xb, ob, bl = board_bits(game)
        me, them = (xb, ob) if game.to_move == 0 else (ob, xb)
        eb = ~(xb | ob | bl) & K.FULL
        tr = K.transpose
        v = K.evaluate(me, them, tr(me), tr(them), eb, tr(eb))
        return min(max(v, lo * K.SCALE), hi * K.SCALE)
    best = None
    for move in game.legal_moves():
        game.play(move)
        v = -minimax(game, depth - 1)
        game.undo()
        best = v if best is None else max(best, v)
    assert best is not None
    return best


def kernel_move_values(game: PahTum, depth: int) -> dict[int, int]:
    """Every root move's full-window value at `depth` from a fresh adapter."""
    adapter = new_engine("pahtum", tt_bits=12).adapter
    pos = adapter.load(game)
    found = adapter.search_depth(pos, depth, np.zeros(1, np.int32), True)
    assert found.completed
    return {m: round(v * K.SCALE) for m, v in found.scores.items()}


@pytest.mark.parametrize(("seed", "empties", "depth"),
                         [(1, 14, 1), (2, 12, 2), (3, 11, 3), (4, 9, 3), (5, 16, 2),
                          (6, 10, 3), (7, 13, 2), (8, 8, 3)])
def test_heuristic_search_values_are_minimax_values(seed: int, empties: int,
                                                    depth: int) -> None:
    rng = random.Random(seed)
    game = PahTum.new({"blocks": str(rng.randrange(1, 26, 2))}, seed=seed)
    while game.empty_count() > empties:
        game.play(rng.choice(game.legal_moves()))
    values = kernel_move_values(game, depth)
    for move, value in values.items():
        game.play(move)
        assert value == -minimax(game, depth - 1), move
        game.undo()


def test_heuristic_values_near_the_end_are_minimax_values() -> None:
    """Shallow searches of nearly full boards, where the provable bounds clamp the
    evaluation and decide nodes."""
    rng = random.Random(55)
    for i in range(60):
        game = random_position(rng)
        while game.empty_count() > 3 + i % 5:
            game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            continue
        depth = 2 + i % 2
        values = kernel_move_values(game, depth)
        for move, value in values.items():
            game.play(move)
            assert value == -minimax(game, depth - 1), (i, move)
            game.undo()


@pytest.mark.parametrize("seed", range(12))
def test_exact_search_values_are_minimax_values(seed: int) -> None:
    """Exact solves (the table-free endgame solver below 7 empties, the TT search above)
    against memoised minimax to the end over the rules."""
    rng = random.Random(100 + seed)
    game = PahTum.new({"blocks": str(rng.randrange(1, 26, 2))}, seed=seed)
    empties = 7 + seed % 3
    while game.empty_count() > empties:
        game.play(rng.choice(game.legal_moves()))
    memo: dict[object, int] = {}

    def exact(g: PahTum) -> int:
        key = g.key()
        if key not in memo:
            memo[key] = minimax(g, 0) if g.is_over else max(
                -exact_after(g, m) for m in g.legal_moves())
        return memo[key]

    def exact_after(g: PahTum, move: int) -> int:
        g.play(move)
        v = exact(g)
        g.undo()
        return v

    values = kernel_move_values(game, empties)
    assert values == {m: -exact_after(game, m) for m in game.legal_moves()}


def test_endgame_solver_bounds_hold_in_any_window() -> None:
    """`_solve` is fail-soft: a value at or below alpha bounds the true value from above,
    at or above beta from below, and inside the window it is the true value."""
    rng = random.Random(77)
    tr = K.transpose
    for _ in range(300):
        game = random_position(rng)
        while game.empty_count() > rng.randrange(1, K.SMALL + 1):
            game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            continue
        true = minimax_to_end(game)
        xb, ob, bl = board_bits(game)
        me, them = (xb, ob) if game.to_move == 0 else (ob, xb)
        eb = ~(xb | ob | bl) & K.FULL
        mec, themc, ec = tr(me), tr(them), tr(eb)
        ne = K.popcount(eb)
        args = (me, them, mec, themc, eb, ec, K.score_bits(me, mec), K.score_bits(them, themc),
                K.score_bits(me | eb, mec | ec), K.score_bits(them | eb, themc | ec), ne)
        for _ in range(4):
            alpha = rng.randrange(-400, 400)
            beta = alpha + rng.choice((1, 8, 50, 1000))
            v, nodes = K._solve(*args, alpha, beta)
            assert nodes >= 1
            if v <= alpha:
                assert true <= v
            elif v >= beta:
                assert true >= v
            else:
                assert v == true


def minimax_to_end(game: PahTum) -> int:
    if game.is_over:
        return minimax(game, 0)
    best = None
    for move in game.legal_moves():
        game.play(move)
        v = -minimax_to_end(game)
        game.undo()
        best = v if best is None else max(best, v)
    assert best is not None
    return best
