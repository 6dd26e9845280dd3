"""The replay of a finished game (tui/screens/replay.py), driven through Pilot at 80x24: a
saved game loaded, stepped back and forward with its board, scores and clocks as they were
at each move; the result at the last move; a new game from the middle; the engine's view of
a position on demand; and the replay's layout at 60x20, 80x24 and 120x40."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest
from textual.geometry import Region

from rules import ClockKind, PlayerSpec, TimeControl, get_game
from rules.outcome import Termination
from saves.format import doc_from_game
from saves.store import read_save, write_save
from tests.tui.test_app import FakeClock, own_saves_folder  # noqa: F401 - the fixture
from tui.app import ArenaApp
from tui.play.session import Session
from tui.screens.dialogs import ProgramsDialog, ResultScreen
from tui.screens.game import GameScreen
from tui.screens.replay import ReplayPlayers, ReplayScreen
from tui.screens.seat_picker import SeatsDialog
from tui.widgets.move_list import MoveList
from tui.widgets.panels import EnginePanel, clock_text

SIZE = (80, 24)
ANN, BOB = PlayerSpec.human("Ann"), PlayerSpec.human("Bob")
GAME_CLOCK = TimeControl(ClockKind.GAME, 300.0)


def took(i: int) -> float:
    """The seconds move i (from 0) takes in these games."""
    return float(i % 4 + 1)


def finished(name: str = "pahtum", seed: int = 3, players=(ANN, BOB),
             control: TimeControl = GAME_CLOCK) -> Session:
    """A session played to the end by seeded random moves, move i taking `took(i)` seconds
    of its mover's clock."""
    now = FakeClock()
    session = Session.new(name, list(players), seed=seed, control=control, now=now)
    rng = random.Random(seed)
    while not session.game.is_over:
        now.t += took(len(session.game.history))
        session.play(rng.choice(session.game.legal_moves()))
    return session


def saved(session: Session, folder: Path, times: bool = True) -> Path:
    clock = session.clock
    if not times:  # an older save: no move times
        clock = type(clock)(clock.control, list(clock.used))
    doc = doc_from_game(session.game, list(session.players_by_mark), clock, session.match)
    path = folder / "done.arena.json"
    write_save(path, doc)
    return path


def at(game, k: int):
    """The game's position after its first `k` moves."""
    probe = type(game).from_start(game.options, game.start_native())
    for move in game.history[:k]:
        probe.play(move)
    return probe


def text_of(widget) -> str:
    return str(widget.render())


def shown_lines(panel) -> list[str]:
    """The lines a bordered panel shows on the screen, inside its border."""
    strips = panel.render_lines(Region(0, 0, *panel.outer_size))
    lines = [strip.text.strip("│ ") for strip in strips if strip.text[:1] not in "╭╰"]
    return [line for line in lines if line]


async def open_replay(app: ArenaApp, pilot) -> ReplayScreen:
    """From the end screen a load shows: close it, then `v`."""
    await pilot.pause()
    if isinstance(app.screen, ResultScreen):
        await pilot.press("escape")
        await pilot.pause()
    assert isinstance(app.screen, GameScreen)
    await pilot.press("v")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


def used_after(session: Session, k: int) -> list[float]:
    """What each seat had used after `k` moves."""
    used = [0.0] * session.players
    probe = at(session.game, 0)
    for i, move in enumerate(session.game.history[:k]):
        used[probe.to_move] += took(i)
        probe.play(move)
    return used


async def test_a_loaded_game_steps_back_and_forth_with_its_scores_and_clocks(
        tmp_path: Path) -> None:
    session = finished()
    game = session.game
    n = len(game.history)
    path = saved(session, tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        behind = app.screen_stack[-2] if isinstance(app.screen, ResultScreen) else app.screen
        assert isinstance(behind, GameScreen)
        screen = await open_replay(app, pilot)
        # it opens at the end: the final board, the result
        assert screen.k == n and screen.board.game is screen.game
        assert screen.game.to_native() == game.to_native()
        assert screen.title_line[1] == f"move {n} of {n}"
        assert "Game over" in screen._status and game.outcome.reason in screen._status
        assert game.outcome.reason in text_of(screen.query_one(EnginePanel))

        async def check(k: int) -> None:
            await pilot.pause()
            assert screen.k == k and len(screen.game.history) == k
            assert screen.board.game.to_native() == at(game, k).to_native()
            assert screen.title_line[1] == f"move {k} of {n}"
            players = text_of(screen.query_one(ReplayPlayers))
            scores = at(game, k).scores()
            for mark, score in enumerate(scores):
                assert f" {score:>3} " in players.splitlines()[mark]
            left = [GAME_CLOCK.seconds - u for u in used_after(session, k)]
            for mark, seconds in enumerate(left):
                assert players.splitlines()[mark].endswith(clock_text(seconds))
            if k:
                mover = at(game, k - 1)
                text, mark = game.history_text()[k - 1], mover.seat_name(mover.to_move)
                assert screen._status.startswith(
                    f"Move {k}: {mark} played {text} ({took(k - 1):.1f} s).")
                # the move on the board is marked in the moves panel
                assert screen.query_one(MoveList).line.current == k
            else:
                assert screen._status.startswith("Start of the game")

        await pilot.press("home")
        await check(0)
        await pilot.press("right", "right", "right")
        await check(3)
        await pilot.press("left")
        await check(2)
        await pilot.press("n", "n", "p")  # n and p step too
        await check(3)
        await pilot.press("left", "left", "left", "left")  # not before the start
        await check(0)
        await pilot.press("end")
        await check(n)
        await pilot.press("right")
        await check(n)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is behind  # the game screen, its game untouched
        assert behind.session.game.history == game.history and behind.session.game.is_over


async def test_the_replay_key_shows_only_once_the_game_is_over(tmp_path: Path) -> None:
    app = ArenaApp("pahtum", seed=3, players=[ANN, BOB], save_dir=tmp_path,
                   clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert not screen.check_action("replay", ())
        await pilot.press("v")
        await pilot.pause()
        assert app.screen is screen


async def test_a_save_without_move_times_says_so_and_a_fault_shows_at_the_end(
        tmp_path: Path) -> None:
    session = finished(control=TimeControl.none())
    path = saved(session, tmp_path, times=False)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_replay(app, pilot)
        players = text_of(screen.query_one(ReplayPlayers))
        assert "--:--" not in players  # the end: the clocks as saved
        await pilot.press("left")
        await pilot.pause()
        players = text_of(screen.query_one(ReplayPlayers)).splitlines()
        assert players[0].endswith("--:--") and players[1].endswith("--:--")
        assert players[-1] == "clock times not recorded"
        assert "s)." not in screen._status  # no time for the move

    # a program's fault: its kind and its output at the last move
    session = Session.new("pahtum", [ANN, BOB], seed=3)
    for move in session.game.legal_moves()[:4]:
        session.play(move)
    session.game.forfeit(0, Termination.FAULT, "X answered Z9, not a cell", fault="illegal",
                         output="Z9\n")
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        app.start_session(session)
        screen = await open_replay(app, pilot)
        engine = text_of(screen.query_one(EnginePanel))
        assert "X answered Z9" in engine and "illegal" in engine and "'Z9\\n'" in engine
        assert shown_lines(screen.query_one(EnginePanel))[1:] == ["fault: illegal",
                                                                 "output: 'Z9\\n'"]
        assert screen._status.endswith("Game over: X answered Z9, not a cell.")
        await pilot.press("left")
        await pilot.pause()
        assert "Game over" not in screen._status
        assert "answered" not in text_of(screen.query_one(EnginePanel))


async def test_continue_from_the_middle_starts_a_new_game_with_the_same_seats(
        tmp_path: Path) -> None:
    session = finished()  # people only: no engine to load
    game = session.game
    path = saved(session, tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_replay(app, pilot)
        await pilot.press("end")
        await pilot.press("c")  # the board itself ended the game here: no
        await pilot.pause()
        assert app.screen is screen and "over at this move" in screen._status
        await pilot.press("home", *["right"] * 6, "c")
        await pilot.pause()
        assert isinstance(app.screen, SeatsDialog)  # who plays: as recorded, unless changed
        await pilot.press("ctrl+s")
        await pilot.pause()
        new = app.screen
        assert isinstance(new, GameScreen) and new is not screen
        s = new.session
        assert s.game.history[:6] == game.history[:6] and not s.game.is_over
        assert len(s.game.history) == 6
        assert s.game.to_native() == at(game, 6).to_native()
        assert s.players_by_mark == session.players_by_mark  # Ann still plays X, Bob O
        assert s.clock.moves[:6] == [took(i) for i in range(6)]
        assert new._status.startswith("A new game from move 6 of the replay")
        assert len(app.screen_stack) == 2  # the menu and the new game: nothing left behind


async def test_continue_from_a_game_not_saved_asks_first(tmp_path: Path) -> None:
    from tui.screens.dialogs import ChoiceDialog, NameDialog

    session = finished("pousse")  # one game: over, and in no save
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        app.start_session(session)
        for answer in ("escape", "s"):
            screen = await open_replay(app, pilot)
            assert screen.source is session  # after the escape too: still the game finished
            await pilot.press("home", "right", "right", "c")
            await pilot.pause()
            assert isinstance(app.screen, SeatsDialog)
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, ChoiceDialog)
            assert "This finished game is not saved" in text_of(
                app.screen.query_one("#result-lines"))
            await pilot.press(answer)
            await pilot.pause()
        # escaped once: the finished game stayed; then saved first, and the new game began
        assert isinstance(app.screen, NameDialog)
        await pilot.press("enter")
        await pilot.pause()
        (path,) = tmp_path.glob("pousse-*.arena.json")
        assert read_save(path)[1].history == session.game.history
        new = app.screen
        assert isinstance(new, GameScreen) and new.session is not session
        assert len(new.session.game.history) == 2 and new is not screen


async def test_analyse_shows_the_engine_line_and_drops_a_stale_answer(tmp_path: Path) -> None:
    session = finished()
    path = saved(session, tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False, ai_seconds=0.05)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_replay(app, pilot)
        await pilot.press("home", "right", "right", "a")
        await pilot.pause()
        engine = screen.query_one(EnginePanel)
        deadline = time.monotonic() + 240  # the first run compiles the kernels
        while "best" not in text_of(engine):
            assert time.monotonic() < deadline, text_of(engine)
            await pilot.pause(0.05)
        assert screen.analysing and "X eval" in text_of(engine)
        # the search's end and its answer's message are two steps: wait for both (the
        # status was read once between them on a loaded machine)
        while app.services.searching or "AI: X's best is" not in screen._status:
            if time.monotonic() > deadline:
                break
            await pilot.pause(0.02)
        assert "AI: X's best is" in screen._status
        # a step on: the next position is analysed; an answer about the one before is not
        # shown
        old = screen.generation
        await pilot.press("right")
        stale = ReplayScreen.Done(
            type("R", (), {"generation": old})(), None, "stale")  # type: ignore[arg-type]
        screen.post_message(stale)
        await pilot.pause()
        assert "stale" not in text_of(engine)
        deadline = time.monotonic() + 30
        while "O eval" not in text_of(engine):
            assert time.monotonic() < deadline, text_of(engine)
            await pilot.pause(0.05)
        await pilot.press("a")  # off
        await pilot.pause()
        assert not screen.analysing and "a: the AI" in text_of(engine)


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (120, 40)])
async def test_the_replay_fits_the_terminal(size: tuple[int, int], tmp_path: Path) -> None:
    """The largest board (Boxing's): every part on screen at 80x24 and 120x40; below
    80x24 the notice says what is needed, as on the game screen."""
    # the largest board where the layout shows (Pah-Tum's at 80x24 is the snapshot's), a
    # small one where the notice covers it: each app takes a second or two
    for name in ("pahtum",) if size < SIZE else ("boxing",):
        game = get_game(name).new(None, seed=1)
        rng = random.Random(1)
        session = Session(game, [ANN, BOB], now=FakeClock())
        for _ in range(12):
            session.play(rng.choice(game.legal_moves()))
        game.forfeit(1, Termination.TIME, f"{game.seat_name(1)} ran out of time")
        app = ArenaApp(save_dir=tmp_path, clocks_running=False)
        async with app.run_test(size=size) as pilot:
            app.start_session(session)
            screen = await open_replay(app, pilot)
            await pilot.press("left")
            await pilot.pause()
            notice = screen.query_one("#too-small")
            if size < SIZE:
                assert notice.display
                continue
            assert not notice.display
            width, height = size
            for part in ("#board", "#players", "#engine", "#moves", "#status"):
                region = screen.query_one(part).region
                assert region.width and region.height, part
                assert region.right <= width and region.bottom <= height - 1, part
            board = screen.query_one("#board")
            assert board.region.height >= board.size_needed().height


def test_snapshot_of_a_replay_at_move_five(snap_compare, tmp_path: Path) -> None:
    """A finished Pah-Tum game loaded, its replay stepped to move 5 (frozen clocks)."""
    path = saved(finished(), tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)

    async def step(pilot) -> None:
        await open_replay(app, pilot)
        await pilot.press("home", *["right"] * 5)
        await pilot.pause()

    assert snap_compare(app, run_before=step, terminal_size=SIZE)


async def test_a_match_game_from_arena_match_loads_and_replays_to_its_fault(
        tmp_path: Path) -> None:
    """`arena match --out` writes ordinary saves: one loads in the app like any save and
    replays to the program's fault, its exact output quoted."""
    from tests.tui.test_cli import run

    bot = Path(__file__).resolve().parents[1] / "programs" / "bot.py"
    out = tmp_path / "match"
    result = run(["match", "pillars", f"prog:{sys.executable} {bot} pillars random",
                  f"prog:{sys.executable} {bot} pillars extra", "-n", "1", "--seed", "2",
                  "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    path = out / "match-001.arena.json"
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ProgramsDialog)  # its return game would run them
        await pilot.press("r")
        screen = await open_replay(app, pilot)
        game = screen.game
        n = screen.k
        outcome = game.outcome
        assert outcome is not None and outcome.fault == "malformed"
        assert "output after the move" in outcome.reason and repr(outcome.output) in (
            outcome.reason)
        assert [p.is_program for p in screen.source.participants] == [True, True]
        await pilot.press("home", "right")
        await pilot.pause()
        assert screen.k == 1 and len(screen.board.game.history) == 1
        await pilot.press("end")
        await pilot.pause()
        assert screen.k == n and "output after the move" in screen._status


async def test_question_mark_lists_every_key_of_the_replay(tmp_path: Path) -> None:
    from tui.screens.common import RulesDialog

    path = saved(finished("pahtum"), tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesDialog)
        keys = app.screen.text.split("Replay: ", 1)[1]
        for entry in ("c continue", "o AI view", "f flip", "g graph", "z analysis"):
            assert entry in keys  # the ones an 80-column footer has no room for too


async def test_d_edits_the_position_shown_and_escape_comes_back(tmp_path: Path) -> None:
    from tui.screens.editor import EditorScreen

    path = saved(finished("pahtum"), tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False, now=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        replay = await open_replay(app, pilot)
        replay.go(5)
        await pilot.press("d")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        assert editor.draft.build().key() == at(replay.source.game, 5).key()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is replay and replay.k == 5


async def test_a_long_ending_wraps_whole_over_the_engine_panel(tmp_path: Path) -> None:
    """At 80x24 a LOAPS game's ending (here the 50-move draw) is wider than the engine
    panel: the panel shows it whole over its lines, not cut at its width."""
    session = finished("loaps", seed=1)
    reason = session.game.outcome.reason
    app = ArenaApp(load=saved(session, tmp_path), save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_replay(app, pilot)
        panel = screen.query_one(EnginePanel)
        assert len(reason) > panel.content_size.width  # else there is nothing to wrap
        assert " ".join(shown_lines(panel)) == reason


def forfeited(kind: Termination, reason: str, **fault: str) -> Session:
    """A Pah-Tum game that O forfeits after X's first move."""
    session = Session.new("pahtum", [ANN, BOB], seed=3)
    session.play(session.game.legal_moves()[0])
    session.game.forfeit(1, kind, reason, **fault)
    return session


async def test_an_ending_longer_than_the_engine_panel_ends_with_an_ellipsis(
        tmp_path: Path) -> None:
    """An ending longer than the panel's lines shows its cut; a fault keeps a line each."""
    reason = "O answered " + " ".join(f"word{i}" for i in range(40)) + " THE END"
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        app.start_session(forfeited(Termination.TIME, reason))
        screen = await open_replay(app, pilot)
        panel = screen.query_one(EnginePanel)
        lines = shown_lines(panel)
        assert len(lines) == panel.content_size.height and lines[-1].endswith("…")
        assert lines[0].startswith("O answered word0") and "THE END" not in " ".join(lines)
        await pilot.press("left")  # a move before the end: the keys, as before
        await pilot.pause()
        assert "a: the AI" in text_of(panel) and panel._wrapped is None

    # a program's fault: the reason, the fault and the output keep a line each
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        app.start_session(forfeited(Termination.FAULT, reason, fault="malformed",
                                    output="Z9\n"))
        screen = await open_replay(app, pilot)
        first, *rest = shown_lines(screen.query_one(EnginePanel))
        assert first.startswith("O answered word0") and first.endswith("…")
        assert rest == ["fault: malformed", "output: 'Z9\\n'"]


@pytest.mark.parametrize(("control", "live", "replayed"), [
    (TimeControl(ClockKind.MOVE, 10.0), "time left this move", "time used"),
    (GAME_CLOCK, "time left", "time left"),
    (TimeControl.none(), "time used", "time used"),
])
async def test_the_players_panel_names_what_its_clocks_show(
        tmp_path: Path, control: TimeControl, live: str, replayed: str) -> None:
    """A still figure in the clock column reads as time left: the panel says which it is
    (a move clock's replay shows each player's time used)."""
    path = saved(finished(control=control), tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        behind = app.screen_stack[-2] if isinstance(app.screen, ResultScreen) else app.screen
        assert behind.query_one("#players").border_subtitle == live
        screen = await open_replay(app, pilot)
        assert screen.query_one(ReplayPlayers).border_subtitle == replayed
