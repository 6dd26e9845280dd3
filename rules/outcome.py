"""How a game ended, as a value: a termination kind, the winners, points per player.

Nothing that reads an outcome searches its `reason` (that is prose for people):
the end screen, the players panel, the saves and the strength runner look at
`kind`, `winners` and `points`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """Why a game ended; the value is what a save file stores."""

    BOARD_FULL = "board_full"  # no empty cell is left and the points decide (Pah-Tum)
    STRAIGHTS = "straights"  # one colour has more straights (Pousse)
    REPETITION = "repetition"  # the mover repeated a configuration and loses (Pousse)
    CONNECTION = "connection"  # a side connected its pieces; the points decide (LOAPS)
    MOVE_LIMIT = "move_limit"  # the move limit was reached: a draw (LOAPS)
    NO_MOVES = "no_moves"  # the side to move has no legal move and loses (LOAPS)
    LAST_CELL = "last_cell"  # the last empty cell was filled (Pillars loses, Boxing wins)
    TIME = "time"  # a player's clock ran out: that player loses
    FAULT = "fault"  # a player made an illegal move, crashed or answered nonsense

    @property
    def label(self) -> str:
        """A few words for people, e.g. "out of time"."""
        return _LABELS[self]


_LABELS = {
    Termination.BOARD_FULL: "board full",
    Termination.STRAIGHTS: "more straights",
    Termination.REPETITION: "repetition",
    Termination.CONNECTION: "connection",
    Termination.MOVE_LIMIT: "move limit",
    Termination.NO_MOVES: "no legal move",
    Termination.LAST_CELL: "last cell filled",
    Termination.TIME: "out of time",
    Termination.FAULT: "fault",
}

# Endings a player brings on itself, not the board: shared code may impose them.
FORFEITS = (Termination.TIME, Termination.FAULT)
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

    kind: Termination
    winners: tuple[int, ...]
    points: tuple[int, ...]
    reason: str
    loser: int | None = None
    fault: str | None = None
    output: str | None = None

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
    and the kind is left to the replay (BOARD_FULL as a placeholder).
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
    kind_text = data.get("kind", Termination.BOARD_FULL.value)
    try:
        kind = Termination(kind_text)
    except ValueError:
        raise ValueError(f"unknown way for a game to end: {_short(kind_text)}") from None
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
    return Outcome(kind, winners, pts, reason, loser, fault, output)
