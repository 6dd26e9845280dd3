"""The terminal app (Textual, in `tui.app`) and the `arena` command (`tui.cli`).

Kept import-light on purpose: `tui.cli` is imported by the contest program,
which must start fast, so nothing here may import Textual or Numba.
"""
