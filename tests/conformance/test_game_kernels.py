"""Every registered game's kernels count the same move trees as its rules (perft)."""

from __future__ import annotations

from conftest import new_game, random_position

from ai.engine import get_engine
from ai.perft import reference_perft

# The reference (pure Python rules) counts to this depth, or less where the tree is wide
# (a Pillars start has 990 moves): the deepest depth with at most LEAVES leaves.
DEPTH = 3
LEAVES = 200_000


def test_kernel_perft_equals_the_rules(game_name: str) -> None:
    engine = get_engine(game_name)
    positions = [new_game(game_name, 0)] + [random_position(game_name, s) for s in range(8)]
    for game in positions:
        counts, depth = engine.perft(game, 1), 1
        for d in range(2, DEPTH + 1):  # deeper only while the tree stays small (a Boxing
            deeper = engine.perft(game, d)  # start's depth 3 is billions of leaves)
            if deeper[d - 1] > LEAVES:
                break
            counts, depth = deeper, d
        want = reference_perft(game.copy(), depth)
        assert counts[:depth] == want, game.to_native()
        assert sum(want) > 0
