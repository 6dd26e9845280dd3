"""Pah-Tum's own board facts: the 7x7 picture and its glyphs, the wrapping cursor, clicks on
cells, lit scoring runs and the end screen's run lines, the board mounted alone at 80x24; its
cells growing with the terminal and clicks mapping at every size, in the app; the players
panel's match standing with long names."""

from __future__ import annotations

import random

import pytest
from conftest import Host
from rich.cells import cell_len
from rich.console import Console

from rules import PlayerSpec, Termination
from rules.pahtum import SIZE as CELLS
from rules.pahtum import PahTum, parse_cell
from tui.app import ArenaApp
from tui.screens.game import GameScreen
from tui.widgets.boards.grid import SIDE_MIN
from tui.widgets.boards.pahtum import LEFT, TOP, Geometry, PahTumBoard, fit
from tui.widgets.panels import PlayersPanel

SIZE = (80, 24)
SIZES = [(80, 24), (100, 30), (120, 40), (160, 50)]
HUMAN = PlayerSpec.human()
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


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves of the app tests here never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def box(board: PahTumBoard, name: str) -> str:
    """The middle line of a cell's chip: its brackets and its glyph (3 characters at 80x24)."""
    g = board.geometry()
    r, c = divmod(parse_cell(name), 7)
    line = board.render().plain.splitlines()[TOP + r * g.ch + g.mark_y]
    return line[LEFT + c * g.cw + 1:LEFT + c * g.cw + 1 + g.chip_w]


def glyph_spot(g: Geometry, cell: int) -> tuple[int, int]:
    """The content offset of a cell's glyph."""
    r, c = divmod(cell, 7)
    return LEFT + c * g.cw + g.cw // 2, TOP + r * g.ch + g.mark_y


async def test_the_picture_and_its_glyphs() -> None:
    app = Host(sample("A1", "A2"))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        # the 80x24 board as it always was: 5 columns and 2 lines a cell
        assert board.geometry() == Geometry(2)
        assert tuple(board.content_size) == (LEFT + 7 * 5, TOP + 13)
        lines = board.render().plain.splitlines()
        assert lines[0].split() == list("1234567")
        assert [line[:4] for line in lines[1::2]] == [f" {r}  " for r in "ABCDEFG"]
        assert not any(line.strip() for line in lines[2::2])  # a blank line between rows
        assert box(board, "A1") == " X " and box(board, "A2") == "(O)"  # the last move
        assert box(board, "B7") == "╱#╱" and box(board, "C1") == " . "  # blocked: hatched
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
        await pilot.click(PahTumBoard, offset=(LEFT + 5 * 5 + 2, TOP + 2 * 4))
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
            return text.get_style_at_offset(console, row_a + LEFT + col * 5 + 2)

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
        "O ran out of time", "X 1: no runs, at least 1 for a win by forfeit",
        "O 0: forfeits the game (no runs on the board)"]
    timed = sample("A1", "F1", "A2", "F3", "A3")
    timed.forfeit(0, Termination.TIME, "X ran out of time")
    assert PahTumBoard.describe_result(timed) == [
        "X ran out of time", "X 0: forfeits the game (runs A1-A3 3 on the board)",
        "O 1: no runs, at least 1 for a win by forfeit"]


# ----- sizes: the geometry, then the board in the app ------------------------------------------
def test_fit_is_a_fixed_point_that_grows_with_the_room() -> None:
    scales = []
    for width, height in [(30, 10), (39, 14), (42, 19), (56, 25), (68, 35), (92, 45), (300, 90)]:
        g = fit(width, height)
        assert fit(g.width, g.height) == g
        assert g.width <= width and g.height <= height or g == Geometry(2)
        assert g.cw == 2 * g.ch + 1 and g.chip_h % 2 == 1  # square cells, a middle line
        assert g.chip_y <= g.mark_y < g.chip_y + g.chip_h <= g.ch
        scales.append(g.k)
    assert scales == sorted(scales) and scales[0] == 2 and scales[-1] > 5


def pahtum_app(players=(HUMAN, HUMAN)) -> ArenaApp:
    return ArenaApp("pahtum", options={"board": "sample"}, players=players,
                    clocks_running=False, now=lambda: 0.0)


async def test_larger_terminals_give_the_board_larger_cells() -> None:
    scales = []
    for width, height in SIZES:
        app = pahtum_app()
        async with app.run_test(size=(width, height)) as pilot:
            await pilot.pause()
            screen = app.screen
            board = screen.board
            g = board.geometry()
            scales.append(g.k)
            assert tuple(board.content_size) == (g.width, g.height)
            assert screen.query_one("#board-box").content_region.contains_region(board.region)
            if width > 80:  # at most about 60% of the terminal; the side panel keeps its width
                assert g.width <= width * 3 // 5
            assert screen.query_one("#side").region.width >= SIDE_MIN
            lines = board.render().plain.splitlines()
            assert len(lines) == g.height and max(map(len, lines)) <= g.width
    assert scales[0] == 2  # 80x24 keeps its board
    assert scales == sorted(set(scales)), scales  # and each larger terminal grows it


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50)])
async def test_clicks_and_the_cursor_map_to_cells_at_every_size(size: tuple[int, int]) -> None:
    app = pahtum_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board, game = screen.board, screen.session.game
        g = board.geometry()
        # every spot of a cell (chip, its margins, the line under it) is that cell
        for cell in range(CELLS * CELLS):
            r, c = divmod(cell, CELLS)
            for dx in range(g.cw):
                for dy in range(g.ch if r < CELLS - 1 else g.chip_y + g.chip_h):
                    assert board.target_at(LEFT + c * g.cw + dx, TOP + r * g.ch + dy) == cell
        assert board.target_at(LEFT - 1, TOP + g.mark_y) is None
        assert board.target_at(LEFT + g.mark_y, TOP - 1) is None
        # a click on a corner and on a middle cell plays it where the glyph is drawn
        for name in ("A1", "G7", "D5"):
            cell = parse_cell(name)
            x, y = glyph_spot(g, cell)
            await pilot.click(PahTumBoard, offset=(x, y))
            await pilot.pause()
            assert game.history[-1] == cell and board.cursor == cell
            assert board.render().plain.splitlines()[y][x] == game.board[cell]
        # the cursor's brackets stand round the cell the arrows lead to
        await pilot.press("left", "up")
        assert board.cursor == parse_cell("C4")
        await pilot.pause()
        assert box(board, "C4")[0] == "[" and box(board, "C4")[-1] == "]"
        assert box(board, "D5")[0] == "("  # the last move


async def test_the_match_standing_shows_long_names_in_full_at_80_by_24() -> None:
    names = ("Alexandra Konstantinopoulou", "Bartholomew Fitzgerald-Smythe")
    app = pahtum_app(tuple(PlayerSpec.human(name) for name in names))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        session = screen.session
        rng = random.Random(1)
        while not session.game.is_over:
            session.play(rng.choice(session.game.legal_moves()))
        session.next_game()
        screen._show_game()
        screen._render_all()
        await pilot.pause()
        panel = screen.query_one(PlayersPanel)
        width, height = panel.content_size
        lines = str(panel.render()).splitlines()
        assert height == len(lines) == 5  # two seats, a heading and two standings
        standing = session.standing()
        for p, name in enumerate(names):
            number = session.match.rule.number(standing[p])
            assert any(line.startswith(name) and line.endswith(number) for line in lines), lines
        assert all(cell_len(line) <= width for line in lines)
        assert all(line.endswith("00:00") for line in lines[:2])  # the clock column stays


async def test_a_name_longer_than_the_panel_is_ellipsized_not_cut() -> None:
    long = "Maximiliana " * 6
    app = pahtum_app((PlayerSpec.human(long.strip()), HUMAN))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        panel = app.screen.query_one(PlayersPanel)
        first = str(panel.render()).splitlines()[0]
        assert "Maximiliana Ma…" in first and first.endswith("00:00")
        assert cell_len(first) == panel.content_size.width  # as much of the name as fits
