"""The `arena` command's Typer app and what its commands share: the group that reports
usage errors in one line, `--version`, the checks of a game, its options, seed and
players, and the one-line output helpers. Each command is a module of this package
(`play`, `move`, `perft`, `bench`, `prepare`, `match`, `record`) that registers itself on `app`;
`tui.cli.commands` imports them all.

Headless commands must start fast, so this module imports neither Textual nor Numba:
`play` and the bare `arena` import the app, and `move`, `perft` and `bench` import the
engines only when they run. Every user error is one line on stderr, `arena: error:
...`, with exit code 2 and nothing on stdout.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from rules import DEFAULT_LEVEL, LEVELS, PlayerSpec, RulesError, game_names, get_game
from rules.base import COUNT_OPTION
from saves.format import SaveError
from tui.cli.console import (
    INTERRUPTED_EXIT,
    USAGE_EXIT,
    one_line,
    quiet_stdout,
)
from tui.cli.typer_private import TyperCommand, TyperGroup, click
from tui.play import contest

if TYPE_CHECKING:
    from rules import Game

# The most leaves `perft` may be asked to count, estimated as (moves at the start)^depth:
# the kernels count ~1e7-1e8 leaves a second, the reference through the rules ~1e5.
PERFT_LEAVES = 1e12
REFERENCE_LEAVES = 1e9
# The most nodes a bench depth may need, estimated as (most moves in a bench
# position)^(depth/2), alpha-beta's best case; the engines search ~1e6-1e7 nodes a second.
BENCH_NODES = 1e10
MAX_DEPTH = 200  # beyond any game's length; bigger numbers are refused before estimating
GAME_HELP = f"the game: {', '.join(game_names())}"
LEVEL_HELP = f"AI level: {', '.join(LEVELS)}"
# Every player `PlayerSpec.parse` reads; a match takes all but `human`, and has no --level.
MACHINE_HELP = (f"ai:LEVEL ({', '.join(LEVELS)}), ai:LEVEL@SECONDS (its own time a move), "
                "'prog:COMMAND' (a contest program's command line, quoted), random, greedy "
                "or rev:REV:LEVEL (the engine of an older git revision)")
PLAYER_HELP = f"human, ai (at --level), {MACHINE_HELP}"
MATCH_PLAYER_HELP = f"ai ({DEFAULT_LEVEL}), {MACHINE_HELP}"
OPT_HELP = "a game option, e.g. size=7 (repeatable; a wrong name lists the game's options)"




def _fail(message: str) -> NoReturn:
    typer.echo(f"arena: error: {one_line(message)}", err=True)
    raise typer.Exit(USAGE_EXIT)


def _say(message: str) -> None:
    """A notice (not an error) on stderr, one line."""
    typer.echo(f"arena: {one_line(message)}", err=True)


def _out(text: str = "", nl: bool = True) -> None:
    """A line of results on stdout; a closed stdout or pipe is one error line, exit 2."""
    stream = sys.stdout
    try:
        if stream is None:
            raise OSError("standard output is closed")
        stream.write(text + ("\n" if nl else ""))
        stream.flush()
    except (OSError, ValueError) as err:  # ValueError: a closed file object
        quiet_stdout()
        reason = getattr(err, "strerror", None) or str(err)
        _fail(f"cannot write the output: {reason}")


@contextmanager
def _user_errors() -> Iterator[None]:
    """Turn the errors bad input causes into one line on stderr and exit code 2."""
    try:
        yield
    except (RulesError, SaveError, OSError, ValueError) as err:
        _fail(str(err))


NEGATIVE = re.compile(r"-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


class BadValue(click.exceptions.ClickException):
    """A bad value Click found, said in the CLI's own words (exit 2, no usage hint)."""

    exit_code = USAGE_EXIT


class NumberCommand(TyperCommand):
    """A command with a number argument (`perft`'s DEPTH, named by `number`): a negative
    number given for it is that argument's bad value, not an unknown option (Click takes
    `-1` for an option). `number_command(NAME)` makes one."""

    number = "the number"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        original = list(args)  # (Click's parser consumes the list)
        try:
            return super().parse_args(ctx, args)
        except click.exceptions.NoSuchOption as err:
            given = [arg for arg in original if NEGATIVE.fullmatch(arg)
                     and arg.startswith(err.option_name)]  # Click names `-0` for `-0.5`
            if not given:
                raise
            raise BadValue(whole_number(self.number, given[0])) from None


def number_command(name: str) -> type[NumberCommand]:
    return type(f"NumberCommand_{name}", (NumberCommand,), {"number": name})


def whole_number(name: str, got: object) -> str:
    """The words for a count given below 1."""
    return f"{name} must be a whole number of at least 1 (got {got})"


class ArenaGroup(TyperGroup):
    """Reports Click/Typer usage errors as one line too (no box, no traceback)."""

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,  # type: ignore[override]
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.ClickException as err:
            if not standalone_mode:
                raise
            message = one_line(err.format_message())
            ctx = getattr(err, "ctx", None)
            if isinstance(err, click.exceptions.UsageError) and ctx is not None:
                message = f"{message.rstrip('.')} (see '{ctx.command_path} --help')"
            typer.echo(f"arena: error: {message}", err=True)
            sys.exit(err.exit_code)
        except typer.Abort as err:
            if not standalone_mode:
                raise
            if isinstance(err.__cause__, KeyboardInterrupt):
                typer.echo("arena: interrupted", err=True)
                sys.exit(INTERRUPTED_EXIT)
            typer.echo("arena: aborted", err=True)
            sys.exit(1)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=ArenaGroup,
    name="arena",
    help="Arena: classic contest board games in the terminal, with a strong AI. "
    f"Games: {', '.join(game_names())}.",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def version() -> str:
    """The installed version, or "dev" when running from a checkout."""
    try:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as installed

        return installed("arena-games")
    except PackageNotFoundError:
        return "dev"


def _show_version(value: bool) -> None:
    if value:
        _out(f"arena {version()}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def root(
    ctx: typer.Context,
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True,
                     help="Print the version and exit."),
    ] = False,
) -> None:
    """With no command, open the game menu."""
    if ctx.invoked_subcommand is None:
        from tui.app import run

        code = run()
        if code:
            raise typer.Exit(code)


# ----- shared checks ---------------------------------------------------------------


def _game_class(name: str) -> type[Game]:
    return get_game(name)


def _options(cls: type[Game], given: list[str] | None) -> dict[str, Any]:
    """`--opt NAME=VALUE` pairs, checked by the game's own option specs."""
    raw: dict[str, str] = {}
    for item in given or []:
        name, sep, value = item.partition("=")
        name = name.strip().lower()
        if not sep or not name:
            raise RulesError(f"--opt takes NAME=VALUE, not {contest.excerpt(item)}")
        if name in raw:
            raise RulesError(f"--opt {name} is given twice")
        raw[name] = value
    return cls.parse_options(raw)


def _seed(cls: type[Game], seed: int | None) -> int | None:
    """A seed only means something to a game whose start is random: say so otherwise."""
    if seed is not None and not cls.random_start:
        raise RulesError(f"{cls.title} has no random start; --seed does nothing")
    return seed


def _count(count: tuple[int, int]) -> str:
    low, high = count
    return f"{low} players" if low == high else f"{low} to {high} players"


def _players(cls: type[Game], given: list[str] | None, x: str | None, o: str | None,
             level: str, options: dict[str, Any]) -> list[PlayerSpec]:
    """One spec per seat, in seat order: `--player` repeated, or the `--x`/`--o`
    shorthands of a two-player game, or by default a person against the AI (as many AIs
    as `--opt players=N` asks for). A game that takes a count gets it into `options`."""
    low, high = cls.player_count
    count = options.get(COUNT_OPTION) if cls.takes_count() else None
    shorthand = x is not None or o is not None
    if given and shorthand:
        raise RulesError("give the players with --player or with --x/--o, not both")
    if shorthand and low != 2:
        raise RulesError(f"--x and --o name the two seats of a two-player game; {cls.title} "
                         f"takes {_count(cls.player_count)}: give --player once per seat")
    if given:
        texts = [(f"--player {i}", text) for i, text in enumerate(given, 1)]
    elif shorthand:
        texts = [("--x", "human" if x is None else x), ("--o", "ai" if o is None else o)]
    else:
        texts = [("--player", "human")] + [("--player", "ai")] * ((count or low) - 1)
    if not low <= len(texts) <= high:
        raise RulesError(f"{cls.title} takes {_count(cls.player_count)}, not {len(texts)} "
                         "(give --player once per seat)")
    if count is not None and count != len(texts):
        raise RulesError(f"--opt {COUNT_OPTION}={count} but {len(texts)} players are given")
    if cls.takes_count():
        options[COUNT_OPTION] = len(texts)
    players = []
    for flag, text in texts:
        try:
            spec = PlayerSpec.parse(text, level)
        except RulesError as err:
            raise RulesError(f"{flag}: {err}") from None
        try:
            check_player(spec)
        except RulesError as err:
            raise RulesError(f"{flag}: {err}") from None
        players.append(spec)
    return players


def check_player(spec: PlayerSpec) -> None:
    """RulesError now for a player that could not play: a program that does not start,
    a git revision that is not there."""
    if spec.command is not None:
        from tui.play.programs import CommandError, parse_command

        try:
            parse_command(spec.command)
        except CommandError as err:
            raise RulesError(str(err)) from None
    if spec.revision is not None:
        from ai import revision

        try:
            revision.resolve(spec.revision)
        except revision.RevisionError as err:
            raise RulesError(str(err)) from None


def _path(value: str | None, flag: str) -> Path | None:
    """A path option's value (taken as text: Click makes '' the current folder)."""
    if value is None:
        return None
    if not value:
        raise RulesError(f"{flag} needs a path, not an empty one")
    return Path(value)


def _columns() -> int:
    import shutil

    return shutil.get_terminal_size((80, 24)).columns
