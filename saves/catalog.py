"""The load list as data: its entries, their filter and order, and a listed file's preview.

Headless (no Textual), so the save manager's choices are tested without a screen. An
entry is made from a listed path by `entry_for`; a new kind of listed file needs only a
line there (and its suffix in `store.LISTED_SUFFIXES`). Nothing here raises on a bad file:
it is an entry whose game is None and whose line says why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from rules import Game, RulesError, get_game
from rules.players import labels
from saves.format import SaveError
from saves.store import is_save, move_to_play, read_native, read_save, summarize_save


@dataclass(frozen=True)
class SaveEntry:
    """One listed file: its path, its game (None: unreadable) and the list's line about it.
    `rank` is its place in the listing (newest first)."""

    path: Path
    game: str | None
    line: str
    rank: int

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def title(self) -> str | None:
        """The game's title, for sorting and the filter (None when unreadable)."""
        try:
            return get_game(self.game).title if self.game else None
        except RulesError:
            return None

    def matches(self, words: Sequence[str]) -> bool:
        """Whether every word (lower case) is in the name, the line or the game's title."""
        text = f"{self.name}\n{self.line}\n{self.title or ''}".casefold()
        return all(word in text for word in words)


def entry_for(path: Path, rank: int) -> SaveEntry:
    """The entry of one listed file (read once, not replayed); never raises."""
    game, line = summarize_save(path)
    return SaveEntry(path, game, line, rank)


def entries(paths: Iterable[Path]) -> list[SaveEntry]:
    """The entries of the listed files, in the listing's order."""
    return [entry_for(path, rank) for rank, path in enumerate(paths)]


class Order(Enum):
    """How the load list is sorted; `next` cycles through them in this order."""

    NEWEST = "newest first"
    NAME = "by name"
    GAME = "by game"

    @property
    def next(self) -> Order:
        members = list(Order)
        return members[(members.index(self) + 1) % len(members)]


_KEYS: dict[Order, Callable[[SaveEntry], tuple[object, ...]]] = {
    Order.NEWEST: lambda e: (e.rank,),
    Order.NAME: lambda e: (e.name.casefold(), e.rank),
    # unreadable files last; the newest first within a game
    Order.GAME: lambda e: (e.title is None, e.title or "", e.rank),
}


def select(found: Iterable[SaveEntry], text: str = "", game: str | None = None,
           order: Order = Order.NEWEST) -> list[SaveEntry]:
    """The entries shown: those of `game` (None: every game) holding every word of `text`
    (in any case), sorted by `order`."""
    words = text.casefold().split()
    shown = [e for e in found if (game is None or e.game == game) and e.matches(words)]
    return sorted(shown, key=_KEYS[order])


# ----- the preview -------------------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    """A listed file's position (None if it cannot be read) and its line: the players, the
    moves played and the result, or why it cannot be shown."""

    game: Game | None
    line: str


def _result(game: Game, names: Sequence[str]) -> str:
    outcome = game.outcome
    if outcome is None:
        return f"{names[game.to_move]} to move"
    if outcome.is_draw:
        return f"draw ({outcome.label})"
    winners = " and ".join(names[w] for w in outcome.winners)
    return f"{winners} won ({outcome.label})"


def preview(path: Path) -> Preview:
    """Read and replay a listed file for its preview (a save is replayed, as a load would:
    call it off the UI thread); never raises."""
    try:
        if not is_save(path):
            game = read_native(path)
            seats = [game.seat_name(seat) for seat in range(game.players)]
            return Preview(game, f"{game.title} · native position · {_result(game, seats)}")
        doc, game = read_save(path)
        names = labels(doc.players)
        moves = len(game.history)  # as the list counts them: the move to play, or all
        played = f"{moves} move{'' if moves == 1 else 's'}" if game.is_over else \
            f"move {move_to_play(moves, game.players)}"
        if doc.match is not None and doc.match.index > 0:  # as the list says it
            played = f"game {doc.match.index + 1} of {doc.match.length}, {played}"
        return Preview(game, f"{game.title} · {' v '.join(names)} · {played} · "
                             f"{_result(game, names)}")
    except (SaveError, RulesError) as err:  # the error names the file; the pane does too
        return Preview(None, f"cannot preview: {str(err).removeprefix(f'{path.name}: ')}")
    except Exception as err:  # noqa: BLE001 - a bug elsewhere must not break the dialog
        return Preview(None, f"cannot preview: {SaveError(f'{type(err).__name__}: {err}')}")
