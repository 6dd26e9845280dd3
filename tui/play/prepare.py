"""`arena prepare [GAME...]`: compile the games' kernels ahead of time, with progress.

Each game is built by `python -m ai.native GAME` in a child process (it compiles with
Numba's JIT, then builds the native module that a contest move loads in a millisecond);
its progress lines and the time it should take (the last build's) drive the bar. A game
already built for these sources is skipped.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Outcome:
    game: str
    built: bool  # built now (False: it was already, or the build failed)
    seconds: float
    error: str = ""


def prepare(game: str, on_line: Callable[[str], None]) -> Outcome:
    """Build `game`'s native module in a child process; its lines go to `on_line`."""
    from ai import native

    began = time.monotonic()
    if native.loadable(game):
        return Outcome(game, False, 0.0)
    failed = native.failure_path(game)
    failed.unlink(missing_ok=True)  # asked for: try again
    proc = subprocess.Popen([sys.executable, "-m", "ai.native", game], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    errors: list[str] = []
    reader = threading.Thread(target=lambda: errors.extend(proc.stderr or []), daemon=True)
    reader.start()
    assert proc.stdout is not None
    for line in proc.stdout:
        on_line(line.strip().split(": ", 1)[-1])
    code = proc.wait()
    reader.join(5)
    seconds = time.monotonic() - began
    if code != 0:
        last = next((e.strip() for e in reversed(errors) if e.strip()), f"exit code {code}")
        return Outcome(game, False, seconds, last)
    return Outcome(game, True, seconds)
