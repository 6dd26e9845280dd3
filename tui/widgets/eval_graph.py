"""The evaluation graph: one column per position of a game, the evaluation for the player
who moved first drawn up (better for them) or down (better for the other) from a zero line.

Hand-drawn in half blocks (▀ ▄ █): two levels a row, crisp at any terminal size,
nothing to install, and a picture that is the same text each time (the snapshots).
A plotting widget (textual-plotext) would bring axes and labels that take the few
rows an 80x24 screen can spare, and a dependency. What the filling in is doing shows on
the frame's lower edge. Evaluations are clamped to the largest unproven one
(scores are in each game's own unit: no fixed scale fits them all); proven results
reach the top or bottom in their own colour, a proven draw is a diamond on the zero
line, and a position not yet evaluated is a dot there. The current move's column is
highlighted; a click on a column posts `Picked` with its position's index.

`evaluate(services)` fills the graph in a thread worker: each position is searched
briefly on a scratch engine (`ai.analysis.evaluate_line`) and drawn as it comes.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.worker import get_current_worker

from rules import Game

if TYPE_CHECKING:
    from ai.analysis import Evaluation
    from ai.engine import StopFlag
    from tui.services import Services

FULL, UPPER, LOWER = "█", "▀", "▄"
BASELINE = "▁"  # an empty cell just above the zero line: the line itself
DRAW, PENDING = "◆", "·"
WIDEST = 3  # columns a position takes at most when the game is short
READY_POLL = 0.1  # seconds between looks at whether the engine is ready


class EvalGraph(Widget):
    """The evaluation of every position of a line of moves, for the first player."""

    DEFAULT_CSS = """
    EvalGraph { height: 7; border: round $secondary; padding: 0 1; }
    EvalGraph > .eval-graph--up { color: #ff6b6b; }
    EvalGraph > .eval-graph--down { color: #5fb4ff; }
    EvalGraph > .eval-graph--proven { color: #ffd75f; text-style: bold; }
    EvalGraph > .eval-graph--axis { color: $text-muted; }
    EvalGraph > .eval-graph--current { background: $boost; text-style: bold; }
    EvalGraph > .eval-graph--legend { color: $text-muted; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "eval-graph--up", "eval-graph--down", "eval-graph--proven", "eval-graph--axis",
        "eval-graph--current", "eval-graph--legend"}

    SECONDS = 0.1  # each position's search (ai.analysis.GRAPH_SECONDS; tests: less)

    class Picked(Message):
        """The user chose the position after `index` moves of the line."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Evaluated(Message):
        """A worker's evaluation of one position (for the graph itself)."""

        def __init__(self, generation: int, index: int, value: Evaluation) -> None:
            super().__init__()
            self.generation, self.index, self.value = generation, index, value

    class Failed(Message):
        """A worker's search failed: the legend says why (one line)."""

        def __init__(self, generation: int, error: str) -> None:
            super().__init__()
            self.generation, self.error = generation, error

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.start: Game | None = None
        self.moves: list[Hashable] = []
        self.values: list[Evaluation | None] = []  # one per position: len(moves) + 1
        self.current = 0
        self.first_name = ""
        self.other_name = ""
        self.generation = 0  # one more each time the line changes: late answers dropped
        self.status = ""  # what the graph's worker is doing, under the graph
        self._stop: StopFlag | None = None
        self._services: Services | None = None

    # ----- the screen's calls -------------------------------------------------------------
    def set_line(self, start: Game, moves: Sequence[Hashable]) -> None:
        """Show the positions of `moves` played from `start`; the evaluations of the
        positions before the first move that changed are kept."""
        moves = list(moves)
        same = self.start is not None and self.start.key() == start.key() and \
            type(self.start) is type(start)
        keep = 0
        if same:
            while keep < min(len(moves), len(self.moves)) and moves[keep] == self.moves[keep]:
                keep += 1
            keep += 1  # the position after the last shared move
        old = self.values
        self.start = start.copy()
        self.start.ended = None
        self.moves = moves
        self.values = [old[i] if i < min(keep, len(old)) else None
                       for i in range(len(moves) + 1)]
        first = self.start.to_move
        self.first_name = self.start.seat_name(first)
        self.other_name = self.start.seat_name((first + 1) % self.start.players) \
            if self.start.players == 2 else "the others"
        self.current = min(self.current, len(moves))
        self.generation += 1
        if self._services is not None and any(v is None for v in self.values):
            self.evaluate(self._services)
        self.refresh()

    def set_game_line(self, game: Game) -> None:
        """Show the positions of `game`'s moves from its start."""
        start = game.copy()
        start.ended = None
        while start.history:
            start.undo()
        self.set_line(start, game.history)

    def set_values(self, values: Sequence[Evaluation | None]) -> None:
        """Given evaluations, one per position (tests, or an analysis that has them)."""
        self.values = list(values)[:len(self.moves) + 1]
        self.values += [None] * (len(self.moves) + 1 - len(self.values))
        self.refresh()

    def set_current(self, index: int) -> None:
        self.current = max(0, min(index, len(self.moves)))
        self.refresh()

    def evaluate(self, services: Services) -> None:
        """Fill in the positions not yet evaluated, in a thread worker (again after each
        change of line); the engine is prepared first if it is not yet."""
        self._services = services
        self.cancel()
        if self.start is None:
            return
        begin = next((i for i, v in enumerate(self.values) if v is None), None)
        if begin is None:
            return
        name = self.start.name
        if services.engine_error(name) is not None:
            self.show_status("no AI to evaluate with")
            return
        if not services.engine_ready(name):
            services.prepare_engine(name)
        self._stop = stop = services.new_stop()
        self.show_status("evaluating…" if services.engine_ready(name) else "AI: preparing…")
        self.run_worker(lambda: self._fill(services, stop, self.generation, begin),
                        thread=True, exclusive=True, group="eval-graph")

    def show_status(self, text: str) -> None:
        """What the filling in is doing, on the frame's lower edge (none once done)."""
        self.status = text
        self.border_subtitle = text or None

    def cancel(self) -> None:
        """Stop filling in (the graph keeps what it has)."""
        if self._stop is not None:
            self._stop.set()
            self._stop = None

    def on_unmount(self) -> None:
        self.cancel()

    # ----- the worker ------------------------------------------------------------------------
    def _fill(self, services: Services, stop: StopFlag, generation: int, begin: int) -> None:
        from ai.analysis import evaluate_line

        assert self.start is not None
        start, moves, name = self.start.copy(), list(self.moves), self.start.name
        worker = get_current_worker()
        try:
            while not services.engine_ready(name):  # the app's warm-up thread loads it
                if stop.is_set or worker.is_cancelled or services.engine_error(name):
                    return
                time.sleep(READY_POLL)
            from ai.analysis import graph_engine

            engine = graph_engine(services.engine(name))
            evaluate_line(engine, start, moves, stop,
                          lambda i, v: self._post(self.Evaluated(generation, i, v)), begin,
                          self.SECONDS)
        except Exception as err:  # noqa: BLE001 - the graph says so; never a crash
            self._post(self.Failed(generation, f"AI error: {type(err).__name__}: {err}"))
        finally:
            services.release(stop)

    def _post(self, message: Message) -> None:
        try:
            self.post_message(message)
        except RuntimeError:
            pass  # the app has closed

    def on_eval_graph_evaluated(self, message: Evaluated) -> None:
        message.stop()
        if message.generation != self.generation:
            return
        if message.index < len(self.values):
            self.values[message.index] = message.value
            if all(v is not None for v in self.values):
                self.show_status("")
            elif self.status != "evaluating…":
                self.show_status("evaluating…")
        self.refresh()

    def on_eval_graph_failed(self, message: Failed) -> None:
        message.stop()
        if message.generation == self.generation:
            self.show_status(message.error)

    # ----- input ---------------------------------------------------------------------------
    def index_at(self, x: int) -> int | None:
        """The position drawn in column `x` of the content, or None past the last."""
        n = len(self.values)
        width = self.content_size.width
        if n == 0 or width <= 0 or x < 0:
            return None
        if n <= width:
            index = x // min(WIDEST, width // n)
            return index if index < n else None
        if x >= width:
            return None
        span = self.span(x, width)  # its last position with a value, else its first
        return next((i for i in reversed(span) if self._drawn(i)), span[0])

    def span(self, x: int, width: int) -> range:
        """The positions column `x` stands for when there are more than `width` (a
        three-player game has a value only at its first player's turns, so a column
        that stood for one position alone mostly stood for a blank one)."""
        n = len(self.values)
        low = x * n // width
        return range(low, max(low + 1, (x + 1) * n // width))

    def _drawn(self, index: int) -> bool:
        value = self.values[index]
        return value is not None and value.score is not None

    def column_of(self, index: int, width: int) -> tuple[int, int]:
        """The first column of position `index` and the columns it takes."""
        n = len(self.values)
        if n <= width:
            each = min(WIDEST, width // n)
            return index * each, each
        return index * width // n, 1

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        index = self.index_at(offset.x)
        if index is not None:
            self.post_message(self.Picked(index))

    # ----- drawing ---------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"eval-graph--{name}", partial=True)

    def scale(self) -> float:
        """The evaluation drawn full height: the largest unproven one (at least 1)."""
        known = [abs(v.score) for v in self.values
                 if v is not None and v.score is not None and not v.proven]
        return max([1.0, *known])

    def legend(self, width: int | None = None) -> Text:
        """The names, the scale, the proven colour and the position shown: spaced by one
        where two do not fit in `width`, then without the position (the render cuts the
        rest)."""
        for gap, count in (("  ", True), (" ", True), (" ", False)):
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(f"▲ {self.first_name}", style=self._style("up"))
            text.append(" ")
            text.append(f"▼ {self.other_name}", style=self._style("down"))
            text.append(f"{gap}±{self.scale():.0f}{gap}", style=self._style("legend"))
            text.append("proven", style=self._style("proven"))
            if count:
                text.append(f"{gap}{self.current}/{len(self.moves)}",
                            style=self._style("legend"))
            if width is None or text.cell_len <= width:
                break
        return text

    def levels(self, value: Evaluation | None, rows: int) -> int:
        """Half-rows filled from the zero line: positive up, negative down."""
        if value is None or value.score is None:
            return 0
        if value.proven:
            return 0 if value.score == 0 else rows if value.score > 0 else -rows
        share = max(-1.0, min(1.0, value.score / self.scale()))
        return round(share * rows)

    def render(self) -> Text:
        width, height = self.content_size.width, self.content_size.height
        out = Text(no_wrap=True, overflow="crop")
        legend = self.legend(width)
        legend.truncate(max(1, width), overflow="ellipsis")
        out.append_text(legend)
        rows = height - 1
        if rows <= 0 or width <= 0 or not self.values:
            return out
        columns = self._columns(width)
        current = [index == self.current for index in columns]
        if len(self.values) > width:  # the column whose positions hold the current one
            current = [self.current in self.span(x, width) for x in range(width)]
        halves = rows  # half-rows on each side of the zero line
        for r in range(rows):
            out.append("\n")
            bottom = 2 * (rows - 1 - r)  # the half-row at this row's lower edge, from the
            # bottom of the graph; the zero line is at half-row `rows`
            for x in range(width):
                out.append(*self._cell(columns[x], current[x], bottom, halves, r, rows))
        return out

    def _columns(self, width: int) -> list[int | None]:
        columns: list[int | None] = [None] * width
        for index in range(len(self.values)):
            at, each = self.column_of(index, width)
            for x in range(at, min(width, at + each)):
                if columns[x] is None or self.values[index] is not None:
                    columns[x] = index
        if len(self.values) > width:  # a column stands for the position its click picks
            columns = [self.index_at(x) for x in range(width)]
        return columns

    def _cell(self, index: int | None, current: bool, bottom: int, halves: int, row: int,
              rows: int) -> tuple[str, Style]:
        if index is None:
            return " ", Style()
        value = self.values[index]
        style = self._style("current") if current else Style()
        level = self.levels(value, halves)
        zero_row = rows - 1 - (rows // 2) if rows % 2 == 0 else rows // 2
        filled_lo = filled_hi = False
        lo, hi = bottom, bottom + 1
        if level > 0:  # fills half-rows rows .. rows + level - 1
            filled_lo = rows <= lo < rows + level
            filled_hi = rows <= hi < rows + level
        elif level < 0:  # fills rows + level .. rows - 1
            filled_lo = rows + level <= lo < rows
            filled_hi = rows + level <= hi < rows
        char = FULL if filled_lo and filled_hi else LOWER if filled_lo else \
            UPPER if filled_hi else ""
        if char:
            kind = "proven" if value is not None and value.proven else \
                "up" if level > 0 else "down"
            return char, self._style(kind) + style
        if row == zero_row:  # the row the zero line runs through (or just above it)
            if value is None:
                return PENDING, self._style("axis") + style
            if value.proven and value.score == 0:
                return DRAW, self._style("proven") + style
            return (BASELINE if rows % 2 == 0 else "─"), self._style("axis") + style
        return " ", style

