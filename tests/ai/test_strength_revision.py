"""`rev:REV:LEVEL`: an old revision's engine package, loaded under its own name beside
today's, plays legal moves; bad names fail clearly (the match's own test of it is in
tests/tui/test_driver.py)."""

from __future__ import annotations

import random
import shutil
import sys
from collections.abc import Hashable
from types import ModuleType

import pytest

from ai import revision
from ai.strength import start_position
from rules import RulesError
from rules.pahtum import PahTum

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def test_head_package_plays_legal_moves_under_its_own_name() -> None:
    engine = revision.new_engine("HEAD", "pahtum")  # the game whose kernels compile fastest
    head = revision.resolve("HEAD")
    assert len(head) == 40
    name = revision.package_name(head, "pahtum")
    module = sys.modules[type(engine.adapter).__module__]
    assert module.__name__.startswith(f"{name}.")
    # the modules it uses from its own package are the exported copy's, not today's
    used = [m.__name__ for m in vars(module).values() if isinstance(m, ModuleType)]
    assert any(u.startswith(f"{name}.") for u in used)
    assert not any(u.startswith("ai.pahtum") for u in used)

    rng = random.Random(4)
    game = start_position(PahTum, {"blocks": "25"}, seed=3)
    played: list[Hashable] = []
    while not game.is_over:
        if game.to_move == 0:
            move = engine.choose(game, "easy", 0.02).move
            assert move in game.legal_moves()
            played.append(move)
        else:
            move = rng.choice(game.legal_moves())
        game.play(move)
    assert len(played) >= 3


def test_rewrite_points_own_imports_at_the_new_name() -> None:
    source = ("from ai.pousse import kernels as pk\nimport ai.pousse.kernels as k2\n"
              "from ai.pousse.kernels import make\nfrom ai.engine import Budget\n"
              "from ai.pousse_extra import x\n")
    text = revision.rewrite(source, "pousse", "arena_rev_x_pousse")
    assert text.splitlines() == [
        "from arena_rev_x_pousse import kernels as pk", "import arena_rev_x_pousse.kernels as k2",
        "from arena_rev_x_pousse.kernels import make", "from ai.engine import Budget",
        "from ai.pousse_extra import x"]
    with pytest.raises(revision.RevisionError, match="cannot be rewritten"):
        revision.rewrite("from ai import pousse\n", "pousse", "arena_rev_x_pousse")
    with pytest.raises(revision.RevisionError, match="cannot be rewritten"):
        revision.rewrite("import ai\nai.pousse.kernels.make()\n", "pousse", "p")


def test_bad_revision_is_one_clear_error() -> None:
    from tests.tui.test_cli import assert_user_error, run

    with pytest.raises(revision.RevisionError, match="bad revision 'no-such-rev'"):
        revision.new_engine("no-such-rev", "pousse")
    with pytest.raises(revision.RevisionError, match="bad revision"):
        revision.resolve("--all")
    line = assert_user_error(run(["match", "pousse", "rev:no-such-rev:hard", "random"]),
                             "bad revision 'no-such-rev'")
    assert line.endswith(f"not a commit of {revision.REPO}")


def test_unknown_player_names_and_levels() -> None:
    from rules import PlayerSpec

    for name in ("rev:", "rev:HEAD", "rev::hard", "rev:HEAD:", "hardest"):
        with pytest.raises(RulesError):
            PlayerSpec.parse(name)
    with pytest.raises(RulesError, match="unknown level"):
        PlayerSpec.parse("rev:HEAD:hardest")
