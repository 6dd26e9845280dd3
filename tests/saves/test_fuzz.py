"""A seeded mutation fuzzer over save files: whatever the bytes, loading gives a game or a
SaveError of one line, never another exception; and whatever loads can be saved again.

$ARENA_FUZZ sets the number of mutated files per test (default 400; CI runs may raise it).
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Callable
from typing import Any

import pytest
from conftest import new_game, play_out, random_position

from rules import Clock, MatchState, PlayerSpec, Termination, TimeControl, game_names, get_game
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


def check(text: str) -> None:
    """Loading gives a game or one SaveError line; a loaded save writes and loads again."""
    try:
        doc = loads(text)
        game = restore(doc)
    except SaveError as err:
        assert str(err) and "\n" not in str(err) and len(str(err)) <= 300
        return
    again = dumps(doc)
    again.encode("utf-8")
    assert restore(loads(again)).key() == game.key()


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
