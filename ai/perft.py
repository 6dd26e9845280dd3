"""Reference perft through `rules`: the oracle the kernels' perft is checked against."""

from __future__ import annotations

from rules import Game


def reference_perft(game: Game, depth: int, joker: bool = False) -> list[int]:
    """Leaf counts for depths 1..depth by playing and undoing `rules` moves (a game with a
    joker counts its claiming twins only with `joker`)."""
    counts = [0] * depth

    def walk(ply: int) -> None:
        if ply == depth or game.is_over:
            return
        for move in game.perft_moves(joker):
            counts[ply] += 1
            game.play(move)
            walk(ply + 1)
            game.undo()

    walk(0)
    return counts
