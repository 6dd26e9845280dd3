"""The headless play package: everything that plays a game without a screen.

The turn driver and the players, the jury that hosts other people's contest programs
(and the reaper that cleans up after them), Arena's own contest program, `arena match`
and its report, the start-up benchmark and the ahead-of-time build. Nothing here imports
Textual: the app (`tui.app`, `tui.screens`, `tui.widgets`) and the CLI (`tui.cli`) use
it, and an import contract checked in the test run keeps it so.
"""
