"""`arena play`: a game in the terminal (the app), everything checked before it opens."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rules import DEFAULT_LEVEL, RulesError, TimeControl
from tui.cli.common import (
    GAME_HELP,
    LEVEL_HELP,
    OPT_HELP,
    PLAYER_HELP,
    _game_class,
    _options,
    _path,
    _players,
    _seed,
    _user_errors,
    app,
)
from tui.cli.console import level as _level
from tui.cli.typer_private import click
from tui.terminal import is_tty

if TYPE_CHECKING:
    pass


# ----- play --------------------------------------------------------------------------


@app.command(short_help="Play a game in the terminal, against the AI or a person.")
def play(
    ctx: typer.Context,
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
                     help="two-player games: who takes the first seat, a SPEC as for "
                     "--player [default: human]"),
    ] = None,
    o: Annotated[
        str | None,
        typer.Option("--o", metavar="SPEC",
                     help="two-player games: who takes the second seat, a SPEC as for "
                     "--player [default: ai]"),
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
    load_text: Annotated[
        str | None,
        typer.Option("--load", metavar="FILE",
                     help="a save, game record or native position file to start from; "
                     "it sets the board and the clock (so no --opt, --seed or --clock with "
                     "it), a save or record also its players (a finished record opens as a "
                     "replay)"),
    ] = None,
    save_dir: Annotated[str | None, typer.Option(metavar="DIR", help="where saves go")] = None,
    allow_programs: Annotated[
        bool,
        typer.Option("--allow-programs",
                     help="run the programs a --load file seats without asking (otherwise "
                     "the app shows their command lines and asks first)"),
    ] = False,
) -> None:
    """Play a game in the terminal (everything is checked before the board opens).
    With --load the file sets up the game: --opt, --seed and --clock are refused with it,
    and so are the players of a save (a native position takes the players given)."""
    with _user_errors():
        cls = _game_class(game)
        options = _options(cls, opt)
        players = _players(cls, player, x, o, _level(level), options)
        seed = _seed(cls, seed)
        control = (cls.offered_time_controls()[0] if clock is None
                   else TimeControl.parse(clock))
        cls.new(options, seed=seed)  # impossible combinations fail here, not in the UI
        load = _path(load_text, "--load")
        if load is not None:
            from saves.store import is_save, load_position, saved_programs

            load_position(cls.name, load)
            _check_load(ctx, load, is_save(load))
            programs = saved_programs(load)
            # the app asks before it runs them, and it opens only on a terminal (keys
            # from stdin, the board on stderr: `tui.terminal`)
            if programs and not allow_programs and not (is_tty(sys.stdin)
                                                        and is_tty(sys.stderr)):
                raise RulesError(
                    f"{load.name} seats programs that would run here ("
                    f"{'; '.join(programs)}): play it on a terminal, where Arena shows "
                    "their command lines and asks first (--allow-programs runs them "
                    "without asking)")
        save_path = _path(save_dir, "--save-dir")
        folder = None if save_path is None else _save_folder(save_path)
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


# What a loaded file decides instead of the command line: every file its position (so
# its options and seed) and its clock (a save's own, a position's from its format or
# the game's usual one); a save also its players.
NEW_GAME_ONLY = (("opt", "--opt"), ("seed", "--seed"), ("clock", "--clock"))
SAVE_DECIDES = (("player", "--player"), ("x", "--x"), ("o", "--o"), ("level", "--level"))


def _given(ctx: typer.Context, names: tuple[tuple[str, str], ...]) -> list[str]:
    """The flags among `names` given on the command line (not left at their defaults)."""
    default = click.core.ParameterSource.DEFAULT
    return [flag for name, flag in names
            if ctx.get_parameter_source(name) not in (None, default)]


def _check_load(ctx: typer.Context, load: Path, save: bool) -> None:
    """Refuse what --load would silently overrule (one line naming the flags)."""
    what = "save" if save else "position"
    given = _given(ctx, NEW_GAME_ONLY)
    if given:
        raise RulesError(f"{_flags(given)} {'applies' if len(given) == 1 else 'apply'} to a "
                         f"new game, not to --load: the {what} in {load.name} decides the "
                         "board and the clock")
    given = _given(ctx, SAVE_DECIDES) if save else []
    if given:
        raise RulesError(f"{_flags(given)} {'seats' if len(given) == 1 else 'seat'} players "
                         f"in a new game or a loaded position, not a save: {load.name} seats "
                         "its own")


def _flags(flags: list[str]) -> str:
    return flags[0] if len(flags) == 1 else f"{', '.join(flags[:-1])} and {flags[-1]}"


def _save_folder(path: Path) -> Path:
    """--save-dir: the folder, made if missing; one line naming it otherwise."""
    from saves.store import save_dir as make_save_dir

    folder = path.expanduser()
    if folder.exists() and not folder.is_dir():
        raise RulesError(f"--save-dir {folder} is a file, not a folder")
    try:
        return make_save_dir(folder)
    except OSError as err:
        raise RulesError(f"--save-dir {folder}: cannot make the folder: "
                         f"{err.strerror or err}") from None
