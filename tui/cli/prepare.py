"""`arena prepare`: the AI's kernels compiled ahead of time, with a progress bar."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rules import game_names
from tui.cli.common import (
    GAME_HELP,
    _game_class,
    _out,
    _say,
    _user_errors,
    app,
)
from tui.cli.console import in_worker
from tui.terminal import is_tty

if TYPE_CHECKING:
    pass


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
    from tui.play import prepare as work

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
    if not is_tty(sys.stdout):
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
