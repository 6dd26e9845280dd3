"""Every path a person gives is opened without blocking on something that is not a
regular file (a named pipe, a socket, a device) and refused in one line, exit code 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARENA = [sys.executable, "-c",
         "import sys; from tui.cli import main; sys.argv[0] = 'arena'; main()"]


def special(kind: str, tmp_path: Path) -> Path:
    path = tmp_path / f"special-{kind}"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))  # left bound for the test's life
        special.sockets.append(sock)  # type: ignore[attr-defined]
    else:
        return Path("/dev/zero")
    return path


special.sockets = []  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["fifo", "socket", "device"])
@pytest.mark.parametrize("command", [
    ["perft", "pousse", "1", "--position", "{}"],
    ["play", "pousse", "--load", "{}"],
    ["move", "loaps", "{}"],
])
def test_a_special_file_is_refused_at_once(kind: str, command: list[str],
                                           tmp_path: Path) -> None:
    path = special(kind, tmp_path)
    args = [part.replace("{}", str(path)) for part in command]
    env = dict(os.environ, PYTHONPATH=str(ROOT), ARENA_SAVE_DIR=str(tmp_path / "saves"))
    done = subprocess.run([*ARENA, *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, env=env)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "not a regular file" in lines[0], done.stderr
    assert done.stdout == ""
