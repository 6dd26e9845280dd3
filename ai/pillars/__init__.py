"""Pillars's engine: rectangle kernels, random play-outs, the exact misere solver and the
adapter the driver runs."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """`ADAPTER` on first use: the adapter loads numpy and Numba, which the kernel-free
    move chooser (`ai.pillars.quick`, found through this package) must not wait for."""
    if name == "ADAPTER":
        from ai.pillars.adapter import PillarsAdapter

        return PillarsAdapter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ADAPTER"]
