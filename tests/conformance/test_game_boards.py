"""The board base, for every registered game: each board mounted alone in a tiny app at 80x24.

Nothing here knows a game: moves come from `legal_moves()`, the cursor from the
board's own `step`/`move_for`/`target_at`. The app is not involved (see test_app.py).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Hashable
from pathlib import Path

from conftest import Host, new_game, play_out
from rich.console import Console
from rich.style import Style

from rules import Termination, game_names, get_game
from tui.widgets.boards import board_class, has_board
from tui.widgets.boards.grid import SEATS, GridBoard

SIZE = (80, 24)
ARROWS = ("up", "down", "left", "right")
TCSS = Path(__file__).resolve().parents[2] / "tui" / "boards.tcss"


def styled(board: GridBoard) -> str:
    """The board's picture with its colours, as terminal text."""
    console = Console(file=io.StringIO(), record=True, width=200, color_system="truecolor",
                      force_terminal=True)
    console.print(board.render(), end="", soft_wrap=True)
    return console.export_text(styles=True)


async def walk_to_legal(pilot, board: GridBoard) -> Hashable:
    """Arrow keys until the cursor stands on a legal move; that move."""
    game = board.game
    for i in range(400):
        move = board.move_for(board.cursor)
        if game.is_legal(move):
            return move
        await pilot.press("down" if i % 7 == 6 else "right")
    raise AssertionError("the arrow keys never reached a legal move")


def test_every_game_has_a_board() -> None:
    for name in game_names():
        assert has_board(name)
        assert issubclass(board_class(name), GridBoard)
    assert not has_board("grid") and not has_board("nonesuch")


async def test_arrows_move_the_cursor_and_enter_picks_a_legal_move(game_name: str) -> None:
    app = Host(new_game(game_name))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        for key in ARROWS:
            before = board.cursor
            await pilot.press(key)
            assert board.cursor == board.step(before, key) != before, key
        move = await walk_to_legal(pilot, board)
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [move]
        await pilot.press("space")
        await pilot.pause()
        assert app.picked == [move, move]
        assert board.game.history == []  # the board only reports; the screen plays


async def test_a_click_picks_the_move_under_it(game_name: str) -> None:
    app = Host(new_game(game_name))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        width, height = board.content_size
        spots = [(x, y, board.target_at(x, y)) for y in range(height) for x in range(width)]
        x, y, target = next((x, y, t) for x, y, t in spots
                            if t is not None and t != board.cursor
                            and board.game.is_legal(board.move_for(t)))
        assert any(t is None for *_, t in spots)  # labels and gaps pick nothing
        await pilot.click(type(board), offset=(x, y))
        await pilot.pause()
        assert app.picked == [board.move_for(target)] and board.cursor == target


async def test_a_hint_is_marked_and_moves_the_cursor(game_name: str) -> None:
    app = Host(new_game(game_name))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        game = board.game
        move = next(m for m in reversed(game.legal_moves()) if m != board.move_for(board.cursor))
        board.locked = True  # no cursor drawn: what changes is the hint's mark
        await pilot.pause()
        plain = styled(board)
        board.show_hint(move)
        await pilot.pause()
        assert board.hint == move and board.move_for(board.cursor) == move
        assert styled(board) != plain
        board.locked = False
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [move]
        game.play(move)
        board.refresh_game()
        assert board.hint is None


async def test_a_locked_board_picks_nothing(game_name: str) -> None:
    app = Host(new_game(game_name))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await walk_to_legal(pilot, board)
        board.locked = True
        await pilot.press("enter", "space")
        width, height = board.content_size
        spot = next((x, y) for y in range(height) for x in range(width)
                    if board.target_at(x, y) is not None)
        await pilot.click(type(board), offset=spot)
        await pilot.pause()
        assert app.picked == []
        board.locked = False
        await pilot.press("enter")
        await pilot.pause()
        assert len(app.picked) == 1


async def test_a_finished_game_picks_nothing(game_name: str) -> None:
    app = Host(play_out(new_game(game_name), random.Random(3)))
    async with app.run_test(size=SIZE) as pilot:
        assert app.board.game.is_over
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == []


async def test_the_board_fits_80_by_24_and_draws_every_row(game_name: str) -> None:
    app = Host(new_game(game_name))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.board
        width, height = board.content_size
        assert 0 < width <= SIZE[0] and 0 < height <= SIZE[1]
        lines = board.render().plain.splitlines()
        assert len(lines) == height
        assert max(len(line) for line in lines) <= width


async def test_component_classes_come_from_boards_tcss() -> None:
    app = Host(new_game(game_names()[0]))  # a bare app: only the board's DEFAULT_CSS
    async with app.run_test(size=SIZE):
        board = app.board
        for name in sorted(GridBoard.COMPONENT_CLASSES):
            assert board.get_component_rich_style(name, partial=True) != Style(), name
        players = [board.style(f"player-{i}").color for i in range(SEATS)]
        runs = [board.style(f"run-{i}").bgcolor for i in range(SEATS)]
        assert None not in players and len(set(players)) == SEATS
        assert None not in runs and len(set(runs)) == SEATS
        # the same colours as the stylesheet the app loads
        text = TCSS.read_text()
        for name in GridBoard.COMPONENT_CLASSES:
            rule = re.search(rf"\.{name} \{{([^}}]*)\}}", text)
            assert rule is not None, name
            style = board.get_component_rich_style(name, partial=True)
            for prop, value in re.findall(r"(color|background): (#[0-9a-f]{6})", rule[1]):
                got = style.color if prop == "color" else style.bgcolor
                assert got is not None and got.triplet.hex == value, (name, prop)
        assert board.style("player-0").color.triplet.hex == "#ff6b6b"
        assert board.style("player-1").color.triplet.hex == "#5fb4ff"
        assert board.seat_style(1, run=True).bgcolor.triplet.hex == "#1c3350"


def test_no_game_or_side_is_named_in_the_shared_files() -> None:
    root = Path(__file__).resolve().parents[2]
    for path in ("tui/widgets/boards/grid.py", "tui/widgets/boards/__init__.py", "tui/boards.tcss"):
        source = (root / path).read_text()
        for name in game_names():
            assert name not in source.lower(), path
            assert get_game(name).title.lower() not in source.lower(), path
        assert not re.search(r"[\"'][XO][\"']", source), path


def test_describe_result_starts_with_the_reason(game_name: str) -> None:
    cls = board_class(game_name)
    game = play_out(new_game(game_name), random.Random(5))
    lines = cls.describe_result(game)
    assert lines[0] == game.outcome.reason
    timed = new_game(game_name)
    timed.play(timed.legal_moves()[0])
    timed.forfeit(timed.to_move, Termination.TIME, "out of time")
    assert cls.describe_result(timed)[0] == "out of time"
    assert cls.describe_result(new_game(game_name)) == []
