"""The Boxing Match's engine: box kernels, play-outs for any number of players, exact
two-player Grundy endgames and the adapter the driver runs."""

from ai.boxing.adapter import BoxingAdapter as ADAPTER

__all__ = ["ADAPTER"]
