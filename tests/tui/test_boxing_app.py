"""Boxing in the app at 80x24 through the Pilot: three people set up on the setup screen play
a whole game by keys to the end screen's scores; a whole game against the AI, whose moves
come from a worker thread; a three-player save loaded back; a box over a used or unusable
cell refused with its reason. (The board's own facts: test_board_boxing.py.)"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.widgets import Select

from rules import PlayerSpec, game_names
from rules.boxing import MARKS, SAMPLE_ARENA, Boxing, parse_arena
from tests.tui.test_app import play_by_keys, play_to_the_end, text_of, wait_engine, walk
from tui.app import ArenaApp
from tui.play.session import Session
from tui.screens.common import RulesDialog
from tui.screens.dialogs import NameDialog, ResultScreen
from tui.screens.game import GameScreen
from tui.screens.load_dialog import LoadDialog
from tui.screens.setup import SetupScreen
from tui.widgets.boards.boxing import BoxingBoard

SIZE = (80, 24)
ANN, BOB, CY = PlayerSpec.human("Ann"), PlayerSpec.human("Bob"), PlayerSpec.human("Cy")
EASY = PlayerSpec.ai("easy")


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves, setup choices and saves of these tests never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def greedy_game(players: int, plies: int) -> Boxing:
    """The sample arena after `plies` of the rules' greedy moves (the largest boxes that do
    not hand the next player the rest): few vacant cells in a few regions."""
    game = Boxing(start=parse_arena(SAMPLE_ARENA), seat_marks=MARKS[:players])
    for _ in range(plies):
        game.play(game.greedy_moves()[0])
    return game


def nearly_full(players: int, plies: int) -> Boxing:
    """A new game (no history, the first mark to move) on the arena `greedy_game` leaves:
    its marks stay on the arena, the vacant cells are few."""
    played = greedy_game(players, plies)
    return Boxing(start="".join(played.board), seat_marks=MARKS[:players])


def size_keys(board: BoxingBoard, move: tuple[int, int, int]) -> list[str]:
    """The arrow keys to the box's top-left cell, then + or - to its size."""
    change = move[2] - board.size_k
    return [*walk(board, board.cursor, board.target_for(move)),
            *(["plus"] * change if change > 0 else ["minus"] * -change)]


def near_greedy(board: BoxingBoard) -> tuple[int, int, int]:
    """Of the rules' greedy moves (the largest boxes that do not hand the next player the
    rest), the one fewest arrow keys away."""
    return min(board.game.greedy_moves(),
               key=lambda m: len(walk(board, board.cursor, board.target_for(m))))


def turn_rows(screen: GameScreen) -> list[str]:
    """The players panel's rows marked with the turn arrow."""
    rows = text_of(screen.query_one("#players")).splitlines()[:screen.session.players]
    return [row for row in rows if row.startswith("▶")]


def assert_turn(screen: GameScreen, mark: str, label: str) -> None:
    """`mark` (held by `label`) is to move: the title and the one arrowed panel row."""
    assert screen.title_line[1] == f"{mark} to move: {label}"
    rows = turn_rows(screen)
    assert len(rows) == 1 and rows[0][2:].startswith(f"{mark} {label}")


async def open_session(app: ArenaApp, pilot, session: Session) -> GameScreen:
    """Put `session` on the screen as the app does for a new or loaded game."""
    app.start_session(session)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, GameScreen) and screen.session is session
    return screen


async def test_three_people_set_up_on_the_setup_screen_play_a_whole_game_by_keys() -> None:
    app = ArenaApp(clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["down"] * game_names().index("boxing"), "enter")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen) and setup.game_name == "boxing"
        assert setup.focused is setup.query_one("#player-count", Select)
        await pilot.press("enter", "down", "enter")  # Players: 2 -> 3
        await pilot.pause()
        assert setup.query_one("#player-count", Select).value == 3
        shown = [s.id for s in setup.query(Select)
                 if (s.id or "").startswith("player-") and s.id != "player-count"
                 and s.parent.display]
        assert shown == ["player-0", "player-1", "player-2"]
        await pilot.press("tab")  # A plays: a person already
        for seat in (1, 2):  # B and C: from the AI to people
            await pilot.press("tab", "enter", "home", "enter")
            await pilot.pause()
            assert setup.query_one(f"#player-{seat}", Select).value == "human"
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        session = screen.session
        game = session.game
        assert isinstance(game, Boxing) and game.seat_marks == ("A", "B", "C")
        assert session.participants == (PlayerSpec.human(),) * 3 and not session.has_ai
        assert screen.board.has_focus
        # a round on the random arena: A, B, C in turn, by keys (a size typed, then +/-)
        for turn, mark in enumerate("ABC"):
            assert_turn(screen, mark, f"Human {turn + 1}")
            move = max(game.legal_moves(), key=lambda m: (m[2], -m[0], -m[1]))
            move = (move[0], move[1], min(move[2], 3 + turn))
            if turn % 2:
                await pilot.press(*size_keys(screen.board, move), "enter")
                await pilot.pause()
            else:
                await play_by_keys(pilot, screen.board, move)
            assert game.history[-1] == move and len(game.history) == turn + 1
            assert screen._status == f"{mark} played {game.move_text(move)}."
        assert_turn(screen, "A", "Human 1")

        # the rest of a game is long: a nearly full arena, loaded like any save (l, Enter)
        start = nearly_full(3, 33)
        assert start.vacant == 16 and start.to_move == 0
        path = app.services.save_session(Session(start, (ANN, BOB, CY)), "nearly full")
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LoadDialog) and app.screen.saves[0] == path
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen._status == f"Loaded {path.name}."
        session = screen.session
        game = session.game
        assert isinstance(game, Boxing) and game.key() == start.key() and game.history == []
        labels = dict(zip("ABC", ("Ann", "Bob", "Cy"), strict=True))
        turn = 0
        while not game.is_over:
            mark = "ABC"[turn % 3]
            assert_turn(screen, mark, labels[mark])
            move = near_greedy(screen.board)
            marks_before = game.cells[turn % 3]
            if turn % 2:
                await pilot.press(*size_keys(screen.board, move), "enter")
                await pilot.pause()
            else:
                await play_by_keys(pilot, screen.board, move)
            assert len(game.history) == turn + 1 and game.history[-1] == move
            assert game.cells[turn % 3] == marks_before + move[2] ** 2
            if not game.is_over:
                assert screen._status == f"{mark} played {game.move_text(move)}."
            turn += 1
        await pilot.pause()
        outcome = game.outcome
        assert outcome is not None and turn >= 6
        winner = game.seat_marks[outcome.winner]
        assert winner == "ABC"[(turn - 1) % 3]  # the last mover filled the last cell
        assert screen.title_line[1] == f"game over: {winner} wins"
        assert not turn_rows(screen)
        result = app.screen
        assert isinstance(result, ResultScreen)
        text = "\n".join(result.lines)
        assert result.lines[0] == (f"Game 1 of {session.match.length}: {labels[winner]} wins "
                                   f"as {winner}")
        assert outcome.reason in text  # "B filled the last vacant cell and wins with N marks"
        points = game.cells[outcome.winner]
        assert f"{winner} {points} (its marks)" in text
        for mark in "ABC":  # every player is listed with its score
            if mark != winner:
                assert f"{mark} 0 (did not fill the last cell)" in text
        assert game.scores() == tuple(points if m == winner else 0 for m in "ABC")
        panel = text_of(screen.query_one("#players"))  # points now: the rules' score
        assert f" {points} pts " in panel and " 0 pts " in panel and "marks" not in panel


async def test_a_whole_game_against_the_ai_from_a_nearly_full_arena() -> None:
    app = ArenaApp(clocks_running=False, ai_seconds=0.05)
    searched: list[threading.Thread] = []
    answered = threading.Event()  # the first search waits for the screen to answer a key
    engine_of = app.services.engine

    class Watched:
        """The shared engine, its searches recorded (the first one held back)."""

        def __init__(self, engine) -> None:
            self.engine = engine

        def __getattr__(self, name: str):
            return getattr(self.engine, name)

        def search(self, *args, **kwargs):
            searched.append(threading.current_thread())
            if len(searched) == 1:
                answered.wait(10)
            return self.engine.search(*args, **kwargs)

    app.services.engine = lambda name: Watched(engine_of(name))  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        game = nearly_full(2, 30)
        assert game.vacant == 19
        screen = await open_session(app, pilot, Session(game, (ANN, EASY), now=app.services.now))
        await wait_engine(app, pilot, "boxing")
        assert_turn(screen, "A", "Ann")
        await play_by_keys(pilot, screen.board, near_greedy(screen.board))
        for _ in range(1500):  # the AI's search runs in a worker ...
            if searched:
                break
            await pilot.pause(0.02)
        assert screen.driver.current is not None and screen.board.locked
        await pilot.press("question_mark")  # ... while the screen answers keys
        await pilot.pause()
        assert isinstance(app.screen, RulesDialog)
        # each size key once, and the AI named as such
        assert "Board: enter mark, +/- size, m largest, 0-9 type a size." in app.screen.text
        assert "o AI view" in app.screen.text
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and len(game.history) == 1
        answered.set()
        await play_to_the_end(pilot, screen, lambda _game: near_greedy(screen.board))
        assert len(game.history) >= 4 and game.outcome is not None
        assert len(searched) >= len(game.history) // 2
        assert all(t is not threading.main_thread() for t in searched)
        result = app.screen
        assert isinstance(result, ResultScreen)
        text = "\n".join(result.lines)
        assert game.outcome.reason in text
        for line in game.score_lines():  # both players, with their scores
            assert line in text


async def test_a_three_player_save_loads_back_with_its_arena_players_and_moves(
        tmp_path: Path) -> None:
    players = (ANN, BOB, EASY)
    app = ArenaApp("boxing", options={"players": 3, "arena": "sample"}, players=players,
                   clocks_running=False, ai_seconds=0.05, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        session = screen.session
        await wait_engine(app, pilot, "boxing")
        for mark, label, move in (("A", "Ann", (0, 0, 4)), ("B", "Bob", (0, 10, 5)),
                                  ("A", "Ann", None)):
            assert_turn(screen, mark, label)
            if move is None:  # a 3x3 box wherever the AI's random reply left one
                move = next(m for m in session.game.legal_moves() if m[2] == 3)
            await play_by_keys(pilot, screen.board, move)
            await app.workers.wait_for_complete()  # C, the AI, replies after B
            await pilot.pause()
        game = session.game
        assert len(game.history) == 4 and game.to_move == 1
        saved, board = list(game.history), list(game.board)
        assert board.count("C") > 0 and game.is_legal((15, 0, 1))
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, NameDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert screen._status.startswith("Saved to ")
        (path,) = tmp_path.glob("*.arena.json")
        await play_by_keys(pilot, screen.board, (15, 0, 1))  # B, then the AI again
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(session.game.history) == 6
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen._status == f"Loaded {path.name}."
        again = screen.session.game
        assert isinstance(again, Boxing)
        assert again.history == saved and again.board == board
        assert again.start == parse_arena(SAMPLE_ARENA) and again.seat_marks == ("A", "B", "C")
        assert screen.session.players_by_mark == players
        assert_turn(screen, "B", "Bob")
        assert text_of(screen.query_one("#moves")).split() == [
            "1.", *(again.move_text(m) for m in saved[:3]), "2.", again.move_text(saved[3])]
    loaded = ArenaApp().services.load_session(path)  # and read back on its own
    assert loaded.participants == players and [p.is_ai for p in loaded.participants] == [
        False, False, True]
    assert loaded.game.history == saved and loaded.game.key() == "".join(board)
    assert loaded.game.marks == ("A", "B", "C") and loaded.game.to_move == 1


async def test_enter_on_a_box_over_a_used_or_unusable_cell_says_why_and_changes_nothing(
        ) -> None:
    app = ArenaApp("boxing", options={"arena": "sample"}, players=(ANN, BOB),
                   clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.board
        assert isinstance(board, BoxingBoard)
        game = screen.session.game
        arena = list(game.board)
        await pilot.press("6", "enter")  # A1x6 reaches C6, unusable
        await pilot.pause()
        why = "A1x6: C6 is unusable (o)"
        assert board.refusal == why
        assert board.render().plain.splitlines()[-1].strip() == why
        assert game.history == [] and game.board == arena and game.to_move == 0
        assert_turn(screen, "A", "Ann")
        assert screen._status == "New game. ? shows the rules."  # nothing was played
        await pilot.press("minus", "minus", "minus", "minus", "enter")  # A1x2 is fine
        await pilot.pause()
        assert game.history == [(0, 0, 2)] and screen._status == "A played A1x2."
        # the panel counts marks, not points (only the winner scores, at the end)
        panel = text_of(screen.query_one("#players"))
        assert " A Ann " in panel and " 4 marks " in panel and " 0 marks " in panel
        assert "pts" not in panel
        arena = list(game.board)
        await pilot.press("right", "3", "enter")  # B's A2x3 covers A2, A's
        await pilot.pause()
        why = "A2x3: A2 is marked A, 1 more used"
        assert board.refusal == why
        assert why in board.info_text().plain
        # whole on the line under the board, so the status line keeps the last move alone
        assert board.render().plain.splitlines()[-1].strip() == why
        assert text_of(screen.query_one("#status")) == "A played A1x2."
        assert game.history == [(0, 0, 2)] and game.board == arena
        assert_turn(screen, "B", "Bob")
        await pilot.press("right", "enter")  # any key clears the refusal; A3x3 is B's
        await pilot.pause()
        assert board.refusal is None and game.history == [(0, 0, 2), (0, 2, 3)]
