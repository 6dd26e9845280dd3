"""The analysis board: any position, the AI's best lines deepening until stopped, moves
for either side, and the evaluation graph of the whole line.

It works on a copy of the game it is given (a game in progress, a replay's move, a
loaded position, the editor's): nothing it does reaches that game. The line is the
game's moves, then those played here; stepping back and forward walks it, and a move
that differs from the next one of the line replaces the rest.

The analysis (`ai.analysis.analyse`) runs in a thread worker through the services'
engine, tagged with the generation of the position it is about: an answer about
another position is dropped. It starts when the screen opens and on each position
while it is on; `a` stops and starts it. The per-move scores of the last finished
depth stay in `move_scores` (a board overlay reads them).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from rules import Game, MoveError
from tui.messages import EngineReady
from tui.screens.common import BoardScreen, fit, game_over_words, printable
from tui.services import Services
from tui.widgets.analysis_panels import LineMoves, LinesPanel
from tui.widgets.boards import board_class
from tui.widgets.boards.grid import GridBoard
from tui.widgets.eval_graph import EvalGraph
from tui.widgets.overlay_legend import OverlayLegend

if TYPE_CHECKING:
    from ai.analysis import Analysis
    from ai.engine import StopFlag


class AnalysisScreen(BoardScreen):
    """Analyse a copy of `game`; dismisses with None (the game it came from unchanged)."""

    DEFAULT_CSS = """
    AnalysisScreen #lines { height: 5; border: round $secondary; padding: 0 1; }
    AnalysisScreen #graph { height: 7; }
    AnalysisScreen.-tall #lines { height: 7; }
    AnalysisScreen.-tall #graph { height: 11; }
    """

    KEYS_HEADING = "Analysis"

    BINDINGS = [
        Binding("a", "toggle", "Analyse"),
        Binding("u,left", "back", "Back", key_display="u"),
        Binding("r,right", "forward", "Forward", key_display="r"),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("escape", "dismiss(None)", "Close", key_display="esc"),
        Binding("question_mark", "rules", "Help", key_display="?"),
        Binding("o", "overlay", "AI view"),
    ]

    class Lines(Message):
        def __init__(self, generation: int, analysis: Analysis) -> None:
            super().__init__()
            self.generation, self.analysis = generation, analysis

    class Done(Message):
        def __init__(self, generation: int, error: str | None) -> None:
            super().__init__()
            self.generation, self.error = generation, error

    AUTO_START = True  # the analysis and the graph start as the screen opens (tests: off)

    def __init__(self, game: Game, services: Services, analyse: bool | None = None) -> None:
        super().__init__()
        self.add_class(f"game-{game.name}")
        self.services = services
        work_copy = game.copy()
        work_copy.resume()  # a forfeit is not the board's: play on from the position
        self.game: Game = work_copy
        start = work_copy.copy()
        while start.history:
            start.undo()
        self.start = start
        self.line: list[Hashable] = list(work_copy.history)
        self.base = len(self.line)  # moves of the game it came from
        self.k = len(self.line)
        self.board: GridBoard = board_class(game.name)(id="board")
        # on from the start: the board is for analysing
        self.analysing = self.AUTO_START if analyse is None else analyse
        self.generation = 0  # one more each position: an analysis names its own
        self.analysis: Analysis | None = None
        self.move_scores: dict[Hashable, float] = {}  # the last depth's, every root move
        self.overlay_on = False  # `o`: the board shaded by move_scores, a legend for the graph
        self._stop: StopFlag | None = None
        self._status = "Analysis board: play for either side; the game itself is not changed."
        self.title_line = ("", "")

    # ----- layout ---------------------------------------------------------------------
    def side_panels(self) -> tuple[Widget, Widget, Widget]:
        return LinesPanel(id="lines"), EvalGraph(id="graph"), LineMoves(id="moves")

    def on_mount(self) -> None:
        for name, title in (("lines", "lines"), ("graph", "evaluation"),
                            ("moves", "line")):
            self.query_one(f"#{name}").border_title = title
        self.board.set_game(self.game)
        self.fit_board(self.board.size_needed())
        self.board.focus()
        graph = self.query_one(EvalGraph)
        graph.set_line(self.start, self.line)
        graph.set_current(self.k)
        self._render_all()
        if self.analysing:
            graph.evaluate(self.services)
            self._analyse()
        else:
            self._idle()

    # ----- the position on screen -------------------------------------------------------
    def _render_all(self) -> None:
        game = self.game
        outcome = game.outcome
        if outcome is not None:
            right = game_over_words(game)
        else:
            right = f"{game.seat_name(game.to_move)} to move · move {self.k} of {len(self.line)}"
        self.show_title(f"Arena · {game.title} · analysis", right)
        texts = self._texts()
        self.query_one(LineMoves).show(texts, game.players, self.k, self.base)
        self.query_one(EvalGraph).set_current(self.k)
        self._show_status()

    def _texts(self) -> list[str]:
        probe = self.start.copy()
        texts = []
        for move in self.line:
            texts.append(probe.move_text(move))
            probe.play(move)
        return texts

    def _show_status(self) -> None:
        status = self.query_one("#status", Static)
        width = (status.size.width or self.app.size.width) - 2
        line, _cut = fit(Text(self._status), width)
        status.update(line)

    def _say(self, text: str) -> None:
        self._status = printable(text)
        self._show_status()

    def _lines_title(self, state: str) -> None:
        depth = f" · depth {self.analysis.depth}" if self.analysis is not None else ""
        self.query_one(LinesPanel).border_title = f"lines{depth} · {state}"

    def _idle(self) -> None:
        panel = self.query_one(LinesPanel)
        if self.analysis is None:
            panel.show_text("a: analyse this position")
        self._lines_title("stopped")

    def on_grid_board_note(self, message: GridBoard.Note) -> None:
        if message.text is not None:
            self._say(message.text.plain)

    # ----- moves ------------------------------------------------------------------------
    def on_grid_board_move_picked(self, message: GridBoard.MovePicked) -> None:
        game = self.game
        move = message.move
        mover = game.seat_name(game.to_move)
        try:
            text = game.move_text(move)
            game.play(move)
        except MoveError as err:
            self._say(f"Illegal: {err}")
            return
        if self.k < len(self.line) and self.line[self.k] == move:
            pass  # the line's own next move: the rest of it stays
        else:
            self.line = [*self.line[:self.k], move]
        self.k += 1
        self._changed(f"{mover} played {text}.")

    def _changed(self, text: str) -> None:
        """After any change of position: stop the analysis of the last one, redraw, and
        analyse the new one if the analysis is on."""
        self.generation += 1
        self._cancel()
        self.analysis = None
        self.move_scores = {}
        self._show_overlay()
        self.board.refresh_game()
        self.query_one(EvalGraph).set_line(self.start, self.line)
        self._status = printable(text)
        self._render_all()
        if self.analysing:
            self._analyse()
        else:
            self._idle()

    def go(self, k: int) -> None:
        """Walk the line to the position after `k` of its moves."""
        k = max(0, min(len(self.line), k))
        if k == self.k:
            return
        while self.k > k:
            self.game.undo()
            self.k -= 1
        while self.k < k:
            self.game.play(self.line[self.k])
            self.k += 1
        where = "the start" if k == 0 else f"move {k}"
        self._changed(f"At {where} of the line: {self.game.seat_name(self.game.to_move)} "
                      "to move." if not self.game.is_over else f"At move {k}: the game is over.")

    def action_back(self) -> None:
        if self.k == 0:
            self._say("At the start of the line.")
            return
        self.go(self.k - 1)

    def action_forward(self) -> None:
        if self.k == len(self.line):
            self._say("At the end of the line: play a move on the board.")
            return
        self.go(self.k + 1)

    def action_jump(self, where: int) -> None:
        self.go(len(self.line) if where < 0 else where)

    def on_eval_graph_picked(self, message: EvalGraph.Picked) -> None:
        self.go(message.index)

    # ----- the analysis -----------------------------------------------------------------
    def action_toggle(self) -> None:
        if self.analysing:
            self.analysing = False
            self._cancel()
            self._idle()
            self._say("Analysis stopped; a starts it again.")
            return
        self.analysing = True
        self.query_one(EvalGraph).evaluate(self.services)
        self._say("Analysing: it deepens until a stops it.")
        self._analyse()

    # ----- the AI's view on the board ---------------------------------------------------
    def action_overlay(self) -> None:
        """Shade each move on the board by its score at the last depth; the legend takes the
        graph's place while it is on (80x24 has no room for both)."""
        self.overlay_on = not self.overlay_on
        self.query_one(EvalGraph).display = not self.overlay_on
        if self.overlay_on:
            legend = OverlayLegend(id="legend")
            legend.border_title = "AI view"
            self.query_one("#side").mount(legend, after=self.query_one(LinesPanel))
        else:
            self.query("#legend").remove()
        self._show_overlay()
        self._say("The AI's view: each move shaded by its score; o hides it." if self.overlay_on
                  else "The AI's view is off.")

    def _show_overlay(self) -> None:
        if not self.overlay_on:
            self.board.set_overlay(None)
            return
        analysis = self.analysis
        proven = [] if analysis is None else [line.move for line in analysis.lines
                                               if line.proven]
        self.board.set_overlay(self.move_scores or None, proven)
        line = (f"depth {analysis.depth}" if analysis is not None and self.move_scores
                else "a: analyse to score the moves" if not self.analysing else "scoring…")
        for legend in self.query(OverlayLegend):
            legend.show(self.board, line)

    def _analyse(self) -> None:
        panel = self.query_one(LinesPanel)
        game, name = self.game, self.game.name
        if game.is_over:
            outcome = game.outcome
            panel.show_text(f"game over: {outcome.reason if outcome else ''}", wrap=True)
            self._lines_title("nothing to analyse")
            return
        if (error := self.services.engine_error(name)) is not None:
            panel.show_text(f"AI unavailable: {error}")
            return
        if not self.services.engine_ready(name):
            self.services.prepare_engine(name)
            panel.show_text(self.services.compile_progress(name) or "AI: preparing...")
            return  # it starts once the engine is ready (on_engine_ready)
        self._cancel()
        self._stop = stop = self.services.new_stop()
        if self.analysis is None:
            panel.show_text(f"{game.seat_name(game.to_move)}: analysing...")
        self._lines_title("analysing")
        self._search(self.generation, game.copy(), stop)

    def on_engine_ready(self, message: EngineReady) -> None:
        if message.game_name == self.game.name and self.analysing:
            self._analyse()

    @work(thread=True, exclusive=True, group="analysis")
    def _search(self, generation: int, game: Game, stop: StopFlag) -> None:
        from ai.analysis import analyse

        try:
            analyse(self.services.engine(game.name), game, stop,
                    lambda found: self._post(self.Lines(generation, found)))
        except Exception as err:  # noqa: BLE001 - shown on the screen, never a crash
            self._post(self.Done(generation, f"{type(err).__name__}: {err}"))
        else:
            self._post(self.Done(generation, None))
        finally:
            self.services.release(stop)

    def on_analysis_screen_lines(self, message: Lines) -> None:
        if message.generation != self.generation or not self.analysing:
            return
        self.show_analysis(message.analysis)

    def show_analysis(self, analysis: Analysis) -> None:
        """Show a finished depth's lines (also what the tests give it)."""
        self.analysis = analysis
        self.move_scores = dict(analysis.scores)
        self._show_overlay()
        self.query_one(LinesPanel).show_lines(analysis)
        if analysis.finished:
            solved = all(line.proven for line in analysis.lines)
            self._lines_title("solved" if solved else "deepest")
        else:
            self._lines_title("analysing" if self.analysing else "stopped")

    def on_analysis_screen_done(self, message: Done) -> None:
        if message.generation != self.generation:
            return
        self._stop = None
        if message.error is not None:
            self.query_one(LinesPanel).show_text(f"AI error: {message.error}")
            self._say(f"The analysis failed: {message.error}")

    def _cancel(self) -> None:
        if self._stop is not None:
            self._stop.set()
            self._stop = None

    def on_unmount(self) -> None:
        self._cancel()
