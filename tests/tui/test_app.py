"""The app driven through Pilot at 80x24, for every registered game: the menu, the setup
screen, moves by keys, the AI, undo, the clock, saves, quit, the match.

Nothing here knows a game's rules: moves come from `legal_moves()`, the keys
that reach one from the board's own cursor model (`step`, `choices_for`).
Per-game facts live in the per-game files (test_pahtum_app.py, test_board_*.py).
"""

from __future__ import annotations

import os
import random
import re
import time
from collections import deque
from collections.abc import Hashable
from pathlib import Path

import pytest
from textual.widgets import OptionList, Select

from rules import DEFAULT_LEVEL, ClockKind, PlayerSpec, TimeControl, game_names, get_game
from tui.app import ArenaApp
from tui.screens.common import RulesDialog
from tui.screens.dialogs import NameDialog, ResultScreen
from tui.screens.game import PACES, GameScreen
from tui.screens.load_dialog import LoadDialog
from tui.screens.menu import MenuScreen
from tui.screens.setup import SetupScreen
from tui.widgets.boards.grid import GridBoard

SIZE = (80, 24)
HUMAN = PlayerSpec.human()
MOVE_10 = TimeControl(ClockKind.MOVE, 10.0)
MATCH_GAMES = [n for n in game_names() if get_game(n).match_rule.games(2) > 1]


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves, setup choices and saves of these tests never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def seats(game_name: str, *rest: PlayerSpec, first: PlayerSpec = HUMAN) -> list[PlayerSpec]:
    """`first` in seat 0, then `rest`, then people in the seats left."""
    n = get_game(game_name).player_count[0]
    return ([first, *rest] + [HUMAN] * n)[:n]


def app_for(game_name: str, players: list[PlayerSpec] | None = None, **kw) -> ArenaApp:
    kw.setdefault("clocks_running", False)
    return ArenaApp(game_name, seed=4, players=players or seats(game_name), **kw)


async def wait_engine(app: ArenaApp, pilot, game_name: str) -> None:
    deadline = time.monotonic() + 180
    while not app.services.engine_ready(game_name):
        assert app.services.engine_error(game_name) is None
        assert time.monotonic() < deadline, "the engine never got ready"
        await pilot.pause(0.1)


def walk(board: GridBoard, start: Hashable, goal: Hashable) -> list[str]:
    """The shortest walk of arrow keys from `start` to `goal` in the board's target space."""
    seen = {start: []}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            return seen[here]
        for key in ("up", "down", "left", "right"):
            there = board.step(here, key)
            if there not in seen:
                seen[there] = [*seen[here], key]
                queue.append(there)
    raise AssertionError(f"no keys reach {goal!r}")


def keys_to(board: GridBoard, move: Hashable) -> list[str]:
    """The shortest walk of arrow keys from the board's cursor to the target of `move`
    (through its earlier choices, Enter on each, where a move takes several), after any
    keys the move needs first (`keys_for`)."""
    keys, here = list(board.keys_for(move)), board.cursor
    for i, goal in enumerate(board.choices_for(move)):
        keys += ["enter"] * (i > 0) + walk(board, here, goal)
        here = goal
    return keys


async def play_by_keys(pilot, board: GridBoard, move: Hashable) -> None:
    """Walk the cursor to `move` with the arrow keys, then press Enter."""
    await pilot.press(*keys_to(board, move), "enter")
    await pilot.pause()


async def play_to_the_end(pilot, screen: GameScreen, choose) -> None:
    """The person's moves by keys (`choose(game)` picks each) while the AI replies, until
    the game is over; the first reply may wait for the kernels to compile."""
    session = screen.session
    deadline = time.monotonic() + 300
    while not session.game.is_over:
        assert time.monotonic() < deadline, "the game did not end"
        if session.ai_to_move:
            await pilot.pause(0.05)
            continue
        before = len(session.game.history)
        move = choose(session.game)
        await play_by_keys(pilot, screen.board, move)
        if screen._confirm == (session.generation, move):  # it loses at once: play it again
            await pilot.press("enter")
            await pilot.pause()
        for _ in range(100):  # a busy machine may take a few frames to play it
            if len(session.game.history) > before:
                break
            await pilot.pause(0.05)
        assert len(session.game.history) > before  # (the AI may have replied too)
    await pilot.pause()


def nearest(board: GridBoard) -> Hashable:
    """A legal move few keys away (a real walk, but a short one)."""
    return min(board.game.legal_moves()[:60], key=lambda m: len(keys_to(board, m)))


def text_of(widget) -> str:
    return str(widget.render())


# ----- the menu and the setup screen ---------------------------------------------------------
async def test_menu_lists_every_game_and_enter_starts_a_game_between_people() -> None:
    app = ArenaApp(clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        for index, name in enumerate(game_names()):
            cls = get_game(name)
            menu = app.screen
            assert isinstance(menu, MenuScreen)
            listed = menu.query_one("#games", OptionList)
            titles = [listed.get_option_at_index(i).prompt.renderables[0].plain
                      for i in range(listed.option_count)]  # an entry: title, then a line
            # the games left unfinished come first, the most recent first: Resume GAME
            resumes = [f"Resume {get_game(n).title}" for n in reversed(game_names()[:index])]
            assert titles == resumes + [get_game(n).title for n in game_names()]
            if index:  # the game just left is highlighted
                left = listed.get_option_at_index(listed.highlighted).id
                assert left == game_names()[index - 1]
            await pilot.press("home", *["down"] * (index + len(resumes)), "enter")
            await pilot.pause()
            setup = app.screen
            assert isinstance(setup, SetupScreen) and setup.game_name == name
            if cls.takes_count():
                await pilot.press("tab")  # past the player count, first in the tab order
            for seat in range(1, cls.player_count[0]):  # the AI's seats become people's
                await pilot.press("tab", "enter", "home", "enter")
                await pilot.pause()
                assert setup.query_one(f"#player-{seat}", Select).value == "human"
            await pilot.press("ctrl+s")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.session.game.name == name
            assert not screen.session.has_ai
            assert len(screen.session.participants) == cls.player_count[0]
            assert screen.board.has_focus
            move = nearest(screen.board)
            await play_by_keys(pilot, screen.board, move)
            assert screen.session.game.history == [move]
            await pilot.press("n", "m")  # new game: the menu (after a question)
            await pilot.pause()


async def test_the_setup_screen_has_a_row_per_seat_the_clocks_and_a_seed_if_random(
        game_name: str) -> None:
    cls = get_game(game_name)
    app = ArenaApp(clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["down"] * game_names().index(game_name), "enter")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        shown = [s for s in setup.query(Select) if (s.id or "").startswith("player-")
                 and s.id != "player-count" and s.parent.display]
        assert len(shown) == cls.player_count[0]
        # the other seats default to the AI at the level the command line uses too
        assert [s.value for s in shown] == ["human"] + [f"ai:{DEFAULT_LEVEL}"] * (len(shown) - 1)
        assert setup.focused is shown[0] or setup.focused is setup.query(Select).first()
        # (the focused row's label after a marker, the others after as many spaces)
        labels = [str(s.parent.query_one("Label").render())[2:] for s in shown]
        names = cls.seat_names or cls.default_marks
        assert labels == [f"{m.capitalize()} plays" for m in names[:len(shown)]]
        clock = setup.query_one("#clock", Select)
        assert clock.value == cls.offered_time_controls()[0].key()
        # the contest's clock is the second choice unless it is the default, named as such
        offered = cls.offered_time_controls()
        assert cls.clock in offered[:2] and offered.count(cls.clock) == 1
        labels = [cls.describe_time_control(c) for c in offered]
        assert sum("(the contest's)" in label for label in labels) == 1
        assert labels[offered.index(cls.clock)] == f"{cls.clock.describe()} (the contest's)"
        assert bool(setup.query("#seed")) == cls.random_start
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        # back on the menu, the game come back from is highlighted: Enter opens it again
        games = app.screen.query_one("#games", OptionList)
        assert games.highlighted is not None
        assert games.get_option_at_index(games.highlighted).id == game_name
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and app.screen.game_name == game_name


async def test_the_setup_screen_starts_the_chosen_clock(game_name: str) -> None:
    cls = get_game(game_name)
    limited = next(c for c in cls.offered_time_controls() if c.limited)
    app = ArenaApp(clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["down"] * game_names().index(game_name), "enter")
        await pilot.pause()
        app.screen.query_one("#clock", Select).value = limited.key()
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.control == limited
        assert screen.session.player(1).is_ai  # the default second seat
        assert screen.session.player(0) == HUMAN


# ----- the game screen ---------------------------------------------------------------------------
async def test_every_game_renders_at_80x24_with_its_title_and_players(game_name: str) -> None:
    ann = PlayerSpec.human("Ann")
    app = app_for(game_name, seats(game_name, first=ann))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        game = screen.session.game
        title = screen.query_one("#title")
        assert title.region.height == 1 and title.region.width == SIZE[0]
        assert screen.title_line[0].startswith(f"Arena · {game.title}")
        assert screen.title_line[1] == f"{game.seat_name(game.to_move)} to move: " \
            f"{screen.session.label(game.to_move)}"
        panel = text_of(screen.query_one("#players")).splitlines()
        # a row per player, then the game's own facts (LOAPS: move number, groups)
        assert [line.strip() for line in panel[game.players:]] == game.panel_lines()
        for mark, row in zip(game.marks, panel[:game.players], strict=True):
            assert row[2:].startswith(f"{mark} ")
        assert "Ann" in panel[0]
        for widget in ("#board", "#players", "#engine", "#moves", "#status"):
            region = screen.query_one(widget).region
            assert region.right <= SIZE[0] and region.bottom <= SIZE[1]


async def test_hot_seat_undo_and_redo_one_move_each(game_name: str) -> None:
    app = app_for(game_name)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        game = screen.session.game
        first = nearest(screen.board)
        await play_by_keys(pilot, screen.board, first)
        second = nearest(screen.board)
        await play_by_keys(pilot, screen.board, second)
        await pilot.press("u")
        await pilot.pause()
        assert game.history == [first]
        assert screen._status == f"Took back {game.move_text(second)}."
        await pilot.press("r")
        await pilot.pause()
        assert game.history == [first, second]
        moves = text_of(screen.query_one("#moves"))
        assert moves.startswith(f" 1. {game.move_text(first)}")
        # the round's two moves stand apart: a gap wider than any space inside a move
        # (LOAPS' "e1 e3   g3 f2"), and two spaces at least
        texts = [game.move_text(first), game.move_text(second)]
        inner = max((len(run) for t in texts for run in re.findall(" +", t)), default=0)
        between = moves.splitlines()[0][4 + len(texts[0]):].index(texts[1])
        assert between >= max(2, inner + 1), moves


async def test_the_ai_replies_and_gives_hints(game_name: str) -> None:
    app = app_for(game_name, seats(game_name, PlayerSpec.ai("easy")), ai_seconds=0.2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_engine(app, pilot, game_name)
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        await app.workers.wait_for_complete()
        await pilot.pause()
        game = screen.session.game
        assert len(game.history) == 2
        assert screen._status.startswith(f"{game.seat_name(1)} played ")
        assert not screen.session.ai_to_move
        await pilot.press("h")  # a hint is shown on the board, nothing is played
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.board.hint in game.legal_moves()
        assert screen._status.startswith("Hint: ")
        assert len(game.history) == 2


@pytest.mark.parametrize("name", game_names())
async def test_plus_and_minus_pace_a_watched_game_whatever_the_board_binds(name: str) -> None:
    """Boxing's board takes +/- for the box's size; in a game nobody plays they pace it."""
    easy = PlayerSpec.ai("easy")
    app = app_for(name, [easy] * get_game(name).player_count[0], ai_seconds=0.05)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert screen.board.has_focus and screen.board.watched
        start = screen.pace_index
        await pilot.press("minus")
        assert screen.pace_index == start + 1
        await pilot.press("plus", "plus")
        assert screen.pace_index == start - 1


async def test_ai_against_ai_plays_at_the_chosen_pace() -> None:
    name = game_names()[0]
    easy = PlayerSpec.ai("easy")
    app = app_for(name, [easy] * get_game(name).player_count[0], ai_seconds=0.05)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert screen.check_action("pace", ()) and not screen.check_action("hint", ())
        # at pace 0 the game may be over before the pilot sees the screen idle again,
        # so check the pace itself rather than the status line it writes
        await pilot.press("plus", "plus", "plus", "plus")
        assert PACES[screen.pace_index] == 0.0
        await wait_engine(app, pilot, name)
        deadline = time.monotonic() + 60
        while not isinstance(app.screen, ResultScreen):
            assert time.monotonic() < deadline
            await pilot.pause(0.1)
        assert screen.session.game.is_over
        screen.action_pace(5)
        assert screen._status == f"AI vs AI pace: {PACES[-1]:g} s between moves."


async def test_undo_while_the_ai_thinks_drops_its_reply(game_name: str) -> None:
    app = app_for(game_name, seats(game_name, PlayerSpec.ai("max")), ai_seconds=20.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_engine(app, pilot, game_name)
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        await pilot.pause(0.3)
        assert screen.driver.current is not None  # the search is running
        await pilot.press("u")
        started = time.monotonic()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert time.monotonic() - started < 2.0  # the stop flag ended the search
        assert screen.session.game.history == []
        assert not screen.session.ai_to_move


async def test_quit_while_the_ai_thinks_exits_at_once() -> None:
    name = game_names()[0]
    app = app_for(name, seats(name, PlayerSpec.ai("max")), ai_seconds=30.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_engine(app, pilot, name)
        await play_by_keys(pilot, app.screen.board, nearest(app.screen.board))
        await pilot.pause(0.3)
        assert app.screen.driver.current is not None
        await pilot.press("ctrl+q")  # a game in progress: asked first
        assert app.screen.query("#quit")
        started = time.monotonic()
        await pilot.press("ctrl+q")  # and ctrl+q again quits anyway
    await_end = time.monotonic() + 2.0
    while time.monotonic() < await_end and app.services.searching:
        time.sleep(0.02)
    assert time.monotonic() - started < 2.0
    assert app.services.searching == 0  # every search has returned within the 2 s


async def test_a_hint_asked_before_the_engine_is_ready_follows_by_itself() -> None:
    name = game_names()[0]
    app = app_for(name, ai_seconds=0.2)  # hot-seat: the engine is not prepared up front
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert not app.services.engine_ready(name)  # so h takes the "not ready yet" path
        await pilot.press("h")  # once, and never again below
        await wait_engine(app, pilot, name)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.board.hint in screen.session.game.legal_moves()
        assert screen._status.startswith("Hint: ")


async def test_the_command_palette_runs_game_actions() -> None:
    name = game_names()[0]
    app = app_for(name)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        assert len(screen.session.game.history) == 1
        titles = [c.title for c in app.get_system_commands(screen)]
        assert {"Undo", "Redo", "Hint", "Save", "Load", "Export", "New"} <= set(titles)
        assert "Result" not in titles  # only once the game is over
        helps = {c.title: c.help for c in app.get_system_commands(screen)}
        assert helps["Undo"] == "key: u"  # under the title, not the title again ("Undo (u)")
        assert helps["Help"] == "key: ?"  # as the Footer shows it, not "question_mark"
        # a Footer entry of two keys ("[ ] Moves") is its own first key's command here
        assert helps["Move back"] == "key: [" and helps["Move forward"] == "key: ]"
        assert "Moves" not in helps
        assert screen.check_action("hint", ()) and not screen.check_action("pace", ())
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"undo")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert screen.session.game.history == []


async def test_question_mark_shows_the_rules_and_the_keys(game_name: str) -> None:
    app = app_for(game_name)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesDialog)
        text = text_of(app.screen.query_one("#result-lines"))
        assert get_game(game_name).summary.splitlines()[0] in text and "ctrl+q quit" in text
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


# ----- the clock -----------------------------------------------------------------------------
async def test_the_ais_clock_waits_while_its_kernels_compile(
        game_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    now = FakeClock()
    app = app_for(game_name, [PlayerSpec.ai("easy"), *seats(game_name)[1:]], control=MOVE_10,
                  now=now)
    monkeypatch.setattr(app.services, "engine_ready", lambda name: False)
    monkeypatch.setattr(app.services, "prepare_engine", lambda name: None)
    async with app.run_test(size=SIZE):
        screen = app.screen
        session = screen.session
        assert session.ai_to_move
        now.t += 30  # a slow first compile, longer than the move's 10 s
        screen._tick()
        assert not session.game.is_over and session.clock_left(session.to_move) == 10.0


async def test_a_person_out_of_time_loses_and_undo_resumes_the_game(game_name: str) -> None:
    now = FakeClock()
    app = app_for(game_name, control=MOVE_10, now=now)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        session = screen.session
        first = nearest(screen.board)
        await play_by_keys(pilot, screen.board, first)
        mover = session.to_move
        now.t += 4
        screen._tick()  # what the 1 s timer calls
        rows = text_of(screen.query_one("#players")).splitlines()
        assert rows[mover].endswith("00:06") and rows[0].endswith("00:10")
        now.t += 7
        screen._tick()
        await pilot.pause()
        outcome = session.game.outcome
        assert outcome is not None and outcome.kind.label == "out of time"
        assert outcome.loser == mover
        assert isinstance(app.screen, ResultScreen)
        text = "\n".join(app.screen.lines)
        mark = session.game.seat_name(mover)
        assert f"{mark} ran out of time" in text
        assert f"{session.game.seat_name(0)}" in text.splitlines()[0]  # the winner
        await pilot.press("escape")
        await pilot.pause()
        assert screen.title_line[1].startswith("game over: ")
        await pilot.press("u")
        await pilot.pause()
        assert not session.game.is_over and session.game.history == []
        assert screen.title_line[1].startswith(f"{session.game.seat_name(0)} to move")


@pytest.mark.parametrize("name", [n for n in game_names() if any(
    c.kind is ClockKind.GAME for c in get_game(n).offered_time_controls())])
async def test_under_a_game_clock_a_loss_on_time_stands_and_undo_says_why(name: str) -> None:
    """An undo gives no time back under a game clock: it would resume a game whose flag
    falls again at once, its record short of the moves taken back."""
    now = FakeClock()
    app = app_for(name, control=TimeControl(ClockKind.GAME, 10.0), now=now)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        session = screen.session
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        now.t += 11
        screen._tick()
        await pilot.pause()
        assert session.lost_on_time
        history = list(session.game.history)
        await pilot.press("escape", "u")
        await pilot.pause()
        assert session.lost_on_time and session.game.history == history
        assert screen._status.startswith("Cannot undo: ") and "loss on time stands" in (
            screen._status)


async def test_a_save_keeps_the_clock_and_the_time_used(game_name: str, tmp_path: Path) -> None:
    now = FakeClock()
    cls = get_game(game_name)
    control = next(c for c in cls.offered_time_controls() if c.kind is ClockKind.GAME)
    app = app_for(game_name, control=control, now=now, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        for wait in (7, 5):
            now.t += wait
            await play_by_keys(pilot, screen.board, nearest(screen.board))
        now.t += 2  # the move under way counts too
        used = [screen.session.clock_spent(m) for m in range(screen.session.players)]
        assert sorted(used)[-2:] == [5, 9] or sorted(used)[-2:] == [7, 7]
        path = app.services.save_session(screen.session, "clock")
        assert path.name == "clock.arena.json"
        loaded = app.services.load_session(path)
        assert loaded.control == control
        assert loaded.clock.used == pytest.approx(used)
        assert loaded.game.history == screen.session.game.history
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert screen._status.startswith("Loaded ")
        assert screen.session.control == control
        left = screen.session.clock_left(screen.session.to_move)
        assert left == pytest.approx(control.seconds - used[screen.session.to_move])


# ----- saves ---------------------------------------------------------------------------------
async def test_save_then_load_restores_the_position(game_name: str, tmp_path: Path) -> None:
    app = app_for(game_name, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        game = screen.session.game
        for _ in range(3):
            await play_by_keys(pilot, screen.board, nearest(screen.board))
        saved = list(game.history)
        assert len(saved) == 3
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, NameDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert screen._status.startswith("Saved to ")
        assert len(list(tmp_path.glob("*.arena.json"))) == 1
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        assert len(screen.session.game.history) == 4
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LoadDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        assert screen.session.game.history == saved
        assert screen._status.startswith("Loaded ")


async def test_export_writes_the_native_position_and_loads_back(
        game_name: str, tmp_path: Path) -> None:
    app = app_for(game_name, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        game = screen.session.game
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        await pilot.press("e", "p")  # export: the position
        await pilot.pause()
        assert isinstance(app.screen, NameDialog)
        await pilot.press("enter")
        await pilot.pause()
        exported = list(tmp_path.glob("*.txt"))
        # the position (a format with clocks holds the session's, which are running)
        assert len(exported) == 1
        assert type(game).from_native(exported[0].read_text()).key() == game.key()
        assert screen._status.startswith("Exported ")
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        await pilot.press("l")  # the exported position is in the load list and loads back
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen._status.startswith("Loaded ")
        assert screen.session.game.to_native() == exported[0].read_text()
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        await pilot.press("n")  # a game in progress is left only after a choice
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("n", "m")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_a_failed_load_leaves_the_game(tmp_path: Path) -> None:
    (tmp_path / "bad.arena.json").write_text("{not json")
    app = app_for(game_names()[0], save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert screen._status.startswith("Load failed: ")
        assert len(screen.session.game.history) == 1


async def test_the_menu_loads_a_save_and_refuses_a_damaged_one(
        game_name: str, tmp_path: Path) -> None:
    app = app_for(game_name, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        for _ in range(2):
            await play_by_keys(pilot, screen.board, nearest(screen.board))
        saved = list(screen.session.game.history)
        app.services.save_session(screen.session, "good.arena.json")
        (tmp_path / "bad.arena.json").write_text("{not json")
        os.utime(tmp_path / "good.arena.json", (1, 1))  # the damaged one is listed first
        await pilot.press("n", "m")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        games = app.screen.query_one("#games", OptionList)  # the game left, highlighted
        assert games.get_option_at_index(games.highlighted).id == game_name
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LoadDialog)
        await pilot.press("enter")  # bad.arena.json, the newest
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        status = text_of(app.screen.query_one("#status"))
        assert status.startswith("Load failed: bad.arena.json")
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.game.history == saved


async def test_play_load_opens_a_native_position_or_a_save(
        game_name: str, tmp_path: Path) -> None:
    game = get_game(game_name).new(None, seed=3)
    rng = random.Random(3)
    for _ in range(4):
        game.play(rng.choice(game.legal_moves()))
    native = tmp_path / "board.txt"
    native.write_text(game.to_native())
    app = ArenaApp(game_name, load=native, players=seats(game_name), clocks_running=False,
                   save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.game.to_native() == native.read_text()
        app.services.save_session(screen.session, "saved.arena.json")
    saved = tmp_path / "saved.arena.json"
    again = ArenaApp(game_name, load=saved, players=seats(game_name, PlayerSpec.ai("max")),
                     clocks_running=False)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # a save keeps its own players; the command line's are for native positions
        assert isinstance(again.screen, GameScreen)
        assert not again.screen.session.has_ai


async def test_bare_names_get_the_suffix_the_load_list_looks_for(tmp_path: Path) -> None:
    from textual.widgets import Input

    app = app_for(game_names()[0], save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        for keys, name, made in ((("s",), "mine", "mine.arena.json"),
                                 (("e", "p"), "pos", "pos.txt"),
                                 (("e", "r"), "game", "game.arena.txt")):
            await pilot.press(*keys)
            await pilot.pause()
            app.screen.query_one(Input).value = name
            await pilot.press("enter")
            await pilot.pause()
            assert (tmp_path / made).is_file(), screen._status
        await pilot.press("l")
        await pilot.pause()
        listed = [p.name for p in app.screen.saves]
        assert sorted(listed) == ["game.arena.txt", "mine.arena.json", "pos.txt"]


# ----- the match ------------------------------------------------------------------------------
async def finish_game(pilot, screen: GameScreen, rng: random.Random) -> None:
    game = screen.session.game
    while not game.is_over:
        screen._play(rng.choice(game.legal_moves()))
    await pilot.pause()


@pytest.mark.parametrize("match_game", MATCH_GAMES)
async def test_a_match_rotates_the_seats_and_ends_with_the_rules_standing(
        match_game: str) -> None:
    cls = get_game(match_game)
    rule = cls.match_rule
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][:cls.player_count[0]]
    people = [PlayerSpec.human(n) for n in names]
    games = rule.games(len(names))
    app = app_for(match_game, people)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        start = screen.session.game.start_native()
        rng = random.Random(3)
        for g in range(games):
            s = screen.session
            assert app.screen is screen and s.game_number == g + 1
            assert f"game {g + 1} of {games}" in screen.title_line[0]
            assert [s.label(m) for m in range(s.players)] == [
                names[(m - g) % len(names)] for m in range(s.players)]
            assert s.game.history == [] and s.game.start_native() == start
            await finish_game(pilot, screen, rng)
            assert isinstance(app.screen, ResultScreen)
            if g + 1 < games:
                label = "Return game" if games == 2 else "Next game"
                assert str(app.screen.query_one("#next").label) == label
                await pilot.click("#next")
                await pilot.pause()
                panel = text_of(screen.query_one("#players"))
                standing = screen.session.standing()
                # the standing so far, a whole name and its number on one line
                assert "match so far" in panel
                assert any(line.split() == [names[0], rule.number(standing[0])]
                           for line in panel.splitlines())
        assert app.screen.title_text == "Match over"
        assert not app.screen.query("#next")
        text = "\n".join(app.screen.lines)
        standing = screen.session.standing()
        marks = [screen.session.game.seat_name(m) for m in range(len(names))]
        assert f"Match result ({rule.title}):" in text
        for p, name in enumerate(names):
            assert f"{name} (first {marks[p]}): {rule.number(standing[p])}" in text
        leaders = rule.leaders(standing)
        if len(leaders) == len(names):
            assert "The match is drawn." in text
        else:
            assert f"{names[leaders[0]]} (first {marks[leaders[0]]})" in text.splitlines()[-1]


@pytest.mark.parametrize("match_game", MATCH_GAMES)
async def test_a_save_in_a_later_game_of_a_match_loads_with_the_seats_rotated(
        match_game: str, tmp_path: Path) -> None:
    n = get_game(match_game).player_count[0]
    people = [PlayerSpec.human(f"P{i}") for i in range(n)]
    app = app_for(match_game, people, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await finish_game(pilot, screen, random.Random(5))
        first = screen.session.game.outcome
        await pilot.click("#next")
        await pilot.pause()
        screen._play(screen.session.game.legal_moves()[0])
        path = app.services.save_session(screen.session, "match.arena.json")
        loaded = app.services.load_session(path)
        assert loaded.game_number == 2 and loaded.match.results == [first]
        assert loaded.participants == tuple(people)
        assert loaded.player(0) == people[-1]
        assert loaded.game.history == screen.session.game.history


async def test_the_engine_ready_message_reaches_the_screen_once(monkeypatch) -> None:
    name = game_names()[0]
    seen: list[str] = []
    forward = GameScreen.on_engine_ready
    monkeypatch.setattr(GameScreen, "on_engine_ready",
                        lambda self, message: (seen.append(message.game_name),
                                               forward(self, message)))
    app = app_for(name, seats(name, PlayerSpec.ai("easy")), ai_seconds=0.1)
    async with app.run_test(size=SIZE) as pilot:
        await wait_engine(app, pilot, name)
        await pilot.pause(0.3)
        assert seen == [name]  # forwarded by the app, and not bubbled back up to it


async def test_the_board_follows_the_terminal_when_it_is_resized(game_name: str) -> None:
    app = app_for(game_name)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        small = app.screen.board.region.width
        await pilot.resize_terminal(160, 50)
        await pilot.pause(0.2)
        large = app.screen.board.region.width
        await pilot.resize_terminal(*SIZE)
        await pilot.pause(0.2)
        assert large > small and app.screen.board.region.width == small
