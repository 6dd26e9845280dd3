"""Pillars' contest format (RULES.md section 3, CodeCup 2009): one process for the whole
game; both players read the 10 pillars, Red then reads `Start`, and each writes its move
and reads the other's, passed on without the joker's `!`, until `Quit`."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rules.codecs.base import LineCodec, Protocol
from rules.pillars import SIZE, Pillars, parse_pillars


class PillarsCodec(LineCodec[Pillars]):
    protocol = Protocol.SESSION
    header_lines = SIZE  # the pillars, one a line

    def from_header(self, lines: Sequence[str]) -> Pillars:
        return self.game_class(pillars=parse_pillars(lines))

    def relayed_move_text(self, game: Pillars, move: Hashable) -> str:
        """The jury passes a claim on without its `!` (the seed: `!AeAj` reaches the
        other program as `AeAj`)."""
        return game.move_text(move).lstrip("!")


CODEC = PillarsCodec(Pillars)
