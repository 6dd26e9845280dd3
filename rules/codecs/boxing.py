"""The Boxing Match's contest format (RULES.md section 4): `prog A < old > new`, the
arena on stdin and the mark to play as the argument; the output is the arena with one
new box of that mark, or the input unchanged when it has no vacant cell."""

from __future__ import annotations

from collections.abc import Sequence

from rules.base import MoveError, PositionError, excerpt
from rules.boxing import (
    CELLS,
    VACANT,
    WIDTH,
    Boxing,
    BoxMove,
    cell_name,
    is_mark,
    marks_for,
    marks_in,
    parse_arena,
)
from rules.codecs.base import MalformedReply, PositionCodec


class BoxingCodec(PositionCodec[Boxing]):
    args_help = "the mark to play (like A), the arena on stdin"

    def check_args(self, args: Sequence[str]) -> None:
        """One argument, the mark to play (checked before the arena is read)."""
        if not args:
            raise PositionError("give the mark to play (like A) after the game name: "
                                "the arena comes on stdin")
        if len(args) > 1:
            raise PositionError(f"give one mark to play (like A), not {len(args)} arguments")
        if not is_mark(args[0]):
            raise PositionError(f"the mark must be one printable ASCII character, not a space, "
                                f"- or o; got {excerpt(args[0])}")

    def position(self, text: str, args: Sequence[str] = ()) -> Boxing:
        """The arena, played by the mark given as the one argument (a mark the arena does
        not show yet joins the players)."""
        cells = parse_arena(text)
        if len(args) != 1:
            raise PositionError(f"Boxing's program takes one argument, the mark to play (like "
                                f"A), not {len(args)}")
        mark = args[0]
        if not is_mark(mark):
            raise PositionError(f"the mark must be one printable ASCII character, not a space, "
                                f"- or o; got {excerpt(mark)}")
        marks = marks_for(marks_in(cells), mark)
        return self.game_class(start=cells, seat_marks=marks, first=marks.index(mark))

    def idle_reply(self, game: Boxing) -> str | None:
        """An arena with no vacant cell is copied unchanged (the seed's rule)."""
        return game.to_native() if VACANT not in game.board else None

    def args(self, game: Boxing) -> list[str]:
        """`prog A`: the mark to play."""
        return [game.seat_marks[game.to_move]]

    def judge(self, game: Boxing, output: str) -> BoxMove:
        """The box the program marked: its output must be this arena with one box of the
        mover's mark more (MalformedReply if it is no arena, MoveError if the change is
        not one legal box)."""
        self.check_length(game, output)
        try:
            cells = parse_arena(output)
        except PositionError as err:
            raise MalformedReply(f"not an arena: {err}") from None
        mark = game.seat_marks[game.to_move]
        changed = [i for i in range(CELLS) if cells[i] != game.board[i]]
        if not changed:
            raise MoveError("the arena is unchanged: no box was marked")
        for i in changed:
            r, c = divmod(i, WIDTH)
            if game.board[i] != VACANT:
                raise MoveError(f"{cell_name(r, c)} was {game.board[i]!r} and became "
                                f"{cells[i]!r}: only vacant cells may be marked")
            if cells[i] != mark:
                raise MoveError(f"{cell_name(r, c)} was marked {cells[i]!r}, not {mark!r}")
        rows = [i // WIDTH for i in changed]
        cols = [i % WIDTH for i in changed]
        top, left = min(rows), min(cols)
        size = max(rows) - top + 1
        if max(cols) - left + 1 != size or len(changed) != size * size:
            raise MoveError(f"the {len(changed)} marked cells are not one square box")
        move = (top, left, size)
        if not game.is_legal(move):
            raise MoveError(f"{game.move_text(move)} is not a legal move here")
        return move


CODEC = BoxingCodec(Boxing)
