"""The game screen's file actions: save, load and export, each through its dialog.

A mixin of `GameScreen` (it uses the screen's session, driver, services and status
line): a failed save or load says why in one line and never changes the game. While a
dialog is open a person's clock waits, as it does while they look back at earlier moves:
typing a file name is not thinking about the move.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.messages import StartSession
from tui.screens.common import printable, short_path
from tui.screens.dialogs import ChoiceDialog, NameDialog
from tui.screens.load_dialog import LoadDialog

if TYPE_CHECKING:
    from tui.play.driver import Driver
    from tui.play.session import Session
    from tui.services import Services


class FileActions:
    """Save (s), load (l) and export (e) for the game screen."""

    session: Session
    driver: Driver
    services: Services

    if TYPE_CHECKING:
        def status(self, text: str) -> None: ...
        def _show_game(self) -> None: ...
        def _engine_line(self, text: str | None = None) -> None: ...
        def _changed(self, text: str) -> None: ...
        def _cancel_search(self, turn_too: bool = True) -> None: ...
        def leaving_note(self, new_game: bool = False, save_key: str = "f") -> str: ...
        def post_message(self, message: object) -> bool: ...
        @property
        def app(self) -> object: ...

    def _file_dialog(self, dialog: Any, answer: Callable[[Any], object]) -> None:
        """Open `dialog`, with a person's clock paused until the answer (unless it already
        was: looking back keeps its own pause)."""
        session = self.session
        game = session.game
        pause = (not game.is_over and not session.clock_paused
                 and session.player(game.to_move).is_human)
        if pause:
            session.pause_clock()

        def answered(value: Any) -> None:
            if pause:
                session.resume_clock()
            answer(value)

        self.app.push_screen(dialog, answered)

    def action_save(self, then: Callable[[], object] | None = None) -> None:
        """Ask for a name and save; `then` runs after a successful save (quit, new game)."""
        from saves.store import SUFFIX

        own = self.session.saved_to
        try:
            folder = self.services.saves_folder()
            default = self.services.default_name(self.session.game.name, own=own)
        except Exception as err:  # noqa: BLE001 - one line in the status, game untouched
            self.status(f"Cannot save: {err}")
            return
        dialog = NameDialog("Save the game", folder, default,
                            **self.services.name_checks(SUFFIX, own, self.session.saved_text))
        self._file_dialog(dialog, lambda name: self._save_to(name, then))

    def _save_to(self, name: str | None, then: Callable[[], object] | None = None) -> None:
        if not name:
            self.status("Save cancelled.")
            return
        try:
            path = self.services.save_session(self.session, name)
        except Exception as err:  # noqa: BLE001
            self.status(f"Save failed: {err}")
            return
        self.status(f"Saved to {self._shown(path)}.")
        if then is not None:
            then()

    def _shown(self, path: Path) -> str:
        try:
            return short_path(path, self.services.saves_folder())
        except OSError:
            return short_path(path)

    def action_load(self) -> None:
        try:
            folder, saves = self.services.list_saves()
        except Exception as err:  # noqa: BLE001 - one line in the status, game untouched
            self.status(f"Cannot list saves: {err}")
            return
        # the dialog reads the folder again as the services list it, after a rename or a delete
        dialog = LoadDialog(folder, saves, lambda: self.services.list_saves()[1])
        self._file_dialog(dialog, self._load_from)

    def ask_before_replacing(self, then: Callable[[], object], verb: str, key: str) -> None:
        """Run `then`, which puts another game in this one's place (a load, the replay's
        play-on, the editor's Play). A game over and in no save is kept by nothing else,
        nor is one whose autosave failed, so first ask: `verb` (its `key`) or save it
        first, as a new game asks. A game in progress stays in the autosave meanwhile."""
        s = self.session
        if not s.unsaved or (s.in_progress and self.services.autosave_problem(s) is None):
            then()
            return

        def chosen(choice: str | None) -> None:
            if choice == "go":
                then()
            elif choice == "save":
                self.action_save(then=then)

        choices = [("go", verb, key), ("save", "Save first", "s")]
        self.app.push_screen(  # type: ignore[attr-defined]
            ChoiceDialog(f"{verb}?", self.leaving_note(new_game=True, save_key="s"), choices),
            chosen)

    def _load_from(self, path: Path | None) -> None:
        if path is None:
            self.status("Load cancelled.")
            return
        self.ask_before_replacing(lambda: self._load_now(path), "Load", "l")

    def _load_now(self, path: Path) -> None:
        try:
            loaded = self.services.load_session(path, self.session.participants)
        except Exception as err:  # noqa: BLE001 - a failed load never changes the game
            self.status(f"Load failed: {err}")
            return
        if self.services.unapproved(loaded):  # the app asks first; a "no" leaves this game
            self.post_message(StartSession(loaded, f"Loaded {printable(path.name)}."))
            return
        self.driver.close()
        if loaded.game.name != self.session.game.name:
            self._cancel_search()
            self.post_message(StartSession(loaded, f"Loaded {printable(path.name)}."))
            return
        self.session.replace(loaded)
        self.session.mark_saved()
        self._show_game()
        if self.session.has_ai:
            self.services.prepare_engine(self.session.game.name)
        self._engine_line()
        self._changed(f"Loaded {printable(path.name)}.")

    def action_export(self) -> None:
        """Ask what to export: the position in the game's native format, or the whole game
        as a text record (README: Game records)."""
        self._file_dialog(ChoiceDialog(
            "Export", "The position on the board in the game's native format, or the whole "
            "game as a text record (its players, clock, moves and result).",
            [("position", "Position", "p"), ("record", "Game record", "r")]),
            self._export_as)

    def _export_as(self, kind: str | None) -> None:
        from saves.record import RECORD_SUFFIX
        from saves.store import NATIVE_SUFFIX

        if kind is None:
            self.status("Export cancelled.")
            return
        suffix, title = ((RECORD_SUFFIX, "Export the game record (text)") if kind == "record"
                         else (NATIVE_SUFFIX, "Export the position (native format)"))
        try:
            folder = self.services.saves_folder()
            default = self.services.default_name(self.session.game.name, suffix)
        except Exception as err:  # noqa: BLE001
            self.status(f"Cannot export: {err}")
            return
        self._file_dialog(NameDialog(
            title, folder, default, "Export", **self.services.name_checks(suffix)),
            lambda name: self._export_to(name, kind == "record"))

    def _export_to(self, name: str | None, record: bool = False) -> None:
        if not name:
            self.status("Export cancelled.")
            return
        try:
            path = (self.services.export_record(self.session, name) if record
                    else self.services.export_position(self.session, name))
        except Exception as err:  # noqa: BLE001
            self.status(f"Export failed: {err}")
            return
        what = "the game record" if record else "the position"
        self.status(f"Exported {what} to {self._shown(path)}.")
