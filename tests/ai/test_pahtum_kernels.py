"""Pah-Tum kernels against the rules: moves, scores and perft must agree exactly."""

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
from rules.pahtum import CELLS, LINES, PahTum, score


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
        v = K.evaluate(xb, ob, K.transpose(xb), K.transpose(ob), eb, eb, K.EXPECT)
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
        v = K.evaluate(xb, ob, K.transpose(xb), K.transpose(ob), eb, K.transpose(eb), K.EXPECT)
        want = 0
        for cells in LINES:
            line = "".join(game.board[c] for c in cells)
            want += round(expected_line_points(line, "X", EXPECT_P) * K.SCALE)
            want -= round(expected_line_points(line, "O", EXPECT_P) * K.SCALE)
        assert v == want
