"""Boxing's own board facts: the layout (one character a cell beside the side panel at 80x24,
two at 120x40), the picture (labels, marks by player, unusable cells, the last move),
choosing a box by keys (the preview, refusals with their reasons, +/-, typed sizes, the
largest box) and by the mouse (a drag, a click), the hooks the generic tests use, the
bindings, and the end screen's lines. The game is not in the app's list yet: the board is
mounted directly in a host like the game screen's frame.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from rich.console import Console
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from rules import Termination
from rules.boxing import MARKS, SAMPLE_ARENA, Boxing, parse_arena
from tests.tui.test_app import play_by_keys
from tui.widgets.boards.boxing import BOARD, LAYOUTS, BoxingBoard, Geometry, fit
from tui.widgets.boards.grid import GridBoard

SIZE = (80, 24)
# on the seed's sample arena (C6 is unusable): A's A1x2, B's A10x3, C's L20x4 (the last)
MOVES = ["A1x2", "A10x3", "L20x4"]


def boxing(moves: list[str] = (), players: int = 3, arena: str = SAMPLE_ARENA) -> Boxing:
    game = Boxing(start=parse_arena(arena), seat_marks=MARKS[:players])
    for text in moves:
        game.play(game.parse_move(text))
    return game


def empty(players: int = 2) -> Boxing:
    return Boxing.new({"arena": "empty", "players": players})


def cell(name: str) -> int:
    return "ABCDEFGHIJKLMNOP".index(name[0]) * 32 + int(name[1:]) - 1


class BoxHost(App):
    """The board in a frame like the game screen's: at 80x24, 42x19 for the board (the
    screen's title, status line and footer take 3 lines, the side panel 34 columns)."""

    CSS = "#box { width: auto; height: 1fr; border: round white; padding: 0 1; }"

    def __init__(self, game: Boxing) -> None:
        super().__init__()
        self.board = BoxingBoard(id="board")
        self.game = game
        self.picked: list[Hashable] = []
        self.notes: list[str | None] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield self.board
        yield Static("status\nfooter\n", id="rest")

    def on_mount(self) -> None:
        self.board.set_game(self.game)
        self.board.focus()

    def on_grid_board_move_picked(self, message: GridBoard.MovePicked) -> None:
        self.picked.append(message.move)

    def on_grid_board_note(self, message: GridBoard.Note) -> None:
        self.notes.append(None if message.text is None else message.text.plain)


def lines(board: BoxingBoard) -> list[str]:
    return board.render().plain.splitlines()


def glyph(board: BoxingBoard, name: str) -> str:
    g = board.geometry()
    c = cell(name)
    return lines(board)[g.cell_y(c // 32)][g.cell_x(c % 32)]


def style_at(board: BoxingBoard, name: str):
    g = board.geometry()
    text = board.render()
    rows = text.plain.splitlines(keepends=True)
    c = cell(name)
    y = g.cell_y(c // 32)
    return text.get_style_at_offset(Console(), sum(map(len, rows[:y])) + g.cell_x(c % 32))


def shown_bg(style):
    """The colour a cell shows behind its glyph (its foreground in reverse video)."""
    return style.color if style.reverse else style.bgcolor


def spot(board: BoxingBoard, name: str) -> tuple[int, int]:
    g = board.geometry()
    c = cell(name)
    return g.cell_x(c % 32), g.cell_y(c // 32)


def info(board: BoxingBoard) -> str:
    return board.info_text().plain


async def go(pilot, board: BoxingBoard, name: str, *then: str) -> None:
    """The cursor next to a cell, one arrow onto it, then the keys `then` (a walk across
    the arena key by key costs seconds; the arrows are tested on their own)."""
    target = cell(name)
    step = "right" if target % 32 else "left"
    board.cursor = target - 1 if step == "right" else target + 1
    await pilot.press(step, *then)
    await pilot.pause()


# ----- the layout ---------------------------------------------------------------------------
def test_fit_is_a_fixed_point_that_grows_with_the_room() -> None:
    assert BOARD is BoxingBoard
    for g in LAYOUTS:
        assert fit(g.width, g.height) == g
    # 80x24 beside the side panel: 42x19, one character a cell, one line under the board
    small = fit(42, 19)
    assert small == Geometry(1, 2, 1) and (small.width, small.height) == (34, 19)
    # 120x40: 68x35, two characters a cell
    large = fit(68, 35)
    assert large == Geometry(2, 2, 3) and (large.width, large.height) == (66, 21)
    assert fit(42, 18) == Geometry(1, 2, 0) == LAYOUTS[-1]  # the line goes to the status line


async def test_the_whole_arena_fits_80x24_and_grows_at_120x40() -> None:
    app = BoxHost(boxing())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.board
        assert board.geometry() == Geometry(1, 2, 1)
        assert tuple(board.content_size) == (41, 19)  # the players panel keeps its names whole
        region = board.content_region
        assert region.right <= 80 and region.bottom <= 24 - 3
        assert board.size_needed().height <= 24 - 5  # the game screen keeps its title and frame
    app = BoxHost(boxing())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = app.board
        assert board.geometry() == Geometry(2, 2, 3)
        top = lines(board)
        assert top[1].split() == [str(n % 10) for n in range(1, 33)]
        assert top[2].startswith("A  + ·")  # a gap, then the glyph (the cursor on A1)
        assert top[-3] == (" Enter marks A1x1 (1 cell). +/- size, 1-16 type it, m largest.")


# ----- the picture ----------------------------------------------------------------------
async def test_the_picture_has_labels_unusable_cells_and_marks_by_player() -> None:
    app = BoxHost(boxing(MOVES))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.locked = True  # no cursor, no preview
        await pilot.pause()
        top = lines(board)
        assert top[0] == "           11111111112222222222333"
        assert top[1] == "  12345678901234567890123456789012"
        assert [line[0] for line in top[2:18]] == list("ABCDEFGHIJKLMNOP")
        assert top[2] == "A AA·······BBB····················"
        assert top[3] == "B AA·······BBB····················"
        assert top[4] == "C ·····o···BBB····················"
        assert top[13] == "L ··oo" + "·" * 15 + "CCCC" + "·" * 9
        assert top[16] == "O " + "·" * 19 + "CCCC" + "·" * 9
        assert top[18] == " A to move (waiting)"
        # each player's marks in its own colour, on its own shade
        for name, seat in (("A1", 0), ("B2", 0), ("A10", 1), ("C12", 1)):
            assert style_at(board, name).color == board.seat_style(seat).color
            assert style_at(board, name).bgcolor == board.style(f"run-{seat}").bgcolor
        # the last move (C's L20x4) in reverse video (so also without colours): C's colour
        # behind its marks; the move before it not
        for name in ("L20", "O23"):
            assert style_at(board, name).reverse
            assert shown_bg(style_at(board, name)) == board.seat_style(2).color
        assert not style_at(board, "C12").reverse
        # unusable cells dim on the blocked shade; vacant ones on a chequer of 4x4 squares
        assert glyph(board, "C6") == "o" and style_at(board, "C6").dim
        assert style_at(board, "C6").bgcolor == board.style("blocked").bgcolor
        assert style_at(board, "A5").bgcolor == board.style("chequer-1").bgcolor
        assert style_at(board, "E5").bgcolor == board.style("chequer-0").bgcolor
        board.locked = False
        await pilot.pause()
        assert info(board) == "A1x1: A1 is marked A"  # the cursor starts on A1


def test_the_rules_text_names_the_glyphs_the_board_draws() -> None:
    """The in-app rules (`?`) say what is on screen: a vacant cell is `·` there (`-` is the
    native file's), an unusable one `o`."""
    summary = Boxing.summary
    assert "vacant (·) cells" in summary and "(-)" not in summary
    assert "o cells are never usable" in summary


async def test_eight_players_marks_render_in_eight_distinct_colours() -> None:
    app = BoxHost(boxing([f"A{1 + 2 * i}x1" for i in range(8)], players=8))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.locked = True
        await pilot.pause()
        assert lines(board)[2][2:18] == "A·B·C·D·E·F·G·H·"
        colours = {style_at(board, f"A{1 + 2 * i}").color for i in range(7)}  # H is the last
        assert len(colours) == 7 and shown_bg(style_at(board, "A15")) == board.seat_style(7).color


# ----- choosing a box by keys ---------------------------------------------------------------
async def test_the_box_is_previewed_at_the_cursor_and_enter_marks_it() -> None:
    app = BoxHost(boxing(MOVES))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await go(pilot, board, "D12", "3")
        assert board.size_k == 3 and board.box() == (3, 11, 3)
        assert info(board).startswith("Enter marks D12x3 (9 cells)")
        assert info(board) == "Enter marks D12x3 (9 cells)"  # the keys want more room
        assert glyph(board, "F14") == "+" and glyph(board, "E13") == "+"
        assert glyph(board, "G14") == "·" and glyph(board, "F15") == "·"
        assert style_at(board, "E13").bgcolor == board.style("path").bgcolor
        # the cursor (the top-left cell) reversed in the cursor's colour, its labels lit
        assert shown_bg(style_at(board, "D12")) == board.style("cursor").color
        assert style_at(board, "D12").reverse  # so also without colours
        assert not style_at(board, "E13").reverse
        assert lines(board)[5][0] == "D"
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [(3, 11, 3)]
        assert board.game.history[-1] == (11, 19, 4)  # the board only reports


async def test_a_box_over_a_used_cell_is_shown_illegal_and_enter_is_refused() -> None:
    app = BoxHost(boxing(MOVES))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await go(pilot, board, "A7", "4")  # over B's A10x3
        reason = board.game.problem((0, 6, 4))
        assert reason == "A10 is marked B, 2 more used"
        assert info(board) == f"A7x4: {reason}"
        assert board.info_text().style == board.style("bad")
        assert glyph(board, "B8") == "×" and glyph(board, "B10") == "B"
        assert style_at(board, "B10").bgcolor == board.style("off").bgcolor
        assert style_at(board, "B10").strike  # in the way: struck through, with or without colour
        assert not style_at(board, "A11").strike  # B's mark outside the box
        assert style_at(board, "B8").color == board.style("bad").color
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [] and board.refusal == f"A7x4: {reason}"
        # short enough for the one line under the board at 80x24: nothing for the status
        assert lines(board)[18].strip() == f"A7x4: {reason}"
        assert app.notes[-1] is None
        await pilot.press("minus")  # the next key clears the refusal: A7x3 is legal
        assert board.refusal is None and info(board).startswith("Enter marks A7x3 (9 cells)")
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [(0, 6, 3)]
        # an unusable cell in the way
        await go(pilot, board, "B5", "2")
        assert info(board) == "B5x2: C6 is unusable (o)"
        await pilot.press("enter")
        assert len(app.picked) == 1 and board.refusal == "B5x2: C6 is unusable (o)"


async def test_a_box_that_leaves_the_arena_says_where() -> None:
    app = BoxHost(boxing(MOVES))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await go(pilot, board, "M30", "5")
        assert info(board) == "M30x5: off the arena by 1 row and 2 columns"
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [] and board.refusal.startswith("M30x5: off the arena")
        await pilot.press("left")  # arrows clear the refusal; the size stays
        assert board.refusal is None and board.size_k == 5


async def test_plus_and_minus_grow_and_shrink_the_box_from_1_to_16() -> None:
    app = BoxHost(empty())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        assert board.size_k == 1
        await pilot.press("plus", "plus")
        assert board.size_k == 3
        await pilot.press("minus", "minus", "minus", "minus")
        assert board.size_k == 1
        await pilot.press(*["plus"] * 20)
        assert board.size_k == 16
        assert info(board).startswith("Enter marks A1x16 (256 cells)")


async def test_digits_set_the_size_and_two_within_a_second_make_10_to_16() -> None:
    app = BoxHost(empty())
    now = [100.0]
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.clock = lambda: now[0]
        await pilot.press("7")
        assert board.size_k == 7
        await pilot.press("1")
        assert board.size_k == 1 and info(board) == "Size 1, or 10-16 with a second digit now"
        await pilot.press("2")
        assert board.size_k == 12
        await pilot.press("1", "6")
        assert board.size_k == 16
        await pilot.press("1", "7")  # 17 is no size: the 7 starts afresh
        assert board.size_k == 7
        await pilot.press("1")
        now[0] += 1.5  # too late for a second digit
        await pilot.press("3")
        assert board.size_k == 3
        await pilot.press("1", "right", "4")  # another key ends the number
        assert board.size_k == 4
        await pilot.press("0")
        assert board.size_k == 4 and board.refusal.startswith("no 0x0 box")
        await pilot.press("1", "0")
        assert board.size_k == 10 and board.refusal is None


async def test_m_takes_the_largest_box_that_fits_at_the_cursor() -> None:
    app = BoxHost(boxing(MOVES))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        game = board.game
        await go(pilot, board, "A4", "m")
        assert board.size_k == 2 == game.largest_boxes()[cell("A4")]  # the o at C6 stops it
        await go(pilot, board, "A13", "m")
        assert board.size_k == 7  # the o at H17
        assert info(board).startswith("Enter marks A13x7 (49 cells)")
        await go(pilot, board, "D1", "m")
        assert board.size_k == 7  # the o cells at J1 and L3
        await go(pilot, board, "P30", "m")
        assert board.size_k == 1
        await go(pilot, board, "A10", "m")
        assert board.size_k == 1 and board.refusal == "no box fits at A10: it is already marked B"
        await go(pilot, board, "C6", "m")
        assert board.refusal == "no box fits at C6: it is unusable (o)"


async def test_a_locked_board_or_a_finished_game_chooses_nothing() -> None:
    app = BoxHost(empty())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.locked = True
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [] and info(board) == "A to move (waiting)"
        board.locked = False
        board.game.play((0, 0, 16))
        board.game.play((0, 16, 16))
        board.refresh_game()
        await pilot.press("enter", "plus")
        await pilot.pause()
        assert app.picked == [] and board.size_k == 1
        assert info(board) == "B filled the last vacant cell and wins with 256 marks. B 256 " \
                              "(its marks). A 0 (did not fill the last cell)."


# ----- the mouse ----------------------------------------------------------------------------
async def test_a_drag_from_corner_to_corner_marks_the_square_it_spans() -> None:
    app = BoxHost(boxing(MOVES))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        await pilot.mouse_down(BoxingBoard, offset=spot(board, "D3"))
        await pilot.hover(BoxingBoard, offset=spot(board, "F8"))  # 3 rows, 6 columns: 6x6
        assert board.box() == (3, 2, 6) and glyph(board, "I7") == "+"
        assert info(board).startswith("Enter marks D3x6 (36 cells)")
        await pilot.mouse_up(BoxingBoard, offset=spot(board, "F8"))
        await pilot.pause()
        assert app.picked == [(3, 2, 6)]
        # from the bottom right corner up to the top left one
        await pilot.mouse_down(BoxingBoard, offset=spot(board, "H20"))
        await pilot.mouse_up(BoxingBoard, offset=spot(board, "E18"))
        await pilot.pause()
        assert app.picked[-1] == (4, 17, 4)
        # over a used cell: refused with the reason, the square kept for the keys
        await pilot.mouse_down(BoxingBoard, offset=spot(board, "B8"))
        await pilot.mouse_up(BoxingBoard, offset=spot(board, "C11"))
        await pilot.pause()
        assert len(app.picked) == 2 and board.box() == (1, 7, 4)
        assert board.refusal == "B8x4: B10 is marked B, 3 more used"


async def test_a_click_marks_the_current_size_there() -> None:
    app = BoxHost(boxing(MOVES))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.press("2")
        await pilot.pause()
        await pilot.click(BoxingBoard, offset=(0, spot(board, "E5")[1]))  # a row label
        await pilot.click(BoxingBoard, offset=(spot(board, "E5")[0], 0))  # a column label
        assert app.picked == []
        await pilot.click(BoxingBoard, offset=spot(board, "E5"))
        await pilot.pause()
        assert app.picked == [(4, 4, 2)] and board.cursor == cell("E5")


# ----- the hooks and the bindings -------------------------------------------------------------
async def test_keys_for_and_choices_for_pick_each_move() -> None:
    app = BoxHost(empty())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        # a stopped clock: a busy machine must not split a two-digit size typed at once
        board.clock = lambda: 0.0
        assert board.choices_for((2, 11, 5)) == [cell("C12")] == [board.target_for((2, 11, 5))]
        assert board.keys_for((2, 11, 1)) == []
        assert board.keys_for((2, 11, 5)) == ["5"]
        assert board.keys_for((2, 11, 14)) == ["1", "4"]
        assert board.move_for(cell("C12")) == (2, 11, 1)
        rng = random.Random(3)
        moves = [(0, 0, 16), (15, 31, 1), (3, 20, 10), (5, 5, 9), (0, 16, 12)]
        moves += rng.sample(board.game.legal_moves(), 3)
        for move in moves:
            await play_by_keys(pilot, board, move)
            assert app.picked[-1] == move
            assert board.game.is_legal(move)


async def test_the_hint_sets_the_box_and_enter_plays_it() -> None:
    app = BoxHost(boxing(MOVES))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        hint = (5, 8, 4)  # F9x4
        board.show_hint(hint)
        await pilot.pause()
        assert board.cursor == cell("F9") and board.size_k == 4
        assert info(board).startswith("hint: Enter marks F9x4 (16 cells)")
        assert style_at(board, "G10").bgcolor == board.style("hint").bgcolor
        assert glyph(board, "G10") == "+"  # the preview is on it
        await pilot.press("right", "right", "right", "right", "right", "down")
        await pilot.pause()
        # the preview gone elsewhere, the suggestion still reads without colour: □ cells
        assert glyph(board, "F9") == glyph(board, "I12") == "□" and glyph(board, "F8") == "·"
        await pilot.press("up", *["left"] * 5, "enter")
        await pilot.pause()
        assert app.picked == [hint]


async def test_the_size_keys_are_bound_and_shown_in_the_footer() -> None:
    app = BoxHost(empty())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        shown = {key: (b.binding.description, b.binding.key_display)
                 for key, b in app.active_bindings.items() if b.binding.show}
        # two entries, so the screen's own keys fit the 80-column footer too
        assert shown["plus"] == ("Size", "+/-") and shown["m"][0] == "Largest"
        assert set(shown) == {"plus", "equals_sign", "m"}  # + and = are one binding
        assert {"minus", *(str(d) for d in range(10))} <= set(app.active_bindings)


# ----- the end screen's lines -----------------------------------------------------------------
def test_the_result_gives_the_reason_then_the_scores() -> None:
    game = empty(3)
    for move in [(0, 0, 16), (0, 16, 16)]:
        game.play(move)
    assert game.is_over
    assert BoxingBoard.describe_result(game) == [
        "B filled the last vacant cell and wins with 256 marks", "B 256 (its marks)",
        "A 0 (did not fill the last cell)", "C 0 (did not fill the last cell)"]
    rng = random.Random(0)
    game = boxing(players=4)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    assert BoxingBoard.describe_result(game) == [game.outcome.reason, *game.score_lines()]
    timed = boxing(MOVES)
    timed.forfeit(0, Termination.TIME, "A ran out of time")
    assert BoxingBoard.describe_result(timed) == [
        "A ran out of time", "B 9 (its marks)", "C 16 (its marks)", "A 0 (out of time)"]
    assert BoxingBoard.describe_result(boxing()) == []
