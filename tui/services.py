"""What the screens use besides their widgets: the engine host and the saves glue.

The app makes one `Services` and hands it to every screen it opens. The
engines are imported and warmed up in a daemon thread (a Numba compile cannot
be stopped, and quitting must not wait for it); readiness comes back as an
`EngineReady` message to the app. Every running search registers its stop
flag here, and every contest program playing a seat its `ProgramPlayer`, so that
quitting stops them all at once (a program's whole process group is killed).

The game in progress is autosaved after every change by one writer thread (in
order, off the UI thread); the setup screen's last choices per game are kept
here for the app's lifetime and in a small file in the saves folder.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules import Clock, ClockKind, MatchState, PlayerSpec
from tui.messages import EngineReady
from tui.play.session import AIRequest, Session

if TYPE_CHECKING:
    from textual.message import Message

    from ai.engine import Engine, InfoCallback, SearchResult, StopFlag
    from rules import Game
    from saves.format import SaveDoc
    from tui.play.jury import ProgramPlayer, Verdict

SETTINGS_FILE = ".setup.json"  # hidden, and not a save: the load list never shows it
SETTINGS_BYTES = 64_000
PROGRAMS_LOG = "programs.log"  # one line per contest program's fault, in the saves folder
STDERR_LOGGED = 500  # characters of a faulty program's stderr the log keeps


class Writer:
    """One daemon thread that runs file jobs in the order given (an autosave never
    overtakes a later one); the last failure is kept for the screen to report."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[Callable[[], None]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.error: str | None = None
        self.notice: str | None = None  # what a job did that the person should know

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
                self._thread.start()
        self._jobs.put(job)

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                job()
            except Exception as err:  # noqa: BLE001 - reported once on the screen
                self.error = str(err) or type(err).__name__
            finally:
                self._jobs.task_done()

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until every job given so far is done (at most `timeout`); whether they are."""
        deadline = time.monotonic() + timeout
        while self._jobs.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True


def _text_of(path: Path) -> str | None:
    """A save's text as it is on disk now, None if it cannot be read."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def end_program(player: ProgramPlayer) -> None:
    """Kill a program's process group and end it for good (never raises)."""
    try:
        player.cancel()
    except Exception:  # noqa: BLE001 - closing is what matters
        pass
    try:
        player.close()
    except Exception:  # noqa: BLE001
        pass


@dataclass
class Compiling:
    """A game's kernels being compiled: since when, how long it should take (the last
    build's time), and the step under way."""

    game_name: str
    estimate: float
    began: float
    step: str = "starting"

    def describe(self, now: float) -> str:
        from rules import get_game

        spent = max(0.0, now - self.began)
        share = min(0.99, spent / self.estimate) if self.estimate > 0 else 0.0
        left = self.estimate - spent
        when = f"about {left:.0f} s left" if left >= 1 else "nearly done"
        return (f"compiling the {get_game(self.game_name).title} AI (once): {share:.0%}, "
                f"{when}\n{self.step}")


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
        self.cache_notice: str | None = None  # what the kernel cache did, said once
        self._told: set[str] = set()
        self._stops: set[StopFlag] = set()
        self._stops_lock = threading.Lock()
        self._programs: set[ProgramPlayer] = set()  # the programs playing seats now
        self._approved: set[str] = set()  # command lines the person agreed to run
        self.compiling: dict[str, Compiling] = {}  # games whose kernels are being built
        self._builds: set[Any] = set()  # their build processes (killed on quit)
        self.writer = Writer()
        self._setup: dict[str, dict[str, Any]] | None = None  # game -> field id -> value
        self._autosaved: dict[str, object] = {}  # game -> the session its autosave holds
        self._slot_text: dict[str, str] = {}  # game -> the text this app last put in its slot
        # session token -> its own file among the saves, once another Arena took its slot
        self._own_file: dict[object, Path] = {}
        self._unkept: dict[object, str] = {}  # session token -> why its last autosave failed

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
                self._warm_up(game_name)
            except Exception as err:  # noqa: BLE001 - reported in the engine panel
                error = f"{type(err).__name__}: {err}"
            try:
                self._post(EngineReady(game_name, error))
            except RuntimeError:
                pass  # the app has closed

        threading.Thread(target=prepare, name=f"warm-up {game_name}", daemon=True).start()

    def _warm_up(self, game_name: str) -> None:
        """Load the game's native kernels; without them, build them in a child process
        (the UI stays smooth: a compile holds the GIL; `compiling` says how far it has
        got), or, where they cannot be built (native modules off, no C compiler),
        compile or load the JIT's here. A kernel cache that fails under the JIT (a damaged
        file the start-up check missed, a full disk) is healed once and the warm-up run
        again. Good kernels are recorded in the cache's manifest."""
        from ai import native
        from ai.engine import get_engine

        if native.native_allowed() and not native.loadable(game_name):
            self._build_native(game_name)
        if native.ready(game_name):
            get_engine(game_name).load()  # in milliseconds
            return
        self._warm_up_jit(game_name)

    def _build_native(self, game_name: str) -> None:
        """Run `python -m ai.native GAME`, following its progress; a failure is left for
        the JIT to make up for (`ai.native` records it)."""
        import subprocess
        import sys

        from ai import native

        progress = Compiling(game_name, native.estimate(game_name), self.now())
        self.compiling[game_name] = progress
        proc = None
        try:
            proc = subprocess.Popen([sys.executable, "-m", "ai.native", game_name],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True)
            assert proc.stdout is not None
            with self._stops_lock:
                self._builds.add(proc)
            for line in proc.stdout:
                progress.step = line.strip().split(": ", 1)[-1]
            proc.wait()
        except OSError:
            pass
        finally:
            if proc is not None:
                with self._stops_lock:
                    self._builds.discard(proc)
            self.compiling.pop(game_name, None)

    def compile_progress(self, game_name: str) -> str | None:
        """How far the game's kernels have got while they compile, in words, or None."""
        progress = self.compiling.get(game_name)
        return None if progress is None else progress.describe(self.now())

    def _warm_up_jit(self, game_name: str) -> None:
        from ai import numba_cache
        from ai.engine import get_engine

        engine = get_engine(game_name)
        try:
            engine.warm_up()
        except Exception as err:
            if not numba_cache.caused_by_cache(err):
                raise
            numba_cache.recover(err)
            engine.warm_up()
        notice = numba_cache.notice()
        if notice and notice not in self._told:
            self._told.add(notice)
            self.cache_notice = notice
        numba_cache.seal()

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
        """Stop every running search (each returns within ~0.1 s) and end every program
        (its process group is killed: nothing is left running)."""
        with self._stops_lock:
            for stop in self._stops:
                stop.set()
            programs, self._programs = list(self._programs), set()
            builds = list(self._builds)
        for build in builds:  # a build cut short leaves nothing (it writes atomically)
            build.kill()
        for program in programs:
            end_program(program)

    # ----- contest programs --------------------------------------------------------------
    # ----- which programs the person has agreed to run -----------------------------------
    def approve(self, commands: Iterable[str]) -> None:
        """The person agreed to run these command lines (typed them, or said yes after
        seeing them whole)."""
        self._approved.update(commands)

    def unapproved(self, session: Session) -> list[tuple[int, str]]:
        """The seats (marks) of `session` held by a program whose command line the person
        has not agreed to run, with the command: a save, a record, a match's output or the
        Resume entry may name any command at all."""
        found = []
        for mark in range(session.players):
            spec = session.player(mark)
            if spec.command is not None and spec.command not in self._approved:
                found.append((mark, spec.command))
        return found

    def open_program(self, game_class: type[Game], command: str) -> ProgramPlayer:
        """A program to play a seat in `game_class`'s protocol, registered until
        `close_program` (CommandError if the command names no program, or one the person
        has not agreed to run)."""
        from tui.play.jury import program_player
        from tui.play.programs import CommandError

        if command not in self._approved:
            raise CommandError(f"the command {command!r} was not approved to run")

        player = program_player(game_class, command)
        with self._stops_lock:
            self._programs.add(player)
        return player

    def forget_program(self, player: object) -> None:
        """A player the driver has closed (a program no longer needs ending on quit)."""
        with self._stops_lock:
            self._programs.discard(player)  # type: ignore[arg-type]

    def engine(self, game_name: str) -> Engine:
        """The game's shared engine (call it from a worker thread: it loads the kernels)."""
        from ai.engine import get_engine

        return get_engine(game_name)

    def close_program(self, player: ProgramPlayer, kill: bool = True) -> None:
        """End a program for good: killed at once (`kill`), or told the game is over."""
        with self._stops_lock:
            self._programs.discard(player)
        if kill:
            end_program(player)
        else:
            try:
                player.close()
            except Exception:  # noqa: BLE001 - then kill it
                end_program(player)

    @property
    def programs(self) -> int:
        """How many programs are open (playing a seat in the game on the board)."""
        with self._stops_lock:
            return len(self._programs)

    def log_program_fault(self, game_name: str, seat: str, command: str,
                          verdict: Verdict) -> None:
        """One line in `programs.log` (saves folder) for a program's fault: when, the game,
        the seat, the command, the fault, the reason, its exact output (a repr) and the
        start of its stderr. Written by the writer thread."""
        from datetime import UTC, datetime

        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        line = (f"{stamp} game={game_name} seat={seat} command={command!r} "
                f"fault={verdict.fault} reason={verdict.reason!r} "
                f"output={verdict.kept_output!r} stderr={verdict.stderr[:STDERR_LOGGED]!r}\n")
        try:
            path = self.saves_folder() / PROGRAMS_LOG
        except OSError as err:
            self.writer.error = str(err)
            return

        def append() -> None:
            from saves.store import append_line

            append_line(path, line)

        self.writer.submit(append)

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

    def run_search(self, request: AIRequest, stop: StopFlag, on_info: InfoCallback,
                   on_done: Callable[[SearchResult | None, str | None], None]) -> None:
        """`search` for a worker thread: `on_done` gets the result, or None and the error in
        one line (never raised: a screen shows it); the stop flag is released after."""
        try:
            result = self.search(request, stop, on_info)
        except Exception as err:  # noqa: BLE001 - shown on the screen, never a crash
            on_done(None, f"{type(err).__name__}: {err}")
        else:
            on_done(result, None)
        finally:
            self.release(stop)

    # ----- saves -----------------------------------------------------------------------------
    def saves_folder(self) -> Path:
        from saves.store import save_dir

        return save_dir(self.save_dir)

    def list_saves(self) -> tuple[Path, list[Path]]:
        """The saves folder and its saves and exported positions, newest first."""
        from saves.store import list_saves

        folder = self.saves_folder()
        return folder, list_saves(folder, native=True)  # it cleans what killed saves left

    def default_name(self, game_name: str, suffix: str | None = None,
                     own: Path | None = None) -> str:
        """The name a save (or, with `suffix`, an export) of `game_name` is offered: `own`,
        the named save the game came from, when it is in the saves folder; else a fresh
        name, one no file in the folder has."""
        from saves.store import SUFFIX, default_name

        folder = self.saves_folder()
        if suffix is None and own is not None and own.parent == folder.resolve():
            return own.name
        return default_name(game_name, folder, suffix=suffix or SUFFIX)

    def replaced(self, name: str, suffix: str, own: Path | None = None,
                 own_text: str | None = None) -> str | None:
        """What writing `name` would replace, as the start of a sentence ("x.arena.json
        exists"); None when nothing would be. `own`, the game's own save, is replaced
        without asking while it holds `own_text` (what the game last wrote or read there):
        changed since, by another Arena or by hand, it is asked about too."""
        from saves.format import SaveError
        from saves.store import path_in

        try:
            path = path_in(self.saves_folder(), name, suffix)
        except (SaveError, OSError):
            return None  # the name's own problem is told by name_problem
        if not (path.exists() or path.is_symlink()):
            return None
        if path != own:
            return f"{path.name} exists"
        if own_text is None or _text_of(path) == own_text:
            return None
        return f"{path.name} changed since this game was saved there or loaded"

    def name_checks(self, suffix: str, own: Path | None = None, own_text: str | None = None,
                    ) -> dict[str, Callable[[str], str | None]]:
        """A name dialog's two checks for a file of `suffix` in the saves folder (its
        `check` and `replaced`; `own` and `own_text` as for `replaced`)."""
        return {"check": lambda name: self.name_problem(name, suffix),
                "replaced": lambda name: self.replaced(name, suffix, own, own_text)}

    @staticmethod
    def name_problem(name: str, suffix: str) -> str | None:
        """Why `name` cannot be a file in the saves folder (one line), or None."""
        from saves.format import SaveError
        from saves.store import safe_name

        try:
            safe_name(name, suffix)
        except SaveError as err:
            return str(err)
        return None

    def save_session(self, session: Session, name: str) -> Path:
        """Write `session` as `name` in the saves folder; the path written. A name that
        would leave the folder is refused (SaveError) and nothing is written."""
        from saves.store import SUFFIX, path_in, write_save

        # the load list shows *.arena.json: a bare name gets the suffix so it is found again
        path = path_in(self.saves_folder(), name, SUFFIX)
        text = write_save(path, self._doc(session))
        session.mark_saved()
        session.saved_to, session.saved_text = path, text
        self._clear_own_autosave(session)  # the game is in a named save now
        return path

    @staticmethod
    def _doc(session: Session) -> SaveDoc:
        from saves.format import doc_from_game

        used = [session.clock_spent(m) for m in range(session.players)]
        # the move under way counts as spent so far; the moves' times go to the replay
        clock = Clock(session.control, used, list(session.clock.moves))
        return doc_from_game(session.game, list(session.players_by_mark), clock, session.match)

    def export_position(self, session: Session, name: str) -> Path:
        """Write the position in the game's native format as `name` in the saves folder
        (listed again by the load dialog: a name without the suffix gets it)."""
        from saves.store import NATIVE_SUFFIX, export_native, path_in

        path = path_in(self.saves_folder(), name, NATIVE_SUFFIX)
        limited = session.control.kind is ClockKind.GAME
        left = [session.clock_left(m) if limited else None for m in range(session.players)]
        export_native(session.game, path, left)
        return path

    def export_record(self, session: Session, name: str) -> Path:
        """Write the whole game as a game record (`saves.record`) as `name` in the saves
        folder (a name without the record's suffix gets it; the load dialog lists it)."""
        from saves.record import RECORD_SUFFIX
        from saves.store import path_in, write_record

        path = path_in(self.saves_folder(), name, RECORD_SUFFIX)
        write_record(path, self._doc(session))
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
            session = Session(game, participants, now=self.now)
        else:
            session = self.session_from_doc(*read_save(path))
            session.saved_to, session.saved_text = path.resolve(), _text_of(path)
        session.mark_saved()
        return session

    def session_from_doc(self, doc: SaveDoc, game: Game) -> Session:
        """The session a save document describes: its players (seated by the match), its
        match and its clock."""
        n = game.players
        match = doc.match or MatchState(type(game).match_rule, n)
        by_mark = list(doc.players)
        seated = [by_mark[match.mark_of(p)] for p in range(n)]
        return Session(game, seated, match=match, clock=doc.clock, now=self.now)

    # ----- the autosaves: each game's unfinished game --------------------------------------
    def autosave(self, session: Session) -> str | None:
        """After a change: keep `session` for Resume (its game's slot) while it is in
        progress and in no named save; drop that autosave once the game is over, if it
        holds this game. A game just loaded or saved by name leaves the autosaves as they
        are (one may hold the game before it). The document is made here (a snapshot); the
        writer thread puts it on disk. A new line not yet confirmed is not saved: the
        autosave keeps the line it left.

        Another unfinished game in the slot (from an earlier run, or the game on screen
        before a load) is first moved among the named saves; the line saying so is
        returned, for the person (None: nothing was moved)."""
        if session.old_line is not None:
            return None
        if not session.in_progress:
            self._clear_own_autosave(session)
            return None
        if not session.unsaved:
            return None
        from saves.store import keep_unfinished

        name, kept, token = session.game.name, None, session.token
        try:
            folder, doc = self.saves_folder(), self._doc(session)
            if self._autosaved.get(name) is not token and token not in self._own_file:
                self.writer.flush()  # the slot as the writes before this one left it
                kept = keep_unfinished(folder, name)
                self._slot_text.pop(name, None)  # the slot is this game's, whatever is there
        except Exception as err:  # noqa: BLE001 - reported on the screen, the game goes on
            self.writer.error = self._unkept[token] = str(err)
            return None
        self._autosaved[name] = token
        title = session.game.title
        self.writer.submit(lambda: self._put_autosave(folder, doc, token, title))
        if kept is None:
            return None
        return f"The unfinished {title} game is kept as {kept.name}: l loads it."

    def _put_autosave(self, folder: Path, doc: SaveDoc, token: object, title: str) -> None:
        """The writer's job for `autosave`; a failure is remembered for the questions that
        leave (`autosave_problem`) and kept by the writer for the screen."""
        try:
            self._write_autosave(folder, doc, token, title)
        except Exception as err:
            self._unkept[token] = str(err) or type(err).__name__
            raise
        self._unkept.pop(token, None)

    def _write_autosave(self, folder: Path, doc: SaveDoc, token: object, title: str) -> None:
        """The game's slot while this app holds it. Once another Arena using the same
        saves folder has written the slot (a game of the same kind, or this one resumed
        there), the slot is left to it and this game gets a file of its own among the
        saves from then on, said once: neither is lost."""
        from saves.store import SlotTaken, default_name, write_autosave, write_save

        own = self._own_file.get(token)
        if own is None:
            try:
                self._slot_text[doc.game] = write_autosave(
                    folder, doc, self._slot_text.get(doc.game))
                return
            except SlotTaken:
                own = self._own_file[token] = folder / default_name(
                    f"{doc.game}-unfinished", folder)
                self._slot_text.pop(doc.game, None)
                self.writer.notice = (
                    f"Another Arena wrote the {title} autosave in this saves folder: this "
                    f"game is kept as {own.name} from now on (l loads it).")
        write_save(own, doc)

    def autosave_problem(self, session: Session) -> str | None:
        """Why `session`'s last autosave failed (its game is kept nowhere), or None."""
        self.writer.flush()
        return self._unkept.get(session.token)

    def autosaved_as(self, session: Session) -> Path | None:
        """The file of its own that `session` is autosaved in (another Arena took its
        slot), or None (its slot, or nowhere)."""
        self.writer.flush()
        return self._own_file.get(session.token)

    def _clear_own_autosave(self, session: Session) -> None:
        """Remove the game's autosave if it holds `session` (another game's stays), or the
        file of its own (`autosaved_as`)."""
        name = session.game.name
        if (own := self._own_file.pop(session.token, None)) is not None:
            self.writer.submit(lambda: own.unlink(missing_ok=True))
        elif self._autosaved.get(name) is session.token:
            self.clear_autosave(name)

    def clear_autosave(self, game_name: str | None = None) -> None:
        """Remove `game_name`'s autosave (None: every game's)."""
        if game_name is None:
            self._autosaved.clear()
            self._slot_text.clear()
        else:
            self._autosaved.pop(game_name, None)
        try:
            folder = self.saves_folder()
        except OSError as err:
            self.writer.error = str(err)
            return
        self.writer.submit(lambda: self._clear_slot(folder, game_name))

    def _clear_slot(self, folder: Path, game_name: str | None) -> None:
        """The writer's job for `clear_autosave`: a slot another Arena wrote since this
        app's last write stays."""
        from saves.store import SlotTaken, clear_autosave

        held = None if game_name is None else self._slot_text.pop(game_name, None)
        with contextlib.suppress(SlotTaken):
            clear_autosave(folder, game_name, held)

    def describe_autosaves(self) -> list[tuple[str, str]]:
        """(game, the menu's line) for each game with an unfinished game to resume, the
        most recently played first."""
        from saves.store import autosaves

        self.writer.flush()
        try:
            return autosaves(self.saves_folder())
        except Exception:  # noqa: BLE001 - no Resume entry rather than no menu
            return []

    def describe_autosave(self, game_name: str | None = None) -> str | None:
        """The menu's line for `game_name`'s game to resume (None: the most recent)."""
        for name, line in self.describe_autosaves():
            if game_name is None or name == game_name:
                return line
        return None

    def resume_session(self, game_name: str | None = None) -> Session | None:
        """`game_name`'s autosaved game (None: the most recent), as a session in no named
        save; None if there is none (a damaged one is set aside by the store). It holds
        the slot: its moves replace the autosave it came from."""
        from saves.store import read_autosave, slot_text

        self.writer.flush()
        folder = self.saves_folder()
        found = read_autosave(folder, game_name)
        if found is None:
            return None
        session = self.session_from_doc(*found)
        session.mark_unsaved()
        name = session.game.name
        self._autosaved[name] = session.token
        # held from the text resumed: another Arena that writes the slot meanwhile keeps it
        if (text := slot_text(folder, name)) is not None:
            self._slot_text[name] = text
        else:
            self._slot_text.pop(name, None)
        return session

    def take_write_error(self) -> str | None:
        """The last autosave or settings write that failed, once."""
        error, self.writer.error = self.writer.error, None
        return error

    def take_write_notice(self) -> str | None:
        """What the last autosave did that the person should know, once."""
        notice, self.writer.notice = self.writer.notice, None
        return notice

    # ----- the setup screen's last choices --------------------------------------------------
    def _settings_path(self) -> Path:
        return self.saves_folder() / SETTINGS_FILE

    def setup_choices(self, game_name: str) -> dict[str, Any]:
        """The setup screen's last choices for `game_name` (field id -> value), this run's
        or a previous run's; empty if none (the screen checks every value it applies)."""
        if self._setup is None:
            self._setup = {}
            from saves.format import SaveError
            from saves.store import read_text

            try:
                data = json.loads(read_text(self._settings_path(), SETTINGS_BYTES))
            except (OSError, ValueError, RecursionError, SaveError):
                data = None  # none yet, or damaged: the defaults
            if isinstance(data, dict):
                self._setup = {k: v for k, v in data.items()
                               if isinstance(k, str) and isinstance(v, dict)}
        return dict(self._setup.get(game_name, {}))

    def remember_setup(self, game_name: str, choices: dict[str, Any]) -> None:
        from saves.store import atomic_write

        self.setup_choices(game_name)  # read the file first: other games' choices stay
        assert self._setup is not None
        self._setup[game_name] = dict(choices)
        text = json.dumps(self._setup, indent=1, sort_keys=True)
        try:
            path = self._settings_path()
        except OSError as err:
            self.writer.error = str(err)
            return
        self.writer.submit(lambda: atomic_write(path, text))
