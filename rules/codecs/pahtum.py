"""Pah-Tum's contest format (RULES.md section 1): the 56-byte board on stdin, the same
board with one more letter on stdout, so that `cat board | prog | prog` plays a game."""

from __future__ import annotations

from rules.codecs.base import PositionCodec
from rules.pahtum import PahTum

CODEC = PositionCodec(PahTum)
