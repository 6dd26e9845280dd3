"""Pillars' contest format (RULES.md section 3, CodeCup 2009): one process for the whole
game; both players read the 10 pillars, Red then reads `Start`, and each writes its move
and reads the other's, passed on without the joker's `!`, until `Quit`."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rules.base import PositionError, excerpt
from rules.codecs.base import LineCodec, Protocol
from rules.pillars import COLS, ROWS, SIZE, Pillars, check_pillar_lines, parse_pillars


class PillarsCodec(LineCodec[Pillars]):
    protocol = Protocol.SESSION
    header_lines = SIZE  # the pillars, one a line

    def check_header(self, lines: Sequence[str]) -> None:
        """Each pillar line as it comes: a first line that is `Start`, a move or anything
        else is named at once, with what the game begins with."""
        text = lines[-1].strip() if lines else ""
        if len(text) != 2 or text[0] not in ROWS or text[1] not in COLS:
            raise PositionError(f"line {len(lines)}: {excerpt(text)} is not a pillar cell (a "
                                f"row A-J and a column a-j, like 'Bd'): the game begins with "
                                f"the {SIZE} pillars, one a line, then Start or Red's first "
                                "move")
        check_pillar_lines(lines)

    def from_header(self, lines: Sequence[str]) -> Pillars:
        return self.game_class(pillars=parse_pillars(lines))

    def relayed_move_text(self, game: Pillars, move: Hashable) -> str:
        """The jury passes a claim on without its `!` (the seed: `!AeAj` reaches the
        other program as `AeAj`)."""
        return game.move_text(move).lstrip("!")


CODEC = PillarsCodec(Pillars)
