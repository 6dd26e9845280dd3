"""Square-looking cells for the boards drawn as a 7x7 grid of chips."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChipCells:
    """Cell size from one scale `k`: a cell is 2k+1 columns by k lines (about square).

    A cell holds a chip of an odd number of lines, a space each side and blank
    lines round it (one under it for an even k, one above and one under for an
    odd k; the last row drops those under); the chip's middle line shows the
    brackets and the glyph. k=2 is 5x2 with a 3x1 chip: a 7x7 board at 80x24.
    """

    k: int

    @property
    def cw(self) -> int:
        return 2 * self.k + 1

    @property
    def ch(self) -> int:
        return self.k

    @property
    def chip_w(self) -> int:
        return self.cw - 2

    @property
    def chip_y(self) -> int:
        """The chip's first line in its cell."""
        return self.k % 2

    @property
    def chip_h(self) -> int:
        return self.k - 1 - self.chip_y

    @property
    def mark_y(self) -> int:
        """The line of a cell that holds its glyph (the chip's middle)."""
        return self.chip_y + self.chip_h // 2
