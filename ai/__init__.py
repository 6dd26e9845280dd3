"""Search: one engine driver (`ai.engine`) over each game's adapter and Numba kernels
(`ai.<name>`, found by the game's name), the strength runner and the reference perft.

Importing this package fixes Numba's cache folder before Numba loads.
"""

from ai.numba_cache import configure as _configure_cache

_configure_cache()
