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
from enum import StrEnum
from random import Random
from typing import Any, ClassVar

from rules.clock import TimeControl
from rules.match import MatchRule, PlainWins
from rules.outcome import FORFEITS, OUTPUT_KEPT, Outcome, Termination

Move = Hashable
COUNT_OPTION = "players"  # a game with a range of players takes the count as this option


class RulesError(ValueError):
    """Base of every error `rules` raises on bad input; its text is one clear line."""


class MoveError(RulesError):
    """A move text that does not parse, or a move that is not legal here."""


class PositionError(RulesError):
    """A native position or option set that is malformed or impossible."""


class MalformedReply(RulesError):
    """A contest program's answer that is no move at all (the jury's "malformed" fault);
    an answer that is a move but not a legal one raises MoveError."""


class Protocol(StrEnum):
    """How the game's contest program talked to its jury (`arena move` speaks it)."""

    STDIN = "stdin"  # one process per move: the position on stdin, the reply on stdout
    FILE = "file"  # one process per move: the position file's path as the argument
    SESSION = "session"  # one process for the whole game: lines both ways


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


def exact_text(text: str) -> None:
    """MalformedReply if a program's line or position has a carriage return (a CRLF line
    end) or a tab: the contests' formats end lines with a newline alone."""
    if "\r" in text:
        raise MalformedReply("a carriage return in the output (a CRLF line end?): lines "
                             "end with a newline alone")
    if "\t" in text:
        raise MalformedReply("a tab in the output: the format has none")


def inexact(got: str, wanted: str) -> str:
    """How a program's text differs from the exact text it stands for, in a few words."""
    if got.lower() == wanted.lower():
        return "letter case differs"
    if got.strip() == wanted.strip() or got.rstrip("\n") == wanted.rstrip("\n"):
        if not got.endswith("\n") and wanted.endswith("\n"):
            return "the last line has no newline"
        return "spaces or blank lines around it"
    if " ".join(got.split()) == " ".join(wanted.split()):
        return "spaces differ"
    if got.replace(" ", "") != got and got.replace(" ", "") == wanted.replace(" ", ""):
        return "spaces differ"
    for i, (a, b) in enumerate(zip(got, wanted, strict=False)):
        if a != b:
            line = got.count("\n", 0, i) + 1
            return f"line {line}: {excerpt(a)} where the contest writes {excerpt(b)}"
    return f"{len(got)} characters where the contest writes {len(wanted)}"


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
    protocol: ClassVar[Protocol] = Protocol.STDIN
    match_rule: ClassVar[MatchRule] = PlainWins()
    score_unit: ClassVar[str] = "pts"  # what `scores()` counts, as the side panel labels it
    moves_estimate: ClassVar[int] = 30  # a player's moves in a typical game (game clocks)
    has_joker: ClassVar[bool] = False  # moves come in plain and claiming twins (a joker that
    # changes the score, not the board); perft counts the twins only when asked

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
        """The time controls a person may choose, the default first, without repeats."""
        out: list[TimeControl] = []
        for control in (*cls.time_controls, cls.clock, TimeControl.none()):
            if control not in out:
                out.append(control)
        return tuple(out)

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

    def native_text(self, seconds_left: Sequence[float | None] | None = None) -> str:
        """The position in native format for an export; games whose format holds the clocks
        (LOAPS) write `seconds_left` per player (None: no limit) into it."""
        return self.to_native()

    def start_seconds_left(self) -> tuple[float, ...] | None:
        """The seconds left per player that the native start position gave (LOAPS's file
        holds them), or None: a game loaded from it continues with those clocks."""
        return None

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

    def moves_made(self, player: int) -> int:
        """The moves `player` has made in this game (a native start may count earlier ones)."""
        return len(self.history) // self.players

    def moves_left_estimate(self, player: int) -> int:
        """The moves `player` is likely still to make, for sharing a game clock: the game's
        estimate less the moves made, never below half of it (a long game must not spend
        its clock early)."""
        est = self.moves_estimate
        return max(1, est // 2, est - self.moves_made(player))

    def panel_lines(self) -> list[str]:
        """Facts about the position the players panel shows under the players (the move
        number of a game with a move limit, how close each side is to its goal)."""
        return []

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move; empty once the game is over."""

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
        """The result the board itself gives once play is over, else None."""

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over (a forfeit first), else None."""
        return self.ended if self.ended is not None else self.natural_outcome()

    def forfeit(self, player: int, kind: Termination, reason: str, fault: str | None = None,
                output: str | None = None) -> Outcome:
        """End the game because `player` ran out of time or faulted; it loses.

        Every other player wins; the points stay as the board has them. Games
        whose rules score a forfeit otherwise override `forfeit_outcome`. A
        program's fault names its kind and keeps the program's output.
        """
        if kind not in FORFEITS:
            raise RulesError(f"{kind.value} is not a forfeit")
        if self.is_over:
            raise MoveError("the game is over")
        if not 0 <= player < self.players:
            raise RulesError(f"there is no player {player + 1}")
        outcome = self.forfeit_outcome(player, kind, reason)
        if fault is not None or output is not None:
            outcome = replace(outcome, fault=fault,
                              output=None if output is None else output[:OUTPUT_KEPT])
        self.ended = outcome
        return self.ended

    def forfeit_outcome(self, player: int, kind: Termination, reason: str) -> Outcome:
        winners = tuple(p for p in range(self.players) if p != player)
        return Outcome(kind, winners, tuple(self.scores()), reason, loser=player)

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

    def is_legal(self, move: Move) -> bool:
        return not self.is_over and move in self.legal_moves()

    def play(self, move: Move) -> None:
        """Play a legal move; MoveError (and nothing changed) otherwise."""
        if self.is_over:
            raise MoveError("the game is over")
        if not self.is_legal(move):
            raise MoveError(f"{self.move_text(move)} is not a legal move here")
        self._apply(move)
        self.history.append(move)

    @classmethod
    def contest_position(cls, text: str, args: Sequence[str] = ()) -> Game:
        """The position a contest program is handed: the native text (stdin or the file
        named by the argument) and any further arguments (Boxing's mark). By default
        there are none."""
        if args:
            raise PositionError(f"{cls.title} takes no argument here, not {excerpt(args[0])}")
        return cls.from_native(text)

    # The whole-game protocol (Protocol.SESSION): the lines that set up a game, and a
    # move as the jury passes it on; games with that protocol override these.
    session_header_lines: ClassVar[int] = 0

    @classmethod
    def from_session_header(cls, lines: Sequence[str]) -> Game:
        """The game set up by the jury's first `session_header_lines` lines."""
        return cls.from_native("".join(line + "\n" for line in lines))

    def session_header(self) -> list[str]:
        """The lines that set up this game for a whole-game program (the inverse of
        `from_session_header`): the first lines of the start's native text."""
        return self.start_native().splitlines()[: self.session_header_lines]

    def session_move_text(self, move: Move) -> str:
        """The move as the program writes it in a whole-game session."""
        return self.move_text(move)

    def score_lines(self) -> list[str]:
        """How the final points were made, one line a player (the end screen shows them
        under the reason); none by default, or while the game goes on."""
        return []

    def contest_idle_reply(self) -> str | None:
        """What a one-move contest program prints for a position with no move to make,
        or None to refuse it (the default: the game is over). Boxing's program copies
        a full arena unchanged."""
        return None

    def contest_reply(self, move: Move) -> str:
        """What the contest program prints after choosing `move`.

        By default the move is played and the new native position printed
        (Pah-Tum's `cat board | prog | prog` chain); games whose protocol
        answers with the move alone override this.
        """
        self.play(move)
        return self.to_native()

    # ----- the jury: Arena hosting another contest program -------------------------------
    def contest_args(self) -> list[str]:
        """The arguments a one-move contest program is given for this position (the
        inverse of `contest_position`'s; Boxing's mark). None by default."""
        return []

    def relayed_move_text(self, move: Move) -> str:
        """A move as the whole-game jury passes it on to the other program (Pillars drops
        the joker's `!`)."""
        return self.session_move_text(move)

    def jury_move(self, output: str) -> Move:
        """The move in a one-move program's whole output for this position: MalformedReply
        if it is no move (or more follows it), MoveError if the move is not legal here.

        By default (`contest_reply` printing the new position) the output must be this
        position with one legal move played, in native format."""
        self.check_reply_length(output)
        exact_text(output)
        try:
            after = type(self).from_native(output)
        except RulesError as err:
            raise MalformedReply(f"not a {self.title} position: {err}") from None
        wanted = after.to_native()
        if output != wanted:  # read leniently above, but a program must write it exactly
            raise MalformedReply(f"not written as the contest writes a position: "
                                 f"{inexact(output, wanted)}")
        for move in self.legal_moves():
            self._apply(move)
            reached = self.to_native()
            self._unapply(move)
            if reached == wanted:
                return move
        raise MoveError("that position is not this one with one legal move played")

    def check_reply_length(self, output: str) -> None:
        """A reply that is a position must be no longer than one: more is output after it."""
        size = len(self.to_native())
        if len(output) > size and output[:size].count("\n") == self.to_native().count("\n"):
            extra = len(output) - size
            raise MalformedReply(f"output after the position: {extra} more "
                                 f"character{'s' if extra != 1 else ''}")

    def jury_line_move(self, output: str) -> Move:
        """The move of a program that answers one line: exactly one line holding a move
        written as the contest writes it (`move_text`: its letter case, one space where
        it has one, no leading zero, no space around it, a line ended by a newline alone;
        only a one-move program's last newline may be missing, its exit ends the line)."""
        lines = output.split("\n")
        if lines[-1] == "":
            lines.pop()  # the newline ending the last line
        if not lines or not lines[0].strip():
            raise MalformedReply("no move: the first line is empty" if lines else "no output")
        if len(lines) > 1:
            raise MalformedReply(f"output after the move: {len(lines) - 1} more "
                                 f"line{'s' if len(lines) > 2 else ''}")
        line = lines[0]
        exact_text(line)
        try:
            move = self.parse_move(line)
        except MoveError as err:
            raise MalformedReply(str(err)) from None
        written = self.move_text(move)
        if line != written:
            raise MalformedReply(f"{excerpt(line)} is not written as the contest writes "
                                 f"moves: {written!r} ({inexact(line, written)})")
        if not self.is_legal(move):
            raise MoveError(f"{self.move_text(move)} is not a legal move here")
        return move

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
