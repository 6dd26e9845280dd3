"""Looking back at an earlier move and playing on from there as a new line, without a
screen (tui/play/driver.py, tui/play/session.py): the game in progress waits while the
person looks (no clock charged, a machine's answer held until they come back), a move from
an earlier position starts a new line, and the old line is kept until confirmed."""

from __future__ import annotations

import random

import pytest

from rules import ClockKind, MoveError, PlayerSpec, TimeControl
from tui.play.driver import Driver
from tui.play.players import Verdict
from tui.play.seats import make_player
from tui.play.session import Session

ANN, BOB = PlayerSpec.human("Ann"), PlayerSpec.human("Bob")
RANDOM = PlayerSpec.parse("random")
GAME_CLOCK = TimeControl(ClockKind.GAME, 300.0)


class Now:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def played(name: str, moves: int, players=(ANN, BOB), seed: int = 1):  # noqa: ANN001, ANN201
    """A driver over a game of `name` with `moves` random moves played, each taking 2 s."""
    now = Now()
    session = Session.new(name, list(players), seed=seed, control=GAME_CLOCK, now=now)
    driver = Driver(session, lambda spec: make_player(spec, type(session.game),
                                                      rng=random.Random(seed)))
    rng = random.Random(seed)
    for _ in range(moves):
        now.t += 2.0
        session.play(rng.choice(session.game.legal_moves()))
    return driver, session, now


def other_move(game, k_game, move):  # noqa: ANN001, ANN201
    """A legal move at `k_game` other than `move`."""
    return next(m for m in k_game.legal_moves() if m != move)


@pytest.mark.parametrize("name", ["pahtum", "loaps", "pillars", "boxing", "pousse"])
def test_looking_back_changes_nothing_and_charges_no_clock(name: str) -> None:
    driver, s, now = played(name, 6)
    history, used = list(s.game.history), list(s.clock.used)
    now.t += 3.0  # the mover has thought 3 s on the move under way
    driver.view(2)
    assert driver.shown() == 2 and driver.view_game().history == history[:2]
    now.t += 500.0  # looking for longer than the whole clock: nobody's time
    assert not s.check_time() and s.elapsed() == 3.0
    assert s.game.history == history and s.clock.used == used
    driver.view(99)  # past the end: back to it
    assert driver.viewing is None and s.elapsed() == 3.0
    now.t += 1.0
    assert s.elapsed() == 4.0


def test_a_machine_turn_waits_while_looking_and_its_answer_is_held() -> None:
    driver, s, now = played("pahtum", 1, players=(ANN, RANDOM))  # the machine to move
    turn = driver.turn()
    assert turn is not None and driver.begin(turn)
    now.t += 1.0
    driver.view(0)
    assert driver.turn() is None  # no new turn starts while looking
    verdict = Verdict(turn.game.legal_moves()[0], 5.0)
    now.t += 30.0
    assert not driver.settle(turn, verdict)  # held, not played
    assert len(s.game.history) == 1 and driver.held == (turn, verdict)
    spent = s.clock.used[1]
    assert driver.live() == (turn, verdict)  # played on coming back to the end
    assert len(s.game.history) == 2
    assert s.clock.used[1] == pytest.approx(spent + 5.0)  # its own time, not the 31 s


def test_a_move_from_an_earlier_position_starts_a_new_line_and_confirm_keeps_it() -> None:
    driver, s, now = played("pahtum", 8)
    old = list(s.game.history)
    used = list(s.clock.used)
    driver.view(4)
    now.t += 60.0
    at4 = driver.view_game()
    move = other_move(s.game, at4, old[4])
    driver.branch(move)
    assert s.game.history == [*old[:4], move] and driver.viewing is None
    assert s.old_line is not None and s.old_line.at == 4 and s.old_line.moves == 4
    assert s.old_line.game.history == old
    # the clocks as an undo leaves them: time thought stays spent, the times after move 4
    # are dropped, the looking and the new move charged nothing
    assert s.clock.used == used and s.clock.moves == [2.0] * 4 + [0.0]
    driver.submit(s.game.legal_moves()[0])  # play goes on in the new line
    driver.confirm_branch()
    assert s.old_line is None and len(s.game.history) == 6
    with pytest.raises(MoveError):
        driver.restore_old_line()


def test_going_back_to_the_old_line_restores_it_whole() -> None:
    driver, s, now = played("loaps", 7)
    now.t += 1.5
    before = (list(s.game.history), list(s.clock.used), list(s.clock.moves))
    s.undo()
    redo = list(s.redo_stack)
    now.t += 0.5
    driver.view(2)
    driver.branch(other_move(s.game, driver.view_game(), s.game.history[2]))
    driver.submit(s.game.legal_moves()[0])
    driver.undo()  # undo works in the new line (even past the branch point)
    driver.restore_old_line()
    assert s.old_line is None and s.redo_stack == redo
    assert s.game.history == before[0][:-1]
    driver.redo()
    assert s.game.history == before[0]


def test_a_new_line_from_a_finished_game_and_a_refused_branch_change_nothing() -> None:
    driver, s, now = played("pahtum", 0, players=(ANN, RANDOM))
    rng = random.Random(3)
    while not s.game.is_over:
        s.play(rng.choice(s.game.legal_moves()))
    n = len(s.game.history)
    driver.view(1)  # the machine is to move after move 1: nobody can branch there
    with pytest.raises(MoveError, match="turn"):
        driver.branch(driver.view_game().legal_moves()[0])
    driver.view(2)
    with pytest.raises(MoveError):
        driver.branch(s.game.history[0])  # a cell taken by move 1
    assert len(s.game.history) == n and s.old_line is None and driver.viewing == 2
    driver.branch(driver.view_game().legal_moves()[0])
    assert not s.game.is_over and len(s.game.history) == 3 and s.old_line.moves == n - 2
    driver.restore_old_line()
    assert s.game.is_over and len(s.game.history) == n


def test_the_autosave_keeps_the_confirmed_line(tmp_path) -> None:  # noqa: ANN001
    import json

    from saves.store import autosave_path
    from tui.services import Services

    services = Services(lambda message: None, save_dir=tmp_path)
    driver, s, now = played("pahtum", 6)
    services.autosave(s)
    assert services.writer.flush(5.0)
    path = autosave_path(tmp_path, "pahtum")
    assert len(json.loads(path.read_text())["moves"]) == 6
    driver.view(2)
    driver.branch(driver.view_game().legal_moves()[0])
    services.autosave(s)
    assert services.writer.flush(5.0)
    assert len(json.loads(path.read_text())["moves"]) == 6  # not the new line's 3
    driver.confirm_branch()
    services.autosave(s)
    assert services.writer.flush(5.0)
    assert len(json.loads(path.read_text())["moves"]) == 3
