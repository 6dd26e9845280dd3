"""Match rules: how the games of a match add up to a match result, for N participants.

A match is `length` games from one start position. The seats rotate: in game
`g` participant `p` plays mark `(p + g) % n` (with two players, the sides swap
each game). A rule turns the finished games' outcomes into a standing (one
number per participant, higher is better); the end screen, the players panel
and the strength runner all use it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.outcome import Outcome, outcome_from_json


def mark_of(participant: int, game_index: int, players: int) -> int:
    """The mark (player index in the game) `participant` holds in game `game_index`."""
    return (participant + game_index) % players


def participant_of(mark: int, game_index: int, players: int) -> int:
    """Who holds `mark` in game `game_index` (the inverse of `mark_of`)."""
    return (mark - game_index) % players


class MatchRule(ABC):
    """The declaration of how a game's match is scored."""

    length: int  # games in a match; 0: one game per player, each moving first once
    title: str  # "sum of margins", "match points", "wins"

    def games(self, players: int) -> int:
        """The games in a match of `players`."""
        return self.length or players

    @abstractmethod
    def game_scores(self, outcome: Outcome) -> list[float]:
        """What one game adds to each mark's standing."""

    def standing(self, outcomes: Sequence[Outcome], players: int) -> list[float]:
        """Per participant, the sum over the finished games (game i is `outcomes[i]`)."""
        total = [0.0] * players
        for g, outcome in enumerate(outcomes):
            scores = self.game_scores(outcome)
            for p in range(players):
                total[p] += scores[mark_of(p, g, players)]
        return total

    @staticmethod
    def leaders(standing: Sequence[float]) -> list[int]:
        """The participants with the best standing; all of them when the match is drawn."""
        best = max(standing)
        return [p for p, s in enumerate(standing) if s == best]

    @staticmethod
    def number(value: float) -> str:
        """A standing as people read it: whole numbers without a point, signs for margins."""
        return f"{value:g}"


@dataclass(frozen=True)
class SumOfMargins(MatchRule):
    """Pah-Tum: each game adds own points minus the best other player's."""

    length: int = 2
    title: str = "sum of margins"

    def game_scores(self, outcome: Outcome) -> list[float]:
        points = outcome.points
        out = []
        for p, own in enumerate(points):
            others = [q for i, q in enumerate(points) if i != p]
            out.append(float(own - max(others)) if others else 0.0)
        return out

    @staticmethod
    def number(value: float) -> str:
        return f"{value:+g}"


@dataclass(frozen=True)
class MatchPoints(MatchRule):
    """LOAPS: `win` match points to the winner of a game, `draw` to everyone in a draw."""

    length: int = 2
    win: float = 2.0
    draw: float = 1.0
    title: str = "match points"

    def game_scores(self, outcome: Outcome) -> list[float]:
        n = len(outcome.points)
        if outcome.is_draw:
            return [self.draw] * n
        return [self.win if p in outcome.winners else 0.0 for p in range(n)]


@dataclass(frozen=True)
class SumOfPoints(MatchRule):
    """Pillars (CodeCup): each game adds the points it scored, whoever won it."""

    length: int = 2
    title: str = "points"

    def game_scores(self, outcome: Outcome) -> list[float]:
        return [float(p) for p in outcome.points]


@dataclass(frozen=True)
class PlainWins(MatchRule):
    """Pousse, Boxing: a won game counts 1, a drawn one 1/2 (chess style)."""

    length: int = 1
    title: str = "wins"

    def game_scores(self, outcome: Outcome) -> list[float]:
        n = len(outcome.points)
        if outcome.is_draw:
            return [0.5] * n
        share = 1.0 / len(outcome.winners)
        return [share if p in outcome.winners else 0.0 for p in range(n)]


@dataclass
class MatchState:
    """Where a match stands: the game under way (`index`) and the finished games' outcomes."""

    rule: MatchRule
    players: int
    index: int = 0
    results: list[Outcome] = field(default_factory=list)

    @property
    def length(self) -> int:
        return self.rule.games(self.players)

    def mark_of(self, participant: int) -> int:
        return mark_of(participant, self.index, self.players)

    def participant_of(self, mark: int) -> int:
        return participant_of(mark, self.index, self.players)

    def standing(self, current: Outcome | None = None) -> list[float]:
        """Per participant, over the finished games (and `current`, a just-ended game)."""
        done = list(self.results)
        if current is not None and len(done) == self.index:
            done.append(current)
        return self.rule.standing(done, self.players)

    def to_json(self) -> dict[str, Any]:
        return {"length": self.length, "index": self.index,
                "results": [o.to_json() for o in self.results]}

    @classmethod
    def from_json(cls, data: Any, rule: MatchRule, players: int) -> MatchState:
        """A match block of a save, checked against the game's rule (ValueError, one line).

        Version 1 saves list each finished game as its points per mark; the winners
        are then the players with the most points.
        """
        if data is None:
            return cls(rule, players)
        if not isinstance(data, dict):
            raise ValueError("'match' must be an object or null")
        games = rule.games(players)
        length, index = data.get("length", games), data.get("index", 0)
        for what, value in (("length", length), ("index", index)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"'match.{what}' must be a whole number")
        if length != games:
            raise ValueError(f"'match.length' is {length}, but this game's match has "
                             f"{games} game{'s' if games != 1 else ''}")
        if not 0 <= index < length:
            raise ValueError(f"'match.index' {index} is outside a match of {length}")
        raw = data.get("results", [])
        if not isinstance(raw, list) or len(raw) != index:
            raise ValueError(f"'match.results' must list the {index} finished "
                             f"game{'s' if index != 1 else ''}")
        results = []
        for i, item in enumerate(raw, 1):
            if isinstance(item, list):  # version 1: points per mark
                item = {"points": item, "winners": _most(item)}
            try:
                results.append(outcome_from_json(item, players))
            except ValueError as err:
                raise ValueError(f"'match.results' game {i}: {err}") from None
        return cls(rule, players, index, results)


def _most(points: list[Any]) -> list[int]:
    if not points or not all(isinstance(p, int) and not isinstance(p, bool) for p in points):
        return []
    best = max(points)
    winners = [i for i, p in enumerate(points) if p == best]
    return winners if len(winners) == 1 else []
