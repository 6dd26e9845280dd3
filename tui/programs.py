"""Other people's contest programs, run once per move: the command, the clock, the verdict.

The jury (`tui.jury`) runs a one-move program through `run_once`. A program
runs in its own process group, so a timeout kills it with everything it started; its
whole output is kept (a fault quotes it exactly, as a Python repr); the verdict names
the fault: a timeout, a crash (killed by a signal), a non-zero exit, or a command that
does not start.
"""

from __future__ import annotations

import os
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
from typing import IO

OUTPUT_LIMIT = 1 << 20  # bytes of output kept: a runaway program's is cut here


class Fault(Enum):
    TIMEOUT = "timeout"
    CRASH = "crash"
    EXIT = "non-zero exit"
    START = "does not start"


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
             started: Callable[[subprocess.Popen[bytes]], None] | None = None) -> Reply:
    """Run the program with `stdin`, wait at most `seconds` (wall clock, start-up
    included; None: no limit) for it to exit, and kill its whole process group whatever
    happens. `started` gets the process as soon as it runs (whoever may cancel the move
    kills its group with `kill_group`).

    Its input and output go through temporary files, not pipes: a program is done when
    it exits, even if something it left in the background still holds its output."""
    with tempfile.TemporaryFile() as given, tempfile.TemporaryFile() as out, \
            tempfile.TemporaryFile() as err:
        given.write(stdin.encode())
        given.seek(0)
        began = time.perf_counter()
        try:
            proc = subprocess.Popen(list(argv), stdin=given, stdout=out, stderr=err, cwd=cwd,
                                    start_new_session=True)
        except OSError as error:
            return Reply("", "", time.perf_counter() - began, Fault.START,
                         error.strerror or str(error))
        if started is not None:
            started(proc)
        try:
            code: int | None = proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            code = None
        spent = time.perf_counter() - began
        kill_group(proc)  # on a timeout the program, else what it left running
        proc.wait()
        texts = _read(out), _read(err)
    if code is None:
        return Reply(*texts, spent, Fault.TIMEOUT, f"no answer within {seconds:g} s")
    if code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
        return Reply(*texts, spent, Fault.CRASH, f"killed by {name}")
    if code > 0:
        return Reply(*texts, spent, Fault.EXIT, f"exit code {code}")
    return Reply(*texts, spent)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the process and everything in its group (it leads its own session)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # already gone


def _read(file: IO[bytes]) -> str:
    file.seek(0)
    return file.read(OUTPUT_LIMIT).decode("utf-8", errors="replace")
