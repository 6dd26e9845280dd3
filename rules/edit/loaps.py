"""LOAPS's editor: the pieces, the side to move and its move number, each side's points
and seconds left; written as the native file, which the rules read and judge (piece
counts against the moves made, points against what the moves could earn)."""

from __future__ import annotations

from rules.base import Game
from rules.edit.base import Cell, Draft, Field, Look, Paint
from rules.loaps import BONUS, CONTEST_SECONDS, EMPTY, FILES, MARKS, NAMES, SIZE, Loaps

PAINTS = ((EMPTY, Paint("empty")), (MARKS[0], Paint("red piece")),
          (MARKS[1], Paint("blue piece")))


class LoapsDraft(Draft):
    game_class = Loaps

    def __init__(self, native: str) -> None:
        super().__init__()
        lines = native.splitlines()
        mover, number = lines[0].split()
        red, blue = lines[1].split(), lines[2].split()
        self.cells = list("".join(lines[3:3 + SIZE]))
        self.values = {"mover": mover, "number": number, "points1": red[1],
                       "seconds1": red[2], "points2": blue[1], "seconds2": blue[2]}

    @classmethod
    def from_game(cls, game: Game) -> LoapsDraft:
        return cls(game.to_native())

    @classmethod
    def start(cls) -> LoapsDraft:
        return cls(Loaps.new().to_native())

    def clear(self) -> None:
        self.cells = [EMPTY] * (SIZE * SIZE)

    @property
    def shape(self) -> tuple[int, int]:
        return SIZE, SIZE

    def look(self, cell: Cell) -> Look:
        square = cell[0] * SIZE + cell[1]
        char = self.cells[square]
        if char in MARKS:
            return char, MARKS.index(char)
        if square in BONUS:  # the landing points, as the game's board shows them
            return f"+{BONUS[square]}", "label"
        return "·", "empty"

    def row_label(self, row: int) -> str:
        return str(SIZE - row)  # rank 7 at the top, as the native file writes it

    def col_label(self, col: int) -> str:
        return FILES[col]

    def palette(self) -> tuple[Paint, ...]:
        return tuple(paint for _, paint in PAINTS)

    def paint(self, index: int, cell: Cell, corner: Cell | None = None) -> None:
        self.cells[cell[0] * SIZE + cell[1]] = PAINTS[index][0]

    def fields(self) -> tuple[Field, ...]:
        return (Field("mover", "To move", tuple((NAMES[p], MARKS[p]) for p in (0, 1))),
                Field("number", "Move number"),
                Field("points1", "Red points"), Field("seconds1", "Red seconds"),
                Field("points2", "Blue points"), Field("seconds2", "Blue seconds"))

    def facts(self) -> list[str]:
        return [f"{self.cells.count(MARKS[0])} red, {self.cells.count(MARKS[1])} blue pieces",
                f"clocks: seconds left of {CONTEST_SECONDS:.0f}"]

    def native(self) -> str:
        v = self.values
        lines = [f"{v['mover']} {v['number']}", f"{MARKS[0]} {v['points1']} {v['seconds1']}",
                 f"{MARKS[1]} {v['points2']} {v['seconds2']}"]
        lines += ["".join(self.cells[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]
        return "\n".join(lines) + "\n"


DRAFT = LoapsDraft
