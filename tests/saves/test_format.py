"""The save document: round trips and every way a file can be wrong."""

from __future__ import annotations

import json
import random

import pytest

from rules import get_game
from saves.format import (
    FORMAT,
    LEVELS,
    VERSION,
    PlayerSpec,
    SaveError,
    doc_from_game,
    dumps,
    loads,
    restore,
)

PLAYERS = [PlayerSpec.parse("human"), PlayerSpec.parse("ai:hard")]


def played_pahtum(moves: int | None, seed: int = 3):
    game = get_game("pahtum").new({"blocks": "7"}, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and (moves is None or len(game.history) < moves):
        game.play(rng.choice(game.legal_moves()))
    return game


def as_data(played, **changes) -> str:
    data = json.loads(dumps(doc_from_game(played, PLAYERS)))
    data.update(changes)
    return json.dumps(data)


# ----- players ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "level", "label"),
    [("human", "human", None, "You"), ("ai", "ai", None, "AI"),
     ("AI:Hard", "ai", "hard", "AI (hard)"), (" ai:easy ", "ai", "easy", "AI (easy)")],
)
def test_player_spec_parse(text: str, kind: str, level: str | None, label: str) -> None:
    spec = PlayerSpec.parse(text)
    assert (spec.kind, spec.level, spec.label()) == (kind, level, label)
    assert spec.is_ai == (kind == "ai")
    assert PlayerSpec.parse(spec.text()) == spec


def test_player_labels() -> None:
    assert PlayerSpec("human").label(only_human=False) == "Human"
    assert PlayerSpec("ai", "max", name="Deep Tum").label() == "Deep Tum"


@pytest.mark.parametrize("text", ["robot", "ai:genius", "human:hard", "ai:", "", "ai:hard:x"])
def test_player_spec_refuses_bad_text(text: str) -> None:
    with pytest.raises(SaveError):
        PlayerSpec.parse(text)


def test_levels_match_the_engine() -> None:
    from ai.engine import LEVELS as ENGINE_LEVELS

    assert LEVELS == ENGINE_LEVELS


# ----- round trips -------------------------------------------------------------


def test_round_trip_game_in_progress() -> None:
    game = played_pahtum(11)
    doc = doc_from_game(game, PLAYERS, clocks=(12.25, 3.5))
    text = dumps(doc)
    back = loads(text)
    assert back == doc
    assert back.moves == game.history_text() and len(back.moves) == 11
    assert back.clocks == [12.25, 3.5] and back.result is None
    restored = restore(back)
    assert restored.to_native() == game.to_native()
    assert restored.history == game.history
    assert restored.to_move == game.to_move


def test_round_trip_finished_game_keeps_result_and_match() -> None:
    game = played_pahtum(None)
    assert game.is_over
    match = {"number": 2, "length": 2, "results": [[194, 100]]}
    doc = doc_from_game(game, PLAYERS, match=match)
    back = loads(dumps(doc))
    assert back.match == match
    assert back.result == {
        "winner": game.outcome.winner,
        "points": list(game.outcome.points),
        "reason": game.outcome.reason,
    }
    assert restore(back).outcome == game.outcome


def test_dumps_is_readable_json() -> None:
    game = played_pahtum(4)
    text = dumps(doc_from_game(game, PLAYERS))
    data = json.loads(text)
    assert list(data)[:3] == ["format", "version", "game"]
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["moves"] == game.history_text()
    assert data["start"] == game.start_native().splitlines()  # one row per line
    assert all(len(line) <= 100 for line in text.splitlines())


def test_round_trip_pousse() -> None:
    cls = get_game("pousse")
    game = cls.new({"size": 5})
    for text in ["L1", "T3", "R2", "B5", "L1"]:
        game.play_text(text)
    doc = doc_from_game(game, [PlayerSpec.parse("ai:easy"), PlayerSpec.parse("human")])
    back = restore(loads(dumps(doc)))
    assert back.options == {"size": 5}
    assert back.to_native() == game.to_native()
    assert back.history == game.history


def test_round_trip_keeps_the_pousse_repetition_history() -> None:
    game = get_game("pousse").new({"size": 5})
    for _ in range(6):  # row 1 fills (X O X O X), then O pushes an X off
        game.play_text("L1")
    assert game.preview(("L", 1)).repeats  # X's L1 would bring back an earlier position
    back = restore(loads(dumps(doc_from_game(game, PLAYERS))))
    assert back.preview(("L", 1)).repeats
    assert back._seen == game._seen
    back.undo()
    game.undo()
    assert back._seen == game._seen and back.key() == game.key()


def test_round_trip_finished_pousse() -> None:
    game = get_game("pousse").new({"size": 4})
    rng = random.Random(5)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    doc = loads(dumps(doc_from_game(game, PLAYERS)))
    assert doc.result is not None and restore(doc).outcome == game.outcome


# ----- refusals --------------------------------------------------------------


def refused(text: str) -> str:
    with pytest.raises(SaveError) as info:
        restore(loads(text))
    message = str(info.value)
    assert "\n" not in message and message
    return message


def test_truncated_and_empty_files() -> None:
    text = dumps(doc_from_game(played_pahtum(6), PLAYERS))
    for cut in (len(text) // 2, len(text) - 40, len(text) - 3, 30):
        assert "truncated" in refused(text[:cut])
    assert "empty" in refused("")
    assert "empty" in refused("  \n")


def test_bad_json() -> None:
    text = dumps(doc_from_game(played_pahtum(6), PLAYERS))
    assert "not valid JSON at line" in refused(text.replace(",", ";", 1))


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"format": "chess"}, "not an Arena save"),
        ({"version": "1"}, "bad save version"),
        ({"version": 7}, "newer Arena (version 7)"),
        ({"game": 5}, "'game' must be a game name"),
        ({"options": []}, "'options' must be an object"),
        ({"moves": "A1 B2"}, "'moves' must be a list"),
        ({"moves": ["A1", 7]}, "move 2 must be text"),
        ({"players": [{"kind": "human"}]}, "2 players"),
        ({"players": [{"kind": "alien"}, {"kind": "ai"}]}, "player 1"),
        ({"players": [{"kind": "ai", "level": "godlike"}, {"kind": "ai"}]}, "unknown level"),
        ({"clocks": [1.0, -2.0]}, "'clocks'"),
        ({"clocks": [True, 1.0]}, "'clocks'"),
        ({"result": "X won"}, "'result' must be an object"),
        ({"result": {"winner": 0, "points": "lots"}}, "result.points"),
        ({"match": [1, 2]}, "'match' must be an object or null"),
        ({"saved_at": "yesterday"}, "saved_at"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"start": ["-------"] * 3}, "bad start position"),
    ],
)
def test_wrong_fields_refused(changes: dict, words: str) -> None:
    assert words in refused(as_data(played_pahtum(6), **changes))


def test_missing_field_refused() -> None:
    data = json.loads(as_data(played_pahtum(6)))
    del data["moves"]
    assert "no 'moves' field" in refused(json.dumps(data))


def test_bad_and_illegal_moves_refused() -> None:
    game = played_pahtum(6)
    moves = game.history_text()
    bad = refused(as_data(game, moves=[*moves[:3], "Z9", *moves[4:]]))
    assert "move 4" in bad and "Z9" in bad
    blocked = next(m for m in game.options["blocked"])
    illegal = refused(as_data(game, moves=[*moves, blocked]))
    assert "move 7" in illegal and "not a legal move" in illegal
    twice = refused(as_data(game, moves=[*moves, moves[0]]))
    assert "move 7" in twice


def test_wrong_result_refused_as_hand_edited() -> None:
    done = played_pahtum(None)
    data = json.loads(as_data(done))
    x, o = data["result"]["points"]
    data["result"]["points"] = [x + 10, o]
    assert "hand-edited" in refused(json.dumps(data))
    data["result"] = None
    assert "hand-edited" in refused(json.dumps(data))
    unfinished = played_pahtum(6)
    claim = {"winner": 0, "points": [3, 0], "reason": "X wins"}
    assert "hand-edited" in refused(as_data(unfinished, result=claim))
