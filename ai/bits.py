"""Bit helpers every game's kernels share."""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, b):
    """The number of set bits of a uint64 (LLVM's ctpop: one instruction on the host).
    Kernels only: it cannot be called from Python (use `int.bit_count` there)."""
    if b != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen
