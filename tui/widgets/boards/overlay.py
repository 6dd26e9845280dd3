"""The AI's view on a board: each move's score turned into a shade of the place that
picks it (`GridBoard.set_overlay`).

A shade is the name of a board component class (tui/boards.tcss): `overlay-0` the
best of the moves shown to `overlay-4` the worst, relative to the spread of their
scores (a scale, not absolute values: every game scores in its own unit), and
`overlay-win` / `overlay-loss` a proven win or loss (the end of the game is seen),
which stay off the scale so that their large values do not squash it. Where several
moves share a place (a piece and its moves, a corner and its rectangles), the place
shows the best of them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping

STEPS = 5  # shades on the scale, best first
SCALE = tuple(f"overlay-{i}" for i in range(STEPS))
WIN, LOSS = "overlay-win", "overlay-loss"
SHADES = (*SCALE, WIN, LOSS)


def verdict(score: float, proven: bool) -> str | None:
    """WIN or LOSS for a proven decisive score, else None (on the scale; a proven draw
    too)."""
    if not proven or score == 0:
        return None
    return WIN if score > 0 else LOSS


def shade_targets(scores: Mapping[Hashable, float], proven: Collection[Hashable],
                  targets_of: Callable[[Hashable], Iterable[Hashable]]) -> dict[Hashable, str]:
    """Each place's shade: `targets_of(move)` the places that show `move`.

    A place shows its best move: a proven win wins, a proven loss shows only where
    every move there loses; the others sit on the scale between the best and the worst
    unproven score of all the moves given (one score, or all equal: all the best)."""
    free = [s for m, s in scores.items() if verdict(s, m in proven) is None]
    top, bottom = (max(free), min(free)) if free else (0.0, 0.0)
    spread = top - bottom
    rank = {WIN: 2, None: 1, LOSS: 0}
    best: dict[Hashable, tuple[int, float, str | None]] = {}
    for move, score in scores.items():
        kind = verdict(score, move in proven)
        key = (rank[kind], score, kind)
        for target in targets_of(move):
            if target not in best or key[:2] > best[target][:2]:
                best[target] = key
    out = {}
    for target, (_r, score, kind) in best.items():
        if kind is not None:
            out[target] = kind
        else:
            step = round((top - score) / spread * (STEPS - 1)) if spread > 0 else 0
            out[target] = SCALE[max(0, min(STEPS - 1, step))]
    return out
