"""Pah-Tum rules: the seed's examples, native positions, moves, scoring and matches."""

from __future__ import annotations

import pytest

from rules import MoveError, PositionError, SumOfMargins, get_game
from rules.outcome import Outcome, Termination
from rules.pahtum import (
    BLOCK,
    BOARD_FULL,
    EMPTY,
    RUN_POINTS,
    SAMPLE_BOARD,
    PahTum,
    cell_name,
    parse_cell,
    random_board,
    score,
    scoring_runs,
)

# The seed's scoring example with the O's removed (section V.4).
SEED_EXAMPLE = """\
XXXXXXX
XX-XXX+
X-X+XX-
----X--
--++X--
---XXXX
+------
"""

# The seed's game in progress (section III): 8 X's and 8 O's.
SEED_IN_PROGRESS = """\
XO-OXX-
------+
---+-O-
O------
--++---
--XXXX-
+X-OOOO
"""


def test_registry_finds_pahtum() -> None:
    assert get_game("pahtum") is PahTum
    assert get_game("Pah-Tum") is PahTum


def test_seed_worked_example_scores_194_to_100() -> None:
    x_board = SEED_EXAMPLE.replace("\n", "")
    # "when the O replaces all of the - in the diagram"
    o_board = x_board.replace(EMPTY, "O")
    assert score(x_board, "X") == 194
    assert score(o_board, "O") == 100
    game = PahTum.from_native("".join(o_board[r * 7:(r + 1) * 7] + "\n" for r in range(7)))
    assert game.is_over
    outcome = game.outcome
    assert outcome is not None
    assert outcome.points == (194, 100)
    assert outcome.winner == 0
    assert "194" in outcome.reason


def test_scoring_breakdown_runs() -> None:
    board = SEED_EXAMPLE.replace("\n", "")
    runs = scoring_runs(board, "X")
    points = sorted(p for _, p in runs)
    assert points == sorted([119, 3, 10, 3, 56, 3])
    # column 5 (index 4) from A down to F: the run of 6
    six = [cells for cells, p in runs if p == 56]
    assert six == [tuple(r * 7 + 4 for r in range(6))]


def test_runs_breakdown_on_game() -> None:
    game = PahTum.from_native(SEED_IN_PROGRESS)
    x_runs = game.runs(0)
    o_runs = game.runs(1)
    assert [p for _, p in x_runs] == [10]  # F3-F6
    assert [p for _, p in o_runs] == [10]  # G4-G7
    assert game.scores() == (10, 10)


def test_run_points_follow_the_recurrence() -> None:
    for n in range(3, 8):
        line = "X" * n + "O" * (7 - n)
        board = line + "O" * 42
        expected = [0, 0, 0, 3, 10, 25, 56, 119][n]
        assert scoring_runs(board, "X") == [(tuple(range(n)), expected)]
    for n in range(4, 8):
        assert RUN_POINTS[n] == 2 * RUN_POINTS[n - 1] + n
    assert score("XX-XX-X" + "-" * 42, "X") == 0


def test_in_progress_board_has_x_to_move() -> None:
    game = PahTum.from_native(SEED_IN_PROGRESS)
    letters = sum(c in "XO" for c in game.board)
    assert letters == 16
    assert game.to_move == 0
    assert game.empty_count() == 28
    assert len(game.legal_moves()) == 28


@pytest.mark.parametrize(("xs", "os_", "mover"), [(0, 0, 0), (1, 0, 1), (1, 1, 0), (3, 2, 1)])
def test_side_to_move_from_counts(xs: int, os_: int, mover: int) -> None:
    cells = ["-"] * 49
    cells[48] = BLOCK
    for i in range(xs):
        cells[i] = "X"
    for i in range(os_):
        cells[10 + i] = "O"
    text = "".join("".join(cells[r * 7:(r + 1) * 7]) + "\n" for r in range(7))
    assert PahTum.from_native(text).to_move == mover


def _native(cells: str) -> str:
    return "".join(cells[r * 7:(r + 1) * 7] + "\n" for r in range(7))


BAD_POSITIONS = {
    "empty": "",
    "too short": SAMPLE_BOARD[:-8],
    "no final newline": SAMPLE_BOARD[:-1],
    "long line": SAMPLE_BOARD.replace("-------\n", "--------\n", 1),
    "short line": SAMPLE_BOARD.replace("-------\n", "------\n", 1),
    "eight lines": SAMPLE_BOARD + "-------\n",
    "bad char": SAMPLE_BOARD.replace("-", "x", 1),
    "space": SAMPLE_BOARD.replace("-", " ", 1),
    "crlf": SAMPLE_BOARD.replace("\n", "\r\n"),
    "no blocks": _native("-" * 49),
    "even blocks": _native("++" + "-" * 47),
    "27 blocks": _native("+" * 27 + "-" * 22),
    "O ahead": _native("+O" + "-" * 47),
    "X two ahead": _native("+XX" + "-" * 46),
}


@pytest.mark.parametrize("name", sorted(BAD_POSITIONS))
def test_bad_native_positions_are_refused(name: str) -> None:
    with pytest.raises(PositionError):
        PahTum.from_native(BAD_POSITIONS[name])


def test_native_round_trip_and_sample() -> None:
    game = PahTum.from_native(SEED_IN_PROGRESS)
    assert game.to_native() == SEED_IN_PROGRESS
    assert len(game.to_native()) == 56
    sample = PahTum.new({"board": "sample"})
    assert sample.to_native() == SAMPLE_BOARD
    assert sample.options["blocked"] == ["B7", "C4", "E3", "E4", "G1"]
    assert sample.empty_count() == 44


def test_random_boards_are_seedable_and_valid() -> None:
    for seed in range(30):
        a = PahTum.new(seed=seed)
        b = PahTum.new(seed=seed)
        assert a.to_native() == b.to_native()
        blocks = a.board.count(BLOCK)
        assert blocks % 2 == 1 and 1 <= blocks <= 25
        assert PahTum.from_native(a.to_native()).board == a.board
    assert {PahTum.new(seed=s).to_native() for s in range(10)}.__len__() > 1
    fixed = PahTum.new({"blocks": "7"}, seed=3)
    assert fixed.board.count(BLOCK) == 7
    with pytest.raises(PositionError):
        random_board(4, 1)
    with pytest.raises(PositionError):
        PahTum.new({"blocks": "many"})


def test_move_parsing() -> None:
    game = PahTum.new({"board": "sample"})
    assert game.parse_move("A1") == 0
    assert game.parse_move(" g7 ") == 48
    assert game.parse_move("B7") == 13
    assert cell_name(13) == "B7"
    for c in range(49):
        assert parse_cell(cell_name(c)) == c
    for bad in ("", "A", "A0", "A8", "H1", "11", "A11", "AA"):
        with pytest.raises(MoveError):
            game.parse_move(bad)
    with pytest.raises(MoveError):
        game.play(game.parse_move("B7"))  # blocked
    game.play_text("A1")
    with pytest.raises(MoveError):
        game.play_text("A1")  # taken


def test_play_and_undo() -> None:
    game = PahTum.new({"board": "sample"})
    start = game.to_native()
    game.replay(["D4", "A1", "G7"])
    assert game.board[24] == "X" and game.board[0] == "O" and game.board[48] == "X"
    assert game.to_move == 1
    assert game.history_text() == ["D4", "A1", "G7"]
    assert game.undo() == 48
    assert game.undo() == 0
    assert game.undo() == 24
    assert game.to_native() == start
    with pytest.raises(MoveError):
        game.undo()


def test_game_plays_to_a_full_board() -> None:
    game = PahTum.new({"blocks": "25"}, seed=9)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    assert game.legal_moves() == []
    assert game.board.count("X") == game.board.count("O") == 12
    with pytest.raises(MoveError):
        game.play(0)


def test_match_is_two_games_scored_by_the_sum_of_margins() -> None:
    rule = PahTum.match_rule
    assert rule == SumOfMargins(length=2)

    def full(x: int, o: int) -> Outcome:
        winners = (0,) if x > o else (1,) if o > x else ()
        return Outcome(BOARD_FULL, winners, (x, o), "")

    # seed: A (X first) beats B by 10, then B (X in game 2) beats A by 25 -> B wins by 15
    assert rule.standing([full(30, 20), full(40, 15)], 2) == [-15, 15]
    assert rule.standing([full(30, 20), full(20, 30)], 2) == [20, -20]
    standing = rule.standing([full(5, 5), full(0, 0)], 2)
    assert standing == [0, 0] and rule.leaders(standing) == [0, 1]


@pytest.mark.parametrize("kind", [Termination.TIME, Termination.FAULT])
def test_a_forfeit_scores_the_forfeiting_side_0_and_always_loses_the_match_margin(
        kind: Termination) -> None:
    rule = PahTum.match_rule
    # X has A1-A3 (3) on the board, O nothing: X forfeits, O wins, with at least 1
    game = PahTum.new({"board": "sample"})
    game.replay(["A1", "F1", "A2", "F3", "A3"])
    assert game.scores() == (3, 0)
    outcome = game.forfeit(1 - game.to_move, kind, "X ran out of time")
    assert outcome.winners == (1,) and outcome.loser == 0 and outcome.points == (0, 1)
    assert game.scores() == (0, 1)
    # O forfeits: X keeps its runs
    game.resume()
    assert game.scores() == (3, 0) and not game.is_over
    assert game.forfeit(1, kind, "O crashed").points == (3, 0)
    # two flags on empty boards: the side that flagged both games loses the match
    flags = []
    for loser in (0, 1):  # participant 0 plays X in game 1, O in game 2
        empty = PahTum.new({"board": "sample"})
        flags.append(empty.forfeit(loser, kind, "out of time"))
    standing = rule.standing(flags, 2)
    assert standing == [-2, 2] and rule.leaders(standing) == [1]


def test_outcome_is_a_value() -> None:
    game = PahTum.from_native(SEED_IN_PROGRESS)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    outcome = game.outcome
    assert outcome is not None and outcome.ending == BOARD_FULL
    x, o = outcome.points
    assert outcome.winners == ((0,) if x > o else (1,) if o > x else ())
