"""Pillars for `ai.quick`: an exact misere solver over region sets, and parity before it.

Filling a rectangle never joins regions of empty cells (4-connected), so a
position is the multiset of its regions' shapes, each the same under the board's
8 symmetries and translation. The solver searches that (the game is impartial:
a win or a loss for the player to move), memoised on the sorted shapes for the
whole process (a Pillars program plays a whole game in one), with a node budget
per evaluation and the search's deadline: what it proves stays in the table, so
an unfinished solve helps the next one. Shortcuts: one cell left is a loss; a
rectangle that leaves exactly one cell wins; a rectangle filling every empty cell
is never played while another move is left; single cells alone win for the mover
when their count is even.

A position too large to solve (more than SOLVE_EMPTY empty cells) gets a parity
guess: the single cells are the tail of the game, one a move; the guess only
orders moves and never outweighs a proof.

Candidate moves: every rectangle once few cells are left; before that the largest
rectangles of each region and those of the next largest that cut it apart (the
rest is unlikely to matter while no region can be solved). The joker is claimed
only with a move the solver proved wins: the claim then adds its value (the empty
cells / 10) to the winner's 18.
"""

from __future__ import annotations

import time

from ai import regions
from ai.quick import PROVEN, deadline
from ai.regions import Shape, canonical, components, pack, placed, size, split, without
from rules.base import Game

Region = Shape  # row masks from the top, bit c = column c, from row and column 0
Rect = tuple[int, int, int, int]  # top, left, bottom, right

SOLVE_NODES = 400  # solver nodes per evaluation (a few ms); what it proves is kept
SOLVE_EMPTY = 30  # a larger position is not solved
ALL_MOVES = 30  # empty cells up to which every rectangle is a candidate
PER_REGION = 12  # else: the largest rectangles of each region (the widest of their kind)
CUT_TRIES = 80  # and those of the next largest that cut it apart
LOSE_POINTS, WIN_POINTS = 9, 18
TABLE_LIMIT = 300_000  # entries kept before the table starts afresh (tens of MB)

_WINS: dict[tuple[Region, ...], bool] = {}  # region set -> whether the mover wins


class _OutOfNodes(Exception):
    pass


def rects(region: Region, widest: bool = False) -> list[Rect]:
    """Every rectangle of the region's cells, largest first; with `widest` only the
    widest for each top-left cell and bottom row (the cheap candidates of a big region)."""
    out = []
    h = len(region)
    for top in range(h):
        bits = region[top]
        while bits:
            left = (bits & -bits).bit_length() - 1
            bits &= bits - 1
            acc = -1
            for bottom in range(top, h):
                acc &= region[bottom]
                if not acc >> left & 1:
                    break
                right = left
                while acc >> (right + 1) & 1:
                    right += 1
                if widest:
                    out.append((top, left, bottom, right))
                else:
                    out.extend((top, left, bottom, r) for r in range(left, right + 1))
    out.sort(key=lambda t: (t[0] - t[2] - 1) * (t[3] - t[1] + 1))
    return out


def _area(rect: Rect) -> int:
    return (rect[2] - rect[0] + 1) * (rect[3] - rect[1] + 1)


# ----- the solver ------------------------------------------------------------------------
def wins(regions: tuple[Region, ...], budget: list[float]) -> bool:
    """Whether the player to move wins the region set (sorted canonical shapes);
    _OutOfNodes when `budget` (nodes left, a perf_counter deadline) runs out."""
    known = _WINS.get(regions)
    if known is not None:
        return known
    total = sum(size(region) for region in regions)
    if total <= 1:
        return total == 0  # no cell: the other side filled the last; one: it must be filled
    if all(len(region) == 1 and region[0] == 1 for region in regions):
        result = total % 2 == 0  # single cells alone: parity
        _WINS[regions] = result
        return result
    budget[0] -= 1
    if budget[0] < 0 or time.perf_counter() > budget[1]:
        raise _OutOfNodes
    options = []
    for i, region in enumerate(regions):
        if i and region == regions[i - 1]:
            continue  # the same shape again: the same options
        for rect in rects(region):
            area = _area(rect)
            if total - area == 1:
                _WINS[regions] = True  # the other side must fill the last cell
                return True
            if area == total:
                continue  # filling the last cell loses
            options.append((i, rect))
    result = False
    for i, rect in options:
        if time.perf_counter() > budget[1]:  # a large set's options take milliseconds
            raise _OutOfNodes
        rest = regions[:i] + regions[i + 1:] + tuple(canonical(r)
                                                    for r in split(without(regions[i], *rect)))
        if not wins(tuple(sorted(rest)), budget):
            result = True
            break
    _WINS[regions] = result
    return result


def position(game: Game) -> tuple[Region, ...]:
    """The game's empty cells as a sorted tuple of canonical region shapes."""
    return tuple(sorted(canonical(r) for r in split(list(game.rows))))  # type: ignore[attr-defined]


def solve(game: Game, nodes: int = SOLVE_NODES) -> bool | None:
    """Whether the player to move wins, or None if `nodes` did not settle it."""
    if len(_WINS) > TABLE_LIMIT:
        _WINS.clear()
    try:
        return wins(position(game), [nodes, deadline()])
    except _OutOfNodes:
        return None


# ----- the interface to ai.quick ---------------------------------------------------------
def forget() -> None:
    """Drop what the process has proven (and the shapes it has seen)."""
    _WINS.clear()
    regions.forget()


def evaluate(game: Game, player: int) -> float:
    """A proof (the winner's margin: 9 and both jokers) or a parity guess, for `player`."""
    won = solve(game) if game.empty <= SOLVE_EMPTY else None  # type: ignore[attr-defined]
    mover = game.to_move
    if won is not None:
        jokers = game.joker(0) + game.joker(1)  # type: ignore[attr-defined]
        value = PROVEN + WIN_POINTS - LOSE_POINTS + jokers
        return value if won == (mover == player) else -value
    return _guess(game) * (1.0 if mover == player else -1.0)


def _guess(game: Game) -> float:
    """For the player to move, before a proof: +1 when the single-cell regions are even
    in number (the tail of the game, a cell a move, then falls to the other side), -1
    when odd; the number of regions as a tie-break."""
    shapes = split(list(game.rows))  # type: ignore[attr-defined]
    singles = sum(1 for shape in shapes if shape == (1,))
    return (1.0 if singles % 2 == 0 else -1.0) + 0.01 * len(shapes)


def moves(game: Game) -> list[tuple[int, int, int, int, bool]]:
    """The candidates, best first (see the module); claiming twins only of proven wins."""
    rows = list(game.rows)  # type: ignore[attr-defined]
    empty = game.empty  # type: ignore[attr-defined]
    found: list[tuple[int, Rect]] = []
    for region, top, low in _located(rows):
        if empty <= ALL_MOVES:
            chosen = rects(region)
        else:
            widest = rects(region, widest=True)
            chosen = widest[:PER_REGION]
            chosen += [r for r in widest[PER_REGION:CUT_TRIES] if _cuts(region, r)]
        for t, lc, b, r in chosen:
            found.append((_area((t, lc, b, r)), (t + top, lc + low, b + top, r + low)))
    found.sort(key=lambda f: -f[0])
    out = [(t, lc, b, r, False) for area, (t, lc, b, r) in found
           if area < empty or len(found) == 1]
    if game.claims[game.to_move] is None and solve(game, nodes=0) is True:  # type: ignore[attr-defined]
        for move in out:  # the first proven winner's twin claims (the table knows it)
            if time.perf_counter() > deadline():
                break
            game._apply(move)
            lost = solve(game, nodes=0) is False
            game._unapply(move)
            if lost:
                return [(*move[:4], True), *out]
    return out


def _cuts(region: Region, rect: Rect) -> bool:
    """Whether filling `rect` leaves the region in pieces (or leaves one cell)."""
    rest = without(region, *rect)
    return len(components(pack(rest))) != 1 or sum(b.bit_count() for b in rest) == 1


def _located(rows: list[int]) -> list[tuple[Region, int, int]]:
    """The board's regions as (shape from (0, 0), top row, lowest column), to turn their
    rectangles back into board coordinates."""
    return [placed(region) for region in components(pack(rows))]
