"""The games and the one list that names them: everything else finds a game by name.

A game `NAME` is the module `rules.NAME`, whose `GAME` is its `Game` class; its
contest format `rules.codecs.NAME` (`codec_of`), its engine adapter `ai.NAME`, its
board `tui.widgets.boards.NAME`. Adding a game means writing those files and adding
its name to `GAMES` (docs/adding-a-game.md).
"""

from __future__ import annotations

from importlib import import_module

from rules.base import Game, MoveError, OptionSpec, PositionError, RulesError
from rules.clock import Clock, ClockKind, TimeControl
from rules.codecs import Codec, MalformedReply, Protocol, codec_of
from rules.match import MatchPoints, MatchRule, MatchState, PlainWins, SumOfMargins, SumOfPoints
from rules.outcome import Outcome, Termination
from rules.players import DEFAULT_LEVEL, LEVELS, PlayerError, PlayerSpec

# The games, in menu order. Imported on first use so a contest program loads one game only.
GAMES: tuple[str, ...] = ("pahtum", "loaps", "pillars", "boxing", "pousse")


def game_names() -> list[str]:
    """Registered game names, in menu order."""
    return list(GAMES)


def canonical_name(name: str) -> str:
    """`Pah-Tum`, `pah_tum` -> `pahtum`; RulesError naming the known games otherwise."""
    key = name.strip().lower().replace("-", "").replace("_", "")
    if key not in GAMES:
        shown = name if len(name) <= 30 else name[:27] + "..."
        raise RulesError(f"unknown game {shown!r}; known games: {', '.join(GAMES)}")
    return key


def get_game(name: str) -> type[Game]:
    """The game class for `name`; RulesError naming the known games otherwise."""
    return import_module(f"rules.{canonical_name(name)}").GAME


__all__ = [
    "DEFAULT_LEVEL", "GAMES", "LEVELS", "Clock", "ClockKind", "Codec", "Game", "MatchPoints",
    "MatchRule", "MalformedReply", "MatchState", "MoveError", "OptionSpec", "Outcome",
    "PlainWins", "PlayerError", "PlayerSpec", "PositionError", "Protocol", "RulesError",
    "SumOfMargins", "SumOfPoints", "Termination", "TimeControl", "canonical_name", "codec_of",
    "game_names", "get_game",
]
