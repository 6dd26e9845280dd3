"""Bit and random-number helpers every game's kernels share."""

from __future__ import annotations

import numpy as np

from ai.jit import njit, popcount

__all__ = ["below", "mix_seed", "next_random", "popcount", "ucb_pick"]


@njit(nogil=True, cache=True, inline="always")
def next_random(s: np.uint64) -> np.uint64:
    """xorshift64."""
    s ^= s << np.uint64(13)
    s ^= s >> np.uint64(7)
    s ^= s << np.uint64(17)
    return s


@njit(nogil=True, cache=True, inline="always")
def below(s: np.uint64, n: int) -> int:
    """A number in [0, n) from the random state `s`."""
    return np.int64(((s >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(nogil=True, cache=True)
def mix_seed(seed: np.uint64, i: int) -> np.uint64:
    """A non-zero random state for play-out stream `i` of `seed` (splitmix64)."""
    x = seed + np.uint64(i + 1) * np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x | np.uint64(1)


@njit(nogil=True, cache=True, inline="always")
def ucb_pick(visits: np.ndarray, wins: np.ndarray, n: int, total: int,
             explore: float) -> int:
    """UCB1's choice among `n` root moves with `total` play-outs so far: an unvisited one
    first, else the best mean win rate plus `explore` times the confidence term."""
    best, best_value = 0, -1.0
    log_total = np.log(total + 1.0)
    for i in range(n):
        if visits[i] == 0:
            return i
        value = wins[i] / visits[i] + explore * np.sqrt(log_total / visits[i])
        if value > best_value:
            best, best_value = i, value
    return best
