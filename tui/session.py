"""A game session without Textual: players, turns, clocks, undo/redo, the match, AI requests.

The screens only render a `Session` and forward user intents to it, so the logic
here is tested without a terminal. Participants are the two people/engines of
a match; in game `i` participant `p` plays mark `(p + i) % 2` (sides swap).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import Game, MoveError, get_game

LEVELS = ("easy", "medium", "hard", "max")  # mirrors ai.engine.LEVELS without importing numba


@dataclass(frozen=True)
class Player:
    """Who plays a side: a human, or the AI at a level (same shape as saves' PlayerSpec)."""

    kind: str = "human"
    level: str | None = None
    name: str | None = None

    @classmethod
    def parse(cls, text: str) -> Player:
        """`human` or `ai:LEVEL` (LEVEL one of easy, medium, hard, max)."""
        t = text.strip().lower()
        if t == "human":
            return cls("human")
        if t.startswith("ai"):
            level = t[3:] if t.startswith("ai:") else "hard"
            if level not in LEVELS:
                raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
            return cls("ai", level)
        raise ValueError(f"{text!r} is not a player: use human or ai:LEVEL")

    @classmethod
    def of(cls, spec: Any) -> Player:
        """Copy any object with `kind`, `level`, `name` (e.g. saves.format.PlayerSpec).

        An AI without a level (`ai` alone on the command line) plays at hard.
        """
        level = getattr(spec, "level", None)
        if spec.kind == "ai" and level is None:
            level = "hard"
        return cls(spec.kind, level, getattr(spec, "name", None) or None)

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"

    @property
    def code(self) -> str:
        return f"ai:{self.level}" if self.is_ai else "human"

    def label(self, only_human: bool = False) -> str:
        """The name if set, else You (the one human against the AI), Human or AI (level)."""
        if self.name:
            return self.name
        if self.is_ai:
            return f"AI ({self.level})"
        return "You" if only_human else "Human"


@dataclass
class MatchState:
    """Where a match stands: `results[i]` holds game i's points per mark."""

    length: int = 1
    index: int = 0
    results: list[tuple[int, ...]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"length": self.length, "index": self.index,
                "results": [list(r) for r in self.results]}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None, length: int) -> MatchState:
        if not data:
            return cls(length)
        return cls(int(data.get("length", length)), int(data.get("index", 0)),
                   [tuple(int(p) for p in r) for r in data.get("results", [])])


@dataclass(frozen=True)
class AIRequest:
    """One question for the engine; `generation` names the position it was asked about."""

    generation: int
    game: Game
    level: str
    purpose: str  # "move" or "hint"


class Session:
    """One match of one game between two participants."""

    def __init__(
        self,
        game: Game,
        players: Sequence[Any],
        *,
        match: MatchState | None = None,
        clocks: Sequence[float] | None = None,
        now: Callable[[], float] = time.monotonic,
        start: Game | None = None,
    ) -> None:
        self.game = game
        self.participants = tuple(Player.of(p) for p in players)
        if len(self.participants) != 2:
            raise ValueError("a session needs two players")
        self.match = match or MatchState(type(game).match_length)
        self._start = start or self._start_of(game)
        self.clocks = [float(c) for c in clocks] if clocks else [0.0, 0.0]
        self._now = now
        self._since = now()
        self.redo_stack: list[Hashable] = []
        self.generation = 0

    @staticmethod
    def _start_of(game: Game) -> Game:
        return type(game).from_start(game.options, game.start_native())

    @classmethod
    def new(cls, game_name: str, players: Sequence[Any], options: dict[str, Any] | None = None,
            seed: int | None = None, **kw: Any) -> Session:
        return cls(get_game(game_name).new(options, seed), players, **kw)

    # ----- who plays what ----------------------------------------------------
    def participant_of(self, mark: int) -> int:
        return (mark + self.match.index) % 2

    def mark_of(self, participant: int) -> int:
        return (participant + self.match.index) % 2

    def player(self, mark: int) -> Player:
        """The player holding `mark` in the current game."""
        return self.participants[self.participant_of(mark)]

    @property
    def players_by_mark(self) -> tuple[Player, Player]:
        return self.player(0), self.player(1)

    def label(self, mark: int) -> str:
        """Who holds `mark`, as the panels show it."""
        humans = sum(not p.is_ai for p in self.participants)
        return self.player(mark).label(only_human=humans == 1)

    @property
    def to_move(self) -> int:
        return self.game.to_move

    @property
    def ai_to_move(self) -> bool:
        return not self.game.is_over and self.player(self.to_move).is_ai

    @property
    def has_human(self) -> bool:
        return any(not p.is_ai for p in self.participants)

    @property
    def has_ai(self) -> bool:
        return any(p.is_ai for p in self.participants)

    # ----- clocks --------------------------------------------------------------
    def clock(self, mark: int) -> float:
        """Seconds `mark` has thought so far, counting the running turn."""
        running = mark == self.to_move and not self.game.is_over
        return self.clocks[mark] + (self._now() - self._since if running else 0.0)

    def _charge(self) -> None:
        """Bill the running turn to the side to move and restart the turn timer."""
        now = self._now()
        if not self.game.is_over:
            self.clocks[self.to_move] += now - self._since
        self._since = now

    # ----- moves -----------------------------------------------------------------
    def _changed(self) -> None:
        self.generation += 1

    def play(self, move: Hashable) -> None:
        """Play a legal move for the side to move (MoveError, nothing changed, otherwise)."""
        if not self.game.is_legal(move):
            self.game.play(move)  # raises the rules' own one-line MoveError
        self._charge()
        self.game.play(move)
        self.redo_stack.clear()
        self._changed()

    def _steps_back(self) -> int:
        """How many moves one undo takes back: vs AI, back to the human's last turn."""
        history = self.game.history
        if not history:
            return 0
        if not self.has_human:
            return 1
        probe = self.game.copy()
        steps = 0
        while probe.history:
            probe.undo()
            steps += 1
            if not self.player(probe.to_move).is_ai:
                break
        return steps

    def undo(self) -> list[Hashable]:
        """Take moves back (see `_steps_back`); MoveError if there is none."""
        steps = self._steps_back()
        if not steps:
            raise MoveError("there is no move to undo")
        self._charge()
        undone = [self.game.undo() for _ in range(steps)]
        self.redo_stack.extend(undone)
        self._changed()
        return undone

    def redo(self) -> list[Hashable]:
        """Replay undone moves until a human is to move again (one move if no human)."""
        if not self.redo_stack:
            raise MoveError("there is no move to redo")
        self._charge()
        done: list[Hashable] = []
        while self.redo_stack:
            move = self.redo_stack.pop()
            self.game.play(move)
            done.append(move)
            if not self.has_human or not self.ai_to_move or self.game.is_over:
                break
        self._changed()
        return done

    # ----- AI requests ---------------------------------------------------------------
    def request(self, purpose: str = "move", level: str | None = None) -> AIRequest:
        """A snapshot of the position for the engine, tagged with the current generation."""
        if level is None:
            mover = self.player(self.to_move)
            level = mover.level if mover.is_ai and mover.level else "medium"
        return AIRequest(self.generation, self.game.copy(), level, purpose)

    def is_current(self, request: AIRequest) -> bool:
        return request.generation == self.generation

    def accept(self, request: AIRequest, move: Hashable) -> bool:
        """Play the AI's reply if it is for the position still on the board."""
        if not self.is_current(request) or not self.ai_to_move:
            return False
        self.play(move)
        return True

    # ----- the match -----------------------------------------------------------------------
    @property
    def game_number(self) -> int:
        return self.match.index + 1

    @property
    def has_return_game(self) -> bool:
        return self.game.is_over and self.match.index + 1 < self.match.length

    @property
    def match_over(self) -> bool:
        return self.game.is_over and self.match.index + 1 >= self.match.length

    def results(self) -> list[tuple[int, ...]]:
        """Points per mark of every finished game of the match, this one included if over."""
        done = list(self.match.results)
        if self.game.is_over and len(done) == self.match.index:
            outcome = self.game.outcome
            assert outcome is not None
            done.append(tuple(outcome.points))
        return done

    def margins(self) -> tuple[int, int]:
        """Per participant, the sum over finished games of own points minus the other's."""
        total = [0, 0]
        for i, points in enumerate(self.results()):
            for p in (0, 1):
                own = (p + i) % 2
                total[p] += points[own] - points[1 - own]
        return total[0], total[1]

    def next_game(self) -> None:
        """Start the return game: same start position, participants swap marks."""
        if not self.has_return_game:
            raise MoveError("there is no return game to play")
        self.match.results = self.results()
        self.match.index += 1
        self.game = self._start.copy()
        self.clocks = [0.0, 0.0]
        self._since = self._now()
        self.redo_stack.clear()
        self._changed()

    def replace(self, other: Session) -> None:
        """Take over another session's state (a loaded game), as one more change."""
        generation = self.generation
        self.__dict__.update(other.__dict__)
        self.generation = max(generation, other.generation) + 1
