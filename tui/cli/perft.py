"""`arena perft`: count the leaf positions at each depth (the move-generator test)."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Annotated

import typer

import tui.cli.console as console
from rules import RulesError
from rules.base import COUNT_OPTION
from tui.cli.common import (
    GAME_HELP,
    MAX_DEPTH,
    OPT_HELP,
    PERFT_LEAVES,
    REFERENCE_LEAVES,
    _count,
    _game_class,
    _options,
    _out,
    _path,
    _seed,
    _user_errors,
    app,
    number_command,
    whole_number,
)
from tui.cli.console import in_worker
from tui.play import contest

if TYPE_CHECKING:
    pass


def _rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}" if seconds > 0 else "-"


@app.command(cls=number_command("depth"),
             short_help="Count the leaf positions at each depth (the move-generator test).")
def perft(
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    depth: Annotated[
        int, typer.Argument(metavar="DEPTH", help="count move sequences up to this many moves")
    ],
    position: Annotated[
        str | None,
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
            raise RulesError(whole_number("depth", depth))
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
        path = _path(position, "--position")
        if path is not None:
            if options or seed is not None:
                raise RulesError("--opt, --players and --seed apply to a new game, not to "
                                 "--position")
            from saves.store import load_position

            start = load_position(cls.name, path)
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
            engine = console.jit_engine(cls.name)
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
