"""The `arena` command: one module per command (`play`, `move`, `perft`, `bench`,
`prepare`, `match`, `record`) on the Typer app of `tui.cli.commands`, and this console script.

A contest program is judged on its whole wall time, start-up included, and a C program
starts in a millisecond. Typer, Click and the app's modules cost about 0.1 s to import,
so `main` answers a plain `arena move GAME [ARGS...] [--level L] [--time S]` itself,
played by `tui.play.contest` with nothing but the rules, numpy and the game's native
kernels loaded; anything else (help, another command, an option this parser does not
know) goes to the full CLI (`tui.cli.commands`), which says the same things about bad input.
This module therefore imports nothing heavy.
"""

from __future__ import annotations

import sys

# numpy's BLAS starts a thread per core at import, spinning, which doubles a contest
# move's start-up CPU on a busy machine; Arena does no linear algebra.
QUIET_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def main() -> None:
    import os

    for name in QUIET_THREADS:
        os.environ.setdefault(name, "1")
    args = sys.argv[1:]
    if args[:1] == ["move"]:
        parsed = parse_move(args[1:])
        if parsed is not None:
            fast_move(*parsed)
            return
    try:
        from tui.cli.commands import main as full
    except ImportError as err:  # Typer outside the tested range: one line, no traceback
        if type(err).__name__ != "TyperVersionError":
            raise
        sys.stderr.write(f"arena: error: {err}\n")
        raise SystemExit(1) from None
    full()


COMMANDS = ("bench", "commands", "common", "console", "match", "move", "perft", "play",
            "prepare", "record", "typer_private")


def __getattr__(name: str) -> object:
    """A command's module, or a name of the full CLI's (`app`, `version`, ...), loaded
    when first asked for."""
    from importlib import import_module

    if name in COMMANDS:
        return import_module(f"{__name__}.{name}")
    if name.startswith("__"):
        raise AttributeError(name)
    import_module(f"{__name__}.commands")  # every command registered
    common = import_module(f"{__name__}.common")
    try:
        return getattr(common, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def parse_move(args: list[str]) -> tuple[str, list[str], str, str | None] | None:
    """(game, arguments, level, time) of a plain `arena move` command line, or None when
    the full CLI should read it (help, an unknown option, a missing game)."""
    positional: list[str] = []
    level, seconds = "max", None
    i = 0
    only_positional = False
    while i < len(args):
        arg = args[i]
        if only_positional or not arg.startswith("-") or arg == "-":
            positional.append(arg)
        elif arg == "--":
            only_positional = True
        elif arg in ("--level", "--time"):
            if i + 1 >= len(args):
                return None
            i += 1
            if arg == "--level":
                level = args[i]
            else:
                seconds = args[i]
        elif arg.startswith(("--level=", "--time=")):
            name, _, value = arg.partition("=")
            if name == "--level":
                level = value
            else:
                seconds = value
        else:
            return None
        i += 1
    if not positional:
        return None
    if seconds is not None:
        try:
            float(seconds)
        except ValueError:
            return None  # Click's own words for it
    return positional[0], positional[1:], level, seconds


def fast_move(game: str, args: list[str], level: str, time_text: str | None) -> None:
    """`arena move` as `tui.cli.move` plays it, with the same one-line errors."""
    import tui.cli.console as console

    console.handle_signals()
    code = 0
    try:
        from rules import RulesError, codec_of, get_game
        from tui.play import contest

        try:
            cls = get_game(game)
            chosen = console.level(level)
            seconds = None if time_text is None else console.seconds(float(time_text))
            if sys.stdout is None:
                raise RulesError("standard output is closed: nowhere to write the reply")
            console.in_worker(lambda: contest.run(contest.Contest(
                codec=codec_of(cls), args=args, level=chosen, time_limit=seconds,
                engine=lambda s: contest.contest_engine(
                    cls.name, s, lambda: console.jit_engine(cls.name)),
                stdin=sys.stdin, stdout=sys.stdout, age=contest.process_age)))
        except (RulesError, OSError, ValueError) as err:  # (a SaveError is a ValueError)
            console.fail(str(err))
        console.done_with_kernels()
        console.exit_now[0] = True
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 0
    console.finish(code)


if __name__ == "__main__":
    main()
