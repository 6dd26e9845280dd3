"""The one door to Numba: kernels are declared here, and bound on their first call.

Every kernel module writes `from ai.jit import njit, entry, ...` instead of importing
Numba. Importing a kernel module therefore costs nothing: `njit` returns a `Kernel`
that only records the function. On the first call from Python, a kernel binds:

- to the game's native module (`ai.native`: the kernels compiled ahead of time into
  an extension module kept in the user cache, which loads in a millisecond and needs
  only numpy) when one is built for these sources and exports it; or
- to Numba's JIT: Numba is imported (its cache folder chosen first, `ai.numba_cache`),
  every lazy object of the kernel's package (and of the shared modules) is made real,
  and the module globals that held the lazy ones are replaced, so that compiled code
  calling another kernel finds a real dispatcher.

`entry` marks a kernel that Python calls (an adapter, perft): those are what a native
module exports. Everything of Numba's that is not public API is here too (intrinsics,
`numba.cpython.unsafe`), behind a version check with one clear error.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import warnings
from collections.abc import Callable
from typing import Any

# Numba versions this code was tested with: the private APIs used here and in
# `ai.native` (intrinsics, numba.cpython.unsafe, pycc's compiler flags) change between
# releases. Outside the range Arena refuses to compile rather than miscompile.
NUMBA_TESTED = ((0, 59), (0, 68))
SHARED = ("ai.bits", "ai.jit")  # kernel modules every game uses

_lock = threading.RLock()
_lazies: list[Lazy] = []
_realized: set[str] = set()  # packages whose lazies are real (JIT)
_numba: Any = None


class JitError(RuntimeError):
    """Numba is missing or of a version Arena was not tested with (one line)."""


def package_of(module: str) -> str:
    """The package a kernel module belongs to: `ai.GAME` for `ai.GAME.kernels`, the
    module itself for a shared one (`ai.bits`), and for a package outside `ai` (an older
    revision's engine, loaded under a name of its own) its top level."""
    parts = module.split(".")
    if parts[0] != "ai":
        return parts[0]
    return ".".join(parts[:2]) if len(parts) > 2 else module


class Lazy:
    """Something of Numba's, made real on demand (`real()`): a compiled function, an
    intrinsic, an overload registration, a Numba helper."""

    def __init__(self, module: str, name: str, make: Callable[[Any], Any]) -> None:
        self.module, self.name = module, name
        self._make = make
        self._real: Any = None
        _lazies.append(self)

    def real(self) -> Any:
        return self.materialize()

    def materialize(self) -> Any:
        """The real object, made once."""
        if self._real is None:
            self._real = self._make(_load_numba())
        return self._real

    def __repr__(self) -> str:
        return f"<lazy {self.module}.{self.name}>"


class Kernel(Lazy):
    """A function declared with `njit`: callable at once, bound on its first call."""

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func = func
        self.options = options
        self.entry = False
        self.target: Callable[..., Any] | None = None
        super().__init__(func.__module__, func.__name__,
                         lambda numba: numba.njit(**options)(func))
        self.__doc__ = func.__doc__
        self.__wrapped__ = func

    def __call__(self, *args: Any) -> Any:
        target = self.target
        if target is None:
            target = bind(self)
        return target(*args)

    def real(self) -> Any:
        """The JIT dispatcher, its package made real first (so that it compiles)."""
        realize(package_of(self.module))
        return self.materialize()

    def __getattr__(self, name: str) -> Any:
        # a dispatcher's own attributes (py_func is set above): signatures, overloads...
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.real(), name)


def njit(*args: Any, **options: Any) -> Any:
    """`numba.njit`, lazily: `@njit` or `@njit(nogil=True, cache=True, ...)`."""
    if args and callable(args[0]) and not options:
        return Kernel(args[0], {})

    def decorate(func: Callable[..., Any]) -> Kernel:
        return Kernel(func, options)

    return decorate


def entry(kernel: Kernel) -> Kernel:
    """Mark a kernel that Python calls: a native module exports it."""
    kernel.entry = True
    return kernel


def intrinsic(func: Callable[..., Any]) -> Lazy:
    """`numba.extending.intrinsic`, lazily (its typing function imports what it needs)."""
    return Lazy(func.__module__, func.__name__,
                lambda numba: _extending().intrinsic(func))


def overload(target: Callable[..., Any], **options: Any) -> Callable[..., Any]:
    """`numba.extending.overload`, registered when the package is made real."""
    def decorate(impl: Callable[..., Any]) -> Lazy:
        return Lazy(impl.__module__, impl.__name__,
                    lambda numba: _extending().overload(target, **options)(impl))

    return decorate


def _extending() -> Any:
    return importlib.import_module("numba.extending")


def _unsafe(name: str) -> Lazy:
    return Lazy(__name__, name, lambda numba: getattr(
        importlib.import_module("numba.cpython.unsafe.numbers"), name))


# ----- Numba's private helpers, in one place -------------------------------------------
trailing_zeros = _unsafe("trailing_zeros")
leading_zeros = _unsafe("leading_zeros")


@intrinsic
def popcount(typingctx: Any, b: Any) -> Any:
    """The number of set bits of a uint64 (LLVM's ctpop: one instruction on the host).
    Kernels only: it cannot be called from Python (use `int.bit_count` there)."""
    from numba import types

    if b != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


@intrinsic
def prefetch(typingctx: Any, arr: Any, idx: Any) -> Any:
    """Asks the CPU to load arr[idx]'s cache line (no effect on results; LLVM's
    prefetch intrinsic)."""
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils

    sig = types.void(arr, idx)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]],
                                       wraparound=False)
        vp = ir.PointerType()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [vp, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # read, high locality, data cache
        builder.call(fn, [builder.bitcast(ptr, vp), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


# ----- binding ------------------------------------------------------------------------
def bind(kernel: Kernel) -> Callable[..., Any]:
    """The kernel's target: its native export if there is one, else its JIT dispatcher."""
    with _lock:
        if kernel.target is None:
            package = package_of(kernel.module)
            native = None
            if kernel.entry and native_allowed():
                from ai import native as native_module

                native = native_module.function(package, kernel.module, kernel.name)
            if native is None:
                native = kernel.real()
            kernel.target = native
        return kernel.target


def native_allowed() -> bool:
    """ARENA_NATIVE=0 keeps every kernel on the JIT (tests of the JIT path)."""
    return os.environ.get("ARENA_NATIVE", "1") != "0"


_forbidden: list[str] = []  # why this process may not compile (`forbid`)


def forbid(reason: str) -> None:
    """From now on a kernel that needs the JIT raises JitError instead of compiling: a
    contest move on native kernels must not stop for a compile (it answers another way)."""
    _forbidden[:] = [reason]


def realize(package: str) -> None:
    """Make every lazy object of `package` and of the shared modules real (Numba's JIT),
    and replace the module globals that hold lazy ones."""
    if _forbidden:
        raise JitError(f"{package} needs the JIT here: {_forbidden[0]}")
    with _lock:
        wanted = {package, *SHARED}
        _load_numba()  # (a module imported after its package was made real: same again)
        modules = [m for name, m in list(sys.modules.items())
                   if m is not None and package_of(name) in wanted]
        order = sorted((lazy for lazy in _lazies if package_of(lazy.module) in wanted),
                       key=lambda lazy: isinstance(lazy, Kernel))  # overloads first
        for lazy in order:
            lazy.materialize()
        for module in modules:
            for name, value in list(vars(module).items()):
                if isinstance(value, Lazy):
                    setattr(module, name, value.materialize())
        _realized.update(wanted)


def realized(package: str) -> bool:
    return package in _realized


def _load_numba() -> Any:
    global _numba
    if _numba is None:
        from ai import numba_cache

        numba_cache.configure()  # the cache folder must be chosen before Numba loads
        try:
            import numba
        except ImportError as err:
            raise JitError(f"Numba is not installed ({err}): the AI cannot compile") from None
        check_version(numba.__version__)
        from numba.core.errors import NumbaIRAssumptionWarning

        # Numba's pedantic SSA check warns on every compile of a search whose engine calls
        # are inlined; the compiled code is right (the differential tests say so)
        warnings.filterwarnings("ignore", category=NumbaIRAssumptionWarning)
        _numba = numba
    return _numba


def check_version(version: str) -> None:
    """JitError if `version` is outside the tested range."""
    try:
        found = tuple(int(part) for part in version.split(".")[:2])
    except ValueError:
        return  # a development build: let it try
    low, high = NUMBA_TESTED
    if not low <= found <= high:
        raise JitError(f"Numba {version} is not one Arena was tested with "
                       f"({'.'.join(map(str, low))} to {'.'.join(map(str, high))}.x): "
                       "install a version in that range")
