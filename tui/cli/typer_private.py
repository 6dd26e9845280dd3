"""Typer's private API, in one place: the Click that Typer bundles (`typer._click`, since
Typer 0.26) and the group class its apps are built on (`typer.core.TyperGroup`). The CLI
subclasses the group to report usage errors in one line, and catches Click's exceptions,
which Typer does not re-export. Both can change in any Typer release, so outside the
tested range the CLI refuses to start, in one line, rather than fail inside Click.
"""

from __future__ import annotations

import typer

# The Typer versions the CLI was tested with (pyproject.toml bounds the same range).
TYPER_TESTED = ((0, 26), (0, 29))


class TyperVersionError(ImportError):
    """Typer is of a version whose private API the CLI was not tested with (one line)."""


def check_version(version: str) -> None:
    """TyperVersionError if `version` is outside the tested range."""
    try:
        found = tuple(int(part) for part in version.split(".")[:2])
    except ValueError:
        return  # a development build: let it try
    low, high = TYPER_TESTED
    if not low <= found <= high:
        raise TyperVersionError(
            f"Typer {version} is not one Arena was tested with ({'.'.join(map(str, low))} "
            f"to {'.'.join(map(str, high))}.x): install a version in that range")


check_version(typer.__version__)

from typer import _click as click  # noqa: E402  (the Click Typer bundles: its exceptions)
from typer.core import TyperCommand, TyperGroup  # noqa: E402

__all__ = ["TYPER_TESTED", "TyperCommand", "TyperGroup", "TyperVersionError", "check_version",
           "click"]
