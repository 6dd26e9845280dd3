"""The AI's view on the board, for the screens that show a game (`o` toggles it).

`OverlayView` is a mixin of a `BoardScreen` with `board` and `services`: while the
view is on, every position the screen shows (`overlay_position`, the screen's one
hook) is scored by the engine in a thread worker (`Engine.rate_moves`, deepening for
`SECONDS`), and the board shades each move's place by its score
(`GridBoard.set_overlay`); a legend beside the board says what the shades mean. An
answer about a position no longer shown is dropped, and a new position stops the
search under way. The screen calls `overlay_refresh()` after each change.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from textual import work
from textual.message import Message

from rules import Game
from tui.messages import EngineReady
from tui.widgets.overlay_legend import OverlayLegend

if TYPE_CHECKING:
    from ai.engine import MoveScores, StopFlag
    from tui.services import Services
    from tui.widgets.boards.grid import GridBoard

SECONDS = 0.5  # the most a position's scores take (a deeper depth would not finish)
KEYS = "o hides"


class OverlayScored(Message):
    """The scores of the position `key` names (None: no depth finished), or an error."""

    def __init__(self, key: Hashable, rated: MoveScores | None, error: str | None = None
                 ) -> None:
        super().__init__()
        self.key, self.rated, self.error = key, rated, error


class OverlayView:
    """`action_overlay` (the screen binds `o` to it), the worker and its answer; the
    screen is a `BoardScreen` (its `_post` sends from the worker thread)."""

    board: GridBoard
    services: Services
    overlay_on = False
    _overlay_key: Hashable = None  # the position the shades (or the search) are about
    _overlay_stop: StopFlag | None = None

    def overlay_position(self) -> tuple[Hashable, Game | None, str]:
        """The screen's position: a key that changes with it, the game to score (None
        when there is nothing to score now) and why not."""
        raise NotImplementedError

    # ----- on and off ------------------------------------------------------------------
    def action_overlay(self) -> None:
        self.overlay_on = not self.overlay_on
        legend = self._legend()
        legend.display = self.overlay_on
        self._overlay_key = None
        if not self.overlay_on:
            self._overlay_cancel()
            self.board.set_overlay(None)
            return
        self.overlay_refresh()

    def _legend(self) -> OverlayLegend:
        """The legend under the engine panel, mounted the first time the view is on."""
        found = self.query(OverlayLegend)  # type: ignore[attr-defined]
        if found:
            return found.first()
        legend = OverlayLegend(id="overlay-legend")
        legend.border_title = "AI view"
        self.query_one("#side").mount(legend, after="#engine")  # type: ignore[attr-defined]
        return legend

    def _legend_line(self, line: str) -> None:
        self._legend().show(self.board, line)

    # ----- scoring the position shown ----------------------------------------------------
    def overlay_refresh(self) -> None:
        """After a change: score the position shown, unless its shades are there already
        (or on their way)."""
        if not self.overlay_on:
            return
        key, game, why = self.overlay_position()
        if key == self._overlay_key:
            return
        self._overlay_cancel()
        self._overlay_key = key
        self.board.set_overlay(None)
        if game is None:
            self._legend_line(f"{why}; {KEYS}")
            return
        name = game.name
        if (error := self.services.engine_error(name)) is not None:
            self._legend_line(f"AI unavailable: {error}")
            return
        if not self.services.engine_ready(name):
            self.services.prepare_engine(name)
            self._overlay_key = None  # scored once the engine is ready (on_engine_ready)
            self._legend_line("AI: loading...")
            return
        self._overlay_stop = stop = self.services.new_stop()
        self._legend_line("scoring the moves...")
        self._overlay_worker(key, game.copy(), stop)

    @work(thread=True, exclusive=True, group="overlay")
    def _overlay_worker(self, key: Hashable, game: Game, stop: StopFlag) -> None:
        try:
            rated = self.services.engine(game.name).rate_moves(game, SECONDS, stop)
        except Exception as err:  # noqa: BLE001 - one line in the legend, never a crash
            self._post(OverlayScored(key, None, f"{type(err).__name__}: {err}"))  # type: ignore[attr-defined]
        else:
            self._post(OverlayScored(key, rated))  # type: ignore[attr-defined]
        finally:
            self.services.release(stop)

    def on_overlay_scored(self, message: OverlayScored) -> None:
        if not self.overlay_on or message.key != self._overlay_key:
            return  # switched off, or about a position no longer shown
        self._overlay_stop = None
        rated = message.rated
        if rated is None:
            self._legend_line(f"AI error: {message.error}" if message.error
                              else f"no depth finished in time; {KEYS}")
            return
        self.overlay_show(rated)

    def overlay_show(self, rated: MoveScores) -> None:
        """Turn the view on with `rated`, the scores of the position shown (the worker's
        answer; a test's fixed scores)."""
        self.overlay_on = True
        self._overlay_key = self.overlay_position()[0]
        self._legend().display = True
        self.board.set_overlay(rated.scores, rated.proven)
        scored = len(rated.scores)
        shown = self.board.game
        legal = len(shown.legal_moves()) if shown is not None else scored
        # where the engine scores only its candidates, the legend says how many of all
        moves = f"{scored} of {legal}" if scored < legal else str(scored)
        moves += " move" if legal == 1 else " moves"
        self._legend_line(f"depth {rated.depth}, {moves}; {KEYS}")

    def on_engine_ready(self, message: EngineReady) -> None:
        if self.overlay_on and self._overlay_key is None:
            self.overlay_refresh()

    def _overlay_cancel(self) -> None:
        if self._overlay_stop is not None:
            self._overlay_stop.set()
            self._overlay_stop = None

    def on_unmount(self) -> None:
        self._overlay_cancel()
