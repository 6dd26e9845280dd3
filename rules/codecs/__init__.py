"""Each game's contest format, found by name as its board and engine are.

The codec of a game `NAME` is `CODEC` in `rules.codecs.NAME`, imported on first use so
that a contest program loads one game only. The codecs sit beside the rules rather than
in them: `rules/NAME.py` stays the readable reference of the game itself, and what a
contest's wire format asks (arguments, replies, strict reading of another program's
output) is written once per game here, without a dozen hooks on `Game`.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from rules.base import Game
from rules.codecs.base import (
    Codec,
    LineCodec,
    MalformedReply,
    PositionCodec,
    Protocol,
    exact_text,
    inexact,
)


def codec_of(game_class: type[Game]) -> Codec[Any]:
    """The codec of `game_class`'s game (a test's subclass of a game speaks its game's)."""
    return import_module(f"{__name__}.{game_class.name}").CODEC


__all__ = ["Codec", "LineCodec", "MalformedReply", "PositionCodec", "Protocol", "codec_of",
           "exact_text", "inexact"]
