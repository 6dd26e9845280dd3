"""Which board widget shows which game: a new game's board plugs in with one entry."""

from __future__ import annotations

from importlib import import_module

from tui.widgets.board import BoardWidget

# game name -> (module, class), imported on first use
BOARDS: dict[str, tuple[str, str]] = {
    "pahtum": ("tui.widgets.pahtum_board", "PahTumBoard"),
    "pousse": ("tui.widgets.pousse_board", "PousseBoard"),
}


def has_board(game_name: str) -> bool:
    return game_name in BOARDS


def board_class(game_name: str) -> type[BoardWidget]:
    """The board widget class for a game (KeyError if none is registered)."""
    module, cls = BOARDS[game_name]
    return getattr(import_module(module), cls)
