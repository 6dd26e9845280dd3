"""Each game's position editor declaration, found by name as its codec and board are.

The draft of a game `NAME` is `DRAFT` in `rules.edit.NAME`: what a person may put on
the board, the position-wide fields, and how the edited position becomes a `Game`
through the rules' own reading of a native position (so the reason an edited position
is not legal is the rules' own words). The editor screen reads only this interface.
"""

from __future__ import annotations

from importlib import import_module

from rules.base import Game
from rules.edit.base import Draft, Field, Paint


def draft_class(game_class: type[Game]) -> type[Draft]:
    """The editor declaration of `game_class`'s game."""
    return import_module(f"{__name__}.{game_class.name}").DRAFT


__all__ = ["Draft", "Field", "Paint", "draft_class"]
