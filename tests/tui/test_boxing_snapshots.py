"""SVG snapshots at 80x24 of Boxing: the setup screen with three players, a two-player game
early on the seed's sample arena with a box previewed, and a three-player game's end screen.

Frozen clocks; the game pictures depend only on the keys pressed (and, for the end screen,
on the moves played before the last few, which are fixed here).
"""

from __future__ import annotations

from rules import PlayerSpec, game_names
from tests.tui.test_app import play_by_keys
from tests.tui.test_snapshots import SIZE, frozen_app, own_saves_folder  # noqa: F401 (autouse)

ANN, BOB, CY = PlayerSpec.human("Ann"), PlayerSpec.human("Bob"), PlayerSpec.human("Cy")
# a three-player game on the sample arena, greedy boxes (the largest that do not hand the
# next player the rest), to the last cell; A fills it
GREEDY = ("A21x11 D5x11 A16x5 L16x5 L21x5 L26x5 A1x4 E1x4 A7x3 A10x3 A13x3 F18x3 N1x3 A5x2 "
          "F16x2 I1x2 I3x2 J16x2 K1x2 L31x2 N31x2 O4x2 O6x2 O8x2 O10x2 O12x2 O14x2 A32x1 B32x1 "
          "C5x1 C32x1 D32x1 E32x1 F32x1 G32x1 H16x1 H32x1 I17x1 I19x1 I20x1 I32x1 J18x1 J20x1 "
          "K18x1 K19x1 K32x1 M1x1 M2x1 N4x1").split()
BY_KEYS = 4  # the last moves, played by keys



def test_boxing_setup_with_three_players(snap_compare) -> None:
    # Boxing from the menu, then Players 2 -> 3: the seats A, B and C
    keys = [*["down"] * game_names().index("boxing"), "enter", "enter", "down", "enter"]
    assert snap_compare(frozen_app(), press=keys, terminal_size=SIZE)


def test_boxing_sample_arena_early_with_a_box_previewed(snap_compare) -> None:
    app = frozen_app("boxing", options={"arena": "sample"}, players=(ANN, BOB))
    # A marks A1x4 (a size typed); B E20x5, the last move (in reverse); A's cursor on I10
    # with size 3 previews I10x3
    keys = ["4", "enter", *["down"] * 4, *["right"] * 19, "5", "enter",
            *["left"] * 10, *["down"] * 4, "minus", "minus"]
    assert snap_compare(app, press=keys, terminal_size=SIZE)


def test_boxing_three_player_game_over(snap_compare) -> None:
    app = frozen_app("boxing", options={"players": 3, "arena": "sample"}, players=(ANN, BOB, CY))

    async def play(pilot) -> None:
        screen = app.screen
        game = screen.session.game
        for text in GREEDY[:-BY_KEYS]:
            screen._play(game.parse_move(text))
        await pilot.pause()
        for text in GREEDY[-BY_KEYS:]:
            await play_by_keys(pilot, screen.board, game.parse_move(text))
        assert game.is_over and game.seat_marks[game.outcome.winner] == "A"

    assert snap_compare(app, run_before=play, terminal_size=SIZE)
