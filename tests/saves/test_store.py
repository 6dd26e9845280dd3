"""Saves on disk: atomic writes, safe reads, the folder, native import/export."""

from __future__ import annotations

import os
import re
import time
from datetime import datetime
from pathlib import Path

import pytest

from rules import Clock, PlayerSpec, TimeControl, get_game
from rules.match import MatchState
from saves import store
from saves.format import SaveError, doc_from_game, dumps
from saves.store import (
    atomic_write,
    default_name,
    export_native,
    list_saves,
    load_position,
    read_save,
    save_dir,
    write_save,
)
from tests.saves.test_format import finished

PLAYERS = [PlayerSpec.human(), PlayerSpec.ai("max")]
CLOCK = Clock(TimeControl.parse("move:10"), [1.5, 2.0])


def sample_game(moves: list[str]):
    game = get_game("pahtum").new({"board": "sample"})
    game.replay(moves)
    return game


def test_write_then_read(tmp_path: Path) -> None:
    game = sample_game(["A1", "D4", "G7"])
    path = tmp_path / "one.arena.json"
    write_save(path, doc_from_game(game, PLAYERS, CLOCK))
    doc, back = read_save(path)
    assert doc.players == PLAYERS and doc.clock == CLOCK
    assert back.to_native() == game.to_native() and back.history == game.history
    assert not [p for p in tmp_path.iterdir() if p.name != "one.arena.json"]
    assert path.stat().st_mode & 0o777 == 0o644


def one_line_error(path: Path) -> str:
    with pytest.raises(SaveError) as info:
        read_save(path)
    message = str(info.value)
    assert message and "\n" not in message
    return message


def test_read_refuses_missing_unreadable_and_broken_files(tmp_path: Path) -> None:
    assert "no such file" in one_line_error(tmp_path / "nope.arena.json")
    assert "folder" in one_line_error(tmp_path)
    binary = tmp_path / "bin.arena.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert "not UTF-8" in one_line_error(binary)
    good = dumps(doc_from_game(sample_game(["A1", "A2"]), PLAYERS))
    cut = tmp_path / "cut.arena.json"
    cut.write_text(good[:-40])
    message = one_line_error(cut)
    assert message.startswith("cut.arena.json: ") and "truncated" in message
    edited = tmp_path / "edited.arena.json"
    edited.write_text(good.replace('"A2"', '"A1"'))
    assert "move 2" in one_line_error(edited)


def test_failed_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "keep.arena.json"
    write_save(path, doc_from_game(sample_game(["A1"]), PLAYERS))
    before = path.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store.os, "replace", broken_replace)
    with pytest.raises(SaveError, match="could not save .*No space left"):
        write_save(path, doc_from_game(sample_game(["A1", "B1", "C1"]), PLAYERS))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.arena.json"]


def test_failed_write_midway_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "pos.txt"
    atomic_write(path, "old\n")

    def broken_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(store.os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        atomic_write(path, "new text that never lands\n")
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["pos.txt"]


def test_interrupted_write_removes_the_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(store.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(tmp_path / "new.arena.json", "{}")
    assert list(tmp_path.iterdir()) == []


def test_save_dir_override_env_and_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path / "from-env"))
    assert save_dir(tmp_path / "given" / "deep") == tmp_path / "given" / "deep"
    assert (tmp_path / "given" / "deep").is_dir()
    assert save_dir() == tmp_path / "from-env" and (tmp_path / "from-env").is_dir()
    monkeypatch.delenv("ARENA_SAVE_DIR")
    monkeypatch.setattr(store.platformdirs, "user_data_dir", lambda app: str(tmp_path / app))
    assert save_dir() == tmp_path / "arena" / "saves" and (tmp_path / "arena" / "saves").is_dir()


def test_list_saves_newest_first(tmp_path: Path) -> None:
    assert list_saves(tmp_path / "missing") == []
    now = time.time()
    for age, name in [(30, "old"), (10, "new"), (20, "mid")]:
        path = tmp_path / f"{name}.arena.json"
        path.write_text("{}")
        os.utime(path, (now - age, now - age))
    (tmp_path / "notes.txt").write_text("not a save")
    assert [p.name for p in list_saves(tmp_path)] == [
        "new.arena.json", "mid.arena.json", "old.arena.json"]


def test_default_name(tmp_path: Path) -> None:
    when = datetime(2026, 11, 22, 7, 12)
    assert default_name("pahtum", now=when) == "pahtum-2026-11-22-0712.arena.json"
    (tmp_path / "pahtum-2026-11-22-0712.arena.json").write_text("{}")
    assert default_name("pahtum", tmp_path, when) == "pahtum-2026-11-22-0712-2.arena.json"
    assert default_name("pousse").startswith("pousse-")
    assert default_name("x").endswith(".arena.json")
    (tmp_path / "pahtum-2026-11-22-0712.txt").write_text("")  # an export's name too
    assert default_name("pahtum", tmp_path, when, ".txt") == "pahtum-2026-11-22-0712-2.txt"


def test_export_and_load_native(tmp_path: Path) -> None:
    game = sample_game(["A1", "B2", "C3"])
    path = tmp_path / "board.txt"
    export_native(game, path)
    assert path.read_text() == game.to_native()
    loaded = load_position("pahtum", path)
    assert loaded.to_native() == game.to_native() and loaded.to_move == game.to_move


def test_load_position_accepts_saves_by_content(tmp_path: Path) -> None:
    game = sample_game(["A1", "B2"])
    path = tmp_path / "any-name.txt"
    write_save(path, doc_from_game(game, PLAYERS))
    loaded = load_position("Pah-Tum", path)
    assert loaded.history == game.history


def test_load_position_refusals_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("-------\n" * 3)
    pousse_save = tmp_path / "p.arena.json"
    pousse = get_game("pousse").new({"size": 4})
    pousse.play_text("L1")
    write_save(pousse_save, doc_from_game(pousse, PLAYERS))
    cases = [
        (("pahtum", bad), "not a Pah-Tum position or Arena save: expected 7 lines"),
        (("pahtum", pousse_save), "a Pousse save, not Pah-Tum"),
        (("chess", bad), "unknown game"),
        (("pahtum", tmp_path / "missing"), "no such file"),
    ]
    for args, words in cases:
        with pytest.raises(SaveError) as info:
            load_position(*args)
        assert words in str(info.value) and "\n" not in str(info.value)
    assert load_position("pousse", pousse_save).history == pousse.history


def test_describe_save_for_the_load_list(tmp_path: Path) -> None:
    path = tmp_path / "one.arena.json"
    write_save(path, doc_from_game(sample_game(["A1", "D4", "G7"]), PLAYERS, CLOCK))
    line = store.describe_save(path)
    assert line.startswith("Pah-Tum · move 2 · You v AI (max) · 20")  # as the game names them
    assert re.fullmatch(r".* · \d{4}-\d\d-\d\d \d\d:\d\d", line)  # local time
    bad = tmp_path / "bad.arena.json"
    bad.write_text("{not json")
    assert store.describe_save(bad).startswith("unreadable: ")


def test_native_positions_are_listed_described_and_read(tmp_path: Path) -> None:
    game = sample_game(["A1", "D4"])
    export_native(game, tmp_path / "pos.txt")
    (tmp_path / "pousse.txt").write_text("5\nL1\nT3\n")
    (tmp_path / "junk.txt").write_text("hello\n")
    write_save(tmp_path / "one.arena.json", doc_from_game(game, PLAYERS, CLOCK))
    assert {p.name for p in list_saves(tmp_path)} == {"one.arena.json"}
    assert {p.name for p in list_saves(tmp_path, native=True)} == {
        "one.arena.json", "pos.txt", "pousse.txt", "junk.txt"}
    assert store.describe_save(tmp_path / "pos.txt") == "Pah-Tum position, native format"
    assert store.describe_save(tmp_path / "pousse.txt") == "Pousse position, native format"
    assert store.describe_save(tmp_path / "junk.txt").startswith("unreadable: not an Arena save")
    assert store.read_native(tmp_path / "pos.txt").to_native() == game.to_native()
    assert store.read_native(tmp_path / "pousse.txt").history_text() == ["L1", "T3"]
    with pytest.raises(SaveError, match=r"^junk\.txt: not an Arena save nor a position of "):
        store.read_native(tmp_path / "junk.txt")


def test_describe_save_marks_poisoned_files_unreadable(tmp_path: Path) -> None:
    """One damaged file in the folder is a line in the list, never an exception."""
    good = dumps(doc_from_game(sample_game(["A1"]), PLAYERS, CLOCK))
    poisons = {
        "year1": good.replace('"saved_at": "', '"saved_at": "0001-01-01T00:00:00+14:00", "x": "'),
        "digits": good.replace('"moves": [', '"moves": [' + "9" * 5000 + ", "),
        "deep": good.replace('"moves": [', '"moves": ' + "[" * 100_000),
        "inf": good.replace('"used": [1.5', '"used": [1e400'),
        "match": good.replace('"match": null', '"match": {"length": 2, "index": 8}'),
    }
    for name, text in poisons.items():
        path = tmp_path / f"{name}.arena.json"
        path.write_text(text)
        line = store.describe_save(path)
        assert line.startswith("unreadable: ") and "\n" not in line, (name, line)
        assert one_line_error(path).startswith(f"{name}.arena.json: ")


def test_describe_save_names_the_game_of_a_match(tmp_path: Path) -> None:
    game = sample_game(["A1", "D4", "G7"])
    match = MatchState(game.match_rule, game.players)
    path = tmp_path / "m.arena.json"
    write_save(path, doc_from_game(game, PLAYERS, CLOCK, match=match))
    assert store.describe_save(path).startswith("Pah-Tum · move 2 · You v ")  # the first
    match.results.append(finished("pahtum", 10).outcome)  # the first game, over
    match.index = 1
    write_save(path, doc_from_game(game, PLAYERS, CLOCK, match=match))
    assert store.describe_save(path).startswith("Pah-Tum · game 2 of 2, move 2 · ")
    from saves.catalog import preview  # the load dialog's preview says it too

    assert " · game 2 of 2, move 2 · " in preview(path).line
    first = finished("pahtum", 10)  # the first game over, the return game still to play
    write_save(path, doc_from_game(first, PLAYERS, CLOCK,
                                   match=MatchState(first.match_rule, first.players)))
    assert store.describe_save(path).startswith("Pah-Tum · game 1 of 2 over · ")
    last = MatchState(first.match_rule, first.players, index=1,
                      results=[finished("pahtum", 10).outcome])
    write_save(path, doc_from_game(first, PLAYERS, CLOCK, match=last))
    assert store.describe_save(path).startswith("Pah-Tum · game 2 of 2, finished · ")


def test_describe_save_lists_every_player(tmp_path: Path) -> None:
    game = get_game("pousse").new({"size": 4})
    players = [PlayerSpec.ai("easy"), PlayerSpec.human("Bo")]
    write_save(tmp_path / "p.arena.json", doc_from_game(game, players))
    line = store.describe_save(tmp_path / "p.arena.json")
    assert line.startswith("Pousse · move 1 · AI (easy) v Bo · ")
    game.play_text("L1")
    write_save(tmp_path / "p.arena.json", doc_from_game(game, players))
    assert " · move 1 · " in store.describe_save(tmp_path / "p.arena.json")  # blue's half
    game.play_text("T3")
    write_save(tmp_path / "p.arena.json", doc_from_game(game, players))
    assert " · move 2 · " in store.describe_save(tmp_path / "p.arena.json")
    people = [PlayerSpec.human(), PlayerSpec.human()]
    write_save(tmp_path / "p.arena.json", doc_from_game(game, people))
    assert " · Human 1 v Human 2 · " in store.describe_save(tmp_path / "p.arena.json")


def test_reads_stop_at_a_size_no_save_reaches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "MAX_BYTES", 1000)
    big = tmp_path / "big.arena.json"
    big.write_text(dumps(doc_from_game(sample_game(["A1"]), PLAYERS)) + " " * 1000)
    assert "too large" in one_line_error(big)
    assert store.describe_save(big).startswith("unreadable: ")
    if Path("/dev/zero").exists():  # an endless device is refused without reading it
        with pytest.raises(SaveError, match="not a regular file"):
            load_position("pahtum", "/dev/zero")
