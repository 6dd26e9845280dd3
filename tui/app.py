"""The Arena Textual app: menu -> setup -> game, plus the engine warm-up and saves glue."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from tui.session import MatchState, Player, Session

if TYPE_CHECKING:
    from ai.engine import StopFlag


class EngineReady(Message):
    """An engine finished importing and warming up (or failed: `error`)."""

    def __init__(self, game_name: str, error: str | None) -> None:
        super().__init__()
        self.game_name, self.error = game_name, error


class ArenaApp(App):
    """Arena: play the contest games in a terminal."""

    CSS_PATH = "arena.tcss"
    TITLE = "Arena"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(
        self,
        game: str | None = None,
        *,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        players: tuple[Any, Any] | None = None,
        load: Path | None = None,
        save_dir: Path | None = None,
        ai_seconds: float | None = None,
        now: Callable[[], float] = time.monotonic,
        clocks_running: bool = True,
    ) -> None:
        super().__init__()
        self.start_game, self.start_options, self.start_seed = game, options, seed
        self.start_players = players
        self.start_load = load
        self.save_dir = save_dir
        self.ai_seconds = ai_seconds  # overrides the level's time budget (tests, demos)
        self.now = now
        self.clocks_running = clocks_running
        self._engines: dict[str, str | None] = {}  # game name -> None (ready) or error text
        self._preparing: set[str] = set()
        self._stops: set[StopFlag] = set()
        self._stops_lock = threading.Lock()

    # ----- start-up ----------------------------------------------------------------------
    def on_mount(self) -> None:
        from tui.screens.menu import MenuScreen

        self.push_screen(MenuScreen())
        players = self.start_players or (Player("human"), Player("human"))
        if self.start_load is not None:
            try:  # the command line has checked that the file fits the game
                session = self.load_session(self.start_load, players)
            except Exception as err:  # noqa: BLE001 - stay on the menu, say why
                self.notify(f"Load failed: {err}", severity="error")
                return
            self.start_session(session, f"Loaded {self.start_load.name}.")
        elif self.start_game is not None:
            try:
                session = Session.new(self.start_game, players, self.start_options,
                                      self.start_seed, now=self.now)
            except Exception as err:  # noqa: BLE001
                self.notify(f"Cannot start: {err}", severity="error")
                return
            self.start_session(session)

    def start_session(self, session: Session, status: str | None = None) -> None:
        from tui.screens.game import GameScreen
        from tui.widgets.boards import has_board

        if not has_board(session.game.name):
            self.notify(f"{session.game.title} has no board in the app yet.", severity="error")
            return
        screen = GameScreen(session)
        if status:
            screen._status = status
        self.switch_screen(screen)

    # ----- the engine: import and warm-up off the UI thread -------------------------------------
    def engine_ready(self, game_name: str) -> bool:
        return game_name in self._engines and self._engines[game_name] is None

    def prepare_engine(self, game_name: str) -> None:
        """Import and warm up the engine in a daemon thread (compiling can take a while).

        A daemon thread rather than a worker: a compile cannot be stopped, and
        quitting must not wait for it.
        """
        if game_name in self._engines or game_name in self._preparing:
            return
        self._preparing.add(game_name)

        def prepare() -> None:
            error = None
            try:
                from ai.engine import get_engine

                get_engine(game_name).warm_up()
            except Exception as err:  # noqa: BLE001 - reported in the engine panel
                error = f"{type(err).__name__}: {err}"
            try:
                self.post_message(EngineReady(game_name, error))
            except RuntimeError:
                pass  # the app has closed

        threading.Thread(target=prepare, name=f"warm-up {game_name}", daemon=True).start()

    def on_engine_ready(self, message: EngineReady) -> None:
        self._preparing.discard(message.game_name)
        self._engines[message.game_name] = message.error
        for screen in self.screen_stack:
            hook = getattr(screen, "on_engine_ready", None)
            if hook is not None and screen is not self:
                hook(message.game_name, message.error)

    def register_stop(self, stop: StopFlag) -> None:
        with self._stops_lock:
            self._stops.add(stop)

    def unregister_stop(self, stop: StopFlag) -> None:
        with self._stops_lock:
            self._stops.discard(stop)

    def stop_searches(self) -> None:
        with self._stops_lock:
            for stop in self._stops:
                stop.set()

    async def action_quit(self) -> None:
        # a running search holds a worker thread; its flag makes it return within ~0.1 s
        self.stop_searches()
        self.exit()

    def on_unmount(self) -> None:
        self.stop_searches()

    # ----- saves ---------------------------------------------------------------------------
    def saves_folder(self) -> Path:
        from saves.store import save_dir

        return save_dir(self.save_dir)

    def save_session(self, session: Session, name: str) -> Path:
        from saves.format import PlayerSpec, doc_from_game
        from saves.store import SUFFIX, write_save

        # the load list shows *.arena.json: a bare name gets the suffix so it is found again
        path = self.saves_folder() / (name if name.endswith(SUFFIX) else name + SUFFIX)
        # a save lists the players by side (mark) of the game on the board
        players = [PlayerSpec(p.kind, p.level, p.name or "") for p in session.players_by_mark]
        clocks = [session.clock(m) for m in (0, 1)]
        doc = doc_from_game(session.game, players, clocks, session.match.to_dict())
        write_save(path, doc)
        return path

    def choose_save(self, then: Callable[[Path | None], None],
                    report: Callable[[str], None]) -> None:
        """Offer the saves and exported positions; `then` gets the chosen path or None."""
        from saves.store import list_saves
        from tui.screens.dialogs import LoadDialog

        try:
            folder = self.saves_folder()
            saves = list_saves(folder, native=True)
        except Exception as err:  # noqa: BLE001 - one line where the caller says things
            report(f"Cannot list saves: {err}")
            return
        self.push_screen(LoadDialog(folder, saves), then)

    def load_session(self, path: Path, players: tuple[Any, Any] | None = None) -> Session:
        """A save with its players, match and clocks; or a native position, which `players`
        (by default two people, an analysis board) take up."""
        from saves.store import is_save, read_native, read_save

        if not is_save(path):
            return Session(read_native(path), players or (Player("human"), Player("human")),
                           now=self.now)
        doc, game = read_save(path)
        match = MatchState.from_dict(getattr(doc, "match", None), type(game).match_length)
        by_mark = list(doc.players)
        participants = [by_mark[(p + match.index) % 2] for p in (0, 1)]
        return Session(game, participants, match=match, clocks=list(doc.clocks) or None,
                       now=self.now)

    # ----- the command palette ------------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for binding in getattr(screen, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.description:
                action = binding.action
                if not screen.check_action(action.partition("(")[0], ()):
                    continue  # e.g. "Result" before the game is over
                key = binding.key_display or binding.key
                yield SystemCommand(binding.description, f"{binding.description} ({key})",
                                    lambda a=action, s=screen: self.call_later(s.run_action, a))


def run(
    game: str | None = None,
    *,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    players: tuple[Any, Any] | None = None,
    load: Path | None = None,
    save_dir: Path | None = None,
) -> None:
    """Start the app: the menu if `game` is None, else that game (or the loaded file)."""
    ArenaApp(game, options=options, seed=seed, players=players, load=load,
             save_dir=save_dir).run()
