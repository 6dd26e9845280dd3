"""The `arena` command: the app, and the headless contest, perft and bench commands.

Headless commands must start fast, so this module imports neither Textual nor
Numba: `play` and the bare `arena` import the app, and `move`, `perft` and
`bench` import the engines (Numba) only when they run. Every user error is one
line on stderr, `arena: error: ...`, with exit code 2 and nothing on stdout.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer import _click as click  # the click Typer bundles (its exception types)
from typer.core import TyperGroup

from rules import RulesError, get_game
from saves.format import LEVELS, PlayerSpec, SaveError

if TYPE_CHECKING:
    from ai.engine import Engine
    from rules import Game

USAGE_EXIT = 2
# What a contest move may spend, start-up included, as a share of the game's limit
# (10 s -> 8 s), and what is kept back for printing and interpreter shutdown.
TIME_SHARE = 0.8
EXIT_MARGIN = 0.25
MIN_SEARCH = 0.05


def _one_line(text: str) -> str:
    return " ".join(str(text).split()) or "unknown error"


def _fail(message: str) -> NoReturn:
    typer.echo(f"arena: error: {_one_line(message)}", err=True)
    raise typer.Exit(USAGE_EXIT)


@contextmanager
def _user_errors() -> Iterator[None]:
    """Turn the errors bad input causes into one line on stderr and exit code 2."""
    try:
        yield
    except (RulesError, SaveError, OSError, ValueError) as err:
        _fail(str(err))


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
            message = _one_line(err.format_message())
            ctx = getattr(err, "ctx", None)
            if isinstance(err, click.exceptions.UsageError) and ctx is not None:
                message += f" (see '{ctx.command_path} --help')"
            typer.echo(f"arena: error: {message}", err=True)
            sys.exit(err.exit_code)
        except typer.Abort:
            if not standalone_mode:
                raise
            typer.echo("arena: aborted", err=True)
            sys.exit(1)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=ArenaGroup,
    name="arena",
    help="Arena: classic contest board games in the terminal, with a strong AI.",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback(invoke_without_command=True)
def root(ctx: typer.Context) -> None:
    """With no command, open the game menu."""
    if ctx.invoked_subcommand is None:
        from tui.app import run

        run()


# ----- shared checks ---------------------------------------------------------------


def _game_class(name: str) -> type[Game]:
    return get_game(name)


def _level(level: str) -> str:
    value = level.strip().lower()
    if value not in LEVELS:
        raise RulesError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return value


def _options(cls: type[Game], given: dict[str, Any]) -> dict[str, Any]:
    """The board options given on the command line, checked against the game's specs."""
    specs = {spec.name: spec for spec in cls.option_specs}
    options: dict[str, Any] = {}
    for name, raw in given.items():
        if raw is None:
            continue
        spec = specs.get(name)
        if spec is None:
            raise RulesError(f"{cls.title} has no --{name} option")
        try:
            value = spec.kind(str(raw).strip().lower())
        except ValueError:
            raise RulesError(f"--{name} must be a {spec.kind.__name__}, not {raw!r}") from None
        if spec.low is not None and spec.high is not None and spec.kind is int:
            if not spec.low <= value <= spec.high:
                raise RulesError(f"--{name} {value} is out of range: {spec.low} to {spec.high}")
        elif spec.choices is not None and value not in spec.choices:
            choices = ", ".join(map(str, spec.choices))
            raise RulesError(f"--{name} {raw!r} is not one of: {choices}")
        options[name] = value
    return options


def _process_age() -> float:
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


_IMPORTED = time.perf_counter()


def _engine(name: str) -> Engine:
    """The game's engine; says on stderr when its kernels must first be compiled."""
    from ai.numba_cache import is_compiled

    if not is_compiled(name):
        typer.echo(f"arena: compiling the {name} AI kernels: a one-time cost of about "
                   "10-30 s, cached for later runs", err=True)
    from ai.engine import get_engine

    return get_engine(name)


# ----- play --------------------------------------------------------------------------

PLAYER_HELP = "human, ai or ai:LEVEL"


@app.command()
def play(
    game: Annotated[str, typer.Argument(metavar="GAME", help="the game, e.g. pahtum or pousse")],
    x: Annotated[
        str, typer.Option("--x", metavar="SPEC", help=f"who plays X: {PLAYER_HELP}")
    ] = "human",
    o: Annotated[
        str, typer.Option("--o", metavar="SPEC", help=f"who plays O: {PLAYER_HELP}")
    ] = "ai",
    level: Annotated[
        str, typer.Option(metavar="LEVEL", help="AI level: easy, medium, hard or max")
    ] = "hard",
    seed: Annotated[int | None, typer.Option(metavar="N", help="seed for random boards")] = None,
    size: Annotated[int | None, typer.Option(metavar="N", help="board size (Pousse: 4-20)")] = None,
    blocks: Annotated[
        str | None,
        typer.Option(metavar="K", help="blocked cells: an odd number 1-25 or random (Pah-Tum)"),
    ] = None,
    board: Annotated[
        str | None,
        typer.Option(metavar="BOARD", help="random or sample: the seed's board (Pah-Tum)"),
    ] = None,
    load: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="a save or native position file to start from"),
    ] = None,
    save_dir: Annotated[Path | None, typer.Option(metavar="DIR", help="where saves go")] = None,
) -> None:
    """Play a game in the terminal (everything is checked before the board opens)."""
    with _user_errors():
        cls = _game_class(game)
        default_level = _level(level)
        players = []
        for side, text in (("--x", x), ("--o", o)):
            try:
                spec = PlayerSpec.parse(text)
            except SaveError as err:
                raise SaveError(f"{side}: {err}") from None
            if spec.is_ai and spec.level is None:
                spec = PlayerSpec("ai", default_level)
            players.append(spec)
        options = _options(cls, {"size": size, "blocks": blocks, "board": board})
        cls.new(options, seed=seed)  # impossible combinations fail here, not in the UI
        if load is not None:
            from saves.store import load_position

            load_position(cls.name, load)
        folder = None
        if save_dir is not None:
            from saves.store import save_dir as make_save_dir

            folder = make_save_dir(save_dir)
    from tui.app import run

    run(
        game=cls.name,
        options=options,
        seed=seed,
        players=(players[0], players[1]),
        load=load,
        save_dir=folder,
    )


# ----- move: the contest program ----------------------------------------------------------


def _read_stdin() -> str:
    if sys.stdin is None:  # started with stdin closed
        raise RulesError("no input: give the position on stdin")
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
    if isinstance(data, bytes):
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise RulesError("the position on stdin is not text") from None
    return data


@app.command()
def move(
    game: Annotated[str, typer.Argument(metavar="GAME", help="the game, e.g. pahtum")],
    level: Annotated[str, typer.Option(metavar="LEVEL", help="easy, medium, hard or max")] = "max",
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time",
            metavar="SECONDS",
            help="wall-clock seconds for the whole move, start-up included "
            "[default: 80% of the contest limit]",
        ),
    ] = None,
) -> None:
    """The contest program: read a position on stdin, print the reply on stdout."""
    with _user_errors():
        cls = _game_class(game)
        chosen_level = _level(level)
        total = cls.move_seconds * TIME_SHARE if time_limit is None else time_limit
        if not 0 < total < math.inf:
            raise RulesError(f"--time must be a number of seconds above 0, not {time_limit}")
        try:
            position = cls.from_native(_read_stdin())
        except RulesError as err:
            raise RulesError(f"bad {cls.title} position on stdin: {err}") from None
        if position.is_over:
            raise RulesError("the game is over: no move to make")
        engine = _engine(cls.name)
        seconds = max(MIN_SEARCH, total - _process_age() - EXIT_MARGIN)
        result = engine.choose(position, chosen_level, seconds)
        reply = position.contest_reply(result.move)
    try:
        sys.stdout.write(reply)
        sys.stdout.flush()
    except OSError as err:  # e.g. the reader of a pipeline went away
        _fail(f"cannot write the reply: {err}")
    _exit_now[0] = True


# ----- perft and bench ------------------------------------------------------------------


def _rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}" if seconds > 0 else "-"


@app.command()
def perft(
    game: Annotated[str, typer.Argument(metavar="GAME", help="the game, e.g. pahtum")],
    depth: Annotated[
        int, typer.Argument(metavar="DEPTH", help="count move sequences up to this many moves")
    ],
    position: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="a native position or save file [default: a new game]"),
    ] = None,
    reference: Annotated[
        bool, typer.Option("--reference", help="count through the rules (slow oracle)")
    ] = False,
    size: Annotated[
        int | None, typer.Option(metavar="N", help="board size for a new game (Pousse)")
    ] = None,
    seed: Annotated[int, typer.Option(metavar="N", help="seed of the new game's random board")] = 0,
) -> None:
    """Count the leaf positions at each depth: the move-generator test."""
    with _user_errors():
        cls = _game_class(game)
        if depth < 1:
            raise RulesError(f"depth must be 1 or more, not {depth}")
        options = _options(cls, {"size": size})
        if position is not None:
            if options:
                raise RulesError("--size applies to a new game, not to --position")
            from saves.store import load_position

            start = load_position(cls.name, position)
        else:
            start = cls.new(options, seed=seed)
        if reference:
            from ai.perft import reference_perft

            def count(d: int) -> list[int]:
                return reference_perft(start.copy(), d)

            source = "rules (reference)"
        else:
            engine = _engine(cls.name)
            engine.perft(start, 1)  # load the kernels before timing

            def count(d: int) -> list[int]:
                return engine.perft(start, d)

            source = "engine kernels"
        typer.echo(f"perft {cls.name} via {source}, position:")
        typer.echo(start.to_native(), nl=False)
        typer.echo(f"{'depth':>5} {'leaves':>16} {'seconds':>9} {'leaves/s':>14}")
        total_leaves, total_time = 0, 0.0
        for d in range(1, depth + 1):
            began = time.perf_counter()
            leaves = count(d)[d - 1]
            spent = time.perf_counter() - began
            total_leaves += leaves
            total_time += spent
            typer.echo(f"{d:>5} {leaves:>16,} {spent:>9.3f} {_rate(leaves, spent):>14}")
        typer.echo(
            f"total {total_leaves:>16,} {total_time:>9.3f} {_rate(total_leaves, total_time):>14}"
        )


@app.command()
def bench(
    game: Annotated[str, typer.Argument(metavar="GAME", help="the game, e.g. pahtum")],
    depth: Annotated[
        int | None,
        typer.Option(metavar="N", help="search depth [default: the engine's bench depth]"),
    ] = None,
) -> None:
    """Search the engine's fixed bench positions at a fixed depth; print nodes and speed."""
    with _user_errors():
        cls = _game_class(game)
        if depth is not None and depth < 1:
            raise RulesError(f"depth must be 1 or more, not {depth}")
        from ai.engine import Budget

        engine = _engine(cls.name)
        budget = engine.bench_budget
        if depth is not None:
            budget = replace(budget, max_depth=depth)
        positions = engine.bench_positions()
        engine.warm_up()  # compile or load the kernels outside the timing
        typer.echo(f"bench {cls.name}: {len(positions)} positions, depth {budget.max_depth}")
        total_nodes, total_time = 0, 0.0
        for i, start in enumerate(positions, 1):
            began = time.perf_counter()
            result = engine.search(start, budget)
            spent = time.perf_counter() - began
            total_nodes += result.nodes
            total_time += spent
            typer.echo(
                f"position {i:>2}/{len(positions)}  depth {result.depth:>2}  "
                f"best {result.move_text:<5} score {result.score:+6d}  "
                f"nodes {result.nodes:>12,}  {spent:7.3f} s  {_rate(result.nodes, spent):>12} n/s"
            )
        typer.echo("=" * 40)
        typer.echo(f"Total time (s) : {total_time:.3f}")
        typer.echo(f"Nodes searched : {total_nodes}")
        typer.echo(f"Nodes/second   : {round(total_nodes / total_time) if total_time else 0}")
        endgames, limit = engine.bench_endgames()
        if endgames:
            solved, slowest = 0, 0.0
            for start in endgames:
                result = engine.search(start, Budget(seconds=limit))
                slowest = max(slowest, result.seconds)
                solved += result.exact
            typer.echo(f"Exact endgames : {solved} of {len(endgames)} solved, slowest "
                       f"{slowest:.3f} s (limit {limit:g} s)")


# Set once a contest reply is out: the console script then skips interpreter
# teardown (Numba's takes about half a second), which would count against the clock.
_exit_now = [False]


def main() -> None:
    """The `arena` console script."""
    try:
        app()
    except SystemExit as done:
        if _exit_now[0]:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(done.code if isinstance(done.code, int) else 0)
        raise
