"""Pah-Tum's engine: bitboard kernels and the adapter the engine driver runs."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """`ADAPTER` on first use: the adapter loads numpy and Numba, which the kernel-free
    move chooser (`ai.pahtum.quick`, found through this package) must not wait for."""
    if name == "ADAPTER":
        from ai.pahtum.adapter import PahTumAdapter

        return PahTumAdapter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ADAPTER"]
