"""Pousse's editor: the board size and the markers, put in by pushes from the edges.

A Pousse position is its moves from the empty board (the repetition rule needs them,
and the native input is N and the moves), so markers go in as the rules move them: a
push from the left, right, top or bottom of the chosen cell's row or column, for the
side to move, which alternates. The rules replay the pushes and judge them (a push
after the game has ended, a row or column past the board's size)."""

from __future__ import annotations

from rules.base import Game
from rules.edit.base import Cell, Draft, Field, Look, Paint
from rules.pousse import EMPTY, MARKS, MAX_SIZE, MIN_SIZE, SIDES, Pousse, check_size, push

PAINTS = tuple(Paint(f"push from the {side}", fills=False)
               for side in ("left", "right", "top", "bottom"))


class PousseDraft(Draft):
    game_class = Pousse

    def __init__(self, size: int, moves: list[tuple[str, int]]) -> None:
        super().__init__()
        self.values = {"size": str(size)}
        self.moves = list(moves)

    @classmethod
    def from_game(cls, game: Game) -> PousseDraft:
        assert isinstance(game, Pousse)
        return cls(game.size, list(game.history))  # type: ignore[arg-type]

    @classmethod
    def start(cls) -> PousseDraft:
        return cls.from_game(Pousse.new())

    def clear(self) -> None:
        self.moves = []

    @property
    def size(self) -> int:
        return check_size(self.values["size"])

    @property
    def shape(self) -> tuple[int, int]:
        return self.size, self.size

    def board(self) -> list[str]:
        """The markers after the pushes that fit the board (each pushing in turn)."""
        n = self.size
        cells = [EMPTY] * (n * n)
        for number, move in enumerate(self.moves):
            if move[1] <= n:
                push(cells, n, move, MARKS[number % 2])
        return cells

    def look(self, cell: Cell) -> Look:
        char = self.board()[cell[0] * self.size + cell[1]]
        return (char, MARKS.index(char)) if char in MARKS else ("·", "empty")

    def palette(self) -> tuple[Paint, ...]:
        return PAINTS

    def paint(self, index: int, cell: Cell, corner: Cell | None = None) -> None:
        side = SIDES[index]
        self.moves.append((side, (cell[0] if side in "LR" else cell[1]) + 1))

    def fields(self) -> tuple[Field, ...]:
        sizes = tuple((str(n), str(n)) for n in range(MIN_SIZE, MAX_SIZE + 1))
        return (Field("size", "Size", sizes),)

    def facts(self) -> list[str]:
        cells = self.board()
        n = len(self.moves)
        return [f"{n} push{'es' if n != 1 else ''}; {MARKS[n % 2]} to move",
                f"X {cells.count(MARKS[0])}, O {cells.count(MARKS[1])} markers"]

    def native(self) -> str:
        return f"{self.size}\n" + "".join(f"{side}{index}\n" for side, index in self.moves)


DRAFT = PousseDraft
