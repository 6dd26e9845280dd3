"""Which player a seat's spec names: a person, an AI level, a contest program, a built-in
player or an older revision's engine. Apart from `players` because a program seat needs
the jury, which itself builds on the player interface."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from rules import Game, PlayerSpec
from tui.play.jury import program_player
from tui.play.players import AIPlayer, Computed, Person, Player

if TYPE_CHECKING:
    from ai.engine import Engine


def make_player(spec: PlayerSpec, game_class: type[Game],
                engine: Callable[[], Engine] | None = None,
                program: Callable[[str], Player] | None = None,
                rng: random.Random | None = None) -> Player:
    """The player `spec` names for a game of `game_class`: `engine` makes the AI's engine
    (by default the game's shared one), `program` starts a contest program (by default
    the jury's driver for the game's protocol; CommandError if it names no program)."""
    if spec.is_human:
        return Person()
    if spec.is_ai:
        assert spec.level is not None
        return AIPlayer(spec.level, engine or _shared_engine(game_class.name), spec.seconds)
    if spec.is_program:
        assert spec.command is not None
        if program is not None:
            return program(spec.command)
        return program_player(game_class, spec.command)
    if spec.kind == "rev":  # an older revision's engine (ai.revision)
        assert spec.level is not None and spec.revision is not None
        return AIPlayer(spec.level, engine or _revision_engine(spec.revision, game_class.name),
                        spec.seconds)
    if spec.kind in BUILT_IN:
        from ai import strength

        made = getattr(strength, f"{spec.kind}_player")(game_class.name,
                                                         rng or random.Random())
        return Computed(made)
    raise ValueError(f"no player for {spec.kind!r}")


BUILT_IN = ("random", "greedy")


def _revision_engine(revision: str, name: str) -> Callable[[], Engine]:
    made: list[Engine] = []

    def get() -> Engine:
        if not made:
            from ai import revision as revisions

            made.append(revisions.new_engine(revision, name))
        return made[0]

    return get


def _shared_engine(name: str) -> Callable[[], Engine]:
    def get() -> Engine:
        from ai.engine import get_engine

        return get_engine(name)

    return get


