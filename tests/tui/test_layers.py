"""The shape of tui/: no game named outside the games' own board modules. (Its imports:
no cycles, screens apart from each other and the app, are import contracts in
pyproject.toml, checked by tests/test_lint.py.)"""

from __future__ import annotations

from pathlib import Path

from rules import game_names, get_game

ROOT = Path(__file__).resolve().parents[2]
TUI = ROOT / "tui"
BOARDS = TUI / "widgets" / "boards"


def test_no_game_is_named_outside_its_own_board() -> None:
    words = set()
    for name in game_names():
        words |= {name.lower(), get_game(name).title.lower()}
    own = {BOARDS / f"{name}.py" for name in game_names()}
    offenders = []
    for path in sorted(TUI.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path in own:
            continue
        text = path.read_text(encoding="utf-8").lower()
        offenders += [f"{path.relative_to(ROOT)}: {w}" for w in sorted(words) if w in text]
    assert not offenders
