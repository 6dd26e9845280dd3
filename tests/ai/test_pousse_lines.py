"""The Pousse lines engine (boards up to 20x20) against the rules and the bitboard engine.

Random boards (not only game positions: straights of both colours, full lines that push
off) walked by random moves, random games judged for repetition through the hash, and
perft against `ai.perft.reference_perft` and `ai.pousse.bitboard`. $ARENA_FUZZ sets the
random boards (default 500, each walked 16 moves: 8,000 positions).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

from ai.perft import reference_perft
from ai.pousse import bitboard, lines
from ai.pousse.common import MAX_N, MAX_PLY, WORDS, repeats
from rules.pousse import (
    EMPTY,
    REPETITION,
    SIDES,
    STRAIGHTS,
    O,
    Pousse,
    X,
    line_slice,
    shift_in,
    straights,
)

FUZZ = max(1, int(os.environ.get("ARENA_FUZZ", "500")))
WALK = 16
FIXTURE = Path(__file__).parents[1] / "fixtures" / "pousse-20-mid.txt"
MARKS = (X, O)


def new_stack() -> np.ndarray:
    return np.zeros((MAX_PLY + 2, WORDS), dtype=np.uint64)


def to_cells(board: list[str]) -> np.ndarray:
    return np.array([".XO".index(c) for c in board], dtype=np.int8)


def used_words(n: int) -> list[int]:
    """The words of a row that hold the position on an N x N board (hash, straights,
    the four blocks of N line masks); the rest is scratch."""
    return [0, 1, 2, 3] + [lines.ROWS_X + b * MAX_N + i for b in range(4) for i in range(n)]


def move_of(n: int, m: int) -> tuple[str, int]:
    return SIDES[m // n], m % n + 1


def straight_diff(board: list[str], n: int) -> int:
    return sum(1 if mark == X else -1 for _, _, mark in straights(board, n))


def line_counts(board: list[str], n: int, side: int) -> np.ndarray:
    """lc as counts_s fills it, from the rules board."""
    lc = np.zeros((2, 2 * MAX_N), dtype=np.int64)
    for i in range(n):
        row = board[i * n:(i + 1) * n]
        col = board[i::n]
        for who, mark in enumerate((MARKS[side], MARKS[1 - side])):
            lc[who, i] = row.count(mark)
            lc[who, n + i] = col.count(mark)
    return lc


def random_board(rng: random.Random, n: int) -> list[str]:
    """Cells at a random density, some whole rows or columns of one colour, and now and
    then a board with no empty cell (every push pushes off)."""
    density = rng.choice((0.1, 0.5, 0.8, 0.95, 1.0))
    board = [rng.choice(MARKS) if rng.random() < density else EMPTY for _ in range(n * n)]
    for _ in range(rng.randrange(4)):
        i, mark = rng.randrange(n), rng.choice(MARKS)
        cells = range(i * n, (i + 1) * n) if rng.random() < 0.5 else range(i, n * n, n)
        for idx in cells:
            board[idx] = mark
    return board


def replay(game: Pousse) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """The game's moves through make_s from the empty board: (geometry, stack with the
    final position in row 0, path hashes with room for a search, t, irr)."""
    n = game.size
    g = lines.geometry(n)
    stack = new_stack()
    lines.load_s(np.zeros(n * n, dtype=np.int8), n, 0, g, stack)
    path_h = np.zeros(len(game.history) + MAX_PLY + 2, dtype=np.uint64)
    path_h[0] = stack[0, 0]
    irr = 0
    for t, move in enumerate(game.history):
        m = SIDES.index(move[0]) * n + move[1] - 1
        if lines.make_s(stack, 0, m, n, t % 2, g, lines.ZT):
            irr = t + 1
        stack[0] = stack[1]
        path_h[t + 1] = stack[0, 0]
    return g, stack, path_h, len(game.history), irr


def kernel_perft(game: Pousse, depth: int, engine=lines) -> list[int]:  # noqa: ANN001
    if engine is lines:
        g, stack, path_h, t, irr = replay(game)
    else:  # the bitboard engine, its own replay
        n = game.size
        g = bitboard.geometry(n)
        stack = new_stack()
        bitboard.load_s(np.zeros(n * n, dtype=np.int8), n, 0, g, stack)
        path_h = np.zeros(len(game.history) + MAX_PLY + 2, dtype=np.uint64)
        path_h[0] = stack[0, 0]
        irr = t = 0
        for t, move in enumerate(game.history, 1):
            if bitboard.make_s(stack, 0, SIDES.index(move[0]) * n + move[1] - 1, n, (t - 1) % 2,
                               g, bitboard.ZT):
                irr = t
            stack[0] = stack[1]
            path_h[t] = stack[0, 0]
    counts = engine.perft_s(stack, game.size, game.to_move, g, engine.ZT, path_h, t, irr, depth)
    return [int(c) for c in counts]


def fresh(board: list[str], n: int, side: int) -> np.ndarray:
    """A row loaded from the board: what an incremental row must equal."""
    stack = new_stack()
    lines.load_s(to_cells(board), n, side, lines.geometry(n), stack)
    return stack[0]


# ----- moves on random boards -----------------------------------------------------------
def test_geometry_and_zobrist_shapes() -> None:
    for n in (4, 8, 9, 20):
        g = lines.geometry(n)
        assert g.dtype == np.uint64 and g.ndim == 2 and g.flags.c_contiguous
        assert g.shape[1] == 4 * n
    assert lines.ZT.dtype == np.uint64 and lines.ZT.ndim == 1
    # each cell's key is held twice (in its row and in its column): 2 colours x 400 cells
    # and the side key, all distinct
    z = lines.ZT[:-1].reshape(2, 2, MAX_N, MAX_N)
    assert (z[1] == z[0].transpose(0, 2, 1)).all()
    assert len(set(lines.ZT.tolist())) == 2 * MAX_N * MAX_N + 1


def test_moves_match_rules_on_random_boards() -> None:
    rng = random.Random(8)
    out = np.zeros(MAX_N * MAX_N, dtype=np.int8)
    lc = np.zeros((2, 2 * MAX_N), dtype=np.int64)
    checked = pushed_off = nonzero_diff = 0
    for trial in range(FUZZ):
        n = 4 + trial % 17 if trial < 34 else rng.randint(4, MAX_N)
        g = lines.geometry(n)
        words = used_words(n)
        board = random_board(rng, n)
        side = rng.randrange(2)
        stack = new_stack()
        lines.load_s(to_cells(board), n, side, g, stack)
        lines.cells_s(stack, 0, n, out)
        assert out[:n * n].tolist() == to_cells(board).tolist()
        for ply in range(WALK):
            m = rng.randrange(4 * n)
            parent = stack[ply].copy()
            added = lines.make_s(stack, ply, m, n, side, g, lines.ZT)
            assert (stack[ply] == parent).all()  # copy-make: the parent is untouched
            k, off = shift_in(board, line_slice(n, move_of(n, m)), MARKS[side])
            side = 1 - side
            where = f"trial {trial}, n {n}, ply {ply}, move {move_of(n, m)}"
            assert added == (off == EMPTY), where
            lines.cells_s(stack, ply + 1, n, out)
            assert out[:n * n].tolist() == to_cells(board).tolist(), where
            # the incremental hash, straights and masks equal a fresh load of the rules board
            assert (stack[ply + 1, words] == fresh(board, n, side)[words]).all(), where
            assert lines.straight_diff_s(stack, ply + 1, n, g) == straight_diff(board, n), where
            lines.counts_s(stack, ply + 1, n, side, g, lc)
            assert (lc[:, :2 * n] == line_counts(board, n, side)[:, :2 * n]).all(), where
            checked += 1
            pushed_off += not added
            nonzero_diff += straight_diff(board, n) != 0
    assert checked == FUZZ * WALK
    assert pushed_off > checked // 20 and nonzero_diff > checked // 20  # the cases occurred


def test_hash_is_the_configuration() -> None:
    """The same board with the other side to move hashes differently, and a different
    board differently; one board reached two ways hashes the same (above)."""
    rng = random.Random(3)
    for n in (4, 11, 20):
        board = random_board(rng, n)
        assert fresh(board, n, 0)[0] != fresh(board, n, 1)[0]
        other = list(board)
        other[0] = X if board[0] != X else O
        assert fresh(board, n, 0)[0] != fresh(other, n, 0)[0]


# ----- judging games: repetition through the hash ---------------------------------------
@pytest.mark.parametrize("size", [4, 5, 6, 9, 20])
def test_game_results_match_rules(size: int) -> None:
    """Random games, most on a few lines so that full lines push off and configurations
    recur: the kernel's verdict after every move equals the rules' outcome."""
    rng = random.Random(size)
    g = lines.geometry(size)
    repetitions = straight_wins = 0
    for i in range(30):
        game = Pousse.new({"size": size})
        pool = list(range(4 * size))
        if i % 4:
            few = rng.sample(range(size), 2)
            pool = [k * size + j for k in rng.sample(range(4), 3) for j in few]
        stack = new_stack()
        lines.load_s(np.zeros(size * size, dtype=np.int8), size, 0, g, stack)
        path_h = np.zeros(2000, dtype=np.uint64)
        path_h[0] = stack[0, 0]
        irr = 0
        while not game.is_over and len(game.history) < 1500:
            t = len(game.history)
            m = rng.choice(pool)
            side = game.to_move
            if lines.make_s(stack, 0, m, size, side, g, lines.ZT):
                irr = t + 1
            stack[0] = stack[1]
            h = stack[0, 0]
            path_h[t + 1] = h
            if repeats(h, path_h, t + 1, irr):
                verdict = 1 - side
            else:
                d = lines.straight_diff_s(stack, 0, size, g)
                verdict = 0 if d > 0 else (1 if d < 0 else -1)
            game.play(move_of(size, m))
            assert verdict == (game.outcome.winner if game.outcome else -1), game.to_native()
        if game.outcome:
            repetitions += game.outcome.ending == REPETITION
            straight_wins += game.outcome.ending == STRAIGHTS
    assert repetitions > 0
    assert straight_wins > 0 or size == 20  # 20x20 straights: the random boards above


# ----- perft --------------------------------------------------------------------------
def played(size: int, moves: str) -> Pousse:
    game = Pousse.new({"size": size})
    for text in moves.split():
        game.play(game.parse_move(text))
    return game


def repetition_rich() -> Pousse:
    """A 4x4 game with a full board and a long history since its last added marker:
    its perft tree holds repetitions (checked)."""
    rng = random.Random(44)
    while True:
        game = Pousse.new({"size": 4})
        game.advance(rng, 40)
        if not game.is_over and game.board.count(EMPTY) <= 1:
            return game


def has_repetition(game: Pousse, depth: int) -> bool:
    if depth == 0 or game.is_over:
        return False
    for move in game.legal_moves():
        game.play(move)
        found = (game.outcome is not None and game.outcome.ending == REPETITION
                 ) or has_repetition(game, depth - 1)
        game.undo()
        if found:
            return True
    return False


def test_perft_matches_rules() -> None:
    example = played(4, "L2 T2 L2 B2 R2")  # RULES.md's example
    assert kernel_perft(example, 4) == [16, 256, 3648, 57984]
    assert reference_perft(example, 3) == [16, 256, 3648]
    rich = repetition_rich()
    assert has_repetition(rich, 3)
    assert kernel_perft(rich, 3) == reference_perft(rich, 3)
    rng = random.Random(9)
    nine = Pousse.new({"size": 9})
    nine.advance(rng, 30)
    assert kernel_perft(nine, 2) == reference_perft(nine, 2)
    mid20 = Pousse.from_native(FIXTURE.read_text())
    assert mid20.size == 20 and len(mid20.history) == 120 and not mid20.is_over
    assert kernel_perft(mid20, 2) == reference_perft(mid20, 2)
    assert kernel_perft(mid20, 3) == [80, 6400, 512000]


def test_perft_depth_zero_and_terminal_lines() -> None:
    game = Pousse.new({"size": 5})
    assert kernel_perft(game, 0) == []
    assert kernel_perft(game, 3) == [20, 400, 8000]


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8])
def test_perft_agrees_with_bitboard(size: int) -> None:
    rng = random.Random(size * 7)
    depth = 4 if size <= 5 else 3
    games = [repetition_rich()] if size == 4 else []
    for i in range(4):
        game = Pousse.new({"size": size})
        game.advance(rng, rng.randrange(5, 60) if i else 0)
        games.append(game)
    for game in games:
        assert kernel_perft(game, depth) == kernel_perft(game, depth, bitboard), game.to_native()
