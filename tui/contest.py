"""`arena move GAME`: the game's contest program, speaking the protocol the game declares.

Three protocols (`rules.base.Protocol`), one function each, chosen through `PROTOCOLS`:

- STDIN: one process per move; the position on stdin, the reply on stdout.
- FILE: one process per move; the position file's path is the first argument.
- SESSION: one process for the whole game; lines both ways with the jury.

The time for a move comes from the game's contest clock, and for the per-move
protocols the process's start-up counts against it (the jury times the process).
This module imports neither Textual nor Numba: the engine arrives through a
factory, called only once the input has been checked.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from typing import Protocol as Interface

from rules import Clock, ClockKind, Game, Protocol, RulesError

# What a per-move contest process may spend, start-up included, as a share of the
# game's limit (10 s -> 8 s), and what is kept back for printing and interpreter shutdown.
TIME_SHARE = 0.8
EXIT_MARGIN = 0.25
MIN_SEARCH = 0.05
MAX_FILE_BYTES = 1 << 20  # a position is a few hundred bytes (a long game's moves, less
# than 1 MB): refuse anything larger without reading it all
MAX_LINE = 64 * 1024  # a line of the whole-game protocol is a move or a header line
EXCERPT = 40  # characters of bad input quoted in an error
START, QUIT = "Start", "Quit"  # the whole-game jury's control lines


class ContestError(RulesError):
    """Bad input to the contest program; one line."""


class Chooser(Interface):
    """What the contest needs of an engine (ai.engine.Engine is one)."""

    def choose(self, game: Game, level: str, seconds: float | None = None) -> Any: ...


_IMPORTED = time.perf_counter()


def process_age() -> float:
    """Seconds since this process started (interpreter start-up included), Linux /proc."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            # Field 22 (starttime, clock ticks since boot) follows the ")" ending the name.
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - _IMPORTED


@dataclass
class Contest:
    """One run of the contest program: the game, its arguments, the streams, the timing."""

    game_class: type[Game]
    args: Sequence[str]
    level: str
    time_limit: float | None  # `--time`: wall-clock seconds for a move, overriding the clock
    engine: Callable[[], Chooser]  # loads the engine (Numba) once the input is known good
    stdin: IO[str] | None
    stdout: IO[str]
    age: Callable[[], float] = field(default=process_age)  # seconds since the process began
    now: Callable[[], float] = field(default=time.perf_counter)

    @property
    def title(self) -> str:
        return self.game_class.title


def run(contest: Contest) -> None:
    """Play the contest program's part in the protocol its game declares."""
    PROTOCOLS[contest.game_class.protocol](contest)


# ----- time ------------------------------------------------------------------------


def process_seconds(contest: Contest, position: Game) -> float | None:
    """Wall-clock seconds this one-move process may take, start-up included (None: the
    game has no contest limit, so the level's own budget applies)."""
    if contest.time_limit is not None:
        return contest.time_limit
    control = contest.game_class.clock
    if control.kind is ClockKind.MOVE:
        return control.seconds * TIME_SHARE
    if control.kind is ClockKind.GAME:
        player = position.to_move
        clock = Clock.start(control, position.players)
        left = position.start_seconds_left()
        if left is not None:  # the position says what the mover has left
            clock.charge(player, control.seconds - left[player])
        return clock.ai_seconds(player, math.inf, position.moves_left_estimate(player))
    return None


def _search(contest: Contest, position: Game) -> Any:
    """Choose the move for a one-move process: what is left of its time after start-up."""
    outcome = position.outcome
    if outcome is not None:
        raise ContestError(f"the game is over ({outcome.reason}): no move to make")
    total = process_seconds(contest, position)
    engine = contest.engine()
    seconds = None if total is None else max(MIN_SEARCH, total - contest.age() - EXIT_MARGIN)
    return engine.choose(position, contest.level, seconds).move


def _write(contest: Contest, text: str) -> None:
    try:
        contest.stdout.write(text)
        contest.stdout.flush()
    except OSError as err:  # e.g. the reader of a pipeline went away
        raise ContestError(f"cannot write the reply: {err.strerror or err}") from None


# ----- STDIN: the position on stdin --------------------------------------------------


def excerpt(text: str) -> str:
    """A short printable quote of bad input (a 10 MB line is not echoed back)."""
    return repr(text) if len(text) <= EXCERPT else repr(text[:EXCERPT]) + "..."


def read_all(stream: IO[str] | None) -> str:
    """All of stdin as text, at most MAX_FILE_BYTES (bytes are decoded here so a bad
    byte is one clear line; an endless stream is refused, not read to the end)."""
    if stream is None:  # started with stdin closed
        raise ContestError("no input: give the position on stdin")
    buffer = getattr(stream, "buffer", None)
    try:
        data = (buffer or stream).read(MAX_FILE_BYTES + 1)
    except UnicodeDecodeError:
        raise ContestError("the position on stdin is not text") from None
    if len(data) > MAX_FILE_BYTES:
        raise ContestError(f"the input on stdin is too large for a position "
                           f"(over {MAX_FILE_BYTES:,} bytes)")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ContestError("the position on stdin is not text") from None


def play_stdin(contest: Contest) -> None:
    cls = contest.game_class
    text = read_all(contest.stdin)
    try:
        position = cls.contest_position(text, contest.args)
    except RulesError as err:
        raise ContestError(f"bad {cls.title} position on stdin: {err}") from None
    idle = position.contest_idle_reply() if position.is_over else None
    if idle is not None:  # nothing to move, and the game says what to print then
        _write(contest, idle)
        return
    move = _search(contest, position)
    _write(contest, position.contest_reply(move))


# ----- FILE: the position file's path as the first argument ---------------------------


def read_position_file(path: Path) -> str:
    """The file's text; one line naming the file on any problem."""
    from saves.store import SaveError, read_text

    try:
        return read_text(path, MAX_FILE_BYTES)
    except SaveError as err:
        raise ContestError(str(err)) from None


def play_file(contest: Contest) -> None:
    """The position file named by the first argument; without one, the same text on stdin."""
    cls = contest.game_class
    if contest.args:
        path, *rest = contest.args
        text, where = read_position_file(Path(path)), str(path)
    else:
        text, rest, where = read_all(contest.stdin), [], "on stdin"
    try:
        position = cls.contest_position(text, rest)
    except RulesError as err:
        where = where if where == "on stdin" else f"in {where}"
        raise ContestError(f"bad {cls.title} position {where}: {err}") from None
    move = _search(contest, position)
    _write(contest, position.contest_reply(move))


# ----- SESSION: one process for the whole game ------------------------------------------


def _read_line(contest: Contest) -> str | None:
    """The next line without its end, or None at the end of the input."""
    if contest.stdin is None:
        return None
    try:
        line = contest.stdin.readline(MAX_LINE + 1)
    except UnicodeDecodeError:
        raise ContestError("the jury's input is not text") from None
    if len(line) > MAX_LINE:
        raise ContestError(f"a line of input is too long (over {MAX_LINE:,} characters): "
                           f"{excerpt(line)}")
    return line.rstrip("\r\n") if line else None


def _session_game(contest: Contest) -> Game:
    cls = contest.game_class
    if contest.args:
        raise ContestError(f"{cls.title} takes no argument here, not {excerpt(contest.args[0])}")
    lines: list[str] = []
    while len(lines) < cls.session_header_lines:
        line = _read_line(contest)
        if line is None:
            raise ContestError(f"the input ended after {len(lines)} of the "
                               f"{cls.session_header_lines} lines that set up the game")
        lines.append(line)
    try:
        return cls.from_session_header(lines)
    except RulesError as err:
        raise ContestError(f"bad {cls.title} game set-up: {err}") from None


def play_session(contest: Contest) -> None:
    """Read the set-up, then answer `Start` or each opponent move with ours until `Quit`.

    Our clock is charged from the moment a line reaches us to the moment our
    reply is out; the first reply is also charged the process's start-up.
    """
    cls = contest.game_class
    game = _session_game(contest)
    clock = Clock.start(cls.clock, game.players)
    start_up = contest.age()
    engine: Chooser | None = None
    made = 0  # our moves so far
    begun = False  # whether Start or a move has come
    number = cls.session_header_lines
    while (line := _read_line(contest)) is not None:
        began = contest.now()
        number += 1
        text = line.strip()
        if not text:
            continue
        if text == QUIT:
            return
        if text == START:
            if begun:
                raise ContestError(f"line {number}: 'Start' after the game has begun")
        else:
            try:
                game.play_text(text)
            except RulesError as err:
                raise ContestError(f"line {number}: bad move {excerpt(text)}: {err}") from None
        begun = True
        if game.is_over:
            continue
        if engine is None:
            engine = contest.engine()
        player = game.to_move
        extra = start_up if made == 0 else 0.0
        seconds = _session_seconds(contest, clock, game, player, contest.now() - began + extra)
        move = engine.choose(game, contest.level, seconds).move
        reply = game.session_move_text(move)  # the text of the move from this position
        game.play(move)
        _write(contest, reply + "\n")
        clock.charge(player, contest.now() - began + extra)
        made += 1


def _session_seconds(contest: Contest, clock: Clock, game: Game, player: int,
                     elapsed: float) -> float | None:
    """The engine's time for this reply: `--time` less what the move has used, or the
    clock's share (None without a limit: the level's own budget)."""
    if contest.time_limit is not None:
        return max(MIN_SEARCH, contest.time_limit - elapsed)
    if not clock.control.limited:
        return None
    return clock.ai_seconds(player, math.inf, game.moves_left_estimate(player), elapsed)


PROTOCOLS: dict[Protocol, Callable[[Contest], None]] = {
    Protocol.STDIN: play_stdin,
    Protocol.FILE: play_file,
    Protocol.SESSION: play_session,
}
