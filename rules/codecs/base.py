"""The contest formats: how a game's contest program talks, apart from the game's rules.

A `Codec` is everything `arena move` (Arena as a contest program) and the jury (Arena
hosting another program) need to speak one game's original format: reading the position
a program is handed (with its arguments), writing the program's reply, the arguments a
program is given, a whole-game session's header and move lines, and judging a program's
output strictly. A game's rules (`rules/<game>.py`) keep the native position both ways
(`from_native`, `to_native`), which saves and tests use too; its codec
(`rules/codecs/<game>.py`) says how the contest wrapped it.

Two kinds of reply cover the five games: `PositionCodec` (the program prints the new
position, as Pah-Tum's `cat board | prog | prog` chain) and `LineCodec` (it prints its
move, one line). `protocol` says how the position arrives.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import StrEnum
from typing import ClassVar, Generic, TypeVar

from rules.base import Game, Move, MoveError, PositionError, RulesError, excerpt

G = TypeVar("G", bound=Game)


class Protocol(StrEnum):
    """How the game's contest program talked to its jury (`arena move` speaks it)."""

    STDIN = "stdin"  # one process per move: the position on stdin, the reply on stdout
    FILE = "file"  # one process per move: the position file's path as the argument
    SESSION = "session"  # one process for the whole game: lines both ways


class MalformedReply(RulesError):
    """A contest program's answer that is no move at all (the jury's "malformed" fault);
    an answer that is a move but not a legal one raises MoveError."""


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


class Codec(ABC, Generic[G]):
    """One game's contest format; `CODEC = TheCodec(TheGame)` in `rules/codecs/<game>.py`.

    The class attributes declare the format; the methods default to what most games'
    contests did, and a game's codec overrides what its contest did otherwise.
    """

    protocol: ClassVar[Protocol] = Protocol.STDIN
    header_lines: ClassVar[int] = 0  # SESSION: the jury's lines that set up a game
    # What a one-move program's arguments are, for `arena move --help` ("": none)
    args_help: ClassVar[str] = ""

    def __init__(self, game_class: type[G]) -> None:
        self.game_class = game_class

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game_class.__name__})"

    # ----- arena move: what the program reads and writes ---------------------------------
    def check_args(self, args: Sequence[str]) -> None:
        """The arguments a one-move program is given besides a position file's path,
        checked before its position is read: RulesError saying what is wrong with them
        (so that a missing argument is not blamed on the position). None by default."""
        if args:
            raise RulesError(f"{excerpt(args[0])} is one argument too many for "
                             f"the {self.game_class.title} program")

    def position(self, text: str, args: Sequence[str] = ()) -> G:
        """The position a one-move program is handed: the native text (stdin, or the file
        named by the first argument) and any further arguments (none by default)."""
        if args:
            raise PositionError(f"{self.game_class.title} takes no argument here, not "
                                f"{excerpt(args[0])}")
        return self.game_class.from_native(text)  # type: ignore[return-value]

    @abstractmethod
    def reply(self, game: G, move: Move) -> str:
        """Play `move` and return what the one-move program prints for it."""

    def idle_reply(self, game: G) -> str | None:
        """What a one-move program prints for a position with no move to make, or None to
        refuse it (the default: the game is over)."""
        return None

    def check_header(self, lines: Sequence[str]) -> None:
        """The first lines of a whole-game session's set-up as they arrive (fewer than
        `header_lines` until the last): RulesError naming the first bad one, so that a
        wrong line is named at once rather than after the input ends. None by default:
        `from_header` judges the whole set-up."""

    def from_header(self, lines: Sequence[str]) -> G:
        """The game a whole-game session's first `header_lines` lines set up: by default
        the native start they are the first lines of."""
        return self.game_class.from_native(  # type: ignore[return-value]
            "".join(line + "\n" for line in lines))

    # ----- the jury: what a hosted program is given and how its answer is read ------------
    def args(self, game: G) -> list[str]:
        """The arguments a one-move program is given for `game` (besides a position file's
        path); the inverse of `position`'s. None by default."""
        return []

    def header(self, game: G) -> list[str]:
        """The lines that set up `game` for a whole-game program (the inverse of
        `from_header`): the first lines of its start's native text."""
        return game.start_native().splitlines()[: self.header_lines]

    def relayed_move_text(self, game: G, move: Move) -> str:
        """A move (of `game`, before it is played) as the whole-game jury passes it on to
        the other program; by default as the program wrote it."""
        return game.move_text(move)

    @abstractmethod
    def judge(self, game: G, output: str) -> Move:
        """The move in a program's whole output for `game`: MalformedReply if it is no
        move (or more follows it), MoveError if the move is not legal here."""

    # ----- the native text with the clocks, where the format holds them ----------------
    def native_text(self, game: G, seconds_left: Sequence[float | None] | None = None) -> str:
        """The position in native format for a program or an export; a format that holds
        the clocks writes `seconds_left` per player (None: no limit) into it."""
        return game.to_native()

    def start_seconds_left(self, game: G) -> tuple[float, ...] | None:
        """The seconds left per player that the native start gave, where the format holds
        them (a game loaded from it continues with those clocks), else None."""
        return None


class PositionCodec(Codec[G]):
    """The program prints the position after its move, in native format."""

    def reply(self, game: G, move: Move) -> str:
        game.play(move)
        return game.to_native()

    def judge(self, game: G, output: str) -> Move:
        """The output must be `game` with one legal move played, written exactly as the
        native format writes it."""
        self.check_length(game, output)
        exact_text(output)
        try:
            after = type(game).from_native(output)
        except RulesError as err:
            raise MalformedReply(f"not a {game.title} position: {err}") from None
        wanted = after.to_native()
        if output != wanted:  # read leniently above, but a program must write it exactly
            raise MalformedReply(f"not written as the contest writes a position: "
                                 f"{inexact(output, wanted)}")
        for move in game.legal_moves():
            game._apply(move)
            reached = game.to_native()
            game._unapply(move)
            if reached == wanted:
                return move
        raise MoveError("that position is not this one with one legal move played")

    @staticmethod
    def check_length(game: Game, output: str) -> None:
        """A reply that is a position must be no longer than one: more is output after it."""
        size = len(game.to_native())
        if len(output) > size and output[:size].count("\n") == game.to_native().count("\n"):
            extra = len(output) - size
            raise MalformedReply(f"output after the position: {extra} more "
                                 f"character{'s' if extra != 1 else ''}")


class LineCodec(Codec[G]):
    """The program prints its move alone, one line."""

    def reply(self, game: G, move: Move) -> str:
        game.play(move)
        return game.move_text(move) + "\n"

    def judge(self, game: G, output: str) -> Move:
        """Exactly one line holding a move written as the contest writes it (`move_text`:
        its letter case, one space where it has one, no leading zero, no space around it,
        a line ended by a newline alone; only a one-move program's last newline may be
        missing, its exit ends the line)."""
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
            move = game.parse_move(line)
        except MoveError as err:
            raise MalformedReply(str(err)) from None
        written = game.move_text(move)
        if line != written:
            raise MalformedReply(f"{excerpt(line)} is not written as the contest writes "
                                 f"moves: {written!r} ({inexact(line, written)})")
        if not game.is_legal(move):
            raise MoveError(f"{game.move_text(move)} is not a legal move here")
        return move
