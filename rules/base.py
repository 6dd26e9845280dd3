"""The one shape every game has: a small, complete, well-tested value.

A `Game` holds its options, its start position and the moves played since, so
undo, replay and saving need nothing else. Moves are hashable values private
to each game; their text form (`move_text`/`parse_move`) is what crosses any
boundary (saves, CLI, UI). The app, saves and engines see games only through
this interface and the registry in `rules/__init__.py`.
"""

from __future__ import annotations

import copy as _copy
import re
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any, ClassVar

from rules.clock import TimeControl
from rules.match import MatchRule, PlainWins
from rules.outcome import FORFEITS, OUTPUT_KEPT, Ending, Outcome, Termination

Move = Hashable
COUNT_OPTION = "players"  # a game with a range of players takes the count as this option


class RulesError(ValueError):
    """Base of every error `rules` raises on bad input; its text is one clear line."""


class MoveError(RulesError):
    """A move text that does not parse, or a move that is not legal here."""


class PositionError(RulesError):
    """A native position or option set that is malformed or impossible."""


@dataclass(frozen=True)
class OptionSpec:
    """One board option: it makes a setup-screen field and a CLI `--opt name=value`.

    `choices` lists every value (a select field); without them any whole
    number in [low, high] is taken.
    """

    name: str
    label: str
    kind: type  # int or str
    default: Any
    choices: tuple[Any, ...] | None = None
    low: int | None = None
    high: int | None = None
    help: str = ""

    def parse(self, raw: Any) -> Any:
        """A value given as text (CLI) or as a value (setup, saves); PositionError if bad."""
        # an int past Python's digit limit has no str(); it is out of any range anyway
        text = "" if isinstance(raw, int) and raw.bit_length() > 64 else str(raw).strip()
        if self.kind is int:
            # ASCII digits only (int() takes other scripts'), at most 12 of them
            if not re.fullmatch(r"-?[0-9]{1,12}", text):
                raise PositionError(f"{self.name} must be a whole number, not {excerpt(raw)}")
            value: Any = int(text)
            if self.low is not None and self.high is not None and not (
                    self.low <= value <= self.high):
                raise PositionError(
                    f"{self.name} {value} is out of range: {self.low} to {self.high}")
        else:
            value = text.lower()
        if self.choices is not None and value not in self.choices:
            raise PositionError(f"{self.name} {excerpt(raw)} is not one of: "
                                f"{', '.join(map(str, self.choices))}")
        return value


def excerpt(value: Any, limit: int = 30) -> str:
    """`value` quoted (repr) and cut to `limit` characters with "...": an error message
    shows what was wrong without echoing a whole bad input. repr escapes anything
    unprintable, and a string is cut before it is quoted, so a huge one costs nothing."""
    if isinstance(value, str):
        shown, cut = repr(value[:limit]), len(value) > limit
    else:
        try:
            shown, cut = repr(value), False
        except ValueError:  # an int past Python's limit on digits for str()
            return f"<a number of about {int(abs(value).bit_length() * 0.30103)} digits>"
    if cut or len(shown) > limit:
        shown = shown[: limit - 3] + "..."
    return shown


@dataclass
class Game(ABC):
    """A game in progress: options, start position and the moves since.

    The class attributes are the game's declaration: everything the app,
    the saves, the engines, the CLI and the tests need to know about a game
    beyond its rules. Shared code reads them and never names a game.
    """

    name: ClassVar[str]  # registry key and module name, e.g. "pahtum"
    title: ClassVar[str]  # display name, e.g. "Pah-Tum"
    tagline: ClassVar[str] = ""  # one line for the menu
    summary: ClassVar[str] = ""  # the rules in a few lines, for players (RULES.md has them all)
    default_marks: ClassVar[tuple[str, ...]]  # one mark per seat, e.g. ("X", "O")
    seat_names: ClassVar[tuple[str, ...]] = ()  # how texts name the seats, e.g. ("red",
    # "blue") where the marks are digits; by default the marks themselves
    player_count: ClassVar[tuple[int, int]] = (2, 2)  # fewest and most players
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    random_start: ClassVar[bool] = False  # whether `new` uses its seed (a seed field shows)
    clock: ClassVar[TimeControl]  # the contest's time control
    time_controls: ClassVar[tuple[TimeControl, ...]] = ()  # offered to people; the first is
    # the default (the contest's control and "no clock" are always offered as well)
    match_rule: ClassVar[MatchRule] = PlainWins()
    score_unit: ClassVar[str] = "pts"  # what `scores()` counts, as the side panel labels it
    moves_estimate: ClassVar[int] = 30  # a player's moves in a typical game (game clocks)
    has_joker: ClassVar[bool] = False  # moves come in plain and claiming twins (a joker that
    # changes the score, not the board); perft counts the twins only when asked
    endings: ClassVar[tuple[Ending, ...]]  # every way the board ends the game, in the
    # game's own words (forfeits are shared: `forfeit`)

    history: list[Move] = field(default_factory=list)
    # an ending imposed from outside the board (time, fault); None while play goes on
    ended: Outcome | None = field(default=None, compare=False)

    # ----- the declaration, per instance ------------------------------------------
    @property
    def players(self) -> int:
        """How many players this game has (a game with a range overrides)."""
        return self.player_count[0]

    @property
    def marks(self) -> tuple[str, ...]:
        """The mark of each player, as the board and panels show it."""
        return self.default_marks[: self.players]

    def seat_name(self, seat: int) -> str:
        """The seat as sentences name it: "X", "red"."""
        return self.seat_names[seat] if seat < len(self.seat_names) else self.marks[seat]

    @classmethod
    def offered_time_controls(cls) -> tuple[TimeControl, ...]:
        """The time controls a person may choose, without repeats: the default first, then
        the contest's (it is a choice the setup screen names), the game's others and none."""
        out: list[TimeControl] = []
        for control in (*cls.time_controls[:1], cls.clock, *cls.time_controls[1:],
                        TimeControl.none()):
            if control not in out:
                out.append(control)
        return tuple(out)

    @classmethod
    def describe_time_control(cls, control: TimeControl) -> str:
        """A time control as a person's choices list it, the contest's named as such."""
        return control.describe() + (" (the contest's)" if control == cls.clock else "")

    @classmethod
    def takes_count(cls) -> bool:
        """Whether the number of players is chosen, as the option COUNT_OPTION."""
        low, high = cls.player_count
        return low != high and any(s.name == COUNT_OPTION for s in cls.option_specs)

    @classmethod
    def parse_options(cls, given: dict[str, Any]) -> dict[str, Any]:
        """Options given by name (CLI `--opt`, the setup screen), each checked."""
        specs = {spec.name: spec for spec in cls.option_specs}
        out: dict[str, Any] = {}
        for name, raw in given.items():
            spec = specs.get(name)
            if spec is None:
                known = ", ".join(specs) or "none"
                raise PositionError(f"{cls.title} has no option {name!r} (options: {known})")
            out[name] = spec.parse(raw)
        return out

    # ----- construction ---------------------------------------------------
    @classmethod
    @abstractmethod
    def new(cls, options: dict[str, Any] | None = None, seed: int | None = None) -> Game:
        """A fresh game; random parts of the start come from `seed`."""

    @classmethod
    @abstractmethod
    def from_native(cls, text: str) -> Game:
        """A game from the contest's native position text (PositionError if bad)."""

    @abstractmethod
    def to_native(self) -> str:
        """The current position in the contest's native format."""

    @abstractmethod
    def start_native(self) -> str:
        """The start position (before `history`) in native format."""

    @property
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The resolved options, JSON-ready, that with `start_native` rebuild the start."""

    @classmethod
    def from_start(cls, options: dict[str, Any], start: str) -> Game:
        """Rebuild the start of a saved game; games whose native form lacks options override."""
        return cls.from_native(start)

    # ----- play -----------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int:
        """Index (0 to players - 1) of the player to move."""

    def moves_left_estimate(self, player: int) -> int:
        """The moves `player` is likely still to make, for sharing a game clock: the game's
        estimate less the moves made, never below half of it (a long game must not spend
        its clock early). Games whose native start counts earlier moves, or whose moves
        shrink as the board fills, estimate otherwise."""
        est = self.moves_estimate
        return max(1, est // 2, est - len(self.history) // self.players)

    def moves_left_most(self, player: int) -> int | None:
        """The most moves `player` can still make (None: the rules set no such bound). A
        game clock keeps back each one's share of a contest process's start-up."""
        return None

    def panel_lines(self) -> list[str]:
        """Facts about the position the players panel shows under the players (the move
        number of a game with a move limit, how close each side is to its goal)."""
        return []

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move; empty once the game is over."""

    @abstractmethod
    def is_legal(self, move: Move) -> bool:
        """Whether `move` may be played now: False once the game is over, and for anything
        that is no move of this game. Each game tests it directly: `legal_moves` would
        list thousands of boxes to check one."""

    def why_illegal(self, move: Move) -> str:
        """Why `move`, which is not legal here, cannot be played, in one line for a person
        (`play`'s error); a game that can tell more than the default says it here."""
        return f"{self.move_text(move)} is not a legal move here"

    def perft_moves(self, joker: bool = False) -> list[Move]:
        """The moves perft counts: every legal move, except that in a game with a joker the
        claiming twins count only with `joker` (they change no board)."""
        return self.legal_moves()

    def greedy_moves(self) -> list[Move] | None:
        """The moves a one-move greedy player chooses among, or None for the generic rule
        (win at once, else avoid ending the game unwon or letting the next player win at
        once, else the best score margin). Games whose scores say nothing until the end
        (Pillars) say here what greed means."""
        return None

    @abstractmethod
    def _apply(self, move: Move) -> None:
        """Apply a legal move to the position (history is kept by `play`)."""

    @abstractmethod
    def _unapply(self, move: Move) -> None:
        """Undo `move`, the last one applied."""

    @abstractmethod
    def natural_outcome(self) -> Outcome | None:
        """The result the board itself gives once play is over (one of `endings`), else None."""

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over (a forfeit first), else None."""
        return self.ended if self.ended is not None else self.natural_outcome()

    def forfeit(self, player: int, kind: Termination, reason: str, fault: str | None = None,
                output: str | None = None) -> Outcome:
        """End the game because `player` ran out of time or faulted; it loses.

        Every other player wins; the points stay as the board has them. Games
        whose rules score a forfeit otherwise override `forfeit_outcome`. A
        program's fault names its kind and keeps the program's output. A forfeit
        reads the same in every game (`Ending.of(kind)`).
        """
        if kind not in FORFEITS:
            raise RulesError(f"{kind.value} is not a forfeit")
        if self.is_over:
            raise MoveError("the game is over")
        if not 0 <= player < self.players:
            raise RulesError(f"there is no player {player + 1}")
        outcome = self.forfeit_outcome(player, Ending.of(kind), reason)
        if fault is not None or output is not None:
            outcome = replace(outcome, fault=fault,
                              output=None if output is None else output[:OUTPUT_KEPT])
        self.ended = outcome
        return self.ended

    def forfeit_outcome(self, player: int, ending: Ending, reason: str) -> Outcome:
        """The result of `player`'s forfeit: by default the others win on the board's
        points as they stand."""
        winners = tuple(p for p in range(self.players) if p != player)
        return Outcome(ending, winners, tuple(self.scores()), reason, loser=player)

    def resume(self) -> None:
        """Take back a forfeit (undo after a flag): play goes on from the same position."""
        self.ended = None

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Running points per player, as the side panel shows them."""

    @abstractmethod
    def key(self) -> Hashable:
        """Identity of the position (board and side to move)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """A move from its text; MoveError if the text is bad (legality not checked)."""

    @abstractmethod
    def move_text(self, move: Move) -> str:
        """The move in the game's own notation."""

    # ----- shared behaviour -------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def play(self, move: Move) -> None:
        """Play a legal move; MoveError (and nothing changed) otherwise, saying why."""
        if self.is_over:
            raise MoveError("the game is over")
        if not self.is_legal(move):
            raise MoveError(self.why_illegal(move))
        self._apply(move)
        self.history.append(move)

    def scores_unit(self) -> str:
        """What `scores()` counts now, as the side panel labels it: `score_unit`, unless the
        count means something else until the end (Boxing counts marks, points only at the
        end)."""
        return self.score_unit

    def score_lines(self) -> list[str]:
        """How the final points were made, one line a player (the end screen shows them
        under the reason); none by default, or while the game goes on."""
        return []

    def play_text(self, text: str) -> Move:
        move = self.parse_move(text)
        self.play(move)
        return move

    def undo(self) -> Move:
        """Take the last move back (a forfeit is taken back by `resume`, not here)."""
        if self.ended is not None:
            raise MoveError("the game ended by a forfeit: resume it first")
        if not self.history:
            raise MoveError("there is no move to undo")
        move = self.history.pop()
        self._unapply(move)
        return move

    def copy(self) -> Game:
        return _copy.deepcopy(self)

    def replay(self, moves: Sequence[str]) -> None:
        """Play move texts in order; MoveError names the first bad one."""
        for i, text in enumerate(moves, 1):
            try:
                self.play_text(text)
            except MoveError as err:
                raise MoveError(f"move {i} ({text!r}): {err}") from None

    def advance(self, rng: Random, plies: int) -> int:
        """Play up to `plies` random legal moves that do not end the game (seeded openings
        and test positions); returns how many were played (fewer where every move ends it)."""
        played = 0
        while played < plies and not self.is_over:
            moves = list(self.legal_moves())
            rng.shuffle(moves)
            for move in moves:
                self.play(move)
                if not self.is_over:
                    break
                self.undo()
            else:
                break
            played += 1
        return played

    def history_text(self) -> list[str]:
        """The moves played, as text."""
        return [self.move_text(m) for m in self.history]
