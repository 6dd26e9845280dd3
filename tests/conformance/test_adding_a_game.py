"""docs/adding-a-game.md, checked by following it: every file it says to write exists for
every registered game, and it names every member of `Game` and of the codec that a game
must provide or does override, so that a new hook cannot go undocumented."""

from __future__ import annotations

import re
from pathlib import Path

from rules import Game, codec_of, game_names, get_game
from rules.codecs.base import Codec, LineCodec, PositionCodec
from rules.edit import Draft, draft_class

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")


def named() -> set[str]:
    """Every identifier the page writes as code (`new(options, seed)` names `new`)."""
    return set(re.findall(r"[A-Za-z_]\w*", " ".join(re.findall(r"`([^`]+)`", DOC))))


def files_to_write() -> list[str]:
    """The paths of the page's first table, with `NAME` for the game's name."""
    table = DOC.split("## The files to write", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    return [re.match(r"\| `([^`]+)`", row).group(1) for row in rows]  # type: ignore[union-attr]


def declared(cls: type) -> set[str]:
    """The members `cls` itself declares: its class attributes (annotated or not) and
    methods, without dunders and dataclass fields."""
    own = {name for name in vars(cls) if not name.startswith("__") and name != "_abc_impl"}
    annotations = vars(cls).get("__annotations__", {})
    return own | {name for name, kind in annotations.items() if str(kind).startswith("ClassVar")}


def test_the_files_to_write_exist_for_every_game() -> None:
    paths = files_to_write()
    assert "rules/NAME.py" in paths and "rules/codecs/NAME.py" in paths
    for name in game_names():
        missing = [p for p in paths if not (ROOT / p.replace("NAME", name)).exists()]
        assert not missing, f"{name} lacks {missing}"
        assert get_game(name).name == name and codec_of(get_game(name)).game_class is get_game(name)


def test_every_member_a_game_must_provide_is_named() -> None:
    """The abstract methods and every declaration (class attribute) of `Game`."""
    must = set(Game.__abstractmethods__) | {
        name for name, kind in Game.__annotations__.items() if str(kind).startswith("ClassVar")}
    assert {"new", "legal_moves", "is_legal", "endings", "clock"} <= must
    assert not must - named(), f"not in docs/adding-a-game.md: {sorted(must - named())}"


def test_every_hook_a_game_overrides_is_named() -> None:
    """Whatever member of `Game` some game overrides is a hook, and the page says so."""
    hooks = set()
    for name in game_names():
        hooks |= declared(get_game(name)) & declared(Game)
    assert "why_illegal" in hooks
    assert not hooks - named(), f"not in docs/adding-a-game.md: {sorted(hooks - named())}"


def test_every_codec_member_is_named() -> None:
    """Every member of the codec base and of its two kinds of reply, and whatever a game's
    codec overrides."""
    members = declared(Codec) | declared(PositionCodec) | declared(LineCodec)
    for name in game_names():
        members |= declared(type(codec_of(get_game(name))))
    members -= {"game_class"}  # given by the constructor, `TheCodec(TheClass)`
    assert {"reply", "judge", "protocol", "position"} <= members
    assert not members - named(), f"not in docs/adding-a-game.md: {sorted(members - named())}"


def test_every_draft_member_is_named() -> None:
    """Every member of the editor's `Draft` and whatever a game's draft declares beyond
    its own helpers (a leading underscore) is named."""
    members = declared(Draft)
    for name in game_names():
        members |= declared(draft_class(get_game(name))) & declared(Draft)
    members = {m for m in members if not m.startswith("_")}
    assert {"build", "palette", "paint", "fields"} <= members
    assert not members - named(), f"not in docs/adding-a-game.md: {sorted(members - named())}"


def test_the_board_hooks_of_the_ais_view_and_the_flip_are_named() -> None:
    """GridBoard's members for the overlay and the flip, and whatever a game's board
    overrides of them."""
    from tui.widgets.boards import board_class
    from tui.widgets.boards.grid import GridBoard

    members = {name for name in declared(GridBoard)
               if name.startswith(("overlay", "set_overlay", "flip", "FLIP", "shown", "place_of"))}
    assert {"overlay_targets", "overlay_moves", "FLIPS", "FLIP_TURNS", "shown", "place_of",
            "set_overlay"} <= members
    for name in game_names():
        assert not (declared(board_class(name)) & members) - named(), name
    assert not members - named(), f"not in docs/adding-a-game.md: {sorted(members - named())}"
