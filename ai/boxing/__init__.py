"""The Boxing Match's engine kernels (the adapter comes with the engine)."""
