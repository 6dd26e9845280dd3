"""Every registered game keeps the one shape: its declaration, playouts with undo, copy and
key, move text and native round trips. A new game is covered by adding its name to GAMES."""

from __future__ import annotations

import random

import pytest
from conftest import new_game, play_out, random_position

from rules import (
    Game,
    MatchRule,
    MoveError,
    PositionError,
    Protocol,
    RulesError,
    Termination,
    TimeControl,
    codec_of,
    get_game,
)
from rules.outcome import FORFEITS, LABEL_LENGTH


def test_the_declaration_is_complete(game_name: str) -> None:
    cls = get_game(game_name)
    assert cls.name == game_name and get_game(cls.title) is cls
    assert cls.title and cls.tagline and cls.summary
    low, high = cls.player_count
    assert 2 <= low <= high <= 8
    assert len(cls.default_marks) >= high and len(set(cls.default_marks)) == len(
        cls.default_marks)
    assert isinstance(cls.clock, TimeControl) and cls.clock.limited
    controls = cls.offered_time_controls()
    assert cls.clock in controls and TimeControl.none() in controls
    assert isinstance(codec_of(cls).protocol, Protocol) and codec_of(cls).game_class is cls
    assert isinstance(cls.match_rule, MatchRule) and cls.match_rule.games(low) >= 1
    for spec in cls.option_specs:
        assert spec.parse(spec.default) == spec.default
        game = cls.new({spec.name: spec.default}, seed=1)
        assert not game.is_over


def test_options_are_checked_by_name(game_name: str) -> None:
    cls = get_game(game_name)
    with pytest.raises(PositionError):
        cls.parse_options({"no-such-option": "1"})
    for spec in cls.option_specs:
        assert cls.parse_options({spec.name: str(spec.default)}) == {spec.name: spec.default}
        with pytest.raises(PositionError):
            cls.parse_options({spec.name: "not a value at all"})


def test_seeded_starts_repeat(game_name: str) -> None:
    cls = get_game(game_name)
    a, b = cls.new(None, seed=7), cls.new(None, seed=7)
    assert a.key() == b.key() and a.to_native() == b.to_native()
    if cls.random_start:
        assert len({cls.new(None, seed=s).start_native() for s in range(10)}) > 1
    else:
        assert len({cls.new(None, seed=s).start_native() for s in range(10)}) == 1


def _check_position(game: Game) -> None:
    n = game.players
    assert len(game.marks) == n and 0 <= game.to_move < n
    assert len(game.scores()) == n
    legal = game.legal_moves()
    if game.is_over:
        assert legal == []
        out = game.outcome
        assert out is not None and len(out.points) == n
        assert all(0 <= w < n for w in out.winners)
    else:
        assert legal and all(game.is_legal(m) for m in legal)


def test_random_playouts_with_undo_copy_and_key(game_name: str) -> None:
    rng = random.Random(1)
    for seed in range(12):
        game = new_game(game_name, seed)
        keys = [game.key()]
        while not game.is_over:
            _check_position(game)
            before = game.copy()
            move = rng.choice(game.legal_moves())
            game.play(move)
            assert before.key() == keys[-1]  # a copy does not follow the original
            assert game.undo() == move and game.key() == keys[-1]
            game.play(move)
            keys.append(game.key())
        _check_position(game)
        with pytest.raises(MoveError):
            game.play(before.legal_moves()[0])
        while game.history:  # undo all the way back, through the same positions
            game.undo()
            keys.pop()
            assert game.key() == keys[-1]
            _check_position(game)
        with pytest.raises(MoveError):
            game.undo()


def test_move_text_round_trips(game_name: str) -> None:
    for seed in range(10):
        game = random_position(game_name, seed)
        for move in game.legal_moves():
            text = game.move_text(move)
            assert game.parse_move(text) == move
            assert game.parse_move(f" {text.lower()} ") == move
        for bad in ("", "?", "ZZ99", "-1"):
            with pytest.raises(MoveError):
                game.parse_move(bad)


def test_native_round_trips(game_name: str) -> None:
    cls = get_game(game_name)
    for seed in range(20):
        game = random_position(game_name, seed)
        again = cls.from_native(game.to_native())
        assert again.key() == game.key() and again.to_native() == game.to_native()
        assert again.to_move == game.to_move and again.scores() == game.scores()
        start = cls.from_start(game.options, game.start_native())
        start.replay(game.history_text())
        assert start.key() == game.key()
    for bad in ("", "\n", "garbage\n", "\x00" * 60):
        with pytest.raises(PositionError):
            cls.from_native(bad)


def test_a_forfeit_ends_the_game_and_resume_takes_it_back(game_name: str) -> None:
    game = random_position(game_name, 3, plies=4)
    key, mover = game.key(), game.to_move
    out = game.forfeit(mover, Termination.TIME, "ran out")
    assert game.is_over and game.legal_moves() == [] and out.loser == mover
    assert mover not in out.winners and len(out.winners) == game.players - 1
    with pytest.raises(MoveError):
        game.undo()
    with pytest.raises(RulesError):
        game.forfeit(mover, Termination.TIME, "again")
    game.resume()
    assert not game.is_over and game.key() == key and game.legal_moves()
    with pytest.raises(RulesError):
        game.forfeit(mover, Termination.RULE, "not a forfeit")


def test_finished_games_end_by_a_declared_ending(game_name: str) -> None:
    cls = get_game(game_name)
    assert cls.endings and len(set(cls.endings)) == len(cls.endings)
    assert all(e.kind not in FORFEITS and 0 < len(e.label) <= LABEL_LENGTH
               for e in cls.endings)
    rng = random.Random(5)
    endings = set()
    for seed in range(20):
        game = play_out(new_game(game_name, seed), rng)
        assert game.outcome is not None and game.outcome.ending in cls.endings
        endings.add(game.outcome.ending)
    assert endings
