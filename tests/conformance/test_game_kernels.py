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
    positions = [new_game(game_name, 0)] + [random_position(game_name, s) for s in range(12)]
    for game in positions:
        counts = engine.perft(game, DEPTH)
        depth = max([1] + [d for d in range(1, DEPTH + 1) if counts[d - 1] <= LEAVES])
        want = reference_perft(game.copy(), depth)
        assert counts[:depth] == want, game.to_native()
        assert sum(want) > 0
