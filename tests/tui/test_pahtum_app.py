"""Pah-Tum's own facts in the app at 80x24: a whole game by keys to its score lines, the
rules text, the two-game match by margins. (The board's own facts: test_board_pahtum.py.)"""

from __future__ import annotations

import random

import pytest

from rules import PlayerSpec
from tui.app import ArenaApp
from tui.screens.common import RulesDialog
from tui.screens.dialogs import ResultScreen
from tui.screens.game import GameScreen
from tui.widgets.boards.pahtum import PahTumBoard

SIZE = (80, 24)
HUMAN = PlayerSpec.human()


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves, setup choices and saves of these tests never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def app_for(players=(HUMAN, HUMAN), blocks: str = "21", seed: int = 4, **kw) -> ArenaApp:
    return ArenaApp("pahtum", options={"blocks": blocks}, seed=seed, players=players,
                    clocks_running=False, **kw)


async def play_by_keys(pilot, board: PahTumBoard, cell: int) -> None:
    """Walk the cursor to `cell` with the arrow keys, then press Enter."""
    r, c = divmod(board.cursor, 7)
    tr, tc = divmod(cell, 7)
    keys = ["down" if tr > r else "up"] * abs(tr - r)
    keys += ["right" if tc > c else "left"] * abs(tc - c)
    await pilot.press(*keys, "enter")


async def test_whole_hot_seat_game_by_keys_to_the_final_score() -> None:
    app = app_for(blocks="25")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        game = screen.session.game
        while not game.is_over:
            before = len(game.history)
            r, c = divmod(screen.board.cursor, 7)
            near = min(game.legal_moves(), key=lambda m: abs(m // 7 - r) + abs(m % 7 - c))
            await play_by_keys(pilot, screen.board, near)
            assert len(game.history) == before + 1
        await pilot.pause()
        result = app.screen
        assert isinstance(result, ResultScreen)
        x, o = game.scores()
        text = "\n".join(result.lines)
        assert f"X {x}:" in text and f"O {o}:" in text  # the runs, from the board
        assert game.outcome.reason in text
        assert "Return game: same start board, sides swapped." in text
        assert result.lines[0].startswith("Game 1 of 2: ")
        await pilot.press("escape")  # the board: a hint has no move to give
        await pilot.press("h")
        await pilot.pause()
        assert screen._status.startswith("The game is over, so there is no move to hint")


async def test_the_rules_give_the_run_scores() -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesDialog)
        assert "3 -> 3, 4 -> 10, 5 -> 25" in str(app.screen.query_one("#result-lines").render())


async def test_the_match_sums_the_margins_of_both_games() -> None:
    ann, bob = PlayerSpec.human("Ann"), PlayerSpec.human("Bob")
    app = app_for((ann, bob), blocks="25")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        rng = random.Random(3)
        points = []
        for _ in range(2):
            game = screen.session.game
            while not game.is_over:
                screen._play(rng.choice(game.legal_moves()))
            points.append(game.outcome.points)
            await pilot.pause()
            if not screen.session.match_over:
                await pilot.click("#next")
                await pilot.pause()
                assert screen.title_line[1] == "X to move: Bob"
                assert "X Bob" in str(screen.query_one("#players").render())
        (x1, o1), (x2, o2) = points
        ann_margin, bob_margin = (x1 - o1) + (o2 - x2), (o1 - x1) + (x2 - o2)
        text = "\n".join(app.screen.lines)
        assert "Match result (sum of margins):" in text
        assert f"Ann (first X): {ann_margin:+d}" in text
        assert f"Bob (first O): {bob_margin:+d}" in text


async def test_the_cursor_starts_on_a_free_cell_and_a_blocked_one_is_refused_in_words() -> None:
    app = app_for(seed=0)  # D4, the middle, is blocked on this board
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        game, board = screen.session.game, screen.board
        assert game.board[24] == "+"
        assert game.board[board.cursor] == "-"  # a free cell next to the middle
        r, c = divmod(board.cursor, 7)
        assert abs(r - 3) + abs(c - 3) == 1
        await play_by_keys(pilot, board, 24)  # Enter on D4
        await pilot.pause()
        assert game.history == []
        assert screen._status == "Illegal: D4 is blocked: a letter goes on an empty cell"
        await play_by_keys(pilot, board, r * 7 + c)
        await play_by_keys(pilot, board, r * 7 + c)  # taken now
        await pilot.pause()
        name = "ABCDEFG"[r] + str(c + 1)
        assert screen._status == f"Illegal: {name} is taken by X: a letter goes on an empty cell"
