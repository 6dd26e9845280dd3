"""The games and their registry: everything else finds games only through here."""

from __future__ import annotations

from importlib import import_module

from rules.base import Game, MoveError, Outcome, PositionError, RulesError

# name -> (module, class); imported on first use so a contest program loads one game only.
_REGISTRY: dict[str, tuple[str, str]] = {
    "pahtum": ("rules.pahtum", "PahTum"),
    "pousse": ("rules.pousse", "Pousse"),
}


def game_names() -> list[str]:
    """Registered game names, in menu order."""
    return list(_REGISTRY)


def get_game(name: str) -> type[Game]:
    """The game class for `name`; RulesError naming the known games otherwise."""
    key = name.strip().lower().replace("-", "").replace("_", "")
    if key not in _REGISTRY:
        raise RulesError(f"unknown game {name!r}; known games: {', '.join(_REGISTRY)}")
    module, cls = _REGISTRY[key]
    return getattr(import_module(module), cls)


__all__ = ["Game", "MoveError", "Outcome", "PositionError", "RulesError", "game_names", "get_game"]
