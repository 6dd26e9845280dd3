"""Boxing endgames for three or more players: every position of the last vacant cells.

With more than two players there are no Grundy values: whoever cannot win picks the
winner among the others, so no player can force much. What can be computed is what
each player's chances are when every player takes the move best for itself and a
player with several such moves (in particular one who cannot win at all) takes any of
them alike. That is the max^n rule with ties shared.

When at most `MAX_CELLS` cells are vacant, every position still to come is a subset of
them, so the chances are a table over the subsets' bit masks (over the vacant cells
numbered in order). A box only removes cells, so a subset's children are smaller
numbers and one pass in increasing order fills the table: at 20 cells a million
subsets, a tenth of a second.
"""

from __future__ import annotations

import numpy as np

from ai.boxing.kernels import HEIGHT, WIDTH
from ai.jit import entry, njit

MAX_CELLS = 20  # vacant cells the table covers at most: 2^20 subsets
TIE = 1e-6  # chances this close count as equal


@njit(nogil=True, cache=True)
def cell_boxes(rows: np.ndarray, index: np.ndarray, masks: np.ndarray) -> int:
    """The vacant cells numbered in row-major order into `index` (HEIGHT x WIDTH, -1 for
    a cell that is not vacant) and every box of vacant cells as a bit mask over those
    numbers into `masks`; how many cells and how many boxes."""
    n = 0
    for r in range(HEIGHT):
        for c in range(WIDTH):
            if (rows[r] >> np.uint64(c)) & np.uint64(1):
                index[r, c] = n
                n += 1
            else:
                index[r, c] = -1
    m = 0
    for r in range(HEIGHT):
        for c in range(WIDTH):
            if index[r, c] < 0:
                continue
            mask = np.int64(0)
            k = 1
            while r + k <= HEIGHT and c + k <= WIDTH:
                # the k x k box is the (k-1) x (k-1) one, its new row and its new column
                ok = True
                for i in range(k):
                    if index[r + k - 1, c + i] < 0 or index[r + i, c + k - 1] < 0:
                        ok = False
                        break
                if not ok:
                    break
                for i in range(k):
                    mask |= np.int64(1) << index[r + k - 1, c + i]
                    mask |= np.int64(1) << index[r + i, c + k - 1]
                masks[m] = mask
                m += 1
                k += 1
    return n, m


@entry
@njit(nogil=True, cache=True)
def chances(rows: np.ndarray, players: int, table: np.ndarray, masks: np.ndarray,
            index: np.ndarray) -> int:
    """Fill `table[s, j]` (s < 2^n for the n vacant cells of `rows`, n <= MAX_CELLS) with
    the chance that the player j turns after the one to move makes the last move when
    the vacant cells are subset s; `masks` gets the boxes and `index` the cells' numbers
    (see `cell_boxes`). Returns n."""
    n, m = cell_boxes(rows, index, masks)
    last = players - 1
    for j in range(players):
        table[0, j] = 0.0
    table[0, last] = 1.0  # nothing vacant: the player who moved made the last move
    for s in range(1, np.int64(1) << n):
        best = -1.0
        ties = 0
        for j in range(players):
            table[s, j] = 0.0
        for b in range(m):
            box = masks[b]
            if box & ~s:
                continue
            child = s & ~box
            # the child's player 0 is our player 1: our chance is its player `last`'s
            mine = table[child, last]
            if mine > best + TIE:
                best = mine
                ties = 0
                for j in range(players):
                    table[s, j] = 0.0
            if mine >= best - TIE:
                ties += 1
                for j in range(1, players):
                    table[s, j] += table[child, j - 1]
                table[s, 0] += mine
        for j in range(players):
            table[s, j] /= ties
    return n


def new_table(players: int, cells: int = MAX_CELLS) -> np.ndarray:
    """A table for `chances`: one row per subset of `cells` vacant cells."""
    return np.zeros((1 << cells, players), np.float32)


@njit(nogil=True, cache=True)
def subset_of(kid: np.ndarray, index: np.ndarray) -> int:
    """The subset (as `chances` numbers the cells) that is vacant in `kid`."""
    s = np.int64(0)
    for r in range(HEIGHT):
        for c in range(WIDTH):
            if index[r, c] >= 0 and (kid[r] >> np.uint64(c)) & np.uint64(1):
                s |= np.int64(1) << index[r, c]
    return s


@entry
@njit(nogil=True, cache=True)
def move_chances(kids: np.ndarray, n: int, players: int, table: np.ndarray,
                 index: np.ndarray, out: np.ndarray) -> None:
    """out[i]: the mover's chance after the move that leaves kids[i] (from the table
    `chances` filled for the position before it)."""
    for i in range(n):
        out[i] = table[subset_of(kids[i], index), players - 1]
