"""LOAPS rules (RULES.md section 2): movement, points, the connection cases, the endings,
the native file and the seed's three sample input files."""

from __future__ import annotations

import random

import pytest

from rules import MoveError, PositionError
from rules.loaps import CONNECTION, MOVE_LIMIT_DRAW, NO_MOVES, Loaps, parse_square, square_name

SAMPLES = (  # the seed's three sample input files, as printed there
    "1 1\n1 0 60.0\n2 0 60.0\n.11.11.\n2.....2\n2.....2\n.......\n2.....2\n2.....2\n.11.11.\n",
    "1 10\n1  4  5.34\n2  5  9.49\n.11....\n2....1.\n2.2.2..\n..1...1\n......2\n22.....\n.11....\n",
    "2 28\n1 13  8.91\n2  7 40.7\n.1..11.\n2....2.\n.......\n...1.1.\n2.....2\n......2\n.1..1..\n",
)


def position(rows: str, mover: int = 1, number: int = 20, points: tuple[int, int] = (0, 0),
             left: tuple[float, float] = (60.0, 60.0)) -> Loaps:
    """A game from 7 board lines (rank 7 first) and the header's numbers."""
    board = [line.strip() for line in rows.strip().splitlines()]
    head = (f"{mover} {number}\n1 {points[0]} {left[0]}\n2 {points[1]} {left[1]}\n")
    return Loaps.from_native(head + "\n".join(board) + "\n")


def targets(game: Loaps, square: str) -> set[str]:
    return {square_name(t) for t in game.destinations(parse_square(square))}


def play(game: Loaps, text: str) -> None:
    game.play(game.parse_move(text))


# ----- the start and the seed's samples ---------------------------------------------------


def test_start_position_and_first_moves() -> None:
    game = Loaps.new()
    assert Loaps.from_native(SAMPLES[0]).key() == game.key()
    assert game.to_move == 0 and game.scores() == (0, 0) and game.made == [0, 0]
    assert len(game.legal_moves()) == 24
    assert targets(game, "b7") == {"b5", "d5"}  # column b holds 2; the diagonal b7-g2, 2
    assert targets(game, "c7") == {"c5", "a5", "e5", "g7"}  # row 7 holds 4: c7 to g7


def test_seed_sample_files() -> None:
    second = Loaps.from_native(SAMPLES[1])
    assert (second.to_move, second.made, second.scores()) == (0, [9, 9], (4, 5))
    assert second.seconds_left == (5.34, 9.49)
    third = Loaps.from_native(SAMPLES[2])
    # "Ready for the 28th move by player two": player 1 has made 28 moves, player 2 27
    assert (third.to_move, third.made, third.scores()) == (1, [28, 27], (13, 7))
    assert third.seconds_left == (8.91, 40.7)
    assert len(third.legal_moves()) == 18  # as the C perft counts at depth 1


def test_native_round_trip_keeps_clocks_points_and_move_number() -> None:
    third = Loaps.from_native(SAMPLES[2])
    text = third.to_native()
    assert text.splitlines()[:3] == ["2 28", "1 13 8.91", "2 7 40.70"]
    assert Loaps.from_native(text).key() == third.key()
    assert third.native_text([3.456, None]).splitlines()[1:3] == ["1 13 3.45", "2 7 60.00"]
    play(third, third.move_text(third.legal_moves()[0]))
    assert third.to_native().splitlines()[0] == "1 29"
    assert third.start_native() == text  # the start, as loaded


# ----- movement ----------------------------------------------------------------------------


def test_a_piece_moves_as_far_as_its_line_holds_pieces() -> None:
    game = position("""
        .......
        .......
        .......
        ...1...
        .......
        .......
        2......""")
    # alone on its row, column and anti-diagonal: one square; the a1-g7 diagonal holds 2
    assert targets(game, "d4") == {"c4", "e4", "d5", "d3", "c5", "e3", "f6", "b2"}


def test_over_own_pieces_never_over_the_others_captures_and_edges() -> None:
    game = position("""
        .......
        .......
        .......
        11.2..1
        .......
        .......
        2.2....""")
    # row 4 holds 4: a4 jumps b4 to e4, but d4 (blue) is in the way
    assert "e4" not in targets(game, "a4")
    assert game.problem((parse_square("a4"), parse_square("e4"))) == (
        "a4 cannot jump over the other side's piece on d4")
    # g4 would leave the board going right; going left it would pass d4 (blue)
    assert "c4" not in targets(game, "g4")
    # b4 moves 4 along the row: f4 is past d4 (blue), and left of b4 is the edge
    assert "f4" not in targets(game, "b4")
    # a column: b4 alone on file b moves one square; capture by landing
    assert {"b5", "b3"} <= targets(game, "b4")
    capture = position("""
        .......
        .......
        .......
        1.2....
        .......
        .......
        .2....2""")
    assert "c4" in targets(capture, "a4")  # row holds 2: lands on c4, a capture
    own = position("""
        .......
        .......
        .......
        1.1....
        .......
        .......
        2.2....""")
    assert "c4" not in targets(own, "a4")
    assert own.problem((parse_square("a4"), parse_square("c4"))) == "c4 holds your own piece"
    assert own.problem((parse_square("a4"), parse_square("d4"))).startswith(
        "a4 moves exactly 2 squares along that line")
    assert own.problem((parse_square("a4"), parse_square("b6"))).startswith(
        "b6 is not on a line through a4")
    assert own.problem((parse_square("a1"), parse_square("a2"))).startswith(
        "a1 is the other side's piece")


def test_illegal_moves_are_refused_with_the_reason_and_nothing_changes() -> None:
    game = Loaps.new()
    before = game.key()
    with pytest.raises(MoveError, match="d4 is empty"):
        play(game, "d4 d5")
    with pytest.raises(MoveError, match="moves exactly 2 squares"):
        play(game, "b7 b6")
    assert game.key() == before and not game.history


@pytest.mark.parametrize("text", ["b7 b5", "B7-B5", "b7b5", "b7xb5", " b7  b5 ", "b7:b5"])
def test_move_notation(text: str) -> None:
    game = Loaps.new()
    assert game.move_text(game.parse_move(text)) == "b7 b5"


@pytest.mark.parametrize("text", ["", "b7", "b7 b8", "h1 a1", "b7 b5 c3", "e2e4e5", "b 7 b 5"])
def test_bad_move_text(text: str) -> None:
    with pytest.raises(MoveError):
        Loaps.new().parse_move(text)


# ----- points and the connection cases -------------------------------------------------------


def test_points_for_landing_captures_and_bonus_squares() -> None:
    centre = position("""
        ......1
        .......
        .......
        ..1....
        .......
        .......
        2.....2""")
    play(centre, "c4 d4")  # alone on row 4: one square, onto d4: +7
    assert centre.scores() == (7, 0) and not centre.is_over
    centre.undo()
    assert centre.scores() == (0, 0) and centre.made == [19, 19]
    capture = position("""
        ......1
        .......
        .......
        1.2....
        .......
        .......
        2.....2""")
    play(capture, "a4 c4")  # row 4 holds 2: onto c4, a capture: +1
    assert capture.scores() == (1, 0) and capture.captured_last()
    corner = position("""
        ......1
        .......
        .......
        .......
        .......
        .2.1...
        2.....2""", points=(5, 6))
    play(corner, "d2 b2")  # row 2 holds 2: onto b2, a capture on a 3 square: +4
    assert corner.scores() == (9, 6) and not corner.is_over


def test_mover_connecting_scores_12_and_ends_the_game() -> None:
    game = position("""
        .......
        .......
        .......
        ..11...
        .......
        .1...2.
        2.....2""", points=(3, 2))
    play(game, "b2 b3")  # alone on file b: one square, next to c4
    outcome = game.outcome
    assert outcome is not None and outcome.ending == CONNECTION
    assert game.scores() == (15, 2) and outcome.winners == (0,)


def test_connection_cases_in_their_order() -> None:
    # red c4 captures on d4? no: red b4 moves along row 4 (b4, d4: 2 pieces) onto d4, a
    # capture, +7 for d4, and red is then connected (c5 next to d4)
    game = position("""
        .......
        .......
        ..1....
        .1.2...
        .......
        ....2..
        ......2""", points=(0, 0))
    play(game, "b4 d4")
    outcome = game.outcome
    assert outcome is not None and outcome.ending == CONNECTION
    assert game.scores() == (1 + 7 + 12, 0) and outcome.winners == (0,)
    assert "red connected" in outcome.reason


def test_mover_connects_even_when_the_other_side_is_connected_too() -> None:
    game = position("""
        .......
        .......
        ..1....
        .1.2...
        ...2...
        .......
        .......""")
    play(game, "b4 d4")  # captures d4: blue's d3 is alone (connected); red connects first
    assert game.scores() == (20, 0)
    assert game.outcome is not None and game.outcome.winners == (0,)


def test_a_capture_that_leaves_the_other_side_connected_gives_it_12() -> None:
    game = position("""
        .......
        ......1
        .......
        .1.2...
        ...2...
        .......
        1......""", points=(0, 5))
    play(game, "b4 d4")  # captures d4 (+1 +7); red is not connected; blue's d3 is alone
    outcome = game.outcome
    assert outcome is not None and outcome.ending == CONNECTION
    assert game.scores() == (8, 17)
    assert outcome.winners == (1,)  # the capturer ends behind: blue wins on points
    assert "left blue connected" in outcome.reason


def test_connecting_behind_on_points_loses() -> None:
    game = position("""
        .......
        .......
        .......
        .1..1..
        .......
        .......
        2.....2""", number=10, points=(0, 30))
    play(game, "b4 d4")  # +7 on d4, +12 for the connection: 19 against 30
    outcome = game.outcome
    assert outcome is not None and outcome.ending == CONNECTION
    assert game.scores() == (19, 30) and outcome.winners == (1,)
    tie = position("""
        .......
        .......
        .......
        .1..1..
        .......
        .......
        2.....2""", number=10, points=(11, 30))
    play(tie, "b4 d4")
    assert tie.scores() == (30, 30)
    assert tie.outcome is not None and tie.outcome.is_draw


def test_capturing_the_last_piece_is_not_a_connection_and_the_stuck_side_loses() -> None:
    game = position("""
        .......
        .......
        .......
        .1.2...
        .......
        .......
        1......""", number=20)
    play(game, "b4 d4")  # blue's last piece: blue has none, so it is not connected
    outcome = game.outcome
    assert outcome is not None and outcome.ending == NO_MOVES
    assert outcome.winners == (0,) and game.scores() == (8, 0)


# ----- the other endings --------------------------------------------------------------------


def test_fifty_move_draw_whatever_the_points_and_before_no_legal_move() -> None:
    game = position("""
        .......
        .......
        .......
        .2.1...
        .......
        .......
        2.....2""", mover=2, number=50, points=(40, 0))
    play(game, "b4 d4")  # blue takes red's last piece with its 50th move: both made 50
    outcome = game.outcome
    assert outcome is not None and outcome.ending == MOVE_LIMIT_DRAW
    assert outcome.is_draw and game.scores() == (40, 8)
    game.undo()
    play(game, "b4 b5")  # a quiet last move: the draw all the same
    assert game.outcome is not None and game.outcome.ending == MOVE_LIMIT_DRAW


def test_no_legal_move_loses() -> None:
    game = position("""
        12.....
        2......
        .......
        .2.....
        .......
        .......
        ......2""", mover=2, number=20)
    play(game, "b4 b6")  # column b holds 2: b4 to b6; red's a7 is walled in
    outcome = game.outcome
    assert outcome is not None and outcome.ending == NO_MOVES
    assert outcome.winners == (1,) and "red has no legal move" in outcome.reason
    stuck = Loaps.from_native(game.to_native())  # a file with no legal move is over
    assert stuck.is_over and stuck.legal_moves() == []


def test_a_file_with_a_side_already_connected_is_played_on() -> None:
    game = Loaps.from_native(SAMPLES[1].replace("..1...1", "..1....").replace(
        "2....1.", "2......"))
    assert not game.is_over


def test_undo_restores_everything_over_random_games() -> None:
    rng = random.Random(7)
    kinds = set()
    for _ in range(60):
        game = Loaps.new()
        keys = [game.key()]
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
            keys.append(game.key())
        kinds.add(game.outcome.ending)  # type: ignore[union-attr]
        while game.history:
            keys.pop()
            game.undo()
            assert game.key() == keys[-1] and not game.is_over
    assert {CONNECTION, MOVE_LIMIT_DRAW} <= kinds


def test_panel_lines_show_the_move_number_and_groups() -> None:
    game = Loaps.new()
    assert game.panel_lines() == ["move 1 of 50", "1 red: 4 groups (2+2+2+2)",
                                  "2 blue: 4 groups (2+2+2+2)"]
    third = Loaps.from_native(SAMPLES[2])
    assert third.panel_lines()[0] == "move 28 of 50"
    one = Loaps.from_native("1 10\n1 0 60.00\n2 0 60.00\n.1.....\n2.....2\n2.....2\n"
                            ".......\n2.....2\n2.....2\n.......\n")
    assert one.panel_lines()[1] == "1 red: 1 piece, connected"


def test_a_finished_game_shows_its_last_move_number() -> None:
    """Once over, the number is the last move's, as the moves panel numbers its rounds
    (red's 13th move ending the game is move 13, not blue's next, 12 + 1 or 12)."""
    rng = random.Random(5)
    for _ in range(20):
        game = Loaps.new()
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        rounds = (len(game.history) + 1) // 2
        assert game.panel_lines()[0] == f"move {rounds} of 50"


# ----- bad files -----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "says"), [
    ("", "empty input"),
    ("1 1\n", "expected 10 lines"),
    (SAMPLES[0].replace("1 1\n", "3 1\n", 1), "must be 1 or 2"),
    (SAMPLES[0].replace("1 1\n", "1 51\n", 1), "1 to 50"),
    (SAMPLES[0].replace("1 1\n", "1 0\n", 1), "1 to 50"),
    (SAMPLES[0].replace("1 1\n", "1\n", 1), "line 1 must be"),
    (SAMPLES[1].replace("1  4  5.34", "1  4", 1), "line 2 must be"),
    (SAMPLES[1].replace("2  5  9.49", "1  5  9.49", 1), "line 3 must be"),
    (SAMPLES[1].replace("5.34", "-5", 1), "seconds"),
    (SAMPLES[1].replace("1  4", "1  x", 1), "points"),
    (SAMPLES[1].replace("1  4", "1  400", 1), "at most 72 are possible"),
    (SAMPLES[0].replace("1 0 60.0", "1 3 60.0", 1), "at most 0 are possible"),
    (SAMPLES[0].replace(".......", "...1...", 1), "9 pieces"),
    (SAMPLES[0].replace(".......", "..x....", 1), "only 1, 2 and ."),
    (SAMPLES[0].replace(".......", "........", 1), "7 squares"),
    (SAMPLES[0].replace(".11.11.", "..1.11.", 1), "has made only 0 moves"),
])
def test_bad_native_files(text: str, says: str) -> None:
    with pytest.raises(PositionError, match=says):
        Loaps.from_native(text)
