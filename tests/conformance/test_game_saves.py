"""Every registered game survives a save and a load, mid-game, finished and forfeited."""

from __future__ import annotations

import random

from conftest import new_game, play_out, random_position

from rules import Clock, MatchState, PlayerSpec, Termination, get_game
from saves.format import doc_from_game, dumps, loads, restore


def players(n: int) -> list[PlayerSpec]:
    return [PlayerSpec.human("Ann")] + [PlayerSpec.ai("easy")] * (n - 1)


def round_trip(game, clock=None, match=None):
    doc = doc_from_game(game, players(game.players), clock, match)
    back = loads(dumps(doc))
    return back, restore(back)


def test_save_round_trips(game_name: str) -> None:
    cls = get_game(game_name)
    rng = random.Random(2)
    games = [new_game(game_name, 1), random_position(game_name, 4),
             play_out(new_game(game_name, 6), rng)]
    for game in games:
        clock = Clock.start(cls.offered_time_controls()[-1], game.players)
        clock.charge(0, 12.5)
        doc, again = round_trip(game, clock)
        assert again.key() == game.key() and again.history == game.history
        assert again.outcome == game.outcome or (
            again.outcome is not None and game.outcome is not None
            and again.outcome.points == game.outcome.points
            and again.outcome.winners == game.outcome.winners)
        assert doc.players == players(game.players)
        assert doc.clock.control == clock.control and doc.clock.used == clock.used


def test_a_forfeit_and_a_match_survive_a_save(game_name: str) -> None:
    cls = get_game(game_name)
    game = random_position(game_name, 8, plies=3)
    game.forfeit(game.to_move, Termination.TIME, "ran out of time")
    match = MatchState(cls.match_rule, game.players)
    doc, again = round_trip(game, match=match)
    assert again.outcome == game.outcome and again.is_over
    assert doc.match == match
