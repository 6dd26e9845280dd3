"""The shape of tui/: no import circles (lazy imports included), and no game named outside
the games' own board modules."""

from __future__ import annotations

import ast
from pathlib import Path

from rules import game_names, get_game

ROOT = Path(__file__).resolve().parents[2]
TUI = ROOT / "tui"
BOARDS = TUI / "widgets" / "boards"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def tui_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(TUI.rglob("*.py"))}


def imports_of(path: Path, name: str, known: set[str]) -> set[str]:
    """The tui modules `path` imports anywhere in it (top level, functions, TYPE_CHECKING)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for target in targets:
            # `import a.b.c` also runs a and a.b: count the deepest tui module named
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_tui_has_no_import_cycle() -> None:
    modules = tui_modules()
    known = set(modules)
    graph = {name: imports_of(path, name, known) for name, path in modules.items()}
    assert "tui.screens.game" in graph["tui.app"]  # the graph sees real imports
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_screens_never_import_each_other_or_the_app() -> None:
    modules = tui_modules()
    known = set(modules)
    shared = {"tui.screens", "tui.screens.dialogs", "tui.screens.common"}
    for name, path in modules.items():
        if name.startswith("tui.screens."):
            wrong = {m for m in imports_of(path, name, known)
                     if m == "tui.app" or (m.startswith("tui.screens") and m not in shared)}
            assert not wrong, f"{name} imports {sorted(wrong)}"


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
