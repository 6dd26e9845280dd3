"""Where Numba keeps compiled kernels, and how that folder heals itself.

Numba's `cache=True` writes beside the sources, which fails in a read-only
install, and it does not notice a change to a helper imported from another
file. So the folder is keyed by the package version and a hash of the `ai/`
sources, and it must be chosen before Numba is first imported.

Numba raises at a kernel's first call on a damaged cache file (a truncated or
empty file: EOFError or an UnpicklingError; random bytes in compiled code: an
LLVM error, or an abort that kills the process), and when its folder cannot be
written it silently falls back to `__pycache__` beside the sources. So:

- `configure()` checks the folder before Numba loads: every file must be a
  whole pickle (walked with `pickletools`, nothing executed), and a file sealed
  in the manifest must still have its hash. A damaged folder is renamed to
  `<folder>.damaged-<time>` and rebuilt; an unwritable one is replaced by a
  private temporary folder (holding a copy of a sound cache), removed at exit.
- Numba finds folders only through `ArenaLocator`, which never falls back to
  the sources' folders.
- `recover()` handles what slips through at run time (a disk that fills up).
- `seal()` records the hashes of sound files once they have been used.
"""

from __future__ import annotations

import atexit
import hashlib
import io
import json
import os
import pickletools
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ai.cache_paths import AI_DIR, cache_base, package_version, source_hash

__all__ = ["AI_DIR", "cache_base", "package_version", "source_hash"]
MANIFEST = "arena-manifest.json"
DAMAGED = ".damaged-"
PRIVATE_PREFIX = "arena-numba-"
KEEP_DAMAGED = 2  # set-aside folders kept for a post-mortem; older ones are deleted
PROBE_BYTES = 256 * 1024  # a write this large must succeed (a kernel file is smaller)


def cache_dir() -> Path:
    return cache_base() / "numba" / f"{package_version()}-{source_hash()}"


@dataclass
class _State:
    folder: Path | None = None  # where Numba caches in this process
    home: Path | None = None  # the persistent folder, when `folder` is usable and ours
    private: Path | None = None  # our temporary folder, removed at exit
    notice: str | None = None  # one line for the user, when the cache is not as usual
    started: float = 0.0


_state = _State()


def configure() -> Path:
    """Choose, check and if need be heal Numba's cache folder; point Numba at it.

    Idempotent. A folder the user chose with NUMBA_CACHE_DIR is used as is (its
    other contents are not ours to move), but never for a fall-back into the sources.
    """
    if _state.folder is not None:
        return _state.folder
    _state.started = time.time()
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    folder = Path(chosen) if chosen else _prepare(cache_dir())
    _state.folder = folder
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES", f"{__name__}.ArenaLocator")
    if "numba" in sys.modules:  # too late for the environment: tell Numba directly
        from numba.core import config

        config.CACHE_DIR = str(folder)
        config.CACHE_LOCATOR_CLASSES = os.environ["NUMBA_CACHE_LOCATOR_CLASSES"]
    atexit.register(_at_exit)
    return folder


def notice() -> str | None:
    """What the user should hear about the cache (said once by the CLI), or None."""
    return _state.notice


def _prepare(home: Path) -> Path:
    """`home` if it is sound and writable (set aside and recreated if damaged), else a
    private temporary folder."""
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return _private(None, f"the kernel cache folder {home} cannot be created "
                        f"({_reason(err)})")
    damage = find_damage(home)
    problem = _unwritable(home)
    if damage and not problem:
        try:
            aside = set_aside(home)
        except OSError as err:
            problem = _reason(err)
        else:
            _state.home = home
            _state.notice = (f"the kernel cache was damaged ({damage}): set aside as "
                             f"{aside.name}; the kernels are compiled again")
            return home
    if problem:
        return _private(None if damage else home,
                        f"the kernel cache folder {home} cannot be written ({problem})")
    _state.home = home
    _remove_stale_temporaries(home)
    return home


def _reason(err: OSError) -> str:
    return err.strerror or type(err).__name__


def _unwritable(folder: Path) -> str | None:
    """Why `folder` cannot take a kernel file (None: it can). Root ignores modes, so
    this writes rather than asking os.access."""
    try:
        with tempfile.TemporaryFile(dir=folder) as probe:
            probe.write(bytes(PROBE_BYTES))
            probe.flush()
    except OSError as err:
        return _reason(err)
    return None


def _private(source: Path | None, why: str) -> Path:
    """A fresh temporary folder for this process (a copy of `source`, a sound cache
    that cannot be written, so nothing is compiled again)."""
    _remove_dead_private_folders()
    folder = Path(tempfile.mkdtemp(prefix=f"{PRIVATE_PREFIX}{os.getpid()}-"))
    _state.private = folder
    copied = False
    if source is not None:
        try:
            shutil.copytree(source, folder, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns(MANIFEST, "*.tmp.*"))
            copied = any(folder.rglob("*.nbi"))
        except (OSError, shutil.Error):
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(exist_ok=True)
    _state.notice = why + (": using a copy for this run" if copied else
                           ": the kernels are compiled for this run only (slower)")
    return folder


def _remove_dead_private_folders() -> None:
    """Private folders left by processes that ended without cleaning up (os._exit, kill)."""
    for path in Path(tempfile.gettempdir()).glob(f"{PRIVATE_PREFIX}*-*"):
        pid = path.name[len(PRIVATE_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _remove_stale_temporaries(folder: Path) -> None:
    """Numba writes `<file>.tmp.<id>` then renames it; a killed write leaves one behind."""
    limit = time.time() - 3600
    for path in folder.rglob("*.tmp.*"):
        try:
            if path.stat().st_mtime < limit:
                path.unlink()
        except OSError:
            pass


def cleanup() -> None:
    """Remove this process's private folder (call before os._exit; also run at exit)."""
    if _state.private is not None:
        shutil.rmtree(_state.private, ignore_errors=True)


def _at_exit() -> None:
    seal(only_new=True)
    cleanup()


# ----- damage ---------------------------------------------------------------------------


def cache_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.nb[ic]") if p.is_file())


def sound(data: bytes, pickles: int) -> bool:
    """Whether `data` is exactly `pickles` whole pickles in a row (an index holds two:
    Numba's version, then the entries). Only the opcodes are read: nothing is run."""
    stream = io.BytesIO(data)
    try:
        for _ in range(pickles):
            for _op in pickletools.genops(stream):
                pass
    except Exception:  # genops raises ValueError, also others on some garbage
        return False
    return stream.tell() == len(data)


def _pickles(path: Path) -> int:
    return 2 if path.suffix == ".nbi" else 1


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_manifest(folder: Path) -> dict[str, str]:
    try:
        entries = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(entries, dict):
        return {}
    return {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, str)}


def find_damage(folder: Path) -> str | None:
    """The first sign of damage in a cache folder, as a short phrase (None: sound)."""
    sealed = _read_manifest(folder)
    for path in cache_files(folder):
        name = path.relative_to(folder).as_posix()
        try:
            data = path.read_bytes()
        except OSError as err:
            return f"{path.name} cannot be read: {_reason(err)}"
        if name in sealed:
            if _digest(data) != sealed[name]:
                return f"{path.name} has changed since it was written"
        elif not sound(data, _pickles(path)):
            return f"{path.name} is not a whole cache file"
    return None


def set_aside(folder: Path) -> Path:
    """Rename a damaged folder to `<folder>.damaged-<time>` and recreate it empty;
    OSError when that cannot be done."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = folder.with_name(f"{folder.name}{DAMAGED}{stamp}-{os.getpid()}")
    folder.rename(aside)
    folder.mkdir()
    old = sorted(folder.parent.glob(f"{folder.name}{DAMAGED}*"), key=_mtime)
    for stale in old[:-KEEP_DAMAGED]:
        shutil.rmtree(stale, ignore_errors=True)
    return aside


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def seal(only_new: bool = False) -> None:
    """Record the hashes of the sound cache files, so later damage inside them (which
    still parses) is caught. Call once kernels have run from the cache; `only_new`
    seals just the files this process wrote (compiled here, so good by construction)."""
    home = _state.home
    if home is None or _state.folder != home:
        return
    try:
        sealed = _read_manifest(home)
        entries: dict[str, str] = {}
        for path in cache_files(home):
            name = path.relative_to(home).as_posix()
            if only_new and name in sealed and path.stat().st_mtime < _state.started:
                entries[name] = sealed[name]
                continue
            data = path.read_bytes()
            if sound(data, _pickles(path)):
                entries[name] = _digest(data)
        if entries == sealed:
            return
        temporary = home / f"{MANIFEST}.tmp.{os.getpid()}"
        temporary.write_text(json.dumps(entries, indent=0, sort_keys=True), encoding="utf-8")
        os.replace(temporary, home / MANIFEST)
    except OSError:
        pass  # an unsealed file is still checked for wholeness


# ----- run time -------------------------------------------------------------------------


def recover(error: BaseException) -> str:
    """After a kernel failed to load from or be saved to the cache: set a damaged folder
    aside (the kernels then compile into a fresh one), or stop caching on disk for the
    rest of the process. Returns the line to tell the user."""
    home = _state.home
    if not isinstance(error, OSError) and home is not None and _state.folder == home:
        try:
            aside = set_aside(home)
        except OSError:
            pass
        else:
            _state.notice = (f"the kernel cache was damaged ({type(error).__name__}): set "
                             f"aside as {aside.name}; the kernels are compiled again")
            return _state.notice
    why = _reason(error) if isinstance(error, OSError) else type(error).__name__
    _disable_persistent_caches()
    _state.home = None
    _state.notice = (f"the kernel cache cannot be used ({why}): the kernels are compiled "
                     "for this run only (slower)")
    return _state.notice


def _disable_persistent_caches() -> None:
    """Every loaded kernel of this package compiles in memory from now on."""
    from numba.core.caching import NullCache

    package = __name__.split(".")[0]
    for name, module in list(sys.modules.items()):
        if module is None or not (name == package or name.startswith(package + ".")):
            continue
        for value in list(vars(module).values()):
            if hasattr(value, "overloads") and getattr(value, "_cache", None) is not None:
                value._cache = NullCache()


def is_compiled(game_name: str) -> bool:
    """Whether a game's kernels are already in the cache (else the next use compiles them).

    Numba keeps a module's index files (`<module>.<function>-<line>.py311.nbi`) in a
    folder named after the source folder and a SHA-1 of its path: `<game>_<sha1>`; a
    game's kernels may span several modules of `ai/<game>/`.
    """
    folder = Path(os.environ.get("NUMBA_CACHE_DIR") or cache_dir())
    source = str(AI_DIR / game_name)
    sub = folder / f"{game_name}_{hashlib.sha1(source.encode()).hexdigest()}"
    return sub.is_dir() and any(sub.glob("*.nbi"))


# ----- Numba's view -------------------------------------------------------------------


def _locator_class() -> type:
    """Numba's user-folder locator over the folder chosen here. Where Numba's own
    chain would fall back to `__pycache__` beside the sources, this one moves to a
    private temporary folder. Built on first use: Numba is loaded by then."""
    from numba.core.caching import UserProvidedCacheLocator

    class ArenaLocator(UserProvidedCacheLocator):
        def __init__(self, py_func: Any, py_file: str) -> None:
            super().__init__(py_func, py_file)
            folder = _state.folder or configure()
            self._cache_path = os.path.join(folder, self.get_suitable_cache_subpath(py_file))

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not os.path.exists(py_file):
                return None
            for _ in range(2):
                locator = cls(py_func, py_file)
                try:
                    locator.ensure_cache_path()
                    return locator
                except OSError as err:
                    if _state.private is not None:
                        return None  # no folder at all can be written: Numba says so
                    _state.folder = _private(None, f"the kernel cache folder cannot be "
                                             f"written ({_reason(err)})")
                    _state.home = None
            return None

    return ArenaLocator


def __getattr__(name: str) -> Any:
    if name == "ArenaLocator":  # what NUMBA_CACHE_LOCATOR_CLASSES names
        value = _locator_class()
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def caused_by_cache(error: BaseException) -> bool:
    """Whether Numba's cache code is in the error's traceback (loading or saving a kernel)."""
    marker = os.path.join("numba", "core", "caching.py")
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        tb = current.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.endswith(marker):
                return True
            tb = tb.tb_next
        current = current.__cause__ or current.__context__
    return False
