"""Running another program for one move: output, clock, faults, and no process left."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tests.processes import pid_gone
from tui.play.programs import CommandError, Fault, parse_command, run_once

PY = sys.executable


def test_a_program_reads_stdin_and_its_output_is_kept_exactly() -> None:
    reply = run_once([PY, "-c", "import sys; sys.stdout.write(sys.stdin.read().upper())"],
                     "a1x5\n", 10)
    assert reply.ok and reply.fault is None and reply.stdout == "A1X5\n"
    assert reply.stderr == "" and 0 < reply.seconds < 10


def test_a_program_that_hangs_is_killed_with_everything_it_started() -> None:
    script = "sleep 30 & echo $!; sleep 30"
    began = time.monotonic()
    reply = run_once(["sh", "-c", script], "", 0.5)
    assert reply.fault is Fault.TIMEOUT and reply.detail == "no answer within 0.5 s"
    assert time.monotonic() - began < 5
    child = int(reply.stdout.split()[0])  # what it printed before the timeout is kept
    assert pid_gone(child)


def test_what_a_finished_program_leaves_running_is_killed() -> None:
    reply = run_once(["sh", "-c", "sleep 30 & echo $!"], "", 10)
    assert reply.ok
    assert pid_gone(int(reply.stdout))


@pytest.mark.parametrize(("code", "fault", "detail"), [
    ("import sys; print('A1x1'); sys.exit(3)", Fault.EXIT, "exit code 3"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", Fault.CRASH,
     "killed by SIGSEGV"),
])
def test_an_exit_code_or_a_signal_is_a_fault_with_its_output(code: str, fault: Fault,
                                                              detail: str) -> None:
    reply = run_once([PY, "-c", code], "", 10)
    assert reply.fault is fault and reply.detail == detail and not reply.ok
    if fault is Fault.EXIT:
        assert reply.stdout == "A1x1\n"


def test_a_program_that_cannot_start_is_a_fault(tmp_path: Path) -> None:
    script = tmp_path / "bot"
    script.write_text("#!/bin/sh\necho A1x1\n")  # not executable
    reply = run_once([str(script)], "", 10)
    assert reply.fault is Fault.START and "ermission" in reply.detail


def test_commands_are_read_like_a_shell_and_checked(tmp_path: Path) -> None:
    assert parse_command(f"{PY} -c 'print(1)'") == [PY, "-c", "print(1)"]
    script = tmp_path / "my bot"
    script.write_text("#!/bin/sh\necho A1x1\n")
    with pytest.raises(CommandError, match="is not an executable file"):
        parse_command(f"'{script}'")
    script.chmod(0o755)
    assert parse_command(f"'{script}' --fast") == [str(script), "--fast"]
    for text, words in (("", "is empty"), ("bot 'unclosed", "cannot read the command"),
                        ("no-such-program-here", "is not a command on the PATH")):
        with pytest.raises(CommandError, match=words):
            parse_command(text)
