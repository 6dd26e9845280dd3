"""The one turn driver: every place a game is played asks it whose turn it is and hands it
the answers.

A `Driver` owns a `Session` (the game, the participants, the match, the clock, undo and
redo) and the `Player` of each seat (`tui.play.players`), made when the seat is first
asked. A machine's turn goes in three steps, so that a screen can run the middle one in
a worker thread and a headless loop can run them in a row:

1. `turn()` says what is to be done: nothing (the game is over, or a person is to move),
   or a `Turn` with its pace: the pause a watched game makes first, which is nobody's
   time;
2. `run(turn)` asks the player (blocking): the clock starts here, never during the pause;
3. `settle(turn, verdict)` plays the move, or ends the game by the fault or the flag,
   if the turn is still the position on the board (an undo or a load drops it).

A person's move is `submit(move)`. Looking at an earlier move (`view`) pauses the game:
no machine's turn starts, one under way finishes but its answer is held until the person
comes back to the end (`live`), and the clock of the move under way stops meanwhile (the
looking is nobody's time). A person's move from there (`branch`) starts a new line; the
old one is kept until `confirm_branch` (or `restore_old_line` goes back to it).

`undo` refuses what a whole-game program could not follow. `play_game` is the headless
loop (`arena match`, tests): a test can play any game between any players with a fake
clock and no Textual at all. Nothing here imports
Textual.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules import Clock, Game, MoveError, PlayerSpec
from rules.outcome import Outcome, Termination
from tui.play.players import Player, Verdict
from tui.play.seats import make_player
from tui.play.session import Session

if TYPE_CHECKING:
    from ai.engine import InfoCallback, StopFlag

PlayerFactory = Callable[[PlayerSpec], Player]


@dataclass
class Turn:
    """A machine's turn: asked about `game` (a copy) at `generation`, within `clock` (a
    copy, taken when the turn runs), after a pause of `pace` seconds (nobody's time)."""

    generation: int
    mark: int
    spec: PlayerSpec
    player: Player
    game: Game
    pace: float = 0.0
    clock: Clock | None = None
    began: float = 0.0  # when the player was asked (the driver's clock)
    cancelled: bool = field(default=False, repr=False)


class TurnError(Exception):
    """A player could not be asked (its command names no program, it cannot join a game in
    progress): one line, and the game stays as it is (or ends by the fault, `ended`)."""

    def __init__(self, message: str, ended: bool = False) -> None:
        super().__init__(message)
        self.ended = ended


class Driver:
    """Plays one session's turns; see the module."""

    def __init__(self, session: Session, make: PlayerFactory | None = None,
                 pace: float = 0.0, closed: Callable[[Player], None] | None = None) -> None:
        self.session = session
        self._make = make or (lambda spec: make_player(spec, type(session.game)))
        self._closed = closed  # told of each player once it is closed
        self.pace = pace  # the pause before a machine's move when no person plays
        self.players: dict[int, Player] = {}  # participant -> its player, made when asked
        self.current: Turn | None = None  # the turn being played
        self.viewing: int | None = None  # the earlier move looked at (None: the end)
        self.held: tuple[Turn, Verdict] | None = None  # an answer that came while looking

    # ----- what is to be done -------------------------------------------------------
    def player(self, mark: int) -> Player:
        """The player of `mark` in the current game (made now if it is the first ask);
        TurnError if it cannot be made."""
        s = self.session
        participant = s.participant_of(mark)
        player = self.players.get(participant)
        if player is None:
            try:
                player = self._make(s.participants[participant])
            except ValueError as err:  # a CommandError: the command names no program
                raise TurnError(str(err)) from None
            self.players[participant] = player
        return player

    def machine_to_move(self) -> bool:
        s = self.session
        return not s.game.is_over and not s.player(s.to_move).is_human

    def turn(self) -> Turn | None:
        """The machine's turn to play now, or None (over, a person's turn, or the person
        is looking at an earlier move). A program that cannot be started loses at once by
        the fault 'start' (TurnError, `ended`)."""
        s = self.session
        if not self.machine_to_move() or self.viewing is not None:
            return None
        mark = s.to_move
        try:
            player = self.player(mark)
        except TurnError as err:
            s.forfeit_program(mark, "start", f"did not start: {err}")
            raise TurnError(str(err), ended=True) from None
        pace = self.pace if not s.has_human and s.game.history else 0.0
        return Turn(s.generation, mark, s.player(mark), player, s.game.copy(), pace)

    def current_turn(self, turn: Turn) -> bool:
        return turn.generation == self.session.generation and not self.session.game.is_over

    # ----- a machine's turn -----------------------------------------------------------
    def begin(self, turn: Turn) -> bool:
        """Start the turn's clock (the pause before it was nobody's time); False if the
        position changed since. TurnError if a whole-game program cannot play here."""
        if not self.current_turn(turn) or self.viewing is not None:
            return False
        if not turn.player.can_resume(turn.game, turn.mark):
            raise TurnError(f"{self.session.label(turn.mark)} cannot join a game in progress "
                            "(a whole-game program): start a new game")
        s = self.session
        s.hold_clock()
        turn.clock = Clock(s.clock.control, list(s.clock.used), list(s.clock.moves))
        turn.began = s.now()
        self.current = turn
        return True

    def run(self, turn: Turn, stop: StopFlag | None = None,
            info: InfoCallback | None = None) -> Verdict:
        """Ask the turn's player (blocking; call `begin` first). Cancelled (from the jury)
        propagates when the turn was cancelled."""
        assert turn.clock is not None
        return turn.player.move(turn.game, turn.clock, stop, info)

    def settle(self, turn: Turn, verdict: Verdict) -> bool:
        """Apply the verdict if the turn is still the position on the board: play its move,
        or end the game (a timeout is a loss on time, any other fault a loss by fault,
        keeping the program's output). Every machine is charged the time it measured (a
        program the jury's, an AI its search's), not the wait for the board to take its
        answer (drawing, a busy machine). False if nothing was applied."""
        if self.current is turn:
            self.current = None
        s = self.session
        if not self.current_turn(turn) or turn.cancelled:
            return False
        if self.viewing is not None:  # the person is looking back: it waits for `live`
            self.held = (turn, verdict)
            return False
        return s.judge_turn(turn.mark, verdict)

    def cancel(self) -> None:
        """Stop the turn under way (an undo, a load, leaving): its answer is dropped."""
        self.held = None
        turn, self.current = self.current, None
        if turn is not None:
            turn.cancelled = True
            turn.player.cancel()

    # ----- a person's turn --------------------------------------------------------------
    def submit(self, move: Hashable) -> None:
        """A person's move (MoveError, nothing changed, if it is illegal or not their turn;
        a person whose time has run out loses instead)."""
        s = self.session
        if self.machine_to_move():
            raise MoveError(f"it is {s.label(s.to_move)}'s turn")
        s.play(move)

    # ----- looking back, and a new line from there -------------------------------------
    @property
    def moves(self) -> int:
        return len(self.session.game.history)

    def view(self, k: int) -> None:
        """Look at the position after the first `k` moves (the last move or beyond: back
        to the end, `live`). The game in progress waits: see the module."""
        if k >= self.moves:
            self.live()
            return
        if self.viewing is None:
            self.session.pause_clock()
        self.viewing = max(0, k)

    def shown(self) -> int:
        """How many moves the position on show has."""
        return self.moves if self.viewing is None else self.viewing

    def view_game(self) -> Game:
        """The position looked at (a copy), or the game itself at the end."""
        if self.viewing is None:
            return self.session.game
        return self.session.position_at(self.viewing)

    def live(self) -> tuple[Turn, Verdict] | None:
        """Back to the end: the clock goes on, and a machine's answer that came meanwhile
        is played (charged its own measured time); that turn and verdict, if one was."""
        if self.viewing is None:
            return None
        self.viewing = None
        held, self.held = self.held, None
        if held is None:
            self.session.resume_clock()
            return None
        turn, verdict = held
        self.session.resume_clock(at_least=verdict.seconds)
        return held if self.settle(turn, verdict) else None

    def person_at_view(self) -> bool:
        """Whether a person is to move in the position looked at (a new line may start)."""
        game = self.view_game()
        s = self.session
        return not game.is_over and s.player(game.to_move).is_human

    def branch(self, move: Hashable) -> None:
        """A person's move at the earlier position looked at: a new line from there
        (`Session.branch`); MoveError, nothing changed, if it is not a person's turn
        there or the move is illegal."""
        k = self.viewing
        if k is None:
            raise MoveError("look at an earlier move first")
        s = self.session
        game = self.view_game()
        if not s.player(game.to_move).is_human:
            raise MoveError(f"after move {k} it is {s.label(game.to_move)}'s turn")
        problem = self.undo_problem(game)
        if problem is not None:
            raise MoveError(problem)
        s.branch(k, move)  # MoveError before anything changed
        self.cancel()  # a turn under way was about the old line
        self.viewing = None

    def forget_view(self) -> None:
        """Another game on the board (new, loaded, the match's next): nothing looked at."""
        self.held = None
        self.viewing = None
        self.session.resume_clock()

    def confirm_branch(self) -> None:
        self.session.confirm_branch()

    def restore_old_line(self) -> None:
        """Back to the end of the old line (a turn under way in the new one is dropped)."""
        if self.session.old_line is None:
            raise MoveError("there is no old line to go back to")
        self.cancel()
        self.viewing = None
        self.session.restore_old_line()

    # ----- undo and redo ----------------------------------------------------------------
    def undo_problem(self, probe: Game | None = None) -> str | None:
        """Why an undo now (or going back to `probe`, an earlier position) would leave a
        whole-game program unable to go on (None: it would not): such a program cannot
        take moves back."""
        s = self.session
        if not s.has_program:
            return None
        from tui.play.jury import can_join

        probe = s.position_after_undo() if probe is None else probe
        thinking = self.current.player if self.current is not None else None
        for participant, spec in enumerate(s.participants):
            if not spec.is_program:
                continue
            mark = s.mark_of(participant)
            player = self.players.get(participant)
            if player is None or player is thinking:  # none, or the undo kills it: as a
                ok = can_join(type(s.game), probe, mark)  # fresh start would find it
            else:
                ok = player.can_resume(probe, mark)
            if not ok:
                return (f"{s.label_of(participant)} is a whole-game program and cannot take "
                        "moves back: start a new game")
        return None

    def undo(self) -> list[Hashable]:
        """Take moves back (`Session.undo`); MoveError if there is none or a program could
        not follow."""
        self.live()  # from an earlier move looked at, undo starts from the end
        problem = self.undo_problem()
        if problem is not None:
            raise MoveError(problem)
        self.cancel()
        return self.session.undo()

    def redo(self) -> list[Hashable]:
        self.live()
        self.cancel()
        return self.session.redo()

    # ----- the end -----------------------------------------------------------------------
    def close(self, kill: bool = True) -> None:
        """End every player (the game is over, left or replaced): a program not killed is
        told the game is over first."""
        self.cancel()
        players, self.players = list(self.players.values()), {}
        for player in players:
            try:
                player.close(kill)
            except Exception:  # noqa: BLE001 - closing the others is what matters
                pass
            if self._closed is not None:
                self._closed(player)

    def next_game(self) -> None:
        """The match's next game: the seats rotate, so its players are made again."""
        self.close(kill=False)
        self.viewing = None
        self.session.next_game()

    # ----- headless ------------------------------------------------------------------------
    def play_game(self, stop: StopFlag | None = None,
                  wait: Callable[[float], None] = time.sleep,
                  on_move: Callable[[Turn, Verdict], None] | None = None) -> Outcome:
        """Play the current game to its end between machine players, in this thread (a
        person's turn is a MoveError); `stop` set from another thread ends the move under
        way and the game stays unfinished (RuntimeError)."""
        s = self.session
        try:
            while not s.game.is_over:
                if stop is not None and stop.is_set:
                    raise RuntimeError("the game was stopped")
                try:
                    turn = self.turn()
                except TurnError as err:
                    if err.ended:
                        continue
                    raise
                if turn is None:
                    raise MoveError(f"{s.label(s.to_move)} is a person: a headless game "
                                    "has nobody to ask")
                if turn.pace:
                    wait(turn.pace)
                if not self.begin(turn):
                    continue
                verdict = self.run(turn, stop)
                if stop is not None and stop.is_set:
                    raise RuntimeError("the game was stopped")
                if self.settle(turn, verdict) and on_move is not None:
                    on_move(turn, verdict)
        finally:
            self.close(kill=not s.game.is_over)
        outcome = s.game.outcome
        assert outcome is not None
        return outcome


def lost_on_time(outcome: Outcome | None) -> bool:
    return outcome is not None and outcome.kind is Termination.TIME
