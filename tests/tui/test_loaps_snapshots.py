"""SVG snapshots at 80x24 of LOAPS games: the start with a piece chosen, and a mid-game whose
last move captured.

Hot-seat, frozen clocks, no AI: the pictures depend only on the keys pressed.
"""

from __future__ import annotations

import pytest

from rules import PlayerSpec
from rules.loaps import parse_square
from tui.app import ArenaApp

SIZE = (80, 24)
PLAYERS = (PlayerSpec.human("Ann"), PlayerSpec.human("Bob"))
HOME = parse_square("d4")  # where the cursor starts


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves, setup choices and saves of these tests never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def frozen_app() -> ArenaApp:
    return ArenaApp("loaps", players=PLAYERS, clocks_running=False, now=lambda: 0.0)


def walk(squares: list[str]) -> list[str]:
    """Arrow keys from d4 through `squares` (straight, no wrapping), Enter on each."""
    keys, here = [], HOME
    for name in squares:
        there = parse_square(name)
        (r, c), (tr, tc) = divmod(here, 7), divmod(there, 7)
        keys += ["down" if tr > r else "up"] * abs(tr - r)
        keys += ["right" if tc > c else "left"] * abs(tc - c)
        keys.append("enter")
        here = there
    return keys


def test_loaps_start_with_a_piece_chosen(snap_compare) -> None:
    # red's c7 chosen: g7, c5, e5 and a5 (a capture) lit; the cursor on a5 previews +1
    keys = [*walk(["c7"]), "down", "down", "left", "left"]
    assert snap_compare(frozen_app(), press=keys, terminal_size=SIZE)


def test_loaps_mid_game_after_a_capture(snap_compare) -> None:
    # c7 e5, g3xe1, e7 e4, g5 f6, f7 d5, then blue's a3 takes red's c1: x2x on c1, (.) on
    # a3 once the cursor is off c1
    moves = ["c7", "e5", "g3", "e1", "e7", "e4", "g5", "f6", "f7", "d5", "a3", "c1"]
    assert snap_compare(frozen_app(), press=[*walk(moves), "up", "up"], terminal_size=SIZE)
