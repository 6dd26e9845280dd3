"""No program outlives Arena, however Arena ends: Ctrl-C, SIGTERM, SIGHUP, a closed
terminal, a crash, SIGKILL; also a program that leaves a daemon in a session of its own.
And the jury's temporary folder goes with it.

Every process a program starts carries `ARENA_JURY=<arena pid>-...` in its environment,
which is how these tests (and Arena's own sweep) find them."""

from __future__ import annotations

import os
import pty
import shlex
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import pytest

from tests.processes import default_sigint, eventually_none
from tui.play.reaper import FOLDER_PREFIX, TAG

ROOT = Path(__file__).resolve().parents[2]
# A program that never answers, with a child in a session of its own (a daemon) and a
# child in its own group, both asleep.
HANG = textwrap.dedent("""
    import subprocess, sys, time
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"],
                     start_new_session=True)
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    time.sleep(300)
""")
ARENA = [sys.executable, "-c",
         "import sys; from tui.cli import main; sys.argv[0] = 'arena'; main()"]


def hanging_program() -> str:
    path = Path(tempfile.gettempdir()) / "arena-test-hang.py"
    path.write_text(HANG)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def tagged(arena_pid: int) -> list[int]:
    """The live processes carrying a tag of Arena process `arena_pid`."""
    key = f"{TAG}={arena_pid}-".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            env = (entry / "environ").read_bytes()
            state = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != b"Z" and any(item.startswith(key) for item in env.split(b"\0")):
            found.append(int(entry.name))
    return found


def folders(arena_pid: int) -> list[Path]:
    return list(Path(tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}{arena_pid}-*"))


def wait_until(check, seconds: float = 60.0) -> None:  # noqa: ANN001
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def environment(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=str(ROOT), ARENA_SAVE_DIR=str(tmp_path / "saves"), TERM="xterm",
               COLUMNS="80", LINES="24")
    return env


def assert_nothing_left(pid: int) -> None:
    assert eventually_none(lambda: tagged(pid), 10), tagged(pid)
    assert eventually_none(lambda: folders(pid), 10), folders(pid)


# ----- arena match ------------------------------------------------------------------------
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_arena_match_leaves_no_program_running(signum: int, tmp_path: Path
                                                           ) -> None:
    hang = hanging_program()
    proc = subprocess.Popen(
        # ten times the contest's 5 s: the programs still hang when the signal comes,
        # however late a busy machine lets this test see them start
        [*ARENA, "match", "pillars", f"prog:{hang}", f"prog:{hang}", "-n", "2",
         "--seed", "1", "--time-scale", "10"], env=environment(tmp_path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_sigint)
    try:
        wait_until(lambda: len(tagged(proc.pid)) >= 3)  # the program and its two children
        proc.send_signal(signum)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == (130 if signum == signal.SIGINT else 128 + signum), (
        proc.stderr.read() if proc.stderr else "")
    assert_nothing_left(proc.pid)


def test_a_signal_while_a_program_starts_still_ends_arena() -> None:
    """The signal handler's `shutdown` may interrupt the very thread that holds the
    reaper's lock (starting a program): it must not wait for itself. A match in the
    suite once hung on SIGHUP this way."""
    code = ("from tui.play import reaper\n"
            "with reaper._lock:\n"
            "    reaper.shutdown()\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=30,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# ----- arena play on a terminal ------------------------------------------------------------
def start_on_a_terminal(args: list[str], tmp_path: Path) -> tuple[int, int, threading.Thread]:
    """`arena ARGS` with a pseudo-terminal as its controlling terminal; the terminal's
    output is read (and dropped) by a thread so that drawing never blocks."""
    env = environment(tmp_path)
    pid, master = pty.fork()
    if pid == 0:  # the child: exec at once
        try:
            os.execve(sys.executable, [*ARENA, *args], env)
        finally:
            os._exit(127)

    def drain() -> None:
        while True:
            try:
                if not os.read(master, 65536):
                    break
            except OSError:
                break

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    return pid, master, reader


def reap(pid: int, seconds: float = 30.0) -> int | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    return None


@pytest.mark.parametrize("ending", ["SIGTERM", "SIGHUP", "closed terminal", "SIGKILL"])
def test_arena_play_ending_any_way_leaves_no_program_running(ending: str, tmp_path: Path
                                                             ) -> None:
    hang = hanging_program()
    pid, master, reader = start_on_a_terminal(
        ["play", "pahtum", "--x", f"prog:{hang}", "--o", "human", "--clock", "none"], tmp_path)
    closed, code = False, None
    try:
        wait_until(lambda: len(tagged(pid)) >= 3)
        if ending == "closed terminal":
            os.close(master)
            closed = True
        else:
            os.kill(pid, getattr(signal, ending))
        code = reap(pid)
        assert code is not None, "arena did not end"
        if ending != "SIGKILL":
            signum = signal.SIGHUP if ending == "closed terminal" else getattr(signal, ending)
            assert code == 128 + signum
    finally:
        if code is None:
            os.kill(pid, signal.SIGKILL)
            reap(pid)
        if not closed:
            os.close(master)
        reader.join(5)
    assert_nothing_left(pid)


# ----- a crash of Arena itself ---------------------------------------------------------------
CRASH = textwrap.dedent("""
    import os, sys, threading
    from rules import get_game, Clock, TimeControl
    from tui.play.jury import program_player
    cls = get_game("pillars")
    player = program_player(cls, sys.argv[2])
    game = cls.new({}, 1)
    threading.Thread(target=player.move, args=(game, Clock.start(TimeControl.none(), 2)),
                     daemon=True).start()
    sys.stdin.readline()  # the test says when the program runs
    if sys.argv[1] == "exception":
        raise RuntimeError("Arena crashed")
    os._exit(1)  # no atexit, no finally: as a crash in native code, or SIGKILL
""")


@pytest.mark.parametrize("how", ["exception", "abrupt"])
def test_a_crash_of_arena_leaves_no_program_running(how: str, tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", CRASH, how, hanging_program()],
                            env=environment(tmp_path), stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until(lambda: len(tagged(proc.pid)) >= 3)
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 1
    assert_nothing_left(proc.pid)
