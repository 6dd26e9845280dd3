"""Pillars in the app at 80x24 through the Pilot: a whole hot-seat game played by keys with
both jokers, to the end screen's scores; a whole game against the AI; a save with the
jokers and the clocks loaded back. (The board's own facts: test_board_pillars.py.)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import PlayerSpec, TimeControl
from rules.pillars import Pillars
from tests.tui.test_app import FakeClock, play_by_keys, play_to_the_end
from tui.app import ArenaApp
from tui.screens.dialogs import ResultScreen
from tui.screens.game import GameScreen
from tui.widgets.boards.pillars import PillarsBoard

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves, setup choices and saves of these tests never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def big_safe_move(game: Pillars, rng: random.Random, claim: bool = False) -> tuple:
    """A large rectangle that does not fill the last cell (so the game lasts a while but
    not long), claiming if asked."""
    rects = game.rectangles()
    area = [(b - t + 1) * (r - lc + 1) for t, lc, b, r in rects]
    safe = [(a, m) for a, m in zip(area, rects, strict=True) if a < game.empty] or list(
        zip(area, rects, strict=True))
    safe.sort(reverse=True)
    _, (t, lc, b, r) = rng.choice(safe[:4])
    return (t, lc, b, r, claim)


async def test_a_whole_hot_seat_game_by_keys_with_both_jokers() -> None:
    app = ArenaApp("pillars", players=[PlayerSpec.human("Ann"), PlayerSpec.human("Bob")],
                   options={"pillars": "random"}, seed=5, clocks_running=False)
    rng = random.Random(2)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        game = screen.session.game
        assert isinstance(game, Pillars)
        while not game.is_over:
            # red claims on its second move, blue on its first (worth 9)
            claim = len(game.history) in (1, 2)
            move = big_safe_move(game, rng, claim)
            before = len(game.history)
            await play_by_keys(pilot, screen.board, move)
            assert len(game.history) == before + 1
            assert game.history[-1] == move  # the joker went with it when armed
            assert screen.board.anchor is None and not screen.board.armed
            game = screen.session.game
        await pilot.pause()
        assert game.claims[1] == 9 and game.claims[0] is not None
        result = app.screen
        assert isinstance(result, ResultScreen)
        assert result.lines[0].startswith("Game 1 of 2: ")
        assert result.lines[1:4] == PillarsBoard.describe_result(game)
        assert "Return game: same start board, sides swapped." in result.lines
        assert screen.board.locked
        text = "\n".join(result.lines)
        outcome = game.outcome
        assert outcome is not None and outcome.reason in text
        for line in game.score_lines():  # both scores and how they were made
            assert line in text
        assert "18 + " in text and "9 - " in text


async def test_a_whole_game_against_the_ai() -> None:
    app = ArenaApp("pillars", players=[PlayerSpec.human("Ann"), PlayerSpec.ai("easy")],
                   seed=8, clocks_running=False, ai_seconds=0.05)
    rng = random.Random(4)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        session = screen.session
        await play_to_the_end(pilot, screen, lambda game: big_safe_move(game, rng))
        game = session.game
        assert len(game.history) >= 2 and game.outcome is not None
        result = app.screen
        assert isinstance(result, ResultScreen)
        assert game.score_lines()[0] in "\n".join(result.lines)


async def test_a_save_keeps_the_pillars_the_jokers_and_the_clocks(tmp_path: Path) -> None:
    now = FakeClock()
    control = TimeControl.parse("game:300")
    app = ArenaApp("pillars", players=[PlayerSpec.human(), PlayerSpec.human()], seed=3,
                   control=control, now=now, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        session = screen.session
        rng = random.Random(1)
        for claim in (True, False, False, True):
            now.t += 3
            await play_by_keys(pilot, screen.board, big_safe_move(session.game, rng, claim))
        game = session.game
        used = [session.clock_spent(m) for m in range(2)]
        path = app.services.save_session(session, "jokers")
        loaded = app.services.load_session(path)
    again = loaded.game
    assert isinstance(again, Pillars) and isinstance(game, Pillars)
    assert again.pillars == game.pillars and again.history == game.history
    assert again.claims == game.claims and game.claims[0] == 9 and game.claims[1] is not None
    assert again.history_text()[0].startswith("!") and again.history_text()[3].startswith("!")
    assert loaded.control == control and loaded.clock.used == pytest.approx(used)
    assert used == pytest.approx([6, 6])
