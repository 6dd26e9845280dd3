"""Which engine a contest move uses, and the fast path that starts it: the native kernels
when they are built; else the quick search while a detached process builds them; the JIT
only with native modules off or unbuildable. A compile never happens inside a move."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ai import native
from ai.jit import JitError
from rules import get_game
from rules.pahtum import SAMPLE_BOARD
from tests.processes import eventually_none, running
from tui import cli as launch
from tui.play import contest

ROOT = Path(__file__).resolve().parents[2]


class Jit:
    def choose(self, game, level, seconds=None):  # noqa: ANN001, ANN201
        raise AssertionError("the JIT must not be used here")


def test_without_native_kernels_a_move_is_quick_and_a_build_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_NATIVE", "1")
    started: list[str] = []
    monkeypatch.setattr(native, "ready", lambda game: False)
    monkeypatch.setattr(native, "failed", lambda game: None)
    monkeypatch.setattr(native, "build_in_background", started.append)
    engine = contest.contest_engine("pahtum", 0.2, Jit)
    assert isinstance(engine, contest.QuickChooser) and started == ["pahtum"]
    game = get_game("pahtum").from_native(SAMPLE_BOARD)
    began = time.perf_counter()
    move = engine.choose(game, "max", 0.2).move
    assert move in game.legal_moves() and time.perf_counter() - began < 0.4


def test_where_native_kernels_cannot_be_built_the_warm_jit_serves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ai import numba_cache

    monkeypatch.setenv("ARENA_NATIVE", "1")
    monkeypatch.setattr(native, "ready", lambda game: False)
    monkeypatch.setattr(native, "failed", lambda game: "no C compiler")
    monkeypatch.setattr(native, "build_in_background", lambda game: False)
    monkeypatch.setattr(numba_cache, "is_compiled", lambda game: True)
    jit = Jit()
    assert contest.contest_engine("pahtum", 0.2, lambda: jit) is jit
    monkeypatch.setattr(numba_cache, "is_compiled", lambda game: False)
    assert isinstance(contest.contest_engine("pahtum", 0.2, lambda: jit),
                      contest.QuickChooser)  # a cold JIT would compile in the move


def test_with_native_modules_off_the_jit_is_the_engine(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setenv("ARENA_NATIVE", "0")
    jit = Jit()
    assert contest.contest_engine("pahtum", 0.2, lambda: jit) is jit


def test_a_contest_engine_faults_its_tables_in_as_it_searches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every protocol's engine (a session's too) leaves its tables' pages for the search
    to fault in: touching Pillars's 72 MiB at start-up took up to 150 ms of a first move."""
    from ai import adapter

    monkeypatch.setenv("ARENA_NATIVE", "0")
    monkeypatch.setattr(adapter, "TOUCH_TABLES", [True])
    engine = contest.contest_engine("pillars", 1.0, lambda: Jit())
    assert isinstance(engine, Jit) and adapter.TOUCH_TABLES == [False]


def test_a_move_too_short_to_load_the_kernels_in_is_the_quick_searchs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a process that has had a third of a core so far would take three times the kernels'
    # CPU cost to load them: a move with less time than that is searched without them
    monkeypatch.setenv("ARENA_NATIVE", "0")
    monkeypatch.delitem(sys.modules, "numpy")
    cpu = sum(os.times()[:2])
    monkeypatch.setattr(contest, "process_age", lambda: 3 * cpu)
    # the CPU clock may tick between the two readings (10 ms): three times, near enough
    assert contest.kernel_load_seconds() == pytest.approx(3 * contest.KERNEL_LOAD_CPU, rel=0.02)
    jit = Jit()
    edge = 3 * contest.KERNEL_LOAD_CPU + contest.MIN_KERNEL_SEARCH
    assert isinstance(contest.contest_engine("pahtum", edge - 0.01, lambda: jit),
                      contest.QuickChooser)
    assert contest.contest_engine("pahtum", edge + 0.01, lambda: jit) is jit
    assert contest.contest_engine("pahtum", None, lambda: jit) is jit


def test_a_native_engine_that_needs_the_jit_answers_with_the_quick_search() -> None:
    class NeedsJit:
        def choose(self, game, level, seconds=None):  # noqa: ANN001, ANN201
            raise JitError("a kernel is not native")

    game = get_game("pahtum").from_native(SAMPLE_BOARD)
    result = contest.Fallback(NeedsJit()).choose(game, "max", 0.1)
    assert result.move in game.legal_moves()


@pytest.mark.parametrize(("args", "parsed"), [
    (["pahtum"], ("pahtum", [], "max", None)),
    (["boxing", "A", "--time", "0.5"], ("boxing", ["A"], "max", "0.5")),
    (["--level=easy", "loaps", "/tmp/f", "--time=2"], ("loaps", ["/tmp/f"], "easy", "2")),
    (["pousse", "--", "-x"], ("pousse", ["-x"], "max", None)),
    (["pahtum", "--help"], None), (["pahtum", "--time"], None), ([], None),
    (["pahtum", "--time", "soon"], None), (["pahtum", "-v"], None),
])
def test_the_fast_path_reads_plain_move_lines_and_leaves_the_rest_to_the_cli(
        args: list[str], parsed: tuple | None) -> None:
    assert launch.parse_move(args) == parsed


def test_a_cold_cache_answers_inside_the_clock_and_builds_detached(tmp_path: Path) -> None:
    """A real `arena move` on an empty cache: the quick search answers within --time,
    and the native build runs on in its own session after the move has exited."""
    env = dict(os.environ, ARENA_NATIVE="1", ARENA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(ROOT))
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "tui.cli", "move", "pahtum", "--time",
                           "1"], input=SAMPLE_BOARD, capture_output=True, text=True,
                          env=env, timeout=60)
    wall = time.monotonic() - began
    marker = "--background"  # (a command line's words are NUL-separated in /proc)
    try:
        assert done.returncode == 0, done.stderr
        assert len(done.stdout) == 56 and wall < 2.0  # 1 s, with room for a busy machine
        builds = running(marker)
        assert builds, "no build started"
        assert os.getsid(builds[0]) == builds[0]  # a session of its own
    finally:
        for pid in running(marker):
            os.kill(pid, 9)
        assert eventually_none(lambda: running(marker))
