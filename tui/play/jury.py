"""Arena as the jury: another contest program plays a seat in its game's own protocol.

A `ProgramPlayer` is asked for one move at a time (`move(game, clock)`) and gives a
`Verdict`: the move, or the fault that loses the game (an illegal or malformed answer,
a crash, a non-zero exit, a timeout, a command that does not start), with the exact
output. The game's declared `Protocol` chooses the driver:

- STDIN: one process per move, the native position on stdin (and the game's
  `contest_args`, such as the mark to play, as arguments);
- FILE: one process per move, the path of a file holding the native position (with
  the clocks, where the format has them) as the argument;
- SESSION: one process for the whole game, lines both ways: the set-up lines, then
  `Start` or the other side's moves (`relayed_move_text`), and `Quit` at the end.

The limit for a move is what the clock leaves the mover (per move, or what is left
of a game clock); a one-move process's start-up counts. `cancel` (undo, new game,
quit) kills the program's whole process group from any thread; `close` ends a game.
Nothing here imports Textual or Numba: the TUI and `arena match` both use it.
"""

from __future__ import annotations

import os
import select
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import IO, Any

from rules import Clock, Game, MalformedReply, MoveError, Protocol
from tui.play import reaper
from tui.play.players import Player, Verdict
from tui.play.programs import OUTPUT_LIMIT, Fault, Reply, kill_group, parse_command, run_once

SHOWN = 120  # characters of a program's output quoted in a reason (the result keeps more)
MAX_LINE = 64 * 1024  # a whole-game program's line is a move
STDERR_KEPT = 1 << 16  # bytes of a whole-game program's stderr kept for the log
QUIT_WAIT = 0.5  # seconds a whole-game program has to exit after `Quit`


class Cancelled(Exception):  # noqa: N818 - a control-flow signal, not an error to show
    """The move was cancelled (undo, a new game, quitting); nobody wants its answer."""


class OutOfStep(Exception):  # noqa: N818
    """A whole-game program cannot be brought to this position: it has moved in this game
    already, and its protocol cannot take moves back or be told its own moves."""


def quote(text: str) -> str:
    """A program's output as a Python repr, cut for a one-line reason."""
    shown = repr(text[:SHOWN])
    return shown + "..." if len(text) > SHOWN else shown


def judge(game: Game, output: str, seconds: float, limit: float | None,
          stderr: str = "") -> Verdict:
    """The verdict on a program's whole answer for `game` (not yet played)."""
    if limit is not None and seconds > limit:
        return Verdict(None, seconds, output, "timeout",
                       f"answered after {seconds:.2f} s, over its {limit:.2f} s", stderr)
    try:
        move = game.jury_move(output)
    except MalformedReply as err:
        return Verdict(None, seconds, output, "malformed", f"answered {quote(output)}: {err}",
                       stderr)
    except MoveError as err:
        return Verdict(None, seconds, output, "illegal",
                       f"played an illegal move {quote(output)}: {err}", stderr)
    return Verdict(move, seconds, output, stderr=stderr)


def fault_verdict(reply: Reply, limit: float | None) -> Verdict | None:
    """The verdict on a run that did not end well (None: it exited normally)."""
    out, detail = reply.stdout, reply.detail
    printed = f" after printing {quote(out)}" if out else " without printing anything"
    if reply.fault is Fault.START:
        return Verdict(None, reply.seconds, out, "start", f"did not start: {detail}")
    if reply.fault is Fault.TIMEOUT:
        shown = "no limit" if limit is None else f"{limit:.2f} s"
        return Verdict(None, reply.seconds, out, "timeout",
                       f"gave no answer within its {shown}{printed}", reply.stderr)
    if reply.fault is Fault.CRASH:
        return Verdict(None, reply.seconds, out, "crash", f"crashed ({detail}){printed}",
                       reply.stderr)
    if reply.fault is Fault.EXIT:
        return Verdict(None, reply.seconds, out, "exit", f"ended with {detail}{printed}",
                       reply.stderr)
    if reply.fault is Fault.TOO_LARGE:
        return too_large(reply.seconds, out, reply.stderr)
    return None


def too_large(seconds: float, output: str, stderr: str) -> Verdict:
    """A program stopped for writing more than a move's bound of output."""
    return Verdict(None, seconds, output, "output",
                   f"wrote over {OUTPUT_LIMIT:,} bytes in one move (output too large), "
                   f"starting {quote(output or stderr)}", stderr)


class ProgramPlayer(Player):
    """One contest program playing one seat; `move` runs in a worker thread."""

    def __init__(self, argv: Sequence[str], cwd: Path | None = None) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self._lock = threading.Lock()
        self._call = 0  # which move is under way
        self._killed = -1  # the move `cancel` stopped
        self._proc: subprocess.Popen[bytes] | None = None

    def move(self, game: Game, clock: Clock, stop: Any = None, info: Any = None) -> Verdict:
        """The program's move for `game` (its seat is the mover), within `clock` (`stop`
        and `info` are the AI's: a program is stopped by `cancel`).

        Raises Cancelled if `cancel` stopped it."""
        raise NotImplementedError

    def can_resume(self, game: Game, seat: int | None = None) -> bool:
        """Whether the program can be asked for a move in `game` (after an undo or a load)
        when `seat` (by default the mover) is next to move."""
        return True

    def cancel(self) -> None:
        """Stop the move under way (from any thread): its process group is killed."""
        with self._lock:
            self._killed = self._call
            if self._proc is not None:
                kill_group(self._proc)

    def close(self, kill: bool = True) -> None:
        """The game is over or left: nothing of the program may keep running (a
        whole-game program not killed is told `Quit` first)."""
        self.cancel()

    # ----- helpers for the drivers ---------------------------------------------------
    def _begin(self) -> int:
        with self._lock:
            self._call += 1
            return self._call

    def _started(self, call: int, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._proc = proc
            if self._killed == call:
                kill_group(proc)

    def _end(self, call: int) -> None:
        with self._lock:
            self._proc = None
            if self._killed == call:
                raise Cancelled


def _limit(game: Game, clock: Clock) -> float | None:
    return clock.left(game.to_move)


class OneMoveProgram(ProgramPlayer):
    """STDIN and FILE: a new process for every move."""

    def __init__(self, argv: Sequence[str], cwd: Path | None = None,
                 file: bool = False) -> None:
        super().__init__(argv, cwd)
        self.file = file

    def move(self, game: Game, clock: Clock, stop: Any = None, info: Any = None) -> Verdict:
        call = self._begin()
        limit = _limit(game, clock)
        with tempfile.TemporaryDirectory(prefix="move-", dir=reaper.folder()) as folder:
            args, stdin = list(game.contest_args()), game.to_native()
            if self.file:
                path = Path(folder) / "position.txt"
                left = [clock.left(p) for p in range(game.players)]
                path.write_text(game.native_text(left), encoding="utf-8")
                args, stdin = [str(path), *args], ""
            reply = run_once(self.argv + args, stdin, limit, self.cwd,
                             started=lambda proc: self._started(call, proc))
        self._end(call)
        bad = fault_verdict(reply, limit)
        if bad is not None:
            return bad
        return judge(game, reply.stdout, reply.seconds, limit, reply.stderr)


class SessionProgram(ProgramPlayer):
    """SESSION: one process for the whole game; it is told the other side's moves."""

    def __init__(self, argv: Sequence[str], cwd: Path | None = None) -> None:
        super().__init__(argv, cwd)
        self._known: list[Hashable] = []  # the moves the program has seen or made
        self._mine = 0  # how many of them it made
        self._buffer = b""
        self._running: subprocess.Popen[bytes] | None = None
        self._stale = False  # `cancel` killed the running process
        self._stderr: ErrorStream | None = None  # the running process's stderr
        self._tag = ""  # the running process's reaper tag

    def can_resume(self, game: Game, seat: int | None = None) -> bool:
        return self._in_step(game) or not moved_in(game, game.to_move if seat is None else seat)

    def _in_step(self, game: Game) -> bool:
        """Whether the running process has seen this game so far (one that has died since
        is found out, and its fault named, when it is next spoken to)."""
        return (self._running is not None and not self._stale
                and len(game.history) >= len(self._known)
                and game.history[: len(self._known)] == self._known)

    def move(self, game: Game, clock: Clock, stop: Any = None, info: Any = None) -> Verdict:
        call = self._begin()
        limit = _limit(game, clock)
        began = time.perf_counter()
        if self._stderr is not None:
            self._stderr.new_move()
        if not self._in_step(game):
            if moved_in(game, game.to_move):
                raise OutOfStep("a whole-game program cannot take moves back: "
                                "start a new game")
            self._stop_process()
            started = self._launch(call, game)
            if started is not None:
                return started
        proc = self._running
        assert proc is not None
        if self._buffer or _readable(proc, 0.0):  # it spoke out of turn
            self._fill(proc, time.perf_counter() + 0.05)
            extra = self._buffer.decode("utf-8", "replace")
            self._end(call)
            return Verdict(None, 0.0, extra, "malformed",
                           f"wrote {quote(extra)} when it was not its turn (output after "
                           "its move)", self._read_stderr())
        new = game.history[len(self._known):]
        lines = relayed(game, len(self._known))
        if not self._known and not new:
            lines = ["Start"]
        began = time.perf_counter()
        sent = self._send(proc, lines)
        self._known.extend(new)
        verdict = sent or self._reply(call, proc, game, limit, began)
        self._end(call)
        if verdict.ok:
            self._known.append(verdict.move)
            self._mine += 1
        return verdict

    def _launch(self, call: int, game: Game) -> Verdict | None:
        """A new process, told the set-up (and the moves before its first, if any)."""
        self._known, self._mine, self._buffer = [], 0, b""
        began = time.perf_counter()
        self._tag = reaper.launch_tag()
        try:
            proc = reaper.spawn(self.argv, self._tag, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=self.cwd)
        except OSError as err:
            self._end(call)
            return Verdict(None, time.perf_counter() - began, "", "start",
                           f"did not start: {err.strerror or err}")
        self._running = proc
        assert proc.stderr is not None
        self._stderr = ErrorStream(proc.stderr, lambda: kill_group(proc))
        self._started(call, proc)
        return self._send(proc, game.session_header())

    def _send(self, proc: subprocess.Popen[bytes], lines: Sequence[str]) -> Verdict | None:
        assert proc.stdin is not None
        try:
            proc.stdin.write("".join(line + "\n" for line in lines).encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._ended(proc, time.perf_counter(), 0.0)
        return None

    def _reply(self, call: int, proc: subprocess.Popen[bytes], game: Game,
               limit: float | None, began: float) -> Verdict:
        deadline = None if limit is None else began + max(0.0, limit)
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE:
                text = self._buffer.decode("utf-8", "replace")
                kill_group(proc)
                return Verdict(None, time.perf_counter() - began, text, "output",
                               f"wrote a line over {MAX_LINE:,} bytes (output too large): "
                               f"{quote(text)}", self._read_stderr())
            got = self._fill(proc, deadline)
            if got is None:  # the deadline passed
                text = self._buffer.decode("utf-8", "replace")
                printed = f" after printing {quote(text)}" if text else ""
                return Verdict(None, time.perf_counter() - began, text, "timeout",
                               f"gave no answer within its {limit:.2f} s{printed}",
                               self._read_stderr())
            if not got:  # end of its output
                return self._ended(proc, began, 1.0)
        line, _, rest = self._buffer.partition(b"\n")
        self._buffer = rest
        seconds = time.perf_counter() - began
        text = line.decode("utf-8", "replace") + "\n"
        if rest:  # more than the move came at once
            extra = rest.decode("utf-8", "replace")
            return Verdict(None, seconds, text + extra, "malformed",
                           f"answered {quote(text + extra)}: output after the move",
                           self._read_stderr())
        return judge(game, text, seconds, limit, self._read_stderr())

    def _fill(self, proc: subprocess.Popen[bytes], deadline: float | None) -> bytes | None:
        """Read what the program has written; None at the deadline, b"" at its end."""
        assert proc.stdout is not None
        wait = None if deadline is None else max(0.0, deadline - time.perf_counter())
        if not _readable(proc, wait):
            return None
        data = os.read(proc.stdout.fileno(), 65536)
        self._buffer += data
        return data

    def _ended(self, proc: subprocess.Popen[bytes], began: float, grace: float) -> Verdict:
        """The program's output or input closed: how it ended."""
        try:
            code = proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            code = None
        seconds = time.perf_counter() - began
        text = self._buffer.decode("utf-8", "replace")
        if self._stderr is not None and self._stderr.flooded:
            return too_large(seconds, text, self._read_stderr())
        printed = f" after printing {quote(text)}" if text else ""
        stderr = self._read_stderr()
        if code is not None and code < 0:
            return Verdict(None, seconds, text, "crash",
                           f"crashed ({_signal_name(-code)}){printed}", stderr)
        if code is not None and code > 0:
            return Verdict(None, seconds, text, "exit", f"ended with exit code {code}{printed}",
                           stderr)
        what = "ended" if code == 0 else "closed its output"
        return Verdict(None, seconds, text, "malformed", f"{what} without a move{printed}",
                       stderr)

    def _read_stderr(self) -> str:
        return "" if self._stderr is None else self._stderr.text()

    def _stop_process(self) -> None:
        with self._lock:
            proc, self._running, self._stale = self._running, None, False
        if proc is None:
            return
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(b"Quit\n")
                proc.stdin.flush()
                proc.stdin.close()
                proc.wait(timeout=QUIT_WAIT)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        kill_group(proc)
        reaper.sweep(self._tag)
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def cancel(self) -> None:
        """Stop the move under way: the process is killed (it cannot be un-asked), and
        the next move starts a new one if the game allows (`can_resume`). Its pipes are
        closed later, by the thread that may be reading them."""
        super().cancel()
        with self._lock:
            proc = self._running
            if proc is not None:
                kill_group(proc)
                self._stale = True
        if proc is not None:
            reaper.sweep(self._tag)

    def close(self, kill: bool = True) -> None:
        if kill:
            super().cancel()
        with self._lock:
            self._killed = self._call
        self._stop_process()


class ErrorStream:
    """A whole-game program's stderr, read by a thread as it comes: the first STDERR_KEPT
    bytes are kept, the rest counted and dropped. A program that writes more than a move's
    bound (OUTPUT_LIMIT) between two of its moves is stopped (`flood` kills it) and
    `flooded` says so: memory and disk stay bounded whatever it writes."""

    def __init__(self, stream: IO[bytes], flood: Callable[[], None]) -> None:
        self._fd = stream.fileno()
        self._stream = stream
        self._flood = flood
        self._kept = bytearray()
        self._count = 0  # bytes since the current move began
        self.flooded = False
        self._lock = threading.Lock()
        threading.Thread(target=self._drain, name="arena-stderr", daemon=True).start()

    def _drain(self) -> None:
        try:
            while True:
                data = os.read(self._fd, 65536)
                if not data:
                    break
                with self._lock:
                    room = STDERR_KEPT - len(self._kept)
                    if room > 0:
                        self._kept += data[:room]
                    self._count += len(data)
                    over = self._count > OUTPUT_LIMIT and not self.flooded
                    if over:
                        self.flooded = True
                if over:
                    self._flood()
        except (OSError, ValueError):
            pass
        finally:
            try:
                self._stream.close()
            except OSError:
                pass

    def new_move(self) -> None:
        with self._lock:
            self._count = 0

    def text(self) -> str:
        with self._lock:
            return bytes(self._kept).decode("utf-8", "replace")


def moved_in(game: Game, seat: int) -> bool:
    """Whether `seat` has moved in `game` already (then a new whole-game process cannot
    join it: its protocol cannot tell a program its own moves)."""
    probe = game.copy()
    probe.resume()
    while probe.history:
        probe.undo()
        if probe.to_move == seat:
            return True
    return False


def can_join(game_class: type[Game], game: Game, seat: int) -> bool:
    """Whether a new process of a program in `game_class`'s protocol could play `seat`
    from `game` on (a one-move program always can)."""
    return game_class.protocol is not Protocol.SESSION or not moved_in(game, seat)


def relayed(game: Game, since: int) -> list[str]:
    """The moves of `game` after its first `since`, as the jury passes them on."""
    probe = game.copy()
    moves = []
    while len(probe.history) > since:
        moves.append(probe.undo())
    lines = []
    for move in reversed(moves):
        lines.append(probe.relayed_move_text(move))
        probe.play(move)
    return lines


def _readable(proc: subprocess.Popen[bytes], wait: float | None) -> bool:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout.fileno()], [], [], wait)
    return bool(ready)


def _signal_name(number: int) -> str:
    import signal

    try:
        return f"killed by {signal.Signals(number).name}"
    except ValueError:
        return f"killed by signal {number}"


def program_player(game_class: type[Game], command: str,
                   cwd: Path | None = None) -> ProgramPlayer:
    """The driver for `command` (a command line; CommandError if it names no program)
    speaking `game_class`'s protocol."""
    argv = parse_command(command)
    protocol = game_class.protocol
    if protocol is Protocol.SESSION:
        return SessionProgram(argv, cwd)
    return OneMoveProgram(argv, cwd, file=protocol is Protocol.FILE)
