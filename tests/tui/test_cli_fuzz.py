"""Fuzz the `arena` command's options: every input gives a result (exit 0) or the
project's own error (exit 2, one `arena: error:` line on stderr, nothing on stdout,
a short line), never a traceback or another exit code.

In-process, with the app and the engine replaced (no board opens, no search runs);
the parsing, the checks and the contest protocols are the real ones. $ARENA_FUZZ sets
the number of generated command lines (default 300, a few seconds; the issue's bar
is `ARENA_FUZZ=10000 pytest tests/tui/test_cli_fuzz.py`).
"""

from __future__ import annotations

import os
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from rules import LEVELS, Game, game_names, get_game
from rules.pahtum import SAMPLE_BOARD
from tui import cli
from tui.cli import console
from tui.play import contest

RUNS = max(1, int(os.environ.get("ARENA_FUZZ", "300")))
runner = CliRunner()


@dataclass(frozen=True)
class FakeBudget:
    seconds: float = 1.0
    max_depth: int = 3


@dataclass
class FakeResult:
    move: Any
    move_text: str
    depth: int = 1
    nodes: int = 1
    score: int = 0
    seconds: float = 0.001
    exact: bool = True


class FakeEngine:
    """Answers at once with the first legal move; counts one leaf a depth."""

    bench_budget = FakeBudget()

    def __init__(self, name: str) -> None:
        self.cls = get_game(name)

    def _result(self, game: Game) -> FakeResult:
        move = game.legal_moves()[0]
        return FakeResult(move, game.move_text(move))

    def choose(self, game: Game, level: str, seconds: float | None = None) -> FakeResult:
        assert seconds is None or 0 < seconds <= console.MAX_SECONDS
        return self._result(game)

    def search(self, game: Game, budget: Any) -> FakeResult:
        return self._result(game)

    def perft(self, game: Game, depth: int, joker: bool = False) -> list[int]:
        assert depth <= cli.MAX_DEPTH
        return [1] * depth

    def warm_up(self) -> None:
        pass

    def bench_positions(self) -> list[Game]:
        return [self.cls.new(None, seed=0)]

    def bench_endgames(self) -> tuple[list[Game], float]:
        return [], 1.0


# ----- generated values -----------------------------------------------------------------

NUMBERS = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.integers(1, 6000).map(lambda n: "9" * n),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["inf", "-inf", "nan", "1e308", "1e400", "10**5000", "0", "-0", "",
                     " ", "0x10", "1_000", "99999999999999999999999", "3", "1", "0.01"]),
)
JUNK = st.one_of(st.text(max_size=60), st.text(max_size=3000).map(lambda t: t * 3),
                 st.binary(max_size=40).map(lambda b: b.decode("latin-1")))
VALUES = st.one_of(NUMBERS, JUNK)
GAMES = st.one_of(st.sampled_from([*game_names(), "Pah-Tum", "POUSSE"]), JUNK)
LEVEL = st.one_of(st.sampled_from([*LEVELS, "MAX", " hard "]), JUNK)
OPTS = st.one_of(st.sampled_from(["size=6", "size=4", "board=sample", "blocks=5",
                                  "blocks=random", "size", "=", "size=1e400"]),
                 st.tuples(st.sampled_from(["size", "board", "blocks", ""]), VALUES)
                 .map(lambda p: f"{p[0]}={p[1]}"), JUNK)
PLAYERS = st.one_of(st.sampled_from(["human", "ai", "ai:max", "ai:", "AI:Easy", "robot"]),
                    JUNK)
CLOCKS = st.one_of(st.sampled_from(["none", "move:10", "game:300", "move:1e308", "game:inf",
                                    "move:nan", "move:0", "move"]),
                   NUMBERS.map(lambda n: f"move:{n}"), JUNK)


def flags(options: dict[str, st.SearchStrategy[str]]) -> st.SearchStrategy[list[str]]:
    """Some of the options, each with a value, in any order (some repeated)."""
    one = st.sampled_from(sorted(options)).flatmap(
        lambda name: options[name].map(lambda value: [name, value]))
    return st.lists(one, max_size=4).map(lambda pairs: [x for pair in pairs for x in pair])


def command_lines(paths: list[str]) -> st.SearchStrategy[tuple[list[str], str]]:
    files = st.one_of(st.sampled_from(paths), JUNK)
    play = st.tuples(GAMES, flags({
        "--player": PLAYERS, "--x": PLAYERS, "--o": PLAYERS, "--level": LEVEL,
        "--seed": NUMBERS, "--opt": OPTS, "--clock": CLOCKS, "--load": files,
        "--save-dir": st.sampled_from(paths[-2:]),
    })).map(lambda t: ["play", t[0], *t[1]])
    move = st.tuples(GAMES, st.lists(JUNK, max_size=2),
                     flags({"--level": LEVEL, "--time": NUMBERS})
                     ).map(lambda t: ["move", t[0], *t[1], *t[2]])
    perft = st.tuples(GAMES, NUMBERS, flags({
        "--position": files, "--opt": OPTS, "--seed": NUMBERS,
    }), st.booleans()).map(lambda t: ["perft", t[0], t[1], *t[2], *(["--reference"] * t[3])])
    bench = st.tuples(GAMES, flags({"--depth": NUMBERS})).map(lambda t: ["bench", t[0], *t[1]])
    stdin = st.one_of(st.just(SAMPLE_BOARD), st.just("4\nL2\nT2\n"), JUNK)
    return st.tuples(st.one_of(play, move, perft, bench), stdin)


# ----- the test -------------------------------------------------------------------------


def check(args: list[str], stdin: str) -> None:
    result = runner.invoke(cli.app, args, input=stdin)
    shown = f"{args!r:.300} -> {result.exit_code}: {result.stderr[:500]!r}"
    assert result.exception is None or isinstance(result.exception, SystemExit), shown
    assert "Traceback" not in result.stderr, shown
    if result.exit_code == 0:
        return
    assert result.exit_code == 2, shown
    assert result.stdout == "", shown
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena: error: "), shown
    assert len(lines[0]) <= len("arena: error: ") + console.MESSAGE, shown


def test_cli_options_give_a_result_or_one_error_line(tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text(SAMPLE_BOARD)
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(256)) * 4)
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"-" * (5 << 20))
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    paths = [str(board), str(garbage), str(huge), "/dev/zero", str(tmp_path / "missing"),
             str(tmp_path), str(tmp_path / "saves"), str(a_file / "saves")]

    app = types.ModuleType("tui.app")
    app.run = lambda **kwargs: None  # type: ignore[attr-defined]
    perft = types.ModuleType("ai.perft")
    perft.reference_perft = lambda game, depth: [1] * depth  # type: ignore[attr-defined]

    @settings(max_examples=RUNS, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(command_lines(paths))
    def run(line: tuple[list[str], str]) -> None:
        check(*line)

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "tui.app", app)
        patch.setitem(sys.modules, "ai.perft", perft)
        patch.setattr(console, "jit_engine", FakeEngine)
        patch.setattr(contest, "process_age", lambda: 0.0)
        run()


@pytest.mark.parametrize("args", [
    ["perft", "pahtum", "1", "--seed", "9" * 5000],
    ["perft", "pousse", "1", "--opt", "size=" + "9" * 5000],
    ["bench", "pousse", "--depth", "10**5000"],
    ["perft", "pousse", "9" * 5000],
    ["move", "pahtum", "--time", "nan"],
    ["move", "pahtum", "--level", "x" * 10_000],
    ["play", "pahtum", "--clock", "move:1e308"],
])
def test_huge_and_odd_values_give_one_short_line(args: list[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "jit_engine", FakeEngine)
    monkeypatch.setitem(sys.modules, "tui.app", types.ModuleType("tui.app"))
    check(args, SAMPLE_BOARD)
