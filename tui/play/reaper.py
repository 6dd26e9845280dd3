"""Nothing a program started outlives Arena: every process is tagged, found and killed.

Each program Arena starts carries `ARENA_JURY=<arena pid>-<nonce>-<launch>` in its
environment, and every process it starts inherits it, also one that leaves its process
group and session (`setsid`, a daemon). A sweep reads `/proc/*/environ` and kills what
carries a tag: after every one-move program (its launch's tag), when a whole-game
program is closed, and when Arena ends however it ends (the whole process's prefix):
normally, on Ctrl-C, SIGTERM or SIGHUP (`cli.main` and the app call `shutdown`), or by
a crash or SIGKILL, which no code of Arena's survives: then a small watchdog process,
started with the first program, sees its pipe from Arena close and sweeps. The per-run
folder of the jury's temporary files goes the same way.

A program that clears its own environment before it forks escapes the tag, but not its
process group, which is killed as before. Linux only (`/proc`); elsewhere the process
groups alone are killed.
"""

from __future__ import annotations

import atexit
import itertools
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

TAG = "ARENA_JURY"
PASSES = 50  # sweeps in a row until none is found (a forking program races the first)
FOLDER_PREFIX = "arena-jury-"

# Reentrant: `shutdown` runs from a signal handler, which may interrupt this very
# thread inside `spawn` or `folder` while it holds the lock (a plain lock deadlocks).
_lock = threading.RLock()
_prefix = f"{os.getpid()}-{secrets.token_hex(4)}"
_launches = itertools.count(1)
_folder: Path | None = None
_watchdog: subprocess.Popen[bytes] | None = None
_closed = False

# The watchdog: a separate process (its own session, so a closed terminal or a signal to
# Arena's group does not reach it) that waits for its stdin to close, which happens when
# Arena ends, however it ends; then it sweeps and removes the folder.
WATCHDOG = r"""
import os, shutil, signal, sys, time
for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGPIPE):
    signal.signal(s, signal.SIG_IGN)
prefix, folder, tag, passes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
while True:
    try:
        chunk = os.read(0, 64)
    except InterruptedError:
        continue
    except OSError:
        break
    if not chunk:
        break
key = (tag + "=" + prefix + "-").encode()
for _ in range(passes):
    found = 0
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open("/proc/" + name + "/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        if any(item.startswith(key) for item in env.split(b"\0")):
            try:
                os.kill(int(name), signal.SIGKILL)
                found += 1
            except OSError:
                pass
    if not found:
        break
    time.sleep(0.001)
shutil.rmtree(folder, ignore_errors=True)
"""


def _key(tag: str) -> bytes:
    return f"{TAG}={tag}".encode()


def launch_tag() -> str:
    """A new tag for one program launch (this Arena process's prefix and a number)."""
    return f"{_prefix}-{next(_launches)}"


def environment(tag: str) -> dict[str, str]:
    """The environment a program runs with: Arena's own, and its tag."""
    env = dict(os.environ)
    env[TAG] = tag
    return env


def spawn(argv: Sequence[str], tag: str, **popen: Any) -> subprocess.Popen[bytes]:
    """Start a program tagged `tag`, leading its own session and process group (OSError
    as Popen raises it). The watchdog is running before the program is."""
    _ensure_watchdog()
    with _lock:  # `shutdown` waits for a launch under way, and none starts after it
        if _closed:
            raise OSError("Arena is ending: no program may start")
        return subprocess.Popen(list(argv), env=environment(tag), start_new_session=True,
                                **popen)


def folder() -> Path:
    """This Arena process's folder for the jury's temporary files (made on first use,
    removed by `shutdown` or by the watchdog)."""
    global _folder
    with _lock:
        if _folder is None or not _folder.is_dir():
            _folder = Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-"))
    _ensure_watchdog()
    return _folder


def _tagged(key: bytes, exact: bool) -> list[int]:
    """The processes whose environment holds `key` (exactly, or as a prefix)."""
    found = []
    me = os.getpid()
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read()
        except OSError:  # gone, or not ours
            continue
        if key not in env or _zombie(name):
            continue
        items = env.split(b"\0")
        if (key in items) if exact else any(item.startswith(key) for item in items):
            found.append(int(name))
    return found


def _zombie(pid: str) -> bool:
    """Whether the process has exited and waits for its parent (nothing left to kill)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except (OSError, IndexError):
        return True


def sweep(tag: str | None = None) -> int:
    """Kill every live process carrying `tag` (a launch's; None: any of this Arena
    process's). Repeats until a pass finds none; how many were killed."""
    key, exact = (_key(tag), True) if tag is not None else (_key(_prefix + "-"), False)
    killed: set[int] = set()
    for _ in range(PASSES):
        found = _tagged(key, exact)
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except OSError:
                pass
        if not found:
            break
        time.sleep(0.001)  # a killed process takes a moment to stop being found
    return len(killed)


def _ensure_watchdog() -> None:
    global _watchdog, _folder
    with _lock:
        if _watchdog is not None or _closed or not os.path.isdir("/proc"):
            return
        if _folder is None:
            _folder = Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-"))
        try:
            _watchdog = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", WATCHDOG, _prefix, str(_folder), TAG,
                 str(PASSES)],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True, close_fds=True)
        except OSError:
            _watchdog = None


def shutdown() -> None:
    """Arena is ending: kill every program it started and what they started, remove its
    temporary files, and dismiss the watchdog. Safe to call more than once, from a
    signal handler too."""
    global _closed
    with _lock:
        _closed = True
        folder_ = _folder
    sweep()
    if folder_ is not None:
        shutil.rmtree(folder_, ignore_errors=True)
    # The watchdog stays: it sweeps once more when this process is gone, for whatever a
    # thread of Arena's was starting while it ended.


def reopen() -> None:
    """Allow programs again after `shutdown` (tests run many Arenas in one process)."""
    global _closed
    with _lock:
        _closed = False


atexit.register(shutdown)
