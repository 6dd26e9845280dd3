"""Pah-Tum's editor: blocked cells and letters on the 7x7 board; the rules' reading of
the 56-byte board judges the counts (an odd number of blocks, X = O or O + 1)."""

from __future__ import annotations

from rules.base import Game
from rules.edit.base import Cell, Draft, Look, Paint
from rules.pahtum import BLOCK, EMPTY, MARKS, ROWS, SAMPLE_BOARD, SIZE, PahTum, X

PAINTS = ((EMPTY, Paint("empty")), (BLOCK, Paint("blocked")), (X, Paint("X")), (MARKS[1],
                                                                                  Paint("O")))


class PahTumDraft(Draft):
    game_class = PahTum

    def __init__(self, board: str) -> None:
        super().__init__()
        self.cells = list(board.replace("\n", ""))

    @classmethod
    def from_game(cls, game: Game) -> PahTumDraft:
        return cls(game.to_native())

    @classmethod
    def start(cls) -> PahTumDraft:
        return cls(SAMPLE_BOARD)

    def clear(self) -> None:
        self.cells = [EMPTY] * (SIZE * SIZE)

    @property
    def shape(self) -> tuple[int, int]:
        return SIZE, SIZE

    def look(self, cell: Cell) -> Look:
        char = self.cells[cell[0] * SIZE + cell[1]]
        if char in MARKS:
            return char, MARKS.index(char)
        return (char, "blocked") if char == BLOCK else ("·", "empty")

    def row_label(self, row: int) -> str:
        return ROWS[row]

    def palette(self) -> tuple[Paint, ...]:
        return tuple(paint for _, paint in PAINTS)

    def paint(self, index: int, cell: Cell, corner: Cell | None = None) -> None:
        self.cells[cell[0] * SIZE + cell[1]] = PAINTS[index][0]

    def facts(self) -> list[str]:
        xs, os_ = self.cells.count(X), self.cells.count(MARKS[1])
        blocks = self.cells.count(BLOCK)
        return [f"{blocks} blocked, {xs} X, {os_} O", f"{MARKS[(xs + os_) % 2]} to move"]

    def native(self) -> str:
        return "".join("".join(self.cells[r * SIZE:(r + 1) * SIZE]) + "\n" for r in range(SIZE))


DRAFT = PahTumDraft
