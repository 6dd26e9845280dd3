"""The full `arena` CLI: every command registered on the Typer app, and its `main`.

`tui.cli.main` answers a plain `arena move` on its own fast path and comes here for the
rest.
"""

from __future__ import annotations

# the commands, each registering itself on `app`, in the order `--help` lists them
# isort: off
import tui.cli.play  # noqa: F401
import tui.cli.move  # noqa: F401
import tui.cli.perft  # noqa: F401
import tui.cli.bench  # noqa: F401
import tui.cli.prepare  # noqa: F401
import tui.cli.match  # noqa: F401
import tui.cli.record  # noqa: F401
# isort: on
from tui.cli.common import app
from tui.cli.console import finish, handle_signals

__all__ = ["app", "main"]


def main() -> None:
    """The full CLI, its exit codes and signals as the console script's."""
    handle_signals()
    try:
        app()
    except SystemExit as done:
        finish(done.code if isinstance(done.code, int) else 0)


