"""`python -m tui.cli`: the `arena` command."""

from tui.cli import main

main()
