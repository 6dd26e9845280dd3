"""The Footer at 80 columns (issue 23): on every screen, for every game, its keys fit the
width whole (none cut, none under another), and the keys that matter are there: ctrl+q
quits everywhere, `?` (every key) on the game screen, the end keys once a game is over."""

from __future__ import annotations

import random

import pytest

from rules import PlayerSpec, TimeControl, game_names
from tests.tui.test_app import own_saves_folder  # noqa: F401 - the fixture
from tests.tui.test_replay import finished, saved
from tui.app import ArenaApp
from tui.screens.common import KeyFooter
from tui.screens.dialogs import ResultScreen
from tui.screens.game import GameScreen
from tui.screens.menu import MenuScreen
from tui.screens.replay import ReplayScreen
from tui.screens.setup import SetupScreen

SIZE = (80, 24)
WATCHED = (PlayerSpec("random"), PlayerSpec("greedy"))  # no person plays: the pace keys


def footer_keys(app: ArenaApp) -> list[str]:
    """The keys the current screen's footer shows ("u Undo"...), after checking that each
    is drawn whole inside the width and none overlaps another."""
    footer = app.screen.query_one(KeyFooter)
    keys = list(footer.children)
    regions = [key.region for key in keys]
    width = app.size.width
    for region in regions:
        assert region.width > 0 and 0 <= region.x and region.right <= width, region
    for a, b in zip(regions, regions[1:], strict=False):
        assert a.right <= b.x, (a, b)
    assert footer.virtual_size.width <= width  # nothing scrolled out of sight
    return [f"{key.key_display} {key.description}" for key in keys]


async def settle(pilot) -> None:
    for _ in range(3):
        await pilot.pause()


def test_players_that_need_nobody() -> None:
    assert all(p.is_built_in for p in WATCHED)


async def test_the_menu_and_every_setup_fit_80_columns(tmp_path) -> None:
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        keys = footer_keys(app)
        assert "^q Quit" in keys and any(k.startswith("l ") for k in keys)
        for index, _name in enumerate(game_names()):
            app.screen.query_one("#games").highlighted = index
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, SetupScreen)
            keys = footer_keys(app)
            assert {"esc Back", "^s Start", "^q Quit"} <= set(keys)
            await pilot.press("escape")
            await settle(pilot)


@pytest.mark.parametrize("name", game_names())
async def test_a_game_being_played_fits_80_columns(name: str, tmp_path) -> None:
    players = [PlayerSpec.human()] * 2
    app = ArenaApp(name, players=players, save_dir=tmp_path, clocks_running=False,
                   now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        keys = footer_keys(app)
        assert {"u Undo", "h Hint", "s Save", "n New", "? Help", "^q Quit"} <= set(keys)
        # the board's own keys come first (a box size, a joker)
        board = [b.description for b in type(app.screen.board).BINDINGS if b.show]
        assert all(any(k.endswith(f" {d}") for k in keys) for d in board)


@pytest.mark.parametrize("name", game_names())
async def test_a_finished_watched_game_and_its_replay_fit_80_columns(name: str,
                                                                     tmp_path) -> None:
    path = saved(finished(name, players=WATCHED, control=TimeControl.none()), tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if isinstance(app.screen, ResultScreen):
            await pilot.press("escape")
            await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        keys = footer_keys(app)
        assert {"u Undo", "n New", "g Result", "v Replay", "? Help", "^q Quit"} <= set(keys)
        assert not any("Pace" in k for k in keys)  # no moves come any more
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, ReplayScreen)
        keys = footer_keys(app)
        assert {"← Back", "→ Forward", "c Continue", "esc Game", "^q Quit"} <= set(keys)


async def test_a_watched_game_in_play_shows_its_pace(tmp_path) -> None:
    name = game_names()[0]
    app = ArenaApp(name, players=list(WATCHED), save_dir=tmp_path, clocks_running=False,
                   now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and not screen.session.game.is_over
        keys = footer_keys(app)
        assert "+/- Pace" in keys and "^q Quit" in keys


async def test_a_narrower_footer_keeps_help_and_quit(tmp_path) -> None:
    name = random.Random(0).choice(game_names())
    app = ArenaApp(name, players=[PlayerSpec.human()] * 2, save_dir=tmp_path,
                   clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=(60, 24)) as pilot:
        await settle(pilot)
        keys = [k.key_display for k in app.screen.query_one(KeyFooter).children]
        assert keys[-2:] == ["?", "^q"]
