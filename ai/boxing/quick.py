"""The Boxing Match for `ai.quick`: Grundy values of regions, and safety before them.

With two players Boxing is impartial and last-move-wins, and a box never spans two
regions of vacant cells, so a position is the sum of its regions: the player to
move wins exactly when the XOR of their Grundy values is not 0. A region's value
depends on its shape alone (the same under the 8 symmetries), and one without a
2x2 block of cells allows only 1x1 boxes: its value is its size modulo 2. The
values are computed in pure Python with a node budget per evaluation and kept for
the whole process (what a budget cut short has proven stays).

While a region is too large to value, the guess takes its size modulo 2 in its
place (exact if only single cells were ever played there): a small term that orders
moves and never outweighs a proof. With three or more players the sum of regions
says nothing about who fills the last cell, so only the search's own lookahead
(paranoid) and the safety rule below count.

Candidates, largest first: a box that fills the rest alone if there is one; never
a box that leaves the rest as one box (the next player fills it and wins) unless
every move does; every box of a region of up to ALL_MOVES cells, and each top-left
cell's largest box in a larger region (the PER_REGION largest).
"""

from __future__ import annotations

import time

from ai import regions
from ai.quick import PROVEN, deadline
from ai.regions import (
    STRIDE,
    Shape,
    canonical,
    components,
    pack,
    placed,
    size,
    split,
    without,
)
from rules.base import Game
from rules.boxing import WIDTH

BoxMove = tuple[int, int, int]

GRUNDY_NODES = 300  # region values computed per evaluation (a few ms); all are kept
GRUNDY_CELLS = 40  # a larger region is only looked up, never valued
ALL_MOVES = 40  # regions up to this size offer every box
PER_REGION = 24  # a larger region its largest boxes
GUESS = 1.0  # the parity guess's weight
TABLE_LIMIT = 300_000  # values kept before the table starts afresh (tens of MB)

_GRUNDY: dict[Shape, int] = {}  # canonical shape -> its Grundy value


class _OutOfNodes(Exception):
    pass


# ----- region values ---------------------------------------------------------------------
def _has_block(shape: Shape) -> bool:
    """Whether the shape holds a 2x2 block (else only 1x1 boxes fit)."""
    for upper, lower in zip(shape, shape[1:], strict=False):
        both = upper & lower
        if both & both >> 1:
            return True
    return False


def squares(shape: Shape) -> list[tuple[int, int, int]]:
    """Every box (top, left, size) of the shape's cells, largest first."""
    out = []
    height = len(shape)
    for top in range(height):
        bits = shape[top]
        while bits:
            left = (bits & -bits).bit_length() - 1
            bits &= bits - 1
            k = 1
            while top + k < height:
                mask = ((1 << (k + 1)) - 1) << left
                if any(shape[r] & mask != mask for r in range(top, top + k + 1)):
                    break
                k += 1
            out.extend((top, left, s) for s in range(1, k + 1))
    out.sort(key=lambda b: -b[2])
    return out


def grundy(shape: Shape, budget: list[float]) -> int:
    """The Grundy value of a canonical shape; _OutOfNodes when `budget` (nodes left, a
    perf_counter deadline) runs out."""
    known = _GRUNDY.get(shape)
    if known is not None:
        return known
    if not _has_block(shape):
        value = size(shape) & 1
        _GRUNDY[shape] = value
        return value
    budget[0] -= 1
    if budget[0] < 0 or time.perf_counter() > budget[1]:
        raise _OutOfNodes
    seen = set()
    for top, left, k in squares(shape):
        if time.perf_counter() > budget[1]:  # a large shape's boxes take milliseconds
            raise _OutOfNodes
        rest = without(shape, top, left, top + k - 1, left + k - 1)
        value = 0
        for sub in split(rest):
            value ^= grundy(canonical(sub), budget)
        seen.add(value)
    value = 0
    while value in seen:
        value += 1
    _GRUNDY[shape] = value
    return value


def value(game: Game, nodes: int = GRUNDY_NODES) -> tuple[int, bool]:
    """The XOR of the regions' values (a guessed size modulo 2 for those not valued),
    and whether every region was valued."""
    if len(_GRUNDY) > TABLE_LIMIT:
        _GRUNDY.clear()
    budget = [float(nodes), deadline()]
    total, exact = 0, True
    for region in components(pack(game.rows)):  # type: ignore[attr-defined]
        cells = region.bit_count()
        if cells > GRUNDY_CELLS or time.perf_counter() > budget[1]:  # the rest: guesses
            total ^= cells & 1
            exact = False
            continue
        shape = canonical(placed(region)[0])
        try:
            total ^= grundy(shape, budget)
        except _OutOfNodes:
            total ^= cells & 1
            exact = False
            budget[0] = 0.0  # the rest only from the table
    return total, exact


# ----- the interface to ai.quick ---------------------------------------------------------
def forget() -> None:
    """Drop what the process has proven (and the shapes it has seen)."""
    _GRUNDY.clear()
    regions.forget()


def evaluate(game: Game, player: int) -> float:
    """Two players: a proof from the regions' values (a winner's worth is its marks), or
    the parity guess. More players: the marks, a tie-break."""
    marks = game.cells  # type: ignore[attr-defined]
    if game.players > 2:
        return 0.001 * (marks[player] - max(m for p, m in enumerate(marks) if p != player))
    total, exact = value(game)
    winner = game.to_move if total else 1 - game.to_move
    worth = PROVEN + 0.1 * marks[winner] if exact else GUESS
    return worth if winner == player else -worth


def moves(game: Game) -> list[BoxMove]:
    """The candidates (see the module): a box that fills the rest alone first."""
    rows = list(game.rows)  # type: ignore[attr-defined]
    vacant = game.vacant  # type: ignore[attr-defined]
    largest: list[int] = []
    found: list[BoxMove] = []
    for region in components(pack(rows)):
        if region.bit_count() <= ALL_MOVES:
            shape, top, left = placed(region)
            found.extend((top + t, left + c, k) for t, c, k in squares(shape))
            continue
        largest = largest or game.largest_boxes()  # type: ignore[attr-defined]
        boxes = []  # each top-left's largest box, the largest first
        bits = region
        while bits:
            low = bits & -bits
            bits ^= low
            r, c = divmod(low.bit_length() - 1, STRIDE)
            boxes.append((r, c, largest[r * WIDTH + c]))
        boxes.sort(key=lambda b: -b[2])
        found.extend(boxes[:PER_REGION])
    found.sort(key=lambda b: -b[2])
    if found and found[0][2] ** 2 == vacant:
        return [found[0]]
    safe = [b for b in found if not _leaves_one_box(rows, b, vacant - b[2] * b[2])]
    return safe or found


def _leaves_one_box(rows: list[int], box: BoxMove, left: int) -> bool:
    """Whether the `left` vacant cells outside `box` form one square box."""
    side = int(left ** 0.5 + 0.5)
    if side * side != left or not left:
        return False
    r, c, k = box
    mask = ((1 << k) - 1) << c
    rest = [bits & ~mask if r <= row < r + k else bits for row, bits in enumerate(rows)]
    used = [row for row, bits in enumerate(rest) if bits]
    if len(used) != side or used[-1] - used[0] + 1 != side:
        return False
    bits = rest[used[0]]
    return all(rest[row] == bits for row in used) and bits.bit_count() == side and (
        bits + (bits & -bits)) & bits == 0
