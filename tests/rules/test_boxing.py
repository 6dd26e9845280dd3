"""The Boxing Match rules (RULES.md section 4): boxes at every edge and size, unusable cells,
the rotating order of 2 to 8 players, the last-cell win and its score, the seed's sample
arena and partial game, the 528-byte native arena, the contest's mark argument, bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rules import MoveError, PlainWins, PositionError, Protocol, RulesError, Termination
from rules.boxing import (
    CAME_FULL,
    CELLS,
    EMPTY_ARENA,
    HEIGHT,
    LAST_CELL,
    MARKS,
    MAX_UNUSABLE,
    NATIVE_BYTES,
    PARTIAL_ARENA,
    PARTIAL_MOVES,
    PARTIAL_START,
    SAMPLE_ARENA,
    WIDTH,
    Boxing,
    box_count,
    infer_mover,
    marks_for,
    random_arena,
)
from rules.clock import ClockKind
from rules.codecs.boxing import CODEC as BOXING

SEED = Path(__file__).parents[3] / "shared" / "seeds" / "003_4ea127167fa70811.txt"


def empty(players: int = 2) -> Boxing:
    return Boxing.new({"arena": "empty", "players": players})


def arena(*lines: str) -> str:
    """A native arena: the given top lines, the rest unusable (a small arena to play out)."""
    rows = [line.ljust(WIDTH, "o") for line in lines]
    rows += ["o" * WIDTH] * (HEIGHT - len(rows))
    return "".join(row + "\n" for row in rows)


def brute_force(game: Boxing) -> list[tuple[int, int, int]]:
    """Every box of vacant cells, cell by cell: the oracle for `legal_moves`."""
    board = game.to_native().replace("\n", "")
    return [(r, c, k) for r in range(HEIGHT) for c in range(WIDTH) for k in range(1, 17)
            if r + k <= HEIGHT and c + k <= WIDTH
            and all(board[(r + i) * WIDTH + c + j] == "-" for i in range(k) for j in range(k))]


def seed_block(heading: str) -> list[str]:
    """The 16 arena lines after `heading` in the seed (the notes beside them cut off)."""
    lines = SEED.read_text(encoding="ascii").splitlines()
    at = next(i for i, line in enumerate(lines) if heading in line)
    return [line[:WIDTH] for line in lines[at + 1:at + 1 + HEIGHT]]


# ----- the declaration and the starts ----------------------------------------------------


def test_the_declaration() -> None:
    assert Boxing.name == "boxing" and Boxing.player_count == (2, 8)
    assert Boxing.default_marks == tuple("ABCDEFGH")
    assert BOXING.protocol is Protocol.STDIN and Boxing.random_start
    assert Boxing.clock.kind is ClockKind.MOVE and Boxing.clock.seconds == 1.0
    assert isinstance(Boxing.match_rule, PlainWins)
    assert [s.name for s in Boxing.option_specs] == ["players", "arena", "unusable"]
    for spec in Boxing.option_specs:
        assert spec.parse(spec.default) == spec.default
        assert Boxing.parse_options({spec.name: str(spec.default)}) == {spec.name: spec.default}
        with pytest.raises(PositionError):
            Boxing.parse_options({spec.name: "not a value at all"})


@pytest.mark.skipif(not SEED.exists(), reason="the seed texts are not beside the repository")
def test_the_sample_arenas_are_the_seeds() -> None:
    assert SAMPLE_ARENA.splitlines() == seed_block("(deadline is midnight")
    assert PARTIAL_ARENA.splitlines() == seed_block("SAMPLE PARTIAL GAME")


def test_the_starts() -> None:
    assert Boxing.new({"arena": "sample"}).to_native() == SAMPLE_ARENA
    assert SAMPLE_ARENA.count("o") == 15 and PARTIAL_START.count("o") == 20
    assert empty().to_native() == EMPTY_ARENA and empty().vacant == CELLS
    assert Boxing.new({"arena": "sample"}, seed=1).key() == Boxing.new({"arena": "sample"},
                                                                       seed=2).key()
    for seed in range(20):
        game = Boxing.new(None, seed=seed)
        assert 10 <= game.start_native().count("o") <= 30  # a random count, about the seed's
        assert game.to_native() == Boxing.new(None, seed=seed).to_native()
        assert game.marks == ("A", "B") and game.to_move == 0
    assert len({Boxing.new(None, seed=s).key() for s in range(20)}) == 20
    for count in (0, 1, 37, MAX_UNUSABLE):
        game = Boxing.new({"unusable": count}, seed=5)
        assert game.to_native().count("o") == count and game.vacant == CELLS - count
    assert Boxing.new({"unusable": "020"}, seed=1).start_native().count("o") == 20
    assert Boxing.new({"players": "5"}).marks == ("A", "B", "C", "D", "E")


@pytest.mark.parametrize(("options", "message"), [
    ({"players": 1}, "players 1 is out of range: 2 to 8"),
    ({"players": 9}, "players 9 is out of range: 2 to 8"),
    ({"players": "two"}, "players must be a whole number"),
    ({"arena": "moon"}, "arena 'moon' is not one of: random, sample, partial, empty"),
    ({"unusable": MAX_UNUSABLE + 1}, "unusable must be 'random' or a whole number from 0 to 256"),
    ({"unusable": -1}, "unusable must be 'random' or a whole number"),
    ({"unusable": "9" * 5000}, "unusable must be 'random' or a whole number"),
    ({"arena": "partial", "players": 3}, "the seed's partial game has two players"),
    ({"size": 7}, "Boxing has no option 'size'"),
])
def test_bad_options(options: dict, message: str) -> None:
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Boxing.new(options, seed=1)


def test_random_arenas_repeat_by_seed_and_count() -> None:
    assert random_arena(12, 3) == random_arena(12, 3)
    assert random_arena(None, 3) == random_arena(None, 3)
    assert random_arena(None, 3) != random_arena(None, 4)
    assert {random_arena(None, s).count("o") for s in range(40)} <= set(range(10, 31))
    with pytest.raises(PositionError, match="unusable cells must be 0 to 256"):
        random_arena(300, 1)


# ----- the seed's sample partial game -------------------------------------------------------


def test_the_seeds_partial_game_move_by_move() -> None:
    game = Boxing.from_native(PARTIAL_START)
    assert game.vacant == CELLS - 20 and game.to_move == 0
    sizes = []
    for text in PARTIAL_MOVES:  # A 9x9 lower left, B 8x8 top right, A 5x5 top left, B 11x11,
        sizes.append(game.parse_move(text)[2])  # A 6x6 near the bottom right
        game.play_text(text)
    assert sizes == [9, 8, 5, 11, 6]
    assert game.to_native() == PARTIAL_ARENA
    assert game.cells == [81 + 25 + 36, 64 + 121] and game.scores() == (142, 185)
    assert game.to_move == 1 and game.seat_name(game.to_move) == "B"  # B to move
    assert game.vacant == CELLS - 20 - 142 - 185 and not game.is_over
    # the option starts the same game, its moves in the history
    option = Boxing.new({"arena": "partial"})
    assert option.to_native() == PARTIAL_ARENA and option.history_text() == list(PARTIAL_MOVES)
    assert option.start_native() == PARTIAL_START and option.to_move == 1
    # read from its arena alone, the same position: A and B, B to move
    loaded = Boxing.from_native(PARTIAL_ARENA)
    assert loaded.marks == ("A", "B") and loaded.to_move == 1 and loaded.key() == game.key()
    assert [box_count(PARTIAL_ARENA.replace("\n", ""), m) for m in "AB"] == [3, 2]


def test_the_partial_games_boxes_cannot_be_played_again() -> None:
    game = Boxing.new({"arena": "partial"})
    with pytest.raises(MoveError, match=r"F3x9 is not legal: F3 is marked A, 80 more used$"):
        game.play_text("F3x9")
    with pytest.raises(MoveError, match=r"A1 is unusable \(o\)"):
        game.play_text("A1x1")
    with pytest.raises(MoveError, match=r"K1x2 is not legal: K2 is unusable \(o\)$"):
        game.play_text("K1x2")
    assert game.largest_box() == 5  # rows L-P below the 11x11
    game.play_text("L12x5")
    assert game.to_move == 0 and game.cells == [142, 185 + 25]


# ----- boxes: every edge, every size, unusable cells ---------------------------------------


def test_every_size_at_every_edge_and_corner() -> None:
    game = empty()
    assert len(game.legal_moves()) == sum((17 - k) * (33 - k) for k in range(1, 17)) == 3672
    for k in range(1, 17):
        low, right = HEIGHT - k, WIDTH - k
        for r, c in ((0, 0), (0, right), (low, 0), (low, right), (0, right // 2),
                     (low, right // 2), (low // 2, 0), (low // 2, right)):
            move = (r, c, k)
            assert game.is_legal(move) and game.problem(move) is None
            twin = game.copy()
            twin.play(move)
            board = twin.to_native().replace("\n", "")
            assert board.count("A") == k * k and twin.vacant == CELLS - k * k
            assert all(board[(r + i) * WIDTH + c + j] == "A" for i in range(k) for j in range(k))
        # one step further leaves the arena
        for move, where in (((low + 1, 0, k), "1 row$"),
                            ((0, right + 1, k), "1 column$"),
                            ((low + 1, right + 1, k), "1 row and 1 column$")):
            if move[0] < HEIGHT and move[1] < WIDTH:
                assert not game.is_legal(move)
                with pytest.raises(MoveError, match=f"off the arena by {where}"):
                    game.play(move)
    assert game.history == []


def test_boxes_leaving_the_arena_say_how_far() -> None:
    game = empty()
    with pytest.raises(MoveError, match=r"P32x16 is not legal: off the arena by 15 rows and 15 "
                                        r"columns$"):
        game.play_text("P32x16")
    with pytest.raises(MoveError, match="off the arena by 2 columns$"):
        game.play_text("C30x5")
    with pytest.raises(MoveError, match="off the arena by 4 rows$"):
        game.play_text("N3x7")
    game.play_text("A17x16")  # the largest box, flush with the right edge
    assert game.largest_box() == 16


def test_unusable_cells_are_never_covered() -> None:
    game = Boxing.new({"arena": "sample"})
    legal = set(game.legal_moves())
    assert (2, 5, 1) not in legal and (1, 4, 2) not in legal  # C6 is unusable
    with pytest.raises(MoveError, match=r"C6x1 is not legal: C6 is unusable \(o\)$"):
        game.play_text("C6x1")
    with pytest.raises(MoveError, match=r"K3 is unusable \(o\), 5 more used$"):
        game.play_text("K3x3")
    game.play_text("A1x2")
    with pytest.raises(MoveError, match="B2 is marked A$"):
        game.play_text("B2x1")
    board = game.to_native()
    assert board.count("o") == 15 and board.count("A") == 4
    for move in game.legal_moves():
        r, c, k = move
        assert "o" not in "".join(board.splitlines()[r + i][c:c + k] for i in range(k))


def test_legal_moves_against_brute_force_on_random_positions() -> None:
    rng = random.Random(7)
    for seed in range(25):
        game = Boxing.new({"players": rng.choice([2, 3, 5])}, seed=seed)
        game.advance(rng, rng.randrange(0, 60))
        legal = game.legal_moves()
        assert legal == brute_force(game) and len(set(legal)) == len(legal)
        assert all(game.is_legal(m) for m in legal)
        everything = [(r, c, k) for r in range(HEIGHT) for c in range(WIDTH) for k in range(1, 17)]
        assert [m for m in everything if game.is_legal(m)] == legal
        assert [m for m in everything if game.problem(m) is None] == legal
        assert game.largest_box() == max(k for _, _, k in legal)


# ----- players and turns, the end and the scores --------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_the_marks_move_in_a_fixed_rotating_order(players: int) -> None:
    game = empty(players)
    assert game.players == players and game.marks == MARKS[:players]
    order = []
    for i in range(3 * players + 1):
        assert game.to_move == i % players and game.moves_made(i % players) == i // players
        order.append(game.marks[game.to_move])
        game.play((i // WIDTH, i % WIDTH, 1))
    assert order == [MARKS[i % players] for i in range(3 * players + 1)]
    row = game.to_native().splitlines()[0]
    assert row[:3 * players + 1] == "".join(order)
    assert game.scores() == tuple(3 + (p == 0) for p in range(players))  # marks so far
    game.undo()
    assert game.to_move == 3 * players % players == 0


@pytest.mark.parametrize("players", [2, 3, 5])
def test_whoever_fills_the_last_cell_wins_and_scores_its_marks(players: int) -> None:
    # 21 vacant cells: a 4x4 and a row of 5
    game = Boxing.from_native(arena("----", "----", "----", "----", "-----"))
    game = Boxing(start=game.start, seat_marks=MARKS[:players])
    assert game.vacant == 21 and game.to_move == 0
    moves = ["A1x4", "E1x1", "E2x1", "E3x1", "E4x1", "E5x1"]
    for text in moves[:-1]:
        game.play_text(text)
        assert not game.is_over and game.outcome is None
        assert game.panel_lines()[0] == f"{game.vacant} vacant in 1 region"
    assert game.panel_lines() == ["1 vacant in 1 region", "largest box 1x1",
                                  f"{MARKS[5 % players]} can fill the rest in one box"]
    winner = len(moves[:-1]) % players
    game.play_text(moves[-1])
    outcome = game.outcome
    assert outcome is not None and outcome.ending == LAST_CELL
    marks = [0] * players
    for i, text in enumerate(moves):
        marks[i % players] += game.parse_move(text)[2] ** 2
    assert outcome.winners == (winner,) and outcome.loser is None
    assert outcome.points == tuple(marks[p] if p == winner else 0 for p in range(players))
    assert game.scores() == outcome.points and game.legal_moves() == []
    assert outcome.reason == (f"{MARKS[winner]} filled the last vacant cell and wins with "
                              f"{marks[winner]} marks")
    assert game.score_lines()[0] == f"{MARKS[winner]} {marks[winner]} (its marks)"
    assert game.score_lines()[1:] == [f"{MARKS[p]} 0 (did not fill the last cell)"
                                      for p in range(players) if p != winner]
    assert game.panel_lines() == ["no vacant cell left"]
    with pytest.raises(MoveError, match="the game is over"):
        game.play_text("A1x1")
    game.undo()
    assert not game.is_over and game.scores() == tuple(
        marks[p] - (p == winner) for p in range(players))


def test_one_box_can_take_the_whole_arena() -> None:
    game = Boxing.from_native(arena("---", "---", "---"))
    game.play_text("A1x3")
    assert game.outcome is not None and game.outcome.points == (9, 0)
    assert game.outcome.winners == (0,)


def test_an_arena_that_comes_full_has_no_winner() -> None:
    full = "".join(("AB" * 16 if r % 2 else "o" * WIDTH) + "\n" for r in range(HEIGHT))
    game = Boxing.from_native(full)
    outcome = game.outcome
    assert outcome is not None and outcome.ending == CAME_FULL
    assert outcome.winners == () and outcome.points == (0, 0) and game.legal_moves() == []
    assert game.largest_box() == 0 and game.to_native() == full


@pytest.mark.parametrize("kind", [Termination.TIME, Termination.FAULT])
def test_a_forfeit_lets_the_others_win_with_their_marks(kind: Termination) -> None:
    game = empty(3)
    game.replay(["A1x3", "D1x2", "F1x1"])
    outcome = game.forfeit(0, kind, "A ran out of time")
    assert outcome.winners == (1, 2) and outcome.loser == 0 and outcome.points == (0, 4, 1)
    assert game.is_over and game.legal_moves() == [] and game.scores() == (0, 4, 1)
    assert game.score_lines() == ["B 4 (its marks)", "C 1 (its marks)", f"A 0 ({kind.label})"]
    with pytest.raises(MoveError, match="resume it first"):
        game.undo()
    with pytest.raises(RulesError):
        game.forfeit(1, kind, "again")
    game.resume()
    assert not game.is_over and game.scores() == (9, 4, 1) and game.to_move == 0
    two = empty()
    two.play_text("B2x2")
    assert two.forfeit(1, kind, "B crashed").points == (4, 0)


# ----- move text ----------------------------------------------------------------------------


def test_move_text_round_trips() -> None:
    rng = random.Random(2)
    for seed in range(6):
        game = Boxing.new(None, seed=seed)
        game.advance(rng, rng.randrange(0, 30))
        for move in game.legal_moves():
            text = game.move_text(move)
            assert game.parse_move(text) == move
            assert game.parse_move(f" {text.lower()} ") == move
            assert game.parse_move(text.upper()) == move
    game = empty()
    assert game.move_text((2, 11, 5)) == "C12x5" and game.parse_move("C12x5") == (2, 11, 5)
    assert game.parse_move("p32x1") == (15, 31, 1) and game.parse_move("A1X16") == (0, 0, 16)
    assert game.parse_move("C012x05") == (2, 11, 5)  # leading zeros are harmless


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty move: give the box's top-left cell and its size, e.g. C12x5"),
    ("   ", "empty move"),
    ("?", "'?' is not a move: give the top-left cell and the size, e.g. C12x5"),
    ("12x5", "'12x5' is not a move"),
    ("C12x", "'C12x' is not a move"),
    ("C12x5x2", "'C12x5x2' is not a move"),
    ("C-1x5", "is not a move"),
    ("C 12x5", "is not a move"),
    ("C12x５", "is not a move"),  # other scripts' digits
    ("Q1x1", "row Q is off the arena: rows run A to P"),
    ("Z9x1", "row Z is off the arena"),
    ("C0x5", "column '0' is off the arena: columns run 1 to 32"),
    ("C33x1", "column '33' is off the arena"),
    ("C" + "9" * 5000 + "x1", "is off the arena"),
    ("C12", "C12 has no size: add x and the size, e.g. C12x1 for that one cell"),
    ("C12x0", "size '0' is not a box size: 1 to 16"),
    ("C12x17", "size '17' is not a box size"),
    ("A1x" + "1" * 5000, "is not a box size"),
])
def test_bad_move_texts(text: str, message: str) -> None:
    game = empty()
    with pytest.raises(MoveError) as err:
        game.parse_move(text)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert len(str(err.value)) < 200


@pytest.mark.parametrize("move", [(0, 0, 0), (0, 0, 17), (16, 0, 1), (0, 32, 1), (-1, 0, 1),
                                  (0, 0), (0, 0, True), "A1x1", None, (0.0, 0, 1)])
def test_malformed_moves_are_refused(move: object) -> None:
    game = empty()
    assert not game.is_legal(move)  # type: ignore[arg-type]
    with pytest.raises(MoveError, match="is not a Boxing move"):
        game.play(move)  # type: ignore[arg-type]
    assert game.history == []


# ----- the native arena -----------------------------------------------------------------------


def test_native_arenas_both_ways_byte_for_byte() -> None:
    for text in (SAMPLE_ARENA, PARTIAL_ARENA, PARTIAL_START, EMPTY_ARENA):
        assert len(text.encode("ascii")) == NATIVE_BYTES == 528
        game = Boxing.from_native(text)
        assert game.to_native() == text and game.start_native() == text
    rng = random.Random(4)
    for seed in range(10):
        game = Boxing.new({"players": rng.choice([2, 3, 4])}, seed=seed)
        game.advance(rng, rng.randrange(0, 40))
        text = game.to_native()
        assert len(text.encode("ascii")) == 528 and text.count("\n") == 16
        assert all(len(line) == 32 for line in text.splitlines())
        again = Boxing.from_native(text)
        assert again.to_native() == text and again.key() == game.key()
        assert set(again.marks) >= set(text) - set("-o\n")


def test_an_arena_says_who_plays_and_whose_turn_it_is() -> None:
    # its marks are the players; A, B, .. up to the last one it shows
    assert marks_for([]) == ("A", "B") and marks_for(["A"]) == ("A", "B")
    assert marks_for(["A", "C"]) == ("A", "B", "C") and marks_for(["E"]) == MARKS[:5]
    assert marks_for(["x"]) == ("A", "x") and marks_for(["7", "Z", "#"]) == ("#", "7", "Z")
    assert marks_for(["A", "B"], "x") == ("A", "B", "x")
    # the mover: the boxes each mark shows, counted in turn from the first mark
    game = empty(3)
    game.replay(["A1x2", "D1x1", "F1x3", "A5x1", "D5x4"])
    board = game.to_native()
    assert [box_count(board.replace("\n", ""), m) for m in "ABC"] == [2, 2, 1]
    assert infer_mover(board.replace("\n", ""), "ABC") == 2
    loaded = Boxing.from_native(board)
    assert loaded.marks == ("A", "B", "C") and loaded.to_move == game.to_move == 2
    assert loaded.scores() == game.scores() == (5, 17, 9)
    # random play: the estimate finds the mover
    rng = random.Random(9)
    for seed in range(40):
        game = Boxing.new({"players": rng.choice([2, 3])}, seed=seed)
        game.advance(rng, rng.randrange(game.players, 30))
        again = Boxing.from_native(game.to_native())
        assert again.to_move == game.to_move and again.scores() == game.scores()


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty input: expected the arena, 16 lines of 32 characters"),
    ("\n", "expected 16 lines of 32 characters (528 bytes), got 1 line (1 characters)"),
    (EMPTY_ARENA[:-1], "the arena must end with a newline"),
    (EMPTY_ARENA[:-33], "got 15 lines (495 characters)"),
    (EMPTY_ARENA + "-" * 32 + "\n", "got 17 lines"),
    (EMPTY_ARENA + "\n", "got 17 lines"),
    (EMPTY_ARENA.replace("\n", "\r\n"), "the arena has \\r characters (Windows line ends?)"),
    ("-" * 31 + "\n" + EMPTY_ARENA[33:], "line 1 has 31 characters, expected 32"),
    (EMPTY_ARENA[:33 * 4] + "-" * 33 + "\n" + EMPTY_ARENA[33 * 5:],
     "line 5 has 33 characters, expected 32"),
    (EMPTY_ARENA[:33 * 4] + "-" * 9000 + "\n" + EMPTY_ARENA[33 * 5:], "line 5 has 9000"),
    (EMPTY_ARENA[:33 * 2 + 6] + " " + EMPTY_ARENA[33 * 2 + 7:],
     "line 3, column 7: ' ' is not a cell: - (vacant), o (unusable) or a player's mark"),
    (EMPTY_ARENA[:5] + "\t" + EMPTY_ARENA[6:], "line 1, column 6: '\\t' is not a cell"),
    (EMPTY_ARENA[:5] + "é" + EMPTY_ARENA[6:], "line 1, column 6: 'é' is not a cell"),
    (EMPTY_ARENA[:5] + "\x00" + EMPTY_ARENA[6:], "'\\x00' is not a cell"),
    (EMPTY_ARENA[:5] + "\x7f" + EMPTY_ARENA[6:], "'\\x7f' is not a cell"),
    ("ABCDEFGHI" + EMPTY_ARENA[9:], "the arena has 9 different marks (A B C D E F G H I): at "
                                    "most 8 players"),
    ("0123456789!#$%&" + EMPTY_ARENA[15:], "15 different marks (! # $ % & 0 1 2 3 4 ...)"),
    ("garbage\n", "got 1 line"),
    ("\x00" * 60, "the arena must end with a newline"),
])
def test_bad_native_arenas(text: str, message: str) -> None:
    with pytest.raises(PositionError) as err:
        Boxing.from_native(text)
    said = str(err.value)
    assert message in said and "\n" not in said and said.isprintable() and len(said) < 200


def test_every_printable_mark_but_space_dash_and_o() -> None:
    for code in range(33, 127):
        char = chr(code)
        text = char + EMPTY_ARENA[1:]
        if char in "-o":
            assert Boxing.from_native(text).marks == ("A", "B")
            continue
        game = Boxing.from_native(text)
        assert char in game.marks and game.scores()[game.marks.index(char)] == 1


# ----- the contest program: the arena on stdin, the mark as the argument ---------------------


def test_the_contest_position_plays_the_mark_it_is_given() -> None:
    game = BOXING.position(SAMPLE_ARENA, ["A"])
    assert game.marks == ("A", "B") and game.to_move == 0
    game = BOXING.position(PARTIAL_ARENA, ["B"])
    assert game.marks == ("A", "B") and game.to_move == 1
    game = BOXING.position(PARTIAL_ARENA, ["C"])  # a third player joins
    assert game.marks == ("A", "B", "C") and game.to_move == 2
    game = BOXING.position(EMPTY_ARENA, ["x"])
    assert game.marks == ("A", "x") and game.seat_name(game.to_move) == "x"
    # the reply: the input with one new box of that mark, 528 bytes
    before = PARTIAL_ARENA
    game = BOXING.position(before, ["B"])
    reply = BOXING.reply(game, game.parse_move("L12x4"))
    assert len(reply.encode("ascii")) == 528
    changed = [i for i, (a, b) in enumerate(zip(before, reply, strict=True)) if a != b]
    assert len(changed) == 16 and all(before[i] == "-" and reply[i] == "B" for i in changed)
    # the same arena, the same key, however it was read
    assert Boxing.from_native(EMPTY_ARENA).key() == BOXING.position(
        EMPTY_ARENA, ["x"]).key()


@pytest.mark.parametrize(("args", "message"), [
    ([], "Boxing's program takes one argument, the mark to play (like A), not 0"),
    (["A", "B"], "takes one argument, the mark to play (like A), not 2"),
    (["AB"], "the mark must be one printable ASCII character, not a space, - or o; got 'AB'"),
    ([""], "got ''"), ([" "], "got ' '"), (["-"], "got '-'"), (["o"], "got 'o'"),
    (["é"], "got 'é'"), (["y" * 5000], "got 'yyyyyyy"),
])
def test_bad_contest_arguments(args: list[str], message: str) -> None:
    with pytest.raises(PositionError) as err:
        BOXING.position(SAMPLE_ARENA, args)
    assert message in str(err.value) and len(str(err.value)) < 200


def test_a_ninth_mark_is_refused() -> None:
    text = "ABCDEFGH" + EMPTY_ARENA[8:]
    assert BOXING.position(text, ["H"]).players == 8
    with pytest.raises(PositionError, match="9 players' marks"):
        BOXING.position(text, ["Z"])


# ----- history, copies, keys and saves ---------------------------------------------------------


def test_undo_copy_and_key_stay_consistent() -> None:
    rng = random.Random(11)
    for seed in range(6):
        game = Boxing.new({"players": 2 + seed % 3}, seed=seed)
        keys, natives = [game.key()], [game.to_native()]
        while not game.is_over:
            before = game.copy()
            move = rng.choice(game.legal_moves())
            game.play(move)
            assert before.key() == keys[-1] and before.history == game.history[:-1]
            assert game.undo() == move and game.key() == keys[-1]
            assert game.to_native() == natives[-1] and game.legal_moves() == before.legal_moves()
            game.play(move)
            keys.append(game.key())
            natives.append(game.to_native())
            assert game.key() == game.to_native().replace("\n", "")
            assert sum(game.cells) + game.vacant + game.start.count("o") == CELLS
        assert game.outcome is not None and game.outcome.ending == LAST_CELL
        while game.history:
            game.undo()
            keys.pop()
            natives.pop()
            assert game.key() == keys[-1] and game.to_native() == natives[-1]
        with pytest.raises(MoveError, match="there is no move to undo"):
            game.undo()


def test_options_and_start_rebuild_the_game_as_a_save_does() -> None:
    cases = [Boxing.new({"players": 4}, seed=3), Boxing.new({"arena": "partial"}),
             Boxing.from_native(PARTIAL_ARENA), BOXING.position(EMPTY_ARENA, ["x"])]
    for game in cases:
        game.advance(random.Random(1), 3)
        options = json.loads(json.dumps(game.options))
        again = Boxing.from_start(options, game.start_native())
        assert again.options == options and again.marks == game.marks
        again.replay(game.history_text())
        assert again.key() == game.key() and again.to_move == game.to_move
        assert again.scores() == game.scores()
    assert Boxing.new({"arena": "partial"}).options == {"players": 2, "marks": "AB",
                                                        "first": "A"}
    assert BOXING.position(EMPTY_ARENA, ["x"]).options == {"players": 2, "marks": "Ax",
                                                                   "first": "x"}
    for bad in ({"marks": "AB"}, {"marks": "AB", "first": "C"}, {"marks": 5, "first": "A"},
                {"marks": "AA", "first": "A"}, {"marks": "A", "first": "A"},
                {"marks": "A-", "first": "A"}, {"marks": "AB", "first": "A", "players": 3},
                {"marks": "ABCDEFGHI", "first": "A"}):
        with pytest.raises(PositionError):
            Boxing.from_start(bad, EMPTY_ARENA)
    with pytest.raises(PositionError, match="the arena has the mark 'C', which is not a player's"):
        Boxing.from_start({"marks": "AB", "first": "A"}, "C" + EMPTY_ARENA[1:])


# ----- greed and the panel ----------------------------------------------------------------


def test_greedy_moves_win_at_once_else_take_the_largest_safe_box() -> None:
    # a 16x16 at either end would leave the other half: one box for the next player
    assert set(empty().greedy_moves()) == {(0, c, 16) for c in range(1, 16)}
    # the rest is one box: take it and win
    assert Boxing.from_native(arena("ooo", "o---", "o---", "o---")).greedy_moves() == [(1, 1, 3)]
    # a 3x3 over a row of 4: either 3x3 leaves 4 cells that are no box
    game = Boxing.from_native(arena("---", "---", "---", "----"))
    assert game.greedy_moves() == [(0, 0, 3), (1, 0, 3)]
    # a 2x2 over one cell: the 2x2 leaves one cell and C1 leaves the 2x2, so a 2x2 cell
    game = Boxing.from_native(arena("--", "--", "-"))
    assert game.greedy_moves() == [(0, 0, 1), (0, 1, 1), (1, 0, 1), (1, 1, 1)]
    # every move hands the next player the win: the largest of them all
    assert Boxing.from_native(arena("--")).greedy_moves() == [(0, 0, 1), (0, 1, 1)]
    game = Boxing.from_native(arena("-"))
    game.play_text("A1x1")
    assert game.greedy_moves() == []


def test_the_panel_lines() -> None:
    game = Boxing.new({"arena": "sample"})
    assert game.panel_lines() == ["497 vacant in 1 region", "largest box 11x11"]
    game = Boxing.new({"arena": "partial"})
    assert game.panel_lines() == [f"{game.vacant} vacant in {len(game.regions())} regions",
                                  "largest box 5x5"]
    assert len(game.regions()) > 1 and sum(game.regions()) == game.vacant
