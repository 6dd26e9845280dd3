"""The save document: version-2 round trips for every game and every way a file can be wrong."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import new_game, play_out, random_position

from rules import Clock, MatchState, PlayerSpec, Termination, TimeControl, get_game
from saves.format import (
    FORMAT,
    VERSION,
    SaveError,
    doc_from_game,
    dumps,
    loads,
    restore,
)


def seats(n: int) -> list[PlayerSpec]:
    return [PlayerSpec.human("Ada")] + [PlayerSpec.ai("hard")] * (n - 1)


def finished(game_name: str, seed: int):
    return play_out(new_game(game_name, seed), random.Random(seed))


def data_of(played, /, **changes: Any) -> dict[str, Any]:
    data = json.loads(dumps(doc_from_game(played, seats(played.players))))
    data.update(changes)
    return data


def refused(text: str) -> str:
    """The SaveError of loading and replaying `text`: one non-empty line, nothing else."""
    with pytest.raises(SaveError) as info:
        restore(loads(text))
    message = str(info.value)
    assert message and "\n" not in message and len(message) <= 300
    return message


# ----- round trips -------------------------------------------------------------


def test_round_trip_mid_game(game_name: str) -> None:
    game = random_position(game_name, 3, plies=9)
    clock = Clock(TimeControl.parse("move:10"), [12.25, 3.5][: game.players])
    doc = doc_from_game(game, seats(game.players), clock)
    back = loads(dumps(doc))
    assert back == doc and back.version == VERSION
    assert back.moves == game.history_text() and len(back.moves) == 9
    assert back.clock == clock and back.result is None and back.match is None
    restored = restore(back)
    assert restored.to_native() == game.to_native() and restored.key() == game.key()
    assert restored.history == game.history and restored.to_move == game.to_move


def test_doc_is_a_copy_and_defaults_to_no_clock(game_name: str) -> None:
    game = random_position(game_name, 5, plies=2)
    clock = Clock.start(TimeControl.parse("game:60"), game.players)
    doc = doc_from_game(game, seats(game.players), clock)
    clock.charge(0, 5.0)
    game.play(game.legal_moves()[0])
    assert doc.clock.used == [0.0] * game.players and len(doc.moves) == 2
    bare = doc_from_game(game, seats(game.players))
    assert bare.clock == Clock.start(TimeControl.none(), game.players)
    with pytest.raises(SaveError, match="seats"):
        doc_from_game(game, seats(game.players + 1))


def test_round_trip_finished_game(game_name: str) -> None:
    game = finished(game_name, 4)
    doc = loads(dumps(doc_from_game(game, seats(game.players))))
    assert doc.result == game.outcome
    assert restore(doc).outcome == game.outcome


def test_round_trip_forfeit_on_time(game_name: str) -> None:
    game = random_position(game_name, 7, plies=4)
    loser = game.to_move
    game.forfeit(loser, Termination.TIME, "out of time")
    clock = Clock(TimeControl.parse("move:5"), [5.25 if p == loser else 1.0
                                                for p in range(game.players)])
    doc = loads(dumps(doc_from_game(game, seats(game.players), clock)))
    assert doc.result is not None and doc.result.kind is Termination.TIME
    assert doc.result.loser == loser and doc.clock.used[loser] == 5.25
    back = restore(doc)
    assert back.outcome == game.outcome and back.ended == game.ended
    back.resume()  # the flag taken back, play goes on from the same position
    assert not back.is_over and back.key() == game.key()


def test_round_trip_match_in_its_last_game(game_name: str) -> None:
    """A match in its last game (the return game of a two-game match) keeps its results."""
    cls = get_game(game_name)
    rule = cls.match_rule
    game = random_position(game_name, 9, plies=5)
    games = rule.games(game.players)
    earlier = [finished(game_name, 10 + i).outcome for i in range(games - 1)]
    match = MatchState(rule, game.players, games - 1, earlier)
    doc = loads(dumps(doc_from_game(game, seats(game.players), match=match)))
    assert doc.match == match and doc.match is not match
    assert doc.match.standing() == match.standing()
    assert restore(doc).history == game.history


def test_dumps_is_readable_json(game_name: str) -> None:
    game = random_position(game_name, 2, plies=4)
    text = dumps(doc_from_game(game, seats(game.players)))
    data = json.loads(text)
    assert list(data) == ["format", "version", "game", "saved_at", "players", "options",
                          "start", "moves", "clock", "result", "match"]
    assert data["format"] == FORMAT and data["version"] == VERSION == 2
    assert data["game"] == game_name and data["moves"] == game.history_text()
    assert data["start"] == game.start_native().splitlines()  # one row per line
    assert data["clock"] == {"kind": "none", "seconds": 0.0, "used": [0.0] * game.players}
    assert all(len(line) <= 100 for line in text.splitlines())


def test_player_names_round_trip_even_with_a_lone_surrogate() -> None:
    game = new_game("pahtum", 1)
    text = dumps(doc_from_game(game, [PlayerSpec.human("Zoë 🙂"), PlayerSpec.ai("max")]))
    assert "Zoë 🙂" in text
    assert loads(text).players[0].name == "Zoë 🙂"
    data = data_of(game, players=[{"kind": "human", "name": "bad\ud800name"}, "ai:easy"])
    doc = loads(json.dumps(data))
    assert doc.players == [PlayerSpec.human("badname"), PlayerSpec.ai("easy")]
    again = dumps(doc)
    again.encode("utf-8")  # it can be written: nothing UTF-8 cannot hold
    assert loads(again) == doc


def test_unwritable_text_is_escaped_not_lost() -> None:
    """Any text in a doc (a forfeit's reason from elsewhere) can be written and read back."""
    game = random_position("pousse", 1, plies=2)
    game.forfeit(0, Termination.FAULT, "crashed \udc80")
    doc = doc_from_game(game, seats(2))
    text = dumps(doc)
    text.encode("utf-8")
    assert loads(text).result == doc.result


def test_pousse_repetition_history_survives() -> None:
    game = get_game("pousse").new({"size": 5})
    for _ in range(6):  # row 1 fills (X O X O X), then O pushes an X off
        game.play_text("L1")
    assert game.preview(("L", 1)).repeats  # X's L1 would bring back an earlier position
    back = restore(loads(dumps(doc_from_game(game, seats(2)))))
    assert back.preview(("L", 1)).repeats
    back.undo()
    game.undo()
    assert back.key() == game.key()
    back.play_text("L1")  # the history of positions came back with the undo
    assert back.preview(("L", 1)).repeats


# ----- refusals --------------------------------------------------------------


def test_truncated_empty_and_bad_json() -> None:
    text = dumps(doc_from_game(random_position("pahtum", 6, plies=6), seats(2)))
    for cut in (len(text) // 2, len(text) - 40, len(text) - 3, 30):
        assert "truncated" in refused(text[:cut])
    assert "empty" in refused("")
    assert "empty" in refused("  \n")
    assert "not valid JSON at line" in refused(text.replace(",", ";", 1))


def with_field(text: str, key: str, raw: str) -> str:
    """`text` with the JSON of `key` replaced by `raw` (which json.dumps cannot write)."""
    data = json.loads(text)
    data[key] = "@@HERE@@"
    return json.dumps(data).replace('"@@HERE@@"', raw)


def test_numbers_and_nesting_python_refuses_give_one_line() -> None:
    text = dumps(doc_from_game(random_position("pahtum", 6, plies=2), seats(2)))
    used = '{"kind": "none", "seconds": 0, "used": [%s, 0]}'
    assert "out of range" in refused(with_field(text, "clock", used % "1e400"))
    assert "out of range" in refused(with_field(text, "clock", used % "-1e400"))
    assert "NaN is not a number" in refused(with_field(text, "clock", used % "NaN"))
    assert "Infinity is not a number" in refused(with_field(text, "clock", used % "Infinity"))
    assert "5,000 digits" in refused(with_field(text, "clock", used % ("9" * 5000)))
    assert "digits" in refused(with_field(text, "options", '{"x": -%s}' % ("1" * 4400)))
    assert "nested too deeply" in refused(with_field(text, "options", "[" * 100_000))
    deep = '{"x": ' + "[" * 30 + "]" * 30 + "}"
    assert "nested too deeply" in refused(with_field(text, "options", deep))
    assert "too large" in refused(with_field(text, "moves", '["A1"' + ', "A1"' * 1_000_000 + "]"))


TIME_LOSS = {"kind": "time", "winners": [1], "points": [0, 0], "reason": "flag"}


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"format": "chess"}, "not an Arena save"),
        ({"version": "1"}, "bad save version"),
        ({"version": 0}, "bad save version"),
        ({"version": True}, "bad save version"),
        ({"version": 7}, "newer Arena (version 7)"),
        ({"game": 5}, "'game' must be a game name"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"options": []}, "'options' must be an object"),
        ({"options": {"blocked": ["A1"], "size": 4}}, "start"),
        ({"start": 7}, "'start' must be text"),
        ({"start": ["a", 1]}, "'start' lines must all be text"),
        ({"start": ["-------"] * 3}, "bad start position"),
        ({"moves": "A1 B2"}, "'moves' must be a list"),
        ({"moves": ["A1", 7]}, "move 2 must be text"),
        ({"players": "human"}, "'players' must be a list of"),
        ({"players": [{"kind": "alien"}, {"kind": "ai"}]}, "player 1: unknown player"),
        ({"players": ["human", {"kind": "ai", "level": "godlike"}]}, "player 2: unknown level"),
        ({"players": ["human", {"kind": "ai", "name": 5}]}, "player 2: a player's 'name'"),
        ({"players": ["human", 3]}, "player 2: a player must be an object"),
        ({"clock": None}, "'clock' must be an object"),
        ({"clock": {"kind": "move", "seconds": 0, "used": [0, 0]}}, "'clock': "),
        ({"clock": {"kind": "blitz", "seconds": 5, "used": [0, 0]}}, "clock kind"),
        ({"clock": {"kind": "none", "used": [1.0, -2.0]}}, "'clock.used' must be times"),
        ({"clock": {"kind": "none", "used": [True, 1.0]}}, "'clock.used' must be times"),
        ({"clock": {"kind": "none", "used": [1e12, 1.0]}}, "'clock.used' must be times"),
        ({"clock": {"kind": "none", "used": [1.0]}}, "'clock.used' must list 2 times"),
        ({"clock": {"kind": "none"}}, "'clock.used' must list 2 times"),
        ({"result": "X won"}, "'result': a result must be an object"),
        ({"result": {"winner": 0, "points": "lots"}}, "'result': a result's points"),
        ({"result": {"kind": "teleport", "winners": [0], "points": [1, 0]}}, "unknown way"),
        ({"result": {"winners": [5], "points": [1, 0]}}, "'result': a result's winners"),
        ({"result": {**TIME_LOSS}}, "must name the player who lost"),
        ({"match": [1, 2]}, "'match' must be an object or null"),
        ({"saved_at": "yesterday"}, "'saved_at' is not an ISO date"),
        ({"saved_at": 20261122}, "'saved_at' must be a date and time"),
        ({"saved_at": "0001-01-01T00:00:00+14:00"}, "'saved_at' is in the year 1; a save's"),
        ({"saved_at": "9999-12-31T23:59:59-23:59"}, "'saved_at' is in the year 9999"),
        ({"saved_at": "1969-12-31T23:59:59Z"}, "from 1970 to 9998"),
    ],
)
def test_wrong_fields_refused(game_name: str, changes: dict, words: str) -> None:
    game = random_position(game_name, 6, plies=6)
    assert words in refused(json.dumps(data_of(game, **changes)))


def test_match_block_checked_against_the_rule(game_name: str) -> None:
    game = random_position(game_name, 6, plies=6)
    n = game.players
    length = get_game(game_name).match_rule.games(n)
    cases = [
        ({"length": length, "index": length, "results": []}, f"'match.index' {length} is out"),
        ({"length": length, "index": -1, "results": []}, "'match.index' -1 is outside"),
        ({"length": length + 1, "index": 0, "results": []}, f"'match.length' is {length + 1}"),
        ({"length": length, "index": "0", "results": []}, "'match.index' must be a whole"),
        ({"length": length, "index": 0, "results": [[1] * n]}, "must list the 0 finished games"),
    ]
    if length > 1:
        cases += [
            ({"length": length, "index": 1, "results": [[1]]}, "game 1"),
            ({"length": length, "index": 1, "results": [{"x": 1}]}, "game 1"),
            ({"length": length, "index": 1, "results": [[True] * n]}, "game 1"),
            ({"length": length, "index": 1, "results": []}, "must list the 1 finished game"),
        ]
    for match, words in cases:
        assert words in refused(json.dumps(data_of(game, match=match)))


@pytest.mark.parametrize("key", ["game", "options", "start", "players", "moves", "clock",
                                 "saved_at"])
def test_missing_field_refused(key: str) -> None:
    data = data_of(new_game("pahtum", 1))
    del data[key]
    assert f"no {key!r} field" in refused(json.dumps(data))


def test_result_and_match_may_be_left_out(game_name: str) -> None:
    game = random_position(game_name, 2, plies=3)
    data = data_of(game)
    del data["result"], data["match"]
    doc = loads(json.dumps(data))
    assert doc.result is None and doc.match is None
    assert restore(doc).history == game.history


def test_player_count_comes_from_the_game(game_name: str) -> None:
    low, high = get_game(game_name).player_count
    game = new_game(game_name, 1)
    for n in (low - 1, high + 1):
        assert "players" in refused(json.dumps(data_of(game, players=["human"] * n)))


def test_other_games_options_refused() -> None:
    data = data_of(new_game("pousse", 1), options={"size": 9})
    assert "bad start position" in refused(json.dumps(data))
    data = data_of(new_game("pousse", 1), options={"size": "6"})
    assert "do not match the start position" in refused(json.dumps(data))


def test_bad_and_illegal_moves_refused(game_name: str) -> None:
    game = random_position(game_name, 6, plies=6)
    moves = game.history_text()
    bad = refused(json.dumps(data_of(game, moves=[*moves[:3], "Z99", *moves[4:]])))
    assert "move 4" in bad and "Z99" in bad
    again = refused(json.dumps(data_of(finished(game_name, 3), moves=[*moves, moves[0]] * 200)))
    assert "cannot replay the moves" in again


def test_wrong_result_refused_as_hand_edited(game_name: str) -> None:
    done = finished(game_name, 8)
    data = data_of(done)
    points = data["result"]["points"]
    edits = [
        {**data["result"], "points": [points[0] + 10, *points[1:]]},
        {**data["result"], "winners": [], "winner": None} if data["result"]["winners"]
        else {**data["result"], "winners": [0], "winner": 0},
        {**data["result"], "kind": "fault", "loser": 0, "winners": [1], "winner": 1},
        None,
    ]
    for result in edits:
        assert "hand-edited" in refused(json.dumps({**data, "result": result}))
    unfinished = data_of(random_position(game_name, 6, plies=6))
    claim = {"kind": "board_full", "winners": [0], "points": [3, 0], "reason": "X wins"}
    assert "hand-edited" in refused(json.dumps({**unfinished, "result": claim}))


def test_wrong_forfeit_refused_as_hand_edited(game_name: str) -> None:
    game = random_position(game_name, 7, plies=4)
    game.forfeit(0, Termination.TIME, "out of time")
    data = data_of(game)
    wrong_loser = {**data["result"], "loser": 1}
    assert "hand-edited" in refused(json.dumps({**data, "result": wrong_loser}))
    done = finished(game_name, 2)  # a game over on the board cannot also be lost on time
    flag = {**data_of(done)["result"], "kind": "time", "loser": 0}
    assert "hand-edited" in refused(json.dumps({**data_of(done), "result": flag}))


def test_a_forfeit_saved_before_its_game_scored_forfeits_its_own_way_still_loads() -> None:
    """A Pah-Tum forfeit saved as the default rule scored it (the board's points as they
    stood) loads as it was saved; other points are still refused as hand-edited."""
    game = get_game("pahtum").new({"board": "sample"})
    game.replay(["A1", "F1", "A2", "F3", "A3"])  # X has A1-A3 (3), O nothing
    game.forfeit(0, Termination.TIME, "X ran out of time")
    data = data_of(game)
    assert data["result"]["points"] == [0, 1]  # the rule now
    back = restore(loads(json.dumps(data)))
    assert back.outcome == game.outcome
    earlier = {**data["result"], "points": [3, 0]}  # as the default rule scored it
    back = restore(loads(json.dumps({**data, "result": earlier})))
    assert back.outcome is not None and back.outcome.points == (3, 0)
    assert back.outcome.winners == (1,) and back.outcome.loser == 0 and back.is_over
    back.resume()
    assert back.scores() == (3, 0) and not back.is_over
    tampered = {**data["result"], "points": [5, 0]}
    assert "hand-edited" in refused(json.dumps({**data, "result": tampered}))


def test_a_programs_fault_and_command_and_move_times_survive_a_round_trip() -> None:
    game = get_game("pousse").new({"size": 5})
    game.play_text("L1")
    game.forfeit(1, Termination.FAULT, "O (bot.py) answered 'L9\\n': off the board",
                 fault="illegal", output="L9\n")
    players = [PlayerSpec.ai("easy"), PlayerSpec.program("python3 bots/my bot.py --fast")]
    clock = Clock(TimeControl.parse("move:30"), [0.5, 0.0], [0.5])
    doc = loads(dumps(doc_from_game(game, players, clock)))
    assert doc.players[1].command == "python3 bots/my bot.py --fast"
    assert doc.clock.moves == [0.5]
    back = restore(doc)
    assert back.outcome == game.outcome
    assert (back.outcome.fault, back.outcome.output) == ("illegal", "L9\n")
    bad = json.loads(dumps(doc_from_game(game, players, clock)))
    bad["clock"]["moves"] = [0.5, 1.0]
    with pytest.raises(SaveError, match="2 move times for 1 moves"):
        restore(loads(json.dumps(bad)))
    bad["result"]["fault"] = "cheating"
    with pytest.raises(SaveError, match="unknown fault"):
        loads(json.dumps(bad))
