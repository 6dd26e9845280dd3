"""Messages between the screens, the services and the app.

Screens never switch screens or call each other: they post a navigation
message, which bubbles up to the app, and the app (which owns navigation)
switches. The services' warm-up thread posts `EngineReady` to the app, which
forwards a copy to every screen on the stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from rules import Game
    from tui.play.session import Session


class OpenMenu(Message):
    """Go to the game menu, with `game_name`'s entry highlighted (None: the first)."""

    def __init__(self, game_name: str | None = None) -> None:
        super().__init__()
        self.game_name = game_name


class OpenSetup(Message):
    """Go to the new-game screen of `game_name`."""

    def __init__(self, game_name: str) -> None:
        super().__init__()
        self.game_name = game_name


class OpenEditor(Message):
    """Edit a position of `game_name`: from its start, or from (a copy of) `game`, in which
    case the editor goes over the screen that asked and escape comes back to it."""

    def __init__(self, game_name: str, game: Game | None = None) -> None:
        super().__init__()
        self.game_name, self.game = game_name, game


class StartSession(Message):
    """Play `session` on a new game screen; `status` is its first status line."""

    def __init__(self, session: Session, status: str | None = None) -> None:
        super().__init__()
        self.session, self.status = session, status


class OpenReplay(Message):
    """Step through the finished game of `session` (over its game screen)."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session


class OpenAnalysis(Message):
    """Open the analysis board on a copy of `game` (over the screen that asks)."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game


class EngineReady(Message, bubble=False):  # the app forwards it: a copy must not come back
    """A game's engine has been imported and warmed up (`error`: why it could not be)."""

    def __init__(self, game_name: str, error: str | None) -> None:
        super().__init__()
        self.game_name, self.error = game_name, error
