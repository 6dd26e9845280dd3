"""Pousse's contest format (RULES.md section 5): N and the moves so far on stdin, the
chosen move on stdout, one line."""

from __future__ import annotations

import re
from collections.abc import Hashable

from rules.base import MoveError
from rules.codecs.base import LineCodec, MalformedReply
from rules.pousse import Pousse


class PousseCodec(LineCodec[Pousse]):
    def judge(self, game: Pousse, output: str) -> Hashable:
        """One line holding a move; a side and number off this board (`L9` on 6x6) is an
        illegal move, not a malformed line."""
        try:
            return super().judge(game, output)
        except MalformedReply as err:
            line = output.removesuffix("\n")
            if re.fullmatch(r"[LRTB][1-9][0-9]{0,2}", line):  # well written, off the board
                raise MoveError(str(err)) from None
            raise


CODEC = PousseCodec(Pousse)
