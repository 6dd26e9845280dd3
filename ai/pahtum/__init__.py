"""Pah-Tum's engine: bitboard kernels and the adapter the engine driver runs."""

from ai.pahtum.adapter import PahTumAdapter as ADAPTER

__all__ = ["ADAPTER"]
