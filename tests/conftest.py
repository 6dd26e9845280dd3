"""Helpers shared by the whole suite: every registered game, random positions; and, when
the suite runs on several workers (pytest-xdist), the kernels compiled once before they
start.

A test that takes a `game_name` argument runs once for every game in
`rules.GAMES`: that is how the conformance suite covers a new game without
a line of test code.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Hashable
from pathlib import Path

import pytest
import textual
import textual.app
from textual.app import App, ComposeResult

from rules import Game, game_names, get_game
from tui.widgets.boards import board_class
from tui.widgets.boards.grid import GridBoard

ROOT = Path(__file__).resolve().parents[1]
KEY_GRAIN = 1 / 200  # seconds: the idle check between the keys a Pilot presses
# The Textual versions the idle patch below was tested with (pyproject.toml bounds the same)
TEXTUAL_TESTED = ((0, 80), (8, 2))
WARM_UP_TIMEOUT = 1200  # seconds for one game's kernels, cold, on a loaded machine

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


def _patch_textual_idle() -> None:
    """Replace the private `textual.app.wait_for_idle` (Textual's `_wait` module, used by
    `App._press_keys` alone), refusing a Textual it was not tested with in one line."""
    from textual import _wait

    if getattr(textual.app.wait_for_idle, "arena_patch", False):
        return  # patched already (a test module imported this file as tests.conftest)
    version = getattr(textual, "__version__", "0")
    found = tuple(int(part) for part in version.split(".")[:2] if part.isdigit())
    low, high = TEXTUAL_TESTED
    if not low <= found <= high or textual.app.wait_for_idle is not _wait.wait_for_idle:
        raise pytest.UsageError(
            f"Textual {version} is not one the tests' idle patch was tested with "
            f"({'.'.join(map(str, low))} to {'.'.join(map(str, high))}.x, where "
            "textual.app.wait_for_idle is textual._wait's): install a version in that "
            "range, or update tests/conftest.py")
    _idle_between_keys.arena_patch = True  # type: ignore[attr-defined]
    textual.app.wait_for_idle = _idle_between_keys


_patch_textual_idle()


# ----- the kernels, compiled once for every worker ---------------------------------------


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """In the xdist controller, before its workers start: compile every game's kernels
    into the JIT cache the workers share (ARENA_CACHE_DIR), else each worker's first test
    of a game would compile them again (10-60 s a game, cold). One process a game, all
    started together, so the OS shares the cores among them. Not in the workers, and not
    in a run without workers (its tests compile what they use, as they go)."""
    config = session.config
    if hasattr(config, "workerinput") or not config.pluginmanager.has_plugin("dsession"):
        return
    warm_up_kernels(config)


def warm_up_kernels(config: pytest.Config) -> None:
    from ai import numba_cache

    reporter = config.pluginmanager.get_plugin("terminalreporter")
    began = time.monotonic()
    code = "import sys\nfrom ai.engine import get_engine\nget_engine(sys.argv[1]).warm_up()\n"
    # every process checks the cache before any of them writes to it (a check that saw
    # another one's half-sealed files would set the whole cache aside)
    runs = {name: subprocess.Popen([sys.executable, "-c", code, name], cwd=ROOT,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True)
            for name in game_names()}
    failed = []
    for name, run in runs.items():
        try:
            output, _ = run.communicate(timeout=WARM_UP_TIMEOUT)
        except subprocess.TimeoutExpired:
            run.kill()
            output, _ = run.communicate()
        if run.returncode != 0:
            failed.append(f"{name} (exit {run.returncode}): {output.strip()[-1000:]}")
    # two processes sealing the cache at once can leave a stale hash for a file both
    # compiled into (a shared helper); later processes would take it for damage
    folder = Path(os.environ.get("NUMBA_CACHE_DIR") or numba_cache.cache_dir())
    if numba_cache.find_damage(folder) is not None:
        (folder / numba_cache.MANIFEST).unlink(missing_ok=True)
    if reporter is not None:
        reporter.write_line(f"arena: kernels of {len(runs)} games ready in "
                            f"{time.monotonic() - began:.0f} s ({folder})")
        for line in failed:  # the tests that need them compile and fail on their own
            reporter.write_line(f"arena: warm-up failed for {line}", red=True)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_name" in metafunc.fixturenames:
        metafunc.parametrize("game_name", game_names())


def seeded_cache(folder: Path) -> Path:
    """`folder` as an ARENA_CACHE_DIR holding a copy of this run's compiled JIT kernels, so
    that a test needing a kernel cache of its own loads them instead of compiling them
    again (10-60 s a game, cold). The seal is left behind: a copy taken while another
    process adds a kernel would not match it; unsealed, the files are checked for
    wholeness only."""
    from ai import numba_cache

    source = numba_cache.cache_dir()
    target = folder / "numba" / source.name
    if source.is_dir():
        shutil.copytree(source, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(numba_cache.MANIFEST, "*.tmp.*"))
    target.mkdir(parents=True, exist_ok=True)
    return folder


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
