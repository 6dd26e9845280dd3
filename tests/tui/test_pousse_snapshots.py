"""SVG snapshots at 80x24 of Pousse games in progress: the smallest and the largest board.

Hot-seat, frozen clocks, no AI: the pictures depend only on the keys pressed.
Read the N=20 picture to see that the whole frame (T/B rows, L/R columns) fits.
"""

from __future__ import annotations

import pytest

from rules import PlayerSpec
from tui.app import ArenaApp

SIZE = (80, 24)
PLAYERS = (PlayerSpec.human("Ann"), PlayerSpec.human("Bob"))


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves, setup choices and saves of these tests never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def frozen_app(size: int) -> ArenaApp:
    return ArenaApp("pousse", options={"size": size}, players=PLAYERS, clocks_running=False,
                    now=lambda: 0.0)


def test_pousse_4_in_progress(snap_compare) -> None:
    # from T2: L1 four times fills row 1 (O X O X), then X and O on L2; the cursor back
    # on L1 previews X pushing the whole row, its last X falling off
    keys = ["left", "left", "enter", "enter", "enter", "enter", "down", "enter", "enter", "up"]
    assert snap_compare(frozen_app(4), press=keys, terminal_size=SIZE)


def test_pousse_20_in_progress(snap_compare) -> None:
    # T10 three times (X O X), O on L20, X on B13, then the cursor on T10 previews O
    # pushing the three markers of column 10 down
    keys = (["enter"] * 3 + ["left"] * 10 + ["down"] * 19 + ["enter", "down"]
            + ["right"] * 12 + ["enter", "down", "left", "left", "left"])
    assert snap_compare(frozen_app(20), press=keys, terminal_size=SIZE)
