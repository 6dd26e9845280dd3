"""Fuzz of a session's endings: every game, every mix of seats (people, the AI, programs),
2 to 4 players where the game takes them, and every kind of ending (the board, a flag,
a program's fault, a jury's verdict), then undo and redo at random. Nothing but a
MoveError may come out, every winner has a label, and the session saves and loads again
at every step (a value the loader takes survives play and a save)."""

from __future__ import annotations

import random

import pytest

from rules import PlayerSpec, TimeControl, get_game
from rules.base import COUNT_OPTION
from rules.clock import MAX_SECONDS
from rules.outcome import FORFEITS, Termination
from saves.format import doc_from_game, dumps, loads, restore
from tui.play.jury import Verdict
from tui.play.session import Session

KINDS = (PlayerSpec.human(), PlayerSpec.ai("easy"), PlayerSpec.program("/bin/true"))
ENDINGS = ("board", "flag", "fault", "verdict")
SEEDS = range(12)


class Now:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def new_session(name: str, rng: random.Random, now: Now) -> Session:
    cls = get_game(name)
    low, high = cls.player_count
    count = rng.randint(low, min(high, 4))
    options = {COUNT_OPTION: str(count)} if cls.takes_count() else {}
    if name == "pousse":
        options["size"] = str(rng.choice([4, 5]))
    players = [rng.choice(KINDS) for _ in range(count)]
    control = TimeControl.parse(rng.choice(["move:5", "game:60", "none"]))
    return Session.new(name, players, options, seed=rng.randrange(100), control=control,
                       now=now)


def check(session: Session) -> None:
    """What holds after every step: the winners have labels, the session saves and
    loads back to the same position."""
    session._steps_back()  # what the game screen asks before an undo: never raises
    outcome = session.game.outcome
    if outcome is not None:
        for winner in outcome.winners:
            assert session.label(winner)
        if outcome.kind in FORFEITS:
            assert outcome.loser is not None and outcome.loser not in outcome.winners
    doc = doc_from_game(session.game, list(session.players_by_mark), session.clock,
                        session.match)
    again = restore(loads(dumps(doc)))
    assert again.key() == session.game.key()
    assert again.history == session.game.history


def end(session: Session, how: str, rng: random.Random, now: Now) -> None:
    game = session.game
    while not game.is_over and (how == "board" or rng.random() < 0.8):
        now.t += rng.random()
        session.play(rng.choice(game.legal_moves()))
        check(session)
    if game.is_over:
        return
    mover = session.to_move
    if how == "flag":
        if not session.control.limited:
            session.forfeit_program(mover, "timeout", "gave no answer")
        else:
            now.t += session.control.seconds * 2
            assert session.check_time()
    elif how == "fault":
        session.forfeit_program(mover, rng.choice(["start", "output", "crash"]), "failed",
                                "x" * rng.randrange(3))
    elif how == "verdict" and session.program_to_move:
        request = session.program_request()
        verdict = Verdict(None, 0.5, "junk\n", rng.choice(["malformed", "timeout"]), "bad")
        assert session.judge(request, verdict)
    else:
        session.forfeit_program(mover, "illegal", "played nonsense")


@pytest.mark.parametrize("seed", SEEDS)
def test_every_ending_then_undo_and_redo_at_random(game_name: str, seed: int) -> None:
    rng = random.Random(f"{game_name}-{seed}")
    now = Now()
    session = new_session(game_name, rng, now)
    end(session, ENDINGS[seed % len(ENDINGS)], rng, now)
    assert session.game.is_over
    check(session)
    for _ in range(12):
        action = rng.choice(["undo", "undo", "redo", "play"])
        try:
            if action == "undo":
                session.undo()
            elif action == "redo":
                session.redo()
            elif not session.game.is_over:
                session.play(rng.choice(session.game.legal_moves()))
        except Exception as err:  # noqa: BLE001 - only a MoveError, with a reason
            from rules import MoveError

            assert isinstance(err, MoveError) and str(err), repr(err)
        check(session)


@pytest.mark.parametrize("players", [3, 4])
def test_a_forfeit_among_several_players_names_every_winner(players: int) -> None:
    now = Now()
    session = Session.new("boxing", [PlayerSpec.human()] * players,
                          {COUNT_OPTION: str(players)}, seed=1,
                          control=TimeControl.parse("move:1"), now=now)
    now.t += 2
    assert session.check_time()
    outcome = session.game.outcome
    assert outcome is not None and outcome.kind is Termination.TIME
    assert len(outcome.winners) == players - 1 and outcome.winner is None
    assert [session.label(w) for w in outcome.winners]
    session.undo()  # the flag is taken back
    assert not session.game.is_over


def test_a_clock_at_the_loaders_limit_survives_play_and_a_save() -> None:
    text = dumps(doc_from_game(get_game("pahtum").new({"blocks": "21"}, 1),
                               [PlayerSpec.human()] * 2))
    data = loads(text)
    data.clock.used[:] = [float(MAX_SECONDS), 0.0]
    game = restore(data)
    now = Now()
    session = Session(game, [PlayerSpec.human()] * 2, clock=data.clock, now=now)
    now.t += 0.05
    session.play(game.legal_moves()[0])
    now.t += 1e12  # a clock jump: nothing counts past the limit either
    session.play(session.game.legal_moves()[0])
    doc = doc_from_game(session.game, [PlayerSpec.human()] * 2, session.clock)
    again = loads(dumps(doc))
    assert again.clock.used[0] == MAX_SECONDS and again.clock.used[1] == MAX_SECONDS
