"""Kernels compiled ahead of time: one extension module per game, kept in the user cache.

Importing Numba takes about 0.2-0.35 s and loading a game's JIT-cached kernels as much
again, which is most of a contest program's clock. A native module built by Numba's
`pycc` from the same kernel code loads in about a millisecond and needs only numpy. So
`arena prepare` (or a background build after the first JIT compile) builds, per game:

- `arena_<game>.<ext>`: every `@entry` kernel of the game's package, once per signature
  the engine's warm-up compiled, for this machine's CPU, releasing the GIL like the JIT's
  `nogil=True` (the UI thread and the deadline timer must run while a search does);
- `arena_<game>.json`: what it exports (module, kernel, symbol, and the argument types
  that choose among several signatures), its SHA-256 and the build's figures.

Both live in a folder keyed by a hash of the `ai/` sources and the engines' warm-up
(`cache_paths.build_hash`; the file name carries the Python ABI), so a changed kernel is
never run from an old build, nor a new search from a build that lacks its signatures. A
module whose hash does not match its record (a damaged or half-written file) is not
loaded; the JIT serves.
`ai.jit` asks `function()` for each entry kernel on its first call.

Run `python -m ai.native GAME...` to build (what `arena prepare` does in a child process).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = 1
_lock = threading.Lock()
_tables: dict[str, dict[tuple[str, str], Callable[..., Any]] | None] = {}
_folder: list[Path] = []


def folder() -> Path:
    """Where this version of the sources keeps its native modules."""
    if not _folder:  # (the sources alone decide the kernels: no package version, whose
        # look-up alone costs a contest move 15 ms)
        from ai.cache_paths import build_hash, cache_base

        _folder.append(cache_base() / "native" / build_hash())
    return _folder[0]


def module_name(game: str) -> str:
    return f"arena_{game}"


def module_path(game: str) -> Path:
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return folder() / f"{module_name(game)}{suffix}"


def record_path(game: str) -> Path:
    return folder() / f"{module_name(game)}.json"


def is_built(game: str) -> bool:
    """Whether a native module for `game` and these sources is on disk (not yet checked)."""
    return module_path(game).is_file() and record_path(game).is_file()


def record(game: str) -> dict[str, Any] | None:
    """The build record of `game`'s native module, or None (none, or unreadable)."""
    try:
        data = json.loads(record_path(game).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


# ----- loading -------------------------------------------------------------------------
def function(package: str, module: str, name: str) -> Callable[..., Any] | None:
    """The native function for kernel `module.name` of `package` (`ai.<game>`), or None:
    no module built, a damaged one, or a kernel it does not export."""
    parts = package.split(".")
    if len(parts) != 2 or parts[0] != "ai":
        return None
    table = _table(parts[1])
    return None if table is None else table.get((module, name))


def _table(game: str) -> dict[tuple[str, str], Callable[..., Any]] | None:
    with _lock:
        if _tables.get(game) is None:  # (not found yet: a build may have finished since)
            _tables[game] = _load(game)
        return _tables[game]


def _load(game: str) -> dict[tuple[str, str], Callable[..., Any]] | None:
    data = record(game)
    path = module_path(game)
    if data is None or not path.is_file():
        return None
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    if hashlib.sha256(blob).hexdigest() != data.get("sha256"):
        return None  # damaged or half-written: the JIT serves
    name = module_name(game)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (ImportError, OSError):
        return None
    grouped: dict[tuple[str, str], list[tuple[Any, Callable[..., Any]]]] = {}
    for item in data.get("exports", []):
        func = getattr(module, item["symbol"], None)
        if func is None:
            return None
        key = (item["module"], item["name"])
        grouped.setdefault(key, []).append((_freeze(item["args"]), func))
    return {key: choices[0][1] if len(choices) == 1 else _Overloaded(choices)
            for key, choices in grouped.items()}


def _freeze(value: Any) -> Any:
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value


class _Overloaded:
    """A kernel exported with several signatures: chosen by its arguments' types."""

    def __init__(self, choices: list[tuple[Any, Callable[..., Any]]]) -> None:
        self.choices = {args: func for args, func in choices}

    def __call__(self, *args: Any) -> Any:
        func = self.choices.get(tuple(value_key(a) for a in args))
        if func is None:
            raise TypeError("no native signature for these arguments")
        return func(*args)


def value_key(value: Any) -> Any:
    """A Python value's type in the words `type_key` uses for Numba's types."""
    if isinstance(value, np.ndarray):
        layout = "C" if value.flags.c_contiguous else ("F" if value.flags.f_contiguous
                                                       else "A")
        return ("array", value.dtype.name, value.ndim, layout)
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, np.generic):
        return value.dtype.name
    if isinstance(value, int):
        return "int64"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, tuple):
        return tuple(value_key(v) for v in value)
    return type(value).__name__


def type_key(numba_type: Any) -> Any:
    """A Numba argument type in the words of `value_key` (JSON-able)."""
    from numba.core import types

    if isinstance(numba_type, types.Array):
        return ["array", numba_type.dtype.name, numba_type.ndim, numba_type.layout]
    if isinstance(numba_type, types.BaseTuple):
        return [type_key(t) for t in numba_type]
    if isinstance(numba_type, types.Boolean):
        return "bool"
    return numba_type.name


DEFAULT_BUILD_SECONDS = 60.0  # a first build's guess, before any build was timed here


def estimate(game: str) -> float:
    """How long a build of `game` should take here: the last build's time (of any version
    of the sources), else DEFAULT_BUILD_SECONDS."""
    records = []
    for path in (folder().parent).glob(f"*/{module_name(game)}.json"):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            records.append((path.stat().st_mtime, float(data["seconds"])))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return max(records)[1] if records else DEFAULT_BUILD_SECONDS


def failure_path(game: str) -> Path:
    return folder() / f"{module_name(game)}.failed"


def ready(game: str) -> bool:
    """Whether `game`'s native module is to be used: native modules are on, and it is
    built for these sources and loads (`loadable`)."""
    return native_allowed() and loadable(game)


def loadable(game: str) -> bool:
    """Whether `game`'s native module is built for these sources and loads (checked now:
    its hash, then the import), so that no kernel of it will need the JIT."""
    return _table(game) is not None


def failed(game: str) -> str | None:
    """Why the last build of `game`'s native module failed (no C compiler, say), or
    None: then the JIT is what there is."""
    try:
        return failure_path(game).read_text(encoding="utf-8")[:500] or "unknown"
    except OSError:
        return None


def native_allowed() -> bool:
    from ai.jit import native_allowed as allowed

    return allowed()


def build_in_background(game: str) -> bool:
    """Start building `game`'s native module in a detached process (its own session, so a
    jury that kills the move's process group does not kill it; below normal priority; out
    of Arena's own jury's sweep, since it ends by itself), unless one is running or built,
    or the last build failed. Whether one was started."""
    if not native_allowed() or is_built(game) or failed(game) is not None or building(game):
        return False
    env = {k: v for k, v in os.environ.items() if k != "ARENA_JURY"}
    log = folder() / f"{module_name(game)}.log"
    try:
        folder().mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as err:
            import subprocess

            subprocess.Popen([sys.executable, "-m", "ai.native", "--background", game],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                             start_new_session=True, close_fds=True, env=env)
    except OSError:
        return False
    return True


def lock_path(game: str) -> Path:
    return folder() / f".{module_name(game)}.lock"


def building(game: str) -> bool:
    """Whether a build of `game` holds its lock now."""
    import fcntl

    try:
        with open(lock_path(game), "a+b") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.flock(handle, fcntl.LOCK_UN)
    except OSError:
        return False
    return False


# ----- building --------------------------------------------------------------------------
Progress = Callable[[str], None]


def build(game: str, progress: Progress | None = None) -> Path:
    """Compile `game`'s entry kernels ahead of time into its native module (in this
    process: Numba's JIT learns the signatures from the engine's warm-up first). Written
    atomically: a build cut short leaves no module behind, and a module is only ever
    loaded with its record's hash. Returns the module's path."""
    os.environ["ARENA_NATIVE"] = "0"  # this process compiles: its kernels are the JIT's
    say = progress or (lambda text: None)
    began = time.perf_counter()
    from ai import jit
    from ai.engine import new_engine

    say("compiling the kernels (JIT)")
    engine = new_engine(game)
    engine.warm_up()
    jit_seconds = time.perf_counter() - began
    package = f"ai.{game}"
    exports = []
    cc, output = _compiler(game)
    for lazy in list(jit._lazies):
        if not (isinstance(lazy, jit.Kernel) and lazy.entry
                and jit.package_of(lazy.module) == package):
            continue
        dispatcher = lazy.real()
        for i, cres in enumerate(dispatcher.overloads.values()):
            symbol = f"{lazy.module.rsplit('.', 1)[1]}__{lazy.name}__{i}"
            cc.export(symbol, cres.signature)(lazy.py_func)
            exports.append({"module": lazy.module, "name": lazy.name, "symbol": symbol,
                            "args": [type_key(t) for t in cres.signature.args]})
    if not exports:
        raise RuntimeError(f"the {game} warm-up compiled no entry kernel")
    say(f"native build: {len(exports)} kernels")  # short: a line of the engine panel
    with _releasing_gil():
        cc.compile()
    target = module_path(game)
    target.parent.mkdir(parents=True, exist_ok=True)
    blob = output.read_bytes()
    data = {"format": FORMAT, "game": game, "exports": exports,
            "sha256": hashlib.sha256(blob).hexdigest(),
            "numba": sys.modules["numba"].__version__,
            "jit_seconds": round(jit_seconds, 1),
            "seconds": round(time.perf_counter() - began, 1)}
    _atomic_bytes(target, blob)
    _atomic_bytes(record_path(game), json.dumps(data, indent=1).encode())
    shutil.rmtree(output.parent, ignore_errors=True)
    with _lock:
        _tables.pop(game, None)
    return target


def _compiler(game: str) -> tuple[Any, Path]:
    from numba.pycc import CC

    scratch = Path(tempfile.mkdtemp(prefix="arena-native-"))
    cc = CC(module_name(game))
    cc.output_dir = str(scratch)
    cc.target_cpu = "host"  # the cache is this machine's: its CPU's instructions (popcnt)
    return cc, scratch / cc.output_file


class _releasing_gil:  # noqa: N801 - a context manager named for what it does
    """pycc builds its Python wrappers with the compiler flags' default, which holds the
    GIL: a search would then stop the UI and the deadline timer. Inside this block the
    wrappers release it, as `nogil=True` does for the JIT (Numba's private compiler API,
    checked by `ai.jit.check_version`)."""

    def __enter__(self) -> None:
        from numba.core.compiler import Flags
        from numba.pycc import compiler

        class NoGil(Flags):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self.release_gil = True

        self._saved = compiler.Flags
        compiler.Flags = NoGil

    def __exit__(self, *exc: object) -> None:
        from numba.pycc import compiler

        compiler.Flags = self._saved


def _atomic_bytes(path: Path, data: bytes) -> None:
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def build_locked(game: str, progress: Progress | None = None) -> Path | None:
    """`build` under the game's lock (None: another process holds it: that one builds);
    a failure is recorded (`failed`) so that no contest move starts it again."""
    import fcntl

    folder().mkdir(parents=True, exist_ok=True)
    with open(lock_path(game), "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return None
        try:
            if is_built(game) and _table(game) is not None:
                return module_path(game)
            return build(game, progress)
        except Exception as err:
            failure_path(game).write_text(f"{type(err).__name__}: {err}", encoding="utf-8")
            raise
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def main(argv: list[str]) -> int:
    """`python -m ai.native [--background] [GAME...]`: build (every game by default),
    one progress line a step on stdout."""
    from rules import game_names

    background = "--background" in argv
    names = [a for a in argv if a != "--background"] or list(game_names())
    if background:
        os.nice(10)  # the games being played come first
    for name in names:
        began = time.perf_counter()
        path = build_locked(name, lambda text, name=name: print(f"{name}: {text}", flush=True))
        if path is None:
            print(f"{name}: another process is building it", flush=True)
            continue
        print(f"{name}: built {path.name} in {time.perf_counter() - began:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
