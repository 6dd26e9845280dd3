"""Pousse's engine: push kernels with the repetition rule and the adapter the driver runs."""

from ai.pousse.adapter import PousseAdapter as ADAPTER

__all__ = ["ADAPTER"]
