"""The board base, for every registered game: each board mounted alone in a tiny app at 80x24
(and larger, where the board grows); the colours every board shares.

Nothing here knows a game: moves come from `legal_moves()`, the cursor from the
board's own `step`/`move_for`/`choices_for`/`target_at`. The app is not involved (see
test_app.py).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Hashable
from pathlib import Path

import pytest
from conftest import Host, new_game, play_out
from rich.color import Color
from rich.console import Console
from rich.style import Style

from rules import Termination, game_names, get_game
from tui.widgets.boards import board_class, has_board
from tui.widgets.boards.grid import SEATS, SIDE_MIN, GridBoard

SIZE = (80, 24)
SIZES = [(80, 24), (120, 40), (160, 50)]
ARROWS = ("up", "down", "left", "right")
TCSS = Path(__file__).resolve().parents[2] / "tui" / "boards.tcss"


def styled(board: GridBoard) -> str:
    """The board's picture with its colours, as terminal text."""
    console = Console(file=io.StringIO(), record=True, width=200, color_system="truecolor",
                      force_terminal=True)
    console.print(board.render(), end="", soft_wrap=True)
    return console.export_text(styles=True)


async def walk_to_legal(pilot, board: GridBoard) -> Hashable:
    """Arrow keys until the cursor stands on a legal move; that move. On a board whose
    moves take several choices (`choices_for`), Enter on each of a move's earlier
    choices first, so that Enter on the last would pick it."""
    game = board.game
    for i in range(400):
        move = board.move_for(board.cursor)
        if game.is_legal(move):
            return move
        ready = [m for m in game.legal_moves()
                 if board.choices_for(m)[:-1] == [board.cursor]]
        if ready and board.move_for(board.choices_for(ready[0])[-1]) != ready[0]:
            await pilot.press("enter")  # the cursor is on an earlier choice: choose it
            continue
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


@pytest.mark.parametrize("size", SIZES)
async def test_a_click_picks_the_move_under_it(game_name: str, size: tuple[int, int]) -> None:
    app = Host(new_game(game_name))
    async with app.run_test(size=size) as pilot:
        board = app.board
        await pilot.pause()
        width, height = board.content_size
        spots = [(x, y, board.target_at(x, y)) for y in range(height) for x in range(width)]
        move = next(m for m in board.game.legal_moves()
                    if board.choices_for(m)[-1] != board.cursor)
        assert any(t is None for *_, t in spots)  # labels and gaps pick nothing
        for choice in board.choices_for(move):  # one click a choice, most boards one
            x, y = next((x, y) for x, y, t in spots if t == choice)
            await pilot.click(type(board), offset=(x, y))
        await pilot.pause()
        assert app.picked == [move] and board.cursor == board.choices_for(move)[-1]


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
        # the same hint again, after the cursor left it: the cursor comes back
        await pilot.press("right")
        assert board.move_for(board.cursor) != move
        board.show_hint(move)
        await pilot.pause()
        assert board.move_for(board.cursor) == move
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


async def test_larger_terminals_give_the_board_more_room(game_name: str) -> None:
    areas = []
    for width, height in SIZES:
        app = Host(new_game(game_name))
        async with app.run_test(size=(width, height)) as pilot:
            await pilot.pause()
            board = app.board
            w, h = board.content_size
            # at most about 60% of the terminal, always leaving a side panel its width
            assert w <= width * 3 // 5 and w <= width - SIDE_MIN, (width, w)
            assert h <= height
            lines = board.render().plain.splitlines()
            assert len(lines) == h and max(len(line) for line in lines) <= w
            areas.append(w * h)
    # a larger terminal gives a larger board (up to the board's own largest cells)
    assert areas == sorted(areas) and areas[1] > areas[0], areas


def luminance(color: Color) -> float:
    """The relative luminance of a colour (WCAG 2)."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = color.get_truecolor()
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Color, b: Color) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def distance(a: Color, b: Color) -> float:
    return sum((x - y) ** 2 for x, y in zip(a.get_truecolor(), b.get_truecolor(),
                                             strict=True)) ** 0.5


async def test_empty_cells_are_legible_and_blocked_ones_stand_apart() -> None:
    app = Host(new_game(game_names()[0]))
    async with app.run_test(size=SIZE):
        board = app.board
        # an empty cell's dot reads on its shade (WCAG AA for text: 4.5:1)
        for name in ("empty", "chequer-0", "chequer-1", "blocked"):
            style = board.style(name)
            assert contrast(style.color, style.bgcolor) >= 4.5, name
        # a blocked cell differs from an empty one by colour, not only by glyph
        empty, blocked = board.style("empty"), board.style("blocked")
        assert distance(empty.bgcolor, blocked.bgcolor) >= 80
        assert abs(luminance(empty.bgcolor) - luminance(blocked.bgcolor)) >= 0.02
        hatch = board.style("hatch").color
        assert hatch is not None and distance(hatch, blocked.bgcolor) >= 40


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
