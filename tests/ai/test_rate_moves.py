"""`Engine.rate_moves`, what the board's AI view shades: every legal move scored at the
deepest depth the time allows, the proven ones named, a stop honoured."""

from __future__ import annotations

import random
import time

from conftest import new_game, play_out

from ai.engine import StopFlag, get_engine


def test_every_move_is_scored_and_a_solved_position_is_proven() -> None:
    engine = get_engine("pahtum")
    game = new_game("pahtum", seed=1)
    rated = engine.rate_moves(game, 0.3)
    assert rated is not None and rated.depth >= 1
    assert set(rated.scores) == set(game.legal_moves()) and not rated.proven
    # three empty cells left: solved at once, every move proven
    end = play_out(new_game("pahtum", seed=1), random.Random(2))
    for _ in range(3):
        end.undo()
    rated = engine.rate_moves(end, 0.3)
    assert rated is not None and rated.proven == frozenset(end.legal_moves())


def test_a_stop_ends_it_at_once() -> None:
    engine = get_engine("pahtum")
    stop = StopFlag()
    stop.set()
    began = time.perf_counter()
    assert engine.rate_moves(new_game("pahtum", seed=1), 5.0, stop) is None
    assert time.perf_counter() - began < 1.0
