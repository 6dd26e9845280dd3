"""Boxing's exact depths spend their time where the move is chosen: depth 2's solves and
depth 3's look at the replies take the candidates in the play-outs' order of preference,
and depth 3 starts even after the engine's usual last
start (it keeps to a deadline of its own)."""

from __future__ import annotations

import numpy as np
import pytest

from ai.adapter import NEXT_DEPTH_SHARE
from ai.boxing import adapter as A
from ai.boxing import grundy as G
from ai.engine import Budget, Engine, new_engine
from rules.boxing import CELLS, WIDTH, Boxing

STOP = np.zeros(1, np.int32)


@pytest.fixture(scope="module")
def engine() -> Engine:
    fresh = new_engine("boxing")
    fresh.warm_up()
    return fresh


def line_and_square() -> Boxing:
    """A 30-cell line (over every cap) beside a 2x2 square: no move wins at depth 2, so
    depth 3 looks at the replies."""
    cells = ["o"] * CELLS
    for i in (*range(30), 2 * WIDTH, 2 * WIDTH + 1, 3 * WIDTH, 3 * WIDTH + 1):
        cells[i] = "-"
    return Boxing(start="".join(cells))


def recorder(monkeypatch: pytest.MonkeyPatch, name: str) -> list[np.ndarray]:
    """Record the position of every call of grundy's `name` from the adapter."""
    calls: list[np.ndarray] = []
    kernel = getattr(G, name)

    def wrapped(rows, cap, *rest):
        calls.append(rows.copy())
        return kernel(rows, cap, *rest)

    monkeypatch.setattr(G, name, wrapped)
    return calls


def test_depths_2_and_3_take_the_preferred_move_first(engine: Engine,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    adapter = engine.adapter
    assert isinstance(adapter, A.BoxingAdapter)
    pos = adapter.load(line_and_square())
    budget = Budget(seconds=60.0, max_depth=3)
    adapter.next_depth(pos, 0, budget)
    assert adapter.search_depth(pos, 1, STOP, False).completed
    # make a move the play-outs like least (the last candidate) the preferred one
    favourite = pos.n - 1
    pos.visits[favourite] = pos.visits.max() + 10
    solves = recorder(monkeypatch, "position_xor")
    assert adapter.search_depth(pos, 2, STOP, False).completed
    assert len(solves) == len(pos.codes)  # every move, the candidates first
    assert np.array_equal(solves[0], pos.kids[pos.pool[favourite]])
    assert pos.losing is not None and not pos.losing[favourite]
    assert adapter.last_start(pos, 2) == 1.0 - A.DEEPEN_SHARE > NEXT_DEPTH_SHARE
    replies = recorder(monkeypatch, "reply_wins")
    assert adapter.search_depth(pos, 3, STOP, False).completed
    assert np.array_equal(replies[0], pos.kids[pos.pool[favourite]])
    assert len(replies) > 1
    assert pos.deepened and adapter.last_start(pos, 3) == NEXT_DEPTH_SHARE


def test_three_players_keep_the_usual_last_start(engine: Engine) -> None:
    pos = engine.adapter.load(Boxing.new({"arena": "sample", "players": 3}))
    assert engine.adapter.last_start(pos, 2) == NEXT_DEPTH_SHARE


def test_the_engine_asks_the_adapter_when_to_stop_deepening(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Boxing.new(seed=3)
    assert engine.choose(game, "max", 0.5).depth > 1
    monkeypatch.setattr(A.BoxingAdapter, "last_start", lambda self, pos, depth: 0.0)
    assert engine.choose(game, "max", 0.5).depth == 1
