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

from rules import LEVELS, PlayerSpec, RulesError, TimeControl, game_names, get_game
from saves.format import SaveError
from tui import contest

if TYPE_CHECKING:
    from ai.engine import Engine
    from rules import Game

USAGE_EXIT = 2
GAME_HELP = f"the game: {', '.join(game_names())}"
LEVEL_HELP = f"AI level: {', '.join(LEVELS)}"
PLAYER_HELP = f"human, ai or ai:LEVEL ({', '.join(LEVELS)})"
OPT_HELP = "a game option, e.g. size=7 (repeatable; a wrong name lists the game's options)"


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
    help="Arena: classic contest board games in the terminal, with a strong AI. "
    f"Games: {', '.join(game_names())}.",
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


def _options(cls: type[Game], given: list[str] | None) -> dict[str, Any]:
    """`--opt NAME=VALUE` pairs, checked by the game's own option specs."""
    raw: dict[str, str] = {}
    for item in given or []:
        name, sep, value = item.partition("=")
        name = name.strip().lower()
        if not sep or not name:
            raise RulesError(f"--opt takes NAME=VALUE, not {item!r}")
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
             level: str) -> list[PlayerSpec]:
    """One spec per seat, in seat order: `--player` repeated, or the `--x`/`--o`
    shorthands of a two-player game, or by default a person against the AI."""
    low, high = cls.player_count
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
        texts = [("--player", "human")] + [("--player", "ai")] * (low - 1)
    if not low <= len(texts) <= high:
        raise RulesError(f"{cls.title} takes {_count(cls.player_count)}, not {len(texts)} "
                         "(give --player once per seat)")
    players = []
    for flag, text in texts:
        try:
            players.append(PlayerSpec.parse(text, level))
        except RulesError as err:
            raise RulesError(f"{flag}: {err}") from None
    return players


def _engine(name: str) -> Engine:
    """The game's engine; says on stderr when its kernels must first be compiled."""
    from ai.numba_cache import is_compiled

    if not is_compiled(name):
        typer.echo(f"arena: compiling the {name} AI kernels: a one-time cost of about "
                   "10-30 s, cached for later runs", err=True)
    from ai.engine import get_engine

    return get_engine(name)


# ----- play --------------------------------------------------------------------------


@app.command()
def play(
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    player: Annotated[
        list[str] | None,
        typer.Option("--player", metavar="SPEC",
                     help=f"one per seat, in seat order: {PLAYER_HELP} "
                     "[default: you against the AI]"),
    ] = None,
    x: Annotated[
        str | None,
        typer.Option("--x", metavar="SPEC",
                     help=f"two-player games: who takes the first seat: {PLAYER_HELP} "
                     "[default: human]"),
    ] = None,
    o: Annotated[
        str | None,
        typer.Option("--o", metavar="SPEC",
                     help=f"two-player games: who takes the second seat: {PLAYER_HELP} "
                     "[default: ai]"),
    ] = None,
    level: Annotated[
        str, typer.Option(metavar="LEVEL", help=f"{LEVEL_HELP}, for players given as ai")
    ] = "hard",
    seed: Annotated[
        int | None, typer.Option(metavar="N", help="seed of a random start (games that have one)")
    ] = None,
    opt: Annotated[
        list[str] | None, typer.Option("--opt", metavar="NAME=VALUE", help=OPT_HELP)
    ] = None,
    clock: Annotated[
        str | None,
        typer.Option(metavar="CLOCK", help="none, move:SECONDS or game:SECONDS "
                     "[default: the game's usual clock]"),
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
        players = _players(cls, player, x, o, _level(level))
        options = _options(cls, opt)
        seed = _seed(cls, seed)
        control = (cls.offered_time_controls()[0] if clock is None
                   else TimeControl.parse(clock))
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
        players=players,
        control=control,
        load=load,
        save_dir=folder,
    )


# ----- move: the contest program ----------------------------------------------------------


@app.command()
def move(
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    args: Annotated[
        list[str] | None,
        typer.Argument(metavar="ARGS",
                       help="what the game's contest program takes: a position file's "
                       "path, a mark, or nothing"),
    ] = None,
    level: Annotated[str, typer.Option(metavar="LEVEL", help=LEVEL_HELP)] = "max",
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time",
            metavar="SECONDS",
            help="wall-clock seconds for each move, start-up included "
            "[default: from the game's contest clock]",
        ),
    ] = None,
) -> None:
    """The contest program: answer the jury in the game's own protocol (a position on
    stdin, a position file, or a whole game of lines on stdin and stdout)."""
    with _user_errors():
        cls = _game_class(game)
        chosen_level = _level(level)
        if time_limit is not None and not 0 < time_limit < math.inf:
            raise RulesError(f"--time must be a number of seconds above 0, not {time_limit}")
        contest.run(contest.Contest(
            game_class=cls,
            args=list(args or ()),
            level=chosen_level,
            time_limit=time_limit,
            engine=lambda: _engine(cls.name),
            stdin=sys.stdin,
            stdout=sys.stdout,
            age=contest.process_age,
        ))
    _exit_now[0] = True


# ----- perft and bench ------------------------------------------------------------------


def _rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}" if seconds > 0 else "-"


@app.command()
def perft(
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
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
    opt: Annotated[
        list[str] | None,
        typer.Option("--opt", metavar="NAME=VALUE", help=f"for a new game: {OPT_HELP}"),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(metavar="N", help="seed of a new game's random start [default: 0]"),
    ] = None,
) -> None:
    """Count the leaf positions at each depth: the move-generator test."""
    with _user_errors():
        cls = _game_class(game)
        if depth < 1:
            raise RulesError(f"depth must be 1 or more, not {depth}")
        options = _options(cls, opt)
        seed = _seed(cls, seed)
        if position is not None:
            if options or seed is not None:
                raise RulesError("--opt and --seed apply to a new game, not to --position")
            from saves.store import load_position

            start = load_position(cls.name, position)
        else:
            start = cls.new(options, seed=0 if seed is None else seed)
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
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
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
