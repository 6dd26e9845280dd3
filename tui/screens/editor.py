"""The position editor: set up any position a game's rules allow, then play from it,
save it, export it natively or analyse it.

The game's own declaration (`rules/edit/NAME.py`, found by `draft_class`) says what may
be put on the board and which position-wide fields there are; the rules judge the
draft after every edit and the status line shows "legal" or their reason. The editor
works on its own draft: opened from a game, it never changes that game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Select, Static

from rules import Game, PlayerSpec, RulesError, get_game
from rules.edit import Draft, draft_class
from rules.edit.base import Paint
from tui.messages import OpenAnalysis, OpenMenu, StartSession
from tui.play.session import Session
from tui.screens.common import BoardFitScreen, KeyFooter, fit, printable, short_path
from tui.screens.dialogs import ChoiceDialog, NameDialog
from tui.screens.editor_dialogs import Seats, SeatsDialog
from tui.services import Services
from tui.widgets.draft_grid import DraftGrid

UNDO_DEPTH = 200  # edits the undo key can take back
PAINT_KEYS = "1234567890"  # palette entries, in order


class EditorScreen(BoardFitScreen):
    """Edit a position of `game_name`: from its start, or from `game` (a copy is edited).

    Opened over a game (`game` given), escape returns to it unchanged and Play comes
    back as the `StartSession` the screen is dismissed with; from the menu, Play starts
    the game and escape goes back to the menu."""

    CSS_PATH = "../editor.tcss"
    BINDINGS = [
        *(Binding(key, f"paint({i})", "Paint", key_display="1-9", show=i == 0)
          for i, key in enumerate(PAINT_KEYS)),
        Binding("f", "fill", "Fill"),
        Binding("u", "undo", "Undo"),
        Binding("c", "clear", "Clear"),
        Binding("p", "play", "Play"),
        Binding("s", "save", "Save"),
        Binding("e", "export", "Export"),
        Binding("a", "analyse", "Analyse"),
        Binding("escape", "back", "Back", key_display="esc"),
    ]

    def __init__(self, game_name: str, services: Services, game: Game | None = None) -> None:
        super().__init__()
        self.cls = get_game(game_name)
        self.services = services
        self.over_game = game is not None
        drafts = draft_class(self.cls)
        self.draft: Draft = drafts.start() if game is None else drafts.from_game(game)
        self.undo_stack: list[Draft] = []
        self.edited = False  # changed since it opened or was last saved or exported
        self.paint_index = 0
        self.filling = False  # a cell paint fills the area between two corners
        self.grid = DraftGrid(self.draft, id="draft")

    # ----- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(f"Arena · {self.cls.title} · position editor", id="title")
        with Horizontal(id="main"):
            with Vertical(id="board-box") as box:
                box.border_title = "board"
                yield self.grid
            with Vertical(id="side"):
                yield Static(id="palette")
                with Vertical(id="fields"):
                    for field in self.draft.fields():
                        with Horizontal(classes="field-row"):
                            yield Label(field.label)
                            yield self._field_widget(field.name, field.choices)
                yield Static(id="facts")
                yield Static(id="reason")
        yield Static(id="status")
        yield KeyFooter(compact=True)
        yield from self.compose_notice()

    def _field_widget(self, name: str, choices: Any) -> Select | Input:
        value = self.draft.values.get(name, "")
        if choices is not None:
            return Select(list(choices), value=value, allow_blank=False, id=f"field-{name}",
                          compact=True)
        return Input(value, id=f"field-{name}", compact=True)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#palette").border_title = "palette"
        self.query_one("#fields").border_title = "position"
        self.query_one("#fields").display = bool(self.draft.fields())
        self.grid.focus()
        self._show()

    def on_resize(self) -> None:
        self.grid.refresh(layout=True)  # its cells grow and shrink with the terminal

    # ----- showing the draft ---------------------------------------------------------------
    def _paints(self) -> tuple[Paint, ...]:
        return self.draft.palette()

    def _paint(self) -> Paint:
        paints = self._paints()
        self.paint_index = min(self.paint_index, len(paints) - 1)
        return paints[self.paint_index]

    def _show(self) -> None:
        """Redraw after an edit: the board, the palette, the fields' choices, the facts and
        the rules' verdict."""
        paint = self._paint()
        self.grid.set_area(paint.area or (self.filling and paint.fills))
        self.grid.set_draft(self.draft)
        self.fit_board(self.grid.size_needed())
        lines = Text()
        for i, entry in enumerate(self._paints()):
            chosen = i == self.paint_index
            lines.append(f"{'▶' if chosen else ' '}{PAINT_KEYS[i]} {entry.label}",
                         style="bold reverse" if chosen else "")
            lines.append("\n")
        mode = ("two corners: Enter, Enter" if paint.area
                else "fill: Enter on two corners" if self.filling and paint.fills else "")
        lines.append(mode, style="italic")
        lines.rstrip()
        self.query_one("#palette", Static).update(lines)
        for field in self.draft.fields():
            if field.choices is None:
                continue
            select = self.query_one(f"#field-{field.name}", Select)
            options = list(field.choices)
            if [v for _, v in options] != [v for _, v in select._options if v is not Select.BLANK]:
                with select.prevent(Select.Changed):
                    select.set_options(options)
            value = self.draft.values.get(field.name)
            if select.value != value:
                with select.prevent(Select.Changed):
                    select.value = value
        self.query_one("#facts", Static).update("\n".join(self.draft.facts()))
        self._verdict()

    def _verdict(self) -> None:
        game, reason = self._judge()
        if game is None:
            line = Text(f"Not legal: {reason}", style="bold red")
        else:
            outcome = game.outcome
            more = (f"the game is over: {outcome.reason}" if outcome is not None
                    else f"{game.seat_name(game.to_move)} to move")
            line = Text(f"Legal: {more}.", style="bold green")
        shown, cut = fit(Text(printable(line.plain), style=line.style), self.app.size.width - 2)
        self.query_one("#status", Static).update(shown)
        whole = self.query_one("#reason", Static)  # a reason too long for the line, whole
        whole.update(Text(printable(line.plain), style=line.style) if cut else "")
        whole.display = cut

    def _judge(self) -> tuple[Game | None, str]:
        try:
            return self.draft.build(), ""
        except RulesError as err:
            return None, str(err)
        except (ValueError, IndexError) as err:  # a draft the rules cannot even read
            return None, str(err)

    def say(self, text: str) -> None:
        """One line in the status (an action's result); the next edit shows the verdict."""
        shown, _ = fit(Text(printable(text)), self.app.size.width - 2)
        self.query_one("#status", Static).update(shown)

    # ----- editing -------------------------------------------------------------------------
    def _edit(self, change: Any) -> None:
        """Apply `change(draft)` to a copy; kept (and undoable) unless it raises."""
        before = self.draft.copy()
        try:
            change(self.draft)
        except RulesError as err:
            self.draft = before
            self._show()
            self.say(f"Cannot: {err}")
            return
        self.undo_stack = [*self.undo_stack[-UNDO_DEPTH + 1:], before]
        self.edited = True
        self._show()

    def on_draft_grid_cell_chosen(self, event: DraftGrid.CellChosen) -> None:
        index, paint = self.paint_index, self._paint()
        if event.corner is not None and not paint.area:
            self._edit(lambda d: d.fill(index, event.cell, event.corner))
        else:
            self._edit(lambda d: d.paint(index, event.cell, event.corner))

    def action_paint(self, index: int) -> None:
        if index < len(self._paints()):
            self.paint_index = index
            self._show()

    def action_fill(self) -> None:
        self.filling = not self.filling
        self._show()

    def action_undo(self) -> None:
        if not self.undo_stack:
            self.say("Nothing to undo.")
            return
        self.draft = self.undo_stack.pop()
        self.edited = True
        self._show()

    def action_clear(self) -> None:
        self._edit(lambda d: d.clear())

    def on_input_changed(self, event: Input.Changed) -> None:
        name = (event.input.id or "").removeprefix("field-")
        if name and self.draft.values.get(name) != event.value.strip():
            self._edit(lambda d: d.set_value(name, event.value))

    def on_input_submitted(self) -> None:
        self.grid.focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        name = (event.select.id or "").removeprefix("field-")
        if name and event.value is not Select.BLANK and self.draft.values.get(name) != event.value:
            self._edit(lambda d: d.set_value(name, str(event.value)))

    # ----- what to do with it ------------------------------------------------------------
    def _legal(self, doing: str) -> Game | None:
        game, reason = self._judge()
        if game is None:
            self.say(f"Cannot {doing}: {reason}")  # the rules' reason says what is wrong
        return game

    def action_play(self) -> None:
        game = self._legal("play")
        if game is not None:
            self.app.push_screen(SeatsDialog(game), lambda seats: self._play(game, seats))

    def _play(self, game: Game, seats: Seats | None) -> None:
        if seats is None:
            return
        try:
            session = Session(game, seats.players, control=seats.control, now=self.services.now)
        except (RulesError, ValueError) as err:
            self.say(f"Cannot play: {err}")
            return
        start = StartSession(session, f"Playing from the edited {game.title} position.")
        if self.over_game:
            self.dismiss(start)
        else:
            self.post_message(start)

    def action_save(self, then: Callable[[], object] | None = None) -> None:
        """Ask for a name and save; `then` runs after a successful save (leaving)."""
        from saves.store import SUFFIX

        if self._legal("save") is None:
            return
        try:
            folder = self.services.saves_folder()
            default = self.services.default_name(self.cls.name)
        except Exception as err:  # noqa: BLE001 - one line in the status
            self.say(f"Cannot save: {err}")
            return
        self.app.push_screen(NameDialog("Save the position", folder, default,
                                        **self.services.name_checks(SUFFIX)),
                             lambda name: self._save_to(name, then))

    def _save_to(self, name: str | None, then: Callable[[], object] | None = None) -> None:
        game = self._legal("save")
        if not name or game is None:
            return
        try:
            session = Session(game, [PlayerSpec.human()] * game.players, now=self.services.now)
            path = self.services.save_session(session, name)
        except Exception as err:  # noqa: BLE001 - nothing written, the draft stays
            self.say(f"Save failed: {err}")
            return
        self.edited = False
        self.say(f"Saved to {self._shown(path)}.")
        if then is not None:
            then()

    def action_export(self) -> None:
        from saves.store import NATIVE_SUFFIX

        if self._legal("export") is None:
            return
        try:
            folder = self.services.saves_folder()
            default = self.services.default_name(self.cls.name, NATIVE_SUFFIX)
        except Exception as err:  # noqa: BLE001
            self.say(f"Cannot export: {err}")
            return
        self.app.push_screen(NameDialog(
            "Export the position (native format)", folder, default, "Export",
            **self.services.name_checks(NATIVE_SUFFIX)), self._export_to)

    def _export_to(self, name: str | None) -> None:
        from saves.store import NATIVE_SUFFIX, export_native, path_in

        game = self._legal("export")
        if not name or game is None:
            return
        try:
            path = path_in(self.services.saves_folder(), name, NATIVE_SUFFIX)
            export_native(game, path)  # the clocks as the position holds them
        except Exception as err:  # noqa: BLE001
            self.say(f"Export failed: {err}")
            return
        self.edited = False
        self.say(f"Exported the position to {self._shown(path)}.")

    def _shown(self, path: Path) -> str:
        try:
            return short_path(path, self.services.saves_folder())
        except OSError:
            return short_path(path)

    def action_analyse(self) -> None:
        game = self._legal("analyse")
        if game is not None:
            self.post_message(OpenAnalysis(game))

    def action_back(self) -> None:
        """Leave (to the game it was opened over, or the menu), first asking if the edits
        would be lost."""
        if self.focused is not self.grid:  # from a field: back to the board, not away
            self.grid.focus()
            return
        if not self.edited:
            self._leave()
            return
        choices = [("leave", "Leave", "l")]
        if self._judge()[0] is not None:
            choices.append(("save", "Save first", "s"))
        self.app.push_screen(ChoiceDialog("Leave the editor?", self.leaving_note(), choices),
                             self._after_back_choice)

    def leaving_note(self, place: str = "on the board") -> str:
        """What leaving does to the position `place` (for the questions that leave)."""
        if self._judge()[0] is None:
            return f"The position {place} is not saved (it is not legal, so it cannot be)."
        return f"The position {place} is not saved."

    def _after_back_choice(self, choice: str | None) -> None:
        if choice == "leave":
            self._leave()
        elif choice == "save":
            self.action_save(then=self._leave)

    def _leave(self) -> None:
        if self.over_game:
            self.dismiss(None)
        else:
            self.post_message(OpenMenu(self.cls.name))
