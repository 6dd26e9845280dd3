"""The game screen: board left, players/engine/moves right, status line, Footer.

The screen forwards intents to the `Session` and renders it. The AI runs in a
thread worker through the `Services`; every request carries the session
generation it was asked about, and a reply for an older generation is dropped.
Leaving the game (menu, a loaded game of another kind) is a message to the app.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ScreenStackError
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from rules import Game, MoveError, PlayerSpec
from tui.messages import EngineReady, OpenAnalysis, OpenEditor, OpenMenu, OpenReplay, StartSession
from tui.play.driver import Driver, Turn, TurnError
from tui.play.players import Player, Verdict
from tui.play.session import AIRequest, Session
from tui.screens.common import BoardScreen, fit, game_over_words, printable
from tui.screens.dialogs import ChoiceDialog, ResultScreen
from tui.screens.game_files import FileActions
from tui.screens.overlay import OverlayView
from tui.services import Services
from tui.widgets.boards import board_class
from tui.widgets.boards.grid import GridBoard
from tui.widgets.move_list import Line, MoveList
from tui.widgets.panels import EnginePanel, PlayersPanel

if TYPE_CHECKING:
    from ai.engine import SearchResult, StopFlag

PACES = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)  # seconds between moves when no person plays
NOTE_LEAST = 16  # cells of the board's note worth showing after the status (a few say nothing)


class GameScreen(FileActions, OverlayView, BoardScreen):
    """Play one session."""

    _viewed: Game | None = None  # the earlier position looked at (`driver.viewing`)

    # most important first: the footer shows them while they fit (`?` lists them all)
    BINDINGS = [
        Binding("u", "undo", "Undo"),
        Binding("k", "branch", "Keep line?"),
        Binding("h", "hint", "Hint"),
        Binding("o", "overlay", "AI view"),
        Binding("s", "save", "Save"),
        Binding("n", "new_game", "New"),
        Binding("g", "result", "Result"),
        Binding("v", "replay", "Replay"),
        Binding("plus,equals_sign", "pace(-1)", "Pace", key_display="+/-"),
        Binding("minus", "pace(1)", "Slower", key_display="-", show=False),
        Binding("r", "redo", "Redo"),
        Binding("l", "load", "Load"),
        Binding("e", "export", "Export"),
        Binding("d", "edit", "Edit position", show=False),  # `?` lists it
        Binding("left_square_bracket", "view_step(-1)", "Moves", key_display="[ ]"),
        Binding("right_square_bracket", "view_step(1)", "Move forward", key_display="]",
                show=False),
        Binding("home", "view_jump(0)", "First move", show=False),
        Binding("end", "view_jump(-1)", "Last move", show=False),
        Binding("question_mark", "rules", "Help", key_display="?"),
        # the footer is full at 80 columns: `?` and the command palette list it
        Binding("z", "analysis", "Analysis", show=False),
    ]
    # the command palette's titles for what a Footer entry of two keys names as one
    PALETTE_TITLES: ClassVar[dict[str, str]] = {"pace(-1)": "Faster", "view_step(-1)": "Move back"}

    class AIInfo(Message):
        """A search's progress: a hint's, or the AI's on its turn."""

        def __init__(self, request: AIRequest | Turn, info: SearchResult) -> None:
            super().__init__()
            self.request, self.info = request, info

    class AIDone(Message):
        """A hint's search is over."""

        def __init__(self, request: AIRequest, result: SearchResult | None,
                     error: str | None = None) -> None:
            super().__init__()
            self.request, self.result, self.error = request, result, error

    class TurnDone(Message):
        """A machine's turn is over: its player's verdict, or why there is none."""

        def __init__(self, turn: Turn, verdict: Verdict | None, error: str | None = None
                     ) -> None:
            super().__init__()
            self.turn, self.verdict, self.error = turn, verdict, error

    def __init__(self, session: Session, services: Services, status: str | None = None) -> None:
        super().__init__()
        self.add_class(f"game-{session.game.name}")
        self.session = session
        self.services = services
        self.driver = Driver(session, self._make_player, closed=services.forget_program)
        self.board: GridBoard = board_class(session.game.name)(id="board")
        self.pace_index = PACES.index(1.0)
        self._stop: StopFlag | None = None
        self._thinking: AIRequest | None = None
        self._status = status or ("New game. ? shows the rules." if not session.game.history
                                  else "Game loaded.")
        self._status_short: str | None = None  # shown instead when the status does not fit
        self.title_line = ("", "")
        self._note: Text | None = None  # the board's line about the move being chosen
        self._hint_for: int | None = None  # a hint asked before the engine was ready
        self._hint_kept = 0.0  # what the person had thought on the move when asking it
        self._engine_plain = True  # the engine panel shows the engine's state, no news
        self._asking_approval = False  # the question about programs is on screen
        self._confirm: tuple[int, Hashable] | None = None  # a losing move asked about once
        self._small_pause = False  # the person's clock stands: the terminal hides the board
        self._suspend_pause = False  # the person's clock stands: the app is suspended
        self._suspend_after_turn = False  # ctrl+z while a machine thinks: after its move

    # ----- layout ---------------------------------------------------------------------
    def side_panels(self) -> tuple[Widget, Widget, Widget]:
        return PlayersPanel(id="players"), EnginePanel(id="engine"), MoveList(id="moves")

    def on_mount(self) -> None:
        self.app.app_resume_signal.subscribe(self, self._resumed)
        self.name_panels()
        self._show_game()
        self.board.focus()
        if self.services.clocks_running:
            self.set_interval(1.0, self._tick)
        self._engine_line()
        self._render_all()
        if self.session.has_ai:
            self.services.prepare_engine(self.session.game.name)
        self._next_turn()

    def _show_game(self) -> None:
        """Put the session's game (new, loaded or return game) on the board."""
        self.driver.forget_view()
        self.board.set_game(self.session.game)
        self.fit_board(self.board.size_needed())

    def _check_size(self) -> None:
        super()._check_size()
        self._hold_while_small()

    def _hold_while_small(self) -> None:
        """While the terminal is too small to show the board, a person to move cannot see
        the game, so their clock stands (the notice says the game goes on once it fits). A
        machine's turn goes on: it is charged the time it measured."""
        s, driver = self.session, self.driver
        hide = (self.too_small and not s.game.is_over and driver.viewing is None
                and not s.machine_to_move)
        if hide and not self._small_pause and not s.clock_paused:
            s.pause_clock()
            self._small_pause = True
        elif not hide and self._small_pause:
            self._small_pause = False
            if driver.viewing is None:  # a look back keeps its own pause
                s.resume_clock()

    # ----- ctrl+z: suspended to the shell --------------------------------------------------
    def suspend_waits(self) -> bool:
        """Ctrl+Z (`ArenaApp.action_suspend_process`) is about to stop the process: True if
        it must wait for the move of a machine thinking now (a stopped process cannot
        answer, and its clock or a program's jury would count the stop: it suspends as
        the move is played). A person's clock stands while the app is suspended, as it does
        while the terminal hides the board."""
        s = self.session
        if self.driver.current is not None:
            self._suspend_after_turn = True
            self.status(f"Ctrl+Z: suspending once {s.label(s.to_move)} has moved.")
            return True
        if not s.game.is_over and not s.machine_to_move and not s.clock_paused:
            s.pause_clock()
            self._suspend_pause = True
        return False

    def _suspend_now(self) -> None:
        """The suspend asked for while a machine thought, now that its move is played."""
        if self._suspend_after_turn:
            self._suspend_after_turn = False
            self.app.action_suspend_process()

    def _resumed(self, _app: object) -> None:
        """Back from the shell (`fg`): the person's clock goes on where it stood."""
        if self._suspend_pause:
            self._suspend_pause = False
            if self.session.clock_paused and self.driver.viewing is None \
                    and not self._small_pause:
                self.session.resume_clock()

    def _tick(self) -> None:
        s = self.session
        self._hold_while_small()
        if self._suspend_after_turn and self.driver.current is None:
            self._suspend_now()  # the machine's turn ended otherwise (a fault, an undo)
        if s.game.is_over:
            return
        if not self.services.engine_ready(s.game.name):
            waiting = self._hold_for_kernels()
            if (waiting or self._engine_plain) and (
                    self.services.compile_progress(s.game.name) is not None):
                self._engine_line()  # the build's progress, also while a person thinks
        turn = self.driver.current
        if turn is not None and not turn.spec.is_human:  # a machine is judged by the time
            # it measured when its answer comes (the jury's for a program)
            self._show_players()
        elif s.check_time():
            self._time_up()
        else:
            self._show_players()

    def _show_players(self) -> None:
        """The players panel: while an earlier move is looked at, that position's scores
        and facts (the clocks stay the game's)."""
        viewed = self._viewed if self.driver.viewing is not None else None
        self.query_one(PlayersPanel).show(self.session, viewed)

    def _time_up(self) -> None:
        outcome = self.session.game.outcome
        assert outcome is not None
        self._changed(f"{outcome.reason[:1].upper()}{outcome.reason[1:]}.")

    def _render_all(self) -> None:
        s = self.session
        game = s.game
        title = f"Arena · {game.title}"
        if s.match.length > 1:
            title += f" · game {s.game_number} of {s.match.length}"
        outcome = game.outcome
        if outcome is not None:
            right = game_over_words(game)
        else:
            right = f"{game.seat_name(game.to_move)} to move: {s.label(game.to_move)}"
        viewing = self.driver.viewing
        if viewing is None and self.board.game is not game:
            self.board.set_game(game)  # back from an earlier position (an undo, a redo)
        if viewing is not None:
            right = f"looking at move {viewing} of {len(game.history)}"
            self._viewed = self.driver.view_game()
        self.show_title(title, right)
        self._show_players()
        self._show_moves()
        if viewing is not None:
            self.board.locked = not self.driver.person_at_view()
        else:
            self.board.locked = s.machine_to_move or game.is_over
        self.board.watched = not s.has_human
        self._hold_while_small()  # a person's turn that begins while the board is hidden
        self.board.refresh_game()
        self._show_status()
        self.refresh_bindings()
        self.overlay_refresh()

    def overlay_position(self) -> tuple[Hashable, Game | None, str]:
        """The AI's view scores a person's (or a program's) turn: never the AI's time."""
        s = self.session
        if (k := self.driver.viewing) is not None:  # an earlier move looked at: its position
            view = self.driver.view_game()
            return ((s.generation, k), None if view.is_over else view,
                    "the game is over there")
        if s.game.is_over:
            return s.generation, None, "the game is over"
        if s.ai_to_move:
            return s.generation, None, "waiting for the AI's move"
        return s.generation, s.game, ""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # keys show only where they apply: the end screen once a game is over, and so on
        if action in ("result", "replay"):
            return self.session.game.is_over
        if action == "pace":  # while no person plays (the AI, programs) and moves come
            return not self.session.has_human and not self.session.game.is_over
        if action == "hint":  # a hint is for a person's turn
            return self.session.has_human
        if action == "branch":  # a new line not yet kept
            return self.session.old_line is not None
        return True

    def status(self, text: str, whole_elsewhere: bool = False,
               short: str | None = None) -> None:
        """One line for the status bar; one too long for it is cut with an ellipsis there
        and shown whole in a notification (unless a dialog shows it whole: a notification
        would cover the dialog's buttons). `short`, when given, is shown instead of a
        cut `text` (and cut itself only if it is too long too)."""
        self._set_status(text, short)
        if self._show_status() and self.is_attached and not whole_elsewhere:
            self.notify(self._status, timeout=8)

    def _set_status(self, text: str, short: str | None = None) -> None:
        self._status = printable(text)
        self._status_short = None if short is None else printable(short)

    def _show_status(self) -> bool:
        """Show the status and the board's note; whether the status had to be cut."""
        status = self.query_one("#status", Static)
        width = (status.size.width or self.app.size.width) - 2  # the padding
        line, cut = fit(Text(self._status), width)
        if cut and self._status_short is not None:
            line, _ = fit(Text(self._status_short), width)
        room = width - line.cell_len - 5  # for the note, after its separator
        if (self._note is not None and not self.session.game.is_over  # no move to choose
                and room >= min(self._note.cell_len, NOTE_LEAST)):
            note, _ = fit(self._note, room)
            line.append("  │  ", style="dim")
            line.append_text(note)
        status.update(line)
        return cut

    def on_grid_board_note(self, message: GridBoard.Note) -> None:
        self._note = message.text
        self._show_status()

    def _engine_line(self, text: str | None = None) -> None:
        panel = self.query_one(EnginePanel)
        self._engine_plain = text is None  # the engine's own state, not news of a turn
        # without an AI seat the engine is only a hint's, and a hint asked while the
        # kernels build shows how far they have got
        used = self.session.has_ai or self._hint_for == self.session.generation
        if text is not None:
            panel.show_text(text)
        elif not used:
            panel.show_text("no AI in this game\nh asks it for a hint")
        elif (error := self.services.engine_error(self.session.game.name)) is not None:
            panel.show_text(f"AI unavailable: {error}")
        elif not self.services.engine_ready(self.session.game.name):
            progress = self.services.compile_progress(self.session.game.name)
            panel.show_text(progress or "AI: loading...")
        else:
            panel.show_text("AI ready")

    # ----- moves ------------------------------------------------------------------------
    def on_grid_board_move_picked(self, message: GridBoard.MovePicked) -> None:
        s = self.session
        if self.driver.viewing is not None:
            self._branch(message.move)
            return
        if s.machine_to_move:
            who = "the AI's" if s.ai_to_move else f"{s.label(s.to_move)}'s"
            self.status(f"Wait: it is {who} turn.")
            return
        self._play(message.move)

    def _play(self, move: Hashable) -> None:
        s = self.session
        if s.check_time():
            self._time_up()
            return
        mark = s.game.seat_name(s.game.to_move)
        text = s.game.move_text(move)
        loses = self._loses_at_once(move)
        if loses is not None and self._confirm != (s.generation, move):
            self._confirm = (s.generation, move)  # a second Enter on it plays it
            self.status(f"{text} loses at once: {loses}. Play it again to confirm.")
            return
        self._confirm = None
        try:
            self.driver.submit(move)
        except MoveError as err:
            self.status(f"Illegal: {err}")
            return
        self._changed(f"{mark} played {text}.")

    def _loses_at_once(self, move: Hashable) -> str | None:
        """Why `move` would end the game with its player losing (a repetition,
        filling the last cell...) when another move would not, or None: such a move is played
        only once confirmed."""
        game = self.session.game
        if not game.is_legal(move):
            return None
        probe = game.copy()
        reason = _losing(probe, move)
        if reason is None:
            return None
        if all(_losing(probe, other) is not None for other in game.legal_moves()):
            return None  # nothing else to play: no question
        return reason

    def _changed(self, text: str) -> None:
        """After any change of position: stop stale work, redraw, then the next turn."""
        self._cancel_search()
        self._set_status(text)
        self._render_all()
        self._autosave()
        self._next_turn()

    def _autosave(self) -> None:
        kept = self.services.autosave(self.session)
        if (error := self.services.take_write_error()) is not None:
            self.status(f"Autosave failed: {error}")
        # a notice comes from the writer thread's job before this one (said a move late)
        for note in (kept, self.services.take_write_notice()):
            if note is not None and self.is_attached:
                self.notify(note, timeout=12)  # outlasts the status lines of the moves after

    def _next_turn(self) -> None:
        """After a change: the game over, a person's turn (nothing to do), or a machine's,
        asked through the driver (after the watched game's pause, which is nobody's)."""
        s = self.session
        if s.game.is_over:
            self.driver.close(kill=False)
            self._game_over()
            return
        if not self.driver.machine_to_move() or self.driver.viewing is not None:
            return  # a person's turn, or the game waits while the person looks back
        if self.services.unapproved(s) and s.player(s.to_move).is_program:
            self._approve_programs()  # e.g. an undo into a loaded game's program turn
            return
        if s.player(s.to_move).is_ai and not self.services.engine_ready(s.game.name):
            self._engine_line()  # it moves once the kernels are ready (on_engine_ready)
            return
        try:
            turn = self.driver.turn()
        except TurnError as err:  # a program that does not start: it loses by the fault
            self._changed(f"{s.game.outcome.reason}." if err.ended and s.game.outcome
                          else f"Cannot play: {err}.")
            return
        if turn is None:
            return
        pace = PACES[self.pace_index] if turn.pace or (not s.has_human and s.game.history) \
            else 0.0
        if pace:
            s.pace_clock()  # the pause is nobody's time (`Driver.begin` starts the clock)
            self.set_timer(pace, lambda: self._start(turn))
        else:
            self._start(turn)

    def _start(self, turn: Turn) -> None:
        """The turn's clock starts now; its player is asked in a worker thread."""
        if not self.is_attached:
            return
        self._suspend_now()  # a ctrl+z during the last machine's move: before this one
        try:
            if not self.driver.begin(turn):
                return  # the position changed during the pause
        except TurnError as err:  # a whole-game program cannot join a game in progress
            self._engine_line(f"{self.session.label(turn.mark)} cannot play here")
            self.status(f"{err}.")
            return
        self._cancel_search(turn_too=False)
        self._stop = stop = self.services.new_stop()
        label = self.session.label(turn.mark)
        self._engine_line(f"{turn.game.seat_name(turn.mark)} thinking..." if turn.spec.is_ai
                          else f"{label} (program) thinking..." if turn.spec.is_program
                          else f"{label} thinking...")
        self._run_turn(turn, stop)

    @work(thread=True, group="turn")
    def _run_turn(self, turn: Turn, stop: StopFlag) -> None:
        from tui.play.jury import Cancelled

        def info(result: SearchResult) -> None:
            self._post(self.AIInfo(turn, result))

        try:
            verdict = self.driver.run(turn, stop, info)
        except Cancelled:
            return  # undo, a new game, quitting: nobody wants the answer
        except Exception as err:  # noqa: BLE001 - OutOfStep, a failure: one status line
            self._post(self.TurnDone(turn, None, str(err) or type(err).__name__))
        else:
            self._post(self.TurnDone(turn, verdict))
        finally:
            self.services.release(stop)

    def _hold_for_kernels(self) -> bool:
        """Compiling is not thinking: the AI to move starts its move only with the kernels
        ready; a person waiting for a hint keeps what they had thought before asking.
        False when nobody waits for them."""
        s = self.session
        if s.ai_to_move:
            s.hold_clock()
        elif self._hint_for == s.generation:
            s.hold_clock(self._hint_kept)
        else:
            return False
        return True

    def on_engine_ready(self, message: EngineReady) -> None:
        """The app forwards it when an engine has been imported and warmed up."""
        if message.game_name != self.session.game.name:
            return
        if message.error:
            self._engine_line(f"AI unavailable: {message.error}")
            return
        self._engine_line()
        self._hold_for_kernels()  # the clock runs on from here, with the kernels ready
        if self._hint_for == self.session.generation:
            self.action_hint()
        self._hint_for = None
        if not self.session.game.is_over:  # over: its end screen was shown when it ended
            self._next_turn()

    # ----- a machine's answer ----------------------------------------------------------------
    def on_game_screen_turn_done(self, message: TurnDone) -> None:
        turn, verdict = message.turn, message.verdict
        s = self.session
        label = s.label(turn.mark)
        if verdict is None:
            if self.driver.current_turn(turn):
                self._engine_line(f"{label} stopped")
                self.status(f"{label} cannot play: {message.error}")
            return
        if not self.driver.settle(turn, verdict):
            if s.lost_on_time:
                self._time_up()
            return  # a verdict about a position no longer on the board (or held)
        self._settled(turn, verdict)
        if self.driver.current is None:  # a person's turn or the end: nobody is thinking
            self._suspend_now()

    def _settled(self, turn: Turn, verdict: Verdict) -> None:
        """A machine's verdict has been played (or has ended the game): say so."""
        s = self.session
        label = s.label(turn.mark)
        mark = turn.game.seat_name(turn.mark)
        text = turn.game.move_text(verdict.move) if verdict.ok else ""
        if verdict.result is not None:
            self.query_one(EnginePanel).show_info(verdict.result, mark)
        elif turn.spec.is_program and verdict.ok:
            self._engine_line(f"{label} answered in {verdict.seconds:.2f} s")
        if verdict.ok and not s.lost_on_time:
            self._changed(f"{mark} played {text}.")
            return
        if turn.spec.is_program and not verdict.ok:
            self.services.log_program_fault(s.game.name, mark, turn.spec.command or "",
                                            verdict)
            self._engine_line(f"{label} (program): {verdict.fault}")
        reason = s.game.outcome.reason if s.game.outcome else verdict.reason
        logged = " (details in programs.log)" if turn.spec.is_program and not verdict.ok \
            else ""
        self._changed(f"{reason[:1].upper()}{reason[1:]}{logged}.")

    # ----- looking back at earlier moves, and new lines from there ---------------------------
    def _show_moves(self) -> None:
        game, old = self.session.game, self.session.old_line
        note = None if old is None else f"old line: {old.moves} more after move {old.at} (k)"
        self.query_one(MoveList).show(Line(
            tuple(game.history_text()), game.players, self.driver.shown(),
            f"no moves yet; {game.seat_name(game.to_move)} starts", note))

    def on_move_list_chosen(self, message: MoveList.Chosen) -> None:
        self.look_at(message.target(self.driver.shown()))

    def action_view_step(self, step: int) -> None:
        self.look_at(self.driver.shown() + step)

    def action_view_jump(self, where: int) -> None:
        self.look_at(len(self.session.game.history) if where < 0 else where)

    def look_at(self, k: int) -> None:
        """Show the position after `k` moves. Before the end the game waits (no machine
        moves, no clock runs: `Driver.view`); at the end it goes on, a machine's answer
        that came meanwhile played now."""
        driver, s = self.driver, self.session
        n = len(s.game.history)
        k = max(0, min(n, k))
        if k == driver.shown():
            return
        if k < n:
            driver.view(k)
            self.board.set_game(driver.view_game())
            self._set_status(self._looking_line(k))
            self._render_all()
            return
        held = driver.live()
        self.board.set_game(s.game)
        if held is not None:
            self._settled(*held)
            return
        self._set_status("Back to the game.")
        self._render_all()
        self._next_turn()

    def _looking_line(self, k: int) -> str:
        game = self.driver.view_game()
        if k == 0:
            text = "The start."
        else:
            last = self.session.position_at(k - 1)
            text = (f"Move {k}: {last.seat_name(last.to_move)} played "
                    f"{last.move_text(game.history[-1])}.")
        if self.driver.person_at_view():
            return f"{text} A move here starts a new line; end: back to the game."
        return f"{text} The game waits; end goes back to it."

    def _branch(self, move: Hashable) -> None:
        """A person's move on an earlier position: a new line from there, then the
        question whether it replaces the old one."""
        driver = self.driver
        k, view = driver.viewing, driver.view_game()
        mark = view.seat_name(view.to_move)
        try:
            text = view.move_text(move)
            driver.branch(move)
        except MoveError as err:
            self.status(f"Cannot play on from move {k}: {err}")
            return
        self.board.set_game(self.session.game)
        self._changed(f"New line from move {k}: {mark} played {text}.")
        self.action_branch()

    def action_branch(self) -> None:
        """Ask whether the new line replaces the old one (k, while one is not kept)."""
        old = self.session.old_line
        if old is None:
            self.status("There is no new line to keep.")
            return
        text = (f"The old line has {old.moves} more moves after move {old.at}.\n"
                "Replace: this new line is the game (and what Resume keeps).\n"
                "Old line: back to the end of the old one.\n"
                "Cancel: play on in the new line; k asks again.")
        self.app.push_screen(ChoiceDialog(f"Replace the moves after move {old.at}?", text,
                                          [("replace", "Replace", "r"),
                                           ("old", "Old line", "o")]), self._after_branch)

    def _after_branch(self, choice: str | None) -> None:
        old = self.session.old_line
        if old is None or choice is None:
            return
        if choice == "replace":
            self.driver.confirm_branch()
            self._changed(f"The new line replaces the {old.moves} old move"
                          f"{'s' * (old.moves != 1)} after move {old.at}.")
        elif choice == "old":
            self.driver.restore_old_line()
            self._engine_line()
            n = len(self.session.game.history)
            self._changed(f"Back to the old line ({n} move{'s' * (n != 1)}).")

    # ----- the players ------------------------------------------------------------------------
    def _make_player(self, spec: PlayerSpec) -> Player:
        """The driver's player for a seat: the AI on the shared engine (the services' time
        override in tests), a program through the services (it must have been approved,
        and quitting kills it), a person or a built-in player."""
        from tui.play.players import AIPlayer
        from tui.play.seats import make_player

        game_class = type(self.session.game)
        if spec.is_ai:
            assert spec.level is not None
            return AIPlayer(spec.level, lambda: self.services.engine(game_class.name),
                            spec.seconds or self.services.ai_seconds)
        if spec.is_program:
            assert spec.command is not None
            return self.services.open_program(game_class, spec.command)
        return make_player(spec, game_class)

    def _approve_programs(self) -> None:
        """A program the person has not agreed to run is to move: the app shows its command
        line and asks; Cancel gives its seat to a person. Nothing runs before the answer."""
        if self._asking_approval:
            return
        self._asking_approval = True
        self.session.hold_clock()
        self._engine_line("waiting for your answer about the programs")

        def after(choice: str | None) -> None:
            self._asking_approval = False
            s = self.session
            if choice is None:
                s.reseat({mark: PlayerSpec.human() for mark, _ in self.services.unapproved(s)})
                choice = "human"
            self.driver.close()  # the seats' players are made again
            self._changed("The programs' seats went to the AI." if choice == "ai" else
                          "The programs' seats went to people." if choice == "human" else
                          "The programs were approved.")

        self.app.ask_programs(self.session, after)  # type: ignore[attr-defined]

    # ----- hints -------------------------------------------------------------------------
    def _ask(self, request: AIRequest) -> None:
        """Ask the engine for a hint (not a turn: nobody's move is played)."""
        if not self.session.is_current(request) or not self.is_attached:
            return
        self._cancel_search(turn_too=False)
        self._stop = stop = self.services.new_stop()
        self._thinking = request
        self._engine_line("looking for a hint...")
        self._search(request, stop)

    @work(thread=True, exclusive=True, group="ai")
    def _search(self, request: AIRequest, stop: StopFlag) -> None:
        self.services.run_search(
            request, stop, lambda info: self._post(self.AIInfo(request, info)),
            lambda result, error: self._post(self.AIDone(request, result, error)))

    def on_game_screen_aiinfo(self, message: AIInfo) -> None:
        request = message.request
        current = (self.driver.current_turn(request) if isinstance(request, Turn)
                   else self.session.is_current(request))
        if current:
            self.query_one(EnginePanel).show_info(message.info,
                                                  request.game.seat_name(request.game.to_move))

    def on_game_screen_aidone(self, message: AIDone) -> None:
        request, result = message.request, message.result
        if self._thinking is request:
            self._thinking = None
        if not self.session.is_current(request):
            return  # a reply about a position no longer on the board
        if result is None:
            self._engine_line(f"AI error: {message.error}")
            self.status(f"The AI failed: {message.error}")
            return
        mover = request.game.seat_name(request.game.to_move)
        self.query_one(EnginePanel).show_info(result, mover)
        self.board.show_hint(result.move)
        self.status(f"Hint: {result.move_text} ({result.verdict}).")

    def _cancel_search(self, turn_too: bool = True) -> None:
        """Stop the search or the program under way (its answer is dropped)."""
        if self._stop is not None:
            self._stop.set()
            self._stop = None
        self._thinking = None
        if turn_too:
            self.driver.cancel()

    def on_unmount(self) -> None:
        self._cancel_search()
        self.driver.close()
        name = f"rules-{id(self)}"
        if self.app.is_screen_installed(name):
            with contextlib.suppress(ScreenStackError):  # still open: it goes with the app
                self.app.uninstall_screen(name)

    # ----- actions --------------------------------------------------------------------------
    def action_undo(self) -> None:
        try:
            undone = self.driver.undo()
        except MoveError as err:
            self.status(f"Cannot undo: {err}")
            return
        game = self.session.game
        texts = ", ".join(game.move_text(m) for m in undone)
        self._engine_line()  # the last search was about a position no longer on the board
        self._changed(f"Took back {texts}." if undone else "Play goes on.")

    def action_redo(self) -> None:
        game = self.session.game
        try:
            done = self.driver.redo()
        except MoveError as err:
            self.status(f"Cannot redo: {err}")
            return
        self._engine_line()
        self._changed(f"Replayed {', '.join(game.move_text(m) for m in done)}.")

    def action_hint(self) -> None:
        s = self.session
        if self.driver.viewing is not None:
            self.status("A hint is for the game in progress: End goes back to it.")
            return
        if s.game.is_over:
            self.status("The game is over, so there is no move to hint: v replays it.")
            return
        if s.machine_to_move:
            self.status("A hint is for a human's turn.")
            return
        if not self.services.engine_ready(s.game.name):
            self.services.prepare_engine(s.game.name)
            if self._hint_for != s.generation:  # asked again: the first asking counts
                self._hint_kept = s.elapsed()
            self._hint_for = s.generation  # given once ready, if the position is the same
            self._engine_line()
            self._hold_for_kernels()
            self.status("The AI is getting ready; the hint follows, and your clock waits.")
            return
        self._ask(s.request("hint", "hard"))  # the best move, not a noisy one

    def extra_key_lines(self) -> list[str]:
        return ["Moves: \\[ ] a move back/forward, home/end the start/end, tab to the "
                "list (arrows, pgup/pgdn, a click); a move played there starts a new "
                "line (k keeps it or goes back)."]

    def action_pace(self, step: int) -> None:
        self.pace_index = max(0, min(len(PACES) - 1, self.pace_index + step))
        who = "AI vs AI" if not self.session.has_program else "Watching"
        self.status(f"{who} pace: {PACES[self.pace_index]:g} s between moves.")

    def action_new_game(self) -> None:
        """A new game: the same settings again (s), or the menu (m); the question says
        what becomes of the game on the board."""
        choices = [("again", "Same settings", "s"), ("menu", "Menu", "m")]
        if self.session.unsaved:
            choices.append(("save", "Save first", "f"))
        self.app.push_screen(ChoiceDialog("New game", self.leaving_note(new_game=True), choices),
                             self._after_new_choice)

    def leaving_note(self, new_game: bool = False, save_key: str = "f") -> str:
        """What leaving the game on the board does to it, for the questions that leave
        (`save_key`: the question's key for saving first).

        The autosave holds one unfinished game of each kind: at the next game of the same
        kind's first move it moves among the named saves (`Services.autosave`)."""
        s = self.session
        title = s.game.title
        if not s.unsaved:
            return "This game is saved." if s.game.history else ""
        if s.in_progress and (problem := self.services.autosave_problem(s)) is not None:
            return (f"This game is not kept: its autosave failed ({problem}). "
                    f"{save_key} saves it by name.")
        if s.in_progress and (own := self.services.autosaved_as(s)) is not None:
            return f"This game is kept as {own.name}: l loads it."
        if s.in_progress and new_game:
            return (f"This game stays under Resume {title} on the menu until the next {title} "
                    f"game's first move, then among the saves; {save_key} saves it by name.")
        if s.in_progress:
            return f"This game is kept: Resume {title} on the menu brings it back."
        return f"This finished game is not saved: {save_key} saves it first."

    def _after_new_choice(self, choice: str | None) -> None:
        if choice == "again":
            self.start_again()
        elif choice == "menu":
            self._to_menu()
        elif choice == "save":
            self.action_save(then=self.action_new_game)

    def start_again(self) -> None:
        """A new game with the same players, options and clock (a fresh seed)."""
        try:
            session = self.session.again()
        except Exception as err:  # noqa: BLE001 - one line, the game stays
            self.status(f"Cannot start again: {err}")
            return
        self._cancel_search()
        self.driver.close()
        self.post_message(StartSession(session, "New game, same settings. ? shows the rules."))

    def _to_menu(self) -> None:
        self._cancel_search()
        self.driver.close()
        self.post_message(OpenMenu(self.session.game.name))

    # ----- the end of a game -------------------------------------------------------------------
    def action_replay(self) -> None:
        """Step through the finished game (the app opens the replay over this screen; its
        `c` comes back with a new game from a move, which starts as any new game does)."""
        if not self.session.game.is_over:
            self.status("The replay is for a finished game.")
            return
        self._cancel_search()
        self.post_message(OpenReplay(self.session))

    def action_analysis(self) -> None:
        """The analysis board on a copy of the game (it never changes this one); not while
        a machine is choosing its move (the analysis would hold the engine)."""
        if self.session.machine_to_move and not self.session.game.is_over:
            self.status("The analysis board opens on a person's turn or a finished game.")
            return
        self._cancel_search(turn_too=False)
        self.post_message(OpenAnalysis(self.session.game))

    def action_edit(self) -> None:
        """Edit a copy of the position in the position editor (over this screen)."""
        self.post_message(OpenEditor(self.session.game.name, self.session.game.copy()))

    def action_result(self) -> None:
        if self.session.game.is_over:
            self._game_over()

    def _game_over(self) -> None:
        s = self.session
        outcome = s.game.outcome
        assert outcome is not None
        lines = self._result_lines()
        next_label = None
        if s.has_next_game:
            next_label = "Return game" if s.match.length == 2 else "Next game"
            lines += ["", f"{next_label}: same start board, {self._rotation()}."]
        elif s.match.length > 1:
            lines += ["", *self._match_lines()]
        self._engine_line()
        logged = " Details in programs.log." if outcome.fault is not None else ""
        self.status(f"Game over: {outcome.reason}.{logged} g shows the result again.",
                    whole_elsewhere=True,  # the end screen says it all
                    short=f"Game over: {outcome.reason}.{logged}")  # the Footer shows g
        title = "Match over" if s.match_over and s.match.length > 1 else "Game over"
        self.app.push_screen(ResultScreen(title, lines, next_label), self._after_result)

    def _result_lines(self) -> list[str]:
        """The session's result in words, with the board's own explanation."""
        return self.session.result_lines(type(self.board).describe_result(self.session.game))

    def _match_lines(self) -> list[str]:
        return self.session.match_lines()

    def _rotation(self) -> str:
        return self.session.rotation()

    def _after_result(self, choice: str | None) -> None:
        if choice == "next" and self.session.has_next_game:
            self.driver.next_game()
            self._show_game()
            self.board.focus()
            s = self.session
            who = ", ".join(f"{s.game.seat_name(m)}: {s.label(m)}" for m in range(s.players))
            kind = "Return game" if s.match.length == 2 else f"Game {s.game_number}"
            self._changed(f"{kind}, {self._rotation()} ({who}).")
        elif choice == "new":
            self.action_new_game()


def _losing(game: Game, move: Hashable) -> str | None:
    """Why `move` ends `game` with its player losing, or None (the position is kept)."""
    me = game.to_move
    game.play(move)
    outcome = game.outcome
    game.undo()
    if outcome is None or outcome.won(me) or outcome.is_draw:
        return None
    return outcome.reason
