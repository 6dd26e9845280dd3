"""Helpers shared by the whole suite: every registered game, random positions.

A test that takes a `game_name` argument runs once for every game in
`rules.GAMES`: that is how the conformance suite covers a new game without
a line of test code.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Hashable

import pytest
import textual.app
from textual.app import App, ComposeResult

from rules import Game, game_names, get_game
from tui.widgets.boards import board_class
from tui.widgets.boards.grid import GridBoard

KEY_GRAIN = 1 / 200  # seconds: the idle check between the keys a Pilot presses

# The suite runs the kernels through Numba's JIT (compiled once, cached): a native build
# is a minute of compiling per game. The native path has its own tests, which turn it on.
os.environ.setdefault("ARENA_NATIVE", "0")


async def _idle_between_keys(min_sleep: float = 0.0, max_sleep: float = 1.0) -> None:
    """Textual's `wait_for_idle` at a finer grain, for the keys a Pilot presses only.

    Textual sleeps 1/50 s twice after every key until no CPU was spent over a sleep; the
    app tests press thousands of keys, and a 5 ms grain (idle still means no CPU spent)
    takes minutes off the suite. `pilot.pause()` keeps Textual's grain: it must outlast
    a screen refresh (1/60 s) so what the refresh posts has been handled."""
    start = time.monotonic()
    while True:
        cpu = time.process_time()
        await asyncio.sleep(KEY_GRAIN)
        elapsed = time.monotonic() - start
        if elapsed >= max_sleep or (elapsed > min_sleep
                                    and time.process_time() - cpu < KEY_GRAIN / 20):
            return


textual.app.wait_for_idle = _idle_between_keys  # used by App._press_keys alone


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_name" in metafunc.fixturenames:
        metafunc.parametrize("game_name", game_names())


def new_game(name: str, seed: int = 0) -> Game:
    """A fresh game with its default options (a seeded start where the game has one)."""
    return get_game(name).new(None, seed=seed)


def random_position(name: str, seed: int, plies: int | None = None) -> Game:
    """A seeded position reached by random legal moves that do not end the game.

    `plies` None picks a random length; a game whose every move ends it stops early.
    """
    rng = random.Random(seed)
    game = new_game(name, seed)
    game.advance(rng, rng.randrange(0, 40) if plies is None else plies)
    return game


def play_out(game: Game, rng: random.Random, limit: int = 2000) -> Game:
    """Random legal moves to the end of the game (or `limit` moves)."""
    while not game.is_over and limit > 0:
        game.play(rng.choice(game.legal_moves()))
        limit -= 1
    return game


class Host(App):
    """One board and nothing else; it records the board's messages."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.board = board_class(game.name)(id="board")
        self.game = game
        self.picked: list[Hashable] = []

    def compose(self) -> ComposeResult:
        yield self.board

    def on_mount(self) -> None:
        self.board.set_game(self.game)
        self.board.focus()

    def on_grid_board_move_picked(self, message: GridBoard.MovePicked) -> None:
        self.picked.append(message.move)
