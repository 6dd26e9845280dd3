"""The libraries whose private API Arena uses: each behind one module with a version check
(numba: ai/jit.py; typer: tui/cli/typer_private.py; textual, for the tests' idle patch:
tests/conftest.py), the checks' ranges the same as pyproject.toml's upper bounds, and the
installed versions inside them."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numba
import pytest
import textual
import typer

from ai import jit
from tests.conftest import TEXTUAL_TESTED
from tui.cli import typer_private

ROOT = Path(__file__).resolve().parents[1]
CHECKED = {"numba": jit.NUMBA_TESTED, "typer": typer_private.TYPER_TESTED,
           "textual": TEXTUAL_TESTED}


def upper_bounds() -> dict[str, tuple[int, int]]:
    """name -> (major, minor) of each `<X.Y` bound among the runtime dependencies."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = {}
    for spec in project["dependencies"]:
        if match := re.fullmatch(r"([a-z-]+)>=[\d.]+,<(\d+)\.(\d+)", spec):
            found[match[1]] = (int(match[2]), int(match[3]))
    return found


def test_every_checked_library_is_bounded_just_above_its_tested_range() -> None:
    bounds = upper_bounds()
    assert set(bounds) == set(CHECKED)
    for name, (low, high) in CHECKED.items():
        assert bounds[name] == (high[0], high[1] + 1), name
        assert low < high


def test_the_installed_versions_are_the_tested_ones() -> None:
    jit.check_version(numba.__version__)
    typer_private.check_version(typer.__version__)
    low, high = TEXTUAL_TESTED
    assert low <= tuple(int(p) for p in textual.__version__.split(".")[:2]) <= high


@pytest.mark.parametrize("version", ["0.25.0", "0.30.0", "1.0.0"])
def test_a_typer_outside_the_range_is_refused(version: str) -> None:
    with pytest.raises(typer_private.TyperVersionError, match=rf"Typer {version} is not"):
        typer_private.check_version(version)


def test_the_cli_says_so_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, typer\ntyper.__version__ = '0.25.0'\n"
         "sys.argv = ['arena', '--help']\nfrom tui.cli import main\nmain()\n"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("arena: error: Typer 0.25.0 is not one Arena was tested")
    assert len(done.stderr.splitlines()) == 1
