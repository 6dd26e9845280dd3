"""What every `arena` command shares without Typer: one-line errors, the worker thread
that lets Ctrl-C through, signals, the exit without interpreter teardown, and the checks
of `--level` and `--time`. The contest program's fast path (`tui.cli`) uses it alone,
so nothing here may import Typer, Textual or Numba.
"""

from __future__ import annotations

import math
import os
import re
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from rules import LEVELS, RulesError

if TYPE_CHECKING:
    from ai.engine import Engine

USAGE_EXIT = 2
INTERRUPTED_EXIT = 130  # what a shell reports for a process ended by Ctrl-C
# `--time` above this is taken as this: a search that long is no longer a contest move,
# and the engine's deadline timer cannot wait for "forever" (1e308 s overflows it).
MAX_SECONDS = 3600.0
EXCERPT = 40  # characters of a bad value quoted in an error
MESSAGE = 300  # characters of an error line at most
# a quoted value longer than EXCERPT (not an apostrophe: "a player's" opens nothing)
QUOTED = re.compile(r"""(?<!\w)(['"])([^'"]{41,})\1(?!\w)""")

T = TypeVar("T")


def printable(text: str) -> str:
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def _cut_quote(match: re.Match[str]) -> str:
    quote, body = match.group(1), match.group(2)
    return f"{quote}{body[:EXCERPT - 3]}...{quote}"


def one_line(text: str) -> str:
    """One printable line; a long quoted value is cut to an excerpt, the whole to MESSAGE."""
    line = printable(" ".join(str(text).split())) or "unknown error"
    line = QUOTED.sub(_cut_quote, line)
    return line if len(line) <= MESSAGE else line[:MESSAGE - 3] + "..."


def fail(message: str) -> NoReturn:
    """One `arena: error:` line on stderr and exit code 2."""
    say(f"error: {message}")
    raise SystemExit(USAGE_EXIT)


def say(message: str) -> None:
    """A notice (not an error) on stderr, one line."""
    try:
        sys.stderr.write(f"arena: {one_line(message)}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def quiet_stdout() -> None:
    """After stdout failed, point its descriptor at /dev/null so the interpreter's final
    flush does not print a second error."""
    try:
        fd = sys.stdout.fileno() if sys.stdout is not None else 1
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        pass


def interrupted(signum: int, frame: Any) -> None:
    """Ctrl-C during a command: one line and exit code 130, at once (a kernel running in
    a worker thread cannot be unwound, and need not be)."""
    try:
        sys.stderr.write("arena: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    end_programs()
    release_cache()
    os._exit(INTERRUPTED_EXIT)


def release_cache() -> None:
    cache = sys.modules.get("ai.numba_cache")
    if cache is not None:
        cache.cleanup()


def in_worker(work: Callable[[], T]) -> T:
    """Run `work` in a thread while the main thread waits in short joins: a kernel holds
    no GIL but blocks the thread it runs in, so this is how Ctrl-C gets through."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as err:  # handed to the main thread as is
            box["error"] = err

    in_main = threading.current_thread() is threading.main_thread()
    # Only as the console script: in-process callers (tests) keep their KeyboardInterrupt.
    previous = signal.signal(signal.SIGINT, interrupted) if in_main and console_script[0] else None
    try:
        thread = threading.Thread(target=target, name="arena-work", daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(0.1)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if "error" in box:
        raise box["error"]
    return box["value"]


def level(level: str) -> str:
    value = level.strip().lower()
    if value not in LEVELS:
        raise RulesError(f"unknown level {excerpt(level)}; levels: {', '.join(LEVELS)}")
    return value


def seconds(given: float | None) -> float | None:
    """`--time`: a finite number above 0; anything above MAX_SECONDS is taken as
    MAX_SECONDS without a word, as the most a search may be given."""
    if given is None:
        return None
    if not 0 < given < math.inf:  # also NaN
        raise RulesError(f"--time must be a number of seconds above 0, not {given}")
    return min(given, MAX_SECONDS)


console_script = [False]  # set by `main`: this process is the `arena` command itself
# Set once a contest reply is out: the console script then skips interpreter
# teardown (Numba's takes about half a second), which would count against the clock.
exit_now = [False]


def terminated(signum: int, frame: Any) -> None:
    """SIGTERM or SIGHUP (a closed terminal) outside the app: every program Arena started
    is killed, its temporary files removed, and the process ends (128 + the signal)."""
    try:
        sys.stderr.write(f"arena: terminated ({signal.Signals(signum).name})\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    end_programs()
    release_cache()
    os._exit(128 + signum)


def end_programs() -> None:
    reaper = sys.modules.get("tui.play.reaper")
    if reaper is not None:
        reaper.shutdown()




_told: list[str] = []  # cache notices already said: each is said once


def tell(message: str | None) -> bool:
    if not message or message in _told:
        return False
    _told.append(message)
    say(message)
    return True


def jit_engine(name: str) -> Engine:
    """The game's engine, healing a kernel cache that fails at run time; says on stderr
    (once) when its kernels must first be compiled or the cache is not as usual."""
    from ai import numba_cache

    numba_cache.configure()  # (the JIT will: its check of the cache is said first)
    if not tell(numba_cache.notice()) and not numba_cache.is_compiled(name):
        say(f"compiling the {name} AI kernels: a one-time cost of about 10-60 s, "
            "cached for later runs")
    from ai.engine import get_engine

    return _Healing(_heal_once(lambda: get_engine(name)))  # type: ignore[return-value]


_healed = [False]


def _heal_once(call: Callable[[], T]) -> T:
    """`call()`, run once more after the kernel cache failed under it (a damaged file
    that slipped past the check at start-up, a disk that filled up)."""
    from ai import numba_cache

    try:
        return call()
    except Exception as err:
        if _healed[0] or not numba_cache.caused_by_cache(err):
            raise
        _healed[0] = True
        tell(numba_cache.recover(err))
        return call()


class _Healing:
    """An engine whose every call goes through `_heal_once`."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._engine, name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            from ai import numba_cache

            try:
                return _heal_once(lambda: value(*args, **kwargs))
            finally:  # the cache is checked when the kernels first load: say what it found
                tell(numba_cache.notice())

        return call


def done_with_kernels() -> None:
    """The kernels ran: record the cache's files as good (later damage is then caught)."""
    cache = sys.modules.get("ai.numba_cache")
    if cache is not None:
        cache.seal()



def excerpt(text: str) -> str:
    """A short printable quote of bad input (a 10 MB value is not echoed back)."""
    return repr(text) if len(text) <= EXCERPT else repr(text[:EXCERPT]) + "..."


def finish(code: int) -> NoReturn:
    """End the console script with `code`: output flushed, and when `exit_now` is set
    (a contest reply is out) without interpreter teardown, which would count against
    the clock (Numba's takes about half a second)."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError):  # a closed pipe: said already, or nothing to say
        quiet_stdout()
    if exit_now[0]:
        try:
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass
        end_programs()
        release_cache()
        os._exit(code)
    raise SystemExit(code)


def handle_signals() -> None:
    """The console script ends cleanly on SIGTERM and SIGHUP (`terminated`)."""
    console_script[0] = True
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, terminated)
