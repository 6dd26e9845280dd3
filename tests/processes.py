"""What the tests of contest programs check about processes, from Linux's /proc: whether
a process has ended, whether a process group has no live process left, which live
processes run a given command. A killed process may take a moment to die on a busy
machine, so the checks wait a little before they say no."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path


def _state(entry: Path) -> tuple[str, int] | None:
    """A process's state letter and process group, or None if it is gone."""
    try:
        fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[2])


def _processes() -> list[Path]:
    return [entry for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def group_members(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group `pgid`."""
    found = []
    for entry in _processes():
        state = _state(entry)
        if state is not None and state[1] == pgid and state[0] != "Z":
            found.append(int(entry.name))
    return found


def running(marker: str) -> list[int]:
    """The live processes whose command line holds `marker`."""
    found = []
    for entry in _processes():
        state = _state(entry)
        try:
            line = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if state is not None and state[0] != "Z" and marker in line:
            found.append(int(entry.name))
    return found


def eventually_none(check: Callable[[], object], seconds: float = 5.0) -> bool:
    """Whether `check()` becomes empty (falsy) within `seconds`."""
    deadline = time.monotonic() + seconds
    while check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def pid_gone(pid: int, seconds: float = 3.0) -> bool:
    """Whether `pid` ends (or is a zombie waiting for its reaper) within `seconds`."""
    def alive() -> bool:
        state = _state(Path(f"/proc/{pid}"))
        return state is not None and state[0] != "Z"
    return eventually_none(alive, seconds)


def group_gone(pgid: int, seconds: float = 3.0) -> bool:
    """Whether process group `pgid` has no live process left within `seconds`."""
    return eventually_none(lambda: group_members(pgid), seconds)


def default_sigint() -> None:
    """`preexec_fn` for a process the test sends Ctrl-C: SIGINT at its default, also when
    the suite runs as a background job (a shell starts those with SIGINT ignored, and a
    program keeps an inherited SIG_IGN)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
