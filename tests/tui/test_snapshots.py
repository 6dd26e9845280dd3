"""SVG snapshots at 80x24: the menu, the first game's setup screen, and a seeded hot-seat game
in progress (no clocks ticking, no AI)."""

from __future__ import annotations

import pytest

from rules import PlayerSpec
from tui.app import ArenaApp

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves, setup choices and saves of these tests never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def frozen_app(game: str | None = None, **kw) -> ArenaApp:
    # a frozen time source and no ticking: the picture never depends on the wall clock
    return ArenaApp(game, clocks_running=False, now=lambda: 0.0, **kw)


def test_menu(snap_compare) -> None:
    assert snap_compare(frozen_app(), terminal_size=SIZE)


def test_setup(snap_compare) -> None:
    assert snap_compare(frozen_app(), press=["enter"], terminal_size=SIZE)


def test_hot_seat_game_in_progress(snap_compare) -> None:
    app = frozen_app("pahtum", options={"blocks": "7"}, seed=11,
                     players=(PlayerSpec.human("Ann"), PlayerSpec.human("Bob")))
    # X D4, O C4, X D5, O C5, X D3 (a scoring run D3-D5), then the cursor down to E3
    keys = ["enter", "up", "enter", "down", "right", "enter", "up", "enter",
            "down", "left", "left", "enter", "down"]
    assert snap_compare(app, press=keys, terminal_size=SIZE)
