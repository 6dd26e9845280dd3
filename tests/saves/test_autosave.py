"""The autosaves: each game's game in progress, kept beside the named saves but never among
them; reading one never raises, a damaged one is set aside."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import new_game, play_out

from rules import Clock, MatchState, PlayerSpec, TimeControl, get_game
from saves import store
from saves.format import SaveError, doc_from_game, dumps
from saves.store import (
    SlotTaken,
    autosave_path,
    clear_autosave,
    describe_autosave,
    list_saves,
    read_autosave,
    write_autosave,
    write_save,
)

PLAYERS = [PlayerSpec.human("Ann"), PlayerSpec.ai("easy")]


def in_progress():
    game = get_game("pahtum").new({"board": "sample"})
    game.replay(["A1", "B2", "C3"])
    match = MatchState(game.match_rule, 2)
    return doc_from_game(game, PLAYERS, Clock(TimeControl.parse("move:10"), [3.0, 1.25]), match)


def test_write_read_describe_clear(tmp_path: Path) -> None:
    assert read_autosave(tmp_path) is None and describe_autosave(tmp_path) is None
    doc = in_progress()
    write_autosave(tmp_path, doc)
    assert autosave_path(tmp_path, "pahtum") == tmp_path / "autosave" / "pahtum.arena.json"
    assert (tmp_path / "autosave" / "pahtum.arena.json").is_file()
    got = read_autosave(tmp_path)
    assert got is not None
    back, game = got
    assert back == doc and game.history_text() == ["A1", "B2", "C3"]
    line = describe_autosave(tmp_path)
    assert line is not None and line.startswith("Pah-Tum · move 2 · Ann v AI (easy) · ")
    assert line.split(" · ")[:3] == store.describe_save(
        autosave_path(tmp_path, "pahtum")).split(" · ")[:3]
    clear_autosave(tmp_path)
    assert read_autosave(tmp_path) is None and describe_autosave(tmp_path) is None
    clear_autosave(tmp_path)  # nothing to clear is fine


def test_a_slot_written_by_another_is_neither_overwritten_nor_removed(tmp_path: Path) -> None:
    doc = in_progress()
    mine = write_autosave(tmp_path, doc)
    path = autosave_path(tmp_path, "pahtum")
    assert path.read_text(encoding="utf-8") == mine
    game = get_game("pahtum").new({"board": "sample"})
    game.replay(["A1"])
    theirs = write_autosave(tmp_path, doc_from_game(game, PLAYERS))  # another Arena's
    for job in (lambda: write_autosave(tmp_path, doc, held=mine),
                lambda: clear_autosave(tmp_path, "pahtum", held=mine)):
        with pytest.raises(SlotTaken):
            job()
        assert path.read_text(encoding="utf-8") == theirs
    assert write_autosave(tmp_path, doc, held=theirs) == mine  # its holder's
    clear_autosave(tmp_path, "pahtum", held=mine)
    assert not path.exists()
    assert write_autosave(tmp_path, doc, held=theirs) == mine  # gone: free


def test_the_last_write_wins_and_leaves_no_temp(tmp_path: Path) -> None:
    doc = in_progress()
    write_autosave(tmp_path, doc)
    game = get_game("pahtum").new({"board": "sample"})
    game.replay(["A1"])
    write_autosave(tmp_path, doc_from_game(game, PLAYERS))
    got = read_autosave(tmp_path)
    assert got is not None and got[1].history_text() == ["A1"]
    assert [p.name for p in (tmp_path / "autosave").iterdir()] == ["pahtum.arena.json"]


def test_the_autosave_is_not_a_named_save(tmp_path: Path) -> None:
    write_save(tmp_path / "named.arena.json", in_progress())
    write_autosave(tmp_path, in_progress())
    assert [p.name for p in list_saves(tmp_path)] == ["named.arena.json"]
    assert [p.name for p in list_saves(tmp_path, native=True)] == ["named.arena.json"]


def test_each_game_has_its_own_slot(tmp_path: Path) -> None:
    write_autosave(tmp_path, in_progress())
    done = play_out(new_game("pousse", 2), random.Random(2))
    write_autosave(tmp_path, doc_from_game(done, PLAYERS))
    assert [name for name, _ in store.autosaves(tmp_path)] == ["pousse", "pahtum"]
    assert read_autosave(tmp_path, "pahtum")[1].history_text() == ["A1", "B2", "C3"]
    clear_autosave(tmp_path, "pousse")
    assert [name for name, _ in store.autosaves(tmp_path)] == ["pahtum"]


def test_a_finished_game_is_described_as_such(tmp_path: Path) -> None:
    done = play_out(new_game("pousse", 2), random.Random(2))
    write_autosave(tmp_path, doc_from_game(done, PLAYERS))
    line = describe_autosave(tmp_path)
    assert line is not None and line.startswith("Pousse · finished · Ann v AI (easy) · ")


@pytest.mark.parametrize("damage", [
    "{not json", "", "\x00\x01", '{"format": "arena-save", "version": 2}',
])
def test_a_damaged_autosave_is_set_aside(tmp_path: Path, damage: str) -> None:
    write_autosave(tmp_path, in_progress())
    path = autosave_path(tmp_path, "pahtum")
    path.write_text(damage)
    assert describe_autosave(tmp_path) is None
    assert not path.exists() and path.with_name("pahtum.arena.json.damaged").read_text() == damage
    assert read_autosave(tmp_path) is None
    write_autosave(tmp_path, in_progress())  # a new autosave goes on as usual
    assert read_autosave(tmp_path) is not None


def test_a_newer_damage_replaces_the_older_one(tmp_path: Path) -> None:
    folder = tmp_path / "autosave"
    folder.mkdir()
    for text in ["first", "second"]:
        (folder / "last.arena.json").write_text(text)
        assert read_autosave(tmp_path) is None
    assert sorted(p.name for p in folder.iterdir()) == ["last.arena.json.damaged"]
    assert (folder / "last.arena.json.damaged").read_text() == "second"


def test_odd_autosaves_never_raise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "autosave"
    folder.mkdir()
    (folder / "last.arena.json").mkdir()  # a folder where the file should be
    assert read_autosave(tmp_path) is None
    (folder / "last.arena.json.damaged").rmdir()
    (folder / "last.arena.json").symlink_to(folder / "last.arena.json")
    assert describe_autosave(tmp_path) is None
    (folder / "last.arena.json.damaged").unlink()

    def broken(doc: object) -> None:
        raise RuntimeError("a bug elsewhere")

    write_autosave(tmp_path, in_progress())
    monkeypatch.setattr(store, "restore", broken)
    assert read_autosave(tmp_path) is None
    assert (folder / "pahtum.arena.json.damaged").exists()


def test_writes_that_fail_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SaveError, match="^could not autosave in .*missing/autosave: No such"):
        write_autosave(tmp_path / "missing", in_progress())
    assert not (tmp_path / "missing").exists()  # no folder created on the way
    (tmp_path / "autosave").write_text("a file where the folder goes")
    with pytest.raises(SaveError, match="could not autosave in"):
        write_autosave(tmp_path, in_progress())
    (tmp_path / "autosave").unlink()
    write_autosave(tmp_path, in_progress())

    def refuse(self: Path, missing_ok: bool = False) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "unlink", refuse)
    with pytest.raises(SaveError, match="^could not remove the autosave .*: Permission denied$"):
        clear_autosave(tmp_path)


def test_an_autosave_text_is_a_save_text(tmp_path: Path) -> None:
    doc = in_progress()
    write_autosave(tmp_path, doc)
    assert autosave_path(tmp_path, "pahtum").read_text() == dumps(doc)
