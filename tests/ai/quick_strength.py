"""How strong `ai.quick` is without kernels: it meets the random and the greedy player.

    python -m tests.ai.quick_strength GAME N [--seconds S] [--opponent random|greedy|both]
                                      [--fresh] [--seed K] [--opt name=value ...]

N games against each opponent, `ai.quick.choose` at S seconds a move (0.3 by default),
the seats swapped every game (each seeded start is played from both seats). Only the
`rules` objects are used: no kernel is compiled (importing `ai.strength` loads numpy
and numba, but nothing calls them). A game counts as won when its outcome names the
quick player a winner (Pah-Tum: its margin is positive). `--fresh` drops the game
module's process-wide tables before every move, as a contest program started for each
move would play. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Hashable, Sequence

from ai import quick
from ai.strength import greedy_player, random_player, start_position
from rules import Game, get_game
from rules.match import mark_of

OPPONENTS = {"random": random_player, "greedy": greedy_player}


def quick_player(name: str, seconds: float, rng: random.Random, slowest: list[float],
                 fresh: bool = False) -> Callable[[Game], Hashable]:
    """`ai.quick.choose` as a strength-runner player; `slowest` keeps its longest move."""
    forget = getattr(quick.knowledge(name), "forget", None) if fresh else None

    def play(game: Game) -> Hashable:
        if forget is not None:
            forget()
        began = time.perf_counter()
        move = quick.choose(game, seconds, rng)
        slowest[0] = max(slowest[0], time.perf_counter() - began)
        return move

    return play


def play_games(cls: type[Game], a: Callable[[Game], Hashable],
               others: list[Callable[[Game], Hashable]], games: int, seed: int,
               options: dict, log: Callable[[str], None]) -> tuple[int, int, int, list[int]]:
    """A's wins, losses and draws over `games` seeded games, each start played from each
    of A's seats (rules only: nothing compiles), and the games' lengths. A game's winner
    is its outcome's; Pah-Tum counts its margin."""
    n = 1 + len(others)
    wins = losses = draws = 0
    lengths: list[int] = []
    for i in range(games):
        game = start_position(cls, options, seed + i // n)
        seat = mark_of(0, i, n)
        seats = [*others]
        seats.insert(seat, a)
        while not game.is_over:
            game.play(seats[game.to_move](game))
        outcome = game.outcome
        assert outcome is not None
        lengths.append(len(game.history))
        if outcome.is_draw:
            draws += 1
        elif outcome.won(seat):
            wins += 1
        else:
            losses += 1
        log(f"game {i + 1}: A as {game.marks[seat]}: {outcome.reason}")
    return wins, losses, draws, lengths


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.ai.quick_strength",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("games", type=int)
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument("--opponent", choices=[*OPPONENTS, "both"], default="both")
    parser.add_argument("--fresh", action="store_true",
                        help="forget the game module's tables before every move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opt", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--quiet", action="store_true", help="only the summary lines")
    args = parser.parse_args(argv)
    cls = get_game(args.game)
    options = cls.parse_options(dict(item.split("=", 1) for item in args.opt))
    names = list(OPPONENTS) if args.opponent == "both" else [args.opponent]
    for name in names:
        rng = random.Random(args.seed)
        slowest = [0.0]
        a = quick_player(cls.name, args.seconds, rng, slowest, args.fresh)
        seats = cls.new(options, seed=args.seed).players
        others = [OPPONENTS[name](cls.name, rng) for _ in range(seats - 1)]
        began = time.perf_counter()
        wins, losses, draws, lengths = play_games(
            cls, a, others, args.games, args.seed, options,
            (lambda line: None) if args.quiet else print)
        played = wins + losses + draws
        rate = 100 * wins / max(1, played)
        print(f"{cls.name}: quick ({args.seconds:g} s a move{', fresh' if args.fresh else ''}) "
              f"vs {name}: {wins} won of {played} ({rate:.0f}%), {losses} lost, {draws} "
              f"drawn; mean {sum(lengths) / max(1, len(lengths)):.1f} moves; slowest move "
              f"{slowest[0]:.3f} s; {time.perf_counter() - began:.0f} s", flush=True)


if __name__ == "__main__":
    main()
