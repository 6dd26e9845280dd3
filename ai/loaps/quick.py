"""LOAPS for `ai.quick`: the points margin, and how close each side is to connecting.

A connection ends the game with 12 points to the connector, and then the points
decide: the search sees that ending itself (and the captures and landing bonuses
on the way), so the evaluation adds to the points margin each side's distance
from connecting, read from its shape: how far its pieces stand from their centre
of mass beyond the most compact shape, and how many groups they make. Being
closer than the other side is worth points: it moves first to the +12. A small
term for mobility (legal moves, each side's) breaks ties; in 24 games of this
module with it against without it, it changed nothing measurable (12 wins, 11
losses, 1 draw), and it costs a third of a node's time: keep it small.
"""

from __future__ import annotations

from rules.base import Game
from rules.loaps import ADJACENT, EMPTY, MARKS, SIZE

SPREAD = 1.0  # points per square of distance beyond the most compact shape
GROUP = 1.5  # points per group beyond the first
MOBILITY = 0.1  # points per legal move more than the other side's

# Per square, per direction: which of the square's 4 lines it runs along (row, column,
# diagonal, anti-diagonal) and the squares of the ray to the edge; and per square the
# numbers of its 4 lines among all 40 (7 rows, 7 columns, 13 diagonals, 13 anti-diagonals).
_STEPS = ((0, 1, 0), (0, -1, 0), (1, 0, 1), (-1, 0, 1), (1, 1, 2), (-1, -1, 2), (1, -1, 3),
          (-1, 1, 3))
_RAYS = tuple(tuple((kind, tuple((r + dr * i) * SIZE + c + dc * i for i in range(1, SIZE)
                                 if 0 <= r + dr * i < SIZE and 0 <= c + dc * i < SIZE))
                    for dr, dc, kind in _STEPS)
              for r in range(SIZE) for c in range(SIZE))
_LINE_OF = tuple((r, SIZE + c, 2 * SIZE + r - c + SIZE - 1, 4 * SIZE - 1 + r + c)
                 for r in range(SIZE) for c in range(SIZE))


def _distance(board: list[str], mark: str) -> float:
    """How far `mark`'s pieces are from being connected, in points' worth."""
    squares = [sq for sq, c in enumerate(board) if c == mark]
    n = len(squares)
    if n <= 1:
        return 0.0
    rows = [sq // SIZE for sq in squares]
    cols = [sq % SIZE for sq in squares]
    mr, mc = round(sum(rows) / n), round(sum(cols) / n)
    spread = sum(max(abs(r - mr), abs(c - mc)) for r, c in zip(rows, cols, strict=True))
    # the most compact: one piece on the centre, up to eight around it
    spread = max(0, spread - (n - 1))
    groups, seen = 0, set()
    for sq in squares:
        if sq in seen:
            continue
        groups += 1
        seen.add(sq)
        todo = [sq]
        while todo:
            s = todo.pop()
            for t in ADJACENT[s]:
                if t not in seen and board[t] == mark:
                    seen.add(t)
                    todo.append(t)
    return SPREAD * spread + GROUP * (groups - 1)


def mobility(board: list[str], mark: str) -> int:
    """How many moves `mark` has (the rules' move generation, with each line's count of
    pieces taken once for the whole board)."""
    counts = [0] * (6 * SIZE - 2)
    for sq, c in enumerate(board):
        if c != EMPTY:
            for line in _LINE_OF[sq]:
                counts[line] += 1
    total = 0
    for sq, c in enumerate(board):
        if c != mark:
            continue
        lines = _LINE_OF[sq]
        for kind, ray in _RAYS[sq]:
            n = counts[lines[kind]]
            if n > len(ray) or board[ray[n - 1]] == mark:
                continue
            if all(board[s] == EMPTY or board[s] == mark for s in ray[:n - 1]):
                total += 1
    return total


def evaluate(game: Game, player: int) -> float:
    """`player`'s points margin plus how much closer to connecting it is, and how many
    more moves it has."""
    board = game.board  # type: ignore[attr-defined]
    points = game.points  # type: ignore[attr-defined]
    mine, theirs = MARKS[player], MARKS[1 - player]
    value = points[player] - points[1 - player] + _distance(board, theirs) - _distance(
        board, mine)
    if MOBILITY:
        value += MOBILITY * (mobility(board, mine) - mobility(board, theirs))
    return value
