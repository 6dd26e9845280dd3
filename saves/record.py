"""Game records: a whole game as plain text, headers then moves, as PGN does for chess.

A record carries everything a save carries (`SaveDoc`), so a record read back and
saved gives the same save, and a save written as a record and read back gives the
same record. It is meant for people and other tools: one header a line,
`[Name VALUE]` with VALUE one JSON value (mostly a quoted text), then the moves in
the game's own notation, one numbered round a line (a move for each player):

    [Game "loaps"]
    [Record 1]
    [Date "2026-11-22T07:12:00Z"]
    [Options {}]
    [Start "1 1"]
    ...
    [Player "human"]
    [Player "ai:hard"]
    [Clock "game:60"]
    [ClockUsed [12.4, 20.0]]
    [Result "X wins"]
    [Ending "rule"]
    ...

    1. e1 c3 | a3 c5
    2. c1 e3 | a6 a3

Moves are separated by `|`; a move whose text could be misread (a `|`, a leading
`"`, spaces at its ends, a character that does not print) is a JSON string. Every
problem in a record is one line naming its line number.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rules import Clock, Game, MatchState, MoveError, PlayerSpec, RulesError, TimeControl, get_game
from rules.clock import MAX_SECONDS
from rules.outcome import FORFEITS, Outcome, outcome_from_json
from saves.format import VERSION, SaveDoc, SaveError, restore, saved_time
from saves.jsontext import MAX_CHARS, JsonError, excerpt, parse, scalar

RECORD_SUFFIX = ".arena.txt"  # plain text any viewer opens; `.arena` says whose it is
RECORD_VERSION = 1
FIRST_TAG = "Game"
UNFINISHED = "*"  # the Result of a game still in progress, as in PGN
SEPARATOR = "|"
_TAG = re.compile(r"\[([A-Za-z][A-Za-z0-9]*)[ \t]+(.*)\]")
_ROUND = re.compile(r"(\d+)\.(?:[ \t]+(.*))?")
# The result's parts, as tags, and the key of each in a save's result object.
RESULT_TAGS = {"Ending": "kind", "Label": "label", "Winners": "winners", "Points": "points",
               "Reason": "reason", "Loser": "loser", "Fault": "fault", "Output": "output"}
REPEATED = ("Start", "Player", "MoveTimes")  # rows of the start, seats, times in order
SINGLE = ("Game", "Record", "Date", "Options", "StartText", "Clock", "ClockUsed",
          "Result", *RESULT_TAGS, "Match")
KNOWN = ("Game", "Record", "Date", "Options", "Start", "StartText", "Player", "Clock",
         "ClockUsed", "MoveTimes", "Result", *RESULT_TAGS, "Match")  # as a record has them
WIDTH = 80  # the move times are cut into headers of about this width


# ----- writing -------------------------------------------------------------------------


def _value(value: Any) -> str:
    """One JSON value on one line that prints as it reads: a character that does not
    print (a line break of any kind, a bidi control) is an escape."""
    text = scalar(value)
    return "".join(ch if ch.isprintable() or ch == " " else json.dumps(ch)[1:-1]
                   for ch in text)


def _tag(name: str, value: Any) -> str:
    return f"[{name} {_value(value)}]"


def _player(spec: PlayerSpec) -> Any:
    """`ai:hard` where that text reads back as the same player, else the save's object."""
    try:
        if PlayerSpec.from_json(spec.text()) == spec:
            return spec.text()
    except RulesError:
        pass
    return spec.to_json()


def _control(control: TimeControl) -> Any:
    """`move:10`, `game:60` or `none` where that reads back the same, else the object."""
    try:
        if TimeControl.parse(control.key()) == control:
            return control.key()
    except ValueError:
        pass
    return control.to_json()


def _seat_names(doc: SaveDoc) -> list[str]:
    """How the game names each seat (its marks as a last resort, for a broken start)."""
    cls = get_game(doc.game)
    try:
        game = cls.from_start(doc.options, doc.start)
        return [game.seat_name(s) for s in range(len(doc.players))]
    except (RulesError, TypeError, ValueError):
        return [str(s + 1) for s in range(len(doc.players))]


def summary(outcome: Outcome | None, seats: list[str]) -> str:
    """`X wins`, `red and blue win`, `draw`; `*` while the game goes on."""
    if outcome is None:
        return UNFINISHED
    if not outcome.winners:
        return "draw"
    names = [seats[w] if w < len(seats) else str(w + 1) for w in outcome.winners]
    who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"{who} {'wins' if len(names) == 1 else 'win'}"


def _times(times: list[float]) -> list[str]:
    """The move times as [MoveTimes [...]] headers of about WIDTH characters, in order."""
    lines: list[str] = []
    chunk: list[float] = []
    for seconds in times:
        if chunk and len(_tag("MoveTimes", [*chunk, seconds])) > WIDTH:
            lines.append(_tag("MoveTimes", chunk))
            chunk = []
        chunk.append(seconds)
    return lines + ([_tag("MoveTimes", chunk)] if chunk else [])


def _move(text: str) -> str:
    plain = (text and text == text.strip() and SEPARATOR not in text
             and not text.startswith('"') and text.isprintable())
    return text if plain else _value(text)


def move_lines(moves: list[str], players: int) -> list[str]:
    """The moves as numbered rounds, one a line: `3. e1 c3 | a3 c5`."""
    n = max(1, players)
    return [f"{i // n + 1}. " + f" {SEPARATOR} ".join(_move(m) for m in moves[i:i + n])
            for i in range(0, len(moves), n)]


def dumps_record(doc: SaveDoc) -> str:
    """The document as a record's text (the current record version)."""
    lines = [_tag("Game", doc.game), _tag("Record", RECORD_VERSION), _tag("Date", doc.saved_at),
             _tag("Options", doc.options)]
    if doc.start.endswith("\n"):  # a board: one row a line, as it reads
        lines += [_tag("Start", row) for row in doc.start[:-1].split("\n")]
    else:
        lines.append(_tag("StartText", doc.start))
    lines += [_tag("Player", _player(p)) for p in doc.players]
    lines.append(_tag("Clock", _control(doc.clock.control)))
    lines.append(_tag("ClockUsed", [round(u, 3) for u in doc.clock.used]))
    lines += _times([round(m, 3) for m in doc.clock.moves])
    lines.append(_tag("Result", summary(doc.result, _seat_names(doc))))
    if doc.result is not None:
        data = doc.result.to_json()
        lines += [_tag(tag, data[key]) for tag, key in RESULT_TAGS.items() if key in data]
    if doc.match is not None:
        lines.append(_tag("Match", doc.match.to_json()))
    lines.append("")
    lines += move_lines(doc.moves, len(doc.players))
    return "\n".join(lines) + "\n"


# ----- reading -------------------------------------------------------------------------


def looks_like_record(text: str) -> bool:
    """Whether `text` is meant as a record: its first line is a `[Game ...]` header (no
    native position or save starts so)."""
    return text.lstrip().startswith(f"[{FIRST_TAG} ")


@dataclass
class _Parsed:
    """The record's headers (by name: each value and its line) and moves (with theirs)."""

    tags: dict[str, list[tuple[Any, int]]] = field(default_factory=dict)
    moves: list[tuple[str, int]] = field(default_factory=list)
    rounds: list[tuple[int, int, int]] = field(default_factory=list)  # (line, round, moves)
    last: int = 1  # the line of the last header

    def missing(self, name: str) -> SaveError:
        return SaveError(f"line {self.last}: the headers end without a [{name}] header")

    def one(self, name: str) -> tuple[Any, int] | None:
        found = self.tags.get(name)
        return found[0] if found else None

    def line(self, name: str) -> int:
        found = self.tags.get(name)
        return found[0][1] if found else 1


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """Numbered lines, split at newlines only (a record escapes every other break)."""
    for number, line in enumerate(text.split("\n"), 1):
        yield number, line[:-1] if line.endswith("\r") else line


def _split_moves(rest: str, number: int) -> list[str]:
    """The moves of a round's line: plain texts between `|`, or JSON strings."""
    moves: list[str] = []
    decoder = json.JSONDecoder()
    i, n = 0, len(rest)
    while True:
        while i < n and rest[i] in " \t":
            i += 1
        if i < n and rest[i] == '"':
            try:
                move, i = decoder.raw_decode(rest, i)
            except json.JSONDecodeError:
                raise SaveError(f"line {number}: a quoted move is not a valid JSON text: "
                                f"{excerpt(rest[i:])}") from None
            while i < n and rest[i] in " \t":
                i += 1
            if i < n and rest[i] != SEPARATOR:
                raise SaveError(f"line {number}: '{SEPARATOR}' must follow the quoted move "
                                f"{excerpt(move)}")
        else:
            end = rest.find(SEPARATOR, i)
            end = n if end < 0 else end
            move, i = rest[i:end].strip(), end
            if not move:
                raise SaveError(f"line {number}: an empty move (two '{SEPARATOR}' in a row, "
                                "or one at an end)")
        moves.append(move)
        if i >= n:
            return moves
        i += 1  # past the separator


def _header(parsed: _Parsed, number: int, line: str) -> None:
    match = _TAG.fullmatch(line.strip())
    if match is None:
        raise SaveError(f"line {number}: a header is [Name VALUE], not {excerpt(line)}")
    name, raw = match.group(1), match.group(2).strip()
    if name not in KNOWN:
        raise SaveError(f"line {number}: unknown header [{name}]; a record has "
                        f"{', '.join(KNOWN)}")
    if name in SINGLE and name in parsed.tags:
        raise SaveError(f"line {number}: a second [{name}] header (the first is on line "
                        f"{parsed.line(name)})")
    try:
        value = parse(raw)
    except JsonError:
        raise SaveError(f"line {number}: the value of [{name}] is not one JSON value "
                        f"(a text is in double quotes): {excerpt(raw)}") from None
    parsed.tags.setdefault(name, []).append((value, number))
    parsed.last = number


def _parse(text: str) -> _Parsed:
    if len(text) > MAX_CHARS:
        raise SaveError(f"the file is too large for a record ({len(text):,} characters)")
    parsed = _Parsed()
    in_moves = False
    for number, line in _lines(text):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("["):
            if in_moves:
                raise SaveError(f"line {number}: a header after the moves; the headers "
                                "come first")
            if not parsed.tags and not stripped.startswith(f"[{FIRST_TAG} "):
                raise SaveError(f"line {number}: a record starts with [{FIRST_TAG} \"NAME\"]")
            _header(parsed, number, stripped)
            continue
        if not parsed.tags:
            raise SaveError(f"line {number}: not an Arena record (it starts with "
                            f"[{FIRST_TAG} \"NAME\"])")
        in_moves = True
        match = _ROUND.fullmatch(stripped)
        if match is None or not match.group(2):
            raise SaveError(f"line {number}: a line of moves is 'N. MOVE {SEPARATOR} MOVE', "
                            f"not {excerpt(stripped)}")
        moves = _split_moves(match.group(2), number)
        parsed.rounds.append((number, int(match.group(1)), len(moves)))
        parsed.moves += [(m, number) for m in moves]
    if not parsed.tags:
        raise SaveError("the file is empty")
    return parsed


def _need(parsed: _Parsed, name: str, kinds: type | tuple[type, ...], what: str) -> Any:
    found = parsed.one(name)
    if found is None:
        raise parsed.missing(name)
    value, number = found
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise SaveError(f"line {number}: [{name}] must be {what}, not {excerpt(value)}")
    return value


def _check_rounds(parsed: _Parsed, players: int) -> None:
    last = len(parsed.rounds)
    for i, (number, given, count) in enumerate(parsed.rounds, 1):
        if given != i:
            raise SaveError(f"line {number}: round {given} where round {i} comes")
        if count > players or (count < players and i != last):
            raise SaveError(f"line {number}: round {i} has {count} move"
                            f"{'s' if count != 1 else ''}; a round has one a player "
                            f"({players}), only the last may have fewer")


def _start(parsed: _Parsed) -> str:
    rows, text = parsed.tags.get("Start", []), parsed.one("StartText")
    if rows and text is not None:
        raise SaveError(f"line {text[1]}: [StartText] and [Start] rows together; give one")
    if text is not None:
        return _need(parsed, "StartText", str, "text")
    if not rows:
        raise parsed.missing("Start")
    for value, number in rows:
        if not isinstance(value, str) or "\n" in value:
            raise SaveError(f"line {number}: [Start] is one row of the start, as text, "
                            f"not {excerpt(value)}")
    return "".join(value + "\n" for value, _ in rows)


def _players(parsed: _Parsed, low: int, high: int, title: str) -> list[PlayerSpec]:
    rows = parsed.tags.get("Player", [])
    seats = f"{low}" if low == high else f"{low} to {high}"
    if not low <= len(rows) <= high:
        line = rows[-1][1] if rows else parsed.last
        raise SaveError(f"line {line}: the record lists {len(rows)} [Player] header"
                        f"{'s' if len(rows) != 1 else ''}; {title} has {seats}, one a seat")
    players = []
    for value, number in rows:
        try:
            players.append(PlayerSpec.from_json(value))
        except RulesError as err:
            raise SaveError(f"line {number}: [Player]: {err}") from None
    return players


def _seconds(parsed: _Parsed, name: str, count: int | None) -> list[float]:
    """The times of every [name] header, in order (`count`: of one header, exactly)."""
    times: list[float] = []
    for value, number in parsed.tags.get(name, []):
        if not isinstance(value, list) or (count is not None and len(value) != count):
            want = ("a list of times in seconds" if count is None
                    else f"{count} times in seconds, one a player")
            raise SaveError(f"line {number}: [{name}] must list {want}")
        for item in value:
            if (isinstance(item, bool) or not isinstance(item, int | float)
                    or not 0 <= item <= MAX_SECONDS):
                raise SaveError(f"line {number}: [{name}] holds times from 0 to "
                                f"{MAX_SECONDS:,} seconds, not {excerpt(item)}")
        times += [float(v) for v in value]
    return times


def _clock(parsed: _Parsed, players: int) -> Clock:
    found = parsed.one("Clock")
    if found is None:
        raise parsed.missing("Clock")
    value, number = found
    try:
        control = (TimeControl.parse(value) if isinstance(value, str)
                   else TimeControl.from_json(value))
    except ValueError as err:
        raise SaveError(f"line {number}: [Clock]: {err}") from None
    if parsed.one("ClockUsed") is None:
        raise parsed.missing("ClockUsed")
    used = _seconds(parsed, "ClockUsed", players)
    moves = _seconds(parsed, "MoveTimes", None)
    if moves and len(moves) != len(parsed.moves):
        raise SaveError(f"line {parsed.line('MoveTimes')}: [MoveTimes] lists {len(moves)} "
                        f"times for {len(parsed.moves)} moves")
    return Clock(control, used, moves)


def _result(parsed: _Parsed, players: int) -> Outcome | None:
    said = _need(parsed, "Result", str, f"text (\"{UNFINISHED}\" while the game goes on)")
    parts = {tag: parsed.one(tag) for tag in RESULT_TAGS}
    given = [tag for tag, found in parts.items() if found is not None]
    number = parsed.line("Result")
    if said == UNFINISHED:
        if given:
            raise SaveError(f"line {parsed.line(given[0])}: [{given[0]}] belongs to a "
                            f"finished game, but [Result \"{UNFINISHED}\"] says it goes on")
        return None
    for tag in ("Ending", "Winners", "Points"):
        if parts[tag] is None:
            raise SaveError(f"line {number}: a finished game's record has [Ending], "
                            f"[Winners] and [Points]; [{tag}] is missing")
    data = {RESULT_TAGS[tag]: found[0] for tag, found in parts.items() if found is not None}
    try:
        return outcome_from_json(data, players)
    except ValueError as err:
        raise SaveError(f"line {number}: [Result]: {err}") from None


def loads_record(text: str) -> SaveDoc:
    """Parse and check a record (every header's type and range; the moves not replayed:
    `load_record` does that too). SaveError, one line naming the line, if it is bad."""
    parsed = _parse(text)
    name = _need(parsed, "Game", str, "a game name")
    try:
        cls = get_game(name)
    except RulesError as err:
        raise SaveError(f"line {parsed.line('Game')}: {err}") from None
    version = _need(parsed, "Record", int, "a whole number")
    if not 1 <= version <= RECORD_VERSION:
        raise SaveError(f"line {parsed.line('Record')}: record version {version}; this Arena "
                        f"reads version {RECORD_VERSION}"
                        + (" (the file comes from a newer Arena)" if version > 1 else ""))
    saved_at = _need(parsed, "Date", str, "a date and time")
    try:
        saved_time(saved_at)
    except SaveError as err:
        raise SaveError(f"line {parsed.line('Date')}: {err}".replace("'saved_at'", "[Date]")
                        ) from None
    options = _need(parsed, "Options", dict, "an object, e.g. {\"size\": 6}")
    start = _start(parsed)
    low, high = cls.player_count
    players = _players(parsed, low, high, cls.title)
    n = len(players)
    _check_rounds(parsed, n)
    clock = _clock(parsed, n)
    result = _result(parsed, n)
    match = None
    if parsed.one("Match") is not None:
        try:
            match = MatchState.from_json(parsed.one("Match")[0], cls.match_rule, n)
        except ValueError as err:
            raise SaveError(f"line {parsed.line('Match')}: [Match]: {err}") from None
    return SaveDoc(game=cls.name, options=options, start=start, players=players,
                   moves=[m for m, _ in parsed.moves], clock=clock, result=result,
                   match=match, saved_at=saved_at, version=VERSION)


def load_record(text: str) -> tuple[SaveDoc, Game]:
    """A record read, checked and replayed; SaveError naming the line of the first problem
    (the start, the options, a move that is not legal there, the result)."""
    parsed = _parse(text)
    doc = loads_record(text)
    cls = get_game(doc.game)
    try:
        game = cls.from_start(doc.options, doc.start)
    except (RulesError, TypeError, ValueError) as err:
        line = parsed.line("StartText" if "StartText" in parsed.tags else "Start")
        raise SaveError(f"line {line}: bad start position: {err}") from None
    if game.history:  # a native start that already holds moves
        line = parsed.line("StartText" if "StartText" in parsed.tags else "Start")
        raise SaveError(f"line {line}: bad start position: it already holds moves; list "
                        "them as moves")
    if json.loads(json.dumps(game.options)) != doc.options:
        raise SaveError(f"line {parsed.line('Options')}: the options {excerpt(doc.options)} "
                        "do not match the start position")
    for i, (move, number) in enumerate(parsed.moves, 1):
        try:
            game.play_text(move)
        except MoveError as err:
            raise SaveError(f"line {number}: move {i} ({move!r}): {err}") from None
    try:
        return doc, restore(doc)
    except SaveError as err:
        stored = doc.result
        where = parsed.line("Result" if stored is None or stored.kind not in FORFEITS
                            else "Ending")
        raise SaveError(f"line {where}: {err}") from None
