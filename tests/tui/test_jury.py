"""Arena as the jury: scripted contest programs in each game's protocol, legal and faulty.

The programs are `tests/programs/bot.py GAME MODE`: random legal moves, or one way of
misbehaving. Every fault is caught, named and quoted exactly, and nothing the program
started is left running.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from rules import Clock, ClockKind, Game, TimeControl, get_game
from tests.processes import group_gone, pid_gone
from tui.play.jury import Cancelled, OutOfStep, ProgramPlayer, program_player
from tui.play.programs import CommandError

BOT = Path(__file__).resolve().parents[1] / "programs" / "bot.py"


def bot(name: str, mode: str = "random") -> str:
    return f"{sys.executable} {BOT} {name} {mode}"


def play(game: Game, players: list[ProgramPlayer], clock: Clock, limit: int) -> list:
    """Ask the programs in turn until `limit` moves, the end, or a fault; the verdicts."""
    verdicts = []
    try:
        while not game.is_over and len(game.history) < limit:
            seat = game.to_move
            verdict = players[seat].move(game, clock)
            verdicts.append(verdict)
            if not verdict.ok:
                break
            clock.charge(seat, verdict.seconds)
            game.play(verdict.move)
    finally:
        for player in players:
            player.close()
    return verdicts


@pytest.mark.parametrize(("name", "moves"), [
    ("pahtum", 12), ("pousse", 6), ("boxing", 4), ("loaps", 6), ("pillars", 60)])
def test_random_programs_play_legal_moves_in_each_protocol(name: str, moves: int) -> None:
    cls = get_game(name)
    game = cls.new({}, 7)
    players = [program_player(cls, bot(name)) for _ in range(game.players)]
    verdicts = play(game, players, Clock.start(cls.clock, game.players), moves)
    assert verdicts and all(v.ok for v in verdicts), verdicts[-1]
    assert len(game.history) == min(moves, len(verdicts))
    if name == "pillars":  # a whole game
        assert game.is_over and game.ended is None


CASES = {
    # mode: (fault, words in the reason)
    "illegal": ("illegal", "played an illegal move"),
    "malformed": ("malformed", "answered 'hello world\\n'"),
    "crash": ("crash", "crashed (killed by SIGSEGV)"),
    "exit": ("exit", "exit code 3"),
    "extra": ("malformed", "output after"),
    "hang": ("timeout", "gave no answer within"),
}


@pytest.mark.parametrize("name", ["pahtum", "loaps", "pillars"])  # STDIN, FILE, SESSION
@pytest.mark.parametrize("mode", list(CASES))
def test_each_fault_is_caught_named_and_quoted(name: str, mode: str) -> None:
    cls = get_game(name)
    game = cls.new({}, 3)
    control = TimeControl(cls.clock.kind, 0.6 if mode == "hang" else 10.0)
    faulty = program_player(cls, bot(name, mode))
    players = [program_player(cls, bot(name)), faulty]
    verdicts = play(game, players, Clock.start(control, 2), 40)
    last = verdicts[-1]
    fault, words = CASES[mode]
    assert last.fault == fault and words in last.reason, last
    if mode in ("malformed", "extra", "illegal"):
        assert repr(last.output)[:20] in last.reason  # the exact output, as a repr
    assert game.history and game.to_move == 1  # the faulty seat, on its turn


def test_a_hanging_program_and_its_child_are_killed_at_the_deadline() -> None:
    cls = get_game("pousse")
    game = cls.new({}, 1)
    player = program_player(cls, bot("pousse", "hang"))
    seen: list[int] = []
    original = player._started

    def spy(call: int, proc) -> None:  # noqa: ANN001
        seen.append(proc.pid)
        original(call, proc)

    player._started = spy  # type: ignore[method-assign]
    began = time.monotonic()
    verdict = player.move(game, Clock.start(TimeControl(ClockKind.MOVE, 0.8), 2))
    assert verdict.fault == "timeout" and time.monotonic() - began < 3
    assert seen and pid_gone(seen[0]) and group_gone(seen[0])


def test_cancel_kills_the_move_under_way_from_another_thread() -> None:
    import threading

    cls = get_game("pillars")
    game = cls.new({}, 2)
    player = program_player(cls, bot("pillars", "sleep:5"))
    first = player.move(game, Clock.start(TimeControl.none(), 2))  # its first move is legal
    assert first.ok
    game.play(first.move)
    game.play(game.legal_moves()[0])
    proc = player._running
    assert proc is not None
    timer = threading.Timer(0.3, player.cancel)
    timer.start()
    began = time.monotonic()
    with pytest.raises(Cancelled):
        player.move(game, Clock.start(TimeControl.none(), 2))
    assert time.monotonic() - began < 3
    assert pid_gone(proc.pid) and group_gone(proc.pid)
    player.close()


def test_a_whole_game_program_cannot_be_taken_back_past_its_own_move() -> None:
    cls = get_game("pillars")
    game = cls.new({}, 4)
    player = program_player(cls, bot("pillars"))
    try:
        verdict = player.move(game, Clock.start(TimeControl.none(), 2))
        game.play(verdict.move)
        game.play(game.legal_moves()[0])
        assert player.can_resume(game)
        player.cancel()  # its process is gone (an undo while it thought)
        assert not player.can_resume(game)
        with pytest.raises(OutOfStep):
            player.move(game, Clock.start(TimeControl.none(), 2))
    finally:
        player.close()


def test_a_whole_game_program_joins_as_blue_after_reds_first_move() -> None:
    cls = get_game("pillars")
    game = cls.new({}, 5)
    game.play(game.legal_moves()[3])
    player = program_player(cls, bot("pillars"))
    try:
        verdict = player.move(game, Clock.start(TimeControl.none(), 2))
        assert verdict.ok and game.is_legal(verdict.move)
    finally:
        player.close()


def test_a_claim_reaches_the_other_program_without_its_bang() -> None:
    cls = get_game("pillars")
    game = cls.new({}, 6)
    claim = next(m for m in game.legal_moves() if game.move_text(m).startswith("!"))
    assert not game.relayed_move_text(claim).startswith("!")
    assert "!" + game.relayed_move_text(claim) == game.move_text(claim)


def test_boxing_gets_its_mark_and_a_box_of_another_mark_is_illegal() -> None:
    cls = get_game("boxing")
    game = cls.new({"arena": "empty"}, 1)
    game.play(game.parse_move("A1x2"))
    assert game.contest_args() == ["B"]
    after = game.copy()
    after.play(after.parse_move("C3x2"))
    wrong = after.to_native().replace("B", "A")
    with pytest.raises(ValueError, match="marked 'A', not 'B'"):
        game.jury_move(wrong)
    assert game.jury_move(after.to_native()) == game.parse_move("C3x2")


def test_a_command_that_names_no_program_is_refused_before_any_game() -> None:
    with pytest.raises(CommandError, match="not a command on the PATH"):
        program_player(get_game("pahtum"), "no-such-bot-here --fast")
    with pytest.raises(CommandError, match="empty"):
        program_player(get_game("pahtum"), "  ")


def test_a_program_that_cannot_start_is_a_start_fault(tmp_path: Path) -> None:
    script = tmp_path / "bot.sh"
    script.write_text("#!/no/such/interpreter\n")
    os.chmod(script, 0o755)
    cls = get_game("pahtum")
    game = cls.new({}, 1)
    verdict = program_player(cls, str(script)).move(game, Clock.start(cls.clock, 2))
    assert verdict.fault == "start" and "did not start" in verdict.reason
