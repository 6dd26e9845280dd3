"""`arena move` through the full CLI (`tui.cli` answers a plain one without it): the
contest program, in the game's own protocol."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

import tui.cli.console as console
from rules import RulesError, codec_of, game_names, get_game
from tui.cli.common import (
    GAME_HELP,
    LEVEL_HELP,
    _game_class,
    _user_errors,
    app,
)
from tui.cli.console import done_with_kernels, exit_now, in_worker
from tui.cli.console import level as _level
from tui.cli.console import seconds as _seconds
from tui.play import contest

if TYPE_CHECKING:
    pass


# ----- move: the contest program ----------------------------------------------------------


def _args_help() -> str:
    """What each game's contest program takes, from its codec."""
    said = [f"for {name} {codec_of(get_game(name)).args_help}" for name in game_names()
            if codec_of(get_game(name)).args_help]
    return f"what the game's contest program takes: {'; '.join(said)}; for the others nothing"



@app.command(short_help="The contest program: answer the jury in the game's protocol.")
def move(
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    args: Annotated[
        list[str] | None,
        typer.Argument(metavar="ARGS",
                       help=_args_help()),
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
            codec=codec_of(cls),
            args=list(args or ()),
            level=chosen_level,
            time_limit=seconds,
            engine=lambda seconds: contest.contest_engine(cls.name, seconds,
                                                           lambda: console.jit_engine(cls.name)),
            stdin=sys.stdin,
            stdout=sys.stdout,
            age=contest.process_age,
        )))
    done_with_kernels()
    exit_now[0] = True


# ----- perft and bench ------------------------------------------------------------------
