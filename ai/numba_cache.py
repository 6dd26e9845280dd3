"""Where Numba keeps compiled kernels: a version-keyed folder in the user's cache.

Numba's `cache=True` writes beside the sources, which fails in a read-only
install, and it does not notice a change to a helper imported from another
file. So the folder is keyed by the package version and a hash of the `ai/`
sources, and it must be chosen before Numba is first imported.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import platformdirs

AI_DIR = Path(__file__).resolve().parent


def source_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(AI_DIR.rglob("*.py")):
        digest.update(path.relative_to(AI_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("arena-games")
    except Exception:  # not installed (running from a checkout)
        return "dev"


def cache_dir() -> Path:
    base = Path(os.environ.get("ARENA_CACHE_DIR") or platformdirs.user_cache_dir("arena"))
    return base / "numba" / f"{package_version()}-{source_hash()}"


def configure() -> Path:
    """Point Numba's cache at our folder (unless the user chose one) and return it."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen)
    path = cache_dir()
    path.mkdir(parents=True, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    return path


def is_compiled(game_name: str) -> bool:
    """Whether a game's kernels are already in the cache (else the next use compiles them).

    Numba keeps a module's index files (`kernels.<function>-<line>.py311.nbi`) in a
    folder named after the source folder and a SHA-1 of its path: `<game>_<sha1>`.
    """
    folder = Path(os.environ.get("NUMBA_CACHE_DIR") or cache_dir())
    source = str(AI_DIR / game_name)
    sub = folder / f"{game_name}_{hashlib.sha1(source.encode()).hexdigest()}"
    return sub.is_dir() and any(sub.glob("kernels.*.nbi"))
