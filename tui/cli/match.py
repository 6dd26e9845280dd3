"""`arena match`: AI levels and contest programs play each other; the table at the end."""

from __future__ import annotations

import math
import os
import signal
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

import tui.cli.console as console
from rules import PlayerSpec, RulesError, TimeControl
from rules.base import COUNT_OPTION
from tui.cli.common import (
    GAME_HELP,
    MATCH_PLAYER_HELP,
    OPT_HELP,
    _columns,
    _count,
    _game_class,
    _options,
    _out,
    _path,
    _say,
    _user_errors,
    app,
    check_player,
)
from tui.cli.console import INTERRUPTED_EXIT, done_with_kernels, exit_now, in_worker
from tui.terminal import is_tty

if TYPE_CHECKING:
    from rules import Game


# ----- match: AI levels and contest programs play each other ------------------------------


def _match_players(cls: type[Game], given: list[str], options: dict[str, Any]
                   ) -> list[PlayerSpec]:
    """The match's players (ai:LEVEL or prog:COMMAND, each command checked to start); a
    game that takes the player count gets it into `options`."""
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
                raise RulesError("a match has no people: use ai:LEVEL, ai:LEVEL@SECONDS, "
                                 "prog:COMMAND, random, greedy or rev:REV:LEVEL")
            check_player(spec)
        except RulesError as err:
            raise RulesError(f"player {i}: {err}") from None
        players.append(spec)
    return players


@app.command(short_help="A match of AI levels and contest programs; the table at the end.")
def match(
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    players: Annotated[
        list[str],
        typer.Argument(metavar="PLAYER",
                       help=f"{MATCH_PLAYER_HELP}; more than two make a round robin (a "
                       "game for more than two seats them all in every game)"),
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
    clock: Annotated[
        str | None,
        typer.Option(metavar="CLOCK", help="none, move:SECONDS or game:SECONDS instead of the "
                     "contest's clock (none: each AI takes its level's time, as a strength "
                     "run does)"),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option("--out", metavar="DIR",
                     help="write every finished game there as a save (match-001.arena.json) "
                     "and a game record beside it (match-001.arena.txt)"),
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
    from tui.play import match as runner
    from tui.play import match_report as report

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
        if clock is not None and time_scale != 1.0:
            raise RulesError("give --clock or --time-scale, not both")
        control = (runner.scaled_clock(cls, time_scale) if clock is None
                   else TimeControl.parse(clock))
        chosen = seed
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big") >> 1
        cls.new(options, seed=seed)  # impossible combinations fail here
        tasks = runner.plan(cls, options, len(specs), games, seed)
        per = runner.games_per_pairing(cls, len(specs), games)
        out_path = _path(out, "--out")
        folder = None if out_path is None else runner.out_folder(out_path)
        entrants = runner.entrants(specs, players)
        if chosen is None:  # notices once the input is known to be good
            _say(f"seed {seed} (--seed {seed} plays the same starts)")
        if per != games:
            _say(f"-n {games} rounded up to {per}: each start is played from every seat")
        if any(spec.is_ai for spec in specs):  # compile or load before any clock runs
            in_worker(console.jit_engine(cls.name).warm_up)
        for rev in dict.fromkeys(p.revision for p in specs if p.revision is not None):
            from ai import revision

            in_worker(revision.new_engine(rev, cls.name, tt_bits=10).warm_up)
        from ai.engine import new_engine

        progress = report.Progress(sys.stderr, is_tty(sys.stderr), _columns())
        work = runner.Match(cls, options, entrants, tasks, control, seed, per, jobs, folder,
                            engine=lambda: new_engine(cls.name), progress=progress)
        result = work.run()
    if result.interrupted and console.console_script[0]:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the table is printed whatever comes
        _say("interrupted: the games finished so far")
    _out(report.dumps(result) if as_json else report.report(result))
    done_with_kernels()
    if result.interrupted:
        if console.console_script[0]:
            exit_now[0] = True
        raise typer.Exit(INTERRUPTED_EXIT)
