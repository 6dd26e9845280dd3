"""Nothing lost, nothing hidden, through the app at 80x24 (Pilot): the quit prompt, the
autosave and Resume, a poisoned saves folder, refused names, the status line, the
small-terminal notice, the setup screen's memory, "same settings again", dialog keys.

Nothing here knows a game's rules: moves come from the board's own cursor model
(the helpers of test_app.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from test_app import FakeClock, app_for, nearest, play_by_keys, seats, text_of, wait_engine
from textual.widgets import Button, Input, OptionList, Select

from rules import ClockKind, PlayerSpec, TimeControl, game_names, get_game
from rules.outcome import Termination
from saves.store import autosave_path
from tui.app import ArenaApp, QuitDialog
from tui.screens.common import TooSmall
from tui.screens.dialogs import ChoiceDialog, NameDialog
from tui.screens.game import GameScreen
from tui.screens.load_dialog import LoadDialog
from tui.screens.menu import MenuScreen
from tui.screens.setup import SetupScreen
from tui.widgets.boards.grid import GridBoard
from tui.widgets.panels import EnginePanel

SIZE = (80, 24)
FIRST = game_names()[0]
MOVE_30 = TimeControl(ClockKind.MOVE, 30.0)
ONE_GAME = [n for n in game_names() if get_game(n).match_rule.games(2) == 1]
MATCHES = [n for n in game_names() if get_game(n).match_rule.games(2) > 1]


def end_by_fault(screen: GameScreen) -> None:
    """End the game on the board as a fault by the first mark would (no rules needed)."""
    screen.session.game.forfeit(0, Termination.FAULT, "X faulted")
    screen._changed("X faulted.")


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def autosaved(app: ArenaApp, folder: Path, game: str | None = None) -> dict | None:
    """A game's autosave as JSON (by default the game on the screen, or FIRST) once every
    pending write is done (None: there is none)."""
    assert app.services.writer.flush(5.0)
    screen = app.game_screen()
    name = game or (screen.session.game.name if screen is not None else FIRST)
    path = autosave_path(folder, name)
    return json.loads(path.read_text()) if path.exists() else None


# ----- quitting ---------------------
async def test_ctrl_q_asks_with_a_game_in_progress_and_quits_at_once_without(
        tmp_path: Path) -> None:
    app = app_for(FIRST, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitDialog)
        assert f"Resume {get_game(FIRST).title} on the menu brings it back" in text_of(
            app.screen.query_one("#result-lines"))
        assert app.screen.focused is app.screen.query_one("#cancel")  # a stray Enter is safe
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and app.is_running
        await pilot.press("ctrl+q", "ctrl+q")  # twice: quit anyway (the game is autosaved)
        await pilot.pause()
        assert not app.is_running
    assert autosaved(app, tmp_path) is not None

    fresh = app_for(FIRST, save_dir=tmp_path / "other")
    async with fresh.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+q")  # no move yet: nothing to lose, no question
        await pilot.pause()
        assert not fresh.is_running


async def test_a_game_whose_autosave_failed_is_not_called_kept(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    app = app_for(FIRST, save_dir=tmp_path / "file" / "saves")  # a folder it cannot make
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        assert screen._status.startswith("Autosave failed: ")
        for keys in (["ctrl+q"], ["n"]):
            await pilot.press(*keys)
            await pilot.pause()
            note = text_of(app.screen.query_one("#result-lines"))
            assert note.startswith("This game is not kept: its autosave failed (")
            assert "Resume" not in note and "stays" not in note
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen


@pytest.mark.parametrize("name", ONE_GAME)
async def test_a_finished_unsaved_game_offers_save_and_quit(name: str, tmp_path: Path) -> None:
    app = app_for(name, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        end_by_fault(screen)
        await pilot.pause()
        await pilot.press("escape")  # the end screen
        await pilot.pause()
        assert autosaved(app, tmp_path) is None  # a finished game is not to resume
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitDialog)
        note = text_of(app.screen.query_one("#result-lines"))
        assert "not saved: s saves it first" in note  # the key this question has for it
        await pilot.press("s")  # save and quit: the name dialog first
        await pilot.pause()
        assert isinstance(app.screen, NameDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert not app.is_running
    assert len(list(tmp_path.glob("*.arena.json"))) == 1


# ----- the autosave and Resume ------------------------------------------------------------------
async def test_a_move_is_autosaved_and_a_new_app_resumes_it_exactly(tmp_path: Path) -> None:
    clock = FakeClock()
    players = seats(FIRST, PlayerSpec.human("Bob"), first=PlayerSpec.human("Ann"))
    app = app_for(FIRST, players, control=MOVE_30, save_dir=tmp_path, now=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        for _ in range(3):
            clock.t += 2.5
            await play_by_keys(pilot, screen.board, nearest(screen.board))
        doc = autosaved(app, tmp_path)
        assert doc is not None and len(doc["moves"]) == 3
        assert not list(tmp_path.glob("*.arena.json"))  # not among the named saves
        await pilot.press("u")
        await pilot.pause()
        assert len(autosaved(app, tmp_path)["moves"]) == 2  # undo is autosaved too
        history = list(screen.session.game.history)
        used = [round(screen.session.clock_spent(m), 3) for m in range(2)]
        await pilot.press("ctrl+q", "q")
        await pilot.pause()

    again = ArenaApp(save_dir=tmp_path, clocks_running=False, now=clock)
    async with again.run_test(size=SIZE) as pilot:
        menu = again.screen
        assert isinstance(menu, MenuScreen)
        first = menu.query_one("#games", OptionList).get_option_at_index(0)
        assert first.id == f"resume:{FIRST}"
        assert str(first.prompt).startswith(f"Resume {get_game(FIRST).title}")
        await pilot.press("enter")
        await pilot.pause()
        screen = again.screen
        assert isinstance(screen, GameScreen)
        s = screen.session
        assert s.game.history == history
        assert [p.name for p in s.participants] == ["Ann", "Bob"]
        assert s.control == MOVE_30
        assert [round(u, 3) for u in s.clock.used] == used
        assert s.unsaved  # resumed is not saved by name: quitting asks again
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(again.screen, QuitDialog)


async def test_a_game_that_ends_clears_the_autosave_and_a_named_save_too(
        tmp_path: Path) -> None:
    app = app_for(FIRST, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        assert autosaved(app, tmp_path) is not None
        app.services.save_session(screen.session, "kept")
        assert autosaved(app, tmp_path) is None  # the named save holds it now
        assert not screen.session.unsaved
        await pilot.press("ctrl+q")  # nothing to lose: no question
        await pilot.pause()
        assert not app.is_running


@pytest.mark.parametrize("name", MATCHES)
async def test_a_match_with_a_game_to_come_stays_autosaved(name: str, tmp_path: Path) -> None:
    app = app_for(name, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        end_by_fault(screen)
        await pilot.pause()
        assert screen.session.has_next_game
        assert autosaved(app, tmp_path)["result"] is not None  # game one, over; more to come
        await pilot.press("escape", "ctrl+q")
        await pilot.pause()
        assert f"Resume {get_game(name).title} on the menu" in text_of(
            app.screen.query_one("#result-lines"))


async def test_each_game_keeps_its_own_unfinished_game(tmp_path: Path) -> None:
    """A new game of another kind never replaces an unfinished one: the menu offers both,
    the most recently played first, and each resumes its own."""
    second = next(n for n in MATCHES if n != FIRST) if MATCHES else "pousse"
    for name in (FIRST, second):
        app = app_for(name, save_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            await play_by_keys(pilot, screen.board, nearest(screen.board))
            assert autosaved(app, tmp_path, name) is not None
            await pilot.press("ctrl+q", "q")
            await pilot.pause()
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        listed = menu.query_one("#games", OptionList)
        ids = [listed.get_option_at_index(i).id for i in range(2)]
        assert ids == [f"resume:{second}", f"resume:{FIRST}"]
        await pilot.press("down", "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.session.game.name == FIRST
        assert len(screen.session.game.history) == 1


async def test_a_new_game_of_the_same_kind_keeps_the_unfinished_one_among_the_saves(
        tmp_path: Path) -> None:
    """A game left under Resume is never lost to the next game of its kind: at that game's
    first move it moves among the named saves, and the person is told where; a resumed
    game goes on in its own slot."""
    history = []
    for run in range(2):  # a game of one move, quit; then a new game of two moves
        app = app_for(FIRST, save_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            for _ in range(run + 1):
                await play_by_keys(pilot, screen.board, nearest(screen.board))
            history.append(list(screen.session.game.history))
            assert len(autosaved(app, tmp_path)["moves"]) == run + 1
            notes = [n.message for n in app._notifications]
            kept = sorted(tmp_path.glob(f"{FIRST}-unfinished-*.arena.json"))
            assert len(kept) == run
            if run:
                assert notes == [f"The unfinished {get_game(FIRST).title} game is kept as "
                                 f"{kept[0].name}: l loads it."]
                assert app.services.load_session(kept[0]).game.history == history[0]
            await pilot.press("ctrl+q", "q")
            await pilot.pause()
    app = ArenaApp(save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # Resume: the game of two moves goes on in its slot
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.session.game.history == history[1]
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        assert len(autosaved(app, tmp_path)["moves"]) == 3
        assert not list(app._notifications)
    assert len(list(tmp_path.glob(f"{FIRST}-unfinished-*.arena.json"))) == 1


def test_keep_unfinished_moves_only_that_games_autosave(tmp_path: Path) -> None:
    from saves.format import doc_from_game
    from saves.store import keep_unfinished, write_autosave

    assert keep_unfinished(tmp_path, FIRST) is None  # no slot yet
    other = next(n for n in game_names() if n != FIRST)
    for name in (FIRST, other):
        game = get_game(name).new(None, seed=1)
        game.play(game.legal_moves()[0])
        write_autosave(tmp_path, doc_from_game(game, [PlayerSpec.human()] * game.players))
    kept = keep_unfinished(tmp_path, FIRST)
    assert kept is not None and kept.parent == tmp_path
    assert kept.name.startswith(f"{FIRST}-unfinished-") and kept.name.endswith(".arena.json")
    assert not autosave_path(tmp_path, FIRST).exists()
    assert autosave_path(tmp_path, other).exists()  # another kind's stays in its slot
    assert keep_unfinished(tmp_path, FIRST) is None
    old = autosave_path(tmp_path)  # an older Arena's one slot, holding the other game
    autosave_path(tmp_path, other).rename(old)
    assert keep_unfinished(tmp_path, FIRST) is None and old.exists()
    assert keep_unfinished(tmp_path, other) is not None and not old.exists()
    assert len(list(tmp_path.glob("*-unfinished-*.arena.json"))) == 2


def test_an_old_single_autosave_still_resumes(tmp_path: Path) -> None:
    """An older Arena's one slot (last.arena.json) resumes as its game's, until that game
    is autosaved again."""
    from saves.format import doc_from_game, dumps
    from saves.store import autosaves, read_autosave, write_autosave

    game = get_game(FIRST).new(None, seed=1)
    game.play(game.legal_moves()[0])
    old = autosave_path(tmp_path)
    old.parent.mkdir()
    old.write_text(dumps(doc_from_game(game, [PlayerSpec.human()] * game.players)))
    assert [name for name, _ in autosaves(tmp_path)] == [FIRST]
    assert read_autosave(tmp_path, FIRST) is not None
    write_autosave(tmp_path, doc_from_game(game, [PlayerSpec.human()] * game.players))
    assert not old.exists() and autosave_path(tmp_path, FIRST).exists()


# ----- a poisoned saves folder ---------------------
def poisoned_folder(folder: Path, good: str) -> dict[str, str]:
    """Files that once crashed the app (name -> text), written next to a good save."""
    data = json.loads(good)
    files: dict[str, str] = {}

    def variant(name: str, **changes: object) -> None:
        files[name] = json.dumps({**data, **changes})

    variant("year-one", saved_at="0001-01-01T00:00:00Z")
    variant("zone-overflow", saved_at="9999-12-31T23:59:59-23:59")
    files["digits"] = good.replace('"version": 2', '"version": ' + "9" * 5000)
    files["deep"] = good.replace('"moves": [', '"moves": ' + "[" * 100_000 + "]" * 100_000
                                 + ', "x": [', 1)
    variant("inf-clock", clock={**data["clock"], "used": [1e400, 0]})
    files["inf-clock"] = files["inf-clock"].replace("Infinity", "1e400")
    variant("match-list", match={**data["match"], "results": [[1]]})
    variant("match-dict", match={**data["match"], "results": [{"x": 1}]})
    variant("match-index", match={**data["match"], "index": 7})
    files["not-json"] = "{not json"
    for name, text in files.items():
        (folder / f"{name}.arena.json").write_text(text)
    (folder / os.fsdecode(b"bad-\xff-name.arena.json")).write_text("{")
    return files


async def test_a_poisoned_saves_folder_lists_every_file_and_loads_none(tmp_path: Path) -> None:
    app = app_for(FIRST, seats(FIRST, PlayerSpec.human("Bob"), first=PlayerSpec.human("Ann")),
                  save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        good = app.services.save_session(screen.session, "good")
        files = poisoned_folder(tmp_path, good.read_text())
        good.unlink()
        before = list(screen.session.game.history)
        await pilot.press("l")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, LoadDialog)
        listed = dialog.query_one(OptionList)
        assert listed.option_count == len(files) + 1
        lines = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert [line for line in lines if "unreadable: " not in line] == []
        await pilot.press("escape")
        await pilot.pause()
        for index in range(listed.option_count):
            await pilot.press("l")
            await pilot.pause()
            await pilot.press(*["down"] * index, "enter")
            await pilot.pause()
            assert app.screen is screen
            assert screen._status.startswith("Load failed: "), screen._status
            assert "\n" not in screen._status
            assert screen.session.game.history == before  # the game on screen is untouched


async def test_a_player_name_that_is_no_text_loads_and_saves_again(tmp_path: Path) -> None:
    app = app_for(FIRST, seats(FIRST, PlayerSpec.human("Bob"), first=PlayerSpec.human("Ann")),
                  save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        good = app.services.save_session(screen.session, "good")
        good.write_text(good.read_text().replace('"name": "Ann"', '"name": "\\ud800"'))
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert screen._status.startswith("Loaded "), screen._status
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert screen._status.startswith("Saved to "), screen._status


# ----- names that would leave the folder ---------------------
async def name_dialog_after_a_move(app: ArenaApp, pilot: Any, key: str) -> NameDialog:
    """Play a move on the board, then open the name dialog `key` opens (keys, spaced)."""
    screen = app.screen
    await play_by_keys(pilot, screen.board, nearest(screen.board))
    await pilot.press(*key.split())
    await pilot.pause()
    assert isinstance(app.screen, NameDialog)
    return app.screen


async def give_name(pilot: Any, dialog: NameDialog, name: str | None) -> None:
    """Submit `name` (None: what the dialog holds) with Enter."""
    if name is not None:
        dialog.query_one(Input).value = name
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.parametrize("key", ["s", "e p", "e r"])  # save; export a position, a record
async def test_a_name_with_a_path_is_refused_in_the_dialog(key: str, tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    app = app_for(FIRST, save_dir=folder)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        dialog = await name_dialog_after_a_move(app, pilot, key)
        await give_name(pilot, dialog, "../../escape")
        assert app.screen is dialog  # still asking, saying why in one line
        error = text_of(dialog.query_one("#name-error"))
        assert "cannot contain" in error and "\n" not in error
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
    written = [p for p in tmp_path.rglob("*") if p.is_file() and "autosave" not in p.parts]
    assert written == []


# ----- names that are taken ---------------------
@pytest.mark.parametrize(("key", "suffix"), [("s", ".arena.json"), ("e p", ".txt"),
                                             ("e r", ".arena.txt")])
async def test_a_name_another_file_has_is_asked_about_before_it_is_replaced(
        key: str, suffix: str, tmp_path: Path) -> None:
    taken = tmp_path / f"mid game{suffix}"
    taken.write_text("another game\n")
    app = app_for(FIRST, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        dialog = await name_dialog_after_a_move(app, pilot, key)
        assert not (tmp_path / dialog.query_one(Input).value).exists()  # offered: a new name
        await give_name(pilot, dialog, "mid game")
        assert app.screen is dialog and taken.read_text() == "another game\n"
        error = text_of(dialog.query_one("#name-error"))
        assert error == (f"mid game{suffix} exists: "
                         f"{'Save' if key == 's' else 'Export'} again to replace it")
        await give_name(pilot, dialog, "mid game ")  # an edit asks again
        assert app.screen is dialog and taken.read_text() == "another game\n"
        await give_name(pilot, dialog, None)  # given again: replaced
        assert app.screen is screen
        assert taken.read_text() != "another game\n"


async def test_saving_again_offers_the_games_own_save_and_replaces_it_without_asking(
        tmp_path: Path) -> None:
    app = app_for(FIRST, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await give_name(pilot, await name_dialog_after_a_move(app, pilot, "s"), "mine")
        for _ in range(2):  # saved by name, then loaded from it: the same file is offered
            dialog = await name_dialog_after_a_move(app, pilot, "s")
            assert dialog.query_one(Input).value == "mine.arena.json"
            await give_name(pilot, dialog, None)
            assert app.screen is screen and screen._status.endswith("/mine.arena.json.")
            await pilot.press("l", "enter")
            await pilot.pause()
            assert screen._status == "Loaded mine.arena.json."
    assert [p.name for p in tmp_path.glob("*.arena.json")] == ["mine.arena.json"]
    assert len(json.loads((tmp_path / "mine.arena.json").read_text())["moves"]) == 3


async def test_the_games_own_save_changed_since_by_another_is_asked_about(
        tmp_path: Path) -> None:
    """Another Arena (or a hand) wrote the game's own save since this game saved it: saving
    again asks before replacing it, as for any other file."""
    app = app_for(FIRST, save_dir=tmp_path)
    mine = tmp_path / "mine.arena.json"
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await give_name(pilot, await name_dialog_after_a_move(app, pilot, "s"), "mine")
        theirs = mine.read_text().replace('"moves"', '"moves" ', 1)  # still a save
        mine.write_text(theirs)
        dialog = await name_dialog_after_a_move(app, pilot, "s")
        assert dialog.query_one(Input).value == "mine.arena.json"
        await give_name(pilot, dialog, None)
        assert app.screen is dialog and mine.read_text() == theirs
        assert text_of(dialog.query_one("#name-error")) == (
            "mine.arena.json changed since this game was saved there or loaded: Save again "
            "to replace it")
        await give_name(pilot, dialog, None)  # given again: replaced
        assert app.screen is screen and mine.read_text() != theirs
        dialog = await name_dialog_after_a_move(app, pilot, "s")  # its own again: no question
        await give_name(pilot, dialog, None)
        assert app.screen is screen
    assert len(json.loads(mine.read_text())["moves"]) == 3


@pytest.mark.parametrize("name", ONE_GAME)
async def test_loading_over_a_finished_game_not_saved_asks_first(
        name: str, tmp_path: Path) -> None:
    from tui.screens.dialogs import ChoiceDialog

    app = app_for(name, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await give_name(pilot, await name_dialog_after_a_move(app, pilot, "s"), "other")
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        end_by_fault(screen)
        await pilot.pause()
        await pilot.press("escape")  # the end screen
        await pilot.pause()
        finished = screen.session
        for answer in ("escape", "l"):
            await pilot.press("l")
            await pilot.pause()
            await pilot.press("enter")  # the one save
            await pilot.pause()
            assert isinstance(app.screen, ChoiceDialog)
            assert text_of(app.screen.query_one("#result-lines")).startswith(
                "This finished game is not saved")
            await pilot.press(answer)
            await pilot.pause()
            if answer == "escape":
                assert app.screen is screen and screen.session is finished
        assert app.screen is screen and screen._status == "Loaded other.arena.json."
        assert not screen.session.game.is_over


async def test_loading_over_a_game_whose_autosave_failed_asks_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from saves import store
    from tui.screens.dialogs import ChoiceDialog

    app = app_for(FIRST, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await give_name(pilot, await name_dialog_after_a_move(app, pilot, "s"), "other")

        def full(*_args: object, **_kwargs: object) -> str:
            raise store.SaveError("could not save: No space left on device")

        monkeypatch.setattr(store, "write_autosave", full)
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        assert screen.session.in_progress
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        assert text_of(app.screen.query_one("#result-lines")).startswith(
            "This game is not kept: its autosave failed (could not save: No space left")


# ----- the status line ---------------------
async def test_the_status_line_shortens_paths_and_never_cuts_silently(tmp_path: Path) -> None:
    app = app_for(FIRST, save_dir=tmp_path / "my saves")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("e", "p")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        shown = text_of(screen.query_one("#status"))
        assert shown.startswith("Exported the position to my saves/")
        assert shown.rstrip().endswith(".txt.")
        long = "Load failed: " + "a very long reason " * 10 + "at the end"
        screen.status(long)
        await pilot.pause()
        shown = text_of(screen.query_one("#status"))
        assert shown.rstrip().endswith("…") and len(shown.rstrip()) <= SIZE[0]
        assert any(n.message == long for n in app._notifications)  # the whole text


async def test_a_status_too_long_for_the_bar_shows_its_short_form() -> None:
    """The end of a game: the whole line where it fits, else the outcome without the hint
    the Footer gives (`g Result`), never the outcome cut."""
    app = app_for(FIRST)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        short = "Game over: " + "a long name " * 3 + "wins with 213 marks."
        long = short + " g shows the result again."
        screen.status(long, whole_elsewhere=True, short=short)
        # the board's note follows where a useful part of it fits
        screen.post_message(GridBoard.Note(Text("B12x3: three by three, a long note")))
        await pilot.pause()
        assert text_of(screen.query_one("#status")).strip() == short
        assert not app._notifications  # the result screen shows it whole
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        shown = text_of(screen.query_one("#status")).strip()
        assert shown.startswith(long + "  │  B12x3: three") and shown.endswith("…")
        screen.status("Undone.")
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert text_of(screen.query_one("#status")).strip().startswith("Undone.  │  B12x3")
        # once the game is over the note (about the move being chosen) goes: the board
        # sent its outcome, which the status already says
        game = screen.session.game
        game.forfeit(game.to_move, Termination.TIME, "A ran out of time")
        screen.status("Game over: A ran out of time.")
        await pilot.pause()
        assert text_of(screen.query_one("#status")).strip() == "Game over: A ran out of time."


# ----- small terminals ---------------------
async def test_a_small_terminal_says_what_it_needs_and_recovers() -> None:
    app = app_for(FIRST)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        notice = app.screen.query_one(TooSmall)
        assert notice.display
        assert "Arena needs 80x24; this terminal is 60x20" in text_of(notice)
        await pilot.resize_terminal(90, 26)
        await pilot.pause()
        assert not notice.display
        assert isinstance(app.screen, GameScreen)


async def test_the_menu_fits_in_less() -> None:
    app = ArenaApp(clocks_running=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one(TooSmall).display


# ----- the setup screen ---------------------
async def test_setup_remembers_the_last_choices_across_runs(tmp_path: Path) -> None:
    cls = get_game(FIRST)
    limited = next(c for c in cls.offered_time_controls() if c.limited)
    app = ArenaApp(clocks_running=False, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert setup.focused is setup.query(Select).first()  # focus on the first field
        setup.query_one("#clock", Select).value = limited.key()
        setup.query_one("#player-1", Select).value = "ai:easy"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("n", "m", "enter")  # no move made: straight to the menu
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert setup.query_one("#clock", Select).value == limited.key()
        assert setup.query_one("#player-1", Select).value == "ai:easy"
    assert app.services.writer.flush(5.0)

    again = ArenaApp(clocks_running=False, save_dir=tmp_path)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert again.screen.query_one("#clock", Select).value == limited.key()
        assert again.screen.query_one("#player-1", Select).value == "ai:easy"


async def test_enter_in_the_seed_field_moves_on_instead_of_starting() -> None:
    name = next((n for n in game_names() if get_game(n).random_start), None)
    if name is None:
        pytest.skip("no game with a random start")
    app = ArenaApp(clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["down"] * game_names().index(name), "enter")
        await pilot.pause()
        setup = app.screen
        seed = setup.query_one("#seed", Input)
        seed.focus()
        await pilot.press("4", "2", "enter")
        await pilot.pause()
        assert app.screen is setup
        assert setup.focused is setup.query_one("#start", Button)
        await pilot.press("enter")  # Start
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.game.to_native() == get_game(name).new(None, 42).to_native()


async def test_a_game_without_random_start_has_no_seed_field() -> None:
    for index, name in enumerate(game_names()):
        app = ArenaApp(clocks_running=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press(*["down"] * index, "enter")
            await pilot.pause()
            assert bool(app.screen.query("#seed")) == get_game(name).random_start


# ----- new game, dialogs ---------------------
async def test_n_offers_the_same_settings_again() -> None:
    players = seats(FIRST, PlayerSpec.ai("easy"), first=PlayerSpec.human("Ann"))
    app = ArenaApp(FIRST, players=players, control=MOVE_30, clocks_running=False,
                   options={spec.name: spec.default for spec in get_game(FIRST).option_specs})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        old = screen.session
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        assert dialog.focused is dialog.query_one("#cancel")
        await pilot.press("left")  # arrows walk the buttons
        assert dialog.focused is dialog.query_one("#menu")
        await pilot.press("left")
        assert dialog.focused is dialog.query_one("#again")
        await pilot.press("enter")
        await pilot.pause()
        new = app.screen
        assert isinstance(new, GameScreen) and new is not screen
        s = new.session
        assert s.participants == old.participants and s.control == MOVE_30
        assert s.setup_options == old.setup_options
        assert s.game.history == []


@pytest.mark.parametrize("name", ONE_GAME)
async def test_the_end_screens_new_game_button_asks_first(name: str, tmp_path: Path) -> None:
    app = app_for(name, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        end_by_fault(screen)
        await pilot.pause()
        app.screen.query_one("#new", Button).press()
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        assert "not saved" in text_of(app.screen.query_one("#result-lines"))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.session.game.is_over


async def test_undo_clears_the_engine_panels_stale_line() -> None:
    app = app_for(FIRST)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_by_keys(pilot, screen.board, nearest(screen.board))
        await pilot.press("h")
        await wait_engine(app, pilot, FIRST)
        await app.workers.wait_for_complete()
        await pilot.pause()
        panel = screen.query_one(EnginePanel)
        assert "nodes" in text_of(panel)  # the hint's search
        await pilot.press("u")
        await pilot.pause()
        assert "nodes" not in text_of(panel)
        assert "no AI in this game" in text_of(panel)


def test_the_warm_up_heals_a_cache_that_fails_under_it_and_says_so_once(monkeypatch) -> None:
    from ai import engine as engine_module
    from ai import numba_cache
    from tui.services import Services

    calls = []

    class Flaky:
        def warm_up(self) -> None:
            calls.append(1)
            if len(calls) == 1:
                raise EOFError("a damaged index")

    said = "the kernel cache was damaged (EOFError): set aside"
    monkeypatch.setattr(engine_module, "get_engine", lambda name: Flaky())
    monkeypatch.setattr(numba_cache, "caused_by_cache", lambda err: isinstance(err, EOFError))
    monkeypatch.setattr(numba_cache, "recover", lambda err: said)
    monkeypatch.setattr(numba_cache, "notice", lambda: said)
    monkeypatch.setattr(numba_cache, "seal", lambda only_new=False: None)
    services = Services(lambda message: None)
    services._warm_up("pahtum")
    assert len(calls) == 2 and services.cache_notice == said
    services.cache_notice = None
    services._warm_up("pahtum")
    assert services.cache_notice is None  # said once


async def test_n_after_a_move_offers_to_save_first_and_says_what_resume_keeps() -> None:
    app = ArenaApp(FIRST, players=seats(FIRST), clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        screen._play(screen.session.game.legal_moves()[0])
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        assert dialog.query("#save")  # "Save first"
        note = screen.leaving_note(new_game=True)
        assert "until the next Pah-Tum game's first move, then among the saves" in note
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.session.game.history
