"""The contest protocols of `arena move`, run in-process on test-only codecs.

Pah-Tum and Pousse both take their position on stdin; the codecs below
declare the other protocols on the same rules, so that the file and the
whole-game protocols are tested apart from the games that need them. The
engine is a fake that records the time it is given and plays scripted moves;
a fake time source makes the clock arithmetic exact.
"""

from __future__ import annotations

import io
import os
import random
import select
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from rules import ClockKind, Codec, Game, Protocol, RulesError, TimeControl, codec_of
from rules.clock import LEAST_SECONDS
from rules.codecs import LineCodec, PositionCodec
from rules.pahtum import SAMPLE_BOARD, PahTum
from rules.pousse import Pousse
from tui.play import contest
from tui.play.contest import (
    EXIT_RESERVE,
    LATE_SHARE,
    MIN_SEARCH,
    PROTOCOLS,
    START_UP,
    START_UP_SPREAD,
    TIME_SHARE,
    Contest,
    ContestError,
)

ROOT = Path(__file__).resolve().parents[2]
AGE = 0.5  # the fake process's age when it asks: its start-up


def searched(total: float, age: float = AGE) -> float:
    """A search's seconds of a process's `total`: less the exit reserve, the late
    deadline's share and the start-up so far."""
    return max(MIN_SEARCH, total - EXIT_RESERVE - LATE_SHARE * total - age)


def shared(left: float, moves: int, age: float = AGE, kept: int | None = None) -> float:
    """A one-move process's search under a game clock with `left` seconds over `moves`
    moves: each move to come (`kept`, if the rules allow more than `moves`) keeps a busy
    machine's start-up, exit and the clock's least share back, the rest is shared with
    the clock's safety share and margin; this process adds its own start-up and exit."""
    later = max(START_UP_SPREAD * age, START_UP) + EXIT_RESERVE
    spare = max(0.0, left - (moves if kept is None else kept) * (later + LEAST_SECONDS))
    return searched(max(LEAST_SECONDS, spare / moves * 0.8 - 0.05) + age + EXIT_RESERVE, age)


class FilePositions(PositionCodec[Game]):
    protocol = Protocol.FILE


class FileLines(LineCodec[Game]):
    protocol = Protocol.FILE


FilePahTum = FilePositions(PahTum)
FilePousse = FileLines(Pousse)


class ClockedPahTum(PahTum):
    clock = TimeControl(ClockKind.GAME, 60.0)


class ClockedFile(FilePositions):
    """A position that says what the mover has left (as LOAPS's does)."""

    seconds_left: ClassVar[float | None] = 30.0

    def start_seconds_left(self, game: Game) -> tuple[float, ...] | None:
        left = self.seconds_left
        return None if left is None else (left, left)


ClockedFilePahTum = ClockedFile(ClockedPahTum)  # a game clock; the position says what is left


class ClockedPousse(Pousse):
    clock = TimeControl(ClockKind.GAME, 60.0)


ClockedFilePousse = FileLines(ClockedPousse)  # a game clock; the position does not say


class Sessions(LineCodec[Game]):
    """The whole game over stdin/stdout; the jury's one header line is Pousse's size."""

    protocol = Protocol.SESSION
    header_lines = 1


class TimedPousse(Pousse):
    clock = TimeControl(ClockKind.GAME, 10.0)


class UntimedPousse(Pousse):
    clock = TimeControl.none()


SessionPousse = Sessions(TimedPousse)
UntimedSessionPousse = Sessions(UntimedPousse)


class BoardSessions(Sessions):
    """The whole game over stdin/stdout; the header is Pah-Tum's 7 board lines."""

    header_lines = 7


SessionPahTum = BoardSessions(PahTum)  # the contest's 10 s a move


@dataclass
class FakeTime:
    t: float = 100.0

    def __call__(self) -> float:
        return self.t


@dataclass
class FakeEngine:
    """Plays `script` (move texts) in order, else the first legal move; each search
    takes `think` seconds of the fake time."""

    time: FakeTime
    script: list[str] = field(default_factory=list)
    think: float = 0.0
    calls: list[tuple[str, str, float | None]] = field(default_factory=list)

    def choose(self, game: Game, level: str, seconds: float | None = None) -> Any:
        self.calls.append((game.to_native(), level, seconds))
        self.time.t += self.think
        move = game.parse_move(self.script.pop(0)) if self.script else game.legal_moves()[0]
        return SimpleNamespace(move=move)

    @property
    def seconds(self) -> list[float | None]:
        return [seconds for _, _, seconds in self.calls]


class TimedLines(io.StringIO):
    """The jury's side: each line arrives after the opponent has thought `wait` seconds."""

    def __init__(self, text: str, time: FakeTime, wait: float) -> None:
        super().__init__(text)
        self.time, self.wait = time, wait

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.time.t += self.wait
        return super().readline(size)


@dataclass
class Run:
    engine: FakeEngine
    out: io.StringIO
    loads: list[int]  # one entry per time the engine was loaded


def play(cls: type[Game] | Codec[Any], stdin: str | io.StringIO, args: Sequence[str] = (), *,
         level: str = "max", time_limit: float | None = None, script: Sequence[str] = (),
         think: float = 0.0, now: FakeTime | None = None,
         loads: list[int] | None = None) -> Run:
    """Run the contest program for `cls` (a game, or a test's codec) through the protocol
    table, as `arena move` does."""
    clock = now or FakeTime()
    engine = FakeEngine(clock, list(script), think)
    out = io.StringIO()
    loads = [] if loads is None else loads

    def load(seconds: float | None = None) -> FakeEngine:
        loads.append(1)
        return engine

    contest.run(Contest(
        codec=cls if isinstance(cls, Codec) else codec_of(cls), args=list(args), level=level,
        time_limit=time_limit, engine=load,
        stdin=io.StringIO(stdin) if isinstance(stdin, str) else stdin, stdout=out,
        age=lambda: AGE, now=clock,
    ))
    return Run(engine, out, loads)


def refused(cls: type[Game] | Codec[Any], stdin: str, args: Sequence[str] = (), *,
            searched: bool = False, **kwargs: Any) -> str:
    """The one-line error the run ends with; unless `searched`, the engine (Numba) was
    never loaded: bad input is refused before the expensive part."""
    loads: list[int] = []
    with pytest.raises(ContestError) as caught:
        play(cls, stdin, args, loads=loads, **kwargs)
    message = str(caught.value)
    assert "\n" not in message
    assert loads == ([1] if searched else [])
    return message


def test_every_protocol_has_a_driver() -> None:
    assert set(PROTOCOLS) == set(Protocol)
    assert issubclass(ContestError, RulesError)  # the CLI turns it into `arena: error:`


# ----- STDIN ----------------------------------------------------------------------------


def test_stdin_prints_the_position_after_the_move() -> None:
    run = play(PahTum, SAMPLE_BOARD, script=["B2"], level="hard")
    game = PahTum.from_native(SAMPLE_BOARD)
    game.play_text("B2")
    assert run.out.getvalue() == game.to_native()
    # the contest's 10 s a move, its share, less the start-up and the exit margin
    assert run.engine.calls == [(SAMPLE_BOARD, "hard", pytest.approx(searched(10.0 * TIME_SHARE)))]


def test_stdin_pousse_prints_the_move_alone() -> None:
    run = play(Pousse, "5\nL1\n", script=["T3"])
    assert run.out.getvalue() == "T3\n"
    assert run.engine.seconds == [pytest.approx(searched(30.0 * TIME_SHARE))]


def test_time_overrides_the_clock_and_a_search_gets_a_minimum() -> None:
    assert play(Pousse, "5\n", time_limit=2.0).engine.seconds == [pytest.approx(searched(2.0))]
    assert play(Pousse, "5\n", time_limit=0.1).engine.seconds == [MIN_SEARCH]


@pytest.mark.parametrize(
    ("cls", "stdin", "args", "words"),
    [
        (PahTum, "", (), "bad Pah-Tum position on stdin: empty input"),
        (Pousse, "3\n", (), "bad Pousse position on stdin: "),
        (Pousse, "5\n", ("A",), "arena move pousse: 'A' is one argument too many for the Pousse "
                                  "program"),
        (PahTum, "+XOXOXO\n" + "XOXOXOX\nOXOXOXO\n" * 3, (), "the game is over (board full"),
    ],
)
def test_stdin_refusals(cls: type[Game], stdin: str, args: tuple[str, ...], words: str) -> None:
    assert words in refused(cls, stdin, args)


def test_stdin_refuses_bytes_that_are_not_text_and_a_closed_stdin() -> None:
    class Binary(io.StringIO):
        buffer = io.BytesIO(b"\xff\xfe\n")

    with pytest.raises(ContestError, match="not text"):
        play(PahTum, Binary())
    with pytest.raises(ContestError, match="no input"):
        contest.run(Contest(codec_of(PahTum), [], "max", None,
                            lambda seconds: FakeEngine(FakeTime()), None, io.StringIO()))


# ----- FILE -----------------------------------------------------------------------------


def test_file_reads_the_path_argument(tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text(SAMPLE_BOARD)
    run = play(FilePahTum, "ignored stdin", [str(board)], script=["G7"])
    game = PahTum.from_native(SAMPLE_BOARD)
    game.play_text("G7")
    assert run.out.getvalue() == game.to_native()
    assert run.engine.seconds == [pytest.approx(searched(10.0 * TIME_SHARE))]
    assert board.read_text() == SAMPLE_BOARD  # the file is the jury's: left as it was

    moves = tmp_path / "moves"
    moves.write_text("6\nL1\nR2\n")
    assert play(FilePousse, "", [str(moves)], script=["B6"]).out.getvalue() == "B6\n"


def test_file_game_clock_uses_what_the_position_says_is_left(tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text(SAMPLE_BOARD)
    # 30 s left of 60, shared over the game's 24 estimated moves, kept back by the
    # clock's safety share, less start-up and the exit margin
    run = play(ClockedFilePahTum, "", [str(board)])
    assert run.engine.seconds == [pytest.approx(shared(30, 24))]
    ClockedFile.seconds_left = None  # the position does not say: the whole clock
    try:
        run = play(ClockedFilePahTum, "", [str(board)])
    finally:
        ClockedFile.seconds_left = 30.0
    assert run.engine.seconds == [pytest.approx(shared(60, 24))]

    # 10 moves each made: 40 - 10 left; 30 each: never below half of 40
    moves = tmp_path / "moves"
    for plies, share in ((20, 30), (60, 20)):
        moves.write_text(long_pousse(plies).to_native())
        run = play(ClockedFilePousse, "", [str(moves)])
        assert run.engine.seconds == [pytest.approx(shared(60, share))]


def long_pousse(plies: int) -> Game:
    """A 20x20 Pousse game `plies` moves long that has not ended (seeded random moves)."""
    rng = random.Random(plies)
    game = Pousse.new({"size": 20})
    while len(game.history) < plies:
        game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            game.undo()
    return game


def test_file_protocol_reads_stdin_without_a_path() -> None:
    run = play(FilePahTum, SAMPLE_BOARD, script=["A1"])
    assert run.out.getvalue().startswith("X")  # the new position, as from a file
    assert refused(FilePahTum, SAMPLE_BOARD.replace("-", "Q", 1)).startswith(
        "bad Pah-Tum position on stdin: ")
    assert "no input" in refused(FilePahTum, None)  # type: ignore[arg-type]


def test_file_refusals(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.txt"
    assert refused(FilePahTum, "", [str(missing)]) == f"{missing}: no such file"
    assert refused(FilePahTum, "", [str(tmp_path)]) == f"{tmp_path}: is a folder, not a file"
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"-" * (contest.MAX_FILE_BYTES + 1))
    assert "too large" in refused(FilePahTum, "", [str(huge)])
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff" * 56)
    assert "not UTF-8" in refused(FilePahTum, "", [str(binary)])
    bad = tmp_path / "bad.txt"
    bad.write_text(SAMPLE_BOARD.replace("-", "Q", 1))
    assert refused(FilePahTum, "", [str(bad)]).startswith(f"bad Pah-Tum position in {bad}: ")
    good = tmp_path / "good.txt"
    good.write_text(SAMPLE_BOARD)
    assert refused(FilePahTum, "", [str(good), "X"]) == (
        "arena move pahtum: 'X' is one argument too many for the Pah-Tum program")


# ----- SESSION --------------------------------------------------------------------------


def test_session_moving_first() -> None:
    run = play(SessionPousse, "5\nStart\nL2\nT1\nQuit\nR5\n", script=["L1", "T3", "B4"])
    assert run.out.getvalue() == "L1\nT3\nB4\n"  # Quit ends it: R5 is never read
    assert [native for native, _, _ in run.engine.calls] == [
        "5\n", "5\nL1\nL2\n", "5\nL1\nL2\nT3\nT1\n"]
    assert run.loads == [1]  # loaded once, on the first move


def test_session_moving_second_and_the_end_of_input() -> None:
    run = play(SessionPousse, "4\nR4\n\nB1\n", script=["L1", "L3"], level="easy")
    assert run.out.getvalue() == "L1\nL3\n"  # the blank line is skipped; EOF ends quietly
    assert [(native, level) for native, level, _ in run.engine.calls] == [
        ("4\nR4\n", "easy"), ("4\nR4\nL1\nB1\n", "easy")]


def test_session_charges_our_time_not_the_opponents() -> None:
    time = FakeTime()
    # each jury line arrives 3 s after we asked (the opponent thinking); we think 1 s
    stdin = TimedLines("5\nStart\nL2\nT1\nQuit\n", time, wait=3.0)
    run = play(SessionPousse, stdin, script=["L1", "T3", "B4"], think=1.0, now=time)
    left = 10.0 - AGE  # the first move is also charged the start-up
    first = left / 40 * 0.8 - 0.05
    left -= 1.0
    second = left / 39 * 0.8 - 0.05
    left -= 1.0
    third = left / 38 * 0.8 - 0.05
    assert run.engine.seconds == pytest.approx([first, second, third])


def test_session_time_limit_and_no_clock() -> None:
    time = FakeTime()
    stdin = TimedLines("5\nStart\nL2\n", time, wait=3.0)
    run = play(SessionPousse, stdin, script=["L1", "T3"], time_limit=2.0, now=time)
    assert run.engine.seconds == [2.0 - AGE, 2.0]
    untimed = play(UntimedSessionPousse, "5\nStart\nL2\n", script=["L1", "T3"])
    assert untimed.engine.seconds == [None, None]  # the level's own budget


def test_session_per_move_clock() -> None:
    # we are second; a per-move clock counts each move afresh (the first with start-up)
    run = play(SessionPahTum, SAMPLE_BOARD + "A1\nA3\nQuit\n", script=["A2", "A4"], think=0.5)
    assert run.out.getvalue() == "A2\nA4\n"
    assert run.engine.seconds == pytest.approx([(10.0 - AGE) * 0.8 - 0.05, 10.0 * 0.8 - 0.05])


def test_session_stops_searching_once_the_game_is_over() -> None:
    game = PahTum.from_native(SAMPLE_BOARD)
    empties = game.legal_moves()
    for cell in empties[:-2]:
        game.play(cell)
    last_two = [game.move_text(cell) for cell in empties[-2:]]
    header = game.to_native()
    # the opponent fills one cell, we fill the last; the jury then only says Quit
    run = play(SessionPahTum, header + f"{last_two[0]}\nQuit\n")
    assert run.out.getvalue() == f"{last_two[1]}\n"
    # we start and fill one; the opponent fills the last: nothing more to search
    run = play(SessionPahTum, header + f"Start\n{last_two[1]}\n", script=[last_two[0]])
    assert run.out.getvalue() == f"{last_two[0]}\n"
    assert len(run.engine.calls) == 1


@pytest.mark.parametrize(
    ("cls", "stdin", "args", "message"),
    [
        (SessionPousse, "", (), "the input ended after 0 of the 1 lines that set up the game"),
        (SessionPahTum, "-------\n" * 3, (), "the input ended after 3 of the 7 lines"),
        (SessionPousse, "five\nStart\n", (),
         "bad Pousse game set-up: line 1 must be the board size N (4-20), not 'five'"),
        (SessionPousse, "5\n", ("extra",),
         "arena move pousse: 'extra' is one argument too many for the Pousse program"),
        (SessionPousse, "5\nZ9\n", (), "line 2: bad move 'Z9': "),
        (SessionPousse, "5\nL6\n", (), "line 2: bad move 'L6': "),
    ],
)
def test_session_refusals(cls: Codec[Any], stdin: str, args: tuple[str, ...],
                          message: str) -> None:
    assert refused(cls, stdin, args).startswith(message)


def test_session_refuses_a_move_on_a_taken_cell_after_replying() -> None:
    message = refused(SessionPahTum, SAMPLE_BOARD + "Start\nA1\n", script=["A1"],
                      searched=True)
    assert message == "line 9: bad move 'A1': A1 is taken by X: a letter goes on an empty cell"
    message = refused(SessionPousse, "5\nStart\nStart\n", searched=True)
    assert message == "line 3: 'Start' after the game has begun"


SESSION_PROGRAM = """
import sys
from ai.engine import get_engine
from rules import ClockKind, Protocol, TimeControl
from rules.codecs import LineCodec
from rules.pousse import Pousse
from tui.play import contest

class TimedPousse(Pousse):
    clock = TimeControl(ClockKind.GAME, 10.0)

class Sessions(LineCodec):
    protocol = Protocol.SESSION
    header_lines = 1

contest.run(contest.Contest(Sessions(TimedPousse), [], "easy", None,
                            lambda seconds: get_engine("pousse"), sys.stdin, sys.stdout))
"""


def test_session_with_the_real_engine_against_a_waiting_jury() -> None:
    """A real process and engine: like a jury, send a line only after reading the reply,
    so a reply that is not flushed, or input read ahead, hangs and fails here."""
    # stdout to a pipe is block-buffered, as under a real jury, unless the caller says not
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen([sys.executable, "-c", SESSION_PROGRAM], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    game = Pousse.new({"size": 6})

    def send(line: str) -> None:
        proc.stdin.write(line.encode() + b"\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]

    def reply() -> str:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "no reply within 60 s"
        return proc.stdout.readline().decode()  # type: ignore[union-attr]

    try:
        send("6")
        send("Start")
        for theirs in ("L2", "T5", "B3"):
            ours = reply()
            assert ours.endswith("\n") and ours.count("\n") == 1
            game.play_text(ours)  # MoveError if it is not legal
            game.play_text(theirs)
            send(theirs)
        game.play_text(reply())
        send("Quit")
        assert proc.wait(timeout=30) == 0, proc.stderr.read().decode()[-2000:]
        assert proc.stdout.read() == b""
    finally:
        proc.kill()
        proc.wait()


# ----- bounds ---------------------------------------------------------------------------


class Endless(io.StringIO):
    """A stream with no end (like /dev/zero); counts what is read from it."""

    def __init__(self) -> None:
        super().__init__()
        self.taken = 0

    def read(self, size: int | None = -1) -> str:
        assert size is not None and size > 0, "read to the end of an endless stream"
        self.taken += size
        return "-" * size

    def readline(self, size: int | None = -1) -> str:
        return self.read(size)


def test_an_endless_stdin_is_refused_after_a_bounded_read() -> None:
    stream = Endless()
    assert "too large" in refused(PahTum, stream)  # type: ignore[arg-type]
    assert stream.taken <= contest.MAX_FILE_BYTES + 1


def test_an_endless_line_in_a_session_is_refused_with_an_excerpt() -> None:
    stream = Endless()
    message = refused(SessionPousse, stream)  # type: ignore[arg-type]
    assert "too long" in message and len(message) < 150
    assert stream.taken <= contest.MAX_LINE + 1


def test_bad_input_is_quoted_short_and_printable() -> None:
    assert contest.excerpt("ab") == "'ab'"
    assert contest.excerpt("\x1b" * 100) == repr("\x1b" * contest.EXCERPT) + "..."
    message = refused(SessionPousse, "5\n" + "Z" * 50_000 + "\n")
    assert message.startswith("line 2: bad move 'ZZZZ") and len(message) < 300
