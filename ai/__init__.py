"""Search: one engine driver (`ai.engine`) over each game's adapter and Numba kernels
(`ai.<name>`, found by the game's name), the strength runner and the reference perft.

Importing this package loads neither Numba nor the kernels: `ai.jit` binds each kernel
on its first call, to the game's native module (`ai.native`) or to Numba's JIT.
"""
