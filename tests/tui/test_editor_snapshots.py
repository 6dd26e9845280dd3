"""SVG snapshots of the position editor: Pah-Tum with the rules' reason for an illegal
position, LOAPS with its fields and Boxing with an area being filled at 80x24, and
Pillars with rectangles and a joker at 120x40. No clock or AI runs in the editor: the
pictures depend only on the keys pressed."""

from __future__ import annotations

import pytest

from rules import game_names
from tui.app import ArenaApp


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def editor(game_name: str) -> list[str]:
    """The keys from the menu to the editor of `game_name`."""
    return ["d", *["down"] * game_names().index(game_name), "enter"]


def app() -> ArenaApp:
    return ArenaApp(clocks_running=False, now=lambda: 0.0)


def test_pahtum_illegal_letters(snap_compare) -> None:
    # X on D4 and D5, no O: the rules' reason in the status line
    keys = [*editor("pahtum"), "3", "enter", "right", "enter"]
    assert snap_compare(app(), press=keys, terminal_size=(80, 24))


def test_loaps_fields(snap_compare) -> None:
    # a red piece taken off b7: blue has made no move to capture it
    keys = [*editor("loaps"), "up", "up", "up", "left", "left", "enter"]
    assert snap_compare(app(), press=keys, terminal_size=(80, 24))


def test_boxing_filling_an_area(snap_compare) -> None:
    # fill mode, mark A: one corner anchored, the cursor three cells right and two down
    keys = [*editor("boxing"), "f", "3", "enter", "right", "right", "right", "down", "down"]
    assert snap_compare(app(), press=keys, terminal_size=(80, 24))


def test_pillars_rectangles_and_a_joker_at_120x40(snap_compare) -> None:
    # from Ff (a pillar on the diagonal): red fills FgFh, blue GaGc and claims the joker
    # with it (its first move: worth 9)
    keys = [*editor("pillars"), "3", "right", "enter", "right", "enter",
            "down", *["left"] * 5, "enter", "left", "left", "enter", "4", "enter"]
    assert snap_compare(app(), press=keys, terminal_size=(120, 40))
