"""The repository's static checks, in the test run: ruff finds nothing, and the import
contracts of pyproject.toml ([tool.importlinter]) hold. What is loaded at run time is
tests/test_imports.py's to check: contracts see the source, not the process."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tool(name: str) -> str:
    """The console script installed beside this Python (the test extra's), else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.is_file() else shutil.which(name)
    assert found, f"{name} is not installed: pip install -e '.[test]'"
    return found


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_finds_nothing() -> None:
    done = run(tool("ruff"), "check", "--no-cache", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_the_import_contracts_hold() -> None:
    done = run(tool("lint-imports"), "--no-cache", "--no-logo")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout and " broken" in done.stdout
