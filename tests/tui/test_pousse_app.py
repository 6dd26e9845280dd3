"""The Pousse board in the app at 80x24: geometry, cursor, preview, whole games by keys, the AI."""

from __future__ import annotations

import time

import pytest

from rules.pousse import Pousse
from tui.app import ArenaApp
from tui.screens.dialogs import ResultScreen
from tui.screens.game import GameScreen
from tui.session import Player
from tui.widgets.pousse_board import PousseBoard, fit, step

SIZE = (80, 24)
HUMAN = Player("human")
OPPOSITE = {"T": "B", "B": "T", "L": "R", "R": "L"}
CLOCKWISE = {"T": "right", "R": "down", "B": "left", "L": "up"}


def app_for(size: int, players=(HUMAN, HUMAN), **kw) -> ArenaApp:
    return ArenaApp("pousse", options={"size": size}, players=players, clocks_running=False,
                    now=lambda: 0.0, **kw)


async def walk_to(pilot, board: PousseBoard, target: tuple[str, int]) -> None:
    """Move the cursor to `target` with arrow keys only (along edges, round corners)."""
    for _ in range(4 * board.game.size + 2):
        side, i = board.cursor
        if (side, i) == target:
            return
        if target[0] == side:
            forward = "right" if side in "TB" else "down"
            back = "left" if side in "TB" else "up"
            key = forward if target[1] > i else back
        elif target[0] == OPPOSITE[side]:
            key = "down" if side in "TB" else "right"
        else:
            key = CLOCKWISE[side]
        await pilot.press(key)
    assert board.cursor == target


async def play_keys(pilot, board: PousseBoard, moves: list[str]) -> None:
    game = board.game
    for text in moves:
        before = len(game.history)
        await walk_to(pilot, board, game.parse_move(text))
        await pilot.press("enter")
        await pilot.pause()
        assert len(game.history) == before + 1, f"{text} was not played"


# ----- pure geometry and cursor ------------------------------------------------------------------
@pytest.mark.parametrize("n", range(4, 21))
def test_fit_is_a_fixed_point_and_stays_inside(n: int) -> None:
    for width, height in [(40, 19), (44, 22), (44, 23), (62, 35), (100, 60)]:
        g = fit(n, width, height)
        assert fit(n, g.width, g.height) == g
        if n * 2 + 4 <= width and n + 2 <= height:
            assert g.width <= width and g.height <= height
        assert 2 <= g.cw and 1 <= g.ch


def test_twenty_needs_44_by_22_and_small_boards_grow() -> None:
    g = fit(20, 44, 22)
    assert (g.width, g.height, g.info) == (44, 22, False)
    assert fit(20, 44, 23).info
    assert fit(4, 40, 22).cw > fit(4, 20, 12).cw


def test_arrows_follow_the_edges_and_turn_corners() -> None:
    n = 5
    assert step(("T", 5), "right", n) == ("R", 1)
    assert step(("T", 1), "left", n) == ("L", 1)
    assert step(("L", 1), "up", n) == ("T", 1)
    assert step(("R", 1), "up", n) == ("T", 5)
    assert step(("R", 5), "down", n) == ("B", 5)
    assert step(("B", 5), "right", n) == ("R", 5)
    assert step(("B", 1), "left", n) == ("L", 5)
    assert step(("L", 5), "down", n) == ("B", 1)
    assert step(("T", 3), "down", n) == ("B", 3)
    assert step(("L", 2), "right", n) == ("R", 2)
    assert step(("T", 3), "left", n) == ("T", 2)
    # clockwise all the way round visits every insertion point once
    seen, move = [], ("T", 1)
    for _ in range(4 * n):
        seen.append(move)
        move = step(move, CLOCKWISE[move[0]], n)
    assert move == ("T", 1) and len(set(seen)) == 4 * n


# ----- the app --------------------------------------------------------------------------------
async def test_hot_seat_game_to_a_straight_by_keys() -> None:
    app = app_for(5)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.board
        assert isinstance(board, PousseBoard)
        await play_keys(pilot, board, ["L1", "L2"] * 4)
        # the next L1 fills row 1 with X: the preview says so before it is played
        await walk_to(pilot, board, ("L", 1))
        assert "X WINS" in board.info_text().plain
        await pilot.press("enter")
        await pilot.pause()
        result = app.screen
        assert isinstance(result, ResultScreen)
        text = "\n".join(result.lines)
        assert "Human wins as X" in text
        assert "X wins with 1 straight to 0" in text
        assert "Rule: more straights wins" in text
        assert "X 1 straight: row 1" in text and "O 0 straights" in text
        await pilot.press("enter")  # Enter only closes the end screen: the board stays
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.session.game.is_over


async def test_hot_seat_game_lost_by_repetition_by_keys() -> None:
    app = app_for(5)
    async with app.run_test(size=SIZE) as pilot:
        board = app.screen.board
        game = board.game
        await play_keys(pilot, board, ["L1"] * 6)  # row 1 full: X O X O X, then O pushes X off
        assert game.rows()[0] == "OXOXO"
        await walk_to(pilot, board, ("L", 1))
        preview = board.preview()
        assert preview is not None and preview.repeats and preview.pushed_off == (0, 4)
        assert "REPEATS a position: X LOSES" in board.info_text().plain
        lines = board.render().plain.splitlines()
        assert "×" in lines[1 + board.geometry().mark_y]  # the falling marker is marked
        await pilot.press("space")
        await pilot.pause()
        result = app.screen
        assert isinstance(result, ResultScreen)
        text = "\n".join(result.lines)
        assert "Human wins as O" in text
        assert "X repeated an earlier position and loses" in text
        assert "Rule: repeating a position loses for the mover" in text


async def test_click_on_an_edge_inserts_and_cells_do_nothing() -> None:
    app = app_for(6)
    async with app.run_test(size=SIZE) as pilot:
        board = app.screen.board
        g = board.geometry()
        cell = (g.left + 2 * g.cw + g.mark_x, 1 + 2 * g.ch + g.mark_y)
        await pilot.click(PousseBoard, offset=cell)
        await pilot.pause()
        assert board.game.history == []
        right_edge_row_2 = (g.left + g.n * g.cw + g.gap, 1 + g.ch + g.mark_y)
        await pilot.click(PousseBoard, offset=right_edge_row_2)
        await pilot.pause()
        assert board.game.history == [("R", 2)]
        bottom_edge_col_4 = (g.left + 3 * g.cw + g.mark_x, 1 + g.n * g.ch)
        await pilot.click(PousseBoard, offset=bottom_edge_col_4)
        await pilot.pause()
        assert board.game.history == [("R", 2), ("B", 4)]
        assert board.game.last_move == ("B", 4)


async def test_hint_moves_the_cursor_and_is_named() -> None:
    app = app_for(5)
    async with app.run_test(size=SIZE) as pilot:
        board = app.screen.board
        board.show_hint(("R", 4))
        await pilot.pause()
        assert board.cursor == ("R", 4)
        assert board.info_text().plain.startswith("hint R4:")
        await pilot.press("enter")
        await pilot.pause()
        assert board.game.history == [("R", 4)] and board.hint is None


@pytest.mark.parametrize("n", range(4, 21))
async def test_every_size_fits_80_by_24(n: int) -> None:
    app = app_for(n)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        board = screen.board
        g = board.geometry()
        box = screen.query_one("#board-box").content_region
        assert (g.width, g.height) == board.content_size
        assert box.contains_region(board.region), (box, board.region)
        assert g.info or n == 20
        # only boards too tall for the frame and the title row give them up
        assert screen.query_one("#title").display == (n <= 16)
        # the players panel keeps one 32-character line per side (nothing wraps)
        assert screen.query_one("#players").content_region.width >= 32


async def test_a_game_against_the_ai() -> None:
    app = app_for(5, (HUMAN, Player("ai", "easy")), ai_seconds=0.2)
    async with app.run_test(size=SIZE) as pilot:
        deadline = time.monotonic() + 120
        while not app.engine_ready("pousse"):
            assert time.monotonic() < deadline, "the engine never got ready"
            await pilot.pause(0.1)
        screen = app.screen
        board = screen.board
        await walk_to(pilot, board, ("T", 3))
        await pilot.press("enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        game = screen.session.game
        assert len(game.history) == 2
        reply = game.history[1]
        assert reply in Pousse(size=5).legal_moves()
        assert screen._status == f"O played {game.move_text(reply)}."
        assert game.last_move == reply and not board.locked
