"""Strength measurement for every game: two players meet in games or matches.

    python -m ai.strength GAME A B [--games N] [--matches N] [--seed S]
                         [--seconds-a F] [--seconds-b F] [--opt name=value ...]

A player is `random`, `greedy`, an engine level, or `rev:REV:LEVEL`: a level of
the game's engine as it was at git revision REV (`ai.revision`), to measure
today's code against an older one. Each engine player has its own engine, so
one side's tables never help the other; `--seconds-a/-b` override the level's
time for both kinds. A plays one seat, B every other one. Games count by their
outcome (winners or a draw), matches by the game's match rule; the seats rotate
each game. Every start is played once from each seat; a game without a random
start begins with two seeded random moves that do not end it, so deterministic
engines still meet in varied games. Each game prints a line as it ends (its
moves and seconds, the tally so far); the last lines are A's tally.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ai import revision
from ai.engine import LEVELS, Engine, new_engine
from rules import Game, MatchState, Outcome, RulesError, get_game
from rules.match import mark_of

Player = Callable[[Game], Hashable]
PlayerFactory = Callable[[str, random.Random, float | None], Player]
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


def engine_player(level: str) -> PlayerFactory:
    """The game's engine at `level`, its own instance; `seconds` overrides the level's time."""

    def make(game_name: str, rng: random.Random, seconds: float | None = None) -> Player:
        engine = new_engine(game_name)
        engine.budget(level)  # an unknown level fails here, not in the first game
        return lambda game: engine.choose(game, level, seconds).move

    return make


def revision_player(rev: str, level: str) -> PlayerFactory:
    """`level` of the game's engine at git revision `rev`, its own instance; `seconds`
    overrides the old level's time. RevisionError if that engine cannot be loaded."""

    def make(game_name: str, rng: random.Random, seconds: float | None = None) -> Player:
        engine = revision.new_engine(rev, game_name)
        engine.budget(level)  # an unknown level fails here, not in the first game
        return lambda game: engine.choose(game, level, seconds).move

    return make


PLAYERS: dict[str, PlayerFactory] = {
    "random": random_player, "greedy": greedy_player,
    **{level: engine_player(level) for level in LEVELS},
}
REVISION = "rev:"  # prefix of the `rev:REV:LEVEL` players


def player(name: str) -> PlayerFactory:
    """The factory for a player name; KeyError if it is none."""
    if name in PLAYERS:
        return PLAYERS[name]
    rev, sep, level = name.removeprefix(REVISION).rpartition(":")
    if name.startswith(REVISION) and sep and rev and level:
        return revision_player(rev, level)
    raise KeyError(name)


def warm_up_engine(name: str, game_name: str) -> Engine | None:
    """A small engine of the kind player `name` uses, to compile or load its kernels
    before the first timed move; None for players without an engine."""
    if name in LEVELS:
        return new_engine(game_name, tt_bits=10)
    if name.startswith(REVISION):
        return revision.new_engine(name.removeprefix(REVISION).rpartition(":")[0],
                                   game_name, tt_bits=10)
    return None


# ----- tallies ----------------------------------------------------------------
@dataclass
class Tally:
    """A's results: wins, losses and draws, and the match rule's standing of A and B
    (B's is the best of the other seats' in each game or match)."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    standing: list[float] = field(default_factory=lambda: [0.0, 0.0])
    results: list[tuple[int, Outcome]] = field(default_factory=list)  # (A's seat, outcome)
    moves: list[int] = field(default_factory=list)  # each single game's length, in moves
    seconds: list[float] = field(default_factory=list)  # and its time

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws

    def add(self, result: int, a: float, b: float) -> None:
        """`result` > 0 a win for A, < 0 a loss, 0 a draw; `a`, `b` add to the standing."""
        if result > 0:
            self.wins += 1
        elif result < 0:
            self.losses += 1
        else:
            self.draws += 1
        self.standing[0] += a
        self.standing[1] += b

    def lengths(self) -> str:
        """Mean moves and seconds a game (to plan longer runs)."""
        if not self.moves:
            return "no games timed"
        n = len(self.moves)
        return (f"mean {sum(self.moves) / n:.1f} moves and {sum(self.seconds) / n:.1f} s a "
                f"game (moves {min(self.moves)}-{max(self.moves)}, "
                f"{min(self.seconds):.1f}-{max(self.seconds):.1f} s)")

    def __str__(self) -> str:
        a, b = self.standing
        return (f"{_count(self.wins, 'win')}, {_count(self.losses, 'loss')}, "
                f"{_count(self.draws, 'draw')} (standing {a:g} to {b:g})")


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith('s') else 's'}"


def game_result(outcome: Outcome, seat: int) -> int:
    """+1 when `seat` won, 0 for a draw, -1 otherwise."""
    if outcome.is_draw:
        return 0
    return 1 if outcome.won(seat) else -1


# ----- playing ----------------------------------------------------------------
def start_position(cls: type[Game], options: dict[str, Any], seed: int) -> Game:
    """A seeded start; games without a random start get seeded opening moves."""
    game = cls.new(options, seed=seed)
    if cls.random_start:
        return game
    game.advance(random.Random(seed), OPENING_MOVES)
    return game


def play_game(game: Game, seats: Sequence[Player]) -> Outcome:
    """Plays `game` to the end, `seats[i]` moving for player i; returns the outcome."""
    while not game.is_over:
        game.play(seats[game.to_move](game))
    assert game.outcome is not None
    return game.outcome


def lineup(a: Player, others: Sequence[Player], rotation: int) -> list[Player]:
    """Participant p of the rotation plays seat mark_of(p, rotation, n); A is participant 0."""
    participants = [a, *others]
    n = len(participants)
    seats: list[Player] = [a] * n
    for p, player in enumerate(participants):
        seats[mark_of(p, rotation, n)] = player
    return seats


def run_games(game_name: str, a: Player, others: Sequence[Player], games: int, seed: int,
              options: dict[str, Any] | None = None,
              log: Callable[[str], None] = print) -> Tally:
    """`games` single games; each seeded start is played once from each of A's seats."""
    cls = get_game(game_name)
    n = 1 + len(others)
    rule = cls.match_rule
    tally = Tally()
    for i in range(games):
        game = start_position(cls, options or {}, seed + i // n)
        seat = mark_of(0, i, n)
        began = time.perf_counter()
        outcome = play_game(game, lineup(a, others, i))
        seconds = time.perf_counter() - began
        tally.results.append((seat, outcome))
        tally.moves.append(len(game.history))
        tally.seconds.append(seconds)
        scores = rule.game_scores(outcome)
        tally.add(game_result(outcome, seat), scores[seat],
                  max(s for p, s in enumerate(scores) if p != seat))
        log(f"game {i + 1}: A as {game.marks[seat]}, {len(game.history)} moves, "
            f"{seconds:.1f} s, {outcome.label} ({outcome.reason}) -> {tally}")
    return tally


def run_matches(game_name: str, a: Player, others: Sequence[Player], matches: int, seed: int,
                options: dict[str, Any] | None = None,
                log: Callable[[str], None] = print) -> Tally:
    """Matches scored by the game's match rule, the seats rotating each game of a match;
    each seeded start serves one match per rotation of the first seat."""
    cls = get_game(game_name)
    n = 1 + len(others)
    tally = Tally()
    for i in range(matches):
        start = start_position(cls, options or {}, seed + i // n)
        state = MatchState(cls.match_rule, n)
        for g in range(state.length):
            game = start.copy()
            state.results.append(play_game(game, lineup(a, others, i + g)))
            tally.results.append((mark_of(0, i + g, n), state.results[-1]))
        shift = mark_of(0, i, n)  # which match participant A is
        standing = state.standing()
        own = standing[shift]
        best_other = max(s for p, s in enumerate(standing) if p != shift)
        leaders = state.rule.leaders(standing)
        result = (1 if leaders == [shift] else 0) if shift in leaders else -1
        tally.add(result, own, best_other)
        log(f"match {i + 1}: A {state.rule.number(own)}, B {state.rule.number(best_other)} "
            f"-> {tally}")
    return tally


def parse_opts(cls: type[Game], raw: Sequence[str]) -> dict[str, Any]:
    """`name=value` texts as the game's checked options."""
    given: dict[str, str] = {}
    for item in raw:
        name, sep, value = item.partition("=")
        if not sep:
            raise RulesError(f"--opt wants name=value, not {item!r}")
        given[name.strip()] = value
    return cls.parse_options(given)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ai.strength",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("a", help=f"player: {', '.join(PLAYERS)} or rev:REV:LEVEL")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=0, help="single games, seats rotating")
    parser.add_argument("--matches", type=int, default=0, help="matches by the game's rule")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds-a", type=float, default=None, help="override A's move time")
    parser.add_argument("--seconds-b", type=float, default=None, help="override B's move time")
    parser.add_argument("--opt", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option, e.g. size=7 (repeatable)")
    args = parser.parse_args(argv)
    try:
        make_a, make_b = player(args.a), player(args.b)
    except KeyError as err:
        parser.error(f"unknown player {err.args[0]!r}; players: {', '.join(PLAYERS)}, "
                     "rev:REV:LEVEL")
    try:
        cls = get_game(args.game)
        options = parse_opts(cls, args.opt)
        rng = random.Random(args.seed)
        a = make_a(cls.name, rng, args.seconds_a)
        seats = cls.new(options, seed=args.seed).players  # a game may take a count option
        others = [make_b(cls.name, rng, args.seconds_b) for _ in range(seats - 1)]
        for name in dict.fromkeys((args.a, args.b)):
            if (engine := warm_up_engine(name, cls.name)) is not None:
                engine.warm_up()
    except (RulesError, revision.RevisionError) as err:
        parser.error(str(err))
    began = time.perf_counter()
    shown = "".join(f" {k}={v}" for k, v in options.items())
    print(f"{cls.name}{shown}: {args.a} vs {args.b}", flush=True)

    def log(line: str) -> None:
        print(line, flush=True)

    if args.games:
        tally = run_games(cls.name, a, others, args.games, args.seed, options, log)
        print(f"{args.a} vs {args.b} over {args.games} games, A: {tally}; "
              f"{tally.lengths()}")
    if args.matches:
        tally = run_matches(cls.name, a, others, args.matches, args.seed, options, log)
        print(f"{args.a} vs {args.b} over {args.matches} matches ({cls.match_rule.title}): "
              f"{tally}")
    print(f"{time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
