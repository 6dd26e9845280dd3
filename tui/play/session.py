"""A game session without Textual: N participants, turns, the clock, undo/redo, the match,
AI requests.

The screens only render a `Session` and forward user intents to it, so the logic
here is tested without a terminal. Participants are the people/engines of a
match; the seats rotate from game to game by the rules' `MatchState`
(participant `p` holds mark `(p + i) % n` in game `i`).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules import Clock, ClockKind, Game, MatchState, MoveError, PlayerSpec, TimeControl, get_game
from rules.codecs import codec_of
from rules.outcome import FORFEITS, Outcome, Termination

if TYPE_CHECKING:
    from pathlib import Path

    from tui.play.jury import Verdict


@dataclass(frozen=True)
class AIRequest:
    """One question for the engine; `generation` names the position it was asked about.

    `seconds` is the most the clock lets the engine spend (None: no limit, the
    level's own time).
    """

    generation: int
    game: Game
    level: str
    purpose: str  # "move" or "hint"
    seconds: float | None = None


@dataclass
class OldLine:
    """The line a branch left, kept whole until the person confirms the new one (or goes
    back to it): its game, clock and redo moves, and the seconds of its move under way.
    `at` is how many moves the two lines share."""

    at: int
    game: Game
    clock: Clock
    redo: list[Hashable]
    elapsed: float

    @property
    def moves(self) -> int:
        """How many moves the old line has after the shared ones."""
        return len(self.game.history) - self.at


@dataclass(frozen=True)
class ProgramRequest:
    """One turn of a contest program: the position and the clock it is asked about (copies,
    for the worker thread), tagged with the generation they belong to."""

    generation: int
    game: Game
    clock: Clock
    mark: int
    player: PlayerSpec


class Session:
    """One match of one game between its participants (one per seat)."""

    def __init__(
        self,
        game: Game,
        participants: Sequence[PlayerSpec],
        *,
        match: MatchState | None = None,
        clock: Clock | None = None,
        control: TimeControl | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        n = game.players
        self.participants = tuple(participants)
        if len(self.participants) != n:
            raise ValueError(f"{game.title} takes {n} players, not {len(self.participants)}")
        self.game = game
        self.match = match or MatchState(type(game).match_rule, n)
        if self.match.players != n:
            raise ValueError(f"the match is for {self.match.players} players, the game {n}")
        if clock is None:
            clock = self._first_clock(game, control)
        elif len(clock.used) != n:
            raise ValueError(f"the clock counts {len(clock.used)} players, the game {n}")
        self.clock = clock
        self._start = type(game).from_start(game.options, game.start_native())
        self._now = now
        self._since = now()  # when the move under way started
        self._paused: float | None = None  # the move under way's seconds, clock paused
        self._pacing: int | None = None  # the generation a watched game's pause is for
        self.old_line: OldLine | None = None  # a branch's old line, until it is confirmed
        self.redo_stack: list[Hashable] = []
        self.generation = 0
        self.saved_generation: int | None = 0  # when last saved or loaded by name
        self.saved_to: Path | None = None  # the named save it was last saved to or loaded from
        self.saved_text: str | None = None  # saved_to's text as this session wrote or read it
        self.token = object()  # which game this is, for the autosave (a load brings its own)
        self.setup_options: dict[str, Any] | None = None  # as chosen, before a seed resolved them

    @staticmethod
    def _first_clock(game: Game, control: TimeControl | None) -> Clock:
        """The clock of a session without a saved one: `control`, else the clocks a native
        position gave (under the contest's control), else the game's default control."""
        left = codec_of(type(game)).start_seconds_left(game)
        contest = type(game).clock
        if control is None and left is not None and contest.kind is ClockKind.GAME:
            return Clock(contest, [max(0.0, contest.seconds - s) for s in left])
        clock = Clock.start(control or type(game).offered_time_controls()[0], game.players)
        return clock

    @classmethod
    def new(cls, game_name: str, participants: Sequence[PlayerSpec],
            options: dict[str, Any] | None = None, seed: int | None = None,
            control: TimeControl | None = None,
            now: Callable[[], float] = time.monotonic) -> Session:
        session = cls(get_game(game_name).new(options, seed), participants, control=control,
                      now=now)
        session.setup_options = dict(options or {})
        return session

    def again(self) -> Session:
        """A new game with the same players, options and clock: a fresh seed for a game set
        up by its options; the same start position for a loaded one (its options are the
        board itself)."""
        if self.setup_options is not None:
            game = type(self.game).new(self.setup_options, None)
        else:
            game = self._start.copy()
        session = Session(game, self.participants, control=self.control, now=self._now)
        session.setup_options = self.setup_options
        return session

    def reseat(self, players: dict[int, PlayerSpec]) -> None:
        """Give the seats (marks) of the current game to other players (a program the
        person would not run gives its seat to the AI or a person)."""
        seated = list(self.participants)
        for mark, spec in players.items():
            seated[self.participant_of(mark)] = spec
        self.participants = tuple(seated)
        self._changed()

    # ----- who plays what ----------------------------------------------------
    @property
    def players(self) -> int:
        return self.game.players

    @property
    def marks(self) -> tuple[str, ...]:
        return self.game.marks

    def participant_of(self, mark: int) -> int:
        return self.match.participant_of(mark)

    def mark_of(self, participant: int) -> int:
        return self.match.mark_of(participant)

    def player(self, mark: int) -> PlayerSpec:
        """The player holding `mark` in the current game."""
        return self.participants[self.participant_of(mark)]

    @property
    def players_by_mark(self) -> tuple[PlayerSpec, ...]:
        return tuple(self.player(m) for m in range(self.players))

    def label(self, mark: int) -> str:
        """Who holds `mark`, as the panels show it."""
        return self.label_of(self.participant_of(mark))

    def label_of(self, participant: int) -> str:
        """The participant's label; numbered when others share it ("Human 1", "Human 2"),
        so a match standing between people says who is who."""
        from rules.players import labels

        return labels(self.participants)[participant]

    @property
    def to_move(self) -> int:
        return self.game.to_move

    @property
    def ai_to_move(self) -> bool:
        return not self.game.is_over and self.player(self.to_move).is_ai

    @property
    def program_to_move(self) -> bool:
        """A contest program (not a person, not the AI) is to move."""
        return not self.game.is_over and self.player(self.to_move).is_program

    @property
    def machine_to_move(self) -> bool:
        """The AI or a program is to move: no person may play now."""
        return not self.game.is_over and not self.player(self.to_move).is_human

    @property
    def has_human(self) -> bool:
        """Whether a person plays (a program is nobody at the keyboard)."""
        return any(p.is_human for p in self.participants)

    @property
    def has_program(self) -> bool:
        return any(p.is_program for p in self.participants)

    @property
    def has_ai(self) -> bool:
        return any(p.is_ai for p in self.participants)

    # ----- the clock ------------------------------------------------------------
    @property
    def control(self) -> TimeControl:
        return self.clock.control

    def elapsed(self) -> float:
        """Seconds the mover has spent on the move under way (0 once the game is over;
        frozen while the clock is paused)."""
        if self.game.is_over or self.pacing:
            return 0.0
        if self._paused is not None:
            return self._paused
        return max(0.0, self._now() - self._since)

    @property
    def pacing(self) -> bool:
        """Whether the game waits out the pause before a machine's move (`pace_clock`)."""
        return self._pacing is not None and self._pacing == self.generation

    def pace_clock(self) -> None:
        """The pause a watched game makes before a machine's move is nobody's time: the
        move timer stands at zero until `hold_clock` starts the move (or the position
        changes), so neither the clock shown nor a flag check counts the pause."""
        self._pacing = self.generation

    @property
    def clock_paused(self) -> bool:
        return self._paused is not None

    def pause_clock(self) -> None:
        """Stop the move under way's timer (the person looks at an earlier move): the time
        until `resume_clock` is nobody's."""
        if self._paused is None:
            self._paused = self.elapsed()

    def resume_clock(self, at_least: float = 0.0) -> None:
        """Start the paused timer again where it stopped; `at_least`: the seconds the
        mover is known to have thought (a machine that answered while the clock was
        paused is charged its own measured time)."""
        if self._paused is not None:
            self._since = self._now() - max(self._paused, at_least)
            self._paused = None

    def _running(self, mark: int) -> float:
        return self.elapsed() if mark == self.to_move else 0.0

    def clock_spent(self, mark: int) -> float:
        """All the time `mark` has thought in this game, the running move included."""
        return self.clock.spent(mark, self._running(mark))

    def clock_left(self, mark: int) -> float | None:
        """What `mark` has left (of the move under way for a move clock); None: no limit.
        A player whose time ran out has none left."""
        outcome = self.game.outcome
        if outcome is not None and outcome.kind is Termination.TIME and outcome.loser == mark:
            return 0.0
        return self.clock.left(mark, self._running(mark))

    def _charge(self) -> float:
        """Bill the running move to the mover and restart the move timer; the seconds."""
        now = self._now()
        spent = 0.0 if self.pacing else \
            self._paused if self._paused is not None else max(0.0, now - self._since)
        self._pacing = None
        if not self.game.is_over:
            self.clock.charge(self.to_move, spent)
        self._since = now
        if self._paused is not None:
            self._paused = 0.0
        return spent

    def hold_clock(self, kept: float = 0.0) -> None:
        """Set the move timer to `kept` seconds without charging anyone for the time since:
        nobody's thinking (the AI to move waits for its kernels to compile: 0; a person
        waiting for a hint keeps what they thought before asking)."""
        self._since = self._now() - kept
        self._pacing = None
        if self._paused is not None:
            self._paused = kept

    def check_time(self) -> bool:
        """End the game if the mover has run out of time; True if it just ended so."""
        game = self.game
        if game.is_over or not self.clock.flagged(self.to_move, self.elapsed()):
            return False
        mover = self.to_move
        self._charge()
        game.forfeit(mover, Termination.TIME, f"{game.seat_name(mover)} ran out of time")
        self._changed()
        return True

    # ----- moves -----------------------------------------------------------------
    def _changed(self) -> None:
        self.generation += 1

    def play(self, move: Hashable) -> None:
        """Play a legal move for the mover (MoveError, nothing changed, otherwise).

        A mover whose time has run out loses instead (the game ends, MoveError).
        """
        self.check_time()
        if not self.game.is_legal(move):
            self.game.play(move)  # raises the rules' own one-line MoveError
        self.clock.forget(len(self.game.history))
        spent = self._charge()
        self.game.play(move)
        self.clock.record(spent)
        self.redo_stack.clear()
        self._changed()

    def now(self) -> float:
        """The session's clock (the app's, or a test's fake one)."""
        return self._now()

    def position_after_undo(self) -> Game:
        """The position an undo now would leave (a copy; the flag taken back too)."""
        probe = self.game.copy()
        if self.forfeited:
            probe.resume()
        for _ in range(self._steps_back()):
            if not probe.history:
                break
            probe.undo()
        return probe

    def position_at(self, k: int) -> Game:
        """The position after the game's first `k` moves (a copy; a forfeit taken back)."""
        probe = self.game.copy()
        probe.resume()
        while len(probe.history) > max(0, k):
            probe.undo()
        return probe

    # ----- a new line from an earlier move ----------------------------------------------
    def branch(self, k: int, move: Hashable) -> None:
        """Play `move` after the first `k` moves as a new line (MoveError, nothing changed,
        if there is no such earlier move or the move is illegal there). The line it leaves
        is kept in `old_line` until `confirm_branch` or `restore_old_line`.

        The clocks go as an undo takes them: the move under way is charged to its mover,
        the time already thought stays spent, and the move times after move `k` are
        dropped; the new move itself is charged nothing (it was chosen while looking)."""
        game = self.game
        if not 0 <= k < len(game.history):
            raise MoveError(f"there is no earlier move {k} to play on from")
        probe = self.position_at(k)
        if probe.is_over:
            raise MoveError(f"the game is over after move {k}")
        if not probe.is_legal(move):
            probe.play(move)  # raises the rules' own one-line MoveError
        if self.old_line is None:
            self.old_line = OldLine(k, game.copy(), copy.deepcopy(self.clock),
                                    list(self.redo_stack), self.elapsed())
        else:  # a branch of a branch: the old line is still the confirmed one
            self.old_line.at = min(self.old_line.at, k)
        self._charge()
        self._paused = None
        game.resume()
        while len(game.history) > k:
            game.undo()
        self.clock.forget(k)
        self.redo_stack.clear()
        self._since = self._now()
        self.play(move)

    def confirm_branch(self) -> None:
        """The new line is the game: the old one is dropped."""
        if self.old_line is None:
            raise MoveError("there is no new line to keep")
        self.old_line = None
        self._changed()

    def restore_old_line(self) -> None:
        """Back to the end of the old line, as it was left (its clock, its redo moves, its
        move under way's time); the new line is dropped."""
        old = self.old_line
        if old is None:
            raise MoveError("there is no old line to go back to")
        game, moves = self.game, old.game.history
        game.resume()
        shared = 0
        for a, b in zip(game.history, moves, strict=False):
            if a != b:
                break
            shared += 1
        while len(game.history) > shared:
            game.undo()
        for move in moves[shared:]:
            game.play(move)
        game.ended = old.game.ended
        self.clock = old.clock
        self.redo_stack = list(old.redo)
        self._paused = None
        self._since = self._now() - old.elapsed
        self.old_line = None
        self._changed()

    def _steps_back(self) -> int:
        """How many moves one undo takes back: vs the AI or a program, back to a person's
        last turn."""
        if not self.game.history:
            return 0
        if not self.has_human:
            return 1
        probe = self.game.copy()
        if self.forfeited:  # a flag or a fault is taken back with the moves
            probe.resume()
        steps = 0
        while probe.history:
            probe.undo()
            steps += 1
            if self.player(probe.to_move).is_human:
                return steps
        return 0  # only machines' moves: taking them back would only have them played again

    def _first_mover(self) -> int:
        probe = self.game.copy()
        probe.resume()
        while probe.history:
            probe.undo()
        return probe.to_move

    @property
    def lost_on_time(self) -> bool:
        outcome = self.game.outcome
        return outcome is not None and outcome.kind is Termination.TIME

    @property
    def forfeited(self) -> bool:
        """The game ended by a forfeit (time, or a program's fault): undo takes it back."""
        outcome = self.game.outcome
        return outcome is not None and outcome.kind in FORFEITS

    def undo(self) -> list[Hashable]:
        """Take moves back (see `_steps_back`); MoveError if there is none.

        After a loss on time (or a program's fault) the game resumes first, so undo also
        takes a flag back; but not under a game clock, which an undo gives no time back:
        the flag would fall again at once, on a record short of its last moves.
        """
        if self.lost_on_time and self.control.kind is ClockKind.GAME:
            loser = self.game.outcome.loser  # type: ignore[union-attr]
            raise MoveError(f"{self.game.seat_name(loser)}'s time is spent and an undo gives "
                            "no time back under a game clock: the loss on time stands "
                            "(v replays the game, n starts a new one)")
        resumed = self.forfeited
        if resumed:
            self.game.resume()
            self._since = self._now()  # the time since the flag was nobody's move
        steps = self._steps_back()
        if not steps and not resumed:
            if self.game.history:  # the machines opened: an undo would only replay them
                first = self.label(self._first_mover())
                raise MoveError(f"there is no move of yours to take back ({first} opened the "
                                "game); n starts a new game")
            raise MoveError("there is no move to undo")
        self._charge()
        undone = [self.game.undo() for _ in range(steps)]
        self.clock.forget(len(self.game.history))
        self.redo_stack.extend(undone)
        self._changed()
        return undone

    def redo(self) -> list[Hashable]:
        """Replay undone moves until a person is to move again (one move if no person)."""
        if not self.redo_stack:
            raise MoveError("there is no move to redo")
        if self.game.is_over:
            raise MoveError("the game is over")
        self._charge()
        done: list[Hashable] = []
        while self.redo_stack:
            move = self.redo_stack.pop()
            self.game.play(move)
            self.clock.forget(len(self.game.history) - 1)
            self.clock.record(0.0)  # its thinking was charged before the undo
            done.append(move)
            if not self.has_human or not self.machine_to_move or self.game.is_over:
                break
        self._changed()
        return done

    # ----- AI requests ---------------------------------------------------------------
    def request(self, purpose: str = "move", level: str | None = None) -> AIRequest:
        """A snapshot of the position for the engine, tagged with the current generation.

        The clock caps the engine's time: the mover's clock (a hint spends the
        person's own time).
        """
        if level is None:
            mover = self.player(self.to_move)
            level = mover.level if mover.is_ai and mover.level else "medium"
        seconds = None
        if self.control.limited:
            seconds = self.clock.ai_seconds(self.to_move, float("inf"),
                                            self.game.moves_left_estimate(self.to_move),
                                            self.elapsed(),
                                            self.game.moves_left_most(self.to_move))
        return AIRequest(self.generation, self.game.copy(), level, purpose, seconds)

    def is_current(self, request: AIRequest | ProgramRequest) -> bool:
        return request.generation == self.generation

    def accept(self, request: AIRequest, move: Hashable) -> bool:
        """Play the AI's reply if it is for the position still on the board, in time."""
        if not self.is_current(request) or not self.ai_to_move:
            return False
        if self.check_time():
            return False
        self.play(move)
        return True

    # ----- contest programs ----------------------------------------------------------------
    def program_request(self) -> ProgramRequest:
        """The program's turn, from now: its move timer starts here (a watched game's pace
        is nobody's thinking), and the clock copy says what it has left."""
        if not self.program_to_move:
            raise MoveError("no program is to move")
        self.hold_clock()
        mark = self.to_move
        return ProgramRequest(self.generation, self.game.copy(), copy.deepcopy(self.clock),
                              mark, self.player(mark))

    def fault_reason(self, mark: int, reason: str) -> str:
        """A fault in words with the seat: "O (greedy.py) answered 'Z9\\n': ..."."""
        return f"{self.game.seat_name(mark)} ({self.label(mark)}) {reason}"

    def judge(self, request: ProgramRequest, verdict: Verdict) -> bool:
        """Apply the jury's verdict if it is about the position still on the board: play
        the move, or end the game (a timeout is a loss on time, any other fault a loss by
        fault, keeping the program's output). The jury's time is what is charged."""
        if not self.is_current(request) or not self.program_to_move:
            return False
        return self.judge_turn(self.to_move, verdict)

    def judge_turn(self, mark: int, verdict: Verdict) -> bool:
        """Apply a machine's verdict for the mover `mark` (the caller has checked that it
        is about the position on the board), charging the time it measured: one that took
        longer than its clock allows loses on time."""
        self._since = self._now() - max(0.0, verdict.seconds)
        if verdict.ok:
            if not self.check_time():
                self.play(verdict.move)
            return True
        kind = Termination.TIME if verdict.fault == "timeout" else Termination.FAULT
        self._charge()
        self.game.forfeit(mark, kind, self.fault_reason(mark, verdict.reason),
                          fault=verdict.fault, output=verdict.output)
        self._changed()
        return True

    def forfeit_program(self, mark: int, fault: str, reason: str, output: str = "") -> None:
        """The program holding `mark` loses without a verdict (its command did not start)."""
        if self.game.is_over:
            return
        self._charge()
        self.game.forfeit(mark, Termination.FAULT, self.fault_reason(mark, reason),
                          fault=fault, output=output)
        self._changed()

    # ----- saved or not -------------------------------------------------------------------
    def mark_saved(self) -> None:
        """The session as it stands is in a named save (just saved, or just loaded)."""
        self.saved_generation = self.generation

    def mark_unsaved(self) -> None:
        """The session is in no named save (resumed from an autosave)."""
        self.saved_generation = None

    @property
    def unsaved(self) -> bool:
        """Whether leaving now loses something: the session changed since its last named
        save or load and has something to lose (a move, or a finished game of the match)."""
        if self.saved_generation == self.generation:
            return False
        return bool(self.game.history) or self.match.index > 0

    @property
    def in_progress(self) -> bool:
        """A game to come back to: not over, or over with the match's next game to come."""
        return not self.game.is_over or self.has_next_game

    # ----- the match -----------------------------------------------------------------------
    @property
    def game_number(self) -> int:
        return self.match.index + 1

    @property
    def has_next_game(self) -> bool:
        return self.game.is_over and self.match.index + 1 < self.match.length

    @property
    def match_over(self) -> bool:
        return self.game.is_over and self.match.index + 1 >= self.match.length

    def standing(self) -> list[float]:
        """Per participant, the match rule's standing over the finished games (this one
        included once it is over)."""
        return self.match.standing(self.game.outcome)

    def leaders(self) -> list[int]:
        return self.match.rule.leaders(self.standing())

    def next_game(self) -> None:
        """Start the match's next game: same start position, the seats rotate."""
        if not self.has_next_game:
            raise MoveError("there is no next game in this match")
        outcome = self.game.outcome
        assert isinstance(outcome, Outcome)
        self.match.results.append(outcome)
        self.match.index += 1
        self.game = self._start.copy()
        self.clock = Clock.start(self.control, self.players)
        self._since = self._now()
        self._paused = None
        self.old_line = None  # the finished game's line is the one the match counts
        self.redo_stack.clear()
        self._changed()

    # ----- the result in words -----------------------------------------------------------
    def result_lines(self, explanation: Sequence[str]) -> list[str]:
        """Who won and how, from the outcome value: the heading, then `explanation` (the
        board's own account of the ending), with a program's fault and exact output."""
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        marks = [game.seat_name(m) for m in range(game.players)]
        if outcome.is_draw:
            head = "Draw"
        elif len(outcome.winners) > 1:  # a forfeit in a game of three or more players
            head = " and ".join(f"{self.label(w)} ({marks[w]})" for w in outcome.winners)
            head += " win"
        else:
            winner = outcome.winners[0]
            name = self.label(winner)
            verb = "win" if name == "You" else "wins"  # "You win", "AI (hard) wins"
            head = f"{name} {verb} as {marks[winner]}"
        if self.match.length > 1:
            head = f"Game {self.game_number} of {self.match.length}: {head}"
        lines = [head, *explanation]
        if outcome.fault is not None:  # a program's fault: the kind and its exact output
            from tui.play.jury import quote

            lines.insert(2, f"Fault: {outcome.fault}; its output: {quote(outcome.output or '')}")
        return lines

    def match_lines(self) -> list[str]:
        """The match's standing by its rule, and who wins it."""
        rule = self.match.rule
        standing = self.standing()
        first = [self.game.seat_name(m) for m in range(self.players)]  # p held p in game 1
        lines = [f"Match result ({rule.title}):"]
        for p, value in enumerate(standing):
            lines.append(f"  {self.label_of(p)} (first {first[p]}): {rule.number(value)}")
        leaders = rule.leaders(standing)
        if len(leaders) == len(standing):
            lines.append("The match is drawn.")
        else:
            names = " and ".join(f"{self.label_of(p)} (first {first[p]})" for p in leaders)
            lines.append(f"{names} {'win' if len(leaders) > 1 else 'wins'} the match.")
        return lines

    def rotation(self) -> str:
        """How the seats change for the match's next game."""
        return "sides swapped" if self.players == 2 else "the seats rotate"

    def replace(self, other: Session) -> None:
        """Take over another session's state (a loaded game), as one more change."""
        generation = self.generation
        self.__dict__.update(other.__dict__)
        self.generation = max(generation, other.generation) + 1
