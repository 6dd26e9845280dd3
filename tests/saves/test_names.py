"""A name typed by a user is a name, never a path: it stays in its folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from saves.format import SaveError
from saves.store import NAME_CHARS, NATIVE_SUFFIX, SUFFIX, path_in, safe_name


def refusal(name: str, suffix: str = SUFFIX) -> str:
    with pytest.raises(SaveError) as info:
        safe_name(name, suffix)
    message = str(info.value)
    assert message and "\n" not in message and len(message) <= 300
    return message


@pytest.mark.parametrize("name, file_name", [
    ("game", "game.arena.json"),
    ("game.arena.json", "game.arena.json"),
    ("  my game  ", "my game.arena.json"),
    ("partie à deux", "partie à deux.arena.json"),
    ("対局 1", "対局 1.arena.json"),
    ("a.b", "a.b.arena.json"),
    ("x" * NAME_CHARS, "x" * NAME_CHARS + ".arena.json"),
])
def test_fine_names_get_the_suffix(name: str, file_name: str) -> None:
    assert safe_name(name, SUFFIX) == file_name


def test_export_names_get_their_own_suffix() -> None:
    assert safe_name("board", NATIVE_SUFFIX) == "board.txt"
    assert safe_name("board.txt", NATIVE_SUFFIX) == "board.txt"
    assert "an export name cannot contain" in refusal("a/b", NATIVE_SUFFIX)


@pytest.mark.parametrize("name, words", [
    ("../../../tmp/escape", "cannot contain '/', '\\' or '..': '../../../tmp/escape'"),
    ("/tmp/escape", "cannot contain"),
    ("a/b", "cannot contain"),
    ("a\\b", "cannot contain"),
    ("..", "cannot contain"),
    ("x/../y", "cannot contain"),
    ("wait..", "cannot contain"),
    (".hidden", "cannot start with '.'"),
    (".arena.json", "cannot start with '.'"),
    ("", "cannot be empty"),
    ("   \t ", "cannot be empty"),
    ("a\x00b", "control characters: 'a\\x00b'"),
    ("two\nlines", "control characters"),
    ("bell\x07", "control characters"),
    ("lone \ud800", "control characters: 'lone \\ud800'"),
    ("evil\u202enosj.anera", "control characters"),
    ("x" * (NAME_CHARS + 1), f"limited to {NAME_CHARS} characters (this one has 121)"),
    ("é" * 100, "too long for a file name (211 bytes in UTF-8, at most 200)"),
])
def test_bad_names_are_refused_in_one_line(name: str, words: str) -> None:
    message = refusal(name)
    assert words in message and message.startswith("a save name ")
    assert len(message) < 200  # a long name is quoted short


def test_path_in_stays_in_the_folder_and_creates_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    assert path_in(folder, "partie à deux", SUFFIX) == folder.resolve() / "partie à deux.arena.json"
    for name in ["../../../tmp/escape", "/tmp/escape", "sub/x", "..", ".hidden"]:
        with pytest.raises(SaveError):
            path_in(folder, name, SUFFIX)
    assert list(folder.iterdir()) == [] and sorted(os.listdir(tmp_path)) == ["saves"]


def test_path_in_refuses_a_link_leading_out(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    (folder / "out.arena.json").symlink_to(tmp_path / "elsewhere.arena.json")
    with pytest.raises(SaveError, match="would leave the folder"):
        path_in(folder, "out", SUFFIX)
