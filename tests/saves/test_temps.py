"""Temporary files never pile up: a save killed mid-write leaves a temp that the next
listing of the folder removes, and nothing else is ever removed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from saves.store import atomic_write, clean_stale_temps, list_saves

ROOT = Path(__file__).resolve().parents[2]
CHILD = """
import os, sys, time
sys.path.insert(0, {root!r})
from saves import store
if {stall!r}:
    def stall(fd):  # the temp is written, not yet renamed: the worst moment for a kill
        print("writing", flush=True)
        time.sleep(60)
    store.os.fsync = stall
else:
    print("writing", flush=True)
store.atomic_write({target!r}, "new " * 4_000_000)
"""

needs_kill = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL here")


def temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def kill_mid_write(target: Path, stall: bool, delay: float = 0.0) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(root=str(ROOT), stall=stall, target=str(target))],
        stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "writing\n"
        time.sleep(delay)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        if child.stdout is not None:
            child.stdout.close()


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


@needs_kill
def test_a_killed_save_leaves_a_temp_that_listing_removes(tmp_path: Path) -> None:
    target = tmp_path / "game.arena.json"
    atomic_write(target, "old\n")
    kill_mid_write(target, stall=True)
    assert target.read_text() == "old\n"
    [left] = temps(tmp_path)  # what the issue saw: the kill leaves the temp behind
    assert left.startswith(".game.arena.json.")
    assert [p.name for p in list_saves(tmp_path)] == ["game.arena.json"]
    assert temps(tmp_path) == [left]  # too young: it could be a write still running
    age(tmp_path / left, 120)
    assert [p.name for p in list_saves(tmp_path)] == ["game.arena.json"]
    assert temps(tmp_path) == [] and target.read_text() == "old\n"


@needs_kill
@pytest.mark.parametrize("delay", [0.0, 0.01, 0.05])
def test_a_kill_at_any_moment_leaves_old_or_new_and_cleans_up(tmp_path: Path,
                                                              delay: float) -> None:
    target = tmp_path / "pos.txt"
    atomic_write(target, "old\n")
    kill_mid_write(target, stall=False, delay=delay)
    text = target.read_text()
    assert text == "old\n" or text == "new " * 4_000_000  # never a part of either
    left = temps(tmp_path)
    assert len(left) <= 1 and clean_stale_temps(tmp_path, older_than=0) == len(left)
    assert temps(tmp_path) == [] and target.read_text() == text


def test_only_this_modules_old_temps_are_removed(tmp_path: Path) -> None:
    ours = [".a.arena.json.abc_1234.tmp", ".b c.txt.zz9_8x7q.tmp", ".é.arena.json.00000000.tmp",
            ".settings.json.k2j4h5g6.tmp"]
    theirs = [
        ".a.arena.json.abc123.tmp",  # random part of the wrong length
        ".a.arena.json.ABCDEFGH.tmp",  # not mkstemp's letters
        ".notes.tmp", "..abcdefgh.tmp", "a.arena.json.abc_1234.tmp",
        ".a.arena.json.abc_1234.tmp.bak", "x.arena.json", "x.txt", ".hidden.arena.json",
    ]
    for name in ours + theirs:
        (tmp_path / name).write_text("x")
        age(tmp_path / name, 3600)
    (tmp_path / ".dir.arena.json.abcdefgh.tmp").mkdir()  # a folder of the pattern: kept
    link = tmp_path / ".l.arena.json.abcdefgh.tmp"
    link.symlink_to(tmp_path / "x.txt")  # a link of the pattern: kept, and so is its target
    age(link, 3600)
    fresh = tmp_path / ".c.arena.json.abcdefgh.tmp"
    fresh.write_text("a write in progress")
    assert clean_stale_temps(tmp_path) == len(ours)
    left = {p.name for p in tmp_path.iterdir()}
    assert left == set(theirs) | {".dir.arena.json.abcdefgh.tmp", link.name, fresh.name}
    assert clean_stale_temps(tmp_path / "missing") == 0


def test_listing_heals_the_autosave_folder_too(tmp_path: Path) -> None:
    (tmp_path / "autosave").mkdir()
    stale = tmp_path / "autosave" / ".last.arena.json.k2j4h5g6.tmp"
    stale.write_text("{")
    age(stale, 600)
    assert list_saves(tmp_path) == [] and not stale.exists()
