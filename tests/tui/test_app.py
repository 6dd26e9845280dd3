"""The app driven through Pilot at 80x24: hot-seat by keys, the AI, undo, saves, quit, match."""

from __future__ import annotations

import os
import random
import threading
import time
from pathlib import Path

from rich.style import Style

from tui.app import ArenaApp
from tui.screens.dialogs import LoadDialog, NameDialog, ResultScreen, RulesDialog
from tui.screens.game import PACES, GameScreen
from tui.screens.menu import MenuScreen
from tui.session import Player
from tui.widgets.pahtum_board import PahTumBoard

SIZE = (80, 24)
HUMAN = Player("human")


def app_for(players=(HUMAN, HUMAN), blocks: str = "21", seed: int = 4, **kw) -> ArenaApp:
    return ArenaApp("pahtum", options={"blocks": blocks}, seed=seed, players=players,
                    clocks_running=False, **kw)


async def wait_engine(app: ArenaApp, pilot) -> None:
    deadline = time.monotonic() + 120
    while not app.engine_ready("pahtum"):
        assert time.monotonic() < deadline, "the engine never got ready"
        await pilot.pause(0.1)


async def play_by_keys(pilot, board: PahTumBoard, cell: int) -> None:
    """Walk the cursor to `cell` with the arrow keys, then press Enter."""
    r, c = divmod(board.cursor, 7)
    tr, tc = divmod(cell, 7)
    keys = ["down" if tr > r else "up"] * abs(tr - r)
    keys += ["right" if tc > c else "left"] * abs(tc - c)
    await pilot.press(*keys, "enter")


async def finish_game_one(pilot, screen: GameScreen, seed: int) -> list[tuple[int, ...]]:
    """Play game one out with random moves, start the return game; game one's points."""
    rng = random.Random(seed)
    while not screen.session.game.is_over:
        screen._play(rng.choice(screen.session.game.legal_moves()))
    await pilot.pause()
    first = screen.session.results()
    await pilot.click("#return")
    await pilot.pause()
    return first


async def test_menu_lists_games_and_starts_a_hot_seat_game() -> None:
    app = ArenaApp(clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("enter")  # Pah-Tum, the first game
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert not app.screen.session.has_ai or app.screen.session.player(1).is_ai


async def test_whole_hot_seat_game_by_keys_to_the_final_score() -> None:
    app = app_for(blocks="25")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        game = screen.session.game
        while not game.is_over:
            before = len(game.history)
            r, c = divmod(screen.board.cursor, 7)
            # the nearest empty cell: a real walk with the arrow keys, but a short one
            near = min(game.legal_moves(), key=lambda m: abs(m // 7 - r) + abs(m % 7 - c))
            await play_by_keys(pilot, screen.board, near)
            assert len(game.history) == before + 1
        await pilot.pause()
        result = app.screen
        assert isinstance(result, ResultScreen)
        x, o = game.scores()
        text = "\n".join(result.lines)
        assert f"X {x}:" in text and f"O {o}:" in text
        assert game.outcome.reason in text
        assert "Return game" in text


async def test_the_ai_replies() -> None:
    app = app_for((HUMAN, Player("ai", "easy")), ai_seconds=0.2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_engine(app, pilot)
        screen = app.screen
        await pilot.press("enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(screen.session.game.history) == 2
        assert screen._status.startswith("O played ")
        assert not screen.session.ai_to_move
        await pilot.press("h")  # a hint is shown on the board, nothing is played
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.board.hint in screen.session.game.legal_moves()
        assert screen._status.startswith("Hint: ")
        assert len(screen.session.game.history) == 2


async def test_ai_against_ai_plays_to_the_end_at_the_chosen_pace() -> None:
    app = app_for((Player("ai", "easy"), Player("ai", "easy")), blocks="25", ai_seconds=0.05)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        # at pace 0 the game may be over before the pilot sees the screen idle again,
        # so check the pace itself rather than the status line it writes
        await pilot.press("plus", "plus", "plus", "plus")
        assert PACES[screen.pace_index] == 0.0
        await wait_engine(app, pilot)
        deadline = time.monotonic() + 30
        while not isinstance(app.screen, ResultScreen):
            assert time.monotonic() < deadline
            await pilot.pause(0.1)
        assert screen.session.game.is_over and screen.session.game.empty_count() == 0


async def test_undo_while_the_ai_thinks_drops_its_reply() -> None:
    app = app_for((HUMAN, Player("ai", "max")), blocks="1", ai_seconds=20.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_engine(app, pilot)
        screen = app.screen
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert screen._thinking is not None  # the search is running
        await pilot.press("u")
        started = time.monotonic()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert time.monotonic() - started < 2.0  # the stop flag ended the search
        assert screen.session.game.history == []
        assert not screen.session.ai_to_move


async def test_save_then_load_restores_the_position(tmp_path: Path) -> None:
    app = app_for(save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        game = screen.session.game
        for _ in range(3):
            await play_by_keys(pilot, screen.board, game.legal_moves()[0])
        saved = list(game.history)
        assert len(saved) == 3
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, NameDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert screen._status.startswith("Saved to ")
        assert len(list(tmp_path.glob("*.arena.json"))) == 1
        await play_by_keys(pilot, screen.board, game.legal_moves()[-1])
        assert len(screen.session.game.history) == 4
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LoadDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        assert screen.session.game.history == saved
        assert screen._status.startswith("Loaded ")


async def test_a_click_plays_the_cell_and_export_writes_the_native_position(
        tmp_path: Path) -> None:
    app = app_for(save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        game = screen.session.game
        cell = game.legal_moves()[5]
        row, col = divmod(cell, 7)
        # the board's geometry: a 4-column row gutter, 5 columns per cell, 2 lines per row
        await pilot.click("#board", offset=(4 + col * 5 + 2, 1 + row * 2))
        await pilot.pause()
        assert game.history == [cell]
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, NameDialog)
        await pilot.press("enter")
        await pilot.pause()
        exported = list(tmp_path.glob("*.txt"))
        assert len(exported) == 1 and exported[0].read_text() == game.to_native()
        assert screen._status.startswith("Exported ")
        await play_by_keys(pilot, screen.board, game.legal_moves()[0])
        await pilot.press("l")  # the exported position is in the load list and loads back
        await pilot.pause()
        assert isinstance(app.screen, LoadDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen._status.startswith("Loaded ")
        assert screen.session.game.to_native() == exported[0].read_text()
        await play_by_keys(pilot, screen.board, screen.session.game.legal_moves()[0])
        await pilot.press("n")  # a game in progress is left only after a yes
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("n", "y")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_a_save_in_the_return_game_loads_with_sides_swapped(tmp_path: Path) -> None:
    ann, bob = Player("human", name="Ann"), Player("human", name="Bob")
    app = app_for((ann, bob), blocks="25", save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        first = await finish_game_one(pilot, screen, seed=5)
        screen._play(screen.session.game.legal_moves()[0])
        path = app.save_session(screen.session, "match.arena.json")
        loaded = app.load_session(path)
        assert loaded.game_number == 2 and loaded.match.results == first
        assert loaded.participants == (ann, bob)
        assert loaded.player(0) == bob
        assert loaded.game.history == screen.session.game.history


async def test_a_failed_load_leaves_the_game(tmp_path: Path) -> None:
    (tmp_path / "bad.arena.json").write_text("{not json")
    app = app_for(save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, screen.session.game.legal_moves()[0])
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert screen._status.startswith("Load failed: ")
        assert len(screen.session.game.history) == 1


async def test_the_menu_loads_a_save_and_refuses_a_damaged_one(tmp_path: Path) -> None:
    app = app_for(save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        for _ in range(2):
            await play_by_keys(pilot, screen.board, screen.session.game.legal_moves()[0])
        saved = list(screen.session.game.history)
        app.save_session(screen.session, "good.arena.json")
        (tmp_path / "bad.arena.json").write_text("{not json")
        os.utime(tmp_path / "good.arena.json", (1, 1))  # the damaged one is listed first
        app.switch_screen(MenuScreen())
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LoadDialog)
        await pilot.press("enter")  # bad.arena.json, the newest
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        status = str(app.screen.query_one("#status").render())
        assert status.startswith("Load failed: bad.arena.json")
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.game.history == saved


async def test_the_players_panel_shows_the_match_in_the_return_game() -> None:
    app = app_for((Player("human", name="Ann"), Player("human", name="Bob")), blocks="25")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await finish_game_one(pilot, screen, seed=3)
        margins = screen.session.margins()
        panel = str(screen.query_one("#players").render())
        assert f"match: Ann {margins[0]:+d}  Bob {margins[1]:+d}" in panel


async def test_quit_while_the_ai_thinks_exits_at_once() -> None:
    app = app_for((HUMAN, Player("ai", "max")), blocks="1", ai_seconds=30.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_engine(app, pilot)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert app.screen._thinking is not None
        started = time.monotonic()
        await pilot.press("ctrl+q")
    await_end = time.monotonic() + 2.0
    while time.monotonic() < await_end and any(
            t.name.startswith("ThreadPoolExecutor") and t.is_alive() and _busy(t)
            for t in threading.enumerate()):
        time.sleep(0.05)
    assert time.monotonic() - started < 2.0
    assert not app._stops  # every search has returned


def _busy(thread: threading.Thread) -> bool:
    import sys

    frame = sys._current_frames().get(thread.ident)
    while frame is not None:
        if frame.f_code.co_name == "_search":
            return True
        frame = frame.f_back
    return False


async def test_the_return_game_swaps_sides() -> None:
    ann, bob = Player("human", name="Ann"), Player("human", name="Bob")
    app = app_for((ann, bob), blocks="25")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        start = screen.session.game.start_native()
        rng = random.Random(3)
        for _ in range(2):
            game = screen.session.game
            while not game.is_over:
                screen._play(rng.choice(game.legal_moves()))
            await pilot.pause()
            assert isinstance(app.screen, ResultScreen)
            if screen.session.match_over:
                break
            await pilot.click("#return")
            await pilot.pause()
            s = screen.session
            assert app.screen is screen and s.game_number == 2
            assert s.player(0) == bob and s.player(1) == ann
            assert s.game.history == [] and s.game.start_native() == start
            assert "game 2 of 2" in screen.title_line[0]
            assert screen.title_line[1] == "X to move: Bob"
            assert "X Bob" in str(screen.query_one("#players").render())
        text = "\n".join(app.screen.lines)
        margins = screen.session.margins()
        assert "Match result" in text
        assert f"Ann (first X): {margins[0]:+d}" in text
        assert f"Bob (first O): {margins[1]:+d}" in text


async def test_the_board_reads_without_colour() -> None:
    app = app_for(blocks="7", seed=11)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        game = screen.session.game
        for cell in (24, 17, 25, 18, 23):  # X D4, O C4, X D5, O C5, X D3: a run D3-D5
            screen._play(cell)
        await pilot.pause()
        text = screen.board.render()
        rows = text.plain.split("\n")
        assert rows[0].split() == list("1234567")
        assert text.plain.count("#") == game.start.count("+")
        assert rows[1 + 3 * 2].split() == ["D", ".", ".", "(X)", "[X]", "X", ".", "."]
        assert rows[1 + 2 * 2].split()[4:6] == ["O", "O"]
        # the scoring run is underlined cell by cell; O's two in a row is not
        underlined = {i for span in text.spans
                      if isinstance(span.style, Style) and span.style.underline
                      for i in range(span.start, span.end)}

        def mark_at(row: int, col: int) -> int:
            return sum(len(r) + 1 for r in rows[:1 + row * 2]) + 4 + col * 5 + 2

        assert {mark_at(3, c) for c in (2, 3, 4)} <= underlined
        assert not {mark_at(2, c) for c in (3, 4)} & underlined


async def test_the_command_palette_runs_game_actions() -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, screen.session.game.legal_moves()[0])
        assert len(screen.session.game.history) == 1
        titles = [c.title for c in app.get_system_commands(screen)]
        assert {"Undo", "Redo", "Hint", "Save", "Load", "Export", "New"} <= set(titles)
        assert "Result" not in titles  # only once the game is over
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"undo")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert screen.session.game.history == []


async def test_footer_keys_fit_the_players() -> None:
    hot_seat = app_for()
    async with hot_seat.run_test(size=SIZE):
        screen = hot_seat.screen
        assert screen.check_action("hint", ()) and not screen.check_action("pace", ())
    watch = app_for((Player("ai", "easy"), Player("ai", "easy")), ai_seconds=0.05)
    async with watch.run_test(size=SIZE):
        screen = watch.screen
        assert screen.check_action("pace", ()) and not screen.check_action("hint", ())
        screen.action_pace(1)
        assert screen._status == "AI vs AI pace: 2 s between moves."


async def test_question_mark_shows_the_rules() -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesDialog)
        text = str(app.screen.query_one("#result-lines").render())
        assert "3 -> 3, 4 -> 10, 5 -> 25" in text and "ctrl+q quit" in text
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_play_load_opens_a_native_position_or_a_save(tmp_path: Path) -> None:
    native = tmp_path / "board.txt"
    native.write_text("XO-OXX-\n------+\n---+-O-\nO------\n--++---\n--XXXX-\n+X-OOOO\n")
    app = ArenaApp("pahtum", load=native, players=(HUMAN, HUMAN), clocks_running=False,
                   save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.game.to_native() == native.read_text()
        app.save_session(screen.session, "saved.arena.json")
    saved = app.saves_folder() / "saved.arena.json"
    again = ArenaApp("pahtum", load=saved, players=(HUMAN, Player("ai", "max")),
                     clocks_running=False)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # a save keeps its own players; the command line's are for native positions
        assert isinstance(again.screen, GameScreen)
        assert not again.screen.session.has_ai


async def test_bare_names_get_the_suffix_the_load_list_looks_for(tmp_path: Path) -> None:
    from textual.widgets import Input

    app = app_for(save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, screen.session.game.legal_moves()[0])
        for key, name, made in (("s", "mine", "mine.arena.json"), ("e", "pos", "pos.txt")):
            await pilot.press(key)
            await pilot.pause()
            app.screen.query_one(Input).value = name
            await pilot.press("enter")
            await pilot.pause()
            assert (tmp_path / made).is_file(), screen._status
        await pilot.press("l")
        await pilot.pause()
        listed = [p.name for p in app.screen.saves]
        assert sorted(listed) == ["mine.arena.json", "pos.txt"]


async def test_a_hint_asked_before_the_engine_is_ready_follows_by_itself() -> None:
    app = app_for(ai_seconds=0.2)  # hot-seat: the engine is not prepared up front
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert not app.engine_ready("pahtum")  # so h takes the "not ready yet" path
        await pilot.press("h")  # once, and never again below
        await wait_engine(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.board.hint in screen.session.game.legal_moves()
        assert screen._status.startswith("Hint: ")
