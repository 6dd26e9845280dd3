"""`arena bench`: the engine's fixed positions searched at a fixed depth, or with
`--startup` whole `arena move` processes timed from outside."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

import typer

import tui.cli.console as console
from rules import RulesError
from tui.cli.common import (
    BENCH_NODES,
    GAME_HELP,
    _game_class,
    _out,
    _user_errors,
    app,
    whole_number,
)
from tui.cli.console import done_with_kernels, in_worker
from tui.cli.perft import _check_depth, _rate

if TYPE_CHECKING:
    from rules import Game

STARTUP_RUNS = 10  # --startup's processes for each --time


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
        int | None,
        typer.Option(metavar="N", help="with --startup: processes for each --time "
                     f"[default: {STARTUP_RUNS}]"),
    ] = None,
) -> None:
    """Search the engine's fixed bench positions at a fixed depth; print nodes and speed.
    With --startup, time whole contest processes (`arena move GAME`) instead."""
    if startup:
        _bench_startup(game, STARTUP_RUNS if runs is None else runs, depth)
        return
    with _user_errors():
        cls = _game_class(game)
        if runs is not None:
            raise RulesError("--runs goes with --startup: it counts the processes timed "
                             "for each --time")
        if depth is not None and depth < 1:
            raise RulesError(whole_number("--depth", depth))
        if depth is not None:  # the branching of a new game stands for the bench's
            moves = len(cls.new(None, seed=0).legal_moves())
            _check_depth(depth, moves, 0.5, BENCH_NODES, "nodes to search")
        from ai.engine import Budget

        engine = console.jit_engine(cls.name)
        budget = engine.bench_budget
        if depth is not None:
            budget = replace(budget, max_depth=depth)
        positions = engine.bench_positions()
        width = move_width(cls, positions)
        in_worker(engine.warm_up)  # compile or load the kernels outside the timing
        _out(f"bench {cls.name}: {len(positions)} positions, depth {budget.max_depth}")
        total_nodes, total_time = 0, 0.0
        for i, start in enumerate(positions, 1):
            began = time.perf_counter()
            result = in_worker(lambda start=start: engine.search(start, budget))
            spent = time.perf_counter() - began
            total_nodes += result.nodes
            total_time += spent
            _out(position_line(i, len(positions), result, spent, width))
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


def move_width(cls: type[Game], positions: Sequence[Game]) -> int:
    """The widest best move the positions can print: the longest text of a legal move
    there (a joker's `!` included), so the columns after it line up."""
    texts = {start.move_text(move) for start in positions for move in start.legal_moves()}
    joker = 1 if cls.has_joker else 0
    return max((len(text) + (joker if text[:1] != "!" else 0) for text in texts), default=1)


def position_line(i: int, count: int, result: Any, spent: float, width: int) -> str:
    """One bench position's line; its columns are two spaces apart, so that a move with a
    space in it (`c1 c5`) never runs into the next column."""
    return (f"position {i:>2}/{count}  depth {result.depth:>2}  "
            f"best {result.move_text:<{width}}  score {result.score:+6d}  "
            f"nodes {result.nodes:>12,}  {spent:7.3f} s  {_rate(result.nodes, spent):>12} n/s")


def _bench_startup(game: str, runs: int, depth: int | None) -> None:
    from tui.play import startup

    with _user_errors():
        cls = _game_class(game)
        if depth is not None:
            raise RulesError("--depth and --startup do not go together")
        if runs < 1:
            raise RulesError(whole_number("--runs", runs))
        position = console.jit_engine(cls.name).bench_positions()[0]
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
