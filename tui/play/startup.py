"""`arena bench GAME --startup`: whole `arena move` processes, timed from outside.

Each run starts `arena move GAME` on the game's first bench position in its own protocol
(the position on stdin, a position file, or a whole-game session that is told `Start`
and then `Quit`) and measures, on the monotonic clock every process shares:

- start-up: from just before the process is created to the first search (the child says
  when, with ARENA_TRACE_STARTUP set);
- wall: from the same moment to the process's exit, for each `--time T` asked.

No Textual, no Numba: the children are what is measured.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rules import Game, Protocol

TIMES = (0.25, 0.5, 1.0)  # the --time values whose walls are measured
FIRST = re.compile(r"first search at monotonic ([0-9.]+), age [0-9.]+ s, (.*) kernels")


@dataclass
class Run:
    seconds: float | None  # the --time given (None: the contest's clock)
    start_up: float | None  # exec to the first search (None: it never searched)
    wall: float
    engine: str  # which engine answered: native, jit or quick (from the child's notice)
    ok: bool
    error: str = ""


@dataclass
class Report:
    game: str
    runs: list[Run] = field(default_factory=list)

    def start_ups(self) -> list[float]:
        return [r.start_up for r in self.runs if r.start_up is not None]

    def walls(self, seconds: float) -> list[float]:
        return [r.wall for r in self.runs if r.seconds == seconds]


def command(game: str) -> list[str]:
    """`arena move GAME` as this installation runs it (the console script's module)."""
    return [sys.executable, "-m", "tui.cli", "move", game]


def _input(position: Game, folder: Path) -> tuple[list[str], str]:
    """The arguments and stdin of a contest move on `position`."""
    cls = type(position)
    if cls.protocol is Protocol.SESSION:
        return [], "".join(line + "\n" for line in position.session_header()) + "Start\nQuit\n"
    if cls.protocol is Protocol.FILE:
        path = folder / "position.txt"
        left = [float(cls.clock.seconds)] * position.players
        path.write_text(position.native_text(left), encoding="utf-8")
        return [str(path), *position.contest_args()], ""
    return list(position.contest_args()), position.to_native()


def one_run(position: Game, seconds: float | None, env: dict[str, str]) -> Run:
    cls = type(position)
    with tempfile.TemporaryDirectory(prefix="arena-startup-") as folder:
        args, stdin = _input(position, Path(folder))
        argv = command(cls.name) + args
        if seconds is not None:
            argv += ["--time", f"{seconds:g}"]
        began = time.monotonic()
        done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env,
                              timeout=600)
        wall = time.monotonic() - began
    found = FIRST.search(done.stderr)
    start_up = float(found.group(1)) - began if found else None
    engine = "?" if found is None else found.group(2)
    ok = done.returncode == 0 and bool(done.stdout)
    return Run(seconds, start_up, wall, engine, ok,
               "" if ok else (done.stderr.strip().splitlines() or ["no output"])[-1])


def measure(position: Game, runs: int, times: Sequence[float] = TIMES,
            progress: Callable[[Run], None] | None = None) -> Report:
    """`runs` processes for each `--time` in `times`."""
    env = dict(os.environ, ARENA_TRACE_STARTUP="1")
    report = Report(type(position).name)
    for seconds in times:
        for _ in range(runs):
            run = one_run(position, seconds, env)
            report.runs.append(run)
            if progress is not None:
                progress(run)
    return report


def summary(report: Report) -> list[str]:
    """The report's lines: start-up median and worst, and each --time's walls."""
    lines = []
    starts = report.start_ups()
    if starts:
        lines.append(f"start-up (exec to first search): median {statistics.median(starts):.3f} s,"
                     f" worst {max(starts):.3f} s, over {len(starts)} runs")
    for seconds in sorted({r.seconds for r in report.runs if r.seconds is not None}):
        walls = report.walls(seconds)
        over = sum(w > seconds for w in walls)
        lines.append(f"--time {seconds:g}: wall median {statistics.median(walls):.3f} s, worst "
                     f"{max(walls):.3f} s ({max(walls) / seconds:.2f} T), {over} of "
                     f"{len(walls)} over T")
    engines = sorted({r.engine for r in report.runs})
    failed = [r for r in report.runs if not r.ok]
    lines.append(f"engine: {', '.join(engines)}; {len(failed)} runs failed"
                 + (f" (last: {failed[-1].error})" if failed else ""))
    return lines
