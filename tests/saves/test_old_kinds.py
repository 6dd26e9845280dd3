"""Saves written while termination kinds named each game's endings (`board_full`,
`straights`, `repetition`, `connection`, `move_limit`, `no_moves`, `last_cell`) still
load: each old kind is read as the ending it stood for, in the game's own words, and
checked against the replay as any kind is; new saves write the generic kind and the
game's words."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import new_game, play_out

from rules import Game, MatchState, PlayerSpec, Termination, get_game
from rules.outcome import OLD_KINDS, Ending, outcome_from_json
from saves.format import doc_from_game, dumps, loads, restore

# Every old kind a version-2 save could hold, with each game that ended so.
OLD_CASES = [
    ("board_full", "pahtum"), ("board_full", "boxing"), ("straights", "pousse"),
    ("repetition", "pousse"), ("connection", "loaps"), ("move_limit", "loaps"),
    ("last_cell", "pillars"), ("last_cell", "boxing"),
]
FULL_ARENA = ("A" * 32 + "\n") * 8 + ("B" * 32 + "\n") * 8


def ended_by(name: str, ending: Ending) -> Game:
    """A seeded random game of `name` that ends by `ending` (small Pousse boards repeat;
    a Boxing arena that came full ends before any move)."""
    if name == "boxing" and ending.label == "board full":
        return get_game(name).from_native(FULL_ARENA)
    options = {"size": 4} if name == "pousse" else None
    for seed in range(200):
        game = play_out(get_game(name).new(options, seed=seed), random.Random(seed))
        if game.outcome is not None and game.outcome.ending == ending:
            return game
    raise AssertionError(f"no random {name} game ended by {ending}")


def saved_with_kind(game: Game, kind: str) -> dict[str, Any]:
    """`game`'s save as that Arena wrote it: the old kind, no label."""
    data = json.loads(dumps(doc_from_game(game, [PlayerSpec.human()] * game.players)))
    data["result"]["kind"] = kind
    del data["result"]["label"]
    return data


def test_every_old_kind_is_mapped() -> None:
    assert set(OLD_KINDS) == {kind for kind, _ in OLD_CASES}
    assert all(ending.kind is not Termination.TIME for ending in OLD_KINDS.values())
    assert Termination("no_moves") is Termination.NO_MOVES  # kept as it was, as are time, fault


@pytest.mark.parametrize(("kind", "name"), OLD_CASES)
def test_an_old_kind_save_loads_as_the_games_ending(kind: str, name: str) -> None:
    ending = OLD_KINDS[kind]
    assert ending in get_game(name).endings  # the old words are still the game's own
    game = ended_by(name, ending)
    doc = loads(json.dumps(saved_with_kind(game, kind)))
    assert doc.result is not None and doc.result.ending == ending
    restored = restore(doc)
    assert restored.outcome == game.outcome and restored.outcome.ending == ending
    again = json.loads(dumps(doc))["result"]  # saved again: the generic kind, the words
    assert (again["kind"], again["label"]) == (ending.kind.value, ending.label)


def test_an_old_no_moves_save_loads() -> None:
    data = {"kind": "no_moves", "winners": [0], "points": [8, 0], "reason": "blue is stuck"}
    outcome = outcome_from_json(data, 2)
    assert outcome.ending == Ending(Termination.NO_MOVES, "no legal move")
    assert outcome.ending in get_game("loaps").endings


def test_an_old_kind_in_a_match_loads() -> None:
    cls = get_game("loaps")
    data = {"length": 2, "index": 1, "results": [
        {"kind": "connection", "winner": 0, "winners": [0], "points": [20, 3], "reason": "r"}]}
    match = MatchState.from_json(data, cls.match_rule, 2)
    assert match.results[0].ending == OLD_KINDS["connection"] and match.standing() == [2.0, 0.0]


def test_a_new_save_names_the_generic_kind_and_the_games_words(game_name: str) -> None:
    game = play_out(new_game(game_name, 1), random.Random(1))
    assert game.outcome is not None
    result = json.loads(dumps(doc_from_game(game, [PlayerSpec.human()] * game.players)))[
        "result"]
    assert result["kind"] in {k.value for k in Termination} and result["kind"] not in OLD_KINDS
    assert result["label"] == game.outcome.label
    assert restore(loads(dumps(doc_from_game(game, [PlayerSpec.human()] * game.players)))
                   ).outcome == game.outcome


@pytest.mark.parametrize("label", [5, "", "x" * 200, None])
def test_a_bad_label_is_refused(label: object) -> None:
    data = {"kind": "rule", "label": label, "winners": [0], "points": [1, 0], "reason": ""}
    with pytest.raises(ValueError, match="label"):
        outcome_from_json(data, 2)
