"""Where Arena's compiled kernels live, cheaply: a contest move asks this before anything.

The folders are keyed by a hash of the `ai/` sources, so a changed kernel is never run
from an old build. Light on purpose (no platformdirs, no importlib.metadata on Linux:
each costs a contest move 15 ms).
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path

AI_DIR = Path(__file__).resolve().parent


# Python that kernels never use (the drivers, the pure-Python search, the tools):
# editing it must not make anyone recompile. By name in any folder; and by path where a
# kernel module elsewhere has the same name (ai/regions.py is the quick search's, but
# a game's own regions.py may hold kernels).
NOT_KERNELS = ("__init__.py", "adapter.py", "cache_paths.py", "claims.py", "engine.py",
               "native.py", "numba_cache.py", "perft.py", "quick.py", "revision.py",
               "strength.py")
NOT_KERNEL_PATHS = ("regions.py",)


@functools.cache
def source_hash() -> str:
    """A hash of the `ai/` source files (names and contents) that kernels may use."""
    digest = hashlib.sha256()
    for path in sorted(AI_DIR.rglob("*.py")):
        relative = path.relative_to(AI_DIR).as_posix()
        if path.name in NOT_KERNELS or relative in NOT_KERNEL_PATHS:
            continue
        digest.update(relative.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@functools.cache
def build_hash() -> str:
    """`source_hash` and the engines' warm-up (every `adapter.py`, and `engine.py`, which
    runs it): a native build exports the signatures the warm-up compiled, so a warm-up
    that calls a kernel anew needs a new build (a build kept across such a change lacked
    a kernel, and every contest move that needed it fell back to the quick search)."""
    digest = hashlib.sha256(source_hash().encode())
    for path in sorted(AI_DIR.rglob("*.py")):
        if path.name in ("adapter.py", "engine.py"):
            digest.update(path.relative_to(AI_DIR).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@functools.cache
def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("arena-games")
    except Exception:  # not installed (running from a checkout)
        return "dev"


def cache_base() -> Path:
    """The user's cache folder for Arena (ARENA_CACHE_DIR overrides it): what
    platformdirs says, computed directly on Linux (the XDG rule)."""
    chosen = os.environ.get("ARENA_CACHE_DIR")
    if chosen:
        return Path(chosen)
    if sys.platform.startswith("linux"):
        xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
        base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
        return base / "arena"
    import platformdirs

    return Path(platformdirs.user_cache_dir("arena"))
