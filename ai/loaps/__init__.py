"""LOAPS's engine: bitboard kernels with line counts and the adapter the driver runs."""

from ai.loaps.adapter import LoapsAdapter as ADAPTER

__all__ = ["ADAPTER"]
