"""What the screens use besides their widgets: the engine host and the saves glue.

The app makes one `Services` and hands it to every screen it opens. The
engines are imported and warmed up in a daemon thread (a Numba compile cannot
be stopped, and quitting must not wait for it); readiness comes back as an
`EngineReady` message to the app. Every running search registers its stop
flag here so that quitting stops them all at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules import Clock, MatchState, PlayerSpec
from tui.messages import EngineReady
from tui.session import AIRequest, Session

if TYPE_CHECKING:
    from textual.message import Message

    from ai.engine import InfoCallback, SearchResult, StopFlag


class Services:
    """The engine host and the saves glue, shared by the screens of one app."""

    def __init__(
        self,
        post: Callable[[Message], Any],
        *,
        save_dir: Path | None = None,
        ai_seconds: float | None = None,
        now: Callable[[], float] = time.monotonic,
        clocks_running: bool = True,
    ) -> None:
        self._post = post  # delivers a message to the app; callable from any thread
        self.save_dir = save_dir
        self.ai_seconds = ai_seconds  # overrides the level's and the clock's time (tests)
        self.now = now
        self.clocks_running = clocks_running
        self._engines: dict[str, str | None] = {}  # game name -> None (ready) or error text
        self._preparing: set[str] = set()
        self._stops: set[StopFlag] = set()
        self._stops_lock = threading.Lock()

    # ----- the engines ---------------------------------------------------------------------
    def engine_ready(self, game_name: str) -> bool:
        return game_name in self._engines and self._engines[game_name] is None

    def engine_error(self, game_name: str) -> str | None:
        return self._engines.get(game_name)

    def prepare_engine(self, game_name: str) -> None:
        """Import and warm up a game's engine in a daemon thread, once."""
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
                self._post(EngineReady(game_name, error))
            except RuntimeError:
                pass  # the app has closed

        threading.Thread(target=prepare, name=f"warm-up {game_name}", daemon=True).start()

    def settle(self, game_name: str, error: str | None) -> None:
        """Record a finished warm-up; the app calls it on the UI thread, then tells the
        screens (so a screen never sees an engine ready before its message)."""
        self._preparing.discard(game_name)
        self._engines[game_name] = error

    def new_stop(self) -> StopFlag:
        """A stop flag for one search, registered until `release`."""
        from ai.engine import StopFlag  # already imported by the warm-up thread

        stop = StopFlag()
        with self._stops_lock:
            self._stops.add(stop)
        return stop

    def release(self, stop: StopFlag) -> None:
        with self._stops_lock:
            self._stops.discard(stop)

    @property
    def searching(self) -> int:
        """How many searches hold a stop flag (running, or not yet released)."""
        with self._stops_lock:
            return len(self._stops)

    def stop_all(self) -> None:
        """Stop every running search (each returns within ~0.1 s)."""
        with self._stops_lock:
            for stop in self._stops:
                stop.set()

    def search(self, request: AIRequest, stop: StopFlag,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Answer `request` (call it from a worker thread): the level's time, cut to what
        the clock allows; `ai_seconds`, when set, overrides both."""
        from ai.engine import get_engine

        engine = get_engine(request.game.name)
        seconds = self.ai_seconds
        if seconds is None and request.seconds is not None:
            seconds = min(engine.budget(request.level).seconds, request.seconds)
        budget = engine.budget(request.level, seconds)
        return engine.search(request.game, budget, stop, on_info)

    # ----- saves -----------------------------------------------------------------------------
    def saves_folder(self) -> Path:
        from saves.store import save_dir

        return save_dir(self.save_dir)

    def list_saves(self) -> tuple[Path, list[Path]]:
        """The saves folder and its saves and exported positions, newest first."""
        from saves.store import list_saves

        folder = self.saves_folder()
        return folder, list_saves(folder, native=True)

    def default_name(self, game_name: str, suffix: str | None = None) -> str:
        """A fresh file name for a save (or, with `suffix`, an export) of `game_name`."""
        from saves.store import SUFFIX, default_name

        if suffix is None:
            return default_name(game_name, self.saves_folder())
        return default_name(game_name).removesuffix(SUFFIX) + suffix

    def save_session(self, session: Session, name: str) -> Path:
        """Write `session` as `name` in the saves folder; the path written."""
        from saves.format import doc_from_game
        from saves.store import SUFFIX, write_save

        # the load list shows *.arena.json: a bare name gets the suffix so it is found again
        path = self.saves_folder() / (name if name.endswith(SUFFIX) else name + SUFFIX)
        used = [session.clock_spent(m) for m in range(session.players)]
        clock = Clock(session.control, used)  # the move under way counts as spent so far
        doc = doc_from_game(session.game, list(session.players_by_mark), clock, session.match)
        write_save(path, doc)
        return path

    def export_position(self, session: Session, name: str) -> Path:
        """Write the position in the game's native format as `name` in the saves folder."""
        from saves.store import NATIVE_SUFFIX, export_native

        path = self.saves_folder() / name
        if not path.suffix:  # listed again by the load dialog only with its suffix
            path = path.with_name(path.name + NATIVE_SUFFIX)
        export_native(session.game, path)
        return path

    def load_session(self, path: Path,
                     participants: Sequence[PlayerSpec] | None = None) -> Session:
        """A save with its own players, match and clock; or a native position, which
        `participants` (by default all people: an analysis board) take up."""
        from saves.store import is_save, read_native, read_save

        if not is_save(path):
            game = read_native(path)
            if participants is None or len(participants) != game.players:
                participants = [PlayerSpec.human()] * game.players
            return Session(game, participants, now=self.now)
        doc, game = read_save(path)
        n = game.players
        match = doc.match or MatchState(type(game).match_rule, n)
        by_mark = list(doc.players)
        seated = [by_mark[match.mark_of(p)] for p in range(n)]
        return Session(game, seated, match=match, clock=doc.clock, now=self.now)
