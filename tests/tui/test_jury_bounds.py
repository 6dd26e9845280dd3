"""The jury's bounds: a program that writes without end is stopped and loses ("output
too large") with memory and disk bounded; a program that leaves a daemon behind (a child
in a session of its own) has it killed with the move; the jury judges output as strictly
as the contests did (CRLF, trailing spaces, letter case, leading zeros are malformed)."""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

import pytest

from rules import Clock, ClockKind, Game, MalformedReply, MoveError, TimeControl, get_game
from tests.processes import eventually_none, running
from tests.tui.test_jury import play
from tui.play import reaper
from tui.play.jury import program_player
from tui.play.programs import OUTPUT_LIMIT

BOT = Path(__file__).resolve().parents[1] / "programs" / "bot.py"


def bot(name: str, mode: str = "random") -> str:
    return f"{sys.executable} {BOT} {name} {mode}"


# ----- endless writers ------------------------------------------------------------------
@pytest.mark.parametrize("name", ["pahtum", "loaps", "boxing", "pillars"])  # every protocol
@pytest.mark.parametrize("mode", ["flood", "flooderr"])
def test_a_program_writing_without_end_is_stopped_and_loses(name: str, mode: str) -> None:
    cls = get_game(name)
    game = cls.new({}, 3)
    faulty = program_player(cls, bot(name, mode))
    players = [program_player(cls, bot(name)), faulty]
    began = time.monotonic()
    memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    verdicts = play(game, players, Clock.start(TimeControl(cls.clock.kind, 30.0), 2), 40)
    last = verdicts[-1]
    assert last.fault == "output" and "output too large" in last.reason, last
    assert time.monotonic() - began < 20  # stopped at the bound, not at the clock
    assert len(last.output) + len(last.stderr) <= OUTPUT_LIMIT + 65536
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - memory
    assert grown_kb < 64 * 1024  # bounded: a few MB at most, never what it wrote
    assert eventually_none(lambda: running(f"{BOT} {name} {mode}"))


def test_a_whole_game_line_without_end_is_stopped_as_too_large() -> None:
    cls = get_game("pillars")
    game = cls.new({}, 3)
    faulty = program_player(cls, bot("pillars", "flood"))
    verdicts = play(game, [faulty, program_player(cls, bot("pillars"))],
                    Clock.start(TimeControl(ClockKind.GAME, 30.0), 2), 40)
    assert verdicts[-1].fault == "output", verdicts[-1]


def test_the_jurys_temporary_files_live_in_one_folder_per_arena() -> None:
    cls = get_game("loaps")  # FILE: a position file a move
    game = cls.new({}, 1)
    verdicts = play(game, [program_player(cls, bot("loaps")) for _ in range(2)],
                    Clock.start(cls.clock, 2), 2)
    assert all(v.ok for v in verdicts)
    folder = reaper.folder()
    assert folder.name.startswith(reaper.FOLDER_PREFIX) and folder.is_dir()
    assert list(folder.iterdir()) == []  # each move's file is gone with the move


# ----- daemons ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["pahtum", "pillars"])  # a one-move and a whole-game one
def test_a_daemon_left_by_a_program_is_killed_with_it(name: str) -> None:
    cls = get_game(name)
    game = cls.new({}, 5)
    players = [program_player(cls, bot(name, "daemon")) for _ in range(2)]
    verdicts = play(game, players, Clock.start(TimeControl(cls.clock.kind, 60.0), 2), 4)
    assert all(v.ok for v in verdicts), verdicts[-1]
    assert eventually_none(lambda: running("arena-daemon"))


def test_a_sweep_finds_a_tagged_process_in_another_session() -> None:
    import subprocess

    tag = reaper.launch_tag()
    proc = reaper.spawn([sys.executable, "-c", "import time; time.sleep(60)"], tag)
    try:
        assert reaper.sweep(tag) == 1
        assert proc.wait(timeout=5) < 0
        assert reaper.sweep(tag) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        subprocess.run(["true"], check=True)


# ----- as strict as the contests ---------------------------------------------------------
@pytest.mark.parametrize(("name", "mode", "words"), [
    ("pahtum", "crlf", "carriage return"), ("pahtum", "spaces", "spaces"),
    ("pahtum", "case", "letter case"),
    ("loaps", "crlf", "carriage return"), ("loaps", "spaces", "spaces"),
    ("loaps", "case", "letter case"),
    ("pousse", "crlf", "carriage return"), ("pousse", "case", "letter case"),
    ("pillars", "crlf", "carriage return"), ("pillars", "case", "letter case"),
    ("boxing", "crlf", "carriage return"), ("boxing", "spaces", "spaces"),
])
def test_output_a_lenient_reader_would_take_is_malformed_from_a_program(
        name: str, mode: str, words: str) -> None:
    cls = get_game(name)
    game = cls.new({}, 3)
    faulty = program_player(cls, bot(name, mode))
    verdicts = play(game, [program_player(cls, bot(name)), faulty],
                    Clock.start(TimeControl(cls.clock.kind, 30.0), 2), 40)
    last = verdicts[-1]
    assert last.fault == "malformed", last
    if cls.contest_reply is not Game.contest_reply:  # a line: the reason names the fault
        assert words in last.reason, last


@pytest.mark.parametrize(("name", "reply", "words"), [
    ("pousse", "L02\n", "'L2'"), ("pousse", "l2\n", "letter case"),
    ("pousse", " L2\n", "spaces"), ("pousse", "L2 \n", "spaces"),
    ("loaps", "b1  b3\n", "spaces"), ("loaps", "B1 B3\n", "letter case"),
    ("pillars", "aaAa\n", "letter case"),
])
def test_each_inexact_line_is_named(name: str, reply: str, words: str) -> None:
    game = get_game(name).new({}, 0)
    with pytest.raises(MalformedReply, match=words):
        game.jury_move(reply)


@pytest.mark.parametrize("name", ["pahtum", "loaps", "pousse", "boxing", "pillars"])
def test_the_exact_reply_is_taken_with_or_without_a_one_move_programs_last_newline(
        name: str) -> None:
    game = get_game(name).new({}, 0)
    move = game.legal_moves()[0]
    if name == "pillars":
        game = get_game(name).new({}, 0)
        move = next(m for m in game.legal_moves() if not m[4])
    reply = game.copy().contest_reply(move) if name not in ("pillars",) else (
        game.move_text(move) + "\n")
    assert game.jury_move(reply) == move
    if name in ("loaps", "pousse", "pillars"):  # a line: its exit ends it
        assert game.jury_move(reply.removesuffix("\n")) == move
    else:  # a position: each of its lines ends with a newline
        with pytest.raises(MalformedReply, match="newline"):
            game.jury_move(reply.removesuffix("\n"))


def test_a_well_written_move_off_the_board_is_illegal_not_malformed() -> None:
    game = get_game("pousse").new({"size": "6"}, 0)
    with pytest.raises(MoveError):
        game.jury_move("L9\n")
