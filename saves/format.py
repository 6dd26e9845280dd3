"""The save document: a small, versioned, human-readable JSON file.

A save holds everything needed to rebuild a game exactly: the game, its
options and start position, who plays each side, every move as text, the
clocks and the result. Loading validates every field and replays the moves
through `rules`, so a corrupted or hand-edited file is refused with one clear
line instead of producing an impossible position.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rules import Game, RulesError, get_game

FORMAT = "arena-save"
VERSION = 1
LEVELS = ("easy", "medium", "hard", "max")  # the same names as ai.engine.LEVELS
KINDS = ("human", "ai")


class SaveError(ValueError):
    """A save that cannot be read, parsed or replayed; its text is one clear line."""


@dataclass
class PlayerSpec:
    """Who plays one side: a human, or the AI at a level (None: the caller's default)."""

    kind: str
    level: str | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise SaveError(f"unknown player {self.kind!r}: use human, ai or ai:LEVEL")
        if self.kind == "human" and self.level is not None:
            raise SaveError("a human player has no level")
        if self.level is not None and self.level not in LEVELS:
            raise SaveError(f"unknown level {self.level!r}; levels: {', '.join(LEVELS)}")

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """`human`, `ai` or `ai:LEVEL` (case and spaces ignored)."""
        kind, sep, level = text.strip().lower().partition(":")
        if kind not in KINDS or (sep and kind == "human"):
            raise SaveError(f"bad player {text!r}: use human, ai or ai:LEVEL")
        if sep and not level.strip():
            raise SaveError(f"bad player {text!r}: give a level after 'ai:'")
        return cls(kind, level.strip() if sep else None)

    def text(self) -> str:
        """The inverse of `parse`."""
        return self.kind if self.level is None else f"{self.kind}:{self.level}"

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"

    def label(self, only_human: bool = True) -> str:
        """What the players panel shows: the name if set, else You/Human/AI (level)."""
        if self.name:
            return self.name
        if not self.is_ai:
            return "You" if only_human else "Human"
        return "AI" if self.level is None else f"AI ({self.level})"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.level is not None:
            data["level"] = self.level
        if self.name:
            data["name"] = self.name
        return data


@dataclass
class SaveDoc:
    """One save file's content, validated but not yet replayed."""

    game: str
    options: dict[str, Any]
    start: str
    players: list[PlayerSpec]
    moves: list[str]
    clocks: list[float]
    result: dict[str, Any] | None
    match: dict[str, Any] | None
    saved_at: str = field(default_factory=lambda: now_text())


def now_text() -> str:
    """The current UTC time as ISO 8601 to the second, e.g. 2026-11-22T07:12:00Z."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def result_of(game: Game) -> dict[str, Any] | None:
    out = game.outcome
    if out is None:
        return None
    return {"winner": out.winner, "points": list(out.points), "reason": out.reason}


def doc_from_game(
    game: Game,
    players: Sequence[PlayerSpec],
    clocks: Sequence[float] = (0.0, 0.0),
    match: dict[str, Any] | None = None,
) -> SaveDoc:
    """The save document of `game` as it stands now."""
    return SaveDoc(
        game=game.name,
        options=dict(game.options),
        start=game.start_native(),
        players=list(players),
        moves=game.history_text(),
        clocks=[float(c) for c in clocks],
        result=result_of(game),
        match=match,
    )


# ----- writing ---------------------------------------------------------------

WIDTH = 80


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _pretty(value: Any, indent: int, one_per_line: bool = False) -> str:
    """Indented JSON whose short lists of scalars are packed onto lines of WIDTH."""
    pad = "  " * (indent + 1)
    end = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        if all(not isinstance(v, dict | list) for v in value.values()):
            inline = "{" + ", ".join(f"{_scalar(k)}: {_scalar(v)}" for k, v in value.items()) + "}"
            if len(pad) + len(inline) <= WIDTH:
                return inline
        items = [
            f"{pad}{_scalar(k)}: {_pretty(v, indent + 1, k in _ONE_PER_LINE)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{end}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        parts = [_pretty(v, indent + 1) for v in value]
        flat = all(not isinstance(v, dict | list) for v in value)
        if flat and not one_per_line:
            one_line = "[" + ", ".join(parts) + "]"
            if len(pad) + len(one_line) <= WIDTH:
                return one_line
            lines, line = [], ""
            for part in parts:
                if line and len(pad) + len(line) + len(part) + 2 > WIDTH:
                    lines.append(line + ",")
                    line = ""
                line = f"{line}, {part}" if line else part
            lines.append(line)
            return "[\n" + "\n".join(pad + ln for ln in lines) + f"\n{end}]"
        return "[\n" + ",\n".join(pad + p for p in parts) + f"\n{end}]"
    return _scalar(value)


_ONE_PER_LINE = {"start"}


def _start_lines(start: str) -> str | list[str]:
    """A start ending in a newline as its lines (one per row, readable); else the text."""
    return start[:-1].split("\n") if start.endswith("\n") else start


def dumps(doc: SaveDoc) -> str:
    """The document as pretty, stable JSON (the start position one line per row)."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "game": doc.game,
        "saved_at": doc.saved_at,
        "players": [p.to_json() for p in doc.players],
        "options": doc.options,
        "start": _start_lines(doc.start),
        "moves": list(doc.moves),
        "clocks": [round(float(c), 3) for c in doc.clocks],
        "result": doc.result,
        "match": doc.match,
    }
    return _pretty(data, 0) + "\n"


# ----- reading ---------------------------------------------------------------


def _need(data: dict[str, Any], key: str, kinds: type | tuple[type, ...], what: str) -> Any:
    if key not in data:
        raise SaveError(f"the save has no {key!r} field")
    value = data[key]
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        raise SaveError(f"{key!r} must be {what}, not {value!r}")
    if not isinstance(value, kinds):
        raise SaveError(f"{key!r} must be {what}, not {_short(value)}")
    return value


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _player(value: Any, i: int) -> PlayerSpec:
    if isinstance(value, str):
        return PlayerSpec.parse(value)
    if not isinstance(value, dict):
        raise SaveError(f"player {i + 1} must be an object like {{\"kind\": \"ai\"}}")
    kind, level, name = value.get("kind"), value.get("level"), value.get("name", "")
    if not isinstance(kind, str) or not (level is None or isinstance(level, str)):
        raise SaveError(f"player {i + 1}: 'kind' and 'level' must be text")
    if not isinstance(name, str):
        raise SaveError(f"player {i + 1}: 'name' must be text")
    try:
        return PlayerSpec(kind, level, name)
    except SaveError as err:
        raise SaveError(f"player {i + 1}: {err}") from None


def _result(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise SaveError(f"'result' must be an object or null, not {_short(value)}")
    winner, points, reason = value.get("winner"), value.get("points"), value.get("reason", "")
    if not (winner is None or (isinstance(winner, int) and not isinstance(winner, bool))):
        raise SaveError(f"'result.winner' must be 0, 1 or null, not {_short(winner)}")
    if not isinstance(points, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) for p in points
    ):
        raise SaveError("'result.points' must be a list of whole numbers")
    if not isinstance(reason, str):
        raise SaveError("'result.reason' must be text")
    return {"winner": winner, "points": points, "reason": reason}


def _json(text: str) -> Any:
    if not text.strip():
        raise SaveError("the file is empty")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        # A cut file fails on its last line (mid-string errors point at the string's start).
        last_line = text.rstrip().count("\n") + 1
        cut_string = err.msg.startswith("Unterminated string") and "\n" not in text[err.pos:]
        if err.lineno >= last_line or cut_string:
            raise SaveError("the file ends too soon: it is truncated") from None
        raise SaveError(
            f"not valid JSON at line {err.lineno} column {err.colno} ({err.msg}): "
            "the file is corrupted"
        ) from None


def loads(text: str) -> SaveDoc:
    """Parse and validate a save's text (format, version and every field's type)."""
    data = _json(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not an Arena save (no \"format\": \"arena-save\")")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(f"bad save version {_short(version)}")
    if version > VERSION:
        raise SaveError(
            f"this file was saved by a newer Arena (version {version}); "
            f"this one reads version {VERSION}"
        )
    game = _need(data, "game", str, "a game name")
    options = _need(data, "options", dict, "an object")
    # A list is the start's lines, each ending in a newline; a string is the exact text.
    start = _need(data, "start", (str, list), "text or a list of lines")
    if isinstance(start, list):
        if not all(isinstance(s, str) for s in start):
            raise SaveError("'start' lines must all be text")
        start = "".join(line + "\n" for line in start)
    players_raw = _need(data, "players", list, "a list of two players")
    if len(players_raw) != 2:
        raise SaveError(f"'players' must list 2 players, not {len(players_raw)}")
    players = [_player(p, i) for i, p in enumerate(players_raw)]
    moves = _need(data, "moves", list, "a list of move texts")
    for i, move in enumerate(moves, 1):
        if not isinstance(move, str):
            raise SaveError(f"move {i} must be text, not {_short(move)}")
    clocks = _need(data, "clocks", list, "a list of two times in seconds")
    if len(clocks) != 2 or not all(_number(c) and c >= 0 for c in clocks):
        raise SaveError("'clocks' must be two times in seconds, 0 or more")
    result = _result(data.get("result"))
    match = data.get("match")
    if match is not None and not isinstance(match, dict):
        raise SaveError(f"'match' must be an object or null, not {_short(match)}")
    saved_at = _need(data, "saved_at", str, "a date and time")
    try:
        datetime.fromisoformat(saved_at)
    except ValueError:
        raise SaveError(f"'saved_at' is not an ISO date and time: {saved_at!r}") from None
    return SaveDoc(
        game=game,
        options=options,
        start=start,
        players=players,
        moves=list(moves),
        clocks=[float(c) for c in clocks],
        result=result,
        match=match,
        saved_at=saved_at,
    )


def restore(doc: SaveDoc) -> Game:
    """Rebuild the game by replaying every move through `rules`; SaveError if any fails."""
    try:
        cls = get_game(doc.game)
    except RulesError as err:
        raise SaveError(str(err)) from None
    try:
        game = cls.from_start(doc.options, doc.start)
    except (RulesError, TypeError, ValueError) as err:
        raise SaveError(f"bad start position: {err}") from None
    if game.history:  # a native start that already holds moves (Pousse) must be empty
        raise SaveError("bad start position: it already holds moves; list them under 'moves'")
    try:
        game.replay(doc.moves)
    except RulesError as err:
        raise SaveError(f"cannot replay the moves: {err}") from None
    replayed = result_of(game)
    stored = doc.result
    if (replayed is None) != (stored is None) or (
        replayed is not None
        and stored is not None
        and (replayed["winner"], replayed["points"]) != (stored["winner"], stored["points"])
    ):
        want = "none" if replayed is None else f"{replayed['reason']}"
        raise SaveError(
            f"the stored result does not match the moves (replayed: {want}); "
            "the file was hand-edited or corrupted"
        )
    return game
