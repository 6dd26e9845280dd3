"""Pillars' own board facts: the layout and its growth, the picture (labels, pillars, each
move's tiles by side and rectangle, the last move), choosing a rectangle by keys (anchor,
preview, refusals with their reasons, Esc, a single cell) and by the mouse (clicks, drags),
the joker key, the board's hooks for the generic tests, the end screen's lines; then the side
panel on screen and a whole hot-seat game by keys in the app, to its end screen.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest
from conftest import Host
from rich.console import Console
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from rules import PlayerSpec, Termination
from rules.pillars import COLS, DIAGONAL, ROWS, Pillars
from tests.tui.test_app import play_by_keys
from tui.app import ArenaApp
from tui.screens.game import GameScreen
from tui.widgets.boards.grid import GridBoard
from tui.widgets.boards.pillars import LAYOUTS, Geometry, PillarsBoard, fit
from tui.widgets.panels import PlayersPanel

SIZE = (80, 24)
HUMAN = PlayerSpec.human()
# on the diagonal pillars (Aa Bb .. Jj): red's AcBe, blue's DaEb, red's FaGc (the last move)
MOVES = ["AcBe", "DaEb", "FaGc"]


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves of the app tests here never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def cell(name: str) -> int:
    return ROWS.index(name[0]) * 10 + COLS.index(name[1])


def pillars(moves: list[str] = ()) -> Pillars:
    game = Pillars(pillars=DIAGONAL)
    for text in moves:
        game.play(game.parse_move(text))
    return game


class BoxHost(Host):
    """The board in a frame like the game screen's: at 80x24, 42x19 for the board (the
    screen's title, status line and footer take 3 lines, the side panel 34 columns)."""

    CSS = "#box { width: auto; height: 1fr; border: round white; padding: 0 1; }"
    BINDINGS = [Binding("escape", "escaped", "Escaped")]

    def __init__(self, game: Pillars) -> None:
        App.__init__(self)  # not Host's: this board whether or not the game list has Pillars
        self.board = PillarsBoard(id="board")
        self.game = game
        self.picked: list[Hashable] = []
        self.escapes = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield self.board
        yield Static("status\nfooter\n", id="rest")

    def action_escaped(self) -> None:
        self.escapes += 1


class NoteHost(BoxHost):
    """A host that also records the board's Notes and any Esc the board lets through."""

    def __init__(self, game: Pillars) -> None:
        super().__init__(game)
        self.notes: list[str | None] = []

    def on_grid_board_note(self, message: GridBoard.Note) -> None:
        self.notes.append(None if message.text is None else message.text.plain)


def keys_between(start: int, goal: int) -> list[str]:
    """Arrow keys from one cell to another, straight (no wrapping round the edges)."""
    (r, c), (tr, tc) = divmod(start, 10), divmod(goal, 10)
    return (["down" if tr > r else "up"] * abs(tr - r)
            + ["right" if tc > c else "left"] * abs(tc - c))


async def go(pilot, board: PillarsBoard, name: str, *then: str) -> None:
    """The cursor to a cell by arrows, then the keys `then` (Enter, say)."""
    await pilot.press(*keys_between(board.cursor, cell(name)), *then)
    await pilot.pause()


def line_of(board: PillarsBoard, name: str) -> str:
    g = board.geometry()
    return board.render().plain.splitlines()[g.cell_y(ROWS.index(name[0])) + g.mark_y]


def box(board: PillarsBoard, name: str) -> str:
    """A cell with the gaps either side: "[ · ]", " ╱#╱ ", " 12  " (5 characters at 80x24)."""
    g = board.geometry()
    x = g.cell_x(COLS.index(name[1]))
    return line_of(board, name)[x - 1:x + g.cw + 1]


def style_at(board: PillarsBoard, name: str, dx: int | None = None):
    """The style of a cell's glyph (or of the character `dx` from the cell's start; -1 is
    the gap left of it)."""
    g = board.geometry()
    text = board.render()
    lines = text.plain.splitlines(keepends=True)
    row = g.cell_y(ROWS.index(name[0])) + g.mark_y
    x = g.cell_x(COLS.index(name[1])) + (g.mark_x if dx is None else dx)
    return text.get_style_at_offset(Console(), sum(len(line) for line in lines[:row]) + x)


def spot(board: PillarsBoard, name: str) -> tuple[int, int]:
    """A cell's glyph, as a content offset for the mouse."""
    g = board.geometry()
    return (g.cell_x(COLS.index(name[1])) + g.mark_x,
            g.cell_y(ROWS.index(name[0])) + g.mark_y)


def info(board: PillarsBoard) -> str:
    return board.info_text().plain


# ----- the layout ----------------------------------------------------------------------------
def test_fit_is_a_fixed_point_that_grows_with_the_room() -> None:
    for g in LAYOUTS:
        assert fit(g.width, g.height) == g
    # 80x24 beside the side panel: 42x19 for the board, 3-wide cells, a gap between them
    # (and after the row letter), none after the last column
    small = fit(42, 19)
    assert small == Geometry(3, 1, 0, bottom=True, info=3, edge=False)
    assert (small.width, small.height) == (42, 15)
    assert fit(43, 19) == Geometry(3, 1, 0, bottom=True, info=3, edge=True)
    # 120x40: 68x33, 5-wide cells and a gap line between the rows; 160x50: the largest
    large = fit(68, 33)
    assert large == Geometry(5, 1, 1, bottom=True, info=3) and large.width == 63
    assert fit(92, 43).cw == 7 and fit(92, 43).ch == 3
    # too narrow (60 columns): the 2-wide cells, the lines under the board if they fit
    assert fit(22, 15) == LAYOUTS[-1] and fit(32, 15) == Geometry(2, 1, 0, True, 3, False)
    assert fit(42, 12).info == 0  # no room under the board: the lines go to the status line


# ----- the picture ---------------------------------------------------------------------------
async def test_the_picture_has_labels_pillars_and_empty_cells() -> None:
    app = BoxHost(pillars())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        g = board.geometry()
        assert g == Geometry(3, 1, 0, True, 3, False) and tuple(board.content_size) == (42, 15)
        lines = board.render().plain.splitlines()
        assert lines[0].split() == list("abcdefghij") == lines[11].split()
        for r in range(10):
            assert lines[1 + r][0] == "ABCDEFGHIJ"[r]
        assert box(board, "Aa") == " ╱#╱ " and box(board, "Jj") == " ╱#╱"  # no gap after j
        assert style_at(board, "Cc").bgcolor == board.style("blocked").bgcolor
        assert box(board, "Ab") == "  ·  " and box(board, "Ja") == "  ·  "
        assert style_at(board, "Ab").bgcolor == board.style("empty").bgcolor
        # the cursor starts mid-board (Ff, a pillar here), its row and column labels lit
        assert box(board, "Ff") == "[╱#╱]"
        assert lines[0][g.cell_x(5) + 1] == "f"
        assert style_at(board, "Af").color == board.style("empty").color
        assert info(board) == "red to move: Enter anchors a corner."
        assert "red to move: Enter anchors a corner." in lines[12]


async def test_tiles_show_their_move_in_their_sides_colour_and_the_last_move_reversed() -> None:
    app = BoxHost(pillars(MOVES))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.locked = True  # no cursor
        await pilot.pause()
        assert line_of(board, "Ac") == "A  ╱#╱  ·   1   1   1   ·   ·   ·   ·   · "
        assert line_of(board, "Ea") == "E   2   2   ·   ·  ╱#╱  ·   ·   ·   ·   · "
        assert line_of(board, "Fa") == "F   3   3   3   ·   ·  ╱#╱  ·   ·   ·   · "
        assert box(board, "Da") == "  2  " and box(board, "Gc") == "  3  "
        red, blue = board.style("run-0").bgcolor, board.style("run-1").bgcolor
        assert style_at(board, "Bc").bgcolor == red
        assert style_at(board, "Bc").color == board.seat_style(0).color
        assert style_at(board, "Da").bgcolor == blue
        assert style_at(board, "Da").color == board.seat_style(1).color
        # red's numbers bold, blue's plain: the sides differ without colour too
        assert style_at(board, "Bc").bold and not style_at(board, "Da").bold
        # the last move (red's FaGc) in reverse video: red's colour behind its number (so
        # also without colours)
        assert style_at(board, "Fa").reverse and not style_at(board, "Bc").reverse
        assert style_at(board, "Fa").color == board.seat_style(0).color
        assert style_at(board, "Fa").bgcolor == red
        # one move's cells are joined across their gaps; two moves' cells are not
        assert style_at(board, "Ad", -1).bgcolor == red  # between Ac and Ad: both move 1
        assert style_at(board, "Gb", -1).reverse  # move 3, joined in reverse video
        assert style_at(board, "Ec", -1).bgcolor is None  # between blue's Eb and empty Ec
        assert style_at(board, "Ac", -1).bgcolor is None  # between an empty cell and a tile
        assert style_at(board, "Ah", -1).bgcolor == board.style("empty").bgcolor
        # with no gap line between rows, a rectangle's bottom edge is underlined: blue's
        # over red's, red's over a pillar or an empty cell
        assert style_at(board, "Eb").underline and not style_at(board, "Db").underline
        assert style_at(board, "Bc").underline and not style_at(board, "Ac").underline
        assert style_at(board, "Gc").underline and not style_at(board, "Fc").underline
        assert not style_at(board, "Ab").underline  # an empty cell's is not
        board.locked = False
        await pilot.pause()
        assert info(board) == ("blue to move: Enter anchors a corner. Last: red FaGc "
                               "(6 cells).")


# ----- choosing a rectangle by keys ---------------------------------------------------------
async def test_brackets_in_the_edge_columns_never_touch_a_label_or_leave_the_board() -> None:
    app = BoxHost(pillars())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await go(pilot, board, "Ia", "enter")
        await go(pilot, board, "Ic")
        # the anchor in column a: a space between the row letter and its bracket
        assert line_of(board, "Ia").startswith("I { + } + [ + ]")
        await go(pilot, board, "Ij")  # Ii is a pillar: refused, the anchor kept
        assert box(board, "Ij")[:1] == "[" and line_of(board, "Ij").endswith("[ ×]")
        assert len(line_of(board, "Ij")) == board.geometry().width == 42


async def test_enter_anchors_a_corner_and_the_rectangle_is_previewed_then_filled() -> None:
    app = BoxHost(pillars())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await go(pilot, board, "Ef", "enter")
        assert board.anchor == cell("Ef") and app.picked == []
        assert box(board, "Ef") == "[ + ]"  # the cursor on the anchor: a single cell
        assert info(board) == "Enter fills EfEf (1 cell). Esc drops the anchor."
        await go(pilot, board, "Bh")
        assert box(board, "Ef") == "{ + }" and box(board, "Bh") == "[ + ]"
        for name in ("Bf", "Cg", "Dh", "Df"):
            assert box(board, name) == "  +  "
            assert style_at(board, name).bgcolor == board.style("path").bgcolor
        assert box(board, "Ai") == "  ·  " and box(board, "Fg") == "  ·  "
        assert info(board) == "Enter fills BfEh (12 cells). Esc drops the anchor."
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [(1, 5, 4, 7, False)]  # normalised: top, left, bottom, right
        assert board.game.history == []  # the board only reports; the screen plays


async def test_the_same_cell_twice_is_a_single_cell_and_corners_come_in_any_order() -> None:
    app = BoxHost(pillars())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await go(pilot, board, "Ha", "enter", "enter")
        assert app.picked == [(7, 0, 7, 0, False)]
        board.action_cancel()
        await go(pilot, board, "Jc", "enter")
        await go(pilot, board, "Hb", "enter")  # from the bottom right to the top left
        assert app.picked[-1] == (7, 1, 9, 2, False)
        assert board.move_for(board.cursor) == (7, 1, 9, 2, False)


async def test_an_illegal_rectangle_shows_why_and_enter_on_it_is_refused() -> None:
    app = BoxHost(pillars(["AcBe"]))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await go(pilot, board, "Ag", "enter")
        await go(pilot, board, "Bd")  # over red's AcBe
        reason = board.game.rect_problem(0, 3, 1, 6)
        assert reason == "Ad is already filled (by red's AcBe)"
        assert info(board) == f"AdBg: {reason}"
        assert board.info_text().style == board.style("bad")
        assert box(board, "Bf") == "  ×  " and box(board, "Bd") == "[ 1 ]"
        assert box(board, "Ae") == "  1  " and box(board, "Ag") == "{ × }"
        assert style_at(board, "Ae").bgcolor == board.style("off").bgcolor  # in the way
        assert style_at(board, "Ae").strike and not style_at(board, "Ac").strike
        assert style_at(board, "Bf").bgcolor == board.style("path").bgcolor
        assert style_at(board, "Bf").color == board.style("bad").color
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [] and board.anchor == cell("Ag")  # the anchor stays
        assert board.refusal == f"AdBg: {reason}"
        # the reason reads whole under the board at 80x24, on two lines
        plain = " ".join(line.strip() for line in board.render().plain.splitlines()[-3:])
        assert f"AdBg: {reason}" in plain
        await go(pilot, board, "Be")  # the next key clears the refusal; still over AcBe
        assert board.refusal is None
        assert info(board) == "AeBg: Ae is already filled (by red's AcBe)"
        await go(pilot, board, "Bf", "enter")  # AfBg is legal
        assert app.picked == [(0, 5, 1, 6, False)]
        board.action_cancel()
        # a pillar in the way
        await go(pilot, board, "Ge", "enter")
        await go(pilot, board, "Hh")
        assert info(board) == "GeHh: Gg is a pillar"
        assert box(board, "Gg") == " ╱#╱ "
        assert style_at(board, "Gg").bgcolor == board.style("off").bgcolor


async def test_enter_on_a_pillar_or_a_tile_does_not_anchor_and_says_why() -> None:
    app = BoxHost(pillars(["AcBe"]))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await go(pilot, board, "Dd", "enter")
        assert board.anchor is None
        assert info(board) == "Dd is a pillar: anchor an empty cell"
        await go(pilot, board, "Bd", "enter")
        assert board.anchor is None
        assert info(board) == "Bd is already filled (by red's AcBe): anchor an empty cell"
        await pilot.press("down")  # the next key clears the reason
        assert info(board) == "blue to move: Enter anchors a corner. Last: red AcBe (6 cells)."


async def test_esc_drops_the_anchor_and_otherwise_goes_on_to_the_screen() -> None:
    app = NoteHost(pillars())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await go(pilot, board, "Bc", "enter")
        await go(pilot, board, "Dd")
        assert board.check_action("cancel", ()) and board.preview() is not None
        await pilot.press("escape")
        assert board.anchor is None and app.escapes == 0  # the board took Esc
        assert box(board, "Bd") == "  ·  " and board.preview() is None
        await pilot.press("escape")  # no anchor: Esc goes on, as on other boards
        assert app.escapes == 1 and not board.check_action("cancel", ())
        assert app.picked == []


async def test_a_locked_board_chooses_nothing_and_a_move_clears_the_choice() -> None:
    app = BoxHost(pillars())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.locked = True
        await go(pilot, board, "Bc", "enter", "j")
        assert board.anchor is None and not board.armed
        board.locked = False
        await pilot.press("j", "enter")
        assert board.anchor == cell("Bc") and board.armed
        board.game.play((1, 2, 1, 2, True))
        board.refresh_game()
        assert board.anchor is None and not board.armed and board.refusal is None


# ----- the mouse ---------------------------------------------------------------------------------
async def test_a_click_anchors_and_a_second_click_fills() -> None:
    app = BoxHost(pillars())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        await pilot.click(PillarsBoard, offset=(0, spot(board, "Bc")[1]))  # a row label
        await pilot.click(PillarsBoard, offset=(spot(board, "Bc")[0], 0))  # a column label
        assert board.anchor is None
        await pilot.click(PillarsBoard, offset=spot(board, "Bc"))
        assert board.anchor == cell("Bc") and board.cursor == cell("Bc") and app.picked == []
        await pilot.hover(PillarsBoard, offset=spot(board, "Dh"))  # the preview follows
        assert board.cursor == cell("Dh") and box(board, "Cf") == "  ×  "  # Dd is a pillar
        await pilot.click(PillarsBoard, offset=spot(board, "Dh"))
        assert app.picked == [] and board.refusal == "BcDh: Cc is a pillar"
        await pilot.click(PillarsBoard, offset=spot(board, "Bd"))
        await pilot.pause()
        assert app.picked == [(1, 2, 1, 3, False)] and board.cursor == cell("Bd")
        board.action_cancel()
        await pilot.click(PillarsBoard, offset=spot(board, "Ja"))
        await pilot.click(PillarsBoard, offset=spot(board, "Ja"))  # the same cell: one cell
        await pilot.pause()
        assert app.picked[-1] == (9, 0, 9, 0, False)


async def test_a_drag_fills_from_where_it_started_to_where_it_ends() -> None:
    app = BoxHost(pillars())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        await pilot.mouse_down(PillarsBoard, offset=spot(board, "Hd"))
        await pilot.hover(PillarsBoard, offset=spot(board, "Fa"))
        assert board.anchor == cell("Hd") and board.cursor == cell("Fa")
        assert box(board, "Gb") == "  +  "  # previewed while dragging
        assert info(board) == "Enter fills FaHd (12 cells). Esc drops the anchor."
        await pilot.mouse_up(PillarsBoard, offset=spot(board, "Fa"))
        await pilot.pause()
        assert app.picked == [(5, 0, 7, 3, False)]
        # a drag over a pillar is refused with the reason, its start kept as the anchor
        board.action_cancel()
        await pilot.mouse_down(PillarsBoard, offset=spot(board, "Ab"))
        await pilot.mouse_up(PillarsBoard, offset=spot(board, "Bc"))
        await pilot.pause()
        assert len(app.picked) == 1 and board.refusal == "AbBc: Bb is a pillar"
        assert board.anchor == cell("Ab")


# ----- the joker -------------------------------------------------------------------------------
async def test_j_arms_the_joker_with_its_value_and_the_move_claims() -> None:
    app = BoxHost(pillars())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.press("j")
        assert board.armed
        assert info(board) == ("red to move: Enter anchors a corner. Joker armed: worth 9, "
                               "j disarms.")
        assert board.render().plain.splitlines()[0][0] == "!"  # over the row labels
        await pilot.press("j")
        assert not board.armed and board.render().plain.splitlines()[0][0] == " "
        await pilot.press("j")
        await go(pilot, board, "Ab", "enter")
        await go(pilot, board, "Af")
        assert box(board, "Ad") == "  !  "
        assert info(board) == ("Enter fills !AbAf (5 cells) with the joker (worth 9). Esc "
                               "drops the anchor.")
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [(0, 1, 0, 5, True)]


async def test_j_is_refused_once_the_mover_has_claimed() -> None:
    app = BoxHost(pillars(["!AcBe", "DaEb"]))  # red claimed with its first move: worth 9
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.press("j")
        assert not board.armed
        assert info(board) == "red has already used the joker (!AcBe, worth 9)"
        assert board.info_text().style == board.style("bad")
        await pilot.press("up")
        assert info(board).startswith("red to move: Enter anchors a corner.")


async def test_blues_first_joker_is_worth_9_and_later_ones_the_empty_cells_by_10() -> None:
    app = BoxHost(pillars(["AcBe"]))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.press("j")
        assert "Joker armed: worth 9" in info(board)
    app = BoxHost(pillars(["AcBe", "DaEb"]))  # 90 - 6 - 4 = 80 empty cells: 8
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.press("j")
        assert "Joker armed: worth 8" in info(board)


# ----- the hooks ------------------------------------------------------------------------------
async def test_the_hooks_the_generic_tests_use() -> None:
    app = BoxHost(pillars())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        move, claim = (1, 2, 3, 5, False), (1, 2, 3, 5, True)
        assert board.choices_for(move) == [cell("Bc"), cell("Df")]
        assert board.target_for(move) == cell("Df")
        assert board.keys_for(move) == [] and board.keys_for(claim) == ["j"]
        assert board.move_for(cell("Df")) is None  # no anchor yet
        await pilot.press("j")
        assert board.keys_for(claim) == [] and board.keys_for(move) == ["j"]  # already armed
        await go(pilot, board, "Bc", "enter")
        assert board.move_for(cell("Df")) == claim
        assert board.keys_for(claim) == ["escape"]  # a corner anchored already: drop it first
        # the hint anchors its top left corner, arms the joker if it claims, and leaves the
        # cursor on its bottom right corner: Enter plays it
        board.action_cancel()
        await pilot.press("j")
        assert not board.armed
        hint = (2, 4, 3, 6, True)  # !CeDg
        board.show_hint(hint)
        await pilot.pause()
        assert board.anchor == cell("Ce") and board.cursor == cell("Dg") and board.armed
        assert style_at(board, "Cf").bgcolor == board.style("hint").bgcolor
        assert info(board) == ("hint: Enter fills !CeDg (6 cells) with the joker (worth 9). "
                               "Esc drops the anchor.")
        assert box(board, "Cf") == "} !  "  # the preview on it, right of the anchor
        await pilot.press("escape", "down", "down")
        await pilot.pause()
        # the preview gone, the suggestion still reads without colour: □ cells
        assert box(board, "Cf") == "  □  " and box(board, "Dg") == "  □  "
        assert box(board, "Ch") == "  ·  "
        await pilot.press("up", "up", "up", "left", "left", "enter", "down", "right", "right")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [hint]


# ----- without room under the board -------------------------------------------------------------
async def test_without_room_under_the_board_the_line_goes_to_the_status_line() -> None:
    app = NoteHost(pillars())
    async with app.run_test(size=(80, 15)) as pilot:
        board = app.board
        await pilot.pause()
        assert board.geometry().info == 0
        await go(pilot, board, "Aa", "enter")
        await pilot.pause()
        assert app.notes[-1] == "Aa is a pillar: anchor an empty cell"


# ----- the end screen's lines ------------------------------------------------------------------
def test_the_result_gives_the_reason_and_how_the_points_were_made() -> None:
    game = pillars(["AfEj", "!FaJe", "!AcBe", "CaEb", "FhGj", "HfJg", "CdCe", "DcEc", "HiHj",
                    "IhJh", "AbAb", "BaBa", "DeDe", "EdEd", "FgFg", "GfGf", "IjIj", "JiJi"])
    assert game.is_over  # blue filled the last cell
    assert PillarsBoard.describe_result(game) == [
        "blue filled the last cell and loses", "red 18 + 4 (joker !AcBe) = 22",
        "blue 9 - 9 (joker !FaJe) = 0"]
    rng = random.Random(0)
    game = pillars()
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    assert PillarsBoard.describe_result(game) == [game.outcome.reason, *game.score_lines()]
    timed = pillars(["AcBe"])
    timed.forfeit(1, Termination.TIME, "blue ran out of time")
    assert PillarsBoard.describe_result(timed) == [
        "blue ran out of time", "red 18 + 8 (84 empty cells / 10, no joker claimed) = 26",
        "blue 0 (out of time)"]
    assert PillarsBoard.describe_result(pillars()) == []


# ----- the app -----------------------------------------------------------------------------------
async def test_the_side_panel_shows_the_empty_cells_and_the_jokers() -> None:
    app = ArenaApp("pillars", players=[HUMAN, HUMAN], options={"pillars": "diagonal"},
                   clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await play_by_keys(pilot, screen.board, (0, 2, 1, 4, True))
        panel = str(screen.query_one(PlayersPanel).render())
        assert "84 empty in 3 regions" in panel  # Ab is cut off
        assert "red: joker !AcBe worth 9" in panel
        assert "blue: joker unused (now 9)" in panel
        assert not screen.board.armed  # disarmed after the move
