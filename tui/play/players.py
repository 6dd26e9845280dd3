"""Who plays a seat, behind one interface: `Player.move(game, clock, stop) -> Verdict`.

A person at the board (whose moves come from outside: `interactive`), the AI at a level,
another program over its contest protocol (`tui.play.jury.ProgramPlayer`, which already
speaks this interface), and the built-in random and greedy players. The turn driver
(`tui.play.driver`) asks whichever player holds the seat to move; a new kind of player
is one class. `move` blocks (run it in a worker thread where something must stay
responsive); `cancel` stops it from any other thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules import Clock, Game
from rules.outcome import OUTPUT_KEPT

if TYPE_CHECKING:
    from ai.engine import Engine, InfoCallback, SearchResult, StopFlag


@dataclass(frozen=True)
class Verdict:
    """The jury's verdict on one turn: the move, or the fault that loses the game.

    `reason` is the fault in words without the seat ("answered 'Z9\\n': Z9 is off the
    board"); `output` is what the program printed for this move, exactly.
    """

    move: Hashable | None
    seconds: float
    output: str = ""
    fault: str | None = None  # one of rules.outcome.FAULT_KINDS
    reason: str = ""
    stderr: str = ""
    result: SearchResult | None = None  # the AI's search, for the engine panel

    @property
    def ok(self) -> bool:
        return self.fault is None

    @property
    def kept_output(self) -> str:
        return self.output[:OUTPUT_KEPT]


class Player:
    """One seat's player for one game (made by the driver when the seat is first asked)."""

    interactive = False  # a person: the driver waits for `Driver.submit` instead

    def move(self, game: Game, clock: Clock, stop: StopFlag | None = None,
             info: InfoCallback | None = None) -> Verdict:
        """The move for `game` (a copy, the mover's turn) within `clock` (a copy): a
        verdict with the move, or the fault that loses the game. `stop` set from another
        thread ends it at once; `info` hears a search's progress."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Stop the move under way (from any thread)."""

    def close(self, kill: bool = True) -> None:
        """The game is over or left: nothing of this player may keep running."""

    def can_resume(self, game: Game, seat: int) -> bool:
        """Whether it can be asked for `seat`'s move in `game` after an undo or a load."""
        return True


class Person(Player):
    """A person at the board: the screen hands their moves to the driver."""

    interactive = True

    def move(self, game: Game, clock: Clock, stop: StopFlag | None = None,
             info: InfoCallback | None = None) -> Verdict:
        raise RuntimeError("a person's move comes from the board, not from `move`")


class AIPlayer(Player):
    """The engine at a level. Its time: the level's, cut to what the clock allows (the
    game clock shared over the moves to come), or `seconds` when given (tests, and
    `arena match`'s `ai:LEVEL@SECONDS`)."""

    def __init__(self, level: str, engine: Callable[[], Engine],
                 seconds: float | None = None) -> None:
        self.level = level
        self._engine = engine
        self.seconds = seconds

    def move(self, game: Game, clock: Clock, stop: StopFlag | None = None,
             info: InfoCallback | None = None) -> Verdict:
        engine = self._engine()
        budget = engine.budget(self.level)
        wanted = budget.seconds if self.seconds is None else self.seconds
        seat = game.to_move
        seconds = clock.ai_seconds(seat, wanted, game.moves_left_estimate(seat),
                                   moves_most=game.moves_left_most(seat))
        began = time.perf_counter()
        result = engine.search(game, budget.with_seconds(seconds), stop, info)
        return Verdict(result.move, time.perf_counter() - began, result=result)


class Computed(Player):
    """A player that is a function of the position (the built-in random and greedy)."""

    def __init__(self, choose: Callable[[Game], Hashable]) -> None:
        self._choose = choose

    def move(self, game: Game, clock: Clock, stop: StopFlag | None = None,
             info: InfoCallback | None = None) -> Verdict:
        began = time.perf_counter()
        move = self._choose(game)
        return Verdict(move, time.perf_counter() - began)
