"""`arena move GAME`: the game's contest program, speaking its codec's protocol.

Three protocols (`rules.codecs.Protocol`), one function each, chosen through `PROTOCOLS`;
the game's codec (`rules.codecs`) reads the position and writes the reply:

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

from rules import Clock, ClockKind, Codec, Game, Protocol, RulesError
from rules.clock import LEAST_SECONDS

# What a per-move contest process may spend, start-up included, of the game's limit (the
# jury's own measure adds the process's creation and the pipes), and what it keeps back:
# a fixed reserve for printing the reply and exiting, and a share of its time for a
# deadline that a busy machine wakes late.
TIME_SHARE = 0.9
EXIT_RESERVE = 0.03
LATE_SHARE = 0.04
MIN_SEARCH = 0.005
# Under a game clock each move to come also pays a process start-up: what is left is
# shared after keeping this much for each. A start-up varies from process to process on a
# busy machine (0.12-0.33 s to the plan with two CPU hogs on two cores, 0.07-0.13 s idle),
# so the share kept is a busy machine's, or half as much again as this process's own.
START_UP = 0.25
START_UP_SPREAD = 1.5
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
    """One run of the contest program: the game's codec, its arguments, the streams, the
    timing."""

    codec: Codec[Any]  # the game's (`rules.codec_of`), or a test's
    args: Sequence[str]
    level: str
    time_limit: float | None  # `--time`: wall-clock seconds for a move, overriding the clock
    # the engine for a search of the given seconds (None: no limit), asked for once the
    # input is known good: the native kernels, the JIT's, or a search that needs neither
    engine: Callable[[float | None], Chooser]
    stdin: IO[str] | None
    stdout: IO[str]
    age: Callable[[], float] = field(default=process_age)  # seconds since the process began
    now: Callable[[], float] = field(default=time.perf_counter)

    @property
    def game_class(self) -> type[Game]:
        return self.codec.game_class

    @property
    def title(self) -> str:
        return self.game_class.title


def run(contest: Contest) -> None:
    """Play the contest program's part in the protocol its game's codec declares."""
    PROTOCOLS[contest.codec.protocol](contest)


# ----- time ------------------------------------------------------------------------


def process_seconds(contest: Contest, position: Game, start_up: float = 0.0
                    ) -> float | None:
    """Wall-clock seconds this one-move process may take, start-up included (None: the
    game has no contest limit, so the level's own budget applies). Under a game clock,
    every move still to come is a process whose start-up (START_UP, or START_UP_SPREAD
    times this one's `start_up` if more) is kept back before the rest is shared: every
    move the rules still allow where they bound them, since a game that runs long must
    still afford its last moves' start-ups once its planned share is spent. This process
    gets its share and its own start-up (`start_up`, so far) and exit."""
    if contest.time_limit is not None:
        return contest.time_limit
    control = contest.game_class.clock
    if control.kind is ClockKind.MOVE:
        return control.seconds * TIME_SHARE
    if control.kind is ClockKind.GAME:
        player = position.to_move
        left = contest.codec.start_seconds_left(position)
        have = control.seconds if left is None else left[player]
        moves = max(1, position.moves_left_estimate(player))
        kept = max(moves, position.moves_left_most(player) or 0)
        later = max(START_UP_SPREAD * start_up, START_UP) + EXIT_RESERVE
        clock = Clock.start(control, position.players)
        # each process kept for takes its start-up and at least the clock's least share
        clock.charge(player, control.seconds
                     - max(0.0, have - kept * (later + LEAST_SECONDS)))
        return clock.ai_seconds(player, math.inf, moves) + start_up + EXIT_RESERVE
    return None


def search_seconds(total: float | None, age: float) -> float | None:
    """What the search may take of a process's `total` wall time, `age` seconds in:
    all but the exit reserve and the share kept for a late deadline."""
    if total is None:
        return None
    return max(MIN_SEARCH, total - EXIT_RESERVE - LATE_SHARE * total - age)


def _search(contest: Contest, position: Game) -> Any:
    """Choose the move for a one-move process: what is left of its time after start-up."""
    outcome = position.outcome
    if outcome is not None:
        raise ContestError(f"the game is over ({outcome.reason}): no move to make")
    total = process_seconds(contest, position, contest.age())
    engine = contest.engine(search_seconds(total, contest.age()))
    return engine.choose(position, contest.level, search_seconds(total, contest.age())).move


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


def check_args(contest: Contest, args: Sequence[str]) -> None:
    """The program's arguments (besides a position file's path), checked before any input
    is read: a missing or extra argument is named as such, not blamed on the position."""
    try:
        contest.codec.check_args(args)
    except RulesError as err:
        raise ContestError(f"arena move {contest.game_class.name}: {err}") from None


def play_stdin(contest: Contest) -> None:
    codec = contest.codec
    check_args(contest, contest.args)
    text = read_all(contest.stdin)
    try:
        position = codec.position(text, contest.args)
    except RulesError as err:
        raise ContestError(f"bad {contest.title} position on stdin: {err}") from None
    idle = codec.idle_reply(position) if position.is_over else None
    if idle is not None:  # nothing to move, and the codec says what to print then
        _write(contest, idle)
        return
    move = _search(contest, position)
    _write(contest, codec.reply(position, move))


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
    codec = contest.codec
    name = contest.game_class.name
    if contest.args:
        path, *rest = contest.args
        check_args(contest, rest)
        if not path:
            raise ContestError(f"arena move {name}: the position file's path is empty")
        text, where = read_position_file(Path(path)), str(path)
    else:
        text, rest, where = read_all(contest.stdin), [], "on stdin"
        if not text:
            raise ContestError(f"arena move {name}: give the position file's path after the "
                               "game name (or the file on stdin)")
    try:
        position = codec.position(text, rest)
    except RulesError as err:
        where = where if where == "on stdin" else f"in {where}"
        raise ContestError(f"bad {contest.title} position {where}: {err}") from None
    move = _search(contest, position)
    _write(contest, codec.reply(position, move))


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
    codec, title = contest.codec, contest.title
    check_args(contest, contest.args)
    lines: list[str] = []
    while len(lines) < codec.header_lines:
        line = _read_line(contest)
        if line is None:
            raise ContestError(f"the input ended after {len(lines)} of the "
                               f"{codec.header_lines} lines that set up the game")
        lines.append(line)
        try:  # a wrong line is named as it comes, not when the input ends
            codec.check_header(lines)
        except RulesError as err:
            raise ContestError(f"bad {title} game set-up: {err}") from None
    try:
        return codec.from_header(lines)
    except RulesError as err:
        raise ContestError(f"bad {title} game set-up: {err}") from None


def play_session(contest: Contest) -> None:
    """Read the set-up, then answer `Start` or each opponent move with ours until `Quit`.

    Our clock is charged from the moment a line reaches us to the moment our
    reply is out; the first reply is also charged the process's start-up.
    """
    game = _session_game(contest)
    clock = Clock.start(contest.game_class.clock, game.players)
    start_up = contest.age()
    engine: Chooser | None = None
    made = 0  # our moves so far
    begun = False  # whether Start or a move has come
    number = contest.codec.header_lines
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
        player = game.to_move
        extra = start_up if made == 0 else 0.0
        seconds = _session_seconds(contest, clock, game, player, contest.now() - began + extra)
        if engine is None or isinstance(engine, QuickChooser):  # the native build may be done
            engine = contest.engine(seconds)
            seconds = _session_seconds(contest, clock, game, player,
                                       contest.now() - began + extra)
        move = engine.choose(game, contest.level, seconds).move
        reply = game.move_text(move)  # the text of the move from this position
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
    return clock.ai_seconds(player, math.inf, game.moves_left_estimate(player), elapsed,
                            game.moves_left_most(player))


# ----- which engine: native kernels, the JIT's, or a search that needs no compiling --------
@dataclass
class QuickResult:
    move: Any


class QuickChooser:
    """The search of `ai.quick`: pure Python over the rules, for a process that has no
    compiled kernels to load (a cold cache) and cannot wait for a compile."""

    def choose(self, game: Game, level: str, seconds: float | None = None) -> QuickResult:
        from ai import quick

        if os.environ.get(TRACE):
            _say_start_up("no (quick search)")
        return QuickResult(quick.choose(game, QUICK_SECONDS if seconds is None else seconds))


QUICK_SECONDS = 5.0  # the quick search's time when the clock sets none


class Fallback:
    """The native engine, and the quick search if a kernel it needs is not native (a
    signature the build did not see): a move never waits for the JIT."""

    def __init__(self, engine: Chooser) -> None:
        self.engine = engine

    def choose(self, game: Game, level: str, seconds: float | None = None) -> Any:
        from ai.jit import JitError

        began = time.perf_counter()
        try:
            return self.engine.choose(game, level, seconds)
        except JitError:
            left = None if seconds is None else max(MIN_SEARCH,
                                                    seconds - (time.perf_counter() - began))
            return QuickChooser().choose(game, level, left)


def contest_engine(game_name: str, seconds: float | None,
                   jit: Callable[[], Chooser] | None = None) -> Chooser:
    """The engine a contest move uses: the native kernels when they are built (they load in
    a millisecond); else, while a detached process builds them, the quick search, or the
    JIT when native modules are off (ARENA_NATIVE=0) or cannot be built here and the JIT's
    cache is warm. A compile never happens inside a move, but with native modules off:
    then the JIT is the engine, compiling if it must, as before native modules.

    Its tables' pages are faulted in as the search reaches them, not all at start-up:
    that took 10-150 ms of the first move's clock (72 MiB for the largest tables, the
    most after an idle spell), and a short search touches few of them."""
    if seconds is not None and seconds < kernel_load_seconds() + MIN_KERNEL_SEARCH:
        return QuickChooser()  # numpy and the kernels would take the whole move to load
    from ai import adapter, native

    adapter.TOUCH_TABLES[0] = False
    if native.native_allowed() and native.ready(game_name):
        from ai import jit

        jit.forbid("a contest move on native kernels does not wait for a compile")
        return Fallback(_engine(game_name))
    jit_engine = jit or (lambda: _engine(game_name))
    if not native.native_allowed():
        return jit_engine()
    native.build_in_background(game_name)
    if native.failed(game_name) is None:
        return QuickChooser()
    from ai import numba_cache

    return jit_engine() if numba_cache.is_compiled(game_name) else QuickChooser()


# CPU seconds to import numpy and load a game's native kernels on an idle machine (0.08-0.12
# measured with the bytecode cached), and the least search worth loading them for: a
# shorter move is the quick search's.
KERNEL_LOAD_CPU = 0.12
MIN_KERNEL_SEARCH = 0.02


def kernel_load_seconds() -> float:
    """The wall seconds loading the kernels would take here and now: their CPU cost,
    slowed as much as this process has been so far (its age over the CPU it has had;
    on a busy machine that is the share of a core it gets). Nothing once numpy is in."""
    import sys

    if "numpy" in sys.modules:
        return 0.0
    cpu = sum(os.times()[:2])
    slowdown = process_age() / cpu if cpu > 0 else 1.0
    return KERNEL_LOAD_CPU * min(10.0, max(1.0, slowdown))


def _engine(game_name: str) -> Chooser:
    from ai import engine, native

    if os.environ.get(TRACE):
        kind = "native" if native.ready(game_name) else "jit"
        engine.FIRST_SEARCH.append(lambda: _say_start_up(kind))
    return engine.get_engine(game_name)


TRACE = "ARENA_TRACE_STARTUP"  # set: say on stderr when the first search began


def _say_start_up(kind: str) -> None:
    """The monotonic clock (shared by every process: the benchmark subtracts the time it
    started the process) and the process's age, as the first search begins."""
    import sys

    sys.stderr.write(f"arena: first search at monotonic {time.monotonic():.6f}, "
                     f"age {process_age():.3f} s, {kind} kernels\n")
    sys.stderr.flush()


PROTOCOLS: dict[Protocol, Callable[[Contest], None]] = {
    Protocol.STDIN: play_stdin,
    Protocol.FILE: play_file,
    Protocol.SESSION: play_session,
}
