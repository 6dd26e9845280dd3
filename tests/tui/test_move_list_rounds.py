"""The move list (tui/widgets/move_list.py) with more seats than a round's width allows:
a round goes on under its first move's column, every line fits, the newest move stays in
sight, and a click on a continued line finds its move (at 80x24 a Boxing round of four or
more seats was wider than the panel: it wrapped at the panel's edge, the newest moves fell
below the panel in a long game, and clicks found the wrong moves)."""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import App, ComposeResult

from tui.widgets.move_list import Line, MoveList

TEXTS = tuple(f"{chr(65 + i % 16)}{i % 32 + 1}x{i % 7 + 1}" for i in range(60))


class ListHost(App):
    CSS = "MoveList { width: 33; height: 8; border: round white; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield MoveList(id="moves")


def shown(moves: MoveList) -> list[str]:
    return str(moves.render()).splitlines()


async def test_a_round_of_eight_goes_on_under_its_first_move() -> None:
    app = ListHost()
    async with app.run_test(size=(80, 24)) as pilot:
        moves = app.query_one(MoveList)
        await pilot.pause()
        width, height = moves.content_size
        moves.show(Line(TEXTS[:16], 8, 16))
        lines = shown(moves)
        assert height == len(lines) == 6 and all(cell_len(line) <= width for line in lines)
        assert lines[0].startswith(" 1. A1x1") and lines[1].startswith("    D4x4")
        assert [line[:4] for line in lines] == [" 1. ", "    ", "    ", " 2. ", "    ", "    "]
        # the newest at the bottom in a long game
        moves.show(Line(TEXTS, 8, len(TEXTS)))
        lines = shown(moves)
        assert len(lines) == height and lines[-1].split()[-1] == TEXTS[-1]
        # looking back: the move shown is in sight, and a click on a continued line
        moves.show(Line(TEXTS, 8, 12))
        lines = shown(moves)
        y = next(i for i, line in enumerate(lines) if TEXTS[11] in line.split())
        x = lines[y].index(TEXTS[11])
        assert lines[y].startswith("    ")
        assert moves.move_at(x, y) == 11 and moves.move_at(x + len(TEXTS[11]) - 1, y) == 11


async def test_two_seats_keep_their_rounds_side_by_side() -> None:
    app = ListHost()
    async with app.run_test(size=(80, 24)) as pilot:
        moves = app.query_one(MoveList)
        await pilot.pause()
        moves.show(Line(TEXTS[:6], 2, 6))
        assert shown(moves) == [" 1. A1x1  B2x2  2. C3x3  D4x4", " 3. E5x5  F6x6"]


async def test_round_numbers_past_99_keep_clear_of_the_moves_before_them() -> None:
    # a long 20x20 Pousse game showed "101. T2   L17102. R20  B4": the number ran into
    # the move before it
    texts = tuple(("T2", "L17", "R20", "B4")[i % 4] for i in range(210))
    app = ListHost()
    async with app.run_test(size=(80, 24)) as pilot:
        moves = app.query_one(MoveList)
        await pilot.pause()
        width = moves.content_size.width
        for count, last in ((210, "105. T2   L17"), (40, " 20. R20  B4")):
            moves.show(Line(texts[:count], 2, count))
            lines = shown(moves)
            assert all(cell_len(line) <= width for line in lines)
            assert lines[-1].endswith(last)  # the numbers as wide as the last one
            for line in lines:  # every word a move or a round's number
                assert all(word in texts or word[:-1].isdigit() and word[-1] == "."
                           for word in line.split()), line
