"""The Arena Textual app: it owns navigation (menu -> setup -> game) and the services.

Screens get the `Services` (engine host, saves glue) when they are made and
ask for navigation with the messages of `tui.messages`.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from rules import PlayerSpec, TimeControl, get_game
from tui.messages import (
    EngineReady,
    OpenAnalysis,
    OpenEditor,
    OpenMenu,
    OpenReplay,
    OpenSetup,
    StartSession,
)
from tui.play.session import Session
from tui.screens.analysis import AnalysisScreen
from tui.screens.common import printable
from tui.screens.dialogs import ChoiceDialog, ProgramsDialog
from tui.screens.editor import EditorScreen
from tui.screens.game import GameScreen
from tui.screens.menu import MenuScreen
from tui.screens.replay import ReplayScreen
from tui.screens.setup import SetupScreen
from tui.services import Services
from tui.terminal import terminal_problem
from tui.widgets.boards import has_board

TERMINATE_GRACE = 3.0  # seconds the app has to quit on SIGTERM or SIGHUP before it is ended
USAGE_EXIT = 2  # the CLI's exit code for bad input (`tui.cli.console`)


class ArenaApp(App):
    """Arena: play the contest games in a terminal."""

    CSS_PATH = ["arena.tcss", "boards.tcss"]
    TITLE = "Arena"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True),
                Binding("ctrl+z", "suspend_process", "Suspend", show=False)]

    def __init__(
        self,
        game: str | None = None,
        *,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        players: Sequence[PlayerSpec] | None = None,
        control: TimeControl | None = None,
        load: Path | None = None,
        save_dir: Path | None = None,
        ai_seconds: float | None = None,
        now: Callable[[], float] = time.monotonic,
        clocks_running: bool = True,
        allow_programs: bool = False,
    ) -> None:
        super().__init__()
        self.start_game, self.start_options, self.start_seed = game, options, seed
        self.start_players = list(players) if players is not None else None
        self.start_control = control
        self.start_load = load
        self.services = Services(self.post_message, save_dir=save_dir, ai_seconds=ai_seconds,
                                 now=now, clocks_running=clocks_running)
        # commands typed on the command line are the person's own; `allow_programs` (the
        # CLI's --allow-programs) agrees to those of the loaded file too
        self.services.approve(p.command for p in players or () if p.command is not None)
        self.allow_programs = allow_programs

    # ----- start-up ----------------------------------------------------------------------
    signals = False  # `run` sets it: quit cleanly on SIGTERM and SIGHUP

    def on_mount(self) -> None:
        if self.signals:
            self.handle_signals()
        self.push_screen(MenuScreen(self.services))
        if self.start_load is not None:
            try:  # the command line has checked that the file fits the game
                session = self.services.load_session(self.start_load, self.start_players)
            except Exception as err:  # noqa: BLE001 - stay on the menu, say why
                self.notify(f"Load failed: {err}", severity="error")
                return
            if self.allow_programs:
                self.services.approve(command for _, command in self.services.unapproved(session))
            self.start_session(session, f"Loaded {printable(self.start_load.name)}.")
            if session.game.is_over and _is_record(self.start_load):  # a record is to study
                self.post_message(OpenReplay(session))
        elif self.start_game is not None:
            try:
                session = self._new_session(self.start_game)
            except Exception as err:  # noqa: BLE001
                self.notify(f"Cannot start: {err}", severity="error")
                return
            self.start_session(session)

    def _new_session(self, game_name: str) -> Session:
        game = get_game(game_name).new(self.start_options, self.start_seed)
        # people in every seat unless the command line said otherwise: a hot-seat game
        players = self.start_players or [PlayerSpec.human()] * game.players
        session = Session(game, players, control=self.start_control, now=self.services.now)
        session.setup_options = dict(self.start_options or {})  # for "same settings again"
        return session

    def start_session(self, session: Session, status: str | None = None) -> None:
        """Open the game screen on `session`. If it is in progress and seats programs the
        person has not agreed to run (from a save, a record, a match's output or the Resume
        entry), their command lines are shown first (`ask_programs`); Cancel starts nothing.
        """
        if not has_board(session.game.name):
            self.notify(f"{session.game.title} has no board in the app yet.", severity="error")
            return
        if session.in_progress and self.services.unapproved(session):
            def after(choice: str | None) -> None:
                if choice is None:
                    self.notify("Nothing was started: the programs were not approved.")
                    return
                note = _reseated(choice)
                self.start_session(session, f"{status} {note}".strip() if note else status)

            self.ask_programs(session, after)
            return
        self.switch_screen(GameScreen(session, self.services, status))

    def ask_programs(self, session: Session, then: Callable[[str | None], None]) -> None:
        """Show every program seat of `session` the person has not agreed to run, with its
        whole command line, and ask: run them ("run": approved for this run of Arena), or
        give their seats to the AI ("ai") or to people ("human"); `then` gets the choice,
        None for Cancel (nothing changed)."""
        seats = self.services.unapproved(session)
        named = [(f"{session.game.seat_name(mark)} ({session.label(mark)})", command)
                 for mark, command in seats]

        def chosen(choice: str | None) -> None:
            if choice == "run":
                self.services.approve(command for _, command in seats)
            elif choice in ("ai", "human"):
                player = PlayerSpec.ai() if choice == "ai" else PlayerSpec.human()
                session.reseat({mark: player for mark, _ in seats})
            then(choice)

        self.push_screen(ProgramsDialog(named), chosen)

    # ----- navigation: the screens ask, the app switches ----------------------------------
    def on_open_menu(self, message: OpenMenu) -> None:
        self.switch_screen(MenuScreen(self.services, message.game_name))

    def on_open_setup(self, message: OpenSetup) -> None:
        self.switch_screen(SetupScreen(message.game_name, self.services))

    def on_open_editor(self, message: OpenEditor) -> None:
        """From the menu the editor replaces it; over a game it comes back there, or with
        the new game its Play starts."""
        screen = EditorScreen(message.game_name, self.services, message.game)
        if message.game is None:
            self.switch_screen(screen)
        else:
            self.push_screen(screen, self._play_on)

    def on_start_session(self, message: StartSession) -> None:
        self.start_session(message.session, message.status)

    def on_open_replay(self, message: OpenReplay) -> None:
        """The replay goes over the game screen; `c` there comes back as a new game."""
        self.push_screen(ReplayScreen(message.session, self.services), self._play_on)

    def _play_on(self, start: StartSession | None) -> None:
        """A new game from a replay's `c` or the editor's Play, in place of the game
        screen's: asked about first if that game would be lost (`ask_before_replacing`)."""
        if start is None:
            return
        game = self.game_screen()
        if game is None:
            self.post_message(start)
        else:
            game.ask_before_replacing(lambda: self.post_message(start), "Play on", "p")

    def on_open_analysis(self, message: OpenAnalysis) -> None:
        """The analysis board goes over the screen that asked; Esc comes back to it."""
        self.push_screen(AnalysisScreen(message.game, self.services))

    def on_engine_ready(self, message: EngineReady) -> None:
        self.services.settle(message.game_name, message.error)
        if self.services.cache_notice:  # e.g. a damaged cache was set aside and rebuilt
            self.notify(f"AI: {self.services.cache_notice}.", timeout=10)
            self.services.cache_notice = None
        for screen in self.screen_stack:
            screen.post_message(EngineReady(message.game_name, message.error))

    # ----- quitting -------------------------------------------------------------------------
    def game_screen(self) -> GameScreen | None:
        """The game screen, if one is open (under its dialogs or not)."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        return None

    def action_suspend_process(self) -> None:
        """Ctrl+Z: back to the shell until `fg`, as a terminal program is. A machine
        thinking finishes its move first; a person's clock stands meanwhile
        (`GameScreen.suspend_waits`)."""
        game = self.game_screen()
        if game is not None and game.suspend_waits():
            return
        super().action_suspend_process()

    async def action_quit(self) -> None:
        """Quit, first asking if that would lose something: a game changed since its last
        named save (an unfinished one stays in the autosave), or an edited position not
        saved. Ctrl+Q again quits anyway."""
        game = self.game_screen()
        if game is not None and not game.session.unsaved:
            game = None
        editor = next((s for s in self.screen_stack
                       if isinstance(s, EditorScreen) and s.edited), None)
        if (game is None and editor is None) or isinstance(self.screen, QuitDialog):
            self.quit_now()
            return
        notes = [] if editor is None else [editor.leaving_note("in the editor")]
        choices = [("quit", "Quit", "q")]
        if game is not None:
            notes.append(game.leaving_note(save_key="s"))
            if editor is None:  # saving the game would not keep the edits
                choices.append(("save", "Save and quit", "s"))
        self.push_screen(QuitDialog("Quit Arena?", "\n".join(notes), choices),
                         lambda choice: self._after_quit_choice(game, choice))

    def _after_quit_choice(self, game: GameScreen | None, choice: str | None) -> None:
        if choice == "quit":
            self.quit_now()
        elif choice == "save" and game is not None:
            game.action_save(then=self.quit_now)

    def quit_now(self) -> None:
        # a running search holds a worker thread; its flag makes it return within ~0.1 s
        self.services.stop_all()
        self.services.writer.flush()  # the last autosave reaches the disk
        self.exit()

    def on_unmount(self) -> None:
        self.services.stop_all()

    # ----- signals: SIGTERM, or SIGHUP when the terminal closes ----------------------------
    def handle_signals(self) -> None:
        """Quit cleanly on SIGTERM and SIGHUP: programs killed, the autosave on disk, the
        terminal restored. Only for the app run as `arena` (tests share their process)."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(signum, self._terminated, signum)

    def _terminated(self, signum: int) -> None:
        code = 128 + signum

        def last_resort() -> None:  # a terminal that is gone may hang the exit
            time.sleep(TERMINATE_GRACE)
            _end_programs()
            os._exit(code)

        threading.Thread(target=last_resort, name="arena-terminate", daemon=True).start()
        self.services.stop_all()
        _end_programs()
        self.services.writer.flush()
        self.exit(return_code=code)

    # ----- the command palette ------------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            # Textual's keys panel squeezes the side panels off the board at 80 columns;
            # `?` (Rules, below) lists every key of the game instead
            if command.title != "Keys":
                yield command
        titles = getattr(screen, "PALETTE_TITLES", {})
        for binding in getattr(screen, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.description:
                action = binding.action
                if not screen.check_action(action.partition("(")[0], ()):
                    continue  # e.g. "Result" before the game is over
                # its own first key ("?" for question_mark, as the Footer), not the Footer's
                # label of a pair ("+/-")
                key = self.get_key_display(replace(binding, key=binding.key.split(",")[0],
                                                   key_display=None))
                yield SystemCommand(titles.get(action, binding.description), f"key: {key}",
                                    lambda a=action, s=screen: self.call_later(s.run_action, a))


def _is_record(path: Path) -> bool:
    """Whether `path` (just loaded) is a game record, which opens as a replay when finished."""
    from saves.store import is_record

    try:
        return is_record(path)
    except Exception:  # noqa: BLE001 - read a moment ago; at worst it opens as a save would
        return False


def _reseated(choice: str | None) -> str:
    """The status note after the question about programs."""
    if choice == "ai":
        return "The programs' seats went to the AI."
    if choice == "human":
        return "The programs' seats went to people."
    return ""


class QuitDialog(ChoiceDialog):
    """The question before quitting (its own class: ctrl+q inside it quits anyway)."""


def run(
    game: str | None = None,
    *,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    players: Sequence[PlayerSpec] | None = None,
    control: TimeControl | None = None,
    load: Path | None = None,
    save_dir: Path | None = None,
    allow_programs: bool = False,
) -> int:
    """Start the app: the menu if `game` is None, else that game (or the loaded file);
    the exit code (128 + the signal that ended it, else 0). Without a terminal, exit
    code 2 after one `arena: error:` line, as the CLI's own (`terminal_problem`)."""
    problem = terminal_problem()
    if problem is not None:
        try:
            sys.stderr.write(f"arena: error: {problem}\n")
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):  # stderr closed: the code says it
            pass
        return USAGE_EXIT
    app = ArenaApp(game, options=options, seed=seed, players=players, control=control,
                   load=load, save_dir=save_dir, allow_programs=allow_programs)
    app.signals = True
    app.run()
    return app.return_code or 0


def _end_programs() -> None:
    """Every program the jury started, and what they started, is killed now."""
    from tui.play import reaper

    reaper.sweep()
