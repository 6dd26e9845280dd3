"""Pousse's own board facts: geometry, the frame cursor, the preview, the info line or Note,
the end screen's lines; then whole games by keys, every size at 80x24, and the AI, in the app.
"""

from __future__ import annotations

import re
import time

import pytest
from conftest import Host
from rich.cells import cell_len

from rules import PlayerSpec, Termination
from rules.pousse import REPETITION, Pousse
from tui.app import ArenaApp
from tui.screens.dialogs import ResultScreen
from tui.screens.game import GameScreen
from tui.widgets.boards.grid import GridBoard
from tui.widgets.boards.pousse import PousseBoard, column_labels, fit, frame_step
from tui.widgets.panels import PlayersPanel

SIZE = (80, 24)
HUMAN = PlayerSpec.human()
OPPOSITE = {"T": "B", "B": "T", "L": "R", "R": "L"}
CLOCKWISE = {"T": "right", "R": "down", "B": "left", "L": "up"}


def pousse(size: int, moves: list[str] = ()) -> Pousse:
    game = Pousse(size=size)
    game.replay(list(moves))
    return game


class NoteHost(Host):
    """A host that also records the board's Notes."""

    def __init__(self, game: Pousse) -> None:
        super().__init__(game)
        self.notes: list[str | None] = []

    def on_grid_board_note(self, message: GridBoard.Note) -> None:
        self.notes.append(None if message.text is None else message.text.plain)


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
    for width, height in [(40, 19), (44, 22), (46, 22), (46, 23), (62, 35), (100, 60)]:
        g = fit(n, width, height)
        assert fit(n, g.width, g.height) == g
        assert g.gap >= 1 and g.mark_x + g.lead >= 1  # marks never touch the row labels
        if 2 * (len(str(n)) + 1) + n * 2 <= width and n + 2 <= height:
            assert g.width <= width and g.height <= height
        assert 2 <= g.cw and 1 <= g.ch


def test_twenty_needs_46_by_22_and_small_boards_grow() -> None:
    g = fit(20, 46, 22)
    assert (g.width, g.height, g.info, g.gap, g.lead) == (46, 22, False, 1, 0)
    assert fit(20, 47, 22).lead == 1
    assert fit(20, 46, 23).info
    assert fit(4, 40, 22).cw > fit(4, 20, 12).cw


def numbers_at(line: str, g) -> dict[int, int]:
    """The column numbers on a label line: each number, by the column whose mark it ends at."""
    found = {}
    for m in re.finditer(r"\d+", line):
        col, at = divmod(m.end() - 1 - g.left, g.cw)
        assert at == g.mark_x, (line, m.group())  # a number ends over its column's mark
        found[int(m.group())] = col + 1
    return found


@pytest.mark.parametrize("n", range(4, 21))
def test_column_numbers_never_touch_and_each_is_shown(n: int) -> None:
    for width in (30, 46, 60, 100):
        g = fit(n, width, 40)
        top, bottom = ("".join(column_labels(g, side)) for side in "TB")
        shown = {}
        for line in (top, bottom):
            numbers = numbers_at(" " * g.left + line, g)  # a run of digits is one number
            assert all(number == col for number, col in numbers.items()), line
            shown.update(numbers)
        assert sorted(shown) == list(range(1, n + 1))  # on one edge at least
        if g.cw >= 3 or n < 10:
            assert top == bottom  # room for every number on both edges


async def test_a_twenty_board_at_80_by_24_has_legible_labels() -> None:
    app = app_for(20)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.screen.board
        g = board.geometry()
        assert (g.cw, g.gap, g.lead) == (2, 1, 0)
        await walk_to(pilot, board, ("L", 10))  # a preview: arrows along row 10
        await pilot.pause()
        lines = board.render().plain.splitlines()
        shown = {**numbers_at(lines[0], g), **numbers_at(lines[1 + g.n * g.ch], g)}
        assert shown == {i: i for i in range(1, 21)}
        assert "91011" not in lines[0] + lines[1 + g.n * g.ch]
        right = g.left + g.n * g.cw
        for r in range(g.n):
            row = lines[1 + r * g.ch + g.mark_y]
            assert row[:g.label].strip() == str(r + 1) == row[right + g.gap:].strip()
            # a blank column between the marks and the labels (on the left, the first
            # cell's arrow column), and after the right-hand labels: "10│" never touches
            assert row[g.left + g.mark_x - 1] == ("→" if r == 9 else " ")
            assert row[right:right + g.gap] == " " * g.gap and row[-1] == " "
            assert len(row) == g.width == 46
        assert "→" in lines[1 + 9 * g.ch + g.mark_y]


def test_arrows_follow_the_edges_and_turn_corners() -> None:
    n = 5
    assert frame_step(("T", 5), "right", n) == ("R", 1)
    assert frame_step(("T", 1), "left", n) == ("L", 1)
    assert frame_step(("L", 1), "up", n) == ("T", 1)
    assert frame_step(("R", 1), "up", n) == ("T", 5)
    assert frame_step(("R", 5), "down", n) == ("B", 5)
    assert frame_step(("B", 5), "right", n) == ("R", 5)
    assert frame_step(("B", 1), "left", n) == ("L", 5)
    assert frame_step(("L", 5), "down", n) == ("B", 1)
    assert frame_step(("T", 3), "down", n) == ("B", 3)
    assert frame_step(("L", 2), "right", n) == ("R", 2)
    assert frame_step(("T", 3), "left", n) == ("T", 2)
    # clockwise all the way round visits every insertion point once
    seen, move = [], ("T", 1)
    for _ in range(4 * n):
        seen.append(move)
        move = frame_step(move, CLOCKWISE[move[0]], n)
    assert move == ("T", 1) and len(set(seen)) == 4 * n


# ----- the board alone ---------------------------------------------------------------------------
async def test_the_cursor_starts_mid_top_and_previews_a_win() -> None:
    app = Host(pousse(5, ["L1", "L2"] * 4))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert board.cursor == ("T", 3)
        await walk_to(pilot, board, ("L", 1))
        assert board.info_text().plain == "L1: X WINS, straights X 1 O 0"


async def test_a_repetition_is_previewed_and_the_falling_marker_marked() -> None:
    # row 1 full: X O X O X, then O pushes X off
    app = Host(pousse(5, ["L1"] * 6))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert board.game.rows()[0] == "OXOXO"
        await walk_to(pilot, board, ("L", 1))
        preview = board.preview()
        assert preview is not None and preview.repeats and preview.pushed_off == (0, 4)
        assert board.info_text().plain == "L1: REPEATS a position: X LOSES"
        lines = board.render().plain.splitlines()
        row = lines[1 + board.geometry().mark_y]
        assert "×" in row and row.count("→") == 4  # the path's arrows, the falling marker


async def test_click_on_an_edge_picks_and_cells_pick_nothing() -> None:
    app = Host(pousse(6))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        g = board.geometry()
        cell = (g.left + 2 * g.cw + g.mark_x, 1 + 2 * g.ch + g.mark_y)
        await pilot.click(PousseBoard, offset=cell)
        await pilot.pause()
        assert app.picked == []
        right_edge_row_2 = (g.left + g.n * g.cw + g.gap, 1 + g.ch + g.mark_y)
        await pilot.click(PousseBoard, offset=right_edge_row_2)
        bottom_edge_col_4 = (g.left + 3 * g.cw + g.mark_x, 1 + g.n * g.ch)
        await pilot.click(PousseBoard, offset=bottom_edge_col_4)
        await pilot.pause()
        assert app.picked == [("R", 2), ("B", 4)] and board.cursor == ("B", 4)


async def test_hover_previews_the_point_under_the_mouse() -> None:
    app = Host(pousse(6, ["T6"]))  # X in the top right corner
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        g = board.geometry()
        await pilot.hover(PousseBoard, offset=(g.left + g.n * g.cw + g.gap, 1 + g.mark_y))
        await pilot.pause()
        assert board.hover == ("R", 1) and board.cursor == ("T", 3)
        assert board.info_text().plain == "R1: moves 1 left"
        await pilot.press("left")  # a key takes the preview back to the cursor
        assert board.hover is None and board.info_text().plain.startswith("T2:")


async def test_a_hint_is_named_on_the_info_line() -> None:
    app = Host(pousse(5))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.show_hint(("R", 4))
        await pilot.pause()
        assert board.cursor == ("R", 4)
        assert board.info_text().plain.startswith("hint R4:")
        board.locked = True
        assert board.info_text().plain == "X to move (waiting)"


async def test_without_room_for_the_info_line_it_becomes_a_note() -> None:
    app = NoteHost(pousse(20))
    async with app.run_test(size=(80, 22)) as pilot:
        board = app.board
        await pilot.pause()
        assert not board.geometry().info
        assert app.notes[-1] == "T10: moves no marker"
        await pilot.press("right")
        await pilot.pause()
        assert app.notes[-1] == "T11: moves no marker"
        board.locked = True
        await pilot.pause()
        assert app.notes[-1] == "X to move (waiting)"
    roomy = NoteHost(pousse(5))
    async with roomy.run_test(size=SIZE) as pilot:
        await pilot.press("right")
        await pilot.pause()
        assert roomy.board.geometry().info and roomy.notes == []


# ----- the end screen's lines --------------------------------------------------------------
def test_the_result_names_the_deciding_rule_by_the_outcome_kind() -> None:
    won = pousse(5, ["L1", "L2"] * 4 + ["L1"])
    assert PousseBoard.describe_result(won) == [
        "X wins with 1 straight to 0", "Rule: more straights wins",
        "X 1 straight: row 1", "O 0 straights"]
    repeated = pousse(5, ["L1"] * 7)
    assert repeated.outcome.ending == REPETITION
    assert PousseBoard.describe_result(repeated)[1] == (
        "Rule: repeating a position loses for the mover")
    # a forfeit is no rule of the board, whatever its reason says
    timed = pousse(5, ["L1", "L2"])
    timed.forfeit(0, Termination.TIME, "X repeated its thinking and ran out of time")
    lines = PousseBoard.describe_result(timed)
    assert lines == ["X repeated its thinking and ran out of time",
                     "X 0 straights", "O 0 straights"]


# ----- the app --------------------------------------------------------------------------------
async def test_hot_seat_game_to_a_straight_by_keys() -> None:
    app = app_for(5)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.board
        assert isinstance(board, PousseBoard)
        await play_keys(pilot, board, ["L1", "L2"] * 4)
        await walk_to(pilot, board, ("L", 1))
        await pilot.press("enter")
        await pilot.pause()
        result = app.screen
        assert isinstance(result, ResultScreen)
        text = "\n".join(result.lines)
        assert "Human 1 wins as X" in text
        assert "X wins with 1 straight to 0" in text
        assert "Rule: more straights wins" in text
        assert "X 1 straight: row 1" in text and "O 0 straights" in text
        await pilot.press("enter")  # Enter only closes the end screen: the board stays
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.session.game.is_over
        assert board.locked


async def test_hot_seat_game_lost_by_repetition_by_keys() -> None:
    app = app_for(5)
    async with app.run_test(size=SIZE) as pilot:
        board = app.screen.board
        await play_keys(pilot, board, ["L1"] * 6)
        await walk_to(pilot, board, ("L", 1))
        await pilot.press("space")  # the move loses at once: asked to confirm ...
        await pilot.pause()
        assert not isinstance(app.screen, ResultScreen)
        assert "L1 loses at once" in app.screen._status
        await pilot.press("space")  # ... and played the second time
        await pilot.pause()
        result = app.screen
        assert isinstance(result, ResultScreen)
        text = "\n".join(result.lines)
        assert "Human 2 wins as O" in text
        assert "X repeated an earlier position and loses" in text
        assert "Rule: repeating a position loses for the mover" in text


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
        # nothing drawn in the board's last column: no row number touches the side panel
        grid = board.render().plain.splitlines()[:2 + n * g.ch]
        assert all(len(line) == g.width and line[-1] == " " for line in grid)
        assert g.info or n == 20
        # only boards too tall for the frame and the title row give them up
        assert screen.query_one("#title").display == (n <= 16)
        # the players panel keeps one line per side, its clock whole (nothing wraps)
        players = screen.query_one(PlayersPanel)
        lines = str(players.render()).splitlines()
        assert len(lines) == 2 and all(line.endswith("00:00") for line in lines)
        assert all(cell_len(line) <= players.content_size.width for line in lines)


async def test_a_game_against_the_ai() -> None:
    app = app_for(5, (HUMAN, PlayerSpec.ai("easy")), ai_seconds=0.2)
    async with app.run_test(size=SIZE) as pilot:
        deadline = time.monotonic() + 120
        while not app.services.engine_ready("pousse"):
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
        assert len(game.history) == 2 and game.history[0] == ("T", 3)
        reply = game.move_text(game.history[1])
        # the move on the board is the one the search reported, and it is the person's turn
        engine = str(screen.query_one("#engine").render())
        assert f"best {reply}" in engine, engine
        assert screen._status == f"O played {reply}."
        assert game.to_move == 0 and not board.locked and board.last_move() == game.history[1]
        await pilot.press("enter")  # the person can move again
        await pilot.pause()
        assert len(game.history) >= 3


@pytest.mark.parametrize("n", [16, 20])
async def test_the_analysis_board_fits_80_by_24_as_the_game_does(
        n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """`z` on the largest boards: the analysis screen gives up the title row and the
    board's frame as the game screen does (its frame stayed, and the last row and the
    column labels under it were cut off at 20x20)."""
    from tui.screens.analysis import AnalysisScreen

    monkeypatch.setattr(AnalysisScreen, "AUTO_START", False)
    app = app_for(n)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("z")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        board = screen.board
        box = screen.query_one("#board-box")
        assert box.content_region.contains_region(board.region), (box.content_region,
                                                                  board.region)
        assert board.region.bottom <= screen.query_one("#status").region.y
        assert (board.geometry().width, board.geometry().height) == board.content_size
        tight = n > 16
        assert screen.query_one("#title").display != tight
        assert (box.styles.border_top[0] in ("", "none")) == tight


async def test_the_frame_and_title_come_back_as_soon_as_the_board_fits_in_them() -> None:
    """20x20 needs 46x23 (its info line too): at 27 rows it gives up the title and the
    frame, at 28 (23 rows inside them) it keeps both if the terminal is wide enough for
    the frame beside a whole players panel (at 80 columns the panel would lose the names),
    and a resize moves it from one to the other. They went below 30 rows."""
    app = app_for(20)
    async with app.run_test(size=(120, 28)) as pilot:
        await pilot.pause()
        screen = app.screen
        for cols, rows, tight in [(120, 28, False), (120, 27, True), (80, 28, True),
                                  (80, 40, True), (83, 28, True), (84, 28, False),
                                  (80, 24, True), (120, 40, False)]:
            await pilot.resize_terminal(cols, rows)
            await pilot.pause()
            board = screen.board
            box = screen.query_one("#board-box")
            assert screen.has_class("-tight") == tight, (cols, rows)
            assert screen.query_one("#title").display != tight
            assert box.content_region.contains_region(board.region), (cols, rows)
            players = screen.query_one(PlayersPanel)  # every name whole
            assert "…" not in str(players.render()), (cols, rows)
            assert board.region.bottom <= screen.query_one("#status").region.y
            g = board.geometry()
            assert (g.width, g.height) == board.content_size
