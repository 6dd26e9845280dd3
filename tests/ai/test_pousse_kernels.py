"""Pousse's search kernels over both engines against the rules: boards, results, hashes,
evaluation and perft on random games, long histories and repetitions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ai.engine import new_engine
from ai.perft import reference_perft
from ai.pousse import search as ps
from ai.pousse.adapter import CELL_CODES, KernelPosition, engine_of, move_index, tables
from ai.pousse.common import MAX_N, MAX_PLY, WORDS, evaluate_counts
from rules.pousse import REPETITION, SIDES, Pousse


def cells(game: Pousse) -> np.ndarray:
    return np.array([CELL_CODES[mark] for mark in game.board], dtype=np.int8)


def row_cells(stack: np.ndarray, ply: int, n: int) -> np.ndarray:
    out = np.zeros(n * n, dtype=np.int8)
    engine_of(n).cells_s(stack, ply, n, out)
    return out


def fresh_hash(game: Pousse) -> int:
    """The hash of the rules' board and side to move, computed from scratch."""
    n = game.size
    g, _ = tables(n)
    stack = np.zeros((2, WORDS), dtype=np.uint64)
    engine_of(n).load_s(cells(game), n, game.to_move, g, stack)
    return int(stack[0, 0])


def random_games(rng: random.Random, size: int, count: int, max_moves: int) -> list[Pousse]:
    """Random games, half of them on a few lines only so full lines push off and repeat."""
    games = []
    for i in range(count):
        game = Pousse.new({"size": size})
        pool = game.legal_moves()
        if i % 2:
            lines = rng.sample(range(1, size + 1), 2)
            pool = [(s, i) for s in rng.sample(SIDES, 3) for i in lines]
        while not game.is_over and len(game.history) < max_moves:
            game.play(rng.choice(pool))
        games.append(game)
    return games


def check_position(game: Pousse) -> None:
    """Every move from this position: the kernel's child against the rules' play."""
    pos = KernelPosition.load(game)
    n = game.size
    g, zt = tables(n)
    assert (row_cells(pos.stack, 0, n) == cells(game)).all()
    assert int(pos.stack[0, 0]) == fresh_hash(game)
    assert pos.winner == (game.outcome.winner if game.outcome else -1)
    if game.is_over:
        return
    lc = np.zeros((2, 2 * MAX_N), dtype=np.int64)
    root = pos.stack[0].copy()
    for move in game.legal_moves():
        m = move_index(n, move)
        added = ps.make_any(pos.stack, 0, m, n, pos.side, g, zt)
        irr = pos.t + 1 if added else pos.irr
        winner = ps.winner(pos.stack, 1, pos.side, n, g, zt, pos.path_h, pos.t + 1, irr)
        filled = game.board.count(".")
        game.play(move)
        text = game.move_text(move)
        assert (row_cells(pos.stack, 1, n) == cells(game)).all(), text
        assert added == (game.board.count(".") < filled), text
        assert winner == (game.outcome.winner if game.outcome else -1), text
        x, o = game.scores()
        assert ps.straight_diff_any(pos.stack, 1, n, g, zt) == x - o, text
        assert int(pos.stack[1, 0]) == fresh_hash(game), text
        # the fused evaluation equals the one from line counts, for either side to move
        for side in (0, 1):
            engine_of(n).counts_s(pos.stack, 1, n, side, g, lc)
            assert ps.evaluate_any(pos.stack, 1, n, side, g, zt) == evaluate_counts(lc, n)
        game.undo()
        assert (pos.stack[0] == root).all()  # copy-make: the parent is untouched


@pytest.mark.parametrize(("size", "count", "max_moves"), [
    (4, 40, 60), (5, 20, 60), (6, 16, 60), (7, 8, 60), (8, 8, 60), (9, 6, 60), (13, 4, 60),
    (20, 2, 50)])
def test_kernels_match_rules_on_random_games(size: int, count: int, max_moves: int) -> None:
    rng = random.Random(size * 101)
    positions = 0
    repeated = 0
    for game in random_games(rng, size, count, max_moves):
        repeated += bool(game.outcome and game.outcome.ending == REPETITION)
        final = cells(game), game.outcome.winner if game.outcome else -1
        whole = KernelPosition.load(game)  # the kernels' replay ends where the rules did
        assert (row_cells(whole.stack, 0, size) == final[0]).all() and whole.winner == final[1]
        while True:
            check_position(game)
            positions += 1
            if not game.history:
                break
            game.undo()
    # enough positions overall (thousands across the sizes) and repetition endings seen
    assert positions >= {4: 500, 5: 400, 6: 400, 7: 300, 8: 300, 9: 200, 13: 150, 20: 100}[size]
    if size <= 6:
        assert repeated > 0


def long_game(rng: random.Random, size: int, moves: int) -> Pousse:
    """A game of many moves on a few lines: the board fills, markers are pushed off and
    configurations come back (avoided, so the game goes on)."""
    game = Pousse.new({"size": size})
    lines = rng.sample(range(1, size + 1), 2)
    pool = [(s, i) for s in SIDES for i in lines]
    while len(game.history) < moves:
        safe = [m for m in pool if game.preview(m).outcome is None]
        if not safe or rng.random() < 0.2:
            safe = [m for m in game.legal_moves() if game.preview(m).outcome is None]
        if not safe:
            break
        game.play(rng.choice(safe))
    return game


@pytest.mark.parametrize("size", [4, 5, 9])
def test_long_histories_with_repetitions(size: int) -> None:
    """Positions deep into long games, where most moves push a marker off and many
    would repeat: every move's verdict, the hash and the search path agree with the
    rules, and perft agrees with the reference."""
    rng = random.Random(size)
    game = long_game(rng, size, 400)
    assert len(game.history) >= 200
    repeating = 0
    for _ in range(12):
        check_position(game)
        repeating += sum(game.preview(m).repeats for m in game.legal_moves())
        game.undo()
    assert repeating > 0
    assert new_engine("pousse", tt_bits=10).perft(game, 2) == reference_perft(game, 2)


@pytest.mark.parametrize(("native", "depth"), [
    ("4\n", 3),
    ("4\nL2\nT2\nL2\nB2\nR2\n", 3),
    ("4\nL1\nL1\nL1\nL1\nR2\nR2\nR2\nR2\nL1\n", 3),
    ("6\nL1\nT2\nR3\nB4\n", 2),
    ("9\nL1\nT2\nR3\nB4\nL9\n", 2),
])
def test_kernel_perft_equals_reference(native: str, depth: int) -> None:
    game = Pousse.from_native(native)
    assert new_engine("pousse", tt_bits=10).perft(game, depth) == reference_perft(game, depth)


def test_perft_counts_repetition_endings() -> None:
    rng = random.Random(9)
    engine = new_engine("pousse", tt_bits=10)
    endings = 0
    for game in random_games(rng, 4, 12, 40):
        game.undo()  # one move before the end: some lines end the game at once
        for _ in range(rng.randrange(3)):
            game.undo()
        counts = engine.perft(game, 3)
        assert counts == reference_perft(game, 3)
        endings += counts[1] < 16 * 16
    assert endings > 0


def test_tt_pv_and_classify_leave_the_root_alone() -> None:
    game = Pousse.from_native("6\nL1\nT2\nR3\nB4\n")
    pos = KernelPosition.load(game)
    root = pos.stack[0].copy()
    codes = ps.classify(*pos.args())
    assert codes.shape == (24,) and set(codes.tolist()) <= {-2, -1, 0, 2}
    tt = np.zeros((1 << 8, 2), dtype=np.uint64)
    assert ps.tt_pv(*pos.args(), 3, 5, tt).tolist() == [3]  # an empty TT: the first move only
    assert (pos.stack[0] == root).all() and pos.stack.shape == (MAX_PLY + 2, WORDS)
