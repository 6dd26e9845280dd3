"""LOAPS in the app at 80x24: a whole game against the AI through the Pilot, to the end
screen and the return game. (The board's own facts: test_board_loaps.py.)"""

from __future__ import annotations

import random

import pytest

from rules import PlayerSpec
from tests.tui.test_app import play_to_the_end
from tui.app import ArenaApp
from tui.screens.dialogs import ResultScreen
from tui.screens.game import GameScreen
from tui.widgets.boards.loaps import points_text

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves, setup choices and saves of these tests never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


async def test_a_whole_game_against_the_ai_through_the_pilot() -> None:
    app = ArenaApp("loaps", players=[PlayerSpec.human("Ann"), PlayerSpec.ai("easy")],
                   clocks_running=False, ai_seconds=0.05)
    rng = random.Random(11)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        session = screen.session
        await play_to_the_end(pilot, screen, lambda game: rng.choice(game.legal_moves()))
        game = session.game
        assert len(game.history) >= 2
        assert not session.player(0).is_ai and session.player(1).is_ai
        result = app.screen
        assert isinstance(result, ResultScreen)
        text = "\n".join(result.lines)
        assert game.outcome is not None and game.outcome.reason in text
        assert points_text(game) in text  # "red 1 point, blue 21"
        assert result.lines[0].startswith("Game 1 of 2: ")
        await pilot.click("#next")  # the return game: the AI moves first, as red
        await pilot.pause()
        assert session.player(0).is_ai and session.label(1) == "Ann"
