"""Clocks: a time limit per move, a cumulative game clock, or none.

`TimeControl` is what a game declares (the contest's control) and what a
person chooses on the setup screen; `Clock` is the running state of one
game: the seconds each player has used. Both are plain values without a
time source: whoever runs the game (the app's session, the contest driver)
measures the elapsed time and passes it in, so the model is tested without
waiting.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

# The most seconds a clock counts for a player or a move (over 30 years of thinking): a
# save holding more is refused as corrupted, and play never counts past it, so every
# clock a save can hold survives being played on and saved again.
MAX_SECONDS = 10**9
# What the AI keeps back from a limit: it must never lose on time.
SAFETY_SHARE = 0.8
SAFETY_SECONDS = 0.05
LEAST_SECONDS = 0.01  # what a move gets however little is left
# What a game clock keeps back for each move the rules still allow after this one: the
# least a move takes (LEAST_SECONDS) and its overhead on a busy machine, so a game that
# runs long still affords its last, quick moves once its planned shares are spent.
RESERVE_PER_MOVE = 0.02


class ClockKind(StrEnum):
    MOVE = "move"  # a limit for every move (Pah-Tum, Pousse, Boxing)
    GAME = "game"  # one budget for the whole game, spent across moves (LOAPS, Pillars)
    NONE = "none"  # no limit; the time used is still counted and shown


@dataclass(frozen=True)
class TimeControl:
    """A kind of clock and its seconds (per move or per game; ignored for NONE)."""

    kind: ClockKind
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.kind is not ClockKind.NONE and not (0 < self.seconds < math.inf):
            raise ValueError(f"a {self.kind.value} clock needs a positive, finite time")

    @classmethod
    def none(cls) -> TimeControl:
        return cls(ClockKind.NONE, 0.0)

    @property
    def limited(self) -> bool:
        return self.kind is not ClockKind.NONE

    def describe(self) -> str:
        """"10 s a move", "5 min a game", "no clock"."""
        if self.kind is ClockKind.NONE:
            return "no clock"
        amount = (f"{self.seconds / 60:g} min" if self.seconds >= 60 and self.seconds % 60 == 0
                  else f"{self.seconds:g} s")
        return f"{amount} a {self.kind.value}"

    def key(self) -> str:
        """A short stable text for choices and CLI values: move:10, game:60, none."""
        return "none" if self.kind is ClockKind.NONE else f"{self.kind.value}:{self.seconds:g}"

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """The inverse of `key` (ValueError with one line on bad text)."""
        kind, _, seconds = text.strip().lower().partition(":")
        try:
            clock_kind = ClockKind(kind)
        except ValueError:
            raise ValueError(
                f"bad clock {text!r}: use none, move:SECONDS or game:SECONDS") from None
        if clock_kind is ClockKind.NONE:
            return cls.none()
        try:
            value = float(seconds)
        except ValueError:
            raise ValueError(f"bad clock {text!r}: give the seconds, e.g. {kind}:60") from None
        if not 0 < value < 10**7:
            raise ValueError(f"bad clock {text!r}: the seconds must be above 0 and finite")
        return cls(clock_kind, value)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: Any) -> TimeControl:
        if not isinstance(data, dict):
            raise ValueError("a clock must be an object like {\"kind\": \"move\", \"seconds\": 10}")
        kind, seconds = data.get("kind"), data.get("seconds", 0.0)
        if not isinstance(kind, str) or kind not in {k.value for k in ClockKind}:
            raise ValueError(f"clock kind must be move, game or none, not {kind!r}")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise ValueError("clock seconds must be a number")
        seconds = float(seconds)
        if not math.isfinite(seconds) or seconds < 0 or seconds > 10**7:
            raise ValueError("clock seconds must be a finite number from 0 to 10,000,000")
        if kind == ClockKind.NONE:
            return cls.none()
        return cls(ClockKind(kind), seconds)


@dataclass
class Clock:
    """The seconds each player has used in one game under `control`.

    `elapsed` arguments are the seconds the player to move has spent on the
    move under way (not yet charged).
    """

    control: TimeControl
    used: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)  # the seconds each move took, in
    # order (a replay shows the clocks as they stood at each move); empty if not recorded

    @classmethod
    def start(cls, control: TimeControl, players: int) -> Clock:
        return cls(control, [0.0] * players)

    def spent(self, player: int, elapsed: float = 0.0) -> float:
        """All the time `player` has thought, the move under way included."""
        return self.used[player] + elapsed

    def left(self, player: int, elapsed: float = 0.0) -> float | None:
        """Seconds left before `player` runs out (None without a limit).

        For a per-move limit this is what is left of the move under way.
        """
        control = self.control
        if control.kind is ClockKind.MOVE:
            return control.seconds - elapsed
        if control.kind is ClockKind.GAME:
            return control.seconds - self.used[player] - elapsed
        return None

    def flagged(self, player: int, elapsed: float = 0.0) -> bool:
        """Whether `player` has run out of time (strictly past the limit)."""
        left = self.left(player, elapsed)
        return left is not None and left < 0

    def charge(self, player: int, seconds: float) -> None:
        """Bill a finished (or interrupted) move's time to `player`."""
        self.used[player] = min(float(MAX_SECONDS), self.used[player] + max(0.0, seconds))

    def ai_seconds(self, player: int, wanted: float, moves_left: int, elapsed: float = 0.0,
                   moves_most: int | None = None) -> float:
        """What an engine may spend on this move: its level's `wanted` seconds, cut to
        what the clock allows with a margin, so the AI never loses on time.

        Under a game clock the time left is shared over `moves_left`, the game's
        estimate of the engine's remaining moves, once RESERVE_PER_MOVE is kept back for
        each move after this one that the rules still allow (`moves_most`, the game's
        `moves_left_most`; None: no bound, nothing kept).
        """
        left = self.left(player, elapsed)
        if left is None:
            return wanted
        if self.control.kind is ClockKind.GAME:
            later = max(0, (moves_most or 0) - 1)
            share = max(0.0, left - later * RESERVE_PER_MOVE) / max(1, moves_left)
        else:
            share = left
        return max(LEAST_SECONDS, min(wanted, share * SAFETY_SHARE - SAFETY_SECONDS))

    def record(self, seconds: float) -> None:
        """Note the time of a move just played (after `charge`)."""
        self.moves.append(round(min(float(MAX_SECONDS), max(0.0, seconds)), 3))

    def forget(self, moves: int) -> None:
        """Keep the times of the first `moves` moves only (after an undo)."""
        del self.moves[moves:]

    def used_after(self, moves: int, players: int, first: int = 0) -> list[float] | None:
        """The time each player had used after the first `moves` moves, the players taking
        turns from `first` (None when the move times are not recorded)."""
        if len(self.moves) < moves:
            return None
        used = [0.0] * players
        for i, seconds in enumerate(self.moves[:moves]):
            used[(first + i) % players] += seconds
        return used

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {**self.control.to_json(), "used": [round(u, 3) for u in self.used]}
        if self.moves:
            data["moves"] = [round(m, 3) for m in self.moves]
        return data
