"""The shape of a game's position editor declaration (`rules/edit/NAME.py`).

A `Draft` is a position being edited: it may be illegal at any moment (a person puts
pieces down one at a time), so it holds plain values and never a `Game`. `build()`
turns it into a `Game` the way a loaded position is made (`from_native`, or
`from_start` where the native form lacks the options), so legality is the rules' own
check and its `PositionError` text is the reason the editor shows.
"""

from __future__ import annotations

import copy as _copy
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from rules.base import Game, PositionError, RulesError

Cell = tuple[int, int]  # (row, column) from the top left, 0-based
# What a cell shows: its glyph and how it is coloured: a seat (0..7), or "empty", "blocked"
Look = tuple[str, int | str]


@dataclass(frozen=True)
class Paint:
    """One palette entry: what choosing a cell (or, for `area`, two corners) does."""

    label: str  # in the palette: "X", "blocked", "push from the left"
    area: bool = False  # chosen by two corners (a rectangle), not one cell
    fills: bool = True  # a cell paint that may fill a whole area at once (the editor's
    # fill mode); False where it acts on a line or a piece, not on the cell alone


@dataclass(frozen=True)
class Field:
    """A position-wide value: a select of `choices`, or free text the rules read."""

    name: str
    label: str
    choices: tuple[tuple[str, str], ...] | None = None  # (shown, value) pairs


class Draft(ABC):
    """A position being edited; `values` holds the fields' texts, by field name."""

    game_class: ClassVar[type[Game]]

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    # ----- making one --------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def from_game(cls, game: Game) -> Draft:
        """The draft of `game`'s current position."""

    @classmethod
    def start(cls) -> Draft:
        """The draft an editor opens on: the game's standard (or seed 0) start."""
        return cls.from_game(cls.game_class.new(None, 0))

    @abstractmethod
    def clear(self) -> None:
        """Empty the board (the fields stay)."""

    def copy(self) -> Draft:
        return _copy.deepcopy(self)

    # ----- the board ---------------------------------------------------------------------
    @property
    @abstractmethod
    def shape(self) -> tuple[int, int]:
        """Rows and columns of the board."""

    @abstractmethod
    def look(self, cell: Cell) -> Look:
        """What `cell` shows now."""

    def row_label(self, row: int) -> str:
        return str(row + 1)

    def col_label(self, col: int) -> str:
        return str(col + 1)

    @abstractmethod
    def palette(self) -> tuple[Paint, ...]:
        """What may be put on the board (at most 10: keys 1..9 and 0)."""

    @abstractmethod
    def paint(self, index: int, cell: Cell, corner: Cell | None = None) -> None:
        """Apply palette entry `index` at `cell` (with `corner`, the area's other corner);
        PositionError, and nothing changed, where it cannot apply at all."""

    def fill(self, index: int, cell: Cell, corner: Cell) -> None:
        """A cell paint over the whole rectangle between two corners."""
        (r1, c1), (r2, c2) = cell, corner
        for row in range(min(r1, r2), max(r1, r2) + 1):
            for col in range(min(c1, c2), max(c1, c2) + 1):
                self.paint(index, (row, col))

    # ----- the position-wide fields -------------------------------------------------------
    def fields(self) -> tuple[Field, ...]:
        """The position-wide values (none by default)."""
        return ()

    def set_value(self, name: str, text: str) -> None:
        """Set a field's text; the rules judge it when the draft is built."""
        spec = {f.name: f for f in self.fields()}.get(name)
        if spec is None:
            raise PositionError(f"{self.game_class.title} has no field {name!r}")
        value = text.strip()
        if spec.choices is not None and value not in {v for _, v in spec.choices}:
            raise PositionError(f"{spec.label.lower()} {value!r} is not one of: "
                                f"{', '.join(v for _, v in spec.choices)}")
        self.values[name] = value

    def facts(self) -> list[str]:
        """Lines about the draft the fields do not show (who is to move, how many moves)."""
        return []

    # ----- the rules' verdict ---------------------------------------------------------------
    @abstractmethod
    def native(self) -> str:
        """The draft as the game's native position text (maybe an illegal one)."""

    def build(self) -> Game:
        """The `Game` at this position; PositionError with the rules' reason if illegal."""
        return self.game_class.from_native(self.native())

    def problem(self) -> str | None:
        """Why the draft is not a legal position, in the rules' words; None if it is."""
        try:
            self.build()
        except RulesError as err:
            return str(err)
        return None
