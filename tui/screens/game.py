"""The game screen: board left, players/engine/moves right, status line, Footer.

The screen forwards intents to the `Session` and renders it. The AI runs in a
thread worker through the `Services`; every request carries the session
generation it was asked about, and a reply for an older generation is dropped.
Leaving the game (menu, a loaded game of another kind) is a message to the app.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ScreenStackError
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from rules import MoveError, PlayerSpec
from tui.messages import EngineReady, OpenMenu, OpenReplay, StartSession
from tui.play.session import AIRequest, ProgramRequest, Session
from tui.screens.common import BoardScreen, fit, printable, short_path
from tui.screens.dialogs import ChoiceDialog, LoadDialog, NameDialog, ResultScreen, RulesDialog
from tui.services import Services
from tui.widgets.boards import board_class
from tui.widgets.boards.grid import GridBoard
from tui.widgets.panels import EnginePanel, MovesPanel, PlayersPanel

if TYPE_CHECKING:
    from ai.engine import SearchResult, StopFlag
    from tui.play.jury import ProgramPlayer, Verdict

PACES = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)  # seconds between moves when no person plays


class GameScreen(BoardScreen):
    """Play one session."""

    BINDINGS = [
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("h", "hint", "Hint"),
        Binding("s", "save", "Save"),
        Binding("l", "load", "Load"),
        Binding("e", "export", "Export"),
        Binding("n", "new_game", "New"),
        Binding("g", "result", "Result"),
        Binding("v", "replay", "Replay"),
        Binding("question_mark", "rules", "Rules", key_display="?", show=False),
        Binding("plus,equals_sign", "pace(-1)", "Faster", key_display="+"),
        Binding("minus", "pace(1)", "Slower", key_display="-"),
    ]

    class AIInfo(Message):
        def __init__(self, request: AIRequest, info: SearchResult) -> None:
            super().__init__()
            self.request, self.info = request, info

    class AIDone(Message):
        def __init__(self, request: AIRequest, result: SearchResult | None,
                     error: str | None = None) -> None:
            super().__init__()
            self.request, self.result, self.error = request, result, error

    class ProgramDone(Message):
        """A program's turn is over: the jury's verdict, or why there is none."""

        def __init__(self, request: ProgramRequest, verdict: Verdict | None,
                     error: str | None = None) -> None:
            super().__init__()
            self.request, self.verdict, self.error = request, verdict, error


    def __init__(self, session: Session, services: Services, status: str | None = None) -> None:
        super().__init__()
        self.add_class(f"game-{session.game.name}")
        self.session = session
        self.services = services
        self.board: GridBoard = board_class(session.game.name)(id="board")
        self.pace_index = PACES.index(1.0)
        self._stop: StopFlag | None = None
        self._thinking: AIRequest | None = None
        self._status = status or ("New game. ? shows the rules." if not session.game.history
                                  else "Game loaded.")
        self.title_line = ("", "")
        self._note: Text | None = None  # the board's line about the move being chosen
        self._hint_for: int | None = None  # a hint asked before the engine was ready
        self._programs: dict[int, ProgramPlayer] = {}  # participant -> its program
        self._asking_approval = False  # the question about programs is on screen
        self._program_call: tuple[ProgramRequest, ProgramPlayer] | None = None  # under way

    # ----- layout ---------------------------------------------------------------------
    def side_panels(self) -> tuple[Widget, Widget, Widget]:
        return PlayersPanel(id="players"), EnginePanel(id="engine"), MovesPanel(id="moves")

    def on_mount(self) -> None:
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
        self.board.set_game(self.session.game)
        self.fit_board(self.board.rows_needed())

    def _tick(self) -> None:
        s = self.session
        if s.game.is_over:
            return
        if not self.services.engine_ready(s.game.name) and (
                s.ai_to_move or self._hint_for == s.generation):
            s.hold_clock()  # compiling is not thinking: the AI's (or the person waiting
            # for a hint) clock waits for the kernels
            if self.services.compile_progress(s.game.name) is not None:
                self._engine_line()
        if self._program_call is not None:  # the jury enforces a program's clock
            self.query_one(PlayersPanel).show(s)
        elif s.check_time():
            self._time_up()
        else:
            self.query_one(PlayersPanel).show(s)

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
            right = "game over: " + (" and ".join(game.seat_name(w) for w in outcome.winners)
                                     + (" wins" if len(outcome.winners) == 1 else " win")
                                     if outcome.winners else "a draw")
        else:
            right = f"{game.seat_name(game.to_move)} to move: {s.label(game.to_move)}"
        self.show_title(title, right)
        self.query_one(PlayersPanel).show(s)
        self.query_one(MovesPanel).show(s)
        self.board.locked = s.machine_to_move or game.is_over
        self.board.refresh_game()
        self._show_status()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # keys show only where they apply: the end screen once a game is over, and so on
        if action in ("result", "replay"):
            return self.session.game.is_over
        if action == "pace":  # only when no person plays (the AI, programs)
            return not self.session.has_human
        if action == "hint":  # a hint is for a person's turn
            return self.session.has_human
        return True

    def status(self, text: str) -> None:
        """One line for the status bar; one too long for it is cut with an ellipsis there
        and shown whole in a notification."""
        self._status = printable(text)
        if self._show_status() and self.is_attached:
            self.notify(self._status, timeout=8)

    def _show_status(self) -> bool:
        """Show the status and the board's note; whether the status had to be cut."""
        status = self.query_one("#status", Static)
        width = (status.size.width or self.app.size.width) - 2  # the padding
        line, cut = fit(Text(self._status), width)
        if self._note is not None:
            note, _ = fit(self._note, width - line.cell_len - 5)
            if line.cell_len + 5 + note.cell_len <= width:
                line.append("  │  ", style="dim")
                line.append_text(note)
        status.update(line)
        return cut

    def on_grid_board_note(self, message: GridBoard.Note) -> None:
        self._note = message.text
        self._show_status()

    def _engine_line(self, text: str | None = None) -> None:
        panel = self.query_one(EnginePanel)
        if text is not None:
            panel.show_text(text)
        elif not self.session.has_ai:
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
        try:
            s.play(move)
        except MoveError as err:
            self.status(f"Illegal: {err}")
            return
        self._changed(f"{mark} played {text}.")

    def _changed(self, text: str) -> None:
        """After any change of position: stop stale work, redraw, then the next turn."""
        self._cancel_search()
        self._status = printable(text)
        self._render_all()
        self._autosave()
        self._next_turn()

    def _autosave(self) -> None:
        self.services.autosave(self.session)
        if (error := self.services.take_write_error()) is not None:
            self.status(f"Autosave failed: {error}")

    def _next_turn(self) -> None:
        s = self.session
        if s.game.is_over:
            self._close_programs(kill=False)
            self._game_over()
            return
        if s.program_to_move:
            pace = PACES[self.pace_index] if not s.has_human and s.game.history else 0.0
            generation = s.generation
            if pace:
                self.set_timer(pace, lambda: self._ask_program(generation))
            else:
                self._ask_program(generation)
            return
        if not s.ai_to_move:
            return
        if not self.services.engine_ready(s.game.name):
            self._engine_line()
            return
        pace = PACES[self.pace_index] if not s.has_human and s.game.history else 0.0
        if pace:  # the pause is for the watcher: nobody's thinking, nobody's clock
            generation = s.generation
            self.set_timer(pace, lambda: self._ask_ai(generation))
        else:
            self._ask(s.request("move"))

    def _ask_ai(self, generation: int) -> None:
        """The AI's turn after a watched game's pause: its clock starts now."""
        s = self.session
        if s.generation != generation or not s.ai_to_move or not self.is_attached:
            return
        s.hold_clock()
        self._ask(s.request("move"))

    def on_engine_ready(self, message: EngineReady) -> None:
        """The app forwards it when an engine has been imported and warmed up."""
        if message.game_name != self.session.game.name:
            return
        if message.error:
            self._engine_line(f"AI unavailable: {message.error}")
            return
        self._engine_line()
        if self.session.ai_to_move or self._hint_for == self.session.generation:
            self.session.hold_clock()  # its clock starts now, with the kernels ready
        if self._hint_for == self.session.generation:
            self.action_hint()
        self._hint_for = None
        if not self.session.game.is_over:  # over: its end screen was shown when it ended
            self._next_turn()

    # ----- the AI worker ------------------------------------------------------------------
    def _ask(self, request: AIRequest) -> None:
        if not self.session.is_current(request) or not self.is_attached:
            return
        self._cancel_search()
        self._stop = stop = self.services.new_stop()
        self._thinking = request
        if request.purpose == "move":
            mark = self._mover(request)
            self._engine_line(f"{mark} thinking...")
        else:
            self._engine_line("looking for a hint...")
        self._search(request, stop)

    @work(thread=True, exclusive=True, group="ai")
    def _search(self, request: AIRequest, stop: StopFlag) -> None:
        self.services.run_search(
            request, stop, lambda info: self._post(self.AIInfo(request, info)),
            lambda result, error: self._post(self.AIDone(request, result, error)))

    def on_game_screen_aiinfo(self, message: AIInfo) -> None:
        if self.session.is_current(message.request):
            self.query_one(EnginePanel).show_info(message.info, self._mover(message.request))

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
        self.query_one(EnginePanel).show_info(result, self._mover(request))
        if request.purpose == "hint":
            self.board.show_hint(result.move)
            self.status(f"Hint: {result.move_text} (eval {result.score:+d}).")
            return
        mark = self._mover(request)
        if self.session.accept(request, result.move):
            self._changed(f"{mark} played {result.move_text}.")
        elif self.session.lost_on_time:
            self._time_up()

    @staticmethod
    def _mover(request: AIRequest) -> str:
        """The mark the search was for (its scores are from that side's view)."""
        return request.game.seat_name(request.game.to_move)

    def _cancel_search(self) -> None:
        if self._stop is not None:
            self._stop.set()
            self._stop = None
        self._thinking = None
        if self._program_call is not None:  # its process group is killed
            self._program_call[1].cancel()
            self._program_call = None

    # ----- contest programs ------------------------------------------------------------------
    def _program(self, mark: int) -> ProgramPlayer:
        """The program holding `mark`, started for this game when first asked."""
        s = self.session
        participant = s.participant_of(mark)
        player = self._programs.get(participant)
        if player is None:
            command = s.participants[participant].command
            assert command is not None
            player = self.services.open_program(type(s.game), command)
            self._programs[participant] = player
        return player

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
            self._changed("The programs' seats went to the AI." if choice == "ai" else
                          "The programs' seats went to people." if choice == "human" else
                          "The programs were approved.")

        self.app.ask_programs(self.session, after)  # type: ignore[attr-defined]

    def _close_programs(self, kill: bool = True) -> None:
        """End this game's programs (the game is over, left, or replaced)."""
        if self._program_call is not None:
            self._program_call[1].cancel()
            self._program_call = None
        programs, self._programs = list(self._programs.values()), {}
        for player in programs:
            self.services.close_program(player, kill=kill)

    def _ask_program(self, generation: int) -> None:
        s = self.session
        if s.generation != generation or not self.is_attached or not s.program_to_move:
            return
        if self._program_call is not None and self._program_call[0].generation == generation:
            return  # already asked
        self._cancel_search()
        mark = s.to_move
        label = s.label(mark)
        if self.services.unapproved(s):  # e.g. an undo into a loaded game's program turn
            self._approve_programs()
            return
        try:
            player = self._program(mark)
        except ValueError as err:  # CommandError: the command names no program
            s.forfeit_program(mark, "start", f"did not start: {err}")
            self._changed(f"{s.game.outcome.reason}.")  # type: ignore[union-attr]
            return
        if not player.can_resume(s.game):
            self._engine_line(f"{label} (program) cannot play here")
            self.status(f"{label} cannot join a game in progress (a whole-game program): "
                        "start a new game.")
            return
        request = s.program_request()
        self._program_call = (request, player)
        self._engine_line(f"{label} (program) thinking...")
        self._run_program(request, player)

    @work(thread=True, group="program")
    def _run_program(self, request: ProgramRequest, player: ProgramPlayer) -> None:
        from tui.play.jury import Cancelled

        try:
            verdict = player.move(request.game, request.clock)
        except Cancelled:
            return  # undo, a new game, quitting: nobody wants the answer
        except Exception as err:  # noqa: BLE001 - OutOfStep, or a failure: one status line
            self._post(self.ProgramDone(request, None, str(err) or type(err).__name__))
        else:
            self._post(self.ProgramDone(request, verdict))

    def on_game_screen_program_done(self, message: ProgramDone) -> None:
        request, verdict = message.request, message.verdict
        if self._program_call is not None and self._program_call[0] is request:
            self._program_call = None
        s = self.session
        if not s.is_current(request):
            return  # a verdict about a position no longer on the board
        label = s.label(request.mark)
        if verdict is None:
            self._engine_line(f"{label} (program) stopped")
            self.status(f"{label} cannot play: {message.error}")
            return
        mark = request.game.seat_name(request.mark)
        text = request.game.move_text(verdict.move) if verdict.ok else ""
        if not s.judge(request, verdict):
            return
        if verdict.ok:
            self._engine_line(f"{label} answered in {verdict.seconds:.2f} s")
            self._changed(f"{mark} played {text}.")
            return
        command = request.player.command or ""
        self.services.log_program_fault(s.game.name, mark, command, verdict)
        reason = s.game.outcome.reason if s.game.outcome else verdict.reason
        self._engine_line(f"{label} (program): {verdict.fault}")
        self._changed(f"{reason[:1].upper()}{reason[1:]} (details in programs.log).")

    def _undo_strands_a_program(self) -> str | None:
        """Why an undo now would leave a whole-game program unable to go on (None: it
        would not): such a program cannot take moves back."""
        s = self.session
        if not s.has_program:
            return None
        from tui.play.jury import can_join

        probe = s.game.copy()
        if s.forfeited:
            probe.resume()
        steps = s._steps_back()
        for _ in range(steps):
            if not probe.history:
                break
            probe.undo()
        thinking = self._program_call[1] if self._program_call is not None else None
        for participant, spec in enumerate(s.participants):
            if not spec.is_program:
                continue
            mark = s.mark_of(participant)
            player = self._programs.get(participant)
            if player is None or player is thinking:  # none, or the undo kills it: as a
                ok = can_join(type(s.game), probe, mark)  # fresh start would find it
            else:
                ok = player.can_resume(probe, mark)
            if not ok:
                return (f"{s.label_of(participant)} is a whole-game program and cannot take "
                        "moves back: start a new game.")
        return None

    def on_unmount(self) -> None:
        self._cancel_search()
        self._close_programs()
        name = f"rules-{id(self)}"
        if self.app.is_screen_installed(name):
            with contextlib.suppress(ScreenStackError):  # still open: it goes with the app
                self.app.uninstall_screen(name)

    # ----- actions --------------------------------------------------------------------------
    def action_undo(self) -> None:
        if (problem := self._undo_strands_a_program()) is not None:
            self.status(f"Cannot undo: {problem}")
            return
        try:
            undone = self.session.undo()
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
            done = self.session.redo()
        except MoveError as err:
            self.status(f"Cannot redo: {err}")
            return
        self._engine_line()
        self._changed(f"Replayed {', '.join(game.move_text(m) for m in done)}.")

    def action_hint(self) -> None:
        s = self.session
        if s.game.is_over or s.machine_to_move:
            self.status("A hint is for a human's turn.")
            return
        if not self.services.engine_ready(s.game.name):
            self.services.prepare_engine(s.game.name)
            self._hint_for = s.generation  # given once ready, if the position is the same
            self._engine_line()
            s.hold_clock()  # the wait for the kernels is not the person's thinking
            self.status("The AI is getting ready; the hint follows, and your clock waits.")
            return
        self._ask(s.request("hint", "hard"))  # the best move, not a noisy one

    def action_rules(self) -> None:
        game = type(self.session.game)
        keys = ("Keys: arrows and Enter (or the mouse) play; u undo, r redo, h hint,\n"
                "s save, l load, e export, n new game, ctrl+p all commands, ctrl+q quit.")
        # made once and kept installed: opening it again skips its compose and styling,
        # most of a dialog's key-to-screen time while the AI searches (docs/latency.py)
        name = f"rules-{id(self)}"
        if not self.app.is_screen_installed(name):
            self.app.install_screen(
                RulesDialog(f"{game.title}: the rules", f"{game.summary}\n\n{keys}"), name)
        self.app.push_screen(name)

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

    def leaving_note(self, new_game: bool = False) -> str:
        """What leaving the game on the board does to it, for the questions that leave.

        The autosave holds one game: a new game's first move replaces it."""
        s = self.session
        if not s.unsaved:
            return "This game is saved." if s.game.history else ""
        if s.in_progress and new_game:
            return ("This game stays under Resume on the menu until the next game's first "
                    "move; f saves it by name.")
        if s.in_progress:
            return "This game is kept: Resume on the menu brings it back."
        return "This finished game is not saved: f saves it first."

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
        self._close_programs()
        self.post_message(StartSession(session, "New game, same settings. ? shows the rules."))

    def _to_menu(self) -> None:
        self._cancel_search()
        self._close_programs()
        self.post_message(OpenMenu())

    def action_save(self, then: Callable[[], object] | None = None) -> None:
        """Ask for a name and save; `then` runs after a successful save (quit, new game)."""
        from saves.store import SUFFIX

        try:
            folder = self.services.saves_folder()
            default = self.services.default_name(self.session.game.name)
        except Exception as err:  # noqa: BLE001 - one line in the status, game untouched
            self.status(f"Cannot save: {err}")
            return
        dialog = NameDialog("Save the game", folder, default,
                            check=lambda name: self.services.name_problem(name, SUFFIX))
        self.app.push_screen(dialog, lambda name: self._save_to(name, then))

    def _save_to(self, name: str | None, then: Callable[[], object] | None = None) -> None:
        if not name:
            self.status("Save cancelled.")
            return
        try:
            path = self.services.save_session(self.session, name)
        except Exception as err:  # noqa: BLE001
            self.status(f"Save failed: {err}")
            return
        self.status(f"Saved to {self._shown(path)}.")
        if then is not None:
            then()

    def _shown(self, path: Path) -> str:
        try:
            return short_path(path, self.services.saves_folder())
        except OSError:
            return short_path(path)

    def action_load(self) -> None:
        try:
            folder, saves = self.services.list_saves()
        except Exception as err:  # noqa: BLE001 - one line in the status, game untouched
            self.status(f"Cannot list saves: {err}")
            return
        self.app.push_screen(LoadDialog(folder, saves), self._load_from)

    def _load_from(self, path: Path | None) -> None:
        if path is None:
            self.status("Load cancelled.")
            return
        try:
            loaded = self.services.load_session(path, self.session.participants)
        except Exception as err:  # noqa: BLE001 - a failed load never changes the game
            self.status(f"Load failed: {err}")
            return
        if self.services.unapproved(loaded):  # the app asks first; a "no" leaves this game
            self.post_message(StartSession(loaded, f"Loaded {printable(path.name)}."))
            return
        self._close_programs()
        if loaded.game.name != self.session.game.name:
            self._cancel_search()
            self.post_message(StartSession(loaded, f"Loaded {printable(path.name)}."))
            return
        self.session.replace(loaded)
        self.session.mark_saved()
        self._show_game()
        if self.session.has_ai:
            self.services.prepare_engine(self.session.game.name)
        self._engine_line()
        self._changed(f"Loaded {printable(path.name)}.")

    def action_export(self) -> None:
        from saves.store import NATIVE_SUFFIX

        try:
            folder = self.services.saves_folder()
            default = self.services.default_name(self.session.game.name, NATIVE_SUFFIX)
        except Exception as err:  # noqa: BLE001
            self.status(f"Cannot export: {err}")
            return
        self.app.push_screen(NameDialog(
            "Export the position (native format)", folder, default, "Export",
            check=lambda name: self.services.name_problem(name, NATIVE_SUFFIX)), self._export_to)

    def _export_to(self, name: str | None) -> None:
        if not name:
            self.status("Export cancelled.")
            return
        try:
            path = self.services.export_position(self.session, name)
        except Exception as err:  # noqa: BLE001
            self.status(f"Export failed: {err}")
            return
        self.status(f"Exported the position to {self._shown(path)}.")

    # ----- the end of a game -------------------------------------------------------------------
    def action_replay(self) -> None:
        """Step through the finished game (the app opens the replay over this screen; its
        `c` comes back with a new game from a move, which starts as any new game does)."""
        if not self.session.game.is_over:
            self.status("The replay is for a finished game.")
            return
        self._cancel_search()
        self.post_message(OpenReplay(self.session))

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
        self.status(f"Game over: {outcome.reason}.{logged} g shows the result again.")
        title = "Match over" if s.match_over and s.match.length > 1 else "Game over"
        self.app.push_screen(ResultScreen(title, lines, next_label), self._after_result)

    def _result_lines(self) -> list[str]:
        """Who won and how, from the outcome value, then the board's own explanation."""
        s = self.session
        game = s.game
        outcome = game.outcome
        assert outcome is not None
        marks = [game.seat_name(m) for m in range(game.players)]
        if outcome.is_draw:
            head = "Draw"
        elif len(outcome.winners) > 1:  # a forfeit in a game of three or more players
            head = " and ".join(f"{s.label(w)} ({marks[w]})" for w in outcome.winners) + " win"
        else:
            winner = outcome.winners[0]
            name = s.label(winner)
            verb = "win" if name == "You" else "wins"  # "You win", "AI (hard) wins"
            head = f"{name} {verb} as {marks[winner]}"
        if s.match.length > 1:
            head = f"Game {s.game_number} of {s.match.length}: {head}"
        lines = [head, *type(self.board).describe_result(game)]
        if outcome.fault is not None:  # a program's fault: the kind and its exact output
            from tui.play.jury import quote

            shown = quote(outcome.output or "")
            lines.insert(2, f"Fault: {outcome.fault}; its output: {shown}")
        return lines

    def _match_lines(self) -> list[str]:
        s = self.session
        rule = s.match.rule
        standing = s.standing()
        first = [s.game.seat_name(m) for m in range(s.players)]  # p held seat p in game 1
        lines = [f"Match result ({rule.title}):"]
        for p, value in enumerate(standing):
            lines.append(f"  {s.label_of(p)} (first {first[p]}): {rule.number(value)}")
        leaders = rule.leaders(standing)
        if len(leaders) == len(standing):
            lines.append("The match is drawn.")
        else:
            names = " and ".join(f"{s.label_of(p)} (first {first[p]})" for p in leaders)
            lines.append(f"{names} {'win' if len(leaders) > 1 else 'wins'} the match.")
        return lines

    def _rotation(self) -> str:
        return "sides swapped" if self.session.players == 2 else "the seats rotate"

    def _after_result(self, choice: str | None) -> None:
        if choice == "next" and self.session.has_next_game:
            self.session.next_game()
            self._show_game()
            self.board.focus()
            s = self.session
            who = ", ".join(f"{s.game.seat_name(m)}: {s.label(m)}" for m in range(s.players))
            kind = "Return game" if s.match.length == 2 else f"Game {s.game_number}"
            self._changed(f"{kind}, {self._rotation()} ({who}).")
        elif choice == "new":
            self.action_new_game()
