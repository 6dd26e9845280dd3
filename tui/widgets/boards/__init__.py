"""The board widgets: `grid.GridBoard` is the base, `<game>.BOARD` each game's board.

A game's board is the module `tui.widgets.boards.<name>` (the game's name in
`rules.GAMES`) whose `BOARD` is a `GridBoard` subclass; nothing else registers it.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

from rich.text import Text

from rules import GAMES
from tui.widgets.boards.grid import GridBoard


def has_board(game_name: str) -> bool:
    """Whether the game has a board module (it may not, while a game is being added)."""
    return game_name in GAMES and find_spec(f"{__name__}.{game_name}") is not None


def board_class(game_name: str) -> type[GridBoard]:
    """The board widget class for a game (KeyError if it has none)."""
    if not has_board(game_name):
        raise KeyError(f"no board for {game_name!r}")
    return import_module(f"{__name__}.{game_name}").BOARD


def replay_board(cls: type[GridBoard]) -> type[GridBoard]:
    """The game's board class, its line under the board (a board that has one) saying
    what its `replay_line` says (a replay's position, a preview's) instead of whose turn
    it waits for."""
    if not hasattr(cls, "info_text"):
        return cls

    class ReplayBoard(cls):  # type: ignore[valid-type, misc]
        replay_line: Text | None = None

        def info_text(self) -> Text:
            if self.replay_line is not None:
                return self.replay_line
            return super().info_text()  # type: ignore[misc]

    ReplayBoard.__name__ = ReplayBoard.__qualname__ = cls.__name__  # its styles' name
    return ReplayBoard
