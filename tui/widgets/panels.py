"""The side panels every game screen shares: players, engine line (the move list is
`tui.widgets.move_list`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import RenderResult
from textual.widgets import Static

from rules.clock import ClockKind
from tui.play.session import Session


def move_gap(texts: Sequence[str]) -> str:
    """What sets moves apart in a row: three spaces where a move has a space inside
    ("e1 e3   g3 f2", as the moves panel sets them), else one."""
    return " " * (3 if any(" " in t for t in texts) else 1)


def join_moves(texts: Sequence[str]) -> str:
    return move_gap(texts).join(texts)

if TYPE_CHECKING:
    from ai.engine import SearchResult
    from rules import Game

SEATS = 8  # seats with a colour of their own (arena.tcss, as on the boards); then it wraps
LOW_TIME = 10.0  # seconds: a limited clock turns red below this


def clock_text(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def clip(text: str, width: int, style: str = "") -> Text:
    """`text` in `width` cells: padded, or ellipsized when it is longer."""
    out = Text(text, style=style)
    out.truncate(max(1, width), overflow="ellipsis", pad=True)
    return out


class PlayersPanel(Static):
    """One line per seat: turn arrow, mark, who, score, clock; then the match so far.

    The clock shows the time left under a limited control (counting down), the
    time used without one. Names are never cut short: a name column as wide as
    the longest name (and the panel) allows, then one line per participant for
    the match's standing; a name is ellipsized only where the panel is too narrow.
    """

    DEFAULT_CSS = """
    PlayersPanel { text-wrap: nowrap; text-overflow: ellipsis; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {f"players-panel--seat-{i}" for i in range(SEATS)}
    ROW = 15  # a row's columns besides the name and the unit: "▶ X ", " nnn ", " ", clock
    NAME = 16  # the name and the unit together take at least this, so rows keep their width

    _session: Session | None = None
    _viewed: Game | None = None

    def on_resize(self) -> None:
        if self._session is not None:
            self.show(self._session, self._viewed)  # the name column depends on the width

    def show(self, session: Session, viewed: Game | None = None) -> None:
        """The seats of `session`; the scores, the turn and the game's facts those of
        `viewed` when an earlier position is looked at (the clocks stay the game's)."""
        self._session = session
        self._viewed = viewed
        game = viewed if viewed is not None else session.game
        scores = game.scores()
        unit = game.scores_unit()
        width = self.content_size.width  # 0 until the panel is laid out: nothing ellipsized
        labels = [session.label(mark) for mark in range(len(game.marks))]
        name_w = max(self.NAME - len(unit), *(cell_len(label) for label in labels))
        if width:
            name_w = min(name_w, width - self.ROW - len(unit))
        text = Text(no_wrap=True, overflow="ellipsis")
        for mark, name in enumerate(game.marks):
            turn = mark == game.to_move and not game.is_over
            text.append("▶ " if turn else "  ", style="bold #ffd75f")
            seat = self.get_component_rich_style(f"players-panel--seat-{mark % SEATS}",
                                                 partial=True)
            text.append(f"{name} ", style=seat)
            text.append_text(clip(labels[mark], name_w, "bold" if turn else ""))
            said = unit if scores[mark] != 1 else unit.removesuffix("s")  # 1 pt, 1 line
            text.append(f" {scores[mark]:>3} {said:<{len(unit)}} ")
            left = session.clock_left(mark)
            if left is None:
                text.append(f"{clock_text(session.clock_spent(mark)):>5}")
            else:
                text.append(f"{clock_text(left):>5}", style="bold red" if left < LOW_TIME else "")
            if mark < len(game.marks) - 1:
                text.append("\n")
        for line in game.panel_lines():  # the game's own facts: move number, groups
            text.append("\n")
            text.append_text(clip(line, width or len(line), "dim"))
        if session.match.results:  # a later game of the match: how it stands so far
            text.append("\n")
            text.append_text(self._standing(session, width))
        self.border_subtitle = self.clock_caption(session)
        self.update(text)

    @staticmethod
    def clock_caption(session: Session) -> str:
        """What the clock column shows, under the panel: a replay's and an unlimited
        game's times count up, so a still figure would read as time left."""
        kind = session.clock.control.kind
        return ("time used" if kind is ClockKind.NONE else
                "time left this move" if kind is ClockKind.MOVE else "time left")

    @staticmethod
    def _standing(session: Session, width: int) -> Text:
        """A heading, then a line per participant: the name in full, the standing after it
        (numbers in a column); a name is ellipsized only where the panel is too narrow."""
        rule = session.match.rule
        numbers = [rule.number(value) for value in session.standing()]
        names = [session.label_of(p) for p in range(len(numbers))]
        number_w = max(len(number) for number in numbers)
        name_w = max(cell_len(name) for name in names)
        if width:
            name_w = min(name_w, width - 1 - number_w)
        text = Text("match so far", style="dim")
        for name, number in zip(names, numbers, strict=True):
            text.append("\n")
            text.append_text(clip(name, name_w, "dim"))
            text.append(f" {number:>{number_w}}", style="dim")
        return text


class EnginePanel(Static):
    """What the AI is doing: preparing, thinking (depth, score, best, nodes, speed), idle."""

    _wrapped: Text | None = None  # shown wrapped over the panel's lines (see render)

    def show_text(self, line: str, wrap: bool = False) -> None:
        """`line` as the screen's stylesheet lays it out, or (`wrap`) wrapped by the panel
        over its lines, whatever the stylesheet says."""
        self._wrapped = Text(line) if wrap else None
        self.update(Text(line, no_wrap=True, overflow="ellipsis"))

    def render(self) -> RenderResult:
        """A wrapped text fills the panel's lines; one longer than them ends its last line
        with an ellipsis, so a cut shows."""
        if self._wrapped is None:
            return super().render()
        width, height = self.content_size
        lines = list(self._wrapped.wrap(self.app.console, max(1, width)))
        if height and len(lines) > height:
            lines = lines[:height]
            lines[-1].append("…")
            lines[-1].truncate(width, overflow="ellipsis")
        return Text("\n").join(lines)

    def show_info(self, info: SearchResult, mover: str) -> None:
        """Depth and the evaluation for `mover` (once solved, "proven win/loss/draw for"
        `mover`: a proven score's number is a distance, not an evaluation), best move,
        speed, line."""
        self._wrapped = None
        head = f"{info.verdict} for {mover}" if info.exact else \
            f"depth {info.depth}  {mover} {info.verdict}"
        line = join_moves(info.pv[:12]) if len(info.pv) > 1 else info.move_text
        # the best move on the second line: a from-to move ("c7 c5") would not fit the first
        self.update(Text(f"{head}\n"
                         f"best {info.move_text}  {_count(info.nodes)} nodes  "
                         f"{_count(info.nps)}/s\n"
                         f"line {line}", no_wrap=True, overflow="ellipsis"))


def _count(n: float) -> str:
    if n >= 1e6:
        return f"{n / 1e6:.1f}M"
    if n >= 1e3:
        return f"{n / 1e3:.0f}k"
    return f"{n:.0f}"
