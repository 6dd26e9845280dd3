"""Whether this process has a terminal: the app's keys come from stdin and Textual draws
on stderr, so both must be one. Shared by the app and the CLI (neither imports the
other's side)."""

from __future__ import annotations

import sys
from typing import Any


def is_tty(stream: Any) -> bool:
    """Whether `stream` is a terminal (a closed or missing one is not)."""
    try:
        return bool(stream is not None and stream.isatty())
    except (OSError, ValueError, AttributeError):
        return False


def terminal_problem() -> str | None:
    """Why the app cannot open in this process, or None. Without a terminal on both stdin
    and stderr it would draw into a file or wait for keys that never come, until
    killed."""
    for name, role in (("stdin", "the keys come from it"), ("stderr", "the board is drawn on it")):
        if not is_tty(getattr(sys, f"__{name}__")):
            return f"the game needs a terminal, and {name} is not one ({role})"
    return None
