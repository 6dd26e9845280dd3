"""LOAPS's engine: bitboard kernels with line counts and the adapter the driver runs."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """`ADAPTER` on first use: the adapter loads numpy and Numba, which the kernel-free
    move chooser (`ai.loaps.quick`, found through this package) must not wait for."""
    if name == "ADAPTER":
        from ai.loaps.adapter import LoapsAdapter

        return LoapsAdapter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ADAPTER"]
