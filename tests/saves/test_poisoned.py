"""One bad file never crashes a listing: a poisoned saves folder lists every file, each
described in one line ("unreadable: <why>" or its summary), and whatever loads saves again."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rules import Clock, PlayerSpec, TimeControl, get_game
from saves import store
from saves.format import SaveError, doc_from_game, dumps, loads, restore
from saves.store import describe_save, list_saves, read_save

PLAYERS = [PlayerSpec.human("Ann"), PlayerSpec.ai("max")]


def good_data() -> dict[str, Any]:
    game = get_game("pahtum").new({"board": "sample"})
    game.replay(["A1", "B2"])
    doc = doc_from_game(game, PLAYERS, Clock(TimeControl.parse("game:300"), [1.5, 2.0]))
    return json.loads(dumps(doc))


def changed(path: str, value: Any) -> str:
    """The good save with the field at dotted `path` set to `value`, as JSON text."""
    data = good_data()
    *parents, last = path.split(".")
    where = data
    for key in parents:
        where = where[int(key)] if isinstance(where, list) else where[key]
    if isinstance(where, list):
        where[int(last)] = value
    else:
        where[last] = value
    return json.dumps(data)


GOOD = json.dumps(good_data())
# name -> (text, words of the reason); None words: the file is valid and must load.
TEXTS: dict[str, tuple[str, str | None]] = {
    "year-0001": (changed("saved_at", "0001-01-01T00:00:00+14:00"), "in the year 1;"),
    "tz-over": (changed("saved_at", "9999-12-31T23:59:59+23:59"), "in the year 9999;"),
    "tz-under": (changed("saved_at", "9999-12-31T23:59:59-23:59"), "in the year 9999;"),
    "tz-year1": (changed("saved_at", "0001-01-01T00:00:00-00:01"), "in the year 1;"),
    "tz-24h": (changed("saved_at", "2026-01-01T00:00:00+24:00"), "not an ISO date"),
    "tz-edge": (changed("saved_at", "9998-12-31T23:59:59-23:59"), None),
    "epoch": (changed("saved_at", "1970-01-01T00:00:00"), None),
    "digits-move": (GOOD.replace('"moves": [', '"moves": [' + "9" * 5000 + ", "),
                    "a number has 5,000 digits"),
    "digits-clock": (GOOD.replace('"used": [', '"used": [-' + "1" * 5000 + ", "),
                     "a number has 5,001 digits"),
    "digits-version": (GOOD.replace('"version": 2', '"version": ' + "2" * 5000), "digits"),
    "deep": (GOOD.replace('"moves": [', '"moves": ' + "[" * 100_000), "nested too deeply"),
    "deep-closed": (GOOD.replace('"match": null', '"match": ' + "[" * 50_000 + "]" * 50_000),
                    "nested too deeply"),
    "clock-inf": (GOOD.replace('"used": [1.5', '"used": [1e400'), "out of range: \"1e400\""),
    "limit-inf": (GOOD.replace('"seconds": 300.0', '"seconds": 1e400'), "out of range"),
    "clock-nan": (GOOD.replace('"used": [1.5', '"used": [NaN'), "NaN is not a number"),
    "clock-huge": (changed("clock.used", [1e300, 0]), "times from 0 to 1,000,000,000"),
    "results-list": (changed("match", {"length": 2, "index": 1, "results": [[1]]}),
                     "'match.results' game 1"),
    "results-object": (changed("match", {"length": 2, "index": 1, "results": [{"x": 1}]}),
                       "'match.results' game 1"),
    "match-past": (changed("match", {"length": 2, "index": 8, "results": []}),
                   "'match.index' 8 is outside a match of 2"),
    "match-length": (changed("match", {"length": 9, "index": 0, "results": []}),
                     "'match.length' is 9"),
    "surrogate-name": (changed("players.0.name", "\ud800"), None),
    "surrogate-mixed": (changed("players.0.name", "Bo\udfff\u0000b"), None),
    "surrogate-move": (changed("moves.0", "\ud800"), "cannot replay the moves"),
    "empty": ("", "the file is empty"),
    "cut": (GOOD[:-30], "truncated"),
}
assert all(text != GOOD for text, _ in TEXTS.values())  # every damage took
VALID = {"tz-edge", "epoch", "surrogate-name", "surrogate-mixed"}
REPLAYED = {"surrogate-move"}  # refused by the replay: listed as a save, refused on loading


@pytest.fixture
def poisoned(tmp_path: Path) -> Path:
    """A saves folder holding one file of every kind of damage, and two good files."""
    folder = tmp_path / "saves"
    folder.mkdir()
    for name, (text, _) in TEXTS.items():
        # surrogates cannot be UTF-8: written escaped, as a save holds them
        (folder / f"{name}.arena.json").write_text(text, encoding="utf-8",
                                                   errors="backslashreplace")
    (folder / "good.arena.json").write_text(GOOD)
    (folder / "a-folder.arena.json").mkdir()
    (folder / "loop.arena.json").symlink_to(folder / "loop.arena.json")
    (folder / "dangling.arena.json").symlink_to(folder / "nowhere")
    (folder / "big.arena.json").write_bytes(b" " * 10_000_000 + GOOD.encode())
    (folder / "binary.arena.json").write_bytes(bytes(range(256)) * 40)
    (folder / "binary.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff")
    (folder / "junk.txt").write_text("hello\n")
    os.mkfifo(folder / "pipe.arena.json")
    locked = folder / "locked.arena.json"
    locked.write_text(GOOD)
    locked.chmod(0)
    yield folder
    locked.chmod(0o644)


REASONS = {
    "a-folder": "is a folder, not a file",
    "loop": "cannot read it: Too many levels of symbolic links",
    "dangling": "no such file",
    "big": "too large for a save or position (over 4,000,000 bytes)",
    "binary": "not a text file (not UTF-8)",
    "pipe": "not a regular file (a pipe, a socket or a device)",
    "junk": "not an Arena save nor a position",
}


def test_every_file_is_listed_and_described_in_one_line(poisoned: Path) -> None:
    listed = {p.name for p in list_saves(poisoned, native=True)}
    expected = {f"{name}.arena.json" for name in [*TEXTS, "good", "locked"]}
    expected |= {f"{name}.arena.json" for name in REASONS} - {"junk.arena.json"}
    assert listed == expected | {"binary.txt", "junk.txt"}
    for path in list_saves(poisoned, native=True):
        stem = path.name.split(".")[0]
        started = time.perf_counter()
        line = describe_save(path)
        assert time.perf_counter() - started < 5, path.name  # generous: never a hang
        assert "\n" not in line and len(line) < 340 and "unexpected" not in line, line
        words = TEXTS[stem][1] if stem in TEXTS else REASONS.get(stem)
        if stem in VALID | REPLAYED | {"good"}:
            assert re.match(r"Pah-Tum · move 2 · \S+ v AI \(max\) · ", line), (stem, line)
        elif stem == "locked" and os.geteuid() == 0:
            continue  # root reads it anyway; the refusal is tested below
        elif stem == "locked":
            assert line == "unreadable: cannot read it: Permission denied"
        else:
            assert line.startswith("unreadable: ") and words in line, (stem, line)


def test_whatever_loads_saves_again(poisoned: Path) -> None:
    """Each file is a game or one SaveError line; each game writes and reads back."""
    loaded = []
    for path in list_saves(poisoned):
        stem = path.name.split(".")[0]
        try:
            doc, game = read_save(path)
        except SaveError as err:
            assert str(err).startswith(path.name + ": ") and "\n" not in str(err)
            words = TEXTS[stem][1] if stem in TEXTS else REASONS.get(stem, "Permission")
            assert words is not None and words in str(err), (stem, str(err))
            continue
        again = dumps(doc)
        again.encode("utf-8")  # no lone surrogate left: it can be written
        back = loads(again)
        assert back == doc and restore(back).key() == game.key()
        store.write_save(poisoned / "resaved.arena.json", doc)
        assert read_save(poisoned / "resaved.arena.json")[0] == doc
        loaded.append(stem)
    assert set(loaded) - {"locked", "resaved"} == VALID | {"good"}


def test_a_cleaned_name_round_trips() -> None:
    doc = loads(TEXTS["surrogate-mixed"][0])
    assert doc.players[0].name == "Bob"
    assert loads(dumps(doc)).players[0].name == "Bob"


def test_an_unreadable_file_says_so_even_as_root(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "locked.arena.json"
    path.write_text(GOOD)
    real_open = os.open

    def refuse(file: Any, flags: int, *args: Any) -> int:
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied")
        return real_open(file, flags, *args)

    monkeypatch.setattr(store.os, "open", refuse)
    assert describe_save(path) == "unreadable: cannot read it: Permission denied"
    with pytest.raises(SaveError, match="^locked.arena.json: cannot read it: Permission denied$"):
        read_save(path)


@pytest.fixture(params=["UTC-14", "UTC+12", "UTC"])
def local_zone(request: pytest.FixtureRequest) -> Iterator[str]:
    """The process's local zone set to the farthest offsets (POSIX TZ: UTC-14 is +14:00)."""
    if not hasattr(time, "tzset"):
        pytest.skip("no time.tzset here")
    before = os.environ.get("TZ")
    os.environ["TZ"] = request.param
    time.tzset()
    yield request.param
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def test_dates_read_the_same_in_every_time_zone(local_zone: str, poisoned: Path) -> None:
    """Whether a date loads never depends on the zone: the range keeps a day's margin."""
    for stem in ["year-0001", "tz-over", "tz-under", "tz-year1", "tz-edge", "epoch"]:
        line = describe_save(poisoned / f"{stem}.arena.json")
        assert line.startswith("unreadable: ") == (TEXTS[stem][1] is not None), (local_zone, line)


def test_loading_from_the_list_never_waits_on_a_pipe(poisoned: Path) -> None:
    pipe = poisoned / "pipe.arena.json"
    for load in (store.is_save, store.read_native, read_save):
        with pytest.raises(SaveError, match=r"^pipe\.arena\.json: not a regular file"):
            load(pipe)


def test_a_bug_elsewhere_is_still_one_line(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "good.arena.json"
    path.write_text(GOOD)

    def broken(text: str) -> None:
        raise RuntimeError("a bug\nin two lines")

    monkeypatch.setattr(store, "loads", broken)
    assert describe_save(path) == "unreadable: unexpected RuntimeError: a bug in two lines"
