"""The load dialog, a save manager: filter, sort, rename, delete and preview the saves.

The list is `saves.catalog`'s (its filter and order are tested without a screen); this
screen draws it and asks before anything changes on disk. At 100 columns or more the
highlighted save's position is drawn beside the list; narrower, `p` shows it in the list's
place (up and down still walk the list). A failed rename or delete says why on the
message line and leaves every file as it was; the list is read again after each.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from rules import game_names, get_game
from saves.catalog import Order, Preview, SaveEntry, entries, preview, select
from tui.screens.common import entry, fit, printable, short_path
from tui.screens.dialogs import ChoiceDialog, NameDialog
from tui.widgets.boards import board_class, has_board, replay_board
from tui.widgets.boards.grid import GridBoard

WIDE = 100  # from this many columns the preview stands beside the list
FILTER_HINT = "/ filter: words of the name or line"
FILTER_HINT_SHORT = "/ filter"
KEYS = [("enter", "load"), ("/", "filter"), ("g", "game"), ("s", "sort"), ("r", "rename"),
        ("d", "delete"), ("p", "preview"), ("esc", "close")]


def key_line() -> Text:
    """The dialog's keys (the dialog has no Footer): each key bold, then what it does."""
    text = Text()
    for index, (key, what) in enumerate(KEYS):
        text.append("  " if index else "")
        text.append(key, style="bold")
        text.append(f" {what}")
    return text


class LoadDialog(ModalScreen[Path | None]):
    """Choose one of `saves` (the listing of `folder`, newest first); dismisses with its
    path or None. `relist` reads the folder again after a rename or a delete (by default
    `store.list_saves` with exported positions, as the services list them)."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide")]
    BINDINGS = [
        Binding("escape", "back", "Close"),
        Binding("slash", "filter", "Filter"),
        Binding("g", "game", "Game"),
        Binding("s", "sort", "Sort"),
        Binding("r,f2", "rename", "Rename"),
        Binding("d,delete", "delete", "Delete"),
        Binding("p", "preview", "Preview"),
        # while the filter or the narrow preview has the keys (the list binds its own)
        Binding("up", "step(-1)", "Previous", show=False),
        Binding("down", "step(1)", "Next", show=False),
        Binding("home", "edge(True)", "First", show=False),
        Binding("end", "edge(False)", "Last", show=False),
        Binding("enter", "load", "Load", show=False),
    ]
    AUTO_FOCUS = "#saves"

    def __init__(self, folder: Path, saves: list[Path],
                 relist: Callable[[], list[Path]] | None = None) -> None:
        super().__init__()
        self.folder = folder
        self.saves = list(saves)
        self.relist = relist
        self.found: list[SaveEntry] = entries(self.saves)
        self.shown: list[SaveEntry] = []
        self.text = ""
        self.game: str | None = None  # the game filter (None: every game)
        self.order = Order.NEWEST
        self.previewed: Path | None = None  # the file the preview pane shows
        self.preview: Preview | None = None

    # ----- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="manager"):
            yield Label("Load a game", id="dialog-title")
            with Horizontal(id="load-bar"):
                yield Input(placeholder=FILTER_HINT, id="filter")
                yield Static(id="load-state")
            with Horizontal(id="load-body"):
                yield OptionList(id="saves")
                yield Static(id="load-empty")
                with Vertical(id="preview"):
                    yield Static(id="preview-line")
                    yield ScrollableContainer(id="preview-board", can_focus=False)
            yield Static(id="load-message")
            yield Static(key_line(), id="load-keys", classes="keys")

    def on_mount(self) -> None:
        self.say(f"from {short_path(self.folder)}")
        self.show_list()
        self.call_after_refresh(self._fit_hint)

    def _fit_hint(self) -> None:
        """The filter's whole hint where it fits, else its key alone (it was cut off
        mid-phrase on a narrow terminal)."""
        if not self.is_attached:
            return
        field = self.query_one("#filter", Input)
        width = field.content_size.width
        field.placeholder = FILTER_HINT if width >= len(FILTER_HINT) else FILTER_HINT_SHORT

    @property
    def wide(self) -> bool:
        return self.has_class("-wide")

    @property
    def previewing(self) -> bool:
        """Whether the preview pane is on screen (beside the list, or in its place)."""
        return self.has_class("-previewing") if not self.wide \
            else not self.has_class("-no-preview")

    def on_resize(self, _event: events.Resize) -> None:
        # the breakpoint may have switched between beside and in place of the list
        self.call_after_refresh(self._preview_changed)
        self.call_after_refresh(self._fit_hint)

    # ----- the list ------------------------------------------------------------------------
    def show_list(self, keep: Path | None = None, index: int | None = None) -> None:
        """Fill the list from the filter, the game and the order; highlight `keep` if it is
        shown, else the entry at `index` (or the nearest), else the first."""
        options = self.query_one("#saves", OptionList)
        self.shown = select(self.found, self.text, self.game, self.order)
        options.set_options(self._option(e) for e in self.shown)
        paths = [e.path for e in self.shown]
        if self.shown:
            if keep in paths:
                options.highlighted = paths.index(keep)
            else:
                options.highlighted = min(index or 0, len(paths) - 1)
        empty = self.query_one("#load-empty", Static)
        if not self.found:
            empty.update("No saves yet.")
        else:
            empty.update("No save matches the filter." if not self.shown else "")
        self.set_class(not self.shown, "-empty")
        if self.shown and self.focused is None and not (self.previewing and not self.wide):
            self.call_after_refresh(self._focus_list)  # it lost the focus while hidden
        game = get_game(self.game).title if self.game else "all games"
        self.query_one("#load-state", Static).update(
            f"{game} · {self.order.value} · {len(self.shown)} of {len(self.found)}")
        self._preview_changed()

    @staticmethod
    def _option(e: SaveEntry) -> Option:
        return Option(entry(Text(printable(e.name), style="bold"),
                            Text(printable(e.line), style="dim")))

    def highlighted(self) -> SaveEntry | None:
        index = self.query_one("#saves", OptionList).highlighted
        return self.shown[index] if index is not None and index < len(self.shown) else None

    def reread(self, keep: Path | None = None, index: int | None = None) -> None:
        """Read the folder again (after a rename or a delete) and show it."""
        from saves.store import list_saves

        try:
            self.saves = self.relist() if self.relist else list_saves(self.folder, native=True)
        except Exception as err:  # noqa: BLE001 - the list stays as it was, saying why
            self.say(f"Cannot list saves: {err}", error=True)
            return
        self.found = entries(self.saves)
        self.previewed = None  # a file of the same name may be another now
        self.show_list(keep, index)

    def say(self, text: str, error: bool = False) -> None:
        """One line under the list: what was done, or why it was not."""
        width = self.app.size.width - 4
        line, _cut = fit(Text(printable(text), style="bold red" if error else "dim"), width)
        self.query_one("#load-message", Static).update(line)

    # ----- keys ----------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_load()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._preview_changed()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.text = event.value
        self.show_list(self._current())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._focus_list()

    def _current(self) -> Path | None:
        chosen = self.highlighted()
        return chosen.path if chosen is not None else None

    def _focus_list(self) -> None:
        if self.previewing and not self.wide:
            self.set_focus(None)  # the screen's own up, down and enter walk the list
        else:
            self.query_one("#saves", OptionList).focus()

    def action_back(self) -> None:
        """Escape: from the filter back to the list, from the narrow preview back to the
        list; else close the dialog."""
        if self.query_one("#filter", Input).has_focus:
            self._focus_list()
        elif self.previewing and not self.wide:
            self.action_preview()
        else:
            self.dismiss(None)

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_step(self, delta: int) -> None:
        options = self.query_one("#saves", OptionList)
        if delta < 0:
            options.action_cursor_up()
        else:
            options.action_cursor_down()

    def action_edge(self, first: bool) -> None:
        options = self.query_one("#saves", OptionList)
        if first:
            options.action_first()
        else:
            options.action_last()

    def action_load(self) -> None:
        chosen = self.highlighted()
        if chosen is not None:
            self.dismiss(chosen.path)

    def action_game(self) -> None:
        """Cycle the game filter: every game, then each game in the registry's order."""
        choices: list[str | None] = [None, *game_names()]
        self.game = choices[(choices.index(self.game) + 1) % len(choices)] \
            if self.game in choices else None
        self.show_list(self._current())

    def action_sort(self) -> None:
        self.order = self.order.next
        self.show_list(self._current())

    def action_preview(self) -> None:
        if self.wide:
            self.toggle_class("-no-preview")
        else:
            self.toggle_class("-previewing")
            self._focus_list()
        self._preview_changed()

    # ----- rename and delete ---------------------------------------------------------------
    def action_rename(self) -> None:
        chosen = self.highlighted()
        if chosen is None:
            self.say("Nothing to rename.", error=True)
            return
        from saves.store import LISTED_SUFFIXES

        # the name as typed: without its kind's suffix (a rename keeps the kind)
        suffix = next((s for s in LISTED_SUFFIXES if chosen.name.endswith(s)), "")
        stem = chosen.name.removesuffix(suffix) or chosen.name
        dialog = NameDialog(f"Rename {printable(chosen.name)}", self.folder, stem, "Rename",
                            check=lambda name: self._rename_problem(chosen.path, name))
        self.app.push_screen(dialog, lambda name: self._rename(chosen.path, name))

    def _rename_problem(self, path: Path, name: str) -> str | None:
        from saves.format import SaveError
        from saves.store import rename_target

        try:
            rename_target(self.folder, path, name)
        except SaveError as err:
            return str(err)
        return None

    def _rename(self, path: Path, name: str | None) -> None:
        from saves.format import SaveError
        from saves.store import rename_save

        if not name:
            self.say("Rename cancelled.")
            return
        try:
            new = rename_save(self.folder, path, name)
        except SaveError as err:
            self.say(f"Rename failed: {err}", error=True)
            self.reread(path)
            return
        self.say(f"Renamed {path.name} to {new.name}.")
        self.reread(new)

    def action_delete(self) -> None:
        chosen = self.highlighted()
        if chosen is None:
            self.say("Nothing to delete.", error=True)
            return
        name = printable(chosen.name)
        dialog = ChoiceDialog("Delete this file?",
                              f"{name}\nwill be deleted from {short_path(self.folder)}. "
                              "This cannot be undone.", [("delete", "Delete", "y")])
        self.app.push_screen(dialog, lambda choice: self._delete(chosen, choice))

    def _delete(self, chosen: SaveEntry, choice: str | None) -> None:
        from saves.format import SaveError
        from saves.store import delete_save

        index = self.shown.index(chosen) if chosen in self.shown else None
        if choice != "delete":
            self.say("Delete cancelled; nothing was removed.")
            return
        try:
            delete_save(chosen.path, self.folder)
        except SaveError as err:
            self.say(f"Delete failed: {err}", error=True)
            self.reread(chosen.path)
            return
        self.say(f"Deleted {chosen.name}.")
        self.reread(None, index)

    # ----- the preview ---------------------------------------------------------------------
    def _preview_changed(self) -> None:
        """Show the highlighted file in the preview pane, if it is on screen; the file is
        read and replayed in a thread (a long game takes a while)."""
        if not self.is_attached:
            return
        chosen = self.highlighted()
        if chosen is None:
            self.previewed = None
            self.call_later(self._show_preview, None, None)
            return
        if not self.previewing or chosen.path == self.previewed:
            return
        self.previewed = chosen.path
        self.query_one("#preview-line", Static).update(
            Text.assemble((printable(chosen.name), "bold"), "\n", ("reading…", "dim")))
        self._read_preview(chosen.path)

    @work(thread=True, exclusive=True, group="preview", exit_on_error=False)
    def _read_preview(self, path: Path) -> None:
        seen = preview(path)  # never raises
        try:
            self.app.call_from_thread(self._show_preview, path, seen)
        except RuntimeError:  # the app has closed meanwhile: nobody is waiting
            pass

    async def _show_preview(self, path: Path | None, seen: Preview | None) -> None:
        """Draw `seen` (the preview of `path`) unless the highlight has moved on."""
        if path != self.previewed or not self.is_attached:
            return
        self.preview = seen
        line = self.query_one("#preview-line", Static)
        holder = self.query_one("#preview-board", ScrollableContainer)
        game = seen.game if seen is not None else None
        if path is None or seen is None:
            line.update("")
        else:
            style = "dim" if game is not None else "red"
            line.update(Text.assemble((printable(path.name), "bold"), "\n",
                                      (printable(seen.line), style)))
        boards = holder.query(GridBoard)
        board = boards.first() if boards else None
        if game is None or not has_board(game.name):
            await holder.remove_children()
            return
        cls = replay_board(board_class(game.name))
        if board is None or board.__class__.__name__ != cls.__name__:
            await holder.remove_children()
            if path != self.previewed:  # another file was highlighted meanwhile
                return
            board = cls(classes="preview-position")
            board.can_focus = False  # read-only: no cursor, no move
            board.locked = True
            await holder.mount(board)
        board.set_game(game)
        board.locked = True
        # the line under the board: whose turn it is, not "waiting" for a move
        board.replay_line = Text(  # type: ignore[attr-defined]
            f"{game.seat_name(game.to_move)} to move" if not game.is_over else "game over",
            style="dim")
        board.refresh()

    def on_grid_board_note(self, event: GridBoard.Note) -> None:
        event.stop()  # a board's line about the move being chosen: none is chosen here

    def on_grid_board_move_picked(self, event: GridBoard.MovePicked) -> None:
        event.stop()
