"""The save document: a small, versioned, human-readable JSON file.

A save holds everything needed to rebuild a game exactly: the game, its
options and start position, who sits in each seat, every move as text, the
clock, the result and the match around the game. Loading validates every
field against the game's declaration and replays the moves through `rules`,
so a corrupted or hand-edited file is refused with one clear line instead of
producing an impossible position or crashing whoever shows it.

Version 2 (written) has a `clock` object and outcomes with a termination kind;
version 1 (still read) had `clocks: [a, b]`, results `{winner, points,
reason}` and match results as points per mark.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from rules import Clock, Game, MatchState, Outcome, PlayerSpec, RulesError, TimeControl, get_game
from rules.clock import MAX_SECONDS  # a clock beyond 30 years of thinking is corrupted
from rules.outcome import FORFEITS, outcome_from_json
from rules.players import clean_name
from saves.jsontext import JsonError, excerpt, parse, pretty

FORMAT = "arena-save"
VERSION = 2
MESSAGE_LIMIT = 300
YEARS = (1970, 9998)  # a saved_at outside them is corrupted (and may not convert)


class SaveError(ValueError):
    """A save that cannot be read, parsed or replayed; its text is one short printable line
    (whatever bad input it quotes: a control character or a lone surrogate is escaped)."""

    def __init__(self, message: object) -> None:
        text = " ".join(str(message).split())
        text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
        if len(text) > MESSAGE_LIMIT:
            text = text[: MESSAGE_LIMIT - 3] + "..."
        super().__init__(text)


@dataclass
class SaveDoc:
    """One save file's content, validated but not yet replayed.

    `players` has one spec per seat, by mark of the game on the board; `version`
    is the version the file was read as (`restore` upgrades a version-1 doc).
    """

    game: str
    options: dict[str, Any]
    start: str
    players: list[PlayerSpec]
    moves: list[str]
    clock: Clock
    result: Outcome | None
    match: MatchState | None
    saved_at: str = field(default_factory=lambda: now_text())
    version: int = VERSION


def now_text() -> str:
    """The current UTC time as ISO 8601 to the second, e.g. 2026-11-22T07:12:00Z."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def saved_time(text: str) -> datetime:
    """`saved_at` as a local time; SaveError if it is no date or out of range.

    The range keeps every offset within a day of it inside what datetime can
    convert, so whether a save loads never depends on the local time zone.
    """
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise SaveError(f"'saved_at' is not an ISO date and time: {excerpt(text)}") from None
    if not YEARS[0] <= when.year <= YEARS[1]:
        raise SaveError(f"'saved_at' is in the year {when.year}; a save's date is from "
                        f"{YEARS[0]} to {YEARS[1]}")
    try:
        return when.astimezone()
    except (ValueError, OverflowError, OSError):  # a platform that cannot convert it
        raise SaveError(f"'saved_at' cannot be shown in local time: {excerpt(text)}") from None


def doc_from_game(
    game: Game,
    players: Sequence[PlayerSpec],
    clock: Clock | None = None,
    match: MatchState | None = None,
) -> SaveDoc:
    """The save document of `game` as it stands now (a copy: later play does not change it).

    `players` has one spec per seat of this game (by mark); `clock` defaults to
    no limit and no time used.
    """
    if len(players) != game.players:
        raise SaveError(f"{game.title} has {game.players} seats, not {len(players)} players")
    if clock is None:
        clock = Clock.start(TimeControl.none(), game.players)
    if len(clock.used) != game.players:
        raise SaveError(f"the clock has {len(clock.used)} times for {game.players} players")
    if match is not None:
        match = MatchState(match.rule, match.players, match.index, list(match.results))
    return SaveDoc(
        game=game.name,
        options=dict(game.options),
        start=game.start_native(),
        # (every field kept: an AI's own time and an older engine's revision too)
        players=[replace(p, name=clean_name(p.name)) for p in players],
        moves=game.history_text(),
        # to the millisecond, as written, so a document equals its own round trip
        clock=Clock(clock.control, [round(float(u), 3) for u in clock.used],
                    [round(float(m), 3) for m in clock.moves[:len(game.history)]]
                    if len(clock.moves) >= len(game.history) else []),
        result=game.outcome,
        match=match,
    )


# ----- writing ---------------------------------------------------------------

_ONE_PER_LINE = ("start",)  # a board keeps one row a line


def _start_lines(start: str) -> str | list[str]:
    """A start ending in a newline as its lines (one per row, readable); else the text."""
    return start[:-1].split("\n") if start.endswith("\n") else start


def dumps(doc: SaveDoc) -> str:
    """The document as pretty, stable JSON of the current version."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "game": doc.game,
        "saved_at": doc.saved_at,
        "players": [p.to_json() for p in doc.players],
        "options": doc.options,
        "start": _start_lines(doc.start),
        "moves": list(doc.moves),
        "clock": doc.clock.to_json(),
        "result": None if doc.result is None else doc.result.to_json(),
        "match": None if doc.match is None else doc.match.to_json(),
    }
    return pretty(data, _ONE_PER_LINE) + "\n"


# ----- reading ---------------------------------------------------------------


def _need(data: dict[str, Any], key: str, kinds: type | tuple[type, ...], what: str) -> Any:
    if key not in data:
        raise SaveError(f"the save has no {key!r} field")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise SaveError(f"{key!r} must be {what}, not {excerpt(value)}")
    return value


def _version(data: dict[str, Any]) -> int:
    if "version" not in data:
        raise SaveError("the save has no 'version' field")
    version = data["version"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SaveError(f"bad save version {excerpt(version)}")
    if version > VERSION:
        raise SaveError(
            f"this file was saved by a newer Arena (version {version}); "
            f"this one reads versions 1 to {VERSION}"
        )
    return version


def _start(data: dict[str, Any]) -> str:
    # A list is the start's lines, each ending in a newline; a string is the exact text.
    start = _need(data, "start", (str, list), "text or a list of lines")
    if isinstance(start, list):
        if not all(isinstance(s, str) for s in start):
            raise SaveError("'start' lines must all be text")
        start = "".join(line + "\n" for line in start)
    return start


def _players(data: dict[str, Any], cls: type[Game]) -> list[PlayerSpec]:
    low, high = cls.player_count
    seats = f"{low}" if low == high else f"{low} to {high}"
    raw = _need(data, "players", list, f"a list of {seats} players")
    if not low <= len(raw) <= high:
        raise SaveError(f"'players' must list {seats} players for {cls.title}, not {len(raw)}")
    players = []
    for i, value in enumerate(raw, 1):
        try:
            players.append(PlayerSpec.from_json(value))
        except RulesError as err:
            raise SaveError(f"player {i}: {err}") from None
    return players


def _moves(data: dict[str, Any]) -> list[str]:
    moves = _need(data, "moves", list, "a list of move texts")
    for i, move in enumerate(moves, 1):
        if not isinstance(move, str):
            raise SaveError(f"move {i} must be text, not {excerpt(move)}")
    return list(moves)


def _seconds(values: Any, players: int, where: str) -> list[float]:
    if not isinstance(values, list) or len(values) != players:
        raise SaveError(f"{where} must list {players} times in seconds")
    for value in values:
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not 0 <= value <= MAX_SECONDS):
            raise SaveError(f"{where} must be times from 0 to {MAX_SECONDS:,} seconds, "
                            f"not {excerpt(value)}")
    return [float(v) for v in values]


def _clock(data: dict[str, Any], version: int, players: int) -> Clock:
    if version == 1:  # seconds used, no limit (version 1 had none)
        used = _seconds(_need(data, "clocks", list, "a list of times"), players, "'clocks'")
        return Clock(TimeControl.none(), used)
    raw = _need(data, "clock", dict, "an object like {\"kind\": \"none\", \"used\": [0, 0]}")
    try:
        control = TimeControl.from_json(raw)
    except ValueError as err:
        raise SaveError(f"'clock': {err}") from None
    used = _seconds(raw.get("used"), players, "'clock.used'")
    moves = raw.get("moves", [])
    if not isinstance(moves, list):
        raise SaveError("'clock.moves' must be a list of times in seconds, one a move")
    return Clock(control, used, _seconds(moves, len(moves), "'clock.moves'"))


def loads(text: str) -> SaveDoc:
    """Parse and validate a save's text (format, version and every field's type and range)."""
    try:
        data = parse(text)
    except JsonError as err:
        raise SaveError(str(err)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not an Arena save (no \"format\": \"arena-save\")")
    version = _version(data)
    name = _need(data, "game", str, "a game name")
    try:
        cls = get_game(name)
    except RulesError as err:
        raise SaveError(str(err)) from None
    options = _need(data, "options", dict, "an object")
    start = _start(data)
    players = _players(data, cls)
    n = len(players)
    moves = _moves(data)
    clock = _clock(data, version, n)
    result = None
    if data.get("result") is not None:
        try:
            result = outcome_from_json(data["result"], n)
        except ValueError as err:
            raise SaveError(f"'result': {err}") from None
    match = None
    if data.get("match") is not None:
        try:
            match = MatchState.from_json(data["match"], cls.match_rule, n)
        except ValueError as err:
            raise SaveError(str(err)) from None
    saved_at = _need(data, "saved_at", str, "a date and time")
    saved_time(saved_at)
    return SaveDoc(
        game=cls.name,
        options=options,
        start=start,
        players=players,
        moves=moves,
        clock=clock,
        result=result,
        match=match,
        saved_at=saved_at,
        version=version,
    )


# ----- replaying -------------------------------------------------------------


def _same(stored: Outcome | None, replayed: Outcome | None, version: int) -> bool:
    """Whether the stored result is the replay's (by kind from version 2 on; never by prose)."""
    if stored is None or replayed is None:
        return stored is replayed
    if (stored.winners, stored.points) != (replayed.winners, replayed.points):
        return False
    return version == 1 or (stored.kind, stored.loser) == (replayed.kind, replayed.loser)


def restore(doc: SaveDoc) -> Game:
    """Rebuild the game: its start, every move through `rules`, then a stored forfeit.

    SaveError if anything fails or the stored result is not the replay's. A
    version-1 doc (whose results name no way of ending) takes the replayed
    result and becomes a current one, so it saves again as it is.
    """
    try:
        cls = get_game(doc.game)
    except RulesError as err:
        raise SaveError(str(err)) from None
    try:
        game = cls.from_start(doc.options, doc.start)
    except (RulesError, TypeError, ValueError) as err:
        raise SaveError(f"bad start position: {err}") from None
    if game.history:  # a native start that already holds moves must be empty
        raise SaveError("bad start position: it already holds moves; list them under 'moves'")
    if json.loads(json.dumps(game.options)) != doc.options:
        raise SaveError(f"the options {excerpt(doc.options)} do not match the start position")
    if len(doc.players) != game.players:
        raise SaveError(f"the save lists {len(doc.players)} players for a game of "
                        f"{game.players}")
    try:
        game.replay(doc.moves)
    except RulesError as err:
        raise SaveError(f"cannot replay the moves: {err}") from None
    if doc.clock.moves and len(doc.clock.moves) != len(doc.moves):
        raise SaveError(f"'clock.moves' lists {len(doc.clock.moves)} move times for "
                        f"{len(doc.moves)} moves")
    stored = doc.result
    earlier = None  # a forfeit as the default rule scores it (see below)
    if stored is not None and stored.kind in FORFEITS and not game.is_over:
        assert stored.loser is not None  # outcome_from_json requires it for a forfeit
        earlier = Game.forfeit_outcome(game, stored.loser, stored.ending, stored.reason)
        try:
            game.forfeit(stored.loser, stored.kind, stored.reason, fault=stored.fault,
                         output=stored.output)
        except RulesError as err:
            raise SaveError(f"the stored result cannot be applied: {err}") from None
    replayed = game.outcome
    if (earlier is not None and replayed is not None and not _same(stored, replayed, doc.version)
            and _same(stored, earlier, doc.version)):
        # saved before its game scored forfeits by its own rule (by default the others win
        # with the board's points as they stood): it loads, scored as it was saved
        game.ended = replayed = replace(replayed, points=stored.points)
    if not _same(stored, replayed, doc.version):
        want = "none" if replayed is None else replayed.reason
        raise SaveError(
            f"the stored result does not match the moves (replayed: {want}); "
            "the file was hand-edited or corrupted"
        )
    if doc.version < VERSION:
        doc.result, doc.version = replayed, VERSION
    return game
