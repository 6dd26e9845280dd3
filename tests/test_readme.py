"""Every example command of the README works in a clone: the files it names are in the
repository (docs/positions, docs/rules.md), and each command runs.

`arena play` opens the app, so its examples are checked up to the app's door (the
command's checks, with the app replaced by a recorder); `arena move` examples run for
real with a short `--time` (the contest's clock would take seconds a move); `perft` runs
as written. The bot writers' examples name the reader's own programs: they run with the
project's scripted bot in their place. `arena match` examples are slow (whole matches)
and run with `-m slow`.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BOT = f"{sys.executable} {ROOT / 'tests' / 'programs' / 'bot.py'}"
# the reader's own programs in the examples, and the scripted bot playing their part
OWN = {"python3 bots/mine.py": "{bot} {game} random", "./mybot": "{bot} {game} random",
       "./boxer": "{bot} {game} random", "./bot1": "{bot} {game} random",
       "./bot2": "{bot} {game} random"}


def example_lines() -> list[str]:
    """The README's indented command lines that start with `arena`, `printf` or `cat`,
    without their comments (a synopsis line, with its capitals, is not an example)."""
    lines = []
    for raw in README.splitlines():
        if not raw.startswith("    ") or raw.startswith("     "):
            continue
        line = raw.strip().split("  #")[0].strip()
        if not re.match(r"(arena|printf|cat) ", line) or re.search(r"\b[A-Z]{3,}\b", line):
            continue
        if re.search(r"\S {3,}\S", line):  # the synopsis: a command and what it does
            continue
        lines.append(line)
    return lines


def own_programs(line: str) -> str:
    game = line.split()[2] if len(line.split()) > 2 else ""
    for name, stand_in in OWN.items():
        line = line.replace(name, stand_in.format(bot=BOT, game=game))
    return line


EXAMPLES = example_lines()


def test_the_readme_has_examples_and_names_only_shipped_files() -> None:
    assert len(EXAMPLES) >= 15
    for path in re.findall(r"docs/[\w/.-]+", README):
        assert (ROOT / path.rstrip(".")).exists(), path
    assert "../shared" not in "\n".join(EXAMPLES)


@pytest.mark.parametrize("line", [e for e in EXAMPLES if e.startswith("arena play")])
def test_each_play_example_reaches_the_app(line: str, monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    import types

    from tests.tui.test_cli import run

    calls: list[dict] = []
    fake = types.ModuleType("tui.app")
    fake.run = lambda game=None, **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tui.app", fake)
    monkeypatch.chdir(ROOT)
    result = run(shlex.split(own_programs(line))[1:])
    assert result.exit_code == 0, (line, result.stderr)
    assert calls, line


# what a CodeCup jury says to a whole-game player: the pillars, Start, then Quit
PILLARS_SESSION = (ROOT / "docs" / "positions" / "pillars-diagonal.txt").read_text(
    encoding="utf-8").splitlines()[:10]


def shell(line: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    arena = f"{shlex.quote(sys.executable)} -m tui.cli"
    command = re.sub(r"(^|\| )arena ", rf"\g<1>{arena} ", line)
    if line == "arena move pillars":  # a whole game on stdin: the jury's side of one move
        session = "".join(f"{x}\n" for x in [*PILLARS_SESSION, "Start", "Quit"])
        command = f"printf {shlex.quote(session)} | {command}"
    if " move " in line:
        command = re.sub(r"(tui\.cli move [^|<]*?)(\s*(<|\||$))", r"\1 --time 0.3\2", command)
    env = dict(os.environ, PYTHONPATH=str(ROOT), ARENA_SAVE_DIR=str(tmp_path))
    return subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("line", [e for e in EXAMPLES if not e.startswith("arena match")
                                  and re.search(r"arena (move|perft)( |$)", e)])
def test_each_move_and_perft_example_runs(line: str, tmp_path: Path) -> None:
    done = shell(line, tmp_path)
    assert done.returncode == 0, (line, done.stderr[-2000:])
    assert done.stdout.strip(), line


@pytest.mark.slow
@pytest.mark.parametrize("line", [e for e in EXAMPLES if e.startswith("arena match")])
def test_each_match_example_runs(line: str, tmp_path: Path) -> None:
    quick = re.sub(r"-n \d+", "-n 1", own_programs(line)) + " --time-scale 0.1"
    quick = quick.replace("--out runs/", f"--out {tmp_path / 'runs'}")
    quick = quick.replace("> result.json", f"> {tmp_path / 'result.json'}")
    done = shell(quick, tmp_path)
    assert done.returncode == 0, (line, done.stderr[-2000:])
