"""Session logic without Textual: turns, undo/redo, AI requests, clocks, the match."""

from __future__ import annotations

import random

import pytest

from rules import MoveError
from rules.pahtum import PahTum, match_margins
from saves.format import PlayerSpec
from tui.session import MatchState, Player, Session

HUMAN, AI = Player("human"), Player("ai", "easy")


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def session(players=(HUMAN, HUMAN), seed: int = 5, blocks: str = "9", **kw) -> Session:
    return Session(PahTum.new({"blocks": blocks}, seed=seed), players, **kw)


def test_player_parse_and_labels() -> None:
    assert Player.parse("human") == HUMAN
    assert Player.parse("AI:max") == Player("ai", "max")
    with pytest.raises(ValueError):
        Player.parse("ai:godlike")
    s = session((HUMAN, AI))
    assert s.label(0) == "You" and s.label(1) == "AI (easy)"
    assert session().label(0) == "Human"
    spec = PlayerSpec.parse("ai")  # the saves' player type converts, an AI defaults to hard
    assert Player.of(spec) == Player("ai", "hard")
    assert Player.of(PlayerSpec("human", None, "Ann")).label() == "Ann"


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


def test_ai_first_undo_leaves_the_ai_to_move() -> None:
    s = session((AI, HUMAN))
    request = s.request()
    s.accept(request, request.game.legal_moves()[0])
    assert s.undo() and s.game.history == [] and s.ai_to_move


def test_clocks_bill_the_side_to_move() -> None:
    clock = FakeClock()
    s = session(now=clock)
    clock.t += 5
    assert s.clock(0) == 5 and s.clock(1) == 0
    s.play(s.game.legal_moves()[0])
    clock.t += 3
    assert s.clock(0) == 5 and s.clock(1) == 3
    s.play(s.game.legal_moves()[0])
    assert s.clocks == [5.0, 3.0]


def play_out(s: Session, rng: random.Random) -> None:
    while not s.game.is_over:
        s.play(rng.choice(s.game.legal_moves()))


def test_match_return_game_swaps_sides_and_sums_margins() -> None:
    ann, bob = Player("human", name="Ann"), Player("human", name="Bob")
    s = session((ann, bob), blocks="21")
    start = s.game.start_native()
    assert s.match.length == 2 and s.player(0) == ann
    with pytest.raises(MoveError):
        s.next_game()
    rng = random.Random(1)
    play_out(s, rng)
    assert s.has_return_game and not s.match_over
    first = tuple(s.game.outcome.points)
    s.next_game()
    assert s.game_number == 2 and s.game.history == []
    assert s.game.start_native() == start
    assert s.player(0) == bob and s.player(1) == ann
    play_out(s, rng)
    assert s.match_over and not s.has_return_game
    second = tuple(s.game.outcome.points)
    assert s.results() == [first, second]
    assert s.margins() == match_margins([first, second])


def test_match_state_round_trip() -> None:
    state = MatchState(2, 1, [(13, 10)])
    assert MatchState.from_dict(state.to_dict(), 2) == state
    assert MatchState.from_dict(None, 2) == MatchState(2)


def test_replace_bumps_the_generation() -> None:
    s = session()
    s.play(s.game.legal_moves()[0])
    request = s.request("hint", "medium")
    s.replace(session(seed=9))
    assert not s.is_current(request) and s.game.history == []
