"""Strength measurement: players of a game meet in games or matches; wins are counted.

    python -m ai.strength pahtum hard random --games 20
    python -m ai.strength pahtum max medium --matches 20

A player is a function from a game (not over) to a legal move. `PLAYERS` maps
each game name to its player factories; engine levels work for every game with
an engine. Game-specific players and match scoring live in clearly separated
per-game functions (`pahtum_*`) registered in `PLAYERS` and `MATCH_RESULT`.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from ai.engine import LEVELS, Engine, get_engine
from rules import Game, get_game

Player = Callable[[Game], Hashable]
PlayerFactory = Callable[[random.Random, float | None], Player]


# ----- generic players --------------------------------------------------------
def random_player(rng: random.Random, seconds: float | None = None) -> Player:
    """Any legal move, uniformly."""
    return lambda game: rng.choice(game.legal_moves())


def engine_player(level: str) -> PlayerFactory:
    """The game's engine at `level`; `seconds` overrides the level's time.

    Each player gets its own engine instance so one side's transposition table
    never helps the other.
    """

    def make(rng: random.Random, seconds: float | None = None) -> Player:
        engines: dict[str, Engine] = {}

        def play(game: Game) -> Hashable:
            if game.name not in engines:
                engines[game.name] = type(get_engine(game.name))()
            return engines[game.name].choose(game, level, seconds).move

        return play

    return make


# ----- Pah-Tum specifics ------------------------------------------------------
def pahtum_greedy(rng: random.Random, seconds: float | None = None) -> Player:
    """One-move lookahead: maximise own minus opponent's running score; ties at random."""

    def play(game: Game) -> Hashable:
        me = game.to_move
        best: list[Hashable] = []
        best_value = None
        for move in game.legal_moves():
            game.play(move)
            scores = game.scores()
            game.undo()
            value = scores[me] - scores[1 - me]
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return rng.choice(best)

    return play


def pahtum_match_result(games: Sequence[Game]) -> tuple[int, int]:
    """Match margins (first player, second player): the larger sum of margins wins."""
    from rules.pahtum import match_margins

    return match_margins([g.scores() for g in games])  # type: ignore[misc]


def game_margin(game: Game) -> tuple[int, int]:
    """Points margin per player of one finished game (winner +1 when there are no points)."""
    outcome = game.outcome
    assert outcome is not None
    if len(outcome.points) == 2:
        a, b = outcome.points
        return a - b, b - a
    if outcome.winner is None:
        return 0, 0
    return (1, -1) if outcome.winner == 0 else (-1, 1)


PLAYERS: dict[str, dict[str, PlayerFactory]] = {
    "pahtum": {"random": random_player, "greedy": pahtum_greedy},
}
MATCH_RESULT: dict[str, Callable[[Sequence[Game]], tuple[int, int]]] = {
    "pahtum": pahtum_match_result,
}


def players_for(game_name: str) -> dict[str, PlayerFactory]:
    """Every player of a game: its own plus the engine levels."""
    table = {"random": random_player, **PLAYERS.get(game_name, {})}
    table.update({level: engine_player(level) for level in LEVELS})
    return table


# ----- playing ----------------------------------------------------------------
def play_game(game: Game, players: Sequence[Player]) -> Game:
    """Plays `game` to the end, `players[i]` moving for player index i; returns it."""
    while not game.is_over:
        game.play(players[game.to_move](game))
    return game


@dataclass
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, margin: int) -> None:
        if margin > 0:
            self.wins += 1
        elif margin < 0:
            self.losses += 1
        else:
            self.draws += 1

    def __str__(self) -> str:
        return f"{self.wins} wins, {self.losses} losses, {self.draws} draws"


def run_games(game_name: str, a: Player, b: Player, games: int, seed: int,
              log: Callable[[str], None] = print) -> Tally:
    """`games` single games on fresh seeded starts; `a` moves first in even-numbered games."""
    cls = get_game(game_name)
    tally = Tally()
    for i in range(games):
        game = cls.new(seed=seed + i // 2)  # each start is played once from each side
        first = i % 2 == 0
        play_game(game, (a, b) if first else (b, a))
        margin = game_margin(game)[0 if first else 1]
        tally.add(margin)
        log(f"game {i + 1}: {'first' if first else 'second'}, margin {margin:+d} -> {tally}")
    return tally


def run_matches(game_name: str, a: Player, b: Player, matches: int, seed: int,
                log: Callable[[str], None] = print) -> Tally:
    """Matches of `match_length` games on one start, sides swapped each game."""
    cls = get_game(game_name)
    decide = MATCH_RESULT.get(game_name)
    tally = Tally()
    for i in range(matches):
        start = cls.new(seed=seed + i)
        played = []
        for j in range(max(2, cls.match_length)):
            game = start.copy()
            play_game(game, (a, b) if j % 2 == 0 else (b, a))
            played.append(game)
        if decide is not None:
            margin = decide(played)[0]
        else:
            margin = sum(game_margin(g)[j % 2] for j, g in enumerate(played))
        tally.add(margin)
        log(f"match {i + 1}: margin {margin:+d} -> {tally}")
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ai.strength",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("a", help="player: random, a game's own players, or an engine level")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=0, help="single games, sides alternating")
    parser.add_argument("--matches", type=int, default=0, help="matches (two games per start)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds-a", type=float, default=None, help="override a's move time")
    parser.add_argument("--seconds-b", type=float, default=None, help="override b's move time")
    args = parser.parse_args(argv)
    table = players_for(args.game)
    for name in (args.a, args.b):
        if name not in table:
            parser.error(f"unknown player {name!r}; players: {', '.join(table)}")
    rng = random.Random(args.seed)
    a = table[args.a](rng, args.seconds_a)
    b = table[args.b](rng, args.seconds_b)
    if args.a in LEVELS or args.b in LEVELS:
        get_engine(args.game).warm_up()
    start = time.perf_counter()
    print(f"{args.game}: {args.a} vs {args.b}")
    if args.games:
        tally = run_games(args.game, a, b, args.games, args.seed)
        print(f"{args.a} vs {args.b} over {args.games} games: {tally}")
    if args.matches:
        tally = run_matches(args.game, a, b, args.matches, args.seed)
        print(f"{args.a} vs {args.b} over {args.matches} matches: {tally}")
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
