"""LOAPS's own board facts: the layout and its growth, the picture (chess labels, bonus squares,
the last move and a capture), choosing a piece then its destination by keys and clicks, Esc,
the refusals and their reasons, the hint, the end screen's lines; then a whole hot-seat game
by keys in the app, to its end screen.
"""

from __future__ import annotations

import random

import pytest
from conftest import Host
from rich.console import Console
from textual.binding import Binding

from rules import PlayerSpec, Termination
from rules.loaps import Loaps, parse_square
from tui.app import ArenaApp
from tui.screens.dialogs import ResultScreen
from tui.screens.game import GameScreen
from tui.widgets.boards.grid import GridBoard
from tui.widgets.boards.loaps import LAYOUTS, LEFT, Geometry, LoapsBoard, fit

SIZE = (80, 24)
HUMAN = PlayerSpec.human()
START_TARGETS = {"a5", "c5", "e5", "g7"}  # c7's moves at the start (a5 takes a blue piece)
CAPTURE = ["c7 e5", "g3 e1", "e7 e4", "g5 f6", "f7 d5", "a3 c1"]  # blue's a3 c1 takes c1
STUCK = ["e7 e5", "a2 c2", "c1 e3", "a5 d5", "e3 e6", "c2 e2", "e1 d2", "e2 b5", "d2 f4",
         "a6 d3"]  # red to move, its f7 has no legal move


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves of the app tests here never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def sq(name: str) -> int:
    return parse_square(name)


def loaps(moves: list[str] = ()) -> Loaps:
    game = Loaps()
    for text in moves:
        game.play(game.parse_move(text))
    return game


class NoteHost(Host):
    """A host that also records the board's Notes and any Esc the board lets through."""

    BINDINGS = [Binding("escape", "escaped", "Escaped")]

    def __init__(self, game: Loaps) -> None:
        super().__init__(game)
        self.notes: list[str | None] = []
        self.escapes = 0

    def on_grid_board_note(self, message: GridBoard.Note) -> None:
        self.notes.append(None if message.text is None else message.text.plain)

    def action_escaped(self) -> None:
        self.escapes += 1


def keys_between(start: int, goal: int) -> list[str]:
    """The fewest arrow keys from one square to another (the cursor wraps round the edges)."""
    keys = []
    for here, there, (back, forward) in zip(divmod(start, 7), divmod(goal, 7),
                                             (("up", "down"), ("left", "right")), strict=True):
        ahead = (there - here) % 7
        keys += [forward] * ahead if ahead <= 3 else [back] * (7 - ahead)
    return keys


async def choose(pilot, board: LoapsBoard, name: str) -> None:
    """The cursor to a square by arrows, then Enter."""
    await pilot.press(*keys_between(board.cursor, sq(name)), "enter")
    await pilot.pause()


def chip(board: LoapsBoard, name: str, lead: int = 0) -> str:
    """The middle line of a square's chip: its brackets and its glyph (3 characters at 80x24),
    after `lead` characters of the space before it."""
    g = board.geometry()
    r, c = divmod(sq(name), 7)
    line = board.render().plain.splitlines()[g.grid_y + r * g.ch + g.mark_y]
    return line[LEFT + c * g.cw + 1 - lead:LEFT + c * g.cw + 1 + g.chip_w]


def style_of(board: LoapsBoard, name: str):
    """The style of a square's glyph."""
    g = board.geometry()
    text = board.render()
    lines = text.plain.splitlines(keepends=True)
    r, c = divmod(sq(name), 7)
    row = g.grid_y + r * g.ch + g.mark_y
    offset = sum(len(line) for line in lines[:row]) + LEFT + c * g.cw + g.cw // 2
    return text.get_style_at_offset(Console(), offset)


def info(board: LoapsBoard) -> str:
    return board.info_text().plain


# ----- the layout ----------------------------------------------------------------------------
def test_fit_is_a_fixed_point_that_grows_with_the_room() -> None:
    for g in LAYOUTS:
        assert fit(g.width, g.height) == g
    # 80x24 beside the side panel: 42x19 for the board; 120x40: 68x35
    small, large = fit(42, 19), fit(68, 35)
    assert small == Geometry(2, right=True, top=True, info=3)
    assert (small.width, small.height) == (40, 18)
    assert large.k == 4 and large.info == 3 and large.width <= 68 and large.height <= 35
    # no room for the lines under the board: they go to the status line
    assert fit(40, 15).info == 0


# ----- the picture ---------------------------------------------------------------------------
async def test_the_picture_has_chess_labels_bonus_squares_and_both_sides() -> None:
    app = Host(loaps())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await pilot.pause()
        g = board.geometry()
        assert g == Geometry(2, True, True, 3)
        lines = board.render().plain.splitlines()
        files = "a b c d e f g".split()
        assert lines[0].split() == files and lines[g.grid_y + g.grid_h].split() == files
        for r in range(7):
            row = lines[g.grid_y + r * g.ch].split()
            assert row[0] == row[-1] == str(7 - r)  # rank 7 at the top, on both sides
        # the cursor starts mid-board, on the 7 square: its "+" keeps the left bracket's
        # place on a narrow chip, and the bracket moves out into the space before it
        assert chip(board, "d4", lead=1) == "[+7]"
        assert style_of(board, "d4").color == board.style("label").color
        for name in ("b2", "b6", "f2", "f6"):
            # a bonus square's points are "+3", never a bare digit like a piece's 1 or 2
            assert chip(board, name) == "+3 "
            assert style_of(board, name).color == board.style("label").color  # subtle
        assert chip(board, "c4") == " . "
        assert chip(board, "b7") == " 1 " and chip(board, "a6") == " 2 "
        assert style_of(board, "b7").color == board.seat_style(0).color
        assert style_of(board, "a6").color == board.seat_style(1).color
        assert info(board) == "red (1) to move: choose a piece."
        assert "red (1) to move: choose a piece." in lines[-3]
        await pilot.press("left")
        await pilot.pause()
        assert chip(board, "d4", lead=1) == " +7 " and chip(board, "c4", lead=1) == " [.]"
        board.styles.width, board.styles.height = 60, 30  # wider chips: "+7" inside them
        await pilot.pause()
        assert board.geometry().k == 3 and chip(board, "d4") == " +7  " and chip(
            board, "b2") == " +3  "


async def test_the_last_move_is_marked_from_and_to_and_a_capture_with_x() -> None:
    app = Host(loaps(CAPTURE[:5]))  # red's f7 d5: no capture
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.locked = True  # no cursor
        await pilot.pause()
        assert chip(board, "f7") == "(.)" and chip(board, "d5") == "(1)"
        assert info(board) == "blue (2) to move (waiting)"
    app = Host(loaps(CAPTURE))  # blue's a3 c1 takes the red piece on c1
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.locked = True
        await pilot.pause()
        assert chip(board, "a3") == "(.)" and chip(board, "c1") == "x2x"
        assert chip(board, "f7") == " . " and chip(board, "d5") == " 1 "
        board.locked = False
        await pilot.pause()
        assert info(board) == ("red (1) to move: choose a piece. Last: blue a3 c1, taking a "
                               "red piece (+1).")


# ----- choosing a move -----------------------------------------------------------------------
async def test_a_lit_bonus_square_keeps_its_plus_on_a_narrow_chip() -> None:
    app = Host(loaps(["b7 b5", "a6 b7"]))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await choose(pilot, board, "b5")
        assert board.geometry().chip_w == 3 and sq("b2") in board.targets
        assert chip(board, "b2", lead=1) == ">+3<"  # not ">3<", a bare digit like a piece's
        assert chip(board, "f2", lead=1) == " +3 "  # not lit


async def test_a_piece_is_chosen_its_destinations_lit_and_enter_on_one_picks_the_move() -> None:
    app = Host(loaps())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await choose(pilot, board, "c7")
        assert board.selected == sq("c7")
        assert board.targets == {sq(n) for n in START_TARGETS}
        assert chip(board, "c7") == "[1]"  # the cursor is still on it
        assert info(board).startswith("c7 chosen: 4 squares lit.")
        await pilot.press("down")
        assert chip(board, "c7") == "{1}"  # chosen
        assert chip(board, "g7") == ">.<" and chip(board, "e5") == ">.<"
        assert chip(board, "a5") == ">2<"  # a capture
        assert style_of(board, "a5").bgcolor == board.style("off").bgcolor
        assert style_of(board, "e5").bgcolor == board.style("path").bgcolor
        assert chip(board, "b7") == " 1 "  # not lit
        await pilot.press("down")  # c5: a destination, previewed under the board
        assert info(board) == "c7 c5: no points"
        await pilot.press("left", "left")  # a5
        assert info(board) == "c7 a5: capture +1"
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [(sq("c7"), sq("a5"))]
        assert board.game.history == []  # the board only reports; the screen plays


async def test_the_preview_counts_the_points_and_warns_of_the_end() -> None:
    bonus = Loaps.from_native("1 5\n1 0 60\n2 0 60\n2...2.1\n......1\n.......\n1.12...\n"
                              ".......\n.......\n2.....2\n")
    app = Host(bonus)
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await choose(pilot, board, "a4")
        await pilot.press(*keys_between(sq("a4"), sq("d4")))
        assert info(board) == "a4 d4: capture +1, d4 +7 = +8"
        assert board.info_text().style == board.style("info")
    # red connects with d5 c6, yet blue wins on points: the preview says so, as a warning
    near_end = Loaps.from_native("1 25\n1 2 60\n2 15 60\n...1.2.\n....2..\n...1...\n"
                                 "......2\n....2..\n.......\n2.2....\n")
    app = Host(near_end)
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await choose(pilot, board, "d5")
        await pilot.press(*keys_between(sq("d5"), sq("c6")))
        assert info(board) == ("d5 c6: connects +12; ends the game: red connected all its "
                               "pieces (+12); blue wins on points, 15 to 14")
        assert board.info_text().style == board.style("warn")


async def test_choosing_again_cancels_another_piece_switches_and_esc_cancels() -> None:
    app = NoteHost(loaps())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await choose(pilot, board, "c7")
        await choose(pilot, board, "c7")  # the chosen piece again: no choice
        assert board.selected is None and board.targets == frozenset()
        await choose(pilot, board, "c7")
        await choose(pilot, board, "b7")  # another of red's pieces: that one
        assert board.selected == sq("b7")
        assert board.targets == {sq("b5"), sq("d5")}
        await pilot.press("escape")
        assert board.selected is None and app.escapes == 0  # the board took Esc
        assert chip(board, "b5") == " . "
        await pilot.press("escape")  # nothing chosen: Esc goes on, as on other boards
        assert app.escapes == 1 and board.selected is None
        assert app.picked == []


async def test_an_illegal_choice_says_why() -> None:
    app = Host(loaps())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await choose(pilot, board, "d4")
        assert board.selected is None
        assert info(board) == "d4 is empty: choose one of red's pieces (1)"
        assert "d4 is empty: choose one of red's pieces" in board.render().plain
        await choose(pilot, board, "a6")
        assert info(board) == "a6 is blue's piece: choose one of red's pieces (1)"
        await choose(pilot, board, "c7")
        await choose(pilot, board, "d6")  # a line with 2 pieces: d6 is 1 square away
        assert board.selected == sq("c7") and app.picked == []
        reason = board.game.problem((sq("c7"), sq("d6")))
        assert reason == ("c7 moves exactly 2 squares along that line (2 pieces on it), "
                          "not 1")
        assert info(board) == reason
        assert board.info_text().style == board.style("bad")
        # the reason reads whole under the board at 80x24, on two lines
        plain = " ".join(line.strip() for line in board.render().plain.splitlines()[-3:])
        assert reason in plain
        await choose(pilot, board, "a7")  # 4 pieces on row 7: a7 is 2 squares away
        assert info(board) == board.game.problem((sq("c7"), sq("a7")))
        await pilot.press("right")  # the next key clears the reason
        assert info(board).startswith("c7 chosen:")


async def test_a_piece_without_a_move_is_refused() -> None:
    app = Host(loaps(STUCK))
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        await choose(pilot, board, "f7")
        assert board.selected is None
        assert info(board) == "f7 has no legal move: choose another piece"


async def test_clicks_choose_the_piece_then_the_destination() -> None:
    app = Host(loaps())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        g = board.geometry()

        def spot(name: str) -> tuple[int, int]:
            r, c = divmod(sq(name), 7)
            return LEFT + c * g.cw + g.cw // 2, g.grid_y + r * g.ch + g.mark_y

        await pilot.click(LoapsBoard, offset=(1, spot("c7")[1]))  # the rank label
        await pilot.click(LoapsBoard, offset=(spot("c7")[0], 0))  # the file label
        assert board.selected is None
        await pilot.click(LoapsBoard, offset=spot("c7"))
        assert board.selected == sq("c7") and board.cursor == sq("c7")
        await pilot.click(LoapsBoard, offset=spot("d6"))
        assert board.refusal is not None and board.selected == sq("c7")
        await pilot.click(LoapsBoard, offset=spot("e5"))
        await pilot.pause()
        assert app.picked == [(sq("c7"), sq("e5"))] and board.cursor == sq("e5")


async def test_a_locked_board_chooses_nothing_and_a_move_clears_the_choice() -> None:
    app = Host(loaps())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        board.locked = True
        await choose(pilot, board, "c7")
        assert board.selected is None and board.refusal is None
        board.locked = False
        await pilot.press("enter")
        assert board.selected == sq("c7")
        board.game.play((sq("c7"), sq("c5")))
        board.refresh_game()
        assert board.selected is None and board.targets == frozenset()


async def test_a_hint_chooses_its_piece_and_puts_the_cursor_on_its_destination() -> None:
    app = Host(loaps())
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        move = (sq("b7"), sq("d5"))
        board.show_hint(move)
        await pilot.pause()
        assert board.selected == sq("b7") and board.cursor == sq("d5")
        assert board.move_for(board.cursor) == move
        assert chip(board, "b7") == "{1}" and chip(board, "d5") == "[.]"
        hint = board.style("hint").bgcolor
        assert style_of(board, "b7").bgcolor == hint and style_of(board, "d5").bgcolor == hint
        assert info(board) == "hint b7 d5: no points"
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [move]


async def test_without_room_under_the_board_the_reason_goes_to_the_status_line() -> None:
    app = NoteHost(loaps())
    async with app.run_test(size=(80, 15)) as pilot:
        board = app.board
        await pilot.pause()
        assert board.geometry().info == 0
        await choose(pilot, board, "d4")
        await pilot.pause()
        assert app.notes[-1] == "d4 is empty: choose one of red's pieces (1)"


# ----- the end screen's lines ------------------------------------------------------------------
def test_the_result_gives_the_reason_the_points_and_the_groups() -> None:
    rng = random.Random(0)
    game = Loaps()
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    red, blue = game.points
    lines = LoapsBoard.describe_result(game)
    assert lines[0] == game.outcome.reason
    assert lines[1] == f"red {red} points, blue {blue}"
    assert lines[2].startswith("1 red: ") and lines[3].startswith("2 blue: ")
    assert "connected" in lines[2] + lines[3]  # it ended by a connection
    timed = loaps(["c7 c5"])
    timed.forfeit(1, Termination.TIME, "blue ran out of time")
    assert LoapsBoard.describe_result(timed) == [
        "blue ran out of time", "red 0 points, blue 0",
        "1 red: 8 pieces in 5 groups (2+2+2+1+1)", "2 blue: 8 pieces in 4 groups (2+2+2+2)"]


# ----- the app -----------------------------------------------------------------------------------
async def test_a_whole_hot_seat_game_by_keys_to_the_end_screen() -> None:
    app = ArenaApp("loaps", players=[HUMAN, HUMAN], clocks_running=False, now=lambda: 0.0)
    rng = random.Random(141)  # a short game (33 moves): a connection
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.board
        game = screen.session.game
        while not game.is_over:
            # one of the few legal moves fewest keys away (a random game, but fewer keys)
            near = sorted(game.legal_moves(), key=lambda m: len(
                keys_between(board.cursor, m[0]) + keys_between(*m)))
            frm, to = rng.choice(near[:5])
            before = len(game.history)
            await pilot.press(*keys_between(board.cursor, frm), "enter")
            assert board.selected == frm and to in board.targets
            await pilot.press(*keys_between(frm, to), "enter")
            await pilot.pause()
            assert game.history[before:] == [(frm, to)]
            assert board.selected is None
        result = app.screen
        assert isinstance(result, ResultScreen)
        red, blue = game.points
        assert result.lines[0].startswith("Game 1 of 2: ")
        assert result.lines[1:4] == [game.outcome.reason, f"red {red} points, blue {blue}",
                                     *LoapsBoard.describe_result(game)[2:3]]
        assert "Return game: same start board, sides swapped." in result.lines
        assert board.locked


async def test_escape_on_the_game_screen_only_cancels_a_choice() -> None:
    app = ArenaApp("loaps", players=[HUMAN, HUMAN], clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        board = screen.board
        assert not board.check_action("cancel", ())
        await choose(pilot, board, "b7")
        assert board.check_action("cancel", ())
        await pilot.press("escape")
        assert board.selected is None and app.screen is screen
        await pilot.press("escape")  # nothing chosen: as before, nothing happens
        await pilot.pause()
        assert app.screen is screen and screen.session.game.history == []
        await choose(pilot, board, "b7")
        await choose(pilot, board, "d5")
        assert screen.session.game.history == [(sq("b7"), sq("d5"))]
        assert screen._status.endswith(" played b7 d5.")
