"""A game's engine as it was at another git revision of this repository.

Used to measure progress: the strength runner's `rev:REV:LEVEL` player plays with
the engine package `ai/<game>/` of revision REV against today's code.

The package's files are read with `git show`, written under the kernel cache's
base folder as a package of their own (`arena_rev_<hash>_<game>`, its absolute
imports of itself rewritten to that name) and imported beside today's package.
The folder is stable per revision and game, and a file is only rewritten when
its text differs, so Numba's cache (keyed by the file's path and stamp) serves
the compiled kernels again on the next run, as long as today's `ai/` sources
(which name the cache folder) have not changed; else they compile again once.

Only the game's engine package is old: the shared modules (`ai.engine`,
`ai.adapter`, `rules`) are today's. That works while the Adapter interface and
the rules the old package uses are compatible; when they are not, loading
fails with one RevisionError line (a break that only shows during a search is
not caught).
"""

from __future__ import annotations

import importlib.util
import io
import os
import re
import subprocess
import sys
import tokenize
from pathlib import Path
from types import ModuleType
from typing import Any

from ai.adapter import Adapter
from ai.engine import Engine
from ai.numba_cache import cache_dir
from rules import canonical_name

REPO = Path(__file__).resolve().parents[1]
PREFIX = "arena_rev_"
SHORT = 12  # hash characters in the package name and folder

_loaded: dict[tuple[str, str], type[Adapter]] = {}  # (full hash, game) -> adapter class


class RevisionError(Exception):
    """An old revision's engine cannot be used (bad revision, no package, load failure)."""


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True,
                              text=True, encoding="utf-8", check=False)
    except OSError as err:
        raise RevisionError(f"git cannot run ({err.strerror or err})") from err
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise RevisionError(f"git {args[0]}: {last}")
    return done.stdout


def resolve(rev: str) -> str:
    """The full commit hash of `rev` (any name git accepts); RevisionError if none."""
    if not rev or rev.startswith("-"):
        raise RevisionError(f"bad revision {rev!r}")
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").strip()
    except RevisionError:
        raise RevisionError(f"bad revision {rev!r}: not a commit of {REPO}") from None


def package_name(commit: str, game: str) -> str:
    return f"{PREFIX}{commit[:SHORT]}_{game}"


def rewrite(source: str, game: str, name: str) -> str:
    """`source` with its absolute imports of `ai.<game>` pointed at package `name`.

    RevisionError if `ai.<game>` is still named in code afterwards (e.g. `from ai
    import <game>`, or a dotted use): that module would silently be today's.
    """
    text = re.sub(rf"^(\s*(?:from|import)\s+)ai\.{game}\b", rf"\g<1>{name}", source,
                  flags=re.MULTILINE)
    names = [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
             if t.type in (tokenize.NAME, tokenize.OP)]
    for i in range(len(names) - 2):
        if names[i] == "ai" and names[i + 1] in (".", "import") and names[i + 2] == game:
            raise RevisionError(f"the old ai/{game} refers to today's package in a way "
                                "that cannot be rewritten")
    return text


def _write(path: Path, text: str) -> None:
    """Writes `text` unless the file already holds it (its stamp keys Numba's cache)."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)  # atomic: another run may be reading the same folder


def export(commit: str, game: str) -> Path:
    """Writes the revision's `ai/<game>/*.py` as package `package_name`; its folder."""
    listed = _git("ls-tree", "-r", "--name-only", commit, "--", f"ai/{game}/").split("\n")
    files = [f for f in listed if f.endswith(".py")]
    if f"ai/{game}/__init__.py" not in files:
        raise RevisionError(f"revision {commit[:SHORT]} has no engine package ai/{game}/")
    name = package_name(commit, game)
    root = cache_dir().parent.parent / "revisions" / commit[:SHORT] / game / name
    for file in files:
        source = _git("show", f"{commit}:{file}")
        _write(root / file.removeprefix(f"ai/{game}/"), rewrite(source, game, name))
    return root


def _import(name: str, root: Path) -> ModuleType:
    """Imports the package at `root` as `name` (its submodules found through __path__)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, root / "__init__.py", submodule_search_locations=[str(root)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        for key in [k for k in sys.modules if k == name or k.startswith(f"{name}.")]:
            del sys.modules[key]
        raise
    return module


def adapter_class(rev: str, game_name: str) -> type[Adapter]:
    """The adapter class of `game_name`'s engine package at `rev` (loaded once)."""
    game = canonical_name(game_name)
    commit = resolve(rev)
    key = (commit, game)
    if key not in _loaded:
        root = export(commit, game)
        try:
            cls = _import(package_name(commit, game), root).ADAPTER
        except Exception as err:
            raise RevisionError(f"cannot load ai/{game} of revision {commit[:SHORT]} with "
                                f"today's shared modules: {type(err).__name__}: {err}") from err
        if not (isinstance(cls, type) and issubclass(cls, Adapter)):
            raise RevisionError(f"ai/{game} of revision {commit[:SHORT]}: ADAPTER is not "
                                "an ai.adapter.Adapter")
        _loaded[key] = cls
    return _loaded[key]


def new_engine(rev: str, game_name: str, **options: Any) -> Engine:
    """A fresh engine over the old adapter (`options` go to the adapter, e.g. tt_bits),
    like `ai.engine.new_engine` for today's code."""
    cls = adapter_class(rev, game_name)
    try:
        return Engine(cls(**options))
    except Exception as err:
        raise RevisionError(f"cannot start the engine of ai/{canonical_name(game_name)} of "
                            f"revision {rev}: {type(err).__name__}: {err}") from err
