"""The `arena` command: the app, and the headless contest, perft and bench commands.

Headless commands must start fast, so this module imports neither Textual nor
Numba: `play` and the bare `arena` import the app, and `move`, `perft` and
`bench` import the engines (Numba) only when they run. Every user error is one
line on stderr, `arena: error: ...`, with exit code 2 and nothing on stdout.
"""

from __future__ import annotations

import math
import os
import signal
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

from rules import DEFAULT_LEVEL, LEVELS, PlayerSpec, RulesError, TimeControl, game_names, get_game
from rules.base import COUNT_OPTION
from saves.format import SaveError
from tui import contest
from tui.console import (
    INTERRUPTED_EXIT,
    USAGE_EXIT,
    console,
    done_with_kernels,
    exit_now,
    finish,
    handle_signals,
    in_worker,
    jit_engine,
    one_line,
    quiet_stdout,
)
from tui.console import level as _level
from tui.console import seconds as _seconds

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
PLAYER_HELP = f"human, ai or ai:LEVEL ({', '.join(LEVELS)})"
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
                message += f" (see '{ctx.command_path} --help')"
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
        if spec.command is not None:  # a program that does not start is refused now
            from tui.programs import CommandError, parse_command

            try:
                parse_command(spec.command)
            except CommandError as err:
                raise RulesError(f"{flag}: {err}") from None
        players.append(spec)
    return players


# ----- play --------------------------------------------------------------------------


@app.command(short_help="Play a game in the terminal, against the AI or a person.")
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
    ] = DEFAULT_LEVEL,
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
    allow_programs: Annotated[
        bool,
        typer.Option("--allow-programs",
                     help="run the programs a --load file seats without asking (otherwise "
                     "the app shows their command lines and asks first)"),
    ] = False,
) -> None:
    """Play a game in the terminal (everything is checked before the board opens)."""
    with _user_errors():
        cls = _game_class(game)
        options = _options(cls, opt)
        players = _players(cls, player, x, o, _level(level), options)
        seed = _seed(cls, seed)
        control = (cls.offered_time_controls()[0] if clock is None
                   else TimeControl.parse(clock))
        cls.new(options, seed=seed)  # impossible combinations fail here, not in the UI
        if load is not None:
            from saves.store import load_position, saved_programs

            load_position(cls.name, load)
            programs = saved_programs(load)
            if programs and not allow_programs and not (_is_tty(sys.stdin)
                                                        and _is_tty(sys.stdout)):
                raise RulesError(
                    f"{load.name} seats programs that would run here ("
                    f"{'; '.join(programs)}): play it on a terminal, where Arena shows "
                    "their command lines and asks, or pass --allow-programs")
        folder = None
        if save_dir is not None:
            from saves.store import save_dir as make_save_dir

            folder = make_save_dir(save_dir)
    from tui.app import run

    code = run(
        game=cls.name,
        options=options,
        seed=seed,
        players=players,
        control=control,
        load=load,
        save_dir=folder,
        allow_programs=allow_programs,
    )
    if code:
        raise typer.Exit(code)


# ----- move: the contest program ----------------------------------------------------------


@app.command(short_help="The contest program: answer the jury in the game's protocol.")
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
        seconds = _seconds(time_limit)
        if sys.stdout is None:
            raise RulesError("standard output is closed: nowhere to write the reply")
        in_worker(lambda: contest.run(contest.Contest(
            game_class=cls,
            args=list(args or ()),
            level=chosen_level,
            time_limit=seconds,
            engine=lambda seconds: contest.contest_engine(cls.name, seconds,
                                                           lambda: jit_engine(cls.name)),
            stdin=sys.stdin,
            stdout=sys.stdout,
            age=contest.process_age,
        )))
    done_with_kernels()
    exit_now[0] = True


# ----- perft and bench ------------------------------------------------------------------


def _rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}" if seconds > 0 else "-"


@app.command(short_help="Count the leaf positions at each depth (the move-generator test).")
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
    joker: Annotated[
        bool, typer.Option("--joker", help="also count each move's joker ('!') twin while the "
                                           "mover may still claim (games with a joker)")
    ] = False,
    opt: Annotated[
        list[str] | None,
        typer.Option("--opt", metavar="NAME=VALUE", help=f"for a new game: {OPT_HELP}"),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(metavar="N", help="seed of a new game's random start [default: 0]"),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option("--players", metavar="N",
                     help="for a new game of a game for 2 or more players: how many play"),
    ] = None,
) -> None:
    """Count the leaf positions at each depth: the move-generator test."""
    with _user_errors():
        cls = _game_class(game)
        if depth < 1:
            raise RulesError(f"depth must be 1 or more, not {depth}")
        if joker and not cls.has_joker:
            raise RulesError(f"--joker: {cls.title} has no joker")
        options = _options(cls, opt)
        if players is not None:
            if not cls.takes_count():
                raise RulesError(f"--players: {cls.title} takes {_count(cls.player_count)}")
            if options.get(COUNT_OPTION, players) != players:
                raise RulesError(f"--players {players} and --opt {COUNT_OPTION}="
                                 f"{options[COUNT_OPTION]} disagree")
            options.update(cls.parse_options({COUNT_OPTION: players}))
        seed = _seed(cls, seed)
        if position is not None:
            if options or seed is not None:
                raise RulesError("--opt, --players and --seed apply to a new game, not to "
                                 "--position")
            from saves.store import load_position

            start = load_position(cls.name, position)
        else:
            start = cls.new(options, seed=0 if seed is None else seed)
        budget = REFERENCE_LEAVES if reference else PERFT_LEAVES
        _check_depth(depth, len(start.perft_moves(joker)), 1.0, budget, "leaves to count")
        if reference:
            from ai.perft import reference_perft

            def count(d: int) -> list[int]:
                return reference_perft(start.copy(), d, joker)

            source = "rules (reference)"
        else:
            engine = jit_engine(cls.name)
            in_worker(lambda: engine.perft(start, 1, joker))  # load the kernels before timing

            def count(d: int) -> list[int]:
                return engine.perft(start, d, joker)

            source = "engine kernels"
        twins = ", with the joker twins" if joker else ""
        _out(f"perft {cls.name} via {source}{twins}, position:")
        _out(start.to_native(), nl=False)
        _out(f"{'depth':>5} {'leaves':>16} {'seconds':>9} {'leaves/s':>14}")
        total_leaves, total_time = 0, 0.0
        for d in range(1, depth + 1):
            began = time.perf_counter()
            leaves = in_worker(lambda d=d: count(d))[d - 1]
            spent = time.perf_counter() - began
            total_leaves += leaves
            total_time += spent
            _out(f"{d:>5} {leaves:>16,} {spent:>9.3f} {_rate(leaves, spent):>14}")
        _out(f"total {total_leaves:>16,} {total_time:>9.3f} {_rate(total_leaves, total_time):>14}")


def _check_depth(depth: int, moves: int, power: float, budget: float, what: str) -> None:
    """Refuse up front a depth whose estimated work, moves^(depth*power), exceeds `budget`
    (moves: the branching factor of the position, from the game itself)."""
    per_ply = power * math.log10(max(moves, 2))
    deepest = max(1, min(MAX_DEPTH, math.floor(math.log10(budget) / per_ply)))
    if depth <= deepest:
        return
    if depth > MAX_DEPTH:
        raise RulesError(f"depth {contest.excerpt(str(depth))} is too deep to finish; "
                         f"the deepest here is {deepest}")
    raise RulesError(f"depth {depth} is too deep to finish (about 10^{depth * per_ply:.1f} "
                     f"{what}); the deepest here is {deepest}")


@app.command(short_help="Search the engine's fixed bench positions; print nodes and speed.")
def bench(
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    depth: Annotated[
        int | None,
        typer.Option(metavar="N", help="search depth [default: the engine's bench depth]"),
    ] = None,
    startup: Annotated[
        bool,
        typer.Option("--startup", help="time whole `arena move` processes instead: exec to "
                     "the first search, and the wall time for --time 0.25, 0.5 and 1"),
    ] = False,
    runs: Annotated[
        int, typer.Option(metavar="N", help="with --startup: processes for each --time")
    ] = 10,
) -> None:
    """Search the engine's fixed bench positions at a fixed depth; print nodes and speed.
    With --startup, time whole contest processes (`arena move GAME`) instead."""
    if startup:
        _bench_startup(game, runs, depth)
        return
    with _user_errors():
        cls = _game_class(game)
        if depth is not None and depth < 1:
            raise RulesError(f"depth must be 1 or more, not {depth}")
        if depth is not None:  # the branching of a new game stands for the bench's
            moves = len(cls.new(None, seed=0).legal_moves())
            _check_depth(depth, moves, 0.5, BENCH_NODES, "nodes to search")
        from ai.engine import Budget

        engine = jit_engine(cls.name)
        budget = engine.bench_budget
        if depth is not None:
            budget = replace(budget, max_depth=depth)
        positions = engine.bench_positions()
        in_worker(engine.warm_up)  # compile or load the kernels outside the timing
        _out(f"bench {cls.name}: {len(positions)} positions, depth {budget.max_depth}")
        total_nodes, total_time = 0, 0.0
        for i, start in enumerate(positions, 1):
            began = time.perf_counter()
            result = in_worker(lambda start=start: engine.search(start, budget))
            spent = time.perf_counter() - began
            total_nodes += result.nodes
            total_time += spent
            _out(
                f"position {i:>2}/{len(positions)}  depth {result.depth:>2}  "
                f"best {result.move_text:<5} score {result.score:+6d}  "
                f"nodes {result.nodes:>12,}  {spent:7.3f} s  {_rate(result.nodes, spent):>12} n/s"
            )
        _out("=" * 40)
        _out(f"Total time (s) : {total_time:.3f}")
        _out(f"Nodes searched : {total_nodes}")
        _out(f"Nodes/second   : {round(total_nodes / total_time) if total_time else 0}")
        endgames, limit = engine.bench_endgames()
        if endgames:
            solved, slowest, spent = 0, 0.0, 0.0
            for start in endgames:
                result = in_worker(
                    lambda start=start: engine.search(start, Budget(seconds=limit)))
                slowest = max(slowest, result.seconds)
                spent += result.seconds
                solved += result.exact
            _out(f"Exact endgames : {solved} of {len(endgames)} solved, mean "
                 f"{spent / len(endgames):.3f} s, slowest {slowest:.3f} s (limit {limit:g} s)")
    done_with_kernels()


def _bench_startup(game: str, runs: int, depth: int | None) -> None:
    from tui import startup

    with _user_errors():
        cls = _game_class(game)
        if depth is not None:
            raise RulesError("--depth and --startup do not go together")
        if runs < 1:
            raise RulesError(f"--runs must be 1 or more, not {runs}")
        position = jit_engine(cls.name).bench_positions()[0]
    _out(f"bench {cls.name} --startup: {runs} runs of `arena move {cls.name}` for each "
         f"--time ({', '.join(f'{t:g}' for t in startup.TIMES)}), load "
         f"{os.getloadavg()[0]:.2f}")

    def show(run: startup.Run) -> None:
        first = "-" if run.start_up is None else f"{run.start_up:.3f} s"
        _out(f"--time {run.seconds:g}: start-up {first}, wall {run.wall:.3f} s, "
             f"{run.engine} kernels{'' if run.ok else ' FAILED: ' + run.error}")

    report = in_worker(lambda: startup.measure(position, runs, progress=show))
    for line in startup.summary(report):
        _out(line)


# ----- prepare: compile ahead of time -----------------------------------------------------


@app.command(short_help="Compile the AI's kernels ahead of time (once, before contests).")
def prepare(
    games: Annotated[
        list[str] | None,
        typer.Argument(metavar="GAME", help=f"{GAME_HELP} [default: all of them]"),
    ] = None,
) -> None:
    """Compile the games' AI kernels now, into native modules in the user cache: the
    contest program (`arena move`) then starts in a fraction of a second, and the app's
    AI is ready at once. A game already prepared is skipped."""
    from ai import native
    from tui import prepare as work

    with _user_errors():
        names = [_game_class(g).name for g in games or game_names()]
    failures = 0
    for name in dict.fromkeys(names):
        estimate = native.estimate(name)
        outcome = in_worker(lambda name=name, estimate=estimate: _prepare_one(
            work, name, estimate))
        if outcome.error:
            failures += 1
            _say(f"{name}: the native module could not be built ({outcome.error}); its "
                 "JIT kernels are compiled, and Arena uses them")
        elif outcome.built:
            _out(f"{name}: ready, built in {outcome.seconds:.1f} s")
        else:
            _out(f"{name}: ready (already built)")
    if failures:
        raise typer.Exit(1)


def _prepare_one(work: Any, name: str, estimate: float) -> Any:
    """One game's build with a progress bar on a terminal (lines otherwise)."""
    if not _is_tty(sys.stdout):
        return work.prepare(name, lambda line: _out(f"{name}: {line}"))
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description:<8}"), BarColumn(),
               TextColumn("{task.fields[step]}"), TimeRemainingColumn())
    with Progress(*columns, transient=False) as bar:
        task = bar.add_task(name, total=estimate, step="starting")
        began = time.monotonic()
        stop = [False]

        def tick() -> None:
            while not stop[0]:
                bar.update(task, completed=min(time.monotonic() - began, estimate * 0.99))
                time.sleep(0.2)

        import threading

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
        try:
            outcome = work.prepare(name, lambda line: bar.update(task, step=line[:40]))
        finally:
            stop[0] = True
            ticker.join()
        bar.update(task, completed=estimate, step="done" if not outcome.error else "failed")
    return outcome


# ----- match: AI levels and contest programs play each other ------------------------------


def _match_players(cls: type[Game], given: list[str], options: dict[str, Any]
                   ) -> list[PlayerSpec]:
    """The match's players (ai:LEVEL or prog:COMMAND, each command checked to start); a
    game that takes the player count gets it into `options`."""
    from tui.programs import CommandError, parse_command

    low, high = cls.player_count
    count = len(given)
    if count < 2:
        raise RulesError(f"a match needs two players or more, not {count}")
    if cls.takes_count():
        if not low <= count <= high:
            raise RulesError(f"{cls.title} takes {_count(cls.player_count)}, not {count}")
        if options.get(COUNT_OPTION, count) != count:
            raise RulesError(f"--opt {COUNT_OPTION}={options[COUNT_OPTION]} but {count} "
                             "players are given")
        options[COUNT_OPTION] = count
    players = []
    for i, text in enumerate(given, 1):
        try:
            spec = PlayerSpec.parse(text)
            if spec.is_human:
                raise RulesError("a match has no people: use ai:LEVEL or prog:COMMAND")
            if spec.command is not None:
                parse_command(spec.command)
        except (RulesError, CommandError) as err:
            raise RulesError(f"player {i}: {err}") from None
        players.append(spec)
    return players


@app.command(short_help="A match of AI levels and contest programs; the table at the end.")
def match(
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    players: Annotated[
        list[str],
        typer.Argument(metavar="PLAYER",
                       help=f"ai:LEVEL ({', '.join(LEVELS)}) or 'prog:COMMAND' (a contest "
                       "program's command line, quoted); more than two make a round robin "
                       "(a game for more than two seats them all in every game)"),
    ],
    games: Annotated[
        int,
        typer.Option("-n", "--games", metavar="GAMES",
                     help="games a pairing, each start played twice, colours swapped (an "
                     "odd number plays its last start once; a game seating them all: rounded "
                     "up to a multiple of the players, each start played from every seat)"),
    ] = 2,
    seed: Annotated[
        int | None,
        typer.Option(metavar="N", help="seed of the starts [default: random, printed]"),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", metavar="J", help="games played at once")
    ] = 1,
    time_scale: Annotated[
        float,
        typer.Option("--time-scale", metavar="F",
                     help="the game's contest clock times F (e.g. 0.1 for fast games)"),
    ] = 1.0,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="DIR",
                     help="write every finished game there as a save (match-001.arena.json)"),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="print one JSON document instead of the table")
    ] = False,
    opt: Annotated[
        list[str] | None, typer.Option("--opt", metavar="NAME=VALUE", help=OPT_HELP)
    ] = None,
) -> None:
    """Play a match: AI levels and contest programs (Arena is the jury, enforcing the
    game's contest clock), games in parallel with --jobs; progress on stderr, the table
    (wins, draws, losses, points, faults; the Elo difference of two players, the
    crosstable of a round robin) on stdout. Ctrl-C stops it and prints the table so far."""
    from tui import match as runner
    from tui import match_report as report

    with _user_errors():
        cls = _game_class(game)
        options = _options(cls, opt)
        specs = _match_players(cls, players, options)
        if games < 1:
            raise RulesError(f"-n must be 1 or more games, not {games}")
        if jobs < 1:
            raise RulesError(f"--jobs must be 1 or more, not {jobs}")
        if not 0 < time_scale < math.inf:
            raise RulesError(f"--time-scale must be a number above 0, not {time_scale}")
        control = runner.scaled_clock(cls, time_scale)
        chosen = seed
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big") >> 1
        cls.new(options, seed=seed)  # impossible combinations fail here
        tasks = runner.plan(cls, options, len(specs), games, seed)
        per = runner.games_per_pairing(cls, len(specs), games)
        folder = None if out is None else runner.out_folder(out)
        entrants = runner.entrants(specs, players)
        if chosen is None:  # notices once the input is known to be good
            _say(f"seed {seed} (--seed {seed} plays the same starts)")
        if per != games:
            _say(f"-n {games} rounded up to {per}: each start is played from every seat")
        if any(spec.is_ai for spec in specs):
            in_worker(jit_engine(cls.name).warm_up)  # compile or load before any clock runs
        from ai.engine import new_engine

        progress = report.Progress(sys.stderr, _is_tty(sys.stderr), _columns())
        work = runner.Match(cls, options, entrants, tasks, control, seed, per, jobs, folder,
                            engine=lambda: new_engine(cls.name), progress=progress)
        result = work.run()
    if result.interrupted and console[0]:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the table is printed whatever comes
        _say("interrupted: the games finished so far")
    _out(report.dumps(result) if as_json else report.report(result))
    done_with_kernels()
    if result.interrupted:
        if console[0]:
            exit_now[0] = True
        raise typer.Exit(INTERRUPTED_EXIT)


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (OSError, ValueError, AttributeError):
        return False


def _columns() -> int:
    import shutil

    return shutil.get_terminal_size((80, 24)).columns


def main() -> None:
    """The `arena` console script (through `tui.launch`, which answers `arena move` on
    its own fast path)."""
    handle_signals()
    try:
        app()
    except SystemExit as done:
        finish(done.code if isinstance(done.code, int) else 0)
