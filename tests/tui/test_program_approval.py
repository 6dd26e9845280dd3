"""A save never runs a program the person has not seen and agreed to: from a save, a
record, `arena match --out` or the Resume entry, a program seat starts only after its
whole command line was shown and approved, in the app and on the CLI; refusing keeps the
game with the seat given to the AI or a person."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from rules import PlayerSpec, get_game
from saves.format import doc_from_game, dumps
from saves.store import write_autosave
from tests.tui.test_cli import assert_user_error, run
from tui.app import ArenaApp
from tui.screens.dialogs import ProgramsDialog
from tui.screens.game import GameScreen
from tui.screens.menu import MenuScreen

SIZE = (80, 24)


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    return tmp_path / "ran"


def pahtum_save(tmp_path: Path, marker: Path, moves: int = 1) -> Path:
    """A Pah-Tum save in progress whose second seat is `touch MARKER` (its turn next)."""
    game = get_game("pahtum").new({"blocks": "21"}, 4)
    for _ in range(moves):
        game.play(sorted(game.legal_moves())[0])
    players = [PlayerSpec.human(), PlayerSpec.program(f"touch {marker}")]
    if moves % 2 == 0:
        players.reverse()
    path = tmp_path / "saves" / "shared.arena.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(doc_from_game(game, players)))
    return path


def dialog_text(app: ArenaApp) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query(Static))


async def test_loading_a_save_shows_the_command_and_runs_nothing_until_agreed(
        tmp_path: Path, marker: Path) -> None:
    path = pahtum_save(tmp_path, marker)
    app = ArenaApp(load=path, save_dir=tmp_path / "saves", clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ProgramsDialog)
        assert f"touch {marker}" in dialog_text(app)  # the whole command line
        await pilot.pause(0.3)
        assert not marker.exists()
        await pilot.press("escape")  # Cancel: nothing starts, nothing runs
        await pilot.pause(0.3)
        assert isinstance(app.screen, MenuScreen) and not marker.exists()


@pytest.mark.parametrize(("key", "kind"), [("a", "ai"), ("p", "human")])
async def test_refusing_keeps_the_game_with_the_seat_given_away(
        tmp_path: Path, marker: Path, key: str, kind: str) -> None:
    path = pahtum_save(tmp_path, marker)
    app = ArenaApp(load=path, save_dir=tmp_path / "saves", clocks_running=False,
                   ai_seconds=0.05)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause(0.5)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        s = screen.session
        assert s.player(1).kind == kind and len(s.game.history) >= 1
        if kind == "human":  # (the AI's first move says what it played instead)
            assert "seats went to people" in screen._status
    assert not marker.exists()


async def test_agreeing_runs_the_program(tmp_path: Path, marker: Path) -> None:
    path = pahtum_save(tmp_path, marker)
    app = ArenaApp(load=path, save_dir=tmp_path / "saves", clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        for _ in range(100):
            await pilot.pause(0.05)
            if marker.exists():
                break
    assert marker.exists()  # it ran (and, printing nothing, lost by a fault)


async def test_the_resume_entry_asks_too(tmp_path: Path, marker: Path) -> None:
    game = get_game("pahtum").new({"blocks": "21"}, 4)
    game.play(sorted(game.legal_moves())[0])
    folder = tmp_path / "saves"
    folder.mkdir()
    write_autosave(folder, doc_from_game(game, [PlayerSpec.human(),
                                                PlayerSpec.program(f"touch {marker}")]))
    app = ArenaApp(save_dir=folder, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        app.screen._resume("pahtum")
        await pilot.pause()
        assert isinstance(app.screen, ProgramsDialog)
        await pilot.press("escape")
        await pilot.pause(0.3)
    assert not marker.exists()


async def test_an_undo_into_a_finished_games_program_turn_asks_first(
        tmp_path: Path, marker: Path) -> None:
    """A finished game loads without the question (nothing can run), but once an undo
    and a move give the turn back to the program, it asks before it runs."""
    game = get_game("pousse").new({"size": "4"}, 0)  # a match of one game
    while not game.is_over:
        game.play(sorted(game.legal_moves(), key=str)[0])
    players = [PlayerSpec.program(f"touch {marker}"), PlayerSpec.human()]
    if game.to_move == 0:  # the person must have moved last
        players.reverse()
    path = tmp_path / "done.arena.json"
    doc = doc_from_game(game, players)
    path.write_text(dumps(doc))
    app = ArenaApp(load=path, save_dir=tmp_path / "saves", clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, ProgramsDialog)  # finished: nothing can run
        await pilot.press("escape")  # the end screen
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("u")  # back to the person's turn; their move hands it over
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and not screen.session.game.is_over
        screen._play(sorted(screen.session.game.legal_moves(), key=str)[-1])
        await pilot.pause(0.3)
        assert isinstance(app.screen, ProgramsDialog)
        await pilot.press("escape")  # Cancel here: a person takes the seat
        await pilot.pause(0.3)
        screen = app.game_screen()
        assert screen is not None
        assert all(not p.is_program for p in screen.session.participants)
    assert not marker.exists()


def test_arena_play_load_refuses_programs_without_a_terminal(
        tmp_path: Path, marker: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    calls: list[dict] = []
    fake = types.ModuleType("tui.app")
    fake.run = lambda game=None, **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tui.app", fake)
    path = pahtum_save(tmp_path, marker)
    line = assert_user_error(run(["play", "pahtum", "--load", str(path)]),
                             "--allow-programs", "touch")
    assert "seats programs" in line and not calls and not marker.exists()
    result = run(["play", "pahtum", "--load", str(path), "--allow-programs"])
    assert result.exit_code == 0, result.stderr
    assert calls and calls[0]["allow_programs"] is True
    # on a terminal with stdout redirected the app still opens (it draws on stderr) and
    # asks there
    calls.clear()
    monkeypatch.setattr("tui.cli.play.is_tty",
                        lambda stream: stream is sys.stdin or stream is sys.stderr)
    result = run(["play", "pahtum", "--load", str(path)])
    assert result.exit_code == 0, result.stderr
    assert calls and calls[0]["allow_programs"] is False and not marker.exists()


async def test_allow_programs_runs_them_without_the_question(tmp_path: Path,
                                                             marker: Path) -> None:
    path = pahtum_save(tmp_path, marker)
    app = ArenaApp(load=path, save_dir=tmp_path / "saves", clocks_running=False,
                   allow_programs=True)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            if marker.exists():
                break
        assert not isinstance(app.screen, ProgramsDialog)
    assert marker.exists()


def test_a_save_names_its_program_commands(tmp_path: Path, marker: Path) -> None:
    from saves.store import saved_programs

    path = pahtum_save(tmp_path, marker)
    assert saved_programs(path) == [f"touch {marker}"]
    data = json.loads(path.read_text())
    assert data["players"][1] == {"kind": "prog", "command": f"touch {marker}"}
