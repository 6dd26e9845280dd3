"""`arena move pillars`: the CodeCup jury protocol for a whole game, in-process with a
scripted engine (exact lines and clock maths), then as real processes through pipes:
against itself and against a scripted opponent, with a jury written here."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rules import MoveError
from rules.clock import RESERVE_PER_MOVE
from rules.pillars import LAST_CELL, Pillars
from tests.tui.test_contest import AGE, FakeTime, TimedLines, play, refused

ROOT = Path(__file__).resolve().parents[2]
PILLARS = "".join(f"{r}{r.lower()}\n" for r in "ABCDEFGHIJ")
CONTEST_SECONDS = 5.0


def test_red_reads_start_writes_its_moves_and_ends_on_quit() -> None:
    run = play(Pillars, PILLARS + "Start\nBaBa\nQuit\nCaCa\n", script=["!AbAj", "FaJe"])
    assert run.out.getvalue() == "!AbAj\nFaJe\n"  # the claim is written with its '!'
    natives = [native for native, _, _ in run.engine.calls]
    assert natives == [PILLARS, PILLARS + "!AbAj\nBaBa\n"]
    assert run.loads == [1]


def test_blue_reads_reds_first_move_which_the_jury_passes_without_its_joker() -> None:
    # red wrote !AcBd; the jury passes AcBd on, so blue sees no claim (and may claim 9)
    run = play(Pillars, PILLARS + "AcBd\nCeDj\nQuit\n", script=["!AeAj", "GaHb"])
    assert run.out.getvalue() == "!AeAj\nGaHb\n"
    assert [native for native, _, _ in run.engine.calls] == [
        PILLARS + "AcBd\n", PILLARS + "AcBd\n!AeAj\nCeDj\n"]


def test_the_five_seconds_are_shared_over_the_game() -> None:
    now = FakeTime()
    stdin = TimedLines(PILLARS + "Start\nBaBa\nCaCa\nQuit\n", now, wait=2.0)
    run = play(Pillars, stdin, script=["AbAj", "FaJe", "BfEj"], think=0.5, now=now)
    # the moves that need thought: a fifth of the empty cells beyond 20, at most 12;
    # kept back first: RESERVE_PER_MOVE for each later move the rules allow (the mover's
    # half of the empty cells, rounded up). 90 empty: 12 moves planned, 44 kept for; the
    # first reply also pays the start-up
    left = CONTEST_SECONDS - AGE
    first = (left - 44 * RESERVE_PER_MOVE) / 12 * 0.8 - 0.05
    left -= 0.5
    second = (left - 39 * RESERVE_PER_MOVE) / 12 * 0.8 - 0.05  # 80 empty: still 12
    left -= 0.5
    third = (left - 26 * RESERVE_PER_MOVE) / 6 * 0.8 - 0.05  # 54 empty: (54 - 20) // 5
    assert run.engine.seconds == pytest.approx([first, second, third])
    assert sum(run.engine.seconds) < CONTEST_SECONDS  # type: ignore[arg-type]


def test_after_the_last_cell_only_quit_is_awaited() -> None:
    game = Pillars.new({"pillars": "diagonal"})
    singles = [(r, c, r, c, False) for r in range(10) for c in range(10) if r != c]
    texts = [game.move_text(m) for m in singles]
    ours, theirs = texts[0::2], texts[1::2]  # we are red; the opponent fills the last cell
    stdin = PILLARS + "Start\n" + "".join(t + "\n" for t in theirs) + "Quit\n"
    run = play(Pillars, stdin, script=list(ours))
    assert run.out.getvalue().splitlines() == ours
    assert len(run.engine.calls) == len(ours)  # never asked once the board was full


@pytest.mark.parametrize(("stdin", "message"), [
    ("Aa\nBb\n", "the input ended after 2 of the 10 lines that set up the game"),
    (PILLARS.replace("Cc", "C3"), "bad Pillars game set-up: line 3: 'C3' is not a pillar cell"),
    (PILLARS.replace("Cc", "Cb"), "bad Pillars game set-up: line 3: a second pillar in "
                                  "column b"),
    (PILLARS.replace("Jj", "Ji"), "bad Pillars game set-up: line 10: a second pillar in "
                                  "column i"),
    (PILLARS + "AaAb\n", "line 11: bad move 'AaAb': AaAb is not legal: Aa is a pillar"),
    (PILLARS + "CdBe\n", "line 11: bad move 'CdBe': CdBe is not legal: the top row C is "
                         "below"),
    (PILLARS + "Go!\n", "line 11: bad move 'Go!': 'Go!' is not a move"),
])
def test_bad_input_is_one_line(stdin: str, message: str) -> None:
    assert refused(Pillars, stdin).startswith(message)


def test_an_opponent_move_over_our_tiles_is_refused_after_our_reply() -> None:
    message = refused(Pillars, PILLARS + "Start\nAcAc\n", script=["AbAj"], searched=True)
    assert message == ("line 12: bad move 'AcAc': AcAc is not legal: Ac is already filled "
                       "(by red's AbAj)")


# ----- real processes through pipes ------------------------------------------------------

OPPONENT = """
import random, sys
from rules.pillars import Pillars
lines = [sys.stdin.readline().strip() for _ in range(10)]
game = Pillars.from_native("\\n".join(lines) + "\\n")
rng = random.Random(int(sys.argv[1]))
while True:
    line = sys.stdin.readline().strip()
    if line == "Quit" or not line:
        break
    if line != "Start":
        game.play_text(line)
    if game.is_over:
        continue
    move = rng.choice(game.rectangles())
    text = game.move_text((*move, False))
    game.play_text(text)
    print(text, flush=True)
"""


@dataclass
class Player:
    proc: subprocess.Popen[bytes]
    spent: float = 0.0  # active time as a jury counts it: from our line to its reply
    lines: list[str] = field(default_factory=list)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def reply(self) -> str:
        assert self.proc.stdout is not None
        began = time.perf_counter()
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        assert ready, "no reply within 60 s"
        line = self.proc.stdout.readline().decode()
        self.spent += time.perf_counter() - began
        assert line.endswith("\n") and line.count("\n") == 1, repr(line)
        self.lines.append(line.strip())
        return line.strip()


def arena_move(level: str) -> list[str]:
    return [sys.executable, "-c", "from tui.cli import main; main()", "move", "pillars",
            "--level", level]


def jury(red_cmd: list[str], blue_cmd: list[str], pillars: str) -> tuple[Pillars, list[Player]]:
    """Run a whole game as the CodeCup jury does: both read the pillars, red `Start`; each
    move is checked and passed on without its '!'; `Quit` to both at the end."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    players = [Player(subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, cwd=ROOT, env=env))
               for cmd in (red_cmd, blue_cmd)]
    game = Pillars.from_native(pillars)
    try:
        for player in players:
            for line in pillars.splitlines():
                player.send(line)
        players[0].send("Start")
        while not game.is_over:
            mover = players[game.to_move]
            text = mover.reply()
            try:
                game.play_text(text)
            except MoveError as err:
                pytest.fail(f"{'red' if mover is players[0] else 'blue'} played {text!r}: {err}")
            if not game.is_over:
                players[game.to_move].send(text.removeprefix("!"))
        for player in players:
            player.send("Quit")
        for player in players:
            assert player.proc.wait(timeout=30) == 0, player.proc.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
            assert player.proc.stdout.read() == b""  # type: ignore[union-attr]
    finally:
        for player in players:
            player.proc.kill()
            player.proc.wait()
    return game, players


@pytest.fixture(scope="module")
def compiled() -> None:
    """Compile the kernels into the cache the processes share, so that a first game does
    not pay for the compilation (the contest's 5 s are for playing)."""
    from ai.engine import get_engine

    get_engine("pillars").warm_up()


def test_arena_against_itself_through_pipes(compiled: None) -> None:
    game, players = jury(arena_move("hard"), arena_move("hard"), Pillars.new(seed=4).to_native())
    outcome = game.outcome
    assert outcome is not None and outcome.ending == LAST_CELL
    assert sum(outcome.points) in range(9, 37)
    # the jury's clock: neither ran out of its 5 s (start-up included)
    assert all(p.spent < CONTEST_SECONDS for p in players), [p.spent for p in players]


@pytest.mark.parametrize("arena_is_red", [True, False])
def test_arena_against_a_scripted_opponent_through_pipes(compiled: None,
                                                         arena_is_red: bool) -> None:
    scripted = [sys.executable, "-c", OPPONENT, "7"]
    cmds = [arena_move("hard"), scripted] if arena_is_red else [scripted, arena_move("hard")]
    game, players = jury(cmds[0], cmds[1], Pillars.new(seed=11).to_native())
    ours = 0 if arena_is_red else 1
    outcome = game.outcome
    assert outcome is not None and outcome.winners == (ours,)  # random play loses
    assert players[ours].spent < CONTEST_SECONDS
