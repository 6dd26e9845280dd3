"""Pousse for `ai.quick`: straights, then lines on their way to becoming straights.

The search sees straights and repetitions as the end of the game (the rules judge
them after every move), so the evaluation weighs the lines still open: a row or
column holding one colour only is worth more the fuller it is, steeply near a
straight (a push can complete it); a line shared by both colours is worth its
small difference. A straight that did not end the game (the other colour has as
many) counts as the fullest line.
"""

from __future__ import annotations

from rules.base import Game
from rules.pousse import MARKS

X, O = MARKS  # noqa: E741
_WEIGHTS: dict[int, list[float]] = {}  # board size -> a one-colour line's worth by markers


def _weights(n: int) -> list[float]:
    """A one-colour line with k markers: k squared, and a near-straight much more."""
    weights = _WEIGHTS.get(n)
    if weights is None:
        weights = [float(k * k) for k in range(n + 1)]
        weights[n - 1] *= 2.0
        weights[n] *= 3.0
        _WEIGHTS[n] = weights
    return weights


def evaluate(game: Game, player: int) -> float:
    """`player`'s share of the rows and columns, X's weights minus O's."""
    n = game.size  # type: ignore[attr-defined]
    board = "".join(game.board)  # type: ignore[attr-defined]
    weights = _weights(n)
    total = 0.0
    for i in range(n):
        for line in (board[i * n:(i + 1) * n], board[i::n]):
            x, o = line.count(X), line.count(O)
            if not o:
                total += weights[x]
            elif not x:
                total -= weights[o]
            else:
                total += 0.5 * (x - o)
    return total if player == 0 else -total
