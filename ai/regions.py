"""Regions of empty cells for the kernel-free move choosers (`ai.<name>.quick`).

In games where a move fills a rectangle or a square of empty cells, a move never
joins two regions (4-connected sets of empty cells), so a position is the set of
its regions, and a region's value depends only on its shape, the same under the 8
symmetries of the square. Here a set of cells is one int, row r's cells at bits
r * STRIDE + column; STRIDE leaves a column that is never a cell, so the shifts
of a flood fill cannot wrap from one row into the next. A shape is a tuple of row
masks (bit c = column c) from its top row and column 0.
"""

from __future__ import annotations

STRIDE = 33  # rows of up to 32 cells, and one padding column
ROW = (1 << STRIDE) - 1

Shape = tuple[int, ...]

_CANON: dict[Shape, Shape] = {}  # a shape as found -> its canonical image
CANON_LIMIT = 300_000  # shapes kept before the table starts afresh


def forget() -> None:
    """Drop the canonical shapes seen so far."""
    _CANON.clear()


def pack(rows: list[int] | tuple[int, ...]) -> int:
    """Row masks as one set of cells."""
    cells = 0
    for r, bits in enumerate(rows):
        cells |= bits << (r * STRIDE)
    return cells


def unpack(cells: int) -> list[int]:
    """A set of cells as row masks from row 0 (none past its last row)."""
    rows = []
    while cells:
        rows.append(cells & ROW)
        cells >>= STRIDE
    return rows


def components(cells: int) -> list[int]:
    """The 4-connected regions of a set of cells, each grown from its lowest cell by
    whole-set shifts (one step of the fill costs a few big-int operations)."""
    out = []
    while cells:
        grown = cells & -cells
        while True:
            wider = (grown | grown << 1 | grown >> 1 | grown << STRIDE
                     | grown >> STRIDE) & cells
            if wider == grown:
                break
            grown = wider
        out.append(grown)
        cells ^= grown
    return out


def placed(region: int) -> tuple[Shape, int, int]:
    """A region as a shape from (0, 0), with its top row and leftmost column."""
    rows = unpack(region)
    top = 0
    while not rows[top]:
        top += 1
    rows = rows[top:]
    left = min((b & -b).bit_length() - 1 for b in rows if b)
    return tuple(b >> left for b in rows), top, left


def split(rows: list[int] | tuple[int, ...]) -> list[Shape]:
    """The regions of the cells in `rows`, each as a shape from (0, 0)."""
    return [placed(region)[0] for region in components(pack(rows))]


def size(shape: Shape) -> int:
    return sum(bits.bit_count() for bits in shape)


def canonical(shape: Shape) -> Shape:
    """The least of the shape's 8 images (turns and mirrors), each from (0, 0)."""
    known = _CANON.get(shape)
    if known is not None:
        return known
    if len(_CANON) > CANON_LIMIT:
        _CANON.clear()
    cells = [(r, c) for r, bits in enumerate(shape) for c in range(bits.bit_length())
             if bits >> c & 1]
    best: tuple[int, Shape] | None = None
    for swap in (False, True):
        for fr in (1, -1):
            for fc in (1, -1):
                image = _from_cells([((c if swap else r) * fr, (r if swap else c) * fc)
                                     for r, c in cells])
                key = (len(image), image)
                if best is None or key < best:
                    best = key
    assert best is not None
    _CANON[shape] = best[1]
    return best[1]


def _from_cells(cells: list[tuple[int, int]]) -> Shape:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    rows = [0] * (max(r for r, _ in cells) - top + 1)
    for r, c in cells:
        rows[r - top] |= 1 << (c - left)
    return tuple(rows)


def without(shape: Shape, top: int, left: int, bottom: int, right: int) -> list[int]:
    """The shape's row masks less the rectangle from (top, left) to (bottom, right)."""
    mask = ((1 << (right - left + 1)) - 1) << left
    return [bits & ~mask if top <= r <= bottom else bits for r, bits in enumerate(shape)]
