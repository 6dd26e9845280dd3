"""The side panels every game screen shares: players, engine line, move list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from tui.session import Session

if TYPE_CHECKING:
    from ai.engine import SearchResult

MARK_COLOURS = ("#ff6b6b", "#5fb4ff")


def clock_text(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


class PlayersPanel(Static):
    """One line per side: turn arrow, mark, who, score, clock; then the match so far."""

    def show(self, session: Session) -> None:
        game = session.game
        scores = game.scores()
        text = Text(no_wrap=True, overflow="ellipsis")
        for mark, name in enumerate(type(game).player_names):
            turn = mark == game.to_move and not game.is_over
            text.append("▶ " if turn else "  ", style="bold #ffd75f")
            text.append(f"{name} ", style=f"bold {MARK_COLOURS[mark]}")
            label, unit = session.label(mark), type(game).score_unit
            width = 16 - len(unit)  # the row keeps its width whatever the unit
            text.append(f"{label[:width]:<{width}}", style="bold" if turn else "")
            said = unit if scores[mark] != 1 else unit.removesuffix("s")  # 1 pt, 1 line
            text.append(f" {scores[mark]:>3} {said:<{len(unit)}}  "
                        f"{clock_text(session.clock(mark)):>5}")
            if mark == 0:
                text.append("\n")
        if session.match.results:  # the return game: how the match stands so far
            margins = session.margins()
            standing = "  ".join(f"{session.label(session.mark_of(p))[:10]} {margins[p]:+d}"
                                 for p in (0, 1))
            text.append(f"\nmatch: {standing}", style="dim")
        self.update(text)


class EnginePanel(Static):
    """What the AI is doing: preparing, thinking (depth, score, best, nodes, speed), idle."""

    def show_text(self, line: str) -> None:
        self.update(Text(line, no_wrap=True, overflow="ellipsis"))

    def show_info(self, info: SearchResult, mover: str) -> None:
        """Depth (or "exact" once solved), the score for `mover`, best move, speed, line."""
        kind = "exact" if info.exact else f"depth {info.depth}"
        line = " ".join(info.pv[:12]) if len(info.pv) > 1 else info.move_text
        self.update(Text(f"{kind}  {mover} eval {info.score:+d}  best {info.move_text}\n"
                         f"{_count(info.nodes)} nodes  {_count(info.nps)}/s\n"
                         f"line {line}", no_wrap=True, overflow="ellipsis"))


def _count(n: float) -> str:
    if n >= 1e6:
        return f"{n / 1e6:.1f}M"
    if n >= 1e3:
        return f"{n / 1e3:.0f}k"
    return f"{n:.0f}"


class MovesPanel(Static):
    """The moves so far, numbered in pairs, newest at the bottom."""

    _session: Session | None = None

    def on_resize(self) -> None:
        if self._session is not None:
            self.show(self._session)  # the rows depend on the panel's size

    def show(self, session: Session) -> None:
        self._session = session
        game = session.game
        names = type(game).player_names
        texts = game.history_text()
        lines = []
        # a game may start with either side to move; number pairs from the first mover
        for i in range(0, len(texts), 2):
            pair = f"{i // 2 + 1:>2}. {texts[i]:<4}"
            if i + 1 < len(texts):
                pair += f" {texts[i + 1]:<4}"
            lines.append(pair)
        per_row = max(1, (self.content_size.width + 1) // 14)  # a pair is 13 wide
        rows = [" ".join(lines[i:i + per_row]) for i in range(0, len(lines), per_row)]
        height = max(1, self.content_size.height)
        self.update("\n".join(rows[-height:]) if rows else f"no moves yet; {names[0]} starts")
