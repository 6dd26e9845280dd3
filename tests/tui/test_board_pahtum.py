"""Pah-Tum's own board facts: the 7x7 picture and its glyphs, the wrapping cursor, clicks on
cells, lit scoring runs and the end screen's run lines; the board mounted alone at 80x24."""

from __future__ import annotations

from conftest import Host
from rich.console import Console

from rules import Termination
from rules.pahtum import PahTum, parse_cell
from tui.widgets.boards.pahtum import CELL_W, LEFT, TOP, PahTumBoard

SIZE = (80, 24)
FULL = ("XXXXOOO\n"  # X scores A1-A4 (10), O A5-A7 (3); nothing else runs
        "OXOXOXO\n"
        "XOXOXOX\n"
        "OXOXOXO\n"
        "XOXOXOX\n"
        "OXOXOXO\n"
        "+OXOXOX\n")


def sample(*moves: str) -> PahTum:
    """The seed's sample board (B7, C4, E3, E4, G1 blocked) after `moves`."""
    game = PahTum.new({"board": "sample"})
    game.replay(list(moves))
    return game


def box(board: PahTumBoard, name: str) -> str:
    """The three characters drawn for a cell: its brackets and its glyph."""
    r, c = divmod(parse_cell(name), 7)
    line = board.render().plain.splitlines()[TOP + 2 * r]
    return line[LEFT + c * CELL_W + 1:LEFT + c * CELL_W + 4]


async def test_the_picture_and_its_glyphs() -> None:
    app = Host(sample("A1", "A2"))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        assert tuple(board.content_size) == (LEFT + 7 * CELL_W, TOP + 13)
        lines = board.render().plain.splitlines()
        assert lines[0].split() == list("1234567")
        assert [line[:4] for line in lines[1::2]] == [f" {r}  " for r in "ABCDEFG"]
        assert box(board, "A1") == " X " and box(board, "A2") == "(O)"  # the last move
        assert box(board, "B7") == " # " and box(board, "C1") == " . "
        assert box(board, "D4") == "[.]"  # the cursor starts mid-board
        board.show_hint(parse_cell("F6"))
        await pilot.pause()
        assert box(board, "F6") == "[.]"  # the hint takes the cursor
        board.locked = True  # the cursor goes; the hint stays
        await pilot.pause()
        assert box(board, "F6") == "<.>" and box(board, "D4") == " . "


async def test_arrows_wrap_round_the_grid() -> None:
    app = Host(sample())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert board.cursor == parse_cell("D4")
        await pilot.press("up", "up", "up", "up")
        assert board.cursor == parse_cell("G4")
        await pilot.press("right", "right", "right", "right")
        assert board.cursor == parse_cell("G1")  # a blocked cell: the cursor may rest there
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [parse_cell("G1")]  # the screen, not the board, says no


async def test_a_click_on_a_cell_picks_it() -> None:
    app = Host(sample())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.click(PahTumBoard, offset=(LEFT + 5 * CELL_W + 2, TOP + 2 * 4))
        await pilot.click(PahTumBoard, offset=(LEFT - 1, TOP + 2 * 4))  # the row label
        await pilot.click(PahTumBoard, offset=(LEFT + 2, TOP - 1))  # the column label
        await pilot.pause()
        assert app.picked == [parse_cell("E6")] and board.cursor == parse_cell("E6")


async def test_scoring_runs_are_lit_in_their_owners_colour() -> None:
    app = Host(PahTum.from_native(FULL))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        text = board.render()
        console = Console()
        lines = text.plain.splitlines(keepends=True)
        row_a = sum(len(line) for line in lines[:TOP])

        def style_at(col: int):
            return text.get_style_at_offset(console, row_a + LEFT + col * CELL_W + 2)

        for col in range(4):
            assert style_at(col).bgcolor == board.style("run-0").bgcolor and style_at(col).underline
            assert style_at(col).color == board.style("player-0").color
        for col in range(4, 7):
            assert style_at(col).bgcolor == board.style("run-1").bgcolor
        row_b = row_a + len(lines[1]) + len(lines[2])
        plain = text.get_style_at_offset(console, row_b + LEFT + 2)
        assert plain.bgcolor == board.style("empty").bgcolor and not plain.underline


def test_the_result_lists_each_sides_runs() -> None:
    game = PahTum.from_native(FULL)
    assert game.is_over
    assert PahTumBoard.describe_result(game) == [
        "board full: X wins 10 to 3", "X 10: A1-A4 10", "O 3: A5-A7 3"]
    timed = sample("A1")
    timed.forfeit(1, Termination.TIME, "O ran out of time")
    assert PahTumBoard.describe_result(timed) == [
        "O ran out of time", "X 0: no runs", "O 0: no runs"]
