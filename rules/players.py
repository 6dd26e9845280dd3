"""Who sits in a seat: a person, the AI at a level (and a time of its own, if given),
another contest program (its command line), or a built-in random or greedy player. One
spec for the CLI, the setup screen, the session, the saves and `arena match`.

The AI levels are named here (not in `ai`) so that code which must not load
Numba (the CLI's parsing, the saves) can check them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.base import RulesError

LEVELS = ("easy", "medium", "hard", "max")
DEFAULT_LEVEL = "hard"
KINDS = ("human", "ai", "prog", "random", "greedy", "rev")
BUILT_IN = ("random", "greedy")  # players that need neither a person, the engine nor a program
MAX_SECONDS = 3600.0  # an AI's own time at most (`ai:LEVEL@SECONDS`)
COMMAND_LIMIT = 4000  # characters of a program's command line
NAME_LIMIT = 40  # characters of a player's name that are kept


class PlayerError(RulesError):
    """A player spec that does not parse; one clear line."""


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


@dataclass(frozen=True)
class PlayerSpec:
    """A seat's player: `kind` human, ai or prog; an AI has a `level`, a program its
    `command` (a command line, read as a shell reads it); `name` is optional."""

    kind: str = "human"
    level: str | None = None
    name: str = ""
    command: str | None = None
    seconds: float | None = None  # an AI's time a move, instead of its level's
    revision: str | None = None  # `rev`: the git revision whose engine plays at `level`

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise PlayerError(f"unknown player {_short(self.kind)}: "
                              "use human, ai, ai:LEVEL or prog:COMMAND")
        engine = self.kind in ("ai", "rev")
        if not engine and self.level is not None:
            raise PlayerError(f"a {'person' if self.kind == 'human' else self.kind} player "
                              "has no level")
        if engine and self.level not in LEVELS:
            raise PlayerError(f"unknown level {_short(self.level)}; levels: {', '.join(LEVELS)}")
        if (self.kind == "prog") != (self.command is not None):
            raise PlayerError("a program, and only a program, has a command")
        if (self.kind == "rev") != (self.revision is not None) or (
                self.revision is not None and not (self.revision.strip()
                                                   and self.revision.isprintable())):
            raise PlayerError("an older engine (rev:REV:LEVEL) names its git revision")
        if self.seconds is not None and (not engine or isinstance(self.seconds, bool)
                                         or not 0 < self.seconds <= MAX_SECONDS):
            raise PlayerError(f"only the AI has a time of its own, above 0 and at most "
                              f"{MAX_SECONDS:g} s, not {_short(self.seconds)}")
        if self.command is not None:
            if not self.command.strip():
                raise PlayerError("give the program's command line after 'prog:'")
            if len(self.command) > COMMAND_LIMIT or not self.command.isprintable():
                raise PlayerError(f"bad command {_short(self.command)}: one printable line "
                                  f"of at most {COMMAND_LIMIT} characters")

    @classmethod
    def human(cls, name: str = "") -> PlayerSpec:
        return cls("human", None, name)

    @classmethod
    def ai(cls, level: str = DEFAULT_LEVEL) -> PlayerSpec:
        return cls("ai", level)

    @classmethod
    def program(cls, command: str, name: str = "") -> PlayerSpec:
        return cls("prog", None, name, command.strip())

    @classmethod
    def parse(cls, text: str, default_level: str = DEFAULT_LEVEL) -> PlayerSpec:
        """`human`, `ai` (at `default_level`), `ai:LEVEL`, `ai:LEVEL@SECONDS` (its own time
        a move), `prog:COMMAND`, `random` or `greedy`; case and spaces ignored except in
        the command."""
        head, sep, rest = text.strip().partition(":")
        kind, level = head.strip().lower(), rest.strip().lower()
        if kind in ("human", *BUILT_IN) and not sep:
            return cls(kind)
        if kind == "ai":
            if sep and not level:
                raise PlayerError(f"bad player {_short(text)}: give a level after 'ai:'")
            level, at, seconds = (level if sep else default_level).partition("@")
            if not at:
                return cls.ai(level.strip())
            try:
                value = float(seconds)
            except ValueError:
                raise PlayerError(f"bad player {_short(text)}: give the seconds after '@', "
                                  "e.g. ai:max@3") from None
            return cls("ai", level.strip(), seconds=value)
        if kind == "prog":
            return cls.program(rest)
        if kind == "rev":  # rev:REV:LEVEL, an older revision's engine
            revision, _, level = rest.strip().rpartition(":")
            if not revision or not level:
                raise PlayerError(f"bad player {_short(text)}: use rev:REV:LEVEL, e.g. "
                                  "rev:HEAD~3:max")
            return cls("rev", level.strip().lower(), revision=revision.strip())
        raise PlayerError(f"bad player {_short(text)}: use human, ai, ai:LEVEL, "
                          "prog:COMMAND, random, greedy or rev:REV:LEVEL")

    def text(self) -> str:
        """The inverse of `parse`: human, ai:hard, ai:max@3, prog:./bot --fast, random."""
        if self.is_program:
            return f"prog:{self.command}"
        if self.is_ai:
            return f"ai:{self.level}" + ("" if self.seconds is None else f"@{self.seconds:g}")
        if self.kind == "rev":
            return f"rev:{self.revision}:{self.level}"
        return self.kind

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"

    @property
    def is_program(self) -> bool:
        return self.kind == "prog"

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    @property
    def is_built_in(self) -> bool:
        """A random or greedy player (no person, engine or program behind it)."""
        return self.kind in BUILT_IN

    def label(self, only_human: bool = False) -> str:
        """The name if set, else You (the one person against the AI), Human, AI (level),
        the program's file name, Random or Greedy."""
        if self.name:
            return self.name
        if self.is_ai:
            return f"AI ({self.level}" + ("" if self.seconds is None
                                          else f", {self.seconds:g} s") + ")"
        if self.is_built_in:
            return self.kind.title()
        if self.kind == "rev":
            return f"AI {self.revision} ({self.level})"
        if self.command is not None:
            return program_label(self.command)
        return "You" if only_human else "Human"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.level is not None:
            data["level"] = self.level
        if self.command is not None:
            data["command"] = self.command
        if self.seconds is not None:
            data["seconds"] = self.seconds
        if self.revision is not None:
            data["revision"] = self.revision
        if self.name:
            data["name"] = self.name
        return data

    @classmethod
    def from_json(cls, value: Any) -> PlayerSpec:
        """A player from a save: an object, or the text `parse` takes (PlayerError if bad).

        An AI saved without a level plays at the default level.
        """
        if isinstance(value, str):
            return cls.parse(value)
        if not isinstance(value, dict):
            raise PlayerError("a player must be an object like {\"kind\": \"ai\", "
                              "\"level\": \"hard\"}")
        kind, level, name = value.get("kind"), value.get("level"), value.get("name", "")
        command = value.get("command")
        if not isinstance(kind, str) or not (level is None or isinstance(level, str)):
            raise PlayerError("a player's 'kind' and 'level' must be text")
        if not isinstance(name, str) or not (command is None or isinstance(command, str)):
            raise PlayerError("a player's 'name' and 'command' must be text")
        if kind == "ai" and level is None:
            level = DEFAULT_LEVEL
        seconds = value.get("seconds")
        if seconds is not None and (isinstance(seconds, bool)
                                    or not isinstance(seconds, int | float)):
            raise PlayerError("a player's 'seconds' must be a number")
        revision = value.get("revision")
        if revision is not None and not isinstance(revision, str):
            raise PlayerError("a player's 'revision' must be text")
        return cls(kind, level, clean_name(name), command,
                   None if seconds is None else float(seconds), revision)


def labels(players: Sequence[PlayerSpec]) -> list[str]:
    """How the app names each of `players` (the panels, the load list): You for the one
    person against machines, numbered where two share a label ("Human 1", "Human 2")."""
    humans = sum(p.is_human for p in players)
    plain = [p.label(only_human=humans == 1) for p in players]
    return [label + (f" {plain[:i + 1].count(label)}" if plain.count(label) > 1 else "")
            for i, label in enumerate(plain)]


def program_label(command: str) -> str:
    """A program's short name from its command line: the script it runs if the program is
    an interpreter (`python3 bots/greedy.py` -> greedy.py), else the program's file name."""
    words = command.split()
    names = [w.rsplit("/", 1)[-1] for w in words if not w.startswith("-")]
    if not names:
        return "program"
    first = names[0]
    interpreter = first.startswith(("python", "pypy", "node", "ruby", "perl", "java", "sh",
                                    "bash"))
    label = names[1] if interpreter and len(names) > 1 else first
    return clean_name(label)[:24] or "program"


def clean_name(name: str) -> str:
    """A name that prints and saves: printable characters only (no lone surrogates), cut."""
    kept = "".join(ch for ch in name if ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF)
    return kept.strip()[:NAME_LIMIT]
