"""Pillars' editor: the pillars, the filled rectangles in the order they were played
(red first, then turn about) and which of them claimed a joker. That is the native
position (the pillar lines, then the moves), which the rules replay and judge: the
pillars one per row and column, each rectangle empty when filled, one joker a side."""

from __future__ import annotations

from rules.base import Game, PositionError
from rules.edit.base import Cell, Draft, Look, Paint
from rules.pillars import COLS, NAMES, ROWS, SIZE, Pillars, joker_value

Rect = tuple[int, int, int, int]  # top, left, bottom, right

PAINTS = (Paint("erase", fills=False), Paint("pillar"),
          Paint("rectangle", area=True), Paint("joker on/off", fills=False))
ERASE, PILLAR, RECTANGLE, JOKER = range(4)


class PillarsDraft(Draft):
    game_class = Pillars

    def __init__(self, pillars: list[Cell], moves: list[tuple[Rect, bool]]) -> None:
        super().__init__()
        self.pillars = sorted(pillars)
        self.moves = list(moves)

    @classmethod
    def from_game(cls, game: Game) -> PillarsDraft:
        assert isinstance(game, Pillars)
        return cls([(row, col) for row, col in enumerate(game.pillars)],
                   [((t, lc, b, r), claim) for t, lc, b, r, claim in game.history])

    @classmethod
    def start(cls) -> PillarsDraft:
        return cls.from_game(Pillars.new({"pillars": "diagonal"}))

    def clear(self) -> None:
        self.moves = []

    @property
    def shape(self) -> tuple[int, int]:
        return SIZE, SIZE

    def _move_at(self, cell: Cell) -> int | None:
        """The last rectangle covering `cell`, by its index in the moves."""
        row, col = cell
        for index in range(len(self.moves) - 1, -1, -1):
            (t, lc, b, r), _ = self.moves[index]
            if t <= row <= b and lc <= col <= r:
                return index
        return None

    def look(self, cell: Cell) -> Look:
        if cell in self.pillars:
            return "█", "blocked"
        index = self._move_at(cell)
        if index is None:
            return "·", "empty"
        return ("!" if self.moves[index][1] else "▒"), index % 2

    def row_label(self, row: int) -> str:
        return ROWS[row]

    def col_label(self, col: int) -> str:
        return COLS[col]

    def palette(self) -> tuple[Paint, ...]:
        return PAINTS

    def paint(self, index: int, cell: Cell, corner: Cell | None = None) -> None:
        if index == PILLAR:
            if cell not in self.pillars:
                self.pillars = sorted([*self.pillars, cell])
        elif index == RECTANGLE:
            (r1, c1), (r2, c2) = cell, corner or cell
            self.moves.append(((min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)), False))
        elif cell in self.pillars:
            if index == JOKER:
                raise PositionError("a joker is claimed with a rectangle, not on a pillar")
            self.pillars.remove(cell)
        else:
            move = self._move_at(cell)
            if move is None:
                if index == JOKER:
                    raise PositionError("no rectangle here to claim the joker with")
                return
            if index == ERASE:
                del self.moves[move]
            else:
                rect, claim = self.moves[move]
                self.moves[move] = (rect, not claim)

    def facts(self) -> list[str]:
        n = len(self.moves)
        out = [f"{n} rectangle{'s' if n != 1 else ''}; {NAMES[n % 2]} to move"]
        empty = SIZE * SIZE - len(self.pillars)
        for number, ((t, lc, b, r), claim) in enumerate(self.moves):
            if claim:
                value = joker_value(empty, number == 1)
                out.append(f"{NAMES[number % 2]} joker: move {number + 1}, worth {value}")
            empty -= (b - t + 1) * (r - lc + 1)
        return out

    def native(self) -> str:
        lines = [ROWS[row] + COLS[col] for row, col in self.pillars]
        lines += [("!" if claim else "") + ROWS[t] + COLS[lc] + ROWS[b] + COLS[r]
                  for (t, lc, b, r), claim in self.moves]
        return "".join(line + "\n" for line in lines)

    def build(self) -> Game:
        if len(self.pillars) != SIZE:
            n = len(self.pillars)
            raise PositionError(f"{n} pillar{'s' if n != 1 else ''}: there must be {SIZE}, "
                                "one in each row and each column")
        return super().build()


DRAFT = PillarsDraft
