"""The built-in players every game has, and the seeded starts of a strength run.

`random_player` and `greedy_player` choose a move from the rules alone (no engine): the
`random` and `greedy` players of `arena match` (`tui.play.players`), the quick search's
yardsticks and the opponents of a game's own tools (a claim tally). `start_position`
is the seeded start `arena match` plays from both sides. Strength runs themselves are
`arena match` (with
`--clock none` for each AI's level time, `ai:LEVEL@SECONDS`, and `rev:REV:LEVEL` for an
older revision's engine): one turn driver plays every game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from rules import Game
from rules.match import mark_of

__all__ = ["OPENING_MOVES", "greedy_player", "margin", "mark_of", "random_player",
           "start_position", "wins_at_once"]

Player = Callable[[Game], Hashable]
OPENING_MOVES = 2  # random moves that vary the start of a game without a random start


# ----- players -----------------------------------------------------------------
def random_player(game_name: str, rng: random.Random, seconds: float | None = None) -> Player:
    """Any legal move, uniformly."""
    return lambda game: rng.choice(game.legal_moves())


def wins_at_once(game: Game) -> list[Hashable]:
    """The moves after which the player to move has won."""
    me, found = game.to_move, []
    for move in game.legal_moves():
        game.play(move)
        if game.outcome is not None and game.outcome.won(me):
            found.append(move)
        game.undo()
    return found


def margin(game: Game, player: int) -> int:
    """Own running score minus the best other player's."""
    scores = game.scores()
    return scores[player] - max(s for p, s in enumerate(scores) if p != player)


def greedy_player(game_name: str, rng: random.Random, seconds: float | None = None) -> Player:
    """One-move lookahead for any game: win at once if possible; else avoid moves that end
    the game without a win and moves that let the next player win at once; among the rest
    the best own-minus-best-other score; ties at random (any move when none is safe). A game
    may say what greed means for it instead (`Game.greedy_moves`)."""

    def play(game: Game) -> Hashable:
        chosen = game.greedy_moves()
        if chosen:
            return rng.choice(chosen)
        wins = wins_at_once(game)
        if wins:
            return rng.choice(wins)
        me = game.to_move
        best: list[Hashable] = []
        best_value = None
        for move in game.legal_moves():
            game.play(move)
            safe = not game.is_over and not wins_at_once(game)
            value = margin(game, me)
            game.undo()
            if not safe:
                continue
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return rng.choice(best or game.legal_moves())

    return play


def start_position(cls: type[Game], options: dict[str, Any], seed: int) -> Game:
    """A seeded start; games without a random start get seeded opening moves."""
    game = cls.new(options, seed=seed)
    if cls.random_start:
        return game
    game.advance(random.Random(seed), OPENING_MOVES)
    return game
