"""Who sits in a seat: a person, or the AI at a level. One spec for the CLI, the
setup screen, the session, the saves and the strength runner.

The AI levels are named here (not in `ai`) so that code which must not load
Numba (the CLI's parsing, the saves) can check them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.base import RulesError

LEVELS = ("easy", "medium", "hard", "max")
DEFAULT_LEVEL = "hard"
KINDS = ("human", "ai")
NAME_LIMIT = 40  # characters of a player's name that are kept


class PlayerError(RulesError):
    """A player spec that does not parse; one clear line."""


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


@dataclass(frozen=True)
class PlayerSpec:
    """A seat's player: `kind` human or ai; an AI has a `level`; `name` is optional."""

    kind: str = "human"
    level: str | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise PlayerError(f"unknown player {_short(self.kind)}: use human, ai or ai:LEVEL")
        if self.kind == "human" and self.level is not None:
            raise PlayerError("a person has no level")
        if self.kind == "ai" and self.level not in LEVELS:
            raise PlayerError(f"unknown level {_short(self.level)}; levels: {', '.join(LEVELS)}")

    @classmethod
    def human(cls, name: str = "") -> PlayerSpec:
        return cls("human", None, name)

    @classmethod
    def ai(cls, level: str = DEFAULT_LEVEL) -> PlayerSpec:
        return cls("ai", level)

    @classmethod
    def parse(cls, text: str, default_level: str = DEFAULT_LEVEL) -> PlayerSpec:
        """`human`, `ai` (at `default_level`) or `ai:LEVEL`; case and spaces ignored."""
        kind, sep, level = text.strip().lower().partition(":")
        level = level.strip()
        if kind == "human" and not sep:
            return cls.human()
        if kind == "ai":
            if sep and not level:
                raise PlayerError(f"bad player {_short(text)}: give a level after 'ai:'")
            return cls.ai(level if sep else default_level)
        raise PlayerError(f"bad player {_short(text)}: use human, ai or ai:LEVEL")

    def text(self) -> str:
        """The inverse of `parse`: human, ai:hard."""
        return f"ai:{self.level}" if self.is_ai else "human"

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"

    def label(self, only_human: bool = False) -> str:
        """The name if set, else You (the one person against the AI), Human or AI (level)."""
        if self.name:
            return self.name
        if self.is_ai:
            return f"AI ({self.level})"
        return "You" if only_human else "Human"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.level is not None:
            data["level"] = self.level
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
        if not isinstance(kind, str) or not (level is None or isinstance(level, str)):
            raise PlayerError("a player's 'kind' and 'level' must be text")
        if not isinstance(name, str):
            raise PlayerError("a player's 'name' must be text")
        if kind == "ai" and level is None:
            level = DEFAULT_LEVEL
        return cls(kind, level, clean_name(name))


def clean_name(name: str) -> str:
    """A name that prints and saves: printable characters only (no lone surrogates), cut."""
    kept = "".join(ch for ch in name if ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF)
    return kept.strip()[:NAME_LIMIT]
