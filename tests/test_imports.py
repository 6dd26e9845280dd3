"""Import hygiene: the contest program never loads Textual, and neither `tui.cli` nor
`tui.play.contest` loads Textual or Numba on import (the engine is loaded only to search)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rules.pahtum import SAMPLE_BOARD

ROOT = Path(__file__).resolve().parents[1]


def python(code: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_importing_the_cli_loads_neither_textual_nor_numba() -> None:
    done = python(
        "import sys, tui.cli\n"
        "print(sorted(m for m in ('textual', 'numba', 'rich') if m in sys.modules))"
    )
    assert done.stdout.strip() == "[]"


def test_importing_the_contest_protocols_loads_neither_textual_nor_numba() -> None:
    done = python(
        "import sys, tui.play.contest\n"
        "print(sorted(m for m in ('textual', 'numba', 'rich', 'ai.engine') if m in sys.modules))"
    )
    assert done.stdout.strip() == "[]"


def test_the_move_command_never_imports_textual() -> None:
    # `main` ends the process with os._exit once the reply is out (no teardown, no
    # atexit), so the report is written from a wrapper around it.
    done = python(
        "import os, sys\n"
        "real_exit = os._exit\n"
        "def report(code):\n"
        "    loaded = [m for m in ('textual', 'numba') if m in sys.modules]\n"
        "    sys.stderr.write(f'loaded: {loaded}')\n"
        "    sys.stderr.flush()\n"
        "    real_exit(code)\n"
        "os._exit = report\n"
        "sys.argv = ['arena', 'move', 'pahtum', '--time', '0.5']\n"
        "from tui.cli import main\n"
        "main()\n",
        stdin=SAMPLE_BOARD,
    )
    assert len(done.stdout) == 56
    # numba when the kernels load in time; none when the process has been slowed so much
    # that 0.5 s is too short for them and the quick search answers (a busy machine)
    said = done.stderr.strip().rsplit("\n", 1)[-1]
    assert said in ("loaded: ['numba']", "loaded: []"), done.stderr


def test_version_and_help_load_neither_the_engine_nor_its_cache() -> None:
    done = python(
        "import sys\n"
        "from tui.cli import app\n"
        "for args in (['--version'], ['--help']):\n"
        "    try:\n"
        "        app(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted(m for m in ('textual', 'numba', 'ai') if m in sys.modules))"
    )
    assert done.stdout.startswith("arena ")
    assert done.stdout.strip().endswith("[]")
