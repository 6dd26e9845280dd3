"""Every registered game's kernels count the same move trees as its rules (perft)."""

from __future__ import annotations

from conftest import new_game, random_position

from ai.engine import get_engine
from ai.perft import reference_perft

# Depths the reference (pure Python rules) counts in well under a second per position.
DEPTH = 3


def test_kernel_perft_equals_the_rules(game_name: str) -> None:
    engine = get_engine(game_name)
    positions = [new_game(game_name, 0)] + [random_position(game_name, s) for s in range(12)]
    for game in positions:
        want = reference_perft(game.copy(), DEPTH)
        assert engine.perft(game, DEPTH) == want, game.to_native()
        assert sum(want) > 0
