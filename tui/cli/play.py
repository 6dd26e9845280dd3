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
    _is_tty,
    _options,
    _players,
    _seed,
    _user_errors,
    app,
)
from tui.cli.console import level as _level

if TYPE_CHECKING:
    pass


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
