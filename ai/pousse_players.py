"""Pousse strength runs: a greedy player and a runner that counts winners.

    python -m ai.pousse_players hard greedy --size 6 --games 40
    python -m ai.pousse_players max hard --size 7 --games 40 --seconds-a 0.8 --seconds-b 0.1

Pousse is won by `outcome.winner` (a repetition win has no straights), so the
runner counts winners rather than point margins. Each pair of games starts
from the same seeded two-move opening, once from each side, so deterministic
engines still meet in varied games.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Hashable, Sequence

from ai.engine import LEVELS
from ai.pousse_engine import PousseEngine
from rules.pousse import Pousse

Player = Callable[[Pousse], Hashable]


def immediate_wins(game: Pousse) -> list[Hashable]:
    me = game.to_move
    return [m for m in game.legal_moves()
            if (o := game.preview(m).outcome) is not None and o.winner == me]


def greedy_player(rng: random.Random) -> Player:
    """Wins at once when it can; else avoids moves that lose at once or let the opponent
    win at once; random among the rest (any move when none is safe)."""

    def play(game: Pousse) -> Hashable:
        wins = immediate_wins(game)
        if wins:
            return rng.choice(wins)
        safe = []
        for move in game.legal_moves():
            if game.preview(move).outcome is not None:
                continue  # it ends the game and is not a win: a loss
            game.play(move)
            if not immediate_wins(game):
                safe.append(move)
            game.undo()
        return rng.choice(safe or game.legal_moves())

    return play


def engine_player(level: str, seconds: float | None) -> Player:
    """A level of its own engine instance (no shared transposition table)."""
    engine = PousseEngine()
    return lambda game: engine.choose(game, level, seconds).move


def opening(size: int, seed: int) -> Pousse:
    """A seeded two-move start that does not end the game."""
    rng = random.Random(seed)
    game = Pousse.new({"size": size})
    for _ in range(2):
        game.play(rng.choice(game.legal_moves()))
    return game


def run(size: int, a: Player, b: Player, games: int, seed: int,
        log: Callable[[str], None] = print) -> tuple[int, int]:
    """(wins of a, wins of b) over `games`; a plays X in even-numbered games."""
    wins = [0, 0]
    for i in range(games):
        game = opening(size, seed + i // 2)
        first = i % 2 == 0
        players = (a, b) if first else (b, a)
        while not game.is_over:
            game.play(players[game.to_move](game))
        assert game.outcome is not None
        a_won = (game.outcome.winner == 0) == first
        wins[0 if a_won else 1] += 1
        log(f"game {i + 1}: a as {'X' if first else 'O'}, {len(game.history)} moves, "
            f"{game.outcome.reason} -> a {wins[0]} b {wins[1]}")
    return wins[0], wins[1]


def make_player(name: str, rng: random.Random, seconds: float | None) -> Player:
    if name == "greedy":
        return greedy_player(rng)
    if name == "random":
        return lambda game: rng.choice(game.legal_moves())
    if name in LEVELS:
        return engine_player(name, seconds)
    raise SystemExit(f"unknown player {name!r}: greedy, random or {', '.join(LEVELS)}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ai.pousse_players")
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds-a", type=float, default=None)
    parser.add_argument("--seconds-b", type=float, default=None)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    a = make_player(args.a, rng, args.seconds_a)
    b = make_player(args.b, rng, args.seconds_b)
    PousseEngine(tt_bits=10).warm_up()
    start = time.perf_counter()
    print(f"pousse {args.size}x{args.size}: {args.a} ({args.seconds_a or 'level'} s) vs "
          f"{args.b} ({args.seconds_b or 'level'} s)", flush=True)
    wa, wb = run(args.size, a, b, args.games, args.seed, lambda s: print(s, flush=True))
    print(f"{args.a} vs {args.b} over {args.games} games: {wa} wins, {wb} losses; "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
