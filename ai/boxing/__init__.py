"""The Boxing Match's engine: box kernels, play-outs for any number of players, exact
two-player Grundy endgames and the adapter the driver runs."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """`ADAPTER` on first use: the adapter loads numpy and Numba, which the kernel-free
    move chooser (`ai.boxing.quick`, found through this package) must not wait for."""
    if name == "ADAPTER":
        from ai.boxing.adapter import BoxingAdapter

        return BoxingAdapter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ADAPTER"]
