"""The one shape every game has: a small, complete, well-tested value.

A `Game` holds its options, its start position and the moves played since, so
undo, replay and saving need nothing else. Moves are hashable values private
to each game; their text form (`move_text`/`parse_move`) is what crosses any
boundary (saves, CLI, UI). The app, saves and engines see games only through
this interface and the registry in `rules/__init__.py`.
"""

from __future__ import annotations

import copy as _copy
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

Move = Hashable


class RulesError(ValueError):
    """Base of every error `rules` raises on bad input; its text is one clear line."""


class MoveError(RulesError):
    """A move text that does not parse, or a move that is not legal here."""


class PositionError(RulesError):
    """A native position or option set that is malformed or impossible."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: `winner` is a player index or None for a draw."""

    winner: int | None
    points: tuple[int, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        return self.winner is None


@dataclass(frozen=True)
class OptionSpec:
    """One board option a new-game screen or CLI flag can set."""

    name: str
    label: str
    kind: type  # int or str
    default: Any
    choices: tuple[Any, ...] | None = None  # None: any value in [low, high]
    low: int | None = None
    high: int | None = None
    help: str = ""


@dataclass
class Game(ABC):
    """A game in progress: options, start position and the moves since."""

    name: ClassVar[str]  # registry key, e.g. "pahtum"
    title: ClassVar[str]  # display name, e.g. "Pah-Tum"
    player_names: ClassVar[tuple[str, str]]  # marks, e.g. ("X", "O")
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    match_length: ClassVar[int] = 1  # games in a match, sides swapped each game
    move_seconds: ClassVar[float] = 10.0  # contest time limit per move
    score_unit: ClassVar[str] = "pts"  # what `scores()` counts, as the side panel labels it
    summary: ClassVar[str] = ""  # the rules in a few lines, for players (RULES.md has them all)

    history: list[Move] = field(default_factory=list)

    # ----- construction ---------------------------------------------------
    @classmethod
    @abstractmethod
    def new(cls, options: dict[str, Any] | None = None, seed: int | None = None) -> Game:
        """A fresh game; random parts of the start come from `seed`."""

    @classmethod
    @abstractmethod
    def from_native(cls, text: str) -> Game:
        """A game from the contest's native position text (PositionError if bad)."""

    @abstractmethod
    def to_native(self) -> str:
        """The current position in the contest's native format."""

    @abstractmethod
    def start_native(self) -> str:
        """The start position (before `history`) in native format."""

    @property
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The resolved options, JSON-ready, that with `start_native` rebuild the start."""

    @classmethod
    def from_start(cls, options: dict[str, Any], start: str) -> Game:
        """Rebuild the start of a saved game; games whose native form lacks options override."""
        return cls.from_native(start)

    # ----- play -----------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int:
        """Index (0 or 1) of the player to move."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move; empty once the game is over."""

    @abstractmethod
    def _apply(self, move: Move) -> None:
        """Apply a legal move to the position (history is kept by `play`)."""

    @abstractmethod
    def _unapply(self, move: Move) -> None:
        """Undo `move`, the last one applied."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Running points per player, as the side panel shows them."""

    @abstractmethod
    def key(self) -> Hashable:
        """Identity of the position (board and side to move)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """A move from its text; MoveError if the text is bad (legality not checked)."""

    @abstractmethod
    def move_text(self, move: Move) -> str:
        """The move in the game's own notation."""

    # ----- shared behaviour -------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def is_legal(self, move: Move) -> bool:
        return not self.is_over and move in self.legal_moves()

    def play(self, move: Move) -> None:
        """Play a legal move; MoveError (and nothing changed) otherwise."""
        if self.is_over:
            raise MoveError("the game is over")
        if not self.is_legal(move):
            raise MoveError(f"{self.move_text(move)} is not a legal move here")
        self._apply(move)
        self.history.append(move)

    def contest_reply(self, move: Move) -> str:
        """What the contest program prints after choosing `move`.

        By default the move is played and the new native position printed
        (Pah-Tum's `cat board | prog | prog` chain); games whose protocol
        answers with the move alone override this.
        """
        self.play(move)
        return self.to_native()

    def play_text(self, text: str) -> Move:
        move = self.parse_move(text)
        self.play(move)
        return move

    def undo(self) -> Move:
        if not self.history:
            raise MoveError("there is no move to undo")
        move = self.history.pop()
        self._unapply(move)
        return move

    def copy(self) -> Game:
        return _copy.deepcopy(self)

    def replay(self, moves: Sequence[str]) -> None:
        """Play move texts in order; MoveError names the first bad one."""
        for i, text in enumerate(moves, 1):
            try:
                self.play_text(text)
            except MoveError as err:
                raise MoveError(f"move {i} ({text!r}): {err}") from None

    def history_text(self) -> list[str]:
        """The moves played, as text."""
        return [self.move_text(m) for m in self.history]
