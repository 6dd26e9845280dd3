"""How a game ended, as a value: an ending, the winners, points per player.

An ending is a generic kind (`Termination`: the game's own rule, a limit, no legal
move, a forfeit on time or by a fault), which is all shared code asks, and the
game's own words for it ("board full", "repetition"), which each game declares
(`Game.endings`). Nothing that reads an outcome searches its `reason` (that is
prose for people): the end screen, the players panel, the saves and the strength
runner look at `kind`, `winners` and `points`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """The kind of ending, the same for every game; the value is what a save file stores."""

    RULE = "rule"  # the game's own rule ended it: a full board, a connection, the last cell
    LIMIT = "limit"  # a limit on the game's length was reached: a draw
    NO_MOVES = "no_moves"  # the side to move has no legal move and loses
    TIME = "time"  # a player's clock ran out: that player loses
    FAULT = "fault"  # a player made an illegal move, crashed or answered nonsense

    @property
    def label(self) -> str:
        """A few words for people, e.g. "out of time", where the game has none of its own."""
        return _LABELS[self]


_LABELS = {
    Termination.RULE: "end of the game",
    Termination.LIMIT: "limit reached",
    Termination.NO_MOVES: "no legal move",
    Termination.TIME: "out of time",
    Termination.FAULT: "fault",
}
LABEL_LENGTH = 40  # an ending's words are a label, not a sentence


@dataclass(frozen=True)
class Ending:
    """One way a game ends: its kind and the game's own words for it (`label`)."""

    kind: Termination
    label: str

    @classmethod
    def of(cls, kind: Termination) -> Ending:
        """The ending of `kind` in the generic words (a forfeit reads the same everywhere)."""
        return cls(kind, kind.label)


# Endings a player brings on itself, not the board: shared code may impose them.
FORFEITS = (Termination.TIME, Termination.FAULT)
# The kinds that saves wrote before kinds were generic, and the endings they stood for
# (in the words the games still use): such saves load as they always did.
OLD_KINDS = {
    "board_full": Ending(Termination.RULE, "board full"),
    "straights": Ending(Termination.RULE, "more straights"),
    "repetition": Ending(Termination.RULE, "repetition"),
    "connection": Ending(Termination.RULE, "connection"),
    "move_limit": Ending(Termination.LIMIT, "move limit"),
    "last_cell": Ending(Termination.RULE, "last cell filled"),
}
# How a contest program can lose to the jury, as saves and `arena match` name them.
FAULT_KINDS = ("illegal", "malformed", "crash", "exit", "timeout", "start", "output")
OUTPUT_KEPT = 2000  # characters of a faulty program's output a result keeps


@dataclass(frozen=True)
class Outcome:
    """The end of one game: `winners` empty means a draw; `points` has one entry per player.

    `loser` names the player whose time ran out or who faulted (forfeits only). A
    program's fault (Arena as the jury) also keeps its kind (`FAULT_KINDS`) and the
    program's exact output, or as much of it as `OUTPUT_KEPT` characters.
    """

    ending: Ending
    winners: tuple[int, ...]
    points: tuple[int, ...]
    reason: str
    loser: int | None = None
    fault: str | None = None
    output: str | None = None

    @property
    def kind(self) -> Termination:
        return self.ending.kind

    @property
    def label(self) -> str:
        """How it ended in the game's own words, e.g. "board full", "out of time"."""
        return self.ending.label

    @property
    def winner(self) -> int | None:
        """The single winner, or None for a draw (or a shared win)."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def won(self, player: int) -> bool:
        return player in self.winners

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind.value,
            "label": self.label,
            "winner": self.winner,
            "winners": list(self.winners),
            "points": list(self.points),
            "reason": self.reason,
        }
        if self.loser is not None:
            data["loser"] = self.loser
        if self.fault is not None:
            data["fault"] = self.fault
        if self.output is not None:
            data["output"] = self.output
        return data


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {_short(value)}")
    if abs(value) > 10**9:
        raise ValueError(f"{what} is out of range: {_short(value)}")
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def outcome_from_json(data: Any, players: int) -> Outcome:
    """An outcome from a save, checked against the number of players (ValueError, one line).

    Version 1 saves have no `kind` or `winners`: `winner` alone stands for them,
    and the kind is left to the replay (RULE as a placeholder). A kind from before
    kinds were generic (`OLD_KINDS`) is read as the ending it stood for.
    """
    if not isinstance(data, dict):
        raise ValueError(f"a result must be an object, not {_short(data)}")
    points = data.get("points")
    if not isinstance(points, list) or len(points) != players:
        raise ValueError(f"a result's points must list {players} numbers")
    pts = tuple(_whole(p, "a point count") for p in points)
    if "winners" in data:
        raw = data["winners"]
        if not isinstance(raw, list) or len(raw) > players:
            raise ValueError("a result's winners must be a list of player numbers")
        winners = tuple(_whole(w, "a winner") for w in raw)
    else:
        w = data.get("winner")
        winners = () if w is None else (_whole(w, "the winner"),)
    if any(not 0 <= w < players for w in winners) or len(set(winners)) != len(winners):
        raise ValueError(f"a result's winners must be distinct players 0 to {players - 1}")
    ending = _ending(data)
    kind = ending.kind
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise ValueError("a result's reason must be text")
    loser = data.get("loser")
    if loser is not None:
        loser = _whole(loser, "the loser")
        if not 0 <= loser < players:
            raise ValueError(f"the loser must be a player 0 to {players - 1}")
    if kind in FORFEITS and loser is None:
        raise ValueError(f"a result by {kind.label} must name the player who lost")
    fault, output = data.get("fault"), data.get("output")
    if fault is not None and fault not in FAULT_KINDS:
        raise ValueError(f"unknown fault {_short(fault)}: one of {', '.join(FAULT_KINDS)}")
    if fault is not None and kind not in FORFEITS:
        raise ValueError("only a forfeit names a fault")
    if output is not None and (not isinstance(output, str) or len(output) > OUTPUT_KEPT):
        raise ValueError(f"a result's output must be text of at most {OUTPUT_KEPT} characters")
    return Outcome(ending, winners, pts, reason, loser, fault, output)


def _ending(data: dict[str, Any]) -> Ending:
    kind_text = data.get("kind", Termination.RULE.value)
    if isinstance(kind_text, str) and kind_text in OLD_KINDS:
        return OLD_KINDS[kind_text]
    try:
        kind = Termination(kind_text)
    except ValueError:
        raise ValueError(f"unknown way for a game to end: {_short(kind_text)}") from None
    label = data.get("label", kind.label)
    if not isinstance(label, str) or not 0 < len(label) <= LABEL_LENGTH:
        raise ValueError(f"a result's label must be a few words, not {_short(label)}")
    return Ending(kind, label)
