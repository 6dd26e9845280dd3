"""Version-1 saves, as the Arena before the version-2 format wrote them, still load.

The texts below are literal files written by that Arena's `saves.format`.
"""

from __future__ import annotations

import json

import pytest

from rules import ClockKind, PlayerSpec, get_game
from rules.pousse import REPETITION
from saves.format import VERSION, SaveError, doc_from_game, dumps, loads, restore

# Pah-Tum on the sample board, in the return game of its match: the first game went 14 to 9.
PAHTUM_RETURN_GAME = """\
{
  "format": "arena-save",
  "version": 1,
  "game": "pahtum",
  "saved_at": "2026-11-22T07:12:00Z",
  "players": [
    {"kind": "ai", "level": "hard"},
    {"kind": "human", "name": "Ada"}
  ],
  "options": {
    "blocked": ["B7", "C4", "E3", "E4", "G1"]
  },
  "start": [
    "-------",
    "------+",
    "---+---",
    "-------",
    "--++---",
    "-------",
    "+------"
  ],
  "moves": ["A1", "D4", "G7", "C2", "B1"],
  "clocks": [12.5, 3.25],
  "result": null,
  "match": {
    "length": 2,
    "index": 1,
    "results": [
      [14, 9]
    ]
  }
}
"""

# Pousse on a 5x5 board, won by O when X repeated an earlier position.
POUSSE_REPETITION = """\
{
  "format": "arena-save",
  "version": 1,
  "game": "pousse",
  "saved_at": "2026-11-23T18:40:05Z",
  "players": [
    {"kind": "human"},
    {"kind": "ai", "level": "easy"}
  ],
  "options": {"size": 5},
  "start": [
    "5"
  ],
  "moves": ["L1", "L1", "L1", "L1", "L1", "L1", "L1"],
  "clocks": [4.0, 0.5],
  "result": {
    "winner": 1,
    "points": [0, 0],
    "reason": "X repeated an earlier position and loses"
  },
  "match": {
    "length": 1,
    "index": 0,
    "results": []
  }
}
"""


def test_pahtum_return_game_loads() -> None:
    doc = loads(PAHTUM_RETURN_GAME)
    assert doc.version == 1 and doc.game == "pahtum"
    assert doc.players == [PlayerSpec.ai("hard"), PlayerSpec.human("Ada")]
    assert doc.clock.control.kind is ClockKind.NONE and doc.clock.used == [12.5, 3.25]
    assert doc.result is None and doc.saved_at == "2026-11-22T07:12:00Z"
    match = doc.match
    assert match is not None and (match.length, match.index) == (2, 1)
    assert [r.points for r in match.results] == [(14, 9)]
    assert [r.winners for r in match.results] == [(0,)]
    assert match.standing() == [5.0, -5.0]  # the first game's margin, per participant
    game = restore(doc)
    expected = get_game("pahtum").new({"board": "sample"})
    expected.replay(["A1", "D4", "G7", "C2", "B1"])
    assert game.to_native() == expected.to_native() and game.to_move == 1
    assert game.options == doc.options and not game.is_over


def test_pousse_repetition_loads() -> None:
    doc = loads(POUSSE_REPETITION)
    assert doc.players == [PlayerSpec.human(), PlayerSpec.ai("easy")]
    assert doc.clock.used == [4.0, 0.5] and not doc.clock.control.limited
    assert doc.match is not None and (doc.match.length, doc.match.index) == (1, 0)
    game = restore(doc)
    expected = get_game("pousse").new({"size": 5})
    expected.replay(["L1"] * 7)
    assert game.to_native() == expected.to_native() and game.key() == expected.key()
    outcome = game.outcome
    assert outcome is not None and outcome.ending == REPETITION
    assert outcome.winners == (1,) and outcome.points == (0, 0)
    # restored, the doc is a current one: it names the way the game ended
    assert doc.version == VERSION and doc.result == outcome


@pytest.mark.parametrize("text", [PAHTUM_RETURN_GAME, POUSSE_REPETITION])
def test_v1_saves_again_as_v2(text: str) -> None:
    doc = loads(text)
    game = restore(doc)
    again = loads(dumps(doc))
    assert again.version == VERSION and json.loads(dumps(doc))["version"] == 2
    assert again.players == doc.players and again.clock == doc.clock
    assert again.match == doc.match and again.saved_at == doc.saved_at
    assert restore(again).key() == game.key()
    fresh = doc_from_game(game, doc.players, doc.clock, doc.match)
    assert restore(loads(dumps(fresh))).outcome == game.outcome


def test_v1_details() -> None:
    """An AI saved without a level plays at the default; players may be `parse` texts."""
    data = json.loads(PAHTUM_RETURN_GAME)
    data["players"] = [{"kind": "ai"}, "ai:max"]
    assert loads(json.dumps(data)).players == [PlayerSpec.ai(), PlayerSpec.ai("max")]


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"clocks": [1.0, -2.0]}, "'clocks' must be times"),
        ({"clocks": [1.0]}, "'clocks' must list 2 times"),
        ({"clocks": "fast"}, "'clocks' must be a list"),
        ({"clock": {"kind": "none", "used": [0, 0]}}, "no 'clocks' field"),
        ({"match": {"length": 2, "index": 2, "results": [[1, 0], [0, 1]]}}, "outside"),
        ({"match": {"length": 2, "index": 1, "results": [[1, 0, 5]]}}, "game 1"),
        ({"result": {"winner": 0, "points": [14, 9]}}, "hand-edited"),
    ],
)
def test_v1_fields_checked(changes: dict, words: str) -> None:
    data = {**json.loads(PAHTUM_RETURN_GAME), **changes}
    if "clock" in changes:
        del data["clocks"]
    with pytest.raises(SaveError) as info:
        restore(loads(json.dumps(data)))
    assert words in str(info.value) and "\n" not in str(info.value)


def test_v1_result_is_checked_by_winner_and_points() -> None:
    data = json.loads(POUSSE_REPETITION)
    data["result"]["winner"] = 0
    with pytest.raises(SaveError, match="hand-edited"):
        restore(loads(json.dumps(data)))
    data["result"] = {"winner": 1, "points": [0, 0], "reason": "any words at all"}
    assert restore(loads(json.dumps(data))).outcome.ending == REPETITION
