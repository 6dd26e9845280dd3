"""Helpers shared by the whole suite: every registered game, random positions; and, when
the suite runs on several workers (pytest-xdist), the kernels compiled once before they
start.

A test that takes a `game_name` argument runs once for every game in
`rules.GAMES`: that is how the conformance suite covers a new game without
a line of test code.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pytest
import textual
import textual.app
from textual.app import App, ComposeResult

from rules import Game, game_names, get_game
from tui.widgets.boards import board_class
from tui.widgets.boards.grid import GridBoard

ROOT = Path(__file__).resolve().parents[1]
KEY_GRAIN = 1 / 200  # seconds: the idle check between the keys a Pilot presses
PAUSE_GRAIN = 1 / 50  # seconds: Textual's own, for pilot.pause()
# The Textual versions the idle patch below was tested with (pyproject.toml bounds the same)
TEXTUAL_TESTED = ((0, 80), (8, 2))
WARM_UP_TIMEOUT = 1200  # seconds for one game's kernels, cold, on a loaded machine

# The suite runs the kernels through Numba's JIT (compiled once, cached): a native build
# is a minute of compiling per game. The native path has its own tests, which turn it on.
os.environ.setdefault("ARENA_NATIVE", "0")


async def _idle(min_sleep: float, max_sleep: float, grain: float) -> None:
    """Sleep `grain` at a time until the event loop's thread spent no CPU over a sleep
    (after `min_sleep`, at most `max_sleep`). Textual measures the whole process, so a
    search running in a worker thread kept every key press and pause waiting its full
    second; what the tests wait for is the loop having handled its messages."""
    start = time.monotonic()
    while True:
        cpu = time.thread_time()
        await asyncio.sleep(grain)
        elapsed = time.monotonic() - start
        if elapsed >= max_sleep or (elapsed > min_sleep
                                    and time.thread_time() - cpu < grain / 20):
            return


async def _idle_between_keys(min_sleep: float = 0.0, max_sleep: float = 1.0) -> None:
    """For the keys a Pilot presses: Textual sleeps 1/50 s twice after every key; the app
    tests press thousands of keys, and a 5 ms grain takes minutes off the suite."""
    await _idle(min_sleep, max_sleep, KEY_GRAIN)


async def _idle_for_pause(min_sleep: float = PAUSE_GRAIN, max_sleep: float = 1.0) -> None:
    """For `pilot.pause()` and friends: Textual's grain, which outlasts a screen refresh
    (1/60 s) so that what the refresh posts has been handled."""
    await _idle(min_sleep, max_sleep, PAUSE_GRAIN)


def _patch_textual_idle() -> None:
    """Replace the private `wait_for_idle` (Textual's `_wait` module) where `textual.app`
    (pressing keys) and `textual.pilot` (pauses) use it, refusing a Textual it was not
    tested with in one line."""
    from textual import _wait, pilot

    if getattr(textual.app.wait_for_idle, "arena_patch", False):
        return  # patched already (a test module imported this file as tests.conftest)
    version = getattr(textual, "__version__", "0")
    found = tuple(int(part) for part in version.split(".")[:2] if part.isdigit())
    low, high = TEXTUAL_TESTED
    if (not low <= found <= high or textual.app.wait_for_idle is not _wait.wait_for_idle
            or pilot.wait_for_idle is not _wait.wait_for_idle):
        raise pytest.UsageError(
            f"Textual {version} is not one the tests' idle patch was tested with "
            f"({'.'.join(map(str, low))} to {'.'.join(map(str, high))}.x, where "
            "textual.app's and textual.pilot's wait_for_idle are textual._wait's): "
            "install a version in that range, or update tests/conftest.py")
    _idle_between_keys.arena_patch = True  # type: ignore[attr-defined]
    textual.app.wait_for_idle = _idle_between_keys
    pilot.wait_for_idle = _idle_for_pause


_patch_textual_idle()


# ----- the kernels, compiled once for every worker ---------------------------------------


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: half as many workers again as there are cores. A quarter of a worker's
    time goes to waiting (programs that hang on purpose, clocks, pauses), which a third
    worker on two cores fills: the suite took 257 s instead of 328 s (warm kernels)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    return cores + max(1, cores // 2)


RUN_BEGAN = time.monotonic()  # this process's start, near enough: the run's whole time
WARM_UP = pytest.StashKey[dict]()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """In the xdist controller, as its workers start: compile every game's kernels into
    the JIT cache the workers share (ARENA_CACHE_DIR), else each worker's first test of a
    game would compile them again (10-20 s a game, cold). One process a game, all started
    together, so the OS shares the cores among them; the workers start up and collect
    meanwhile, and no test is handed out until the kernels are ready
    (`pytest_xdist_node_collection_finished`). Not in the workers, and not in a run
    without workers (its tests compile what they use, as they go)."""
    config = session.config
    if hasattr(config, "workerinput") or not config.pluginmanager.has_plugin("dsession"):
        return
    code = "import sys\nfrom ai.engine import get_engine\nget_engine(sys.argv[1]).warm_up()\n"
    # every process checks the cache before any of them writes to it (a check that saw
    # another one's half-sealed files would set the whole cache aside)
    config.stash[WARM_UP] = {
        name: subprocess.Popen([sys.executable, "-c", code, name], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for name in game_names()}


def pytest_xdist_node_collection_finished(node: Any, ids: object) -> None:
    """The first worker to finish collecting waits for the kernels: xdist schedules no
    test before this hook returns."""
    finish_warm_up(node.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    finish_warm_up(session.config)  # a run that ended before any worker collected


def finish_warm_up(config: pytest.Config) -> None:
    """Wait for the warm-up processes (once) and say how it went."""
    from ai import numba_cache

    runs = config.stash.get(WARM_UP, {})
    if not runs:
        return
    config.stash[WARM_UP] = {}
    reporter = config.pluginmanager.get_plugin("terminalreporter")
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
        reporter.write_line(f"arena: kernels of {len(runs)} games ready "
                            f"{time.monotonic() - RUN_BEGAN:.0f} s into the run ({folder})")
        for line in failed:  # the tests that need them compile and fail on their own
            reporter.write_line(f"arena: warm-up failed for {line}", red=True)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """pytest's own figure starts after the warm-up began; this one is the whole run."""
    if not hasattr(terminalreporter.config, "workerinput"):
        terminalreporter.write_line(
            f"arena: the whole run took {time.monotonic() - RUN_BEGAN:.1f} s")


# ----- the garbage collector ---------------------------------------------------------------
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before each test, collect and then freeze what is alive: the modules, Numba's
    compiled kernels and Textual's classes stay out of every later collection (a freeze
    is cheap once the earlier ones hold nearly everything). Unfrozen, each full
    collection walked them all: 59 of them, 18 of the 69 s of tests/tui/test_app.py."""
    gc.collect()
    gc.freeze()


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
