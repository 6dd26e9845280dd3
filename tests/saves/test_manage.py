"""Renaming and deleting a listed file (the load dialog's save management), and the list as
data: its filter, its orders and a file's preview line. A refused rename or delete leaves
every file as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rules import PlayerSpec, game_names, get_game
from saves.catalog import Order, entries, preview, select
from saves.format import SaveError, doc_from_game
from saves.store import (
    delete_save,
    export_native,
    list_saves,
    rename_save,
    summarize_save,
    write_save,
)

PLAYERS = [PlayerSpec.human("Ann"), PlayerSpec.human("Bob")]


def save(folder: Path, name: str, moves: int = 2, game: str = "pahtum",
         mtime: int | None = None) -> Path:
    played = get_game(game).new(None, seed=1)
    for _ in range(moves):
        played.play(sorted(played.legal_moves(), key=str)[0])
    path = folder / name
    write_save(path, doc_from_game(played, [PlayerSpec.human("Ann")]
                                   + [PlayerSpec.human("Bob")] * (played.players - 1)))
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


# ----- rename ----------------------------------------------------------------------------------


def test_rename_keeps_the_content_and_the_kind(tmp_path: Path) -> None:
    old = save(tmp_path, "a.arena.json")
    text = old.read_bytes()
    new = rename_save(tmp_path, old, "  my game ")
    assert new == tmp_path.resolve() / "my game.arena.json"
    assert not old.exists() and new.read_bytes() == text
    native = tmp_path / "pos.txt"
    export_native(get_game("pahtum").new(None, seed=1), native)
    assert rename_save(tmp_path, native, "start").name == "start.txt"  # a position stays one
    assert rename_save(tmp_path, new, "my game.arena.json").name == "my game.arena.json"


@pytest.mark.parametrize(("name", "why"), [
    ("../out", "cannot contain '/'"), ("sub/x", "cannot contain '/'"),
    (".hidden", "cannot start with '.'"), ("   ", "cannot be empty"),
    ("bad\x1bname", "control characters"), ("b", "already exists"),
])
def test_a_refused_rename_changes_nothing(tmp_path: Path, name: str, why: str) -> None:
    old = save(tmp_path, "a.arena.json")
    save(tmp_path, "b.arena.json")
    before = files(tmp_path)
    with pytest.raises(SaveError, match=why) as caught:
        rename_save(tmp_path, old, name)
    assert "\n" not in str(caught.value)
    assert files(tmp_path) == before


def test_rename_refuses_what_the_list_would_not_show(tmp_path: Path) -> None:
    outside = save(tmp_path, "out.arena.json")
    folder = tmp_path / "saves"
    folder.mkdir()
    with pytest.raises(SaveError, match="not in the saves folder"):
        rename_save(folder, outside, "in")
    (folder / "notes.md").write_text("mine")
    with pytest.raises(SaveError, match="not a save, a game record or an exported position"):
        rename_save(folder, folder / "notes.md", "x")
    (folder / "dir.arena.json").mkdir()
    with pytest.raises(SaveError, match="is a folder"):
        rename_save(folder, folder / "dir.arena.json", "x")
    os.mkfifo(folder / "pipe.arena.json")
    with pytest.raises(SaveError, match="not a regular file"):
        rename_save(folder, folder / "pipe.arena.json", "x")
    with pytest.raises(SaveError, match="no such file"):
        rename_save(folder, folder / "gone.arena.json", "x")
    assert sorted(p.name for p in folder.iterdir()) == [
        "dir.arena.json", "notes.md", "pipe.arena.json"]
    assert outside.exists()


def test_a_link_is_renamed_itself_never_its_target(tmp_path: Path) -> None:
    target = save(tmp_path, "target.arena.json")
    folder = tmp_path / "saves"
    folder.mkdir()
    (folder / "link.arena.json").symlink_to(target)
    new = rename_save(folder, folder / "link.arena.json", "renamed")
    assert new.is_symlink() and target.exists() and target.name == "target.arena.json"
    (folder / "exit.arena.json").symlink_to(tmp_path / "elsewhere.arena.json")
    save(folder, "mine.arena.json")
    with pytest.raises(SaveError, match="leave the folder"):
        rename_save(folder, folder / "mine.arena.json", "exit")
    assert (folder / "mine.arena.json").exists()


# ----- delete ----------------------------------------------------------------------------------


def test_delete_removes_a_save_or_a_position(tmp_path: Path) -> None:
    one = save(tmp_path, "one.arena.json")
    pos = tmp_path / "pos.txt"
    export_native(get_game("pahtum").new(None, seed=1), pos)
    delete_save(one, tmp_path)
    delete_save(pos)
    assert list(tmp_path.iterdir()) == []


def test_a_refused_delete_removes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    outside = save(tmp_path, "out.arena.json")
    target = save(tmp_path, "target.arena.json")
    (folder / "link.arena.json").symlink_to(target)
    (folder / "dir.arena.json").mkdir()
    os.mkfifo(folder / "pipe.txt")
    (folder / "notes.md").write_text("mine")
    for path, why in [(outside, "not in the saves folder"), (folder / "dir.arena.json",
                      "is a folder"), (folder / "pipe.txt", "not a regular file"),
                      (folder / "notes.md", "not a save"), (folder / "x.txt", "no such file")]:
        with pytest.raises(SaveError, match=why):
            delete_save(path, folder)
    assert outside.exists()
    delete_save(folder / "link.arena.json", folder)  # the link goes, its target stays
    assert target.exists() and not os.path.lexists(folder / "link.arena.json")
    assert sorted(p.name for p in folder.iterdir()) == ["dir.arena.json", "notes.md", "pipe.txt"]


def test_a_delete_or_rename_the_disk_refuses_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one = save(tmp_path, "one.arena.json")

    def refuse(*_args: object, **_kw: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "unlink", refuse)
    monkeypatch.setattr(os, "rename", refuse)
    with pytest.raises(SaveError, match="could not delete 'one.arena.json': Permission denied"):
        delete_save(one, tmp_path)
    with pytest.raises(SaveError, match="could not rename 'one.arena.json': Permission denied"):
        rename_save(tmp_path, one, "two")
    assert [p.name for p in tmp_path.iterdir()] == ["one.arena.json"]


# ----- the list as data ------------------------------------------------------------------------


def test_entries_filter_by_words_and_game_and_sort(tmp_path: Path) -> None:
    first, second = game_names()[:2]
    save(tmp_path, "zeta.arena.json", game=first, mtime=100)
    save(tmp_path, "Alpha.arena.json", game=second, mtime=300)
    save(tmp_path, "beta.arena.json", game=first, mtime=200)
    (tmp_path / "junk.arena.json").write_text("{")
    os.utime(tmp_path / "junk.arena.json", (400, 400))
    found = entries(list_saves(tmp_path, native=True))
    names = lambda shown: [e.name.split(".")[0] for e in shown]  # noqa: E731
    assert names(select(found)) == ["junk", "Alpha", "beta", "zeta"]
    assert names(select(found, order=Order.NAME)) == ["Alpha", "beta", "junk", "zeta"]
    ranked = [("Alpha", second, 1), ("beta", first, 2), ("zeta", first, 3)]
    expected = sorted(ranked, key=lambda t: (get_game(t[1]).title, t[2]))
    assert names(select(found, order=Order.GAME)) == [n for n, _, _ in expected] + ["junk"]
    assert names(select(found, game=first)) == ["beta", "zeta"]
    assert names(select(found, "ALPHA")) == ["Alpha"]
    assert names(select(found, "unreadable")) == ["junk"]  # the line counts too
    assert names(select(found, f"ann {get_game(second).title.lower()}")) == ["Alpha"]
    assert select(found, "nothing-like-this") == []
    assert [o.next for o in Order] == [Order.NAME, Order.GAME, Order.NEWEST]


def test_summary_and_preview_lines(tmp_path: Path) -> None:
    path = save(tmp_path, "p.arena.json", moves=3)
    assert summarize_save(path)[0] == "pahtum"
    seen = preview(path)
    assert seen.game is not None and len(seen.game.history) == 3
    # the move to play, as the list line counts it (3 moves: into move 2)
    assert seen.line == "Pah-Tum · Ann v Bob · move 2 · Bob to move"
    assert summarize_save(path)[1].startswith("Pah-Tum · move 2 · Ann v Bob · ")
    native = tmp_path / "n.txt"
    export_native(get_game("pahtum").new(None, seed=1), native)
    assert summarize_save(native) == ("pahtum", "Pah-Tum position, native format")
    assert preview(native).line == "Pah-Tum · native position · X to move"
    (tmp_path / "bad.arena.json").write_text("{")
    assert summarize_save(tmp_path / "bad.arena.json")[0] is None
    bad = preview(tmp_path / "bad.arena.json")
    assert bad.game is None and bad.line.startswith("cannot preview: ")
    assert "bad.arena.json" not in bad.line  # the pane names the file above the line


def test_the_preview_line_gives_the_result(tmp_path: Path) -> None:
    game = get_game("pahtum").new(None, seed=1)
    while not game.is_over:
        game.play(sorted(game.legal_moves(), key=str)[0])
    path = tmp_path / "done.arena.json"
    write_save(path, doc_from_game(game, PLAYERS))
    line = preview(path).line
    outcome = game.outcome
    assert outcome is not None and line.endswith(f"({outcome.label})")
    assert f" · {len(game.history)} moves · " in line  # a finished game: all its moves
    assert ("draw" in line) if outcome.is_draw else (" won (" in line)


def test_a_renamed_game_record_stays_a_record(tmp_path: Path) -> None:
    from saves.format import loads
    from saves.store import write_record

    path = save(tmp_path, "old.arena.json", moves=3)
    record = tmp_path / "old.arena.txt"
    write_record(record, loads(path.read_text(encoding="utf-8")))
    renamed = rename_save(tmp_path, record, "new")
    assert renamed.name == "new.arena.txt"
    assert summarize_save(renamed)[1].endswith("· record")
