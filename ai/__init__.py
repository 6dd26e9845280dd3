"""Search: Numba kernels mirroring `rules`, engines that choose moves, levels.

Importing this package fixes Numba's cache folder before Numba loads.
"""

from ai.numba_cache import configure as _configure_cache

_configure_cache()
