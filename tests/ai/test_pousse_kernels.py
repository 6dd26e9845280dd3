"""Pousse kernels against the rules: boards, results, hashes and perft on random games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ai.engine import new_engine
from ai.perft import reference_perft
from ai.pousse import kernels as pk
from ai.pousse.adapter import KernelPosition, move_index
from rules import Termination
from rules.pousse import SIDES, Pousse

CODES = str.maketrans({".": "\x00", "X": "\x01", "O": "\x02"})


def kernel_bytes(game: Pousse) -> bytes:
    """The rules board as the kernel's int8 board bytes (0 empty, 1 X, 2 O)."""
    return "".join(game.board).translate(CODES).encode()


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


def check_position(game: Pousse) -> int:
    """Compare every move from this position (kernel make/unmake vs rules play)."""
    pos = KernelPosition.load(game)
    assert pos.board.tobytes() == kernel_bytes(game)
    expected = game.outcome.winner if game.outcome else -1
    assert pos.winner == expected
    if game.is_over:
        return 1
    n = game.size
    assert [move_index(n, m) for m in game.legal_moves()] == list(range(4 * n))
    before = pos.board.tobytes() + pos.lc.tobytes() + pos.st.tobytes()
    lc, st = np.zeros_like(pos.lc), np.zeros_like(pos.st)
    for move in game.legal_moves():
        m = move_index(n, move)
        h2, k, removed = pk.make(pos.board, n, m, pos.side + 1, pos.lc, pos.st, pk.ZOBRIST, pos.h)
        cnt2 = pos.cnt + (1 if removed == 0 else 0)
        winner = pk.result(pos.side, h2, cnt2, pos.st, pos.path_h, pos.path_c, pos.t + 1)
        game.play(move)
        assert pos.board.tobytes() == kernel_bytes(game), game.move_text(move)
        assert winner == (game.outcome.winner if game.outcome else -1), game.move_text(move)
        assert tuple(pos.st[1:]) == game.scores()
        # the incremental hash and line counts equal a fresh computation
        assert pk.init_state(pos.board.copy(), n, 1 - pos.side, lc, st, pk.ZOBRIST) == h2
        assert lc.tobytes() + st.tobytes() == pos.lc.tobytes() + pos.st.tobytes()
        game.undo()
        h = pk.unmake(pos.board, n, m, k, removed, pos.lc, pos.st, pk.ZOBRIST, h2)
        assert h == pos.h
        assert pos.board.tobytes() + pos.lc.tobytes() + pos.st.tobytes() == before
    return 1


@pytest.mark.parametrize(("size", "count", "max_moves"), [
    (4, 40, 60), (5, 20, 60), (6, 16, 60), (7, 8, 60), (8, 8, 60), (20, 2, 50)])
def test_kernels_match_rules_on_random_games(size: int, count: int, max_moves: int) -> None:
    rng = random.Random(size * 101)
    positions = 0
    repeated = 0
    for game in random_games(rng, size, count, max_moves):
        repeated += bool(game.outcome and game.outcome.kind is Termination.REPETITION)
        moves = list(game.history)
        final = kernel_bytes(game), game.outcome.winner if game.outcome else -1
        while True:
            positions += check_position(game)
            if not game.history:
                break
            game.undo()
        # the kernel's replay of the whole game from the start ends where the rules did
        n = game.size
        board = np.zeros(n * n, dtype=np.int8)
        path_h = np.zeros(len(moves) + 1, dtype=np.uint64)
        path_c = np.zeros(len(moves) + 1, dtype=np.int32)
        winner = pk.replay(board, n, np.array([move_index(n, m) for m in moves], np.int32),
                           np.zeros((3, 2 * n), np.int16), np.zeros(3, np.int32), pk.ZOBRIST,
                           path_h, path_c)
        assert (board.tobytes(), int(winner)) == final
    # enough positions overall (>= 2,000 across the sizes) and repetition endings seen
    assert positions >= {4: 500, 5: 400, 6: 400, 7: 300, 8: 300, 20: 100}[size]
    if size <= 6:
        assert repeated > 0


@pytest.mark.parametrize(("native", "depth"), [
    ("4\n", 3),
    ("4\nL2\nT2\nL2\nB2\nR2\n", 3),
    ("4\nL1\nL1\nL1\nL1\nR2\nR2\nR2\nR2\nL1\n", 3),
    ("6\nL1\nT2\nR3\nB4\n", 2),
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


def test_zobrist_is_fixed_and_side_sensitive() -> None:
    assert pk.ZOBRIST.dtype == np.uint64 and pk.ZOBRIST.shape == (400, 3)
    assert len(set(pk.ZOBRIST.ravel().tolist())) == pk.ZOBRIST.size
    board = np.zeros(16, dtype=np.int8)
    lc, st = np.zeros((3, 8), dtype=np.int16), np.zeros(3, dtype=np.int32)
    assert pk.init_state(board, 4, 0, lc, st, pk.ZOBRIST) != pk.init_state(
        board, 4, 1, lc, st, pk.ZOBRIST)
