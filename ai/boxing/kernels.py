"""Boxing Numba kernels: the vacant cells as 16 row masks, boxes by levels, perft.

The vacant cells are 16 row masks held in a uint64 array (bit c of row r: cell (r, c)
is vacant; only the low 32 bits are used). The boxes come by levels: level 1 is the
rows themselves, and level k + 1 is level k ANDed with itself one column to the right
(`x & x >> 1`) and one row down (row r & row r + 1), for the rows that still have room
below. Bit c of level k, row r, says the k x k box with top-left (r, c) is vacant, and
every set bit of every level is one legal move. A level that is all zero ends the walk
(a larger box needs a smaller one inside it).

Making a box clears one mask, `(2^k - 1) << c`, in each of its k rows. A move code is
`k << 16 | row << 8 | col`.
"""

from __future__ import annotations

import numpy as np

from ai.bits import popcount
from ai.jit import entry, njit, trailing_zeros

HEIGHT, WIDTH = 16, 32
MAX_BOX = 16
MAX_MOVES = sum((HEIGHT - k + 1) * (WIDTH - k + 1) for k in range(1, MAX_BOX + 1))  # 3672: an
# empty arena
ZERO = np.uint64(0)
ONE = np.uint64(1)
# per size k: the k low bits set (the box's mask in a row, before the shift to its column)
SIDE = np.array([(1 << k) - 1 for k in range(MAX_BOX + 1)], np.uint64)


def row_masks(rows: list[int] | tuple[int, ...]) -> np.ndarray:
    """The 16 row masks (bit c = column c vacant) as the kernels' uint64 array."""
    if len(rows) != HEIGHT:
        raise ValueError(f"expected {HEIGHT} row masks, got {len(rows)}")
    return np.array([int(r) & 0xFFFFFFFF for r in rows], np.uint64)


def encode(row: int, col: int, k: int) -> int:
    return k << 16 | row << 8 | col


def decode(code: int) -> tuple[int, int, int]:
    """A move code as the rules' move `(row, col, k)`."""
    code = int(code)
    return code >> 8 & 255, code & 255, code >> 16




@njit(nogil=True, cache=True)
def vacant(rows: np.ndarray) -> int:
    """The number of vacant cells."""
    n = 0
    for r in range(HEIGHT):
        n += popcount(rows[r])
    return n


@njit(nogil=True, cache=True, inline="always")
def next_level(lev: np.ndarray, height: int) -> bool:
    """Level k (its `height` rows that can hold a k-box) to level k + 1 in place, over
    `height - 1` rows; whether any bit is left."""
    any_bit = ZERO
    t = lev[0] & (lev[0] >> ONE)
    for r in range(height - 1):
        u = lev[r + 1] & (lev[r + 1] >> ONE)
        lev[r] = t & u
        any_bit |= lev[r]
        t = u
    return any_bit != ZERO


@entry
@njit(nogil=True, cache=True)
def box_codes(rows: np.ndarray, out: np.ndarray) -> int:
    """Every legal move (every vacant k x k box) as a move code into `out` (at least
    MAX_MOVES long), by size, then row, then column; how many."""
    lev = np.empty(HEIGHT, np.uint64)
    for r in range(HEIGHT):
        lev[r] = rows[r]
    n = 0
    k = 1
    height = np.int64(HEIGHT)  # (a literal 16 would not take `height -= 1` ahead of time)
    while True:
        for r in range(height):
            m = lev[r]
            while m != ZERO:
                c = np.int64(trailing_zeros(m))
                out[n] = k << 16 | r << 8 | c
                n += 1
                m &= m - ONE
        if k == MAX_BOX or not next_level(lev, height):
            break
        k += 1
        height -= 1
    return n


@njit(nogil=True, cache=True, inline="always")
def box_mask(code: int) -> np.uint64:
    """The mask the box `code` clears in each of its rows."""
    return SIDE[code >> 16] << np.uint64(code & 255)


@njit(nogil=True, cache=True)
def play(rows: np.ndarray, code: int) -> int:
    """Make the move `code` on `rows` in place (clear the box's bits in its k rows); the
    cells it fills (k * k)."""
    k = code >> 16
    r = code >> 8 & 255
    mask = box_mask(code)
    for i in range(r, r + k):
        rows[i] &= ~mask
    return k * k


@entry
@njit(nogil=True, cache=True)
def children(rows: np.ndarray, codes: np.ndarray, n: int, out: np.ndarray,
             left: np.ndarray) -> None:
    """The child of each of the first `n` moves of `codes`: its rows into `out[i]` and its
    vacant count into `left[i]`."""
    total = vacant(rows)
    for i in range(n):
        for r in range(HEIGHT):
            out[i, r] = rows[r]
        left[i] = total - play(out[i], codes[i])


@njit(nogil=True, cache=True, inline="always")
def made_leaves(rows: np.ndarray, lev: np.ndarray) -> tuple[int, np.uint64]:
    """Every move of `rows` made as a leaf: each child's changed rows computed into a
    checksum. The number of moves and the checksum."""
    n = 0
    check = ZERO
    for r in range(HEIGHT):
        lev[r] = rows[r]
    k = 1
    height = np.int64(HEIGHT)  # (a literal 16 would not take `height -= 1` ahead of time)
    while True:
        side = SIDE[k]
        for r in range(height):
            m = lev[r]
            n += popcount(m)
            while m != ZERO:
                low = m & (ZERO - m)
                mask = ~(low * side)
                x = rows[r] & mask  # the child's rows r .. r + k - 1
                i = r + 1
                while i < r + k:
                    x += rows[i] & mask
                    i += 1
                check += x
                m ^= low
        if k == MAX_BOX or not next_level(lev, height):
            break
        k += 1
        height -= 1
    return n, check


@entry
@njit(nogil=True, cache=True)
def perft(rows: np.ndarray, depth: int) -> np.ndarray:
    """Leaf counts for depths 1..depth, then a checksum of the leaves made ("made" mode:
    every leaf's changed rows are computed). A full arena is terminal: counted at its
    depth, never expanded (so a full root has no moves at all)."""
    counts = np.zeros(depth + 1, np.int64)
    if depth < 1:
        return counts
    stack = np.empty((depth, HEIGHT), np.uint64)  # the rows at each ply
    vac = np.zeros(depth, np.int64)
    codes = np.empty((depth, MAX_MOVES), np.int64)
    nn = np.zeros(depth, np.int64)
    ii = np.zeros(depth, np.int64)
    lev = np.empty(HEIGHT, np.uint64)
    check = ZERO
    for r in range(HEIGHT):
        stack[0, r] = rows[r]
    vac[0] = vacant(rows)
    if vac[0] == 0:
        return counts
    ply = 0
    while True:
        node = stack[ply]
        if ply == depth - 1:  # the leaf parent: make every leaf, keep none
            n, x = made_leaves(node, lev)
            counts[ply] += n
            check += x
            ply -= 1
        else:
            n = box_codes(node, codes[ply])
            counts[ply] += n
            nn[ply], ii[ply] = n, 0
        # the next child to expand (not full), walking back up as needed
        while ply >= 0:
            if ii[ply] < nn[ply]:
                code = codes[ply, ii[ply]]
                ii[ply] += 1
                k = code >> 16
                left = vac[ply] - k * k
                if left == 0:
                    continue  # the child is full: terminal, already counted
                child = stack[ply + 1]
                parent = stack[ply]
                for r in range(HEIGHT):
                    child[r] = parent[r]
                play(child, code)
                vac[ply + 1] = left
                ply += 1
                break
            ply -= 1
        if ply < 0:
            break
    counts[depth] = np.int64(check >> ONE)  # the made leaves are used
    return counts
