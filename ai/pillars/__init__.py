"""Pillars's engine: rectangle kernels, random play-outs, the exact misere solver and the
adapter the driver runs."""

from ai.pillars.adapter import PillarsAdapter as ADAPTER

__all__ = ["ADAPTER"]
