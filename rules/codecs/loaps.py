"""LOAPS's contest format (RULES.md section 2): the position file's path as the argument,
a file that holds both players' points and seconds left; the reply is `<from> <to>`."""

from __future__ import annotations

from collections.abc import Sequence

from rules.codecs.base import LineCodec, Protocol
from rules.loaps import Loaps


class LoapsCodec(LineCodec[Loaps]):
    protocol = Protocol.FILE
    args_help = "the position file's path (none: the file on stdin)"

    def native_text(self, game: Loaps, seconds_left: Sequence[float | None] | None = None
                    ) -> str:
        return game.native_text(seconds_left)

    def start_seconds_left(self, game: Loaps) -> tuple[float, ...] | None:
        return game.seconds_left


CODEC = LoapsCodec(Loaps)
