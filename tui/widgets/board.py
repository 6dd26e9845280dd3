"""The board widget base every game's board implements.

A board shows one `Game` and reports the user's choice upward with a
`MovePicked` message; the screen owns the game and the session, and never
reaches inside the board. To plug in a new game's board:

- subclass `BoardWidget`; draw `self.game` in `render()` (also `self.hint`,
  the move to highlight or None, and `self.locked`: True while it is not a
  human's turn, so hide the cursor then);
- turn clicks and keys into a move and call `self.pick(move)` (it posts
  `MovePicked` unless the board is locked or the game over; the screen checks
  legality and shows errors in the status line);
- optionally post `Note` with a line about the move under the cursor when the
  board has no room to show it (the screen puts it on the status line);
- optionally override `on_new_game()` (reset the cursor), `describe_result()`
  (the end screen's lines) and `get_content_width/height` (auto size; the
  board box grows to fit, the side panel takes the rest of 80 columns);
- add one entry to `BOARDS` in `tui/widgets/boards.py`.

The screen calls `set_game` for a new/loaded/return game, `refresh_game`
after each move/undo/redo, and `show_hint` with the AI's suggestion.
"""

from __future__ import annotations

from collections.abc import Hashable

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from rules import Game


class BoardWidget(Widget, can_focus=True):
    """Base of the board widgets: shows a game, posts `MovePicked` for a user's move."""

    class MovePicked(Message):
        """The user chose `move` (not yet checked for legality)."""

        def __init__(self, move: Hashable) -> None:
            super().__init__()
            self.move = move

    class Note(Message):
        """A line about the move being chosen, for the screen's status line (None: clear).

        Boards send it when they have no room to show that line themselves.
        """

        def __init__(self, text: Text | None) -> None:
            super().__init__()
            self.text = text

    hint: reactive[Hashable | None] = reactive(None)
    locked: reactive[bool] = reactive(False)  # True while it is not a human's turn

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.game: Game | None = None

    def set_game(self, game: Game) -> None:
        """Show `game` (a new object: new game, loaded game, return game)."""
        self.game = game
        self.hint = None
        self.on_new_game()
        self.refresh()

    def on_new_game(self) -> None:
        """Reset per-game view state (cursor...); subclasses override."""

    def rows_needed(self) -> int:
        """The fewest rows the board can be drawn in (the screen makes room if it must)."""
        return 0

    def refresh_game(self) -> None:
        """The game changed in place (a move, undo or redo): redraw."""
        self.hint = None
        self.refresh()

    def show_hint(self, move: Hashable | None) -> None:
        """Highlight a suggested move, or clear the highlight with None."""
        self.hint = move

    # reactive attributes (hint, locked, a cursor) redraw by themselves; focus does not
    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def pick(self, move: Hashable) -> None:
        """Report a move the user chose, unless the board is locked."""
        if not self.locked and self.game is not None and not self.game.is_over:
            self.post_message(self.MovePicked(move))

    @classmethod
    def describe_result(cls, game: Game) -> list[str]:
        """Lines explaining the final position (the end screen shows them)."""
        outcome = game.outcome
        return [outcome.reason] if outcome else []
