"""Board flip (`f`): the boards whose seats sit on sides of them turn (Pah-Tum and
Pillars a half turn, LOAPS a quarter turn: blue's edges on top and at the bottom);
clicks, the labels, the cursor keys and the notation of the moves picked stay right,
and the board stays turned across moves."""

from __future__ import annotations

from collections.abc import Hashable

from conftest import Host, new_game

from rules import PlayerSpec
from tui.app import ArenaApp
from tui.screens.game import GameScreen
from tui.widgets.boards import board_class
from tui.widgets.boards.grid import GridBoard

SIZE = (80, 24)
FLIPPING = {"pahtum", "loaps", "pillars"}
# the turned board at 80x24: its quarter turns, the labels over it and beside it
TURNED = {"pahtum": (2, "7654321", "GFEDCBA"), "loaps": (1, "1234567", "abcdefg"),
          "pillars": (2, "jihgfedcba", "JIHGFEDCBA")}


def places(board: GridBoard) -> dict[tuple[int, int], Hashable]:
    """The target under every content offset that has one."""
    size = board.content_size
    return {(x, y): t for x in range(size.width) for y in range(size.height)
            if (t := board.target_at(x, y)) is not None}


def test_the_boards_with_seats_on_two_sides_flip(game_name: str) -> None:
    assert board_class(game_name).FLIPS == (game_name in FLIPPING)


async def test_a_turned_board_maps_clicks_and_labels_a_half_turn(game_name: str) -> None:
    app = Host(new_game(game_name, seed=2))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        before = places(board)
        await pilot.press("f")
        await pilot.pause()
        if game_name not in FLIPPING:
            assert not board.flipped and places(board) == before
            return
        assert board.flipped
        rows, cols = board.shape()
        turns, over, beside = TURNED[game_name]
        assert board.FLIP_TURNS == turns
        after = places(board)
        assert after.keys() == before.keys()

        def turned(place: int) -> int:  # the cell a place shows, turned clockwise
            r, c = divmod(place, cols)
            for _ in range(turns):
                r, c = rows - 1 - c, r
            return r * cols + c

        assert all(after[xy] == turned(before[xy]) for xy in before)  # type: ignore[arg-type]
        lines = board.render().plain.splitlines()
        assert "".join(lines[0].split()) == over
        beside_labels = [label for line in lines[1:] if (label := line[:2].strip())]
        assert "".join(beside_labels[:rows]) == beside
        for place in range(rows * cols):
            assert board.place_of(board.shown(place)) == place
        await pilot.press("f")
        await pilot.pause()
        assert places(board) == before


async def test_on_a_turned_board_up_goes_up_the_screen_and_clicks_pick_the_cell_shown(
        game_name: str) -> None:
    if game_name not in FLIPPING:
        return
    game = new_game(game_name, seed=2)
    app = Host(game)
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.flip()
        cols = board.shape()[1]
        start = board.cursor
        await pilot.press("up", "left")
        # one row up and one column left on the screen: where the board shows it
        assert board.place_of(board.cursor) == board.place_of(start) - cols - 1  # type: ignore[arg-type]
        # a click picks the cell drawn there, whose name the move's notation gives
        spots = places(board)
        move = game.legal_moves()[0]
        await pilot.press(*board.keys_for(move))
        for target in board.choices_for(move):
            xy = next(xy for xy, t in spots.items() if t == target)
            await pilot.click(type(board), offset=xy)
            await pilot.pause()
        assert app.picked and game.move_text(app.picked[-1]) == game.move_text(move)


async def test_the_board_stays_turned_across_moves_on_the_game_screen() -> None:
    people = (PlayerSpec.human("Ann"), PlayerSpec.human("Bob"))
    app = ArenaApp("pahtum", players=people, seed=2, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("f")
        cell = screen.board.cursor
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.game.history == [cell] and screen.board.flipped
        await pilot.press("u")
        await pilot.pause()
        assert screen.board.flipped
