"""The replay screen: a finished game stepped through move by move, analysed on demand,
and continued from any move as a new game.

It has the game screen's layout (title, board, players, engine, moves, status,
Footer) and shows a working copy of the game stepped to move k: the board, the
scores and the clocks as they stood after k moves (k = 0 is the start). The
clocks come from the times the clock recorded for each move (`Clock.moves`); a
save without them says so and shows the clocks only at the end. The end result
(its reason, a program's fault and its output) shows at the last move.

`a` asks the engine for this position's evaluation and best move (in a thread
worker through the services, tagged with the step it was asked about; an answer
for another move is dropped) and keeps analysing each move stepped to until `a`
again; `c` asks who plays each seat (starting as recorded), then dismisses the screen
with a `StartSession` for a new game from the position on the board. The move list
(`tui.widgets.move_list`) walks the game too: its keys, or a click on a move.
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

from rules import Clock, ClockKind, Game, PlayerSpec, TimeControl
from tui.messages import EngineReady, OpenAnalysis, OpenEditor, StartSession
from tui.play.session import AIRequest, Session
from tui.screens.common import BoardScreen, fit, printable
from tui.screens.overlay import OverlayView
from tui.services import Services
from tui.widgets.boards import board_class, replay_board
from tui.widgets.boards.grid import GridBoard
from tui.widgets.eval_graph import EvalGraph
from tui.widgets.move_list import Line, MoveList
from tui.widgets.panels import EnginePanel, PlayersPanel

if TYPE_CHECKING:
    from ai.engine import SearchResult, StopFlag

LEVEL = "hard"  # the analysis: the best move, as a hint asks for it


class ReplayPlayers(PlayersPanel):
    """The players panel of a replay: where the save holds no move times, the clocks of a
    move before the last read "--:--" and one line says why."""

    unknown_clocks = False

    def update(self, content: object = "", *args: object, **kwargs: object) -> None:
        session = self._session
        if self.unknown_clocks and isinstance(content, Text) and session is not None:
            lines = content.split("\n", allow_blank=True)
            seats = session.game.players
            for i in range(min(seats, len(lines))):
                line = lines[i]
                cut = line.plain.rstrip().rfind(" ") + 1  # the clock is the last column
                masked = line[:cut]
                masked.append("--:--", style="dim")
                lines[i] = masked
            content = Text("\n", no_wrap=True, overflow="ellipsis").join(lines)
            content.append("\nclock times not recorded", style="dim")
        super().update(content, *args, **kwargs)  # type: ignore[arg-type]


class ReplayScreen(OverlayView, BoardScreen):
    """Step through the finished game of `session`; dismisses with a `StartSession` to
    continue from a move, or None."""

    KEYS_HEADING = "Replay"

    BINDINGS = [
        Binding("left,p", "step(-1)", "Back", key_display="←"),
        Binding("right,n", "step(1)", "Forward", key_display="→"),
        Binding("c", "continue", "Continue"),
        Binding("escape", "dismiss(None)", "Game", key_display="esc"),
        Binding("question_mark", "rules", "Help", key_display="?"),
        # in the footer while they fit (at 80 columns only some): `?` lists them all
        Binding("a", "analyse", "Analyse"),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("o", "overlay", "AI view"),
        Binding("f", "flip", "Flip"),
        Binding("g", "graph", "Graph"),
        Binding("z", "analysis", "Analysis"),
        Binding("d", "edit", "Edit position"),
    ]

    class Info(Message):
        def __init__(self, request: AIRequest, info: SearchResult) -> None:
            super().__init__()
            self.request, self.info = request, info

    class Done(Message):
        def __init__(self, request: AIRequest, result: SearchResult | None,
                     error: str | None = None) -> None:
            super().__init__()
            self.request, self.result, self.error = request, result, error


    def __init__(self, session: Session, services: Services) -> None:
        super().__init__()
        source = session.game
        self.add_class(f"game-{source.name}")
        self.source = session
        self.services = services
        self.texts = source.history_text()
        self.total = len(source.history)
        self.final = source.outcome  # the end as it was (a forfeit too)
        game = source.copy()
        game.resume()
        while game.history:
            game.undo()
        self.first = game.to_move  # the start position's mover
        self.movers: list[int] = []
        for move in source.history:
            self.movers.append(game.to_move)
            game.play(move)
        game.ended = self.final
        self.game: Game = game  # the working copy, stepped forward and back
        self.k = self.total
        clock = session.clock
        self.recorded = len(clock.moves) >= self.total
        # a move clock's "time left" says nothing in a replay: the time used shows instead
        control = clock.control
        self.shown_control = TimeControl.none() if control.kind is ClockKind.MOVE else control
        self.view = Session(game, session.participants, match=session.match,
                            clock=Clock(self.shown_control, list(clock.used)),
                            now=lambda: 0.0)
        self.board: GridBoard = replay_board(board_class(source.name))(id="board")
        self.board.can_focus = False  # the arrows step through the moves
        self.generation = 0  # one more each step: an analysis names the step it was for
        self.analysing = False
        self._stop: StopFlag | None = None
        self._status = ""
        self.title_line = ("", "")

    # ----- layout ---------------------------------------------------------------------
    def side_panels(self) -> tuple[Widget, ...]:
        graph = EvalGraph(id="graph")  # `g` shows it
        graph.display = False
        return (ReplayPlayers(id="players"), EnginePanel(id="engine"), MoveList(id="moves"),
                graph)

    def on_mount(self) -> None:
        self.name_panels()
        self.board.set_game(self.game)
        self.board.locked = True
        self.fit_board(self.board.size_needed())
        self._render_all()

    # ----- the position on screen -------------------------------------------------------
    def go(self, k: int) -> None:
        """Step the working copy to the position after `k` moves and show it."""
        k = max(0, min(self.total, k))
        if k == self.k:
            return
        game = self.game
        game.ended = None
        while self.k > k:
            game.undo()
            self.k -= 1
        while self.k < k:
            game.play(self.source.game.history[self.k])
            self.k += 1
        if k == self.total:
            game.ended = self.final
        self.generation += 1
        self._cancel()
        self.board.refresh_game()
        self._render_all()
        if self.analysing:
            self._analyse()

    def _clock(self) -> Clock:
        """The clock as it stood after the moves on the board."""
        clock = self.source.clock
        n = self.game.players
        if self.k == self.total:
            used = list(clock.used)
        else:
            used = clock.used_after(self.k, n, self.first) or [0.0] * n
        return Clock(self.shown_control, used)

    def _render_all(self) -> None:
        self.view.clock = self._clock()
        players = self.query_one(ReplayPlayers)
        players.unknown_clocks = not self.recorded and self.k < self.total
        players.show(self.view)
        self.query_one(MoveList).show(Line(tuple(self.texts), self.game.players, self.k,
                                           "no moves in this game"))
        self.query_one(EvalGraph).set_current(self.k)
        self.board.replay_line = self._board_line()  # type: ignore[attr-defined]
        title = f"Arena · {self.game.title} · replay"
        right = f"move {self.k} of {self.total}"
        self.show_title(title, right)
        self._status = printable(self._describe())
        self._show_status()
        if not self.analysing:
            self._engine_idle()
        self.overlay_refresh()

    def overlay_position(self) -> tuple[Hashable, Game | None, str]:
        return self.generation, self._playable(), "the game is over here"

    def action_flip(self) -> None:
        self.board.flip()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.board.FLIPS if action == "flip" else True

    def _board_line(self) -> Text | None:
        """The line under the board: the position stepped to, as a replay names it (not
        a turn that waits for someone); None at the end, where the board gives the result."""
        game, k = self.game, self.k
        if game.outcome is not None:
            return None
        where = "start position" if k == 0 else f"after move {k} of {self.total}"
        return Text(f"{where}: {game.seat_name(game.to_move)} to move", style="dim")

    def _describe(self) -> str:
        """The status line: the move that led here (its time, if recorded), the result at
        the end."""
        game, k = self.game, self.k
        if k == 0:
            text = f"Start of the game: {game.seat_name(game.to_move)} to move."
        else:
            text = f"Move {k}: {game.seat_name(self.movers[k - 1])} played {self.texts[k - 1]}"
            if self.recorded:
                text += f" ({self.source.clock.moves[k - 1]:.1f} s)"
            text += "."
        if game.outcome is not None:
            text += f" Game over: {game.outcome.reason}."
        return text

    def _show_status(self) -> None:
        status = self.query_one("#status", Static)
        width = (status.size.width or self.app.size.width) - 2
        line, _cut = fit(Text(self._status), width)
        status.update(line)

    def _engine_idle(self) -> None:
        """The engine panel between analyses: the result at the end, else the keys."""
        panel = self.query_one(EnginePanel)
        outcome = self.game.outcome
        if outcome is None:
            panel.show_text("a: the AI's evaluation here\nc: play on from here")
            return
        if outcome.fault is None:  # the ending alone: wrapped over the panel's lines
            panel.show_text(printable(outcome.reason), wrap=True)
            return
        from tui.play.jury import quote  # a program's fault: its kind and its exact output

        panel.show_text(printable("\n".join([outcome.reason, f"fault: {outcome.fault}",
                                             f"output: {quote(outcome.output or '')}"])))

    # ----- actions ----------------------------------------------------------------------
    def on_move_list_chosen(self, message: MoveList.Chosen) -> None:
        self.go(message.target(self.k))

    def action_step(self, step: int) -> None:
        self.go(self.k + step)

    def action_jump(self, where: int) -> None:
        self.go(self.total if where < 0 else where)

    def _playable(self) -> Game | None:
        """A copy of the position on the board that play can go on from (a forfeit at the
        end taken back), or None where the board itself has ended the game."""
        game = self.game.copy()
        game.resume()
        return None if game.is_over else game

    def action_analyse(self) -> None:
        if self.analysing:
            self.analysing = False
            self._cancel()
            self._engine_idle()
            self._say("Analysis off.")
            return
        self.analysing = True
        self._say("Analysis on: each move stepped to is analysed; a again stops.")
        self._analyse()

    def _analyse(self) -> None:
        panel = self.query_one(EnginePanel)
        name = self.game.name
        game = self._playable()
        if game is None:
            panel.show_text("the game is over here:\nnothing to analyse")
            return
        if (error := self.services.engine_error(name)) is not None:
            panel.show_text(f"AI unavailable: {error}")
            return
        if not self.services.engine_ready(name):
            self.services.prepare_engine(name)
            panel.show_text("AI: preparing...")  # the analysis follows once it is ready
            return
        self._cancel()
        request = AIRequest(self.generation, game, LEVEL, "hint")
        self._stop = stop = self.services.new_stop()
        panel.show_text(f"{game.seat_name(game.to_move)}: analysing...")
        self._search(request, stop)

    def on_engine_ready(self, message: EngineReady) -> None:
        if message.game_name == self.game.name and self.analysing:
            self._analyse()

    @work(thread=True, exclusive=True, group="replay-ai")
    def _search(self, request: AIRequest, stop: StopFlag) -> None:
        self.services.run_search(
            request, stop, lambda info: self._post(self.Info(request, info)),
            lambda result, error: self._post(self.Done(request, result, error)))

    def _current(self, request: AIRequest) -> bool:
        return request.generation == self.generation and self.analysing

    def on_replay_screen_info(self, message: Info) -> None:
        if self._current(message.request):
            game = message.request.game
            self.query_one(EnginePanel).show_info(message.info, game.seat_name(game.to_move))

    def on_replay_screen_done(self, message: Done) -> None:
        if not self._current(message.request):
            return  # about another move, or analysis was switched off
        self._stop = None
        panel = self.query_one(EnginePanel)
        if message.result is None:
            panel.show_text(f"AI error: {message.error}")
            return
        game = message.request.game
        mover = game.seat_name(game.to_move)
        panel.show_info(message.result, mover)
        self._say(f"{self._describe()} AI: {mover}'s best is {message.result.move_text} "
                  f"({message.result.verdict}).")

    def _say(self, text: str) -> None:
        self._status = printable(text)
        self._show_status()

    def _cancel(self) -> None:
        if self._stop is not None:
            self._stop.set()
            self._stop = None

    def on_unmount(self) -> None:
        self._cancel()

    def action_analysis(self) -> None:
        """The analysis board on a copy of the position shown."""
        self.post_message(OpenAnalysis(self.game))

    def action_edit(self) -> None:
        """The position editor on a copy of the position shown (Esc comes back here)."""
        self.post_message(OpenEditor(self.game.name, self.game.copy()))

    def action_graph(self) -> None:
        """Show or hide the evaluation graph; it is filled in the background when shown."""
        graph = self.query_one(EvalGraph)
        graph.display = not graph.display
        self.set_class(graph.display, "-graph")  # below 30 rows it takes the moves' place
        if graph.display and graph.start is None:
            graph.border_title = "evaluation"
            graph.set_game_line(self.source.game)
            graph.set_current(self.k)
            graph.evaluate(self.services)

    def on_eval_graph_picked(self, message: EvalGraph.Picked) -> None:
        self.go(message.index)

    def action_continue(self) -> None:
        """A new game from the position on the board: who plays each seat is asked first
        (`SeatsDialog`, starting with the recorded players)."""
        from tui.screens.seat_picker import SeatsDialog

        game = self._playable()
        if game is None:
            self._say("The game is over at this move: step back to play on from earlier.")
            return
        seats = [game.seat_name(m) for m in range(game.players)]
        title = f"Play on from move {self.k}: who plays each seat?"
        self.app.push_screen(SeatsDialog(title, seats, self.source.players_by_mark),
                             self._continue_with)

    def _continue_with(self, players: tuple[PlayerSpec, ...] | None) -> None:
        """The new game from the position on the board with `players` (None: the replay
        stays), the clocks as they stood (their move times kept, so it replays too). A
        program typed in the dialog is the person's own; a recorded one is asked about
        before it runs, as from a save."""
        game = self._playable()
        if players is None or game is None:
            return
        source = self.source
        n = game.players
        clock = source.clock
        used = clock.used_after(self.k, n, self.first)
        times = list(clock.moves[:self.k])
        if used is None:  # no times recorded: the earlier moves count as none
            used, times = [0.0] * n, [0.0] * self.k
        try:
            session = Session(game, list(players),
                              clock=Clock(clock.control, used, times), now=self.services.now)
        except Exception as err:  # noqa: BLE001 - one line, the replay stays
            self._say(f"Cannot continue: {err}")
            return
        recorded = {spec.command for spec in source.players_by_mark}
        self.services.approve(p.command for p in players
                              if p.command is not None and p.command not in recorded)
        self._cancel()
        who = ", ".join(f"{game.seat_name(m)}: {session.label(m)}" for m in range(n))
        status = (f"A new game from move {self.k} of the replay ({who}); "
                  f"{game.seat_name(game.to_move)} to move.")
        self.dismiss(StartSession(session, status))
