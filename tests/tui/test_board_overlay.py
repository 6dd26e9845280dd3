"""The AI's view on the board: scores turned into shades (`overlay.shade_targets`), each
game's move shown where it is picked (`overlay_targets`), and the shades drawn."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from conftest import Host, random_position

from rules.loaps import SIZE as LOAPS_SIZE
from tui.widgets.boards.grid import GridBoard
from tui.widgets.boards.overlay import LOSS, SCALE, SHADES, WIN, shade_targets

SIZE = (80, 24)
# where each game's move shows: the place its first choice picks (a LOAPS move: both)
EXPECTED: dict[str, Callable[[Hashable], list[Hashable]]] = {
    "pahtum": lambda m: [m],
    "loaps": lambda m: [m[0], m[1]],  # type: ignore[index]
    "pillars": lambda m: [m[0] * 10 + m[1]],  # type: ignore[index]  # the top left corner
    "boxing": lambda m: [m[0] * 32 + m[1]],  # type: ignore[index]  # the top-left cell
    "pousse": lambda m: [m],  # the insertion point on the frame
}


def one(move: Hashable) -> list[Hashable]:
    return [move]


def test_shades_run_from_the_best_to_the_worst() -> None:
    shades = shade_targets({"a": 10, "b": 5, "c": 0, "d": 7.5}, (), one)
    assert shades == {"a": SCALE[0], "b": SCALE[2], "c": SCALE[4], "d": SCALE[1]}
    assert set(shade_targets({"a": 3, "b": 3}, (), one).values()) == {SCALE[0]}  # all best
    assert shade_targets({}, (), one) == {}


def test_proven_results_stand_apart_and_a_place_shows_its_best_move() -> None:
    scores = {"win": 1000, "lose": -1000, "draw": 0, "good": 40, "bad": -40}
    shades = shade_targets(scores, {"win", "lose", "draw"}, one)
    assert shades["win"] == WIN and shades["lose"] == LOSS
    # the scale spans the unproven moves only (a proven draw is on it)
    assert (shades["good"], shades["draw"], shades["bad"]) == (SCALE[0], SCALE[2], SCALE[4])
    # a place showing several moves: its best; a loss only where every move there loses
    places = {"win": ["p"], "good": ["p", "q"], "lose": ["q", "r"]}
    shades = shade_targets({m: scores[m] for m in places}, {"win", "lose"}, places.__getitem__)
    assert shades == {"p": WIN, "q": SCALE[0], "r": LOSS}


def reachable(board: GridBoard) -> set[Hashable]:
    """Every target a click can pick somewhere on the board as drawn."""
    size = board.content_size
    return {t for x in range(size.width) for y in range(size.height)
            if (t := board.target_at(x, y)) is not None}


def backgrounds(board: GridBoard) -> set[str]:
    """The shades whose background the board's picture shows."""
    colours = {board.style(s).bgcolor: s for s in SHADES}
    text = board.render()
    return {colours[span.style.bgcolor] for span in text.spans  # type: ignore[union-attr]
            if not isinstance(span.style, str) and span.style.bgcolor in colours}


async def test_every_legal_move_shows_where_it_is_picked(game_name: str) -> None:
    game = random_position(game_name, seed=3, plies=6)
    app = Host(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.board
        places = reachable(board)
        moves = game.legal_moves()
        for move in moves:
            targets = list(board.overlay_targets(move))
            assert targets == EXPECTED[game_name](move), game.move_text(move)
            assert set(targets) <= set(board.choices_for(move)) and set(targets) <= places
        assert backgrounds(board) == set()
        # the moves ranked in turn: the best's place and the worst's both shaded
        board.set_overlay({m: float(i) for i, m in enumerate(reversed(moves))})
        await pilot.pause()
        shown = backgrounds(board)
        assert SCALE[0] in shown and SCALE[-1] in shown and WIN not in shown
        board.set_overlay({moves[-1]: 500.0}, proven={moves[-1]})  # off the cursor
        await pilot.pause()
        assert backgrounds(board) == {WIN}
        board.set_overlay(None)
        await pilot.pause()
        assert backgrounds(board) == set()


Shades = dict[Hashable, str]


async def shades_around_a_choice(
        name: str, first: Callable[[list[Hashable], Shades], Hashable],
) -> tuple[list[Hashable], Hashable, Shades, Shades, Shades]:
    """A position's moves ranked on the AI's view; the first choice `first` picks is
    made, then let go (Esc): the moves, the choice and the shades before, with it and
    after."""
    game = random_position(name, seed=3, plies=6)
    app = Host(game)
    async with app.run_test(size=SIZE) as pilot:
        board = app.board
        moves = game.legal_moves()
        board.set_overlay({m: float(i) for i, m in enumerate(moves)})
        everywhere = board.overlay_map()
        choice = first(moves, everywhere)
        board.choose(choice)
        await pilot.pause()
        chosen = board.overlay_map()
        board.action_cancel()
        await pilot.pause()
        return moves, choice, everywhere, chosen, board.overlay_map()


async def test_a_chosen_loaps_piece_shades_its_own_squares() -> None:
    moves, piece, everywhere, mine, after = await shades_around_a_choice(
        "loaps", lambda moves, _shades: moves[0][0])
    assert set(mine) == {piece} | {to for frm, to in moves if frm == piece}
    assert set(mine) < set(everywhere) and all(0 <= sq < LOAPS_SIZE ** 2 for sq in mine)
    assert after == everywhere


def pillars_corners(move: Hashable) -> tuple[int, ...]:
    t, lc, b, r, _claim = move  # type: ignore[misc]
    return t * 10 + lc, t * 10 + r, b * 10 + lc, b * 10 + r


async def test_an_anchored_pillars_corner_shades_the_opposite_corners() -> None:
    def busiest(moves: list[Hashable], shades: Shades) -> Hashable:  # most rectangles' corner
        return max(shades, key=lambda cell: sum(cell in pillars_corners(m) for m in moves))

    moves, anchor, everywhere, shown, after = await shades_around_a_choice("pillars", busiest)
    row, col = divmod(anchor, 10)  # type: ignore[call-overload]
    opposite = {(m[0] + m[2] - row) * 10 + m[1] + m[3] - col  # type: ignore[index]
                for m in moves if anchor in pillars_corners(m)}
    assert set(shown) == opposite | {anchor} and len(shown) > 2
    assert after == everywhere  # the anchor let go: every top left corner again


def test_shades_have_their_own_colours() -> None:
    from tui.widgets.boards.grid import CSS_FILE

    css = CSS_FILE.read_text(encoding="utf-8")
    for shade in SHADES:
        assert f".grid-board--{shade} " in css


def test_a_board_without_scores_has_no_shades() -> None:
    board = GridBoard()
    assert board.overlay_map() == {}
    board.overlay_scores = {}
    assert board.overlay_map() == {}
