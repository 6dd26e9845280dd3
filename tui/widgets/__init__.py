"""Board widgets (one per game, see `boards.py`) and the shared side panels."""
