"""Session logic without Textual: turns, undo/redo, AI requests, the clock, the match, N seats."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest

from rules import (
    ClockKind,
    MatchState,
    MoveError,
    Outcome,
    PlainWins,
    PlayerSpec,
    Termination,
    TimeControl,
)
from rules.pahtum import EMPTY, PahTum, score
from tui.play.session import Session

HUMAN, AI = PlayerSpec.human(), PlayerSpec.ai("easy")
MOVE_10 = TimeControl(ClockKind.MOVE, 10.0)
GAME_60 = TimeControl(ClockKind.GAME, 60.0)


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def session(players=(HUMAN, HUMAN), seed: int = 5, blocks: str = "9", **kw) -> Session:
    return Session(PahTum.new({"blocks": blocks}, seed=seed), players, **kw)


def play_out(s: Session, rng: random.Random) -> None:
    while not s.game.is_over:
        s.play(rng.choice(s.game.legal_moves()))


def test_labels_and_the_participant_count() -> None:
    s = session((HUMAN, AI))
    assert s.label(0) == "You" and s.label(1) == "AI (easy)"
    assert session().label(0) == "Human 1" and session().label(1) == "Human 2"  # apart
    assert session((PlayerSpec.human("Ann"), HUMAN)).label(0) == "Ann"
    with pytest.raises(ValueError, match="takes 2 players, not 3"):
        session((HUMAN, HUMAN, HUMAN))


def test_hot_seat_undo_redo_one_move_each() -> None:
    s = session()
    a, b = s.game.legal_moves()[:2]
    s.play(a)
    s.play(b)
    assert s.undo() == [b]
    assert s.game.history == [a]
    assert s.redo() == [b]
    assert s.game.history == [a, b]
    with pytest.raises(MoveError):
        s.redo()
    s.undo()
    s.play(s.game.legal_moves()[-1])  # a new move clears the redo stack
    assert s.redo_stack == []


def test_illegal_move_changes_nothing() -> None:
    s = session()
    blocked = s.game.start.index("+")
    generation = s.generation
    with pytest.raises(MoveError):
        s.play(blocked)
    assert s.game.history == [] and s.generation == generation


def test_undo_vs_ai_goes_back_to_the_humans_turn() -> None:
    s = session((HUMAN, AI))
    human = s.game.legal_moves()[0]
    s.play(human)
    assert s.ai_to_move
    request = s.request()
    assert request.level == "easy" and request.purpose == "move"
    reply = request.game.legal_moves()[0]
    assert s.accept(request, reply)
    assert s.undo() == [reply, human]
    assert s.game.history == [] and not s.ai_to_move
    assert s.redo() == [human, reply]  # replayed up to the human's turn again


def test_undo_while_ai_thinks_makes_its_reply_stale() -> None:
    s = session((HUMAN, AI))
    s.play(s.game.legal_moves()[0])
    request = s.request()
    s.undo()  # only the human's move: the AI had not replied
    assert s.game.history == []
    assert not s.is_current(request)
    assert not s.accept(request, request.game.legal_moves()[0])
    assert s.game.history == []


def test_the_default_clock_is_the_games_first_offer_and_counts_time_used() -> None:
    now = FakeClock()
    s = session(now=now)
    assert s.control == PahTum.offered_time_controls()[0] and not s.control.limited
    now.t += 5
    assert s.clock_spent(0) == 5 and s.clock_spent(1) == 0
    assert s.clock_left(0) is None
    s.play(s.game.legal_moves()[0])
    now.t += 3
    assert s.clock_spent(0) == 5 and s.clock_spent(1) == 3
    s.play(s.game.legal_moves()[0])
    assert s.clock.used == [5.0, 3.0]
    assert s.request().seconds is None  # no clock: the level's own time


def test_a_move_clock_counts_down_and_flags_the_mover() -> None:
    now = FakeClock()
    s = session((HUMAN, AI), control=MOVE_10, now=now)
    now.t += 4
    assert s.clock_left(0) == 6 and s.clock_left(1) == 10
    assert not s.check_time()
    first = s.game.legal_moves()[0]
    s.play(first)
    now.t += 9
    request = s.request()
    assert request.seconds is not None and 0 < request.seconds < 1  # what is left, less a margin
    now.t += 2  # the AI is past its 10 s
    assert not s.accept(request, request.game.legal_moves()[0])
    outcome = s.game.outcome
    assert outcome is not None and outcome.kind is Termination.TIME
    assert outcome.loser == 1 and outcome.winners == (0,) and outcome.reason == "O ran out of time"
    assert s.game.history == [first]


def test_a_flagged_person_loses_and_undo_resumes_the_game() -> None:
    now = FakeClock()
    s = session(control=MOVE_10, now=now)
    a, b = s.game.legal_moves()[:2]
    s.play(a)
    now.t += 10.5
    generation = s.generation
    assert s.check_time() and s.generation > generation  # a pending reply would be stale
    assert s.lost_on_time and s.game.outcome.loser == 1
    assert s.clock.used == [0.0, 10.5]
    with pytest.raises(MoveError):
        s.play(b)  # too late
    now.t += 30  # looking at the end screen is nobody's move
    assert s.undo() == [a]
    assert not s.game.is_over and s.game.history == []
    assert s.clock_left(0) == 10  # a fresh move
    s.play(a)
    assert s.clock.used == [0.0, 10.5]


def test_undo_after_a_flag_on_the_first_move_just_resumes() -> None:
    now = FakeClock()
    s = session(control=MOVE_10, now=now)
    now.t += 11
    assert s.check_time()
    assert s.undo() == [] and not s.game.is_over
    with pytest.raises(MoveError):
        s.undo()


def test_a_game_clock_shares_its_time_and_caps_the_ai() -> None:
    now = FakeClock()
    s = session((AI, HUMAN), control=GAME_60, now=now)
    now.t += 20
    assert s.clock_left(0) == 40 and s.clock_left(1) == 60
    request = s.request()
    share = 40 / PahTum.moves_estimate
    assert request.seconds == pytest.approx(share * 0.8 - 0.05)
    assert s.accept(request, request.game.legal_moves()[0])
    now.t += 61
    assert s.check_time() and s.game.outcome.loser == 1


def test_match_return_game_swaps_sides_and_keeps_the_rules_standing() -> None:
    ann, bob = PlayerSpec.human("Ann"), PlayerSpec.human("Bob")
    s = session((ann, bob), blocks="21")
    start = s.game.start_native()
    assert s.match.length == 2 and s.player(0) == ann
    with pytest.raises(MoveError):
        s.next_game()
    rng = random.Random(1)
    play_out(s, rng)
    assert s.has_next_game and not s.match_over
    x1, o1 = s.game.outcome.points
    s.next_game()
    assert s.game_number == 2 and s.game.history == []
    assert s.game.start_native() == start
    assert s.player(0) == bob and s.player(1) == ann
    play_out(s, rng)
    assert s.match_over and not s.has_next_game
    x2, o2 = s.game.outcome.points
    # sum of margins: Ann was X then O, Bob O then X
    assert s.standing() == [(x1 - o1) + (o2 - x2), (o1 - x1) + (x2 - o2)]


class ThreeTum(PahTum):
    """Pah-Tum for three (test only): X, O and Z take turns; the most points win."""

    player_count = (3, 3)
    default_marks = ("X", "O", "Z")

    @property
    def to_move(self) -> int:
        return sum(c in self.default_marks for c in self.board) % 3

    def _apply(self, move: Hashable) -> None:
        self.board[move] = self.default_marks[self.to_move]  # type: ignore[index]

    def scores(self) -> tuple[int, ...]:  # type: ignore[override]
        return tuple(score(self.board, m) for m in self.default_marks)

    def natural_outcome(self) -> Outcome | None:
        if EMPTY in self.board:
            return None
        points = self.scores()
        best = [p for p, v in enumerate(points) if v == max(points)]
        winners = tuple(best) if len(best) == 1 else ()
        return Outcome(Termination.BOARD_FULL, winners, points, "board full")


def test_three_participants_take_turns_and_rotate_seats() -> None:
    ann, bob, cy = (PlayerSpec.human(n) for n in ("Ann", "Bob", "Cy"))
    game = ThreeTum.new({"blocks": "25"}, seed=2)
    match = MatchState(PlainWins(length=3), 3)
    s = Session(game, (ann, bob, cy), match=match)
    assert s.marks == ("X", "O", "Z") and len(s.clock.used) == 3
    with pytest.raises(ValueError):
        Session(ThreeTum.new(None, seed=2), (ann, bob))
    rng = random.Random(7)
    seen = []
    for g in range(3):
        assert [s.player(m) for m in range(3)] == [(ann, bob, cy)[(m - g) % 3] for m in range(3)]
        movers = []
        while not s.game.is_over:
            movers.append(s.to_move)
            s.play(rng.choice(s.game.legal_moves()))
        assert movers[:6] == [0, 1, 2, 0, 1, 2]
        assert s.game.board.count("Z") == len(movers) // 3
        seen.append(s.game.outcome)
        if g < 2:
            s.next_game()
    assert s.match_over and s.match.results == seen[:2]
    assert s.standing() == PlainWins(length=3).standing(seen, 3)


def test_replace_bumps_the_generation() -> None:
    s = session()
    s.play(s.game.legal_moves()[0])
    request = s.request("hint", "medium")
    s.replace(session(seed=9))
    assert not s.is_current(request) and s.game.history == []


def test_undo_refuses_to_take_back_only_the_machines_opening() -> None:
    """The AI opened and the person has not moved: an undo would only have it play again
    (a different opening each time), so it says why instead."""
    from rules import MoveError, PlayerSpec
    from tui.play.session import Session

    s = Session.new("pahtum", [PlayerSpec.ai("hard"), PlayerSpec.human()], {"blocks": "25"},
                    seed=1)
    s.play(s.game.legal_moves()[0])  # the AI's opening
    with pytest.raises(MoveError, match=r"no move of yours to take back \(AI \(hard\) opened"):
        s.undo()
    assert len(s.game.history) == 1
    s.play(s.game.legal_moves()[0])  # the person's
    assert len(s.undo()) == 1 and len(s.game.history) == 1
