"""Pah-Tum for `ai.quick`: the expected final score margin of every row and column.

A line's worth to a side is the expected points of its runs once the board is
full, each empty cell turning out the side's with probability `SHARE` (the other's
otherwise): the runs it has score as they are (they can only grow), and an open
run's potential counts in proportion to its chances. The board fills up, so this
is exact at the end. A line's worth depends only on its 7 cells: it is computed
once per pattern and kept (at most 4**7 patterns).
"""

from __future__ import annotations

from rules.base import Game
from rules.pahtum import EMPTY, MARKS, RUN_POINTS, SIZE

SHARE = 0.5  # the chance that an empty cell ends up a given side's
_WORTH: dict[str, tuple[float, float]] = {}  # a line's pattern -> (X's worth, O's worth)


def _expected(cells: str, mark: str) -> float:
    """The expected points of `mark`'s maximal runs in `cells` once every empty cell
    is filled, each with `mark` at chance SHARE."""
    chance = [1.0 if c == mark else SHARE if c == EMPTY else 0.0 for c in cells]
    n = len(cells)
    total = 0.0
    for i in range(n):
        if not chance[i]:
            continue
        before = 1.0 - chance[i - 1] if i else 1.0  # the run must start at i
        p = before
        for j in range(i, n):
            p *= chance[j]
            if not p:
                break
            length = j - i + 1
            if length >= 3:
                after = 1.0 - chance[j + 1] if j + 1 < n else 1.0  # and end at j
                total += p * after * RUN_POINTS[length]
    return total


def _worth(line: str) -> tuple[float, float]:
    worth = _WORTH.get(line)
    if worth is None:
        worth = _WORTH[line] = (_expected(line, MARKS[0]), _expected(line, MARKS[1]))
    return worth


def evaluate(game: Game, player: int) -> float:
    """`player`'s expected final margin over the 7 rows and 7 columns."""
    board = "".join(game.board)  # type: ignore[attr-defined]
    x = o = 0.0
    for i in range(SIZE):
        wx, wo = _worth(board[i * SIZE:(i + 1) * SIZE])
        cx, co = _worth(board[i::SIZE])
        x += wx + cx
        o += wo + co
    return x - o if player == 0 else o - x
