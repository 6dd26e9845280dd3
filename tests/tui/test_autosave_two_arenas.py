"""Two Arenas on one saves folder (two terminals): neither overwrites nor removes the
other's autosave, and each unfinished game is still found afterwards.

Each `Services` is one Arena; the sessions are played by hand, as the game screen
would, with `autosave` after every move and the writer flushed before looking."""

from __future__ import annotations

import random
from pathlib import Path

from rules import PlayerSpec
from rules.pousse import Pousse
from saves.store import autosave_path, read_autosave, read_save, slot_text
from tui.play.session import Session
from tui.services import Services

HUMAN = PlayerSpec.human()


def arena(folder: Path) -> Services:
    return Services(lambda message: None, save_dir=folder)


def new_session(seed: int) -> Session:
    """A game of one game (no match to go on with once it is over)."""
    return Session(Pousse.new({"size": "4"}, seed=seed), (HUMAN, HUMAN))


def move(services: Services, session: Session, rng: random.Random) -> str | None:
    """One random move, autosaved as the game screen does; the notices it brings."""
    session.play(rng.choice(session.game.legal_moves()))
    kept = services.autosave(session)
    assert services.writer.flush(5.0)
    assert services.take_write_error() is None
    return kept or services.take_write_notice()


def history(path: Path) -> list:
    return list(read_save(path)[1].history)


def test_a_game_of_the_same_kind_in_another_arena_takes_the_slot_and_loses_nothing(
        tmp_path: Path) -> None:
    rng = random.Random(1)
    one, two = arena(tmp_path), arena(tmp_path)
    a, b = new_session(1), new_session(2)
    for _ in range(3):
        assert move(one, a, rng) is None
    said = move(two, b, rng)  # the other Arena's first move: a's game goes among the saves
    assert said is not None and "pousse-unfinished-" in said
    assert read_autosave(tmp_path, "pousse")[1].history == b.game.history
    assert one.autosaved_as(a) is None
    said = move(one, a, rng)  # a's Arena finds the slot written by the other: not its own
    assert said is not None and said.startswith("Another Arena wrote the Pousse autosave")
    own = one.autosaved_as(a)
    assert own is not None and own.parent == tmp_path and own.name in said
    assert history(own) == a.game.history
    assert read_autosave(tmp_path, "pousse")[1].history == b.game.history  # not overwritten
    for _ in range(2):  # each goes on in its own file, said once
        assert move(one, a, rng) is None and move(two, b, rng) is None
    assert history(own) == a.game.history
    assert read_autosave(tmp_path, "pousse")[1].history == b.game.history

    # a game over, or saved by name, drops its own autosave and leaves the other's slot
    one.save_session(a, "kept-a")
    assert one.writer.flush(5.0)
    assert not own.exists() and history(tmp_path / "kept-a.arena.json") == a.game.history
    assert read_autosave(tmp_path, "pousse")[1].history == b.game.history


def test_a_game_resumed_in_two_arenas_goes_on_in_both(tmp_path: Path) -> None:
    rng = random.Random(2)
    one = arena(tmp_path)
    a = new_session(3)
    for _ in range(2):
        move(one, a, rng)
    two = arena(tmp_path)
    b = two.resume_session("pousse")  # the game still on the first Arena's screen
    assert b is not None and b.game.history == a.game.history
    assert move(two, b, rng) is None  # it wrote nothing since: the slot is b's now
    said = move(one, a, rng)
    assert said is not None and "Another Arena" in said
    own = one.autosaved_as(a)
    assert own is not None and history(own) == a.game.history
    assert read_autosave(tmp_path, "pousse")[1].history == b.game.history
    assert a.game.history != b.game.history  # two games from one start, both kept


def test_a_finished_game_leaves_a_slot_another_arena_wrote(tmp_path: Path) -> None:
    rng = random.Random(3)
    one, two = arena(tmp_path), arena(tmp_path)
    a = new_session(4)
    move(one, a, rng)
    b = two.resume_session("pousse")
    assert b is not None
    move(two, b, rng)
    theirs = slot_text(tmp_path, "pousse")
    while not a.game.is_over:  # a's game ends in the first Arena: its autosave goes
        a.play(rng.choice(a.game.legal_moves()))
    one.autosave(a)
    assert one.writer.flush(5.0)
    assert slot_text(tmp_path, "pousse") == theirs  # but the slot was the other's


def test_one_arena_alone_clears_its_slot_when_the_game_ends(tmp_path: Path) -> None:
    rng = random.Random(4)
    one = arena(tmp_path)
    a = new_session(5)
    move(one, a, rng)
    assert autosave_path(tmp_path, "pousse").exists()
    while not a.game.is_over:
        a.play(rng.choice(a.game.legal_moves()))
    one.autosave(a)
    assert one.writer.flush(5.0)
    assert not autosave_path(tmp_path, "pousse").exists()
    assert not list(tmp_path.glob("*.arena.json"))
