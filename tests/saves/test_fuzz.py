"""Fuzzing the save format: whatever the bytes, loading gives a game or a SaveError of one
short line, never another exception; and whatever loads can be saved again.

Two generators: a seeded mutation fuzzer over the text of valid saves (characters and
values), and hypothesis generating save documents of the right shape with random values in
every field. $ARENA_FUZZ sets the inputs per generator (default 400: a few seconds in all);
`ARENA_FUZZ=10000 pytest tests/saves/test_fuzz.py` is the full run (30,000 inputs).
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from conftest import new_game, play_out, random_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Clock, MatchState, PlayerSpec, Termination, TimeControl, game_names, get_game
from rules.players import LEVELS
from saves.format import SaveError, doc_from_game, dumps, loads, restore

RUNS = int(os.environ.get("ARENA_FUZZ", "400"))


def valid_saves() -> list[str]:
    """A few valid saves of every game: mid-game, finished, forfeited, in a match."""
    texts = []
    for name in game_names():
        cls = get_game(name)
        n = cls.player_count[0]
        seats = [PlayerSpec.human("Ann")] + [PlayerSpec.ai("easy")] * (n - 1)
        clock = Clock(TimeControl.parse("game:300"), [float(10 + p) for p in range(n)])
        done = play_out(new_game(name, 3), random.Random(3))
        rule = cls.match_rule
        match = MatchState(rule, n, rule.length - 1, [done.outcome] * (rule.length - 1))
        flagged = random_position(name, 4, plies=5)
        flagged.forfeit(flagged.to_move, Termination.TIME, "out of time")
        for game, m in [(random_position(name, 1, plies=7), match), (done, None),
                        (flagged, None)]:
            texts.append(dumps(doc_from_game(game, seats, clock, m)))
    return texts


BASES = valid_saves()
CHARS = '{}[]",:.-+eE0123456789 \n\\tnulfasrxXO#LRTB\u00e9\ud800'
VALUES: list[Any] = [None, True, False, 0, -1, 1, 2, 7, 10**40, 1.5, -0.0, 1e300, "", "x",
                     "A1", "L1", "none", "time", [], {}, [[1]], [{"x": 1}], [0, 0], [1, 0, 0],
                     {"kind": "move", "seconds": 1e9}, "0001-01-01T00:00:00+14:00"]


def char_edit(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(text) + 1)
        edit = rng.randrange(4)
        if edit == 0:
            text = text[:i] + text[i + 1:]
        elif edit == 1:
            text = text[:i] + rng.choice(CHARS) + text[i:]
        elif edit == 2:
            text = text[:i] + rng.choice(CHARS) + text[i + 1:]
        else:
            j = rng.randrange(len(text) + 1)
            text = text[:i] + text[min(i, j):max(i, j)] + text[i:]
    return text


def containers(value: Any) -> list[Any]:
    """Every dict and list inside `value`, itself included."""
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict | list):
            found.append(item)
            stack.extend(item.values() if isinstance(item, dict) else item)
    return found


def value_swap(text: str, rng: random.Random) -> str:
    data = json.loads(text)
    for _ in range(rng.randint(1, 2)):
        spots = [c for c in containers(data) if c]
        where = rng.choice(spots)
        key = rng.choice(list(where)) if isinstance(where, dict) else rng.randrange(len(where))
        pool = VALUES + rng.sample(spots, min(3, len(spots)))
        action = rng.randrange(5)
        if action == 0 and isinstance(where, dict):
            del where[key]
        elif action == 1 and isinstance(where, list):
            other = rng.randrange(len(where))
            where[key], where[other] = where[other], where[key]
        else:
            where[key] = copy.deepcopy(rng.choice(pool))  # never a loop, never shared
    return json.dumps(data, ensure_ascii=rng.random() < 0.5)


def check(text: str) -> str:
    """Loading gives a game or one SaveError line; a loaded save writes and loads again,
    to the same text. Which of the two happened: "restored" or "refused"."""
    try:
        doc = loads(text)
        game = restore(doc)
    except SaveError as err:
        message = str(err)
        assert message and message.isprintable() and len(message) <= 300, message
        return "refused"
    again = dumps(doc)
    again.encode("utf-8")  # no lone surrogate: the file can be written
    back = loads(again)
    assert restore(back).key() == game.key() and dumps(back) == again
    return "restored"


@pytest.mark.parametrize("mutate", [char_edit, value_swap], ids=["chars", "values"])
def test_mutated_saves_load_or_give_one_line(mutate: Callable[[str, random.Random], str]
                                            ) -> None:
    rng = random.Random(2026)
    for i in range(RUNS):
        text = mutate(BASES[i % len(BASES)], rng)
        try:
            check(text)
        except Exception as err:  # noqa: BLE001 - report the input that broke the contract
            pytest.fail(f"mutation {i}: {type(err).__name__}: {err}\n{text[:2000]}")


def test_the_fuzzer_reaches_deep_checks() -> None:
    """The mutations are not all refused at the JSON level: the fuzzer is worth its time."""
    rng = random.Random(7)
    loaded = refused_later = 0
    for i in range(200):
        try:
            doc = loads(value_swap(BASES[i % len(BASES)], rng))
        except SaveError:
            continue
        loaded += 1
        try:
            restore(doc)
        except SaveError:
            refused_later += 1
    assert loaded >= 20 and refused_later >= 1


# ----- hypothesis: documents of the right shape, random values in every field ----------

BASE_DATA = [json.loads(text) for text in BASES]
ABSENT = object()  # a field left out of the document
TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)  # surrogates too
WHOLE = st.integers(-3, 12) | st.integers(-(10**40), 10**40)
NUMBER = WHOLE | st.floats(allow_nan=True, allow_infinity=True) | st.floats(0, 2e9)
SCALAR = st.none() | st.booleans() | NUMBER | TEXT
JUNK = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(TEXT, inner, max_size=3), max_leaves=6)
KINDS = [t.value for t in Termination]


def other(*strategies: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Another value for a field: a likely one, junk of any shape, or none at all."""
    return st.one_of(*strategies, JUNK, st.just(ABSENT))


def saved_at() -> st.SearchStrategy[str]:
    offsets = st.integers(-1439, 1439).map(lambda m: timezone(timedelta(minutes=m)))
    aware = st.builds(lambda when, zone: when.replace(tzinfo=zone).isoformat(),
                      st.datetimes(), offsets)
    return st.one_of(aware, st.datetimes().map(datetime.isoformat),
                     st.datetimes(timezones=st.just(UTC)).map(lambda d: d.strftime(
                         "%Y-%m-%dT%H:%M:%SZ")), TEXT)


def player() -> st.SearchStrategy[Any]:
    kind = st.sampled_from(["human", "ai", "bot", "AI"]) | TEXT
    level = st.sampled_from([*LEVELS, "Max", ""]) | TEXT | st.none() | NUMBER
    return st.fixed_dictionaries({"kind": kind}, optional={"level": level, "name": TEXT | JUNK}) \
        | st.sampled_from(["human", "ai", "ai:max", "ai:", "robot"])


def outcome() -> st.SearchStrategy[Any]:
    seats = st.lists(WHOLE, max_size=3)
    return st.fixed_dictionaries(
        {"points": st.lists(WHOLE | NUMBER, max_size=3)},
        optional={"winners": seats, "winner": WHOLE | st.none(), "loser": WHOLE | st.none(),
                  "kind": st.sampled_from(KINDS) | TEXT, "reason": TEXT | JUNK})


def moves(base: list[str]) -> st.SearchStrategy[Any]:
    """Often a prefix of the real moves (a valid game), else moves edited or made up."""
    prefix = st.integers(0, len(base)).map(lambda n: base[:n])
    edited = st.builds(lambda n, move: base[:n] + [move] + base[n + 1:],
                       st.integers(0, len(base)), TEXT | JUNK)
    return st.one_of(prefix, prefix, edited, st.lists(TEXT, max_size=4))


def clock(base: dict[str, Any]) -> st.SearchStrategy[Any]:
    kind = st.sampled_from(["none", "move", "game", "Move"]) | TEXT
    used = st.lists(NUMBER, min_size=1, max_size=3)
    return st.fixed_dictionaries({"kind": kind}, optional={"seconds": NUMBER, "used": used}) \
        | st.builds(lambda u: {**base, "used": u}, used)


def match(base: dict[str, Any] | None) -> st.SearchStrategy[Any]:
    results = st.lists(outcome() | st.just([1]) | st.just({"x": 1}) | st.lists(WHOLE), max_size=3)
    made_up = st.fixed_dictionaries({}, optional={"length": WHOLE, "index": WHOLE,
                                                  "results": results | JUNK})
    return st.none() | made_up if base is None else st.none() | made_up | st.builds(
        lambda i: {**base, "index": i}, WHOLE)


def others_for(base: dict[str, Any]) -> dict[str, st.SearchStrategy[Any]]:
    """For each field of `base`, what may replace it (built once: building is slow)."""
    return {
        "format": other(st.sampled_from(["Arena-Save", ""])),
        "version": other(st.sampled_from([1, 3]), WHOLE),
        "game": other(st.sampled_from([*game_names(), "Pah-Tum", "chess"])),
        "saved_at": other(saved_at()),
        "players": other(st.lists(player(), max_size=4)),
        "options": other(st.dictionaries(st.sampled_from([*base["options"], "x"]), JUNK,
                                         max_size=2)),
        "start": other(st.lists(TEXT, max_size=8)),
        "moves": other(moves(base["moves"])),
        "clock": other(clock(base["clock"])),
        "clocks": st.lists(NUMBER, max_size=3),  # version 1's, ignored by version 2
        "result": other(st.none(), outcome()),
        "match": other(match(base["match"])),
    }


OTHERS = [others_for(base) for base in BASE_DATA]
FIELDS = list(OTHERS[0])


@st.composite
def documents(draw: st.DrawFn) -> str:
    """A save's JSON: a real game's document with a few of its fields replaced or left out
    (none, for a valid one; one, to reach the checks behind the others; or many)."""
    which = draw(st.integers(0, len(BASE_DATA) - 1))
    count = draw(st.sampled_from([0, 1, 1, 1, 2, 3]) | st.integers(0, len(FIELDS)))
    data = dict(BASE_DATA[which])
    for key in draw(st.permutations(FIELDS))[:count]:
        data[key] = draw(OTHERS[which][key])
    data = {key: value for key, value in data.items() if value is not ABSENT}
    return json.dumps(data, ensure_ascii=draw(st.booleans()))


def test_generated_documents_load_or_give_one_line() -> None:
    """A valid document restores and saves again; anything else is one SaveError line."""
    seen: Counter[str] = Counter()

    @settings(max_examples=RUNS, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(documents())
    def run(text: str) -> None:
        seen[check(text)] += 1

    run()
    # The generator is worth its time: a good share of documents pass every check.
    assert seen["restored"] >= RUNS // 20 and seen["refused"] >= RUNS // 4, seen
