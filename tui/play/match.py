"""`arena match`: AI levels and contest programs play each other; the table at the end.

A match is a schedule of games (`plan`): the players of a two-player game meet in
every pairing (a round robin when more than two are given), `games` games a pairing;
the players of a game that seats them all (one taking a count of players) all play
every game. Game `k` of a pairing of `m` players starts from seeded start `k // m`
and rotates the seats (`rules.match.mark_of`): with two players each start is played twice, colours
swapped (an odd `games` plays its last start once); a game that seats everyone
rounds `games` up to a multiple of the players. Starts come from
`ai.strength.start_position` (a seeded random start, or two seeded random opening
moves in a game without one), the same in every pairing.

`Match.run` plays the games in `jobs` threads, each game on its own clock (the
game's contest clock times the time scale, wall clock per move): the jury
(`tui.play.jury`) judges a program's answers, and a program's fault or timeout loses the
game; an AI over its time loses too. Each thread has its own engine per AI player.
Ctrl-C in the caller's thread stops everything (programs killed, searches stopped)
and keeps the finished games. Nothing here imports Typer; Numba comes with the
engines, made by the caller's factory.

What it shows (the table, Elo, JSON, progress) is `tui.play.match_report`'s.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from typing import Protocol as Interface

from rules import Clock, Game, PlayerSpec, RulesError, TimeControl
from rules.match import participant_of
from rules.outcome import FORFEITS, Outcome

if TYPE_CHECKING:
    from ai.engine import Engine
    from tui.play.players import Player

SAVE_PREFIX = "match-"
MAX_GAMES = 100_000  # games in one match at most (the records are kept in memory)
HALT_WAIT = 10.0  # seconds the threads get to end after Ctrl-C (they need well under 1)
POLL = 0.2  # seconds between progress redraws while no game ends


class Watcher(Interface):
    """What follows a match as it runs (`tui.play.match_report.Progress` draws it)."""

    def start(self, result: Result) -> None: ...
    def tick(self, result: Result) -> None: ...
    def finished(self, result: Result, record: Record) -> None: ...
    def close(self) -> None: ...


class MatchError(RulesError):
    """A match that cannot be played as asked (one line)."""


# ----- the plan ------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """A player of the match: its spec, the text it was given as, a unique label."""

    index: int
    spec: PlayerSpec
    text: str
    label: str

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "text": self.text, "label": self.label,
                **self.spec.to_json()}


@dataclass(frozen=True)
class Task:
    """One game of the schedule: `seats[mark]` is the entrant playing that mark."""

    number: int  # 1-based, in schedule order
    seats: tuple[int, ...]
    start_index: int
    start: Game  # copied for the game, never played on


def entrants(specs: Sequence[PlayerSpec], texts: Sequence[str]) -> list[Entrant]:
    """The players with their labels, numbered where two share one ("AI (easy) 1")."""
    labels = [spec.label() for spec in specs]
    seen: dict[str, int] = {}
    out = []
    for i, (spec, text, label) in enumerate(zip(specs, texts, labels, strict=True)):
        if labels.count(label) > 1:
            seen[label] = seen.get(label, 0) + 1
            label = f"{label} {seen[label]}"
        out.append(Entrant(i, spec, text, label))
    return out


def all_in_each_game(cls: type[Game]) -> bool:
    """Whether every player plays every game (a game that takes the player count)."""
    return cls.takes_count()


def games_per_pairing(cls: type[Game], players: int, games: int) -> int:
    """`games` as played: a game that seats everyone rounds it up to a multiple of the
    players, so each start is played from every seat."""
    if not all_in_each_game(cls):
        return games
    return -(-games // players) * players


def pairings(cls: type[Game], players: int) -> list[tuple[int, ...]]:
    """Who meets: everyone at once (a game taking a count of players), else every pair,
    in order."""
    if all_in_each_game(cls):
        return [tuple(range(players))]
    return list(itertools.combinations(range(players), 2))


def plan(cls: type[Game], options: dict[str, Any], players: int, games: int,
         seed: int) -> list[Task]:
    """The schedule: every pairing's games, each start shared by a pairing's rotations."""
    from ai.strength import start_position

    per = games_per_pairing(cls, players, games)
    groups = pairings(cls, players)
    if per * len(groups) > MAX_GAMES:
        raise MatchError(f"{per * len(groups):,} games is too many for one match "
                         f"(at most {MAX_GAMES:,})")
    starts: dict[int, Game] = {}
    tasks = []
    for group in groups:
        m = len(group)
        for k in range(per):
            s = k // m
            if s not in starts:
                starts[s] = start_position(cls, options, seed + s)
            seats = tuple(group[participant_of(mark, k, m)] for mark in range(m))
            tasks.append(Task(len(tasks) + 1, seats, s, starts[s]))
    return tasks


def scaled_clock(cls: type[Game], scale: float) -> TimeControl:
    """The game's contest clock with its seconds times `scale`."""
    control = cls.clock
    if not control.limited:
        return control
    seconds = control.seconds * scale
    if not 0 < seconds < 10**7:
        raise MatchError(f"--time-scale {scale:g} makes the {control.describe()} clock "
                         f"{seconds:g} s: out of range")
    return TimeControl(control.kind, seconds)


def save_name(number: int, total: int) -> str:
    from saves.store import SUFFIX

    return f"{SAVE_PREFIX}{number:0{max(3, len(str(total)))}d}{SUFFIX}"


def out_folder(path: Path) -> Path:
    """`--out`: the folder (made if missing); MatchError for a file or a folder that
    already holds a match's saves or records (they would be overwritten)."""
    from saves.record import RECORD_SUFFIX
    from saves.store import SUFFIX

    folder = path.expanduser()
    if folder.exists() and not folder.is_dir():
        raise MatchError(f"--out {folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise MatchError(f"--out {folder}: cannot make the folder: "
                         f"{err.strerror or err}") from None
    taken = sorted(p.name for suffix in (SUFFIX, RECORD_SUFFIX)
                   for p in folder.glob(f"{SAVE_PREFIX}*{suffix}"))
    if taken:
        raise MatchError(f"--out {folder} already holds a match's saves ({taken[0]}); "
                         "give another folder or empty it")
    return folder


# ----- one game ------------------------------------------------------------------


@dataclass
class Record:
    """A finished game."""

    task: Task
    game: Game
    clock: Clock
    opening: int  # random opening moves before the players (games without a random start)
    seconds: float  # wall clock, the whole game
    path: Path | None = None

    @property
    def outcome(self) -> Outcome:
        assert self.game.outcome is not None
        return self.game.outcome

    def fault_of(self, seat: int) -> str | None:
        """The fault that lost `seat` the game (a timeout for a flag), or None."""
        outcome = self.outcome
        if outcome.kind not in FORFEITS or outcome.loser != seat:
            return None
        return outcome.fault or "timeout"

    def to_json(self, players: Sequence[Entrant]) -> dict[str, Any]:
        game = self.game
        return {
            "number": self.task.number,
            "players": list(self.task.seats),
            "labels": [players[p].label for p in self.task.seats],
            "start": game.start_native(),
            "opening": self.opening,
            "moves": game.history_text(),
            "result": self.outcome.to_json(),
            "faults": [self.fault_of(seat) for seat in range(game.players)],
            "clock": {"used": [round(u, 3) for u in self.clock.used],
                      "moves": [round(m, 3) for m in self.clock.moves]},
            "seconds": round(self.seconds, 3),
            "save": None if self.path is None else str(self.path),
        }


class _Stopped(Exception):  # noqa: N818 - control flow: the match was stopped
    pass


# ----- the match -------------------------------------------------------------------


@dataclass
class Result:
    """The games finished (in schedule order) and whether the match was cut short."""

    game_class: type[Game]
    options: dict[str, Any]
    players: list[Entrant]
    control: TimeControl
    seed: int
    games: int  # per pairing, as played
    total: int
    records: list[Record] = field(default_factory=list)
    interrupted: bool = False


class Match:
    """Plays `tasks` in `jobs` threads; `run` returns the Result (see the module)."""

    def __init__(self, cls: type[Game], options: dict[str, Any], players: list[Entrant],
                 tasks: list[Task], control: TimeControl, seed: int, games: int,
                 jobs: int = 1, out: Path | None = None,
                 engine: Callable[[], Engine] | None = None,
                 progress: Watcher | None = None) -> None:
        self.cls = cls
        self.options = options
        self.players = players
        self.tasks = tasks
        self.control = control
        self.seed = seed
        self.games = games
        self.jobs = max(1, min(jobs, len(tasks)))
        self.out = out
        self.engine = engine or self._new_engine
        self.progress = progress
        self._todo: queue.Queue[Task] = queue.Queue()
        self._records: list[Record] = []  # the finished games, as they end
        self._errors: list[BaseException] = []  # what went wrong in a thread
        self._wake: queue.Queue[None] = queue.Queue()  # a game ended (or failed)
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._live: set[Player] = set()  # the programs playing now (killed on a halt)
        self._stop = self._stop_flag()

    def _new_engine(self) -> Engine:
        from ai.engine import new_engine

        return new_engine(self.cls.name)

    def _engine_of(self, spec: PlayerSpec) -> Engine:
        """A new engine for one AI entrant in one thread: today's, or an older revision's."""
        if spec.revision is None:
            return self.engine()
        from ai import revision

        return revision.new_engine(spec.revision, self.cls.name)

    def _stop_flag(self) -> Any:
        if not any(p.spec.kind in ("ai", "rev") for p in self.players):
            return None
        from ai.engine import StopFlag

        return StopFlag()

    def result(self) -> Result:
        return Result(self.cls, self.options, self.players, self.control, self.seed,
                      self.games, len(self.tasks))

    def run(self) -> Result:
        """Play every game; Ctrl-C (KeyboardInterrupt in this thread) stops the match
        cleanly and returns what was finished, `interrupted` set."""
        result = self.result()
        for task in self.tasks:
            self._todo.put(task)
        threads: list[threading.Thread] = []
        try:
            # every thread's engines made before any clock runs (making one while another
            # thread searches would slow that search down)
            for i in range(self.jobs):
                engines = {p.index: self._engine_of(p.spec) for p in self.players
                           if p.spec.kind in ("ai", "rev")}
                threads.append(threading.Thread(target=self._work, args=(engines,),
                                                name=f"arena-match-{i}", daemon=True))
            for thread in threads:
                thread.start()
            self._collect(result)
        except KeyboardInterrupt:
            result.interrupted = True
            self._halt(threads)
        except BaseException:
            self._halt(threads)
            raise
        with self._lock:  # every game that ended counts, even as the match was stopped
            result.records = sorted(self._records, key=lambda r: r.task.number)
        if self.progress is not None:
            self.progress.close()
        return result

    def _collect(self, result: Result) -> None:
        """Wait for the games, showing each as it ends; a thread's error is raised here."""
        if self.progress is not None:
            self.progress.start(result)
        while len(result.records) < len(self.tasks):
            with self._lock:
                new = self._records[len(result.records):]
                error = self._errors[0] if self._errors else None
            if error is not None:
                raise error
            for record in new:
                result.records.append(record)
                if self.progress is not None:
                    self.progress.finished(result, record)
            if new or len(result.records) == len(self.tasks):
                continue
            try:
                self._wake.get(timeout=POLL)
            except queue.Empty:
                if self.progress is not None:
                    self.progress.tick(result)

    def _halt(self, threads: Sequence[threading.Thread]) -> None:
        """Stop every game: searches stopped, programs killed (again and again, until
        each thread has seen it: a move may begin just after a sweep)."""
        self._stopping.set()
        if self._stop is not None:
            self._stop.set()
        deadline = time.monotonic() + HALT_WAIT
        while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
            with self._lock:
                live = list(self._live)
            for player in live:
                player.cancel()
            for thread in threads:
                thread.join(0.02)

    # ----- in the worker threads ------------------------------------------------------
    def _work(self, engines: dict[int, Engine]) -> None:
        """Play games until none is left; `engines`: this thread's, one per AI player."""
        while not self._stopping.is_set():
            try:
                task = self._todo.get_nowait()
            except queue.Empty:
                return
            try:
                record = self._play(task, engines)
            except _Stopped:
                return
            except BaseException as err:
                if not self._stopping.is_set():
                    with self._lock:
                        self._errors.append(err)
                    self._wake.put(None)
                return
            with self._lock:
                self._records.append(record)
            self._wake.put(None)

    def _play(self, task: Task, engines: dict[int, Engine]) -> Record:
        """One game through the turn driver: each seat's player made up front (the AI on
        this thread's engine for that entrant, a program through the jury)."""
        from tui.play.driver import Driver, TurnError
        from tui.play.jury import Cancelled
        from tui.play.programs import CommandError
        from tui.play.session import Session

        game = task.start.copy()
        opening = len(game.history)
        specs = [self.players[who].spec for who in task.seats]
        # the random opening took nobody's time
        clock = Clock(self.control, [0.0] * game.players, [0.0] * opening)
        session = Session(game, specs, clock=clock)
        named = [self.players[who] for who in task.seats]
        broken: dict[int, str] = {}

        def make(spec: PlayerSpec) -> Player:
            raise CommandError(broken.get(session.to_move, "no player"))

        driver = Driver(session, make)
        for seat, entrant in enumerate(named):
            try:
                driver.players[seat] = self._player(entrant, engines)
            except CommandError as err:
                broken[seat] = str(err)
        began = time.perf_counter()
        try:
            while not game.is_over:
                if self._stopping.is_set():
                    raise _Stopped
                try:
                    turn = driver.turn()
                except TurnError:
                    continue  # a program that did not start: lost by the fault
                if turn is None or not driver.begin(turn):
                    raise MatchError(f"seat {session.to_move} has no player")
                try:
                    verdict = driver.run(turn, self._stop)
                except Cancelled:
                    raise _Stopped from None
                except Exception:
                    if self._stopping.is_set():  # a killed program's streams closed under it
                        raise _Stopped from None
                    raise
                if self._stopping.is_set():
                    raise _Stopped
                driver.settle(turn, verdict)
        finally:
            for player in driver.players.values():
                with self._lock:
                    self._live.discard(player)
            driver.close(kill=not game.is_over)
        record = Record(task, game, session.clock, opening, time.perf_counter() - began)
        if self.out is not None:
            record.path = self._save(record)
        return record

    def _player(self, entrant: Entrant, engines: dict[int, Engine]) -> Player:
        """The player of an entrant for one game: the AI on this thread's engine for it, a
        program started now (CommandError if it does not start), a built-in player."""
        from tui.play.players import AIPlayer
        from tui.play.seats import make_player

        spec = entrant.spec
        if entrant.index in engines:  # the AI, or an older revision's
            assert spec.level is not None
            engine = engines[entrant.index]
            return AIPlayer(spec.level, lambda: engine, spec.seconds)
        player = make_player(spec, self.cls)
        if spec.is_program:
            with self._lock:
                self._live.add(player)
        return player

    def _save(self, record: Record) -> Path:
        """Write the game as a save and, beside it, as a game record (the same name with
        the record's suffix); the save's path."""
        from saves.format import doc_from_game
        from saves.store import record_name, write_record, write_save

        assert self.out is not None
        path = self.out / save_name(record.task.number, len(self.tasks))
        specs = [self.players[p].spec for p in record.task.seats]
        doc = doc_from_game(record.game, specs, record.clock)
        write_save(path, doc)
        write_record(path.with_name(record_name(path.name)), doc)
        return path
