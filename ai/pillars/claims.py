"""How the Pillars AI uses its joker, measured over games against another player.

    python -m ai.pillars.claims [LEVEL] [OPPONENT] [--games N] [--seed S]

OPPONENT is `greedy`, `random` or a level. The starts and seats are the strength
runner's (`ai.strength`). A claim counts as a proof's when the search that made
it had proven the win, else as the estimate's; the points it gained are its value
in a game won, minus its value in a game lost (what the claim changed).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ai.engine import LEVELS, new_engine
from ai.strength import greedy_player, mark_of, random_player, start_position
from rules.pillars import Pillars


@dataclass
class ClaimTally:
    games: int = 0
    wins: int = 0
    points: int = 0
    claims: dict[str, list[int]] = field(
        default_factory=lambda: {"proof": [0, 0, 0], "estimate": [0, 0, 0]})  # made, won,
    # points gained

    def lines(self, level: str, opponent: str) -> list[str]:
        out = [f"{level} vs {opponent}: {self.wins} of {self.games} won, "
               f"{self.points / max(1, self.games):.2f} points a game"]
        for kind, (made, won, gained) in self.claims.items():
            out.append(f"  claims on {'an' if kind[0] in 'aeiou' else 'a'} {kind}: {made} "
                       f"({won} in games won), "
                       f"points gained {gained:+d}")
        return out


def tally_claims(level: str, opponent: str, games: int, seed: int) -> ClaimTally:
    engine = new_engine("pillars")
    engine.warm_up()
    rng = random.Random(seed)
    if opponent in LEVELS:
        other = new_engine("pillars")
        other.warm_up()

        def opponent_move(game: Pillars) -> tuple:
            return other.choose(game, opponent).move  # type: ignore[return-value]
    else:
        make = greedy_player if opponent == "greedy" else random_player
        opponent_move = make("pillars", rng)  # type: ignore[assignment]
    tally = ClaimTally()
    for i in range(games):
        game = start_position(Pillars, {}, seed + i // 2)
        assert isinstance(game, Pillars)
        seat = mark_of(0, i, 2)
        kind, value = None, 0
        while not game.is_over:
            if game.to_move == seat:
                result = engine.choose(game, level)
                if result.move[4]:  # type: ignore[index]
                    kind, value = ("proof" if result.exact else "estimate"), game.claim_value()
                game.play(result.move)
            else:
                game.play(opponent_move(game))
        outcome = game.outcome
        assert outcome is not None
        won = outcome.won(seat)
        tally.games += 1
        tally.wins += won
        tally.points += outcome.points[seat]
        if kind is not None:
            counts = tally.claims[kind]
            counts[0] += 1
            counts[1] += won
            counts[2] += value if won else -value
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ai.pillars.claims", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("level", nargs="?", default="hard", choices=LEVELS)
    parser.add_argument("opponent", nargs="?", default="greedy",
                        choices=("greedy", "random", *LEVELS))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for line in tally_claims(args.level, args.opponent, args.games, args.seed).lines(
            args.level, args.opponent):
        print(line)


if __name__ == "__main__":
    main()
