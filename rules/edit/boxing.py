"""Boxing's editor: vacant and unusable cells and the players' marks on the arena, the
number of players and who is to move. The native arena holds neither of those two, so
the draft is built as a saved start is (`from_start` with the marks and the mover)."""

from __future__ import annotations

from rules.base import Game
from rules.boxing import (
    HEIGHT,
    MARKS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROWS,
    UNUSABLE,
    VACANT,
    WIDTH,
    Boxing,
    native,
)
from rules.edit.base import Cell, Draft, Field, Look, Paint


class BoxingDraft(Draft):
    game_class = Boxing

    def __init__(self, cells: str, players: int, mover: str) -> None:
        super().__init__()
        self.cells = list(cells)
        self.values = {"players": str(players), "mover": mover}

    @classmethod
    def from_game(cls, game: Game) -> BoxingDraft:
        marks = game.marks
        if tuple(marks) != MARKS[:len(marks)]:  # a native arena's own marks: keep them
            draft = cls(game.to_native().replace("\n", ""), len(marks), marks[game.to_move])
            draft.seat_marks = tuple(marks)
            return draft
        return cls(game.to_native().replace("\n", ""), len(marks), marks[game.to_move])

    @classmethod
    def start(cls) -> BoxingDraft:
        return cls.from_game(Boxing.new({"arena": "sample"}))

    seat_marks: tuple[str, ...] | None = None  # marks other than A, B, .. (a loaded arena)

    @property
    def marks(self) -> tuple[str, ...]:
        count = int(self.values["players"])
        if self.seat_marks is not None and len(self.seat_marks) == count:
            return self.seat_marks
        return MARKS[:count]

    def clear(self) -> None:
        self.cells = [VACANT] * (HEIGHT * WIDTH)

    @property
    def shape(self) -> tuple[int, int]:
        return HEIGHT, WIDTH

    def look(self, cell: Cell) -> Look:
        char = self.cells[cell[0] * WIDTH + cell[1]]
        if char == VACANT:
            return "·", "empty"
        if char == UNUSABLE:
            return "o", "blocked"
        marks = self.marks
        return char, marks.index(char) if char in marks else "blocked"

    def row_label(self, row: int) -> str:
        return ROWS[row]

    def col_label(self, col: int) -> str:
        return str(col + 1)

    def _chars(self) -> list[str]:
        return [VACANT, UNUSABLE, *self.marks]

    def palette(self) -> tuple[Paint, ...]:
        return (Paint("vacant"), Paint("unusable"), *(Paint(f"mark {m}") for m in self.marks))

    def paint(self, index: int, cell: Cell, corner: Cell | None = None) -> None:
        self.cells[cell[0] * WIDTH + cell[1]] = self._chars()[index]

    def fields(self) -> tuple[Field, ...]:
        counts = tuple((str(n), str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))
        return (Field("players", "Players", counts),
                Field("mover", "To move", tuple((m, m) for m in self.marks)))

    def set_value(self, name: str, text: str) -> None:
        super().set_value(name, text)
        if name == "players" and self.values["mover"] not in self.marks:
            self.values["mover"] = self.marks[0]

    def facts(self) -> list[str]:
        counts = "  ".join(f"{m} {self.cells.count(m)}" for m in self.marks)
        return [f"marks: {counts}", f"vacant {self.cells.count(VACANT)}"]

    def native(self) -> str:
        return native(self.cells)

    def build(self) -> Game:
        marks = self.marks
        return Boxing.from_start({"players": len(marks), "marks": "".join(marks),
                                  "first": self.values["mover"]}, self.native())


DRAFT = BoxingDraft
