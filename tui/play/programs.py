"""Other people's contest programs, run once per move: the command, the clock, the verdict.

The jury (`tui.play.jury`) runs a one-move program through `run_once`. A program
runs in its own process group and carries its launch's tag (`tui.play.reaper`), so a timeout
kills it with everything it started, wherever that went; its output is kept up to a
bound (a fault quotes it exactly, as a Python repr); the verdict names the fault: a
timeout, a crash (killed by a signal), a non-zero exit, output past the bound, or a
command that does not start.
"""

from __future__ import annotations

import os
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from tui.play import reaper

OUTPUT_LIMIT = 1 << 20  # bytes a program may write in one move (stdout and stderr)


class Fault(Enum):
    TIMEOUT = "timeout"
    CRASH = "crash"
    EXIT = "non-zero exit"
    START = "does not start"
    TOO_LARGE = "output too large"


class CommandError(ValueError):
    """A command line that cannot be a program (one line to show)."""


@dataclass(frozen=True)
class Reply:
    """What one run of a program gave: its output, its time, and its fault if any."""

    stdout: str
    stderr: str
    seconds: float
    fault: Fault | None = None
    detail: str = ""  # the fault in words, e.g. "exit code 3" or "killed by SIGSEGV"

    @property
    def ok(self) -> bool:
        return self.fault is None


def parse_command(text: str) -> list[str]:
    """A command line as an argv, checked to name a program that exists."""
    try:
        argv = shlex.split(text)
    except ValueError as err:
        raise CommandError(f"cannot read the command {text!r}: {err}") from None
    if not argv:
        raise CommandError("the command is empty: give the program and its arguments")
    program = argv[0]
    if os.sep in program:
        if not (Path(program).is_file() and os.access(program, os.X_OK)):
            raise CommandError(f"{program!r} is not an executable file")
    elif shutil.which(program) is None:
        raise CommandError(f"{program!r} is not a command on the PATH")
    return argv


def run_once(argv: Sequence[str], stdin: str, seconds: float | None,
             cwd: Path | None = None,
             started: Callable[[subprocess.Popen[bytes]], None] | None = None,
             limit: int = OUTPUT_LIMIT) -> Reply:
    """Run the program with `stdin`, wait at most `seconds` (wall clock, start-up
    included; None: no limit) for it to exit, and kill its whole process group and every
    process it started (`reaper.sweep`) whatever happens. `started` gets the process as
    soon as it runs (whoever may cancel the move kills its group with `kill_group`).

    Its output is read as it comes, up to `limit` bytes of stdout and stderr together: a
    program past it is stopped at once (`Fault.TOO_LARGE`), so memory and disk stay
    bounded whatever it writes. A program is done when it exits, even if something it
    left in the background still holds its output open."""
    tag = reaper.launch_tag()
    with tempfile.TemporaryFile(dir=reaper.folder()) as given:
        given.write(stdin.encode())
        given.seek(0)
        began = time.perf_counter()
        try:
            proc = reaper.spawn(argv, tag, stdin=given, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=cwd)
        except OSError as error:
            return Reply("", "", time.perf_counter() - began, Fault.START,
                         error.strerror or str(error))
        if started is not None:
            started(proc)
        try:
            code, too_large, out, err = _collect(proc, began, seconds, limit)
        finally:
            kill_group(proc)  # on a timeout the program, else what it left running
            reaper.sweep(tag)  # and what it started elsewhere (setsid, a daemon)
            proc.wait()
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        spent = (time.perf_counter() if code is None else code[1]) - began
    texts = _text(out), _text(err)
    if too_large:
        return Reply(*texts, spent, Fault.TOO_LARGE,
                     f"wrote over {limit:,} bytes in one move")
    if code is None:
        return Reply(*texts, spent, Fault.TIMEOUT, f"no answer within {seconds:g} s")
    status = code[0]
    if status < 0:
        name = (signal.Signals(-status).name if -status in signal.valid_signals()
                else str(-status))
        return Reply(*texts, spent, Fault.CRASH, f"killed by {name}")
    if status > 0:
        return Reply(*texts, spent, Fault.EXIT, f"exit code {status}")
    return Reply(*texts, spent)


def _collect(proc: subprocess.Popen[bytes], began: float, seconds: float | None,
             limit: int) -> tuple[tuple[int, float] | None, bool, bytes, bytes]:
    """Read the program's stdout and stderr until it exits, the deadline passes or it has
    written more than `limit` bytes: (its exit status and when, or None at the deadline),
    whether it wrote too much, and what it wrote (at most `limit` bytes in all)."""
    assert proc.stdout is not None and proc.stderr is not None
    buffers = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    out, err = buffers.values()
    streams = list(buffers)
    exit_fd = _pidfd(proc)
    deadline = None if seconds is None else began + seconds
    try:
        while True:
            status = proc.poll()
            if status is not None:
                ended = time.perf_counter()
                _drain(buffers, streams, limit)  # what is already in the pipes
                return (status, ended), len(out) + len(err) > limit, bytes(out), bytes(err)
            wait = 0.01 if exit_fd is None else None  # without a pidfd, poll its exit
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None, False, bytes(out), bytes(err)
                wait = left if wait is None else min(wait, left)
            watched = streams + ([exit_fd] if exit_fd is not None else [])
            ready, _, _ = select.select(watched, [], [], wait)
            for fd in ready:
                if fd == exit_fd:
                    continue
                data = os.read(fd, 65536)
                if not data:
                    streams.remove(fd)  # closed; its exit comes through the pidfd or poll
                    continue
                buffers[fd] += data
                if len(out) + len(err) > limit:
                    return None, True, bytes(out), bytes(err)
            if not streams and exit_fd is None:
                wait = None if deadline is None else max(0.0, deadline - time.perf_counter())
                try:
                    proc.wait(timeout=wait)
                except subprocess.TimeoutExpired:
                    return None, False, bytes(out), bytes(err)
    finally:
        if exit_fd is not None:
            os.close(exit_fd)


def _drain(buffers: dict[int, bytearray], streams: list[int], limit: int) -> None:
    """Read what is waiting in the pipes without blocking (a background child of the
    program may hold them open after it exited), stopping past `limit`."""
    total = sum(len(b) for b in buffers.values())
    for fd in streams:
        while total <= limit:
            ready, _, _ = select.select([fd], [], [], 0)
            if not ready:
                break
            data = os.read(fd, 65536)
            if not data:
                break
            buffers[fd] += data
            total += len(data)


def _pidfd(proc: subprocess.Popen[bytes]) -> int | None:
    """A descriptor that becomes readable when the process exits (Linux 5.3 and later)."""
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    try:
        return int(opener(proc.pid))
    except OSError:
        return None


def _text(data: bytes) -> str:
    return data[:OUTPUT_LIMIT].decode("utf-8", errors="replace")


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the process and everything in its group (it leads its own session); what
    left the group is `reaper.sweep`'s."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # already gone



