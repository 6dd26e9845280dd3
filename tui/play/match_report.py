"""What `arena match` shows: the standings (the table, head to head, Elo with its 95%
interval, the crosstable), the report as text or one JSON document, and the progress
line while it runs. The games themselves are `tui.play.match`'s.

Points: a win 1, a draw 1/2 to each, a loss 0 (a win shared by k players 1/k each),
the chess-style count of `rules.match.PlainWins`, whatever the game's own match rule;
that rule's sum (margins, match points) is a column too.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from rules.match import PlainWins
from rules.outcome import FAULT_KINDS
from tui.play.match import Entrant, Record, Result, all_in_each_game

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval
REASON_SHOWN = 100  # characters of a game's result in a progress line
POINTS = PlainWins()


# ----- standings -------------------------------------------------------------------------


@dataclass
class Line:
    """One player's row of the table."""

    player: Entrant
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    standing: float = 0.0  # the game's own match rule, summed
    faults: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player.index, "label": self.player.label, "games": self.games,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "points": self.points, "standing": self.standing, "faults": dict(self.faults)}


def table(result: Result) -> list[Line]:
    """Per player, in the order given."""
    lines = [Line(p) for p in result.players]
    rule = result.game_class.match_rule
    for record in result.records:
        outcome = record.outcome
        points = POINTS.game_scores(outcome)
        own = rule.game_scores(outcome)
        for seat, who in enumerate(record.task.seats):
            line = lines[who]
            line.games += 1
            if outcome.is_draw:
                line.draws += 1
            elif outcome.won(seat):
                line.wins += 1
            else:
                line.losses += 1
            line.points += points[seat]
            line.standing += own[seat]
            fault = record.fault_of(seat)
            if fault is not None:
                line.faults[fault] = line.faults.get(fault, 0) + 1
    return lines


def head_to_head(result: Result, a: int, b: int) -> list[float]:
    """A's points (1, 1/2, 0) in each finished game with B, in schedule order."""
    scores = []
    for record in result.records:
        seats = record.task.seats
        if a in seats and b in seats:
            scores.append(POINTS.game_scores(record.outcome)[seats.index(a)])
    return scores


def elo(score: float) -> float:
    """The Elo difference a score fraction stands for (+-inf at 1 and 0)."""
    if score >= 1:
        return math.inf
    if score <= 0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Elo:
    """The first player's Elo over the second with a 95% interval, from `games` scores.

    The interval is the normal one on the mean score (its standard error from the
    games' own spread, draws included); at 100% (0%) the score's interval is the exact
    one-sided bound (1/40)^(1/n) (1 less it), since the spread is then zero."""

    games: int
    score: float
    difference: float
    low: float
    high: float

    @classmethod
    def of(cls, scores: Sequence[float]) -> Elo | None:
        n = len(scores)
        if not n:
            return None
        mean = sum(scores) / n
        if mean >= 1:
            low_s, high_s = 0.025 ** (1 / n), 1.0
        elif mean <= 0:
            low_s, high_s = 0.0, 1 - 0.025 ** (1 / n)
        else:
            spread = math.sqrt(sum((x - mean) ** 2 for x in scores) / n / n)
            low_s, high_s = mean - Z95 * spread, mean + Z95 * spread
        return cls(n, mean, elo(mean), elo(low_s), elo(high_s))

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "score": round(self.score, 4),
                "difference": number(self.difference), "low": number(self.low),
                "high": number(self.high)}


def number(value: float) -> float | str:
    """A JSON-ready Elo: rounded to 0.1, or "+inf" / "-inf"."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return round(value, 1)


def signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value):+d}"


def elo_line(a: str, b: str, rating: Elo) -> str:
    """The report's Elo line. A clean sweep has no point estimate (its score stands for an
    infinite difference), so it gives the interval's one finite bound instead."""
    games = f"score {rating.score:.1%} over {_games(rating.games)}"
    if math.isinf(rating.difference):
        bound, edge = ("at least", rating.low) if rating.difference > 0 else ("at most",
                                                                             rating.high)
        return f"Elo of {a} over {b}: {bound} {signed(edge)} (95% bound; {games})"
    return (f"Elo of {a} over {b}: {signed(rating.difference)} "
            f"(95% interval {signed(rating.low)} to {signed(rating.high)}; {games})")


def crosstable(result: Result) -> list[list[float | None]]:
    """Points of the row's player against the column's (None on the diagonal)."""
    n = len(result.players)
    return [[None if a == b else sum(head_to_head(result, a, b)) for b in range(n)]
            for a in range(n)]


def is_round_robin(result: Result) -> bool:
    return len(result.players) > 2 and not all_in_each_game(result.game_class)


# ----- text and JSON -----------------------------------------------------------------


def _faults(counts: dict[str, int]) -> str:
    ordered = sorted(counts, key=lambda k: FAULT_KINDS.index(k) if k in FAULT_KINDS else 99)
    return ", ".join(f"{k} {counts[k]}" for k in ordered) or "-"


def _grid(rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    """Columns padded to their widest cell; the first `left` columns flush left."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell.ljust(w) if i < left else cell.rjust(w)
                 for i, (cell, w) in enumerate(zip(row, widths, strict=True))]
        out.append("  ".join(cells).rstrip())
    return out


def _rule_title(title: str) -> str:
    """The game's own match rule as a column head ("points" is taken)."""
    return "game points" if title == "points" else title


def _games(n: int) -> str:
    return f"{n} game{'s' if n != 1 else ''}"


def heading(result: Result) -> str:
    cls = result.game_class
    shown = "".join(f", {k}={v}" for k, v in result.options.items())
    per = ("every player in each game" if all_in_each_game(cls)
           else f"{_games(result.games)} a pairing")
    return (f"{cls.title} match{shown}: {len(result.records)} of {_games(result.total)} "
            f"({per}), seed {result.seed}, clock {result.control.describe()}"
            f"{' (interrupted)' if result.interrupted else ''}")


def report(result: Result) -> str:
    """The table (and the Elo line or the crosstable) as text."""
    rule = result.game_class.match_rule
    own = not isinstance(rule, PlainWins)
    header = ["player", "games", "wins", "draws", "losses", "points"]
    header += [_rule_title(rule.title)] if own else []
    rows = [header + ["faults"]]
    for line in table(result):
        row = [f"{line.player.index + 1}. {line.player.label}", str(line.games),
               str(line.wins), str(line.draws), str(line.losses), f"{line.points:g}"]
        row += [rule.number(line.standing)] if own else []
        rows.append(row + [_faults(line.faults)])
    grid = _grid(rows)
    text = [heading(result), *grid]
    text.append("points: a win 1, a draw 1/2 (the chess count, whatever the game's rule)")
    if len(result.players) == 2:
        rating = Elo.of(head_to_head(result, 0, 1))
        if rating is not None:
            a, b = (p.label for p in result.players)
            text.append(elo_line(a, b, rating))
    if is_round_robin(result):
        cross = crosstable(result)
        per = result.games
        top = ["crosstable", *[str(i + 1) for i in range(len(result.players))]]
        rows = [top]
        for a, player in enumerate(result.players):
            rows.append([f"{a + 1}. {player.label}",
                         *["-" if v is None else f"{v:g}/{per}" for v in cross[a]]])
        text.append("")
        text.extend(_grid(rows))
        text.append(f"(the row's points against the column's, of {per} games a pairing)")
    return "\n".join(text)


def to_json(result: Result) -> dict[str, Any]:
    """The whole match as one JSON-ready document."""
    data: dict[str, Any] = {
        "game": result.game_class.name,
        "options": dict(result.options),
        "seed": result.seed,
        "clock": result.control.to_json(),
        "games_per_pairing": result.games,
        "total": result.total,
        "finished": len(result.records),
        "interrupted": result.interrupted,
        "players": [p.to_json() for p in result.players],
        "games": [r.to_json(result.players) for r in result.records],
        "table": [line.to_json() for line in table(result)],
    }
    if len(result.players) == 2:
        rating = Elo.of(head_to_head(result, 0, 1))
        data["elo"] = None if rating is None else rating.to_json()
    if is_round_robin(result):
        data["crosstable"] = crosstable(result)
    return data


def dumps(result: Result) -> str:
    return json.dumps(to_json(result), indent=2)


# ----- progress ---------------------------------------------------------------------------


class Progress:
    """Progress on `stream`: a bar redrawn in place on a terminal, else a line a game."""

    def __init__(self, stream: TextIO, tty: bool, width: int = 80) -> None:
        self.stream = stream
        self.tty = tty
        self.width = max(20, width)
        self.began = time.monotonic()
        self._drawn = False
        self._points: list[float] = []  # per player, kept up as games end

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # progress is a courtesy: a closed stderr is no error
            pass

    def start(self, result: Result) -> None:
        self.began = time.monotonic()
        self._points = [line.points for line in table(result)]
        if self.tty:
            self.tick(result)

    def _left(self, result: Result) -> str:
        done = len(result.records)
        if not done:
            return "time left: estimating"
        spent = time.monotonic() - self.began
        return f"about {_duration(spent / done * (result.total - done))} left"

    def _score(self, result: Result) -> str:
        return ", ".join(f"{player.label} {points:g}"
                         for player, points in zip(result.players, self._points, strict=True))

    def tick(self, result: Result) -> None:
        if not self.tty:
            return
        done, total = len(result.records), result.total
        filled = round(20 * done / total)
        line = (f"[{'#' * filled}{'.' * (20 - filled)}] {done}/{total} games | "
                f"{self._score(result)} | {self._left(result)}")
        if len(line) > self.width - 1:
            line = line[: self.width - 4] + "..."
        self._write("\r" + line + "\x1b[K")
        self._drawn = True

    def finished(self, result: Result, record: Record) -> None:
        for seat, points in enumerate(POINTS.game_scores(record.outcome)):
            self._points[record.task.seats[seat]] += points
        if self.tty:
            self.tick(result)
            return
        seats = " vs ".join(f"{result.players[p].label} ({record.game.seat_name(s)})"
                            for s, p in enumerate(record.task.seats))
        reason = record.outcome.reason
        if len(reason) > REASON_SHOWN:
            reason = reason[: REASON_SHOWN - 3] + "..."
        moves = len(record.game.history)
        self._write(f"game {record.task.number} ({len(result.records)}/{result.total} done): "
                    f"{seats}: {reason}; {moves} move{'s' if moves != 1 else ''}, "
                    f"{record.seconds:.1f} s | {self._score(result)} | "
                    f"{self._left(result)}\n")

    def close(self) -> None:
        if self._drawn:
            self._write("\n")
            self._drawn = False


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"

