"""SVG snapshots at 80x24 of Pillars games: the start with a corner anchored and the rectangle
previewed, and a mid-game with both sides' tiles, blue's joker claimed and an illegal preview.

Hot-seat, frozen clocks, no AI: the pictures depend only on the keys pressed.
"""

from __future__ import annotations

import pytest

from rules import PlayerSpec
from rules.pillars import COLS, ROWS
from tui.app import ArenaApp

SIZE = (80, 24)
PLAYERS = (PlayerSpec.human("Ann"), PlayerSpec.human("Bob"))
SEED = 5  # pillars Ac Bd Cb Da Ei Fh Gg Hf Ie Jj
HOME = "Ff"  # where the cursor starts


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves, setup choices and saves of these tests never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def frozen_app() -> ArenaApp:
    return ArenaApp("pillars", players=PLAYERS, seed=SEED, clocks_running=False,
                    now=lambda: 0.0)


def walk(steps: list[str]) -> list[str]:
    """Arrow keys from Ff through the cells in `steps` (straight, no wrapping), Enter on
    each; a step "j" presses j, and a cell written "Bh?" is reached without Enter."""
    keys, here = [], HOME
    for step in steps:
        if step == "j":
            keys.append("j")
            continue
        name = step.rstrip("?")
        (r, c), (tr, tc) = [(ROWS.index(n[0]), COLS.index(n[1])) for n in (here, name)]
        keys += ["down" if tr > r else "up"] * abs(tr - r)
        keys += ["right" if tc > c else "left"] * abs(tc - c)
        keys += [] if step.endswith("?") else ["enter"]
        here = name
    return keys


def test_pillars_start_with_a_corner_anchored(snap_compare) -> None:
    # red anchors Ef; the cursor on Bh previews BfEh (12 cells)
    assert snap_compare(frozen_app(), press=walk(["Ef", "Bh?"]), terminal_size=SIZE)


def test_pillars_mid_game_with_a_joker_and_an_illegal_preview(snap_compare) -> None:
    # red BfEh, blue !GiIj (its joker, worth 9), red EaFe, blue JaJd (the last move, in
    # reverse); red anchors Gc and the cursor on Ie previews GcIe: Ie is a pillar
    steps = ["Ef", "Bh", "j", "Gi", "Ij", "Ea", "Fe", "Ja", "Jd", "Gc", "Ie?"]
    assert snap_compare(frozen_app(), press=walk(steps), terminal_size=SIZE)
