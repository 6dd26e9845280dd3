"""Pousse rules: pushing, push-off, straights, the repetition rule, native format."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from rules import MoveError, PositionError, codec_of, get_game
from rules.outcome import Ending
from rules.pousse import (
    REPETITION,
    STRAIGHTS,
    Pousse,
    bit_masks,
    full_lines,
    line_slice,
    push,
    shift_in,
    shift_out,
    straights,
)


def game_with(moves: str, size: int = 4) -> Pousse:
    game = Pousse.new({"size": size})
    game.replay(moves.split())
    return game


def test_registry_and_options() -> None:
    cls = get_game("pousse")
    assert cls is Pousse
    game = cls.new({"size": 9})
    assert game.options == {"size": 9}
    assert Pousse.new().size == 6
    assert len(game.legal_moves()) == 36
    assert Pousse.default_marks == ("X", "O") and Pousse.clock.seconds == 30
    for bad in (3, 21, "x"):
        with pytest.raises(PositionError):
            Pousse.new({"size": bad})


def test_seed_sample() -> None:
    game = Pousse.from_native("4\nL2\nT2\nL2\nB2\nR2\n")
    assert game.rows() == [".O..", "XX.X", "....", ".O.."]
    assert game.to_move == 1 and game.outcome is None
    assert game.last_move == ("R", 2)


@pytest.mark.parametrize(("move", "cell"), [
    ("L2", (1, 0)), ("R2", (1, 3)), ("T3", (0, 2)), ("B3", (3, 2))])
def test_insert_from_every_edge(move: str, cell: tuple[int, int]) -> None:
    game = game_with(move)
    assert game.cell(*cell) == "X"
    assert sum(game.cell(r, c) != "." for r in range(4) for c in range(4)) == 1


@pytest.mark.parametrize(("moves", "rows"), [
    ("L1 L1 L1", ["XOX.", "....", "....", "...."]),
    ("R1 R1 R1", [".XOX", "....", "....", "...."]),
    ("T1 T1 T1", ["X...", "O...", "X...", "...."]),
    ("B1 B1 B1", ["....", "X...", "O...", "X..."]),
    # the push stops at the first empty cell: only the markers before it move
    ("L1 R1 L1", ["XX.O", "....", "....", "...."]),
])
def test_push_moves_markers_up_to_the_first_gap(moves: str, rows: list[str]) -> None:
    assert game_with(moves).rows() == rows


def test_push_off_from_a_full_line() -> None:
    game = game_with("L1 L1 L1 L1")
    assert game.rows()[0] == "OXOX"
    preview = game.preview(("L", 1))
    assert preview.pushed_off == (0, 3) and preview.pushed_off_mark == "X"
    assert preview.entry == (0, 0)
    assert preview.moved == (((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 2), (0, 3)))
    game.play_text("L1")
    assert game.rows()[0] == "XOXO"
    assert "".join(preview.board[:4]) == "XOXO"
    game.play_text("R1")  # O pushes from the right: the X at the left end falls off
    assert game.rows()[0] == "OXOO"


def test_push_function_reports_path_and_off() -> None:
    board = list("XOX." + "." * 12)
    path, off = push(board, 4, ("L", 1), "O")
    assert board[:4] == list("OXOX") and path == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert off is None


def test_straight_wins() -> None:
    game = game_with("L1 L2 L1 L2 L1 L2")
    assert game.outcome is None
    game.play_text("L1")
    assert game.outcome is not None and game.outcome.winner == 0
    assert game.outcome.reason == "X wins with 1 straight to 0"
    assert game.scores() == (1, 0)
    assert game.straight_lines() == [("row", 0, "X")]
    assert game.legal_moves() == []
    with pytest.raises(MoveError):
        game.play_text("L3")


def test_a_move_can_give_the_opponent_the_win() -> None:
    # O fills column 3 below row 1 and row 1 starts OO; X's L1 shifts an O into the gap.
    game = game_with("T4 B3 B4 B3 B1 B3 B2 L1 B1 L1")
    assert game.rows() == ["OO.X", "..O.", "X.O.", "XXOX"]
    preview = game.preview(("L", 1))
    assert preview.gives_opponent_straight and preview.straights == (0, 1)
    assert preview.outcome is not None and preview.outcome.winner == 1
    game.play_text("L1")
    assert game.outcome == preview.outcome
    assert game.outcome.reason == "O wins with 1 straight to 0"


def test_both_colours_counted_at_once() -> None:
    board = list("XXXX" "OOOO" "X..." "O...")
    found = straights(board, 4)
    assert ("row", 0, "X") in found and ("row", 1, "O") in found and len(found) == 2


def random_game(
    rng: random.Random, size: int, moves: list[tuple[str, int]] | None = None
) -> Pousse:
    game = Pousse.new({"size": size})
    while not game.is_over:
        game.play(rng.choice(moves or game.legal_moves()))
    return game


def test_repetition_loses_for_the_mover() -> None:
    rng = random.Random(5)
    seen_reason = 0
    for _ in range(200):
        game = random_game(rng, 4)
        if game.outcome.ending != REPETITION:
            continue
        seen_reason += 1
        mover = 1 - game.to_move
        assert game.outcome.winner == 1 - mover
        assert game.outcome.reason == f"{'XO'[mover]} repeated an earlier position and loses"
        final = game.key()
        game.undo()
        keys = []
        probe = game.copy()
        while probe.history:
            keys.append(probe.key())
            probe.undo()
        keys.append(probe.key())
        assert final in keys
    assert seen_reason > 5


def test_same_board_other_side_to_move_is_no_repetition() -> None:
    moves = "L1 L1 L2 R1 L2 L1 R2 T3 R2".split()
    game = Pousse.new({"size": 4})
    boards: dict[str, int] = {}
    for text in moves[:-1]:
        game.play_text(text)
        boards.setdefault("".join(game.board), game.to_move)
    game.play_text(moves[-1])
    board = "".join(game.board)
    assert board in boards and boards[board] != game.to_move
    assert game.outcome is None


def test_undo_restores_the_repetition_history() -> None:
    """Undo and redo leave the game where it was: the same outcome, and the same moves
    repeat (or not) afterwards, down to the start."""
    rng = random.Random(11)
    pool = [("L", 1), ("R", 1), ("L", 2), ("R", 2), ("T", 3)]
    for _ in range(30):
        game = random_game(rng, 4, pool)
        full = game.copy()
        last = game.undo()
        assert game.outcome is None
        verdicts = {m: game.preview(m).repeats for m in pool}
        game.play(last)
        assert game.outcome == full.outcome and game.key() == full.key()
        game.undo()
        assert {m: game.preview(m).repeats for m in pool} == verdicts
        while game.history:
            game.undo()
        assert not any(game.preview(m).repeats for m in game.legal_moves())
        game.replay(full.history_text())
        assert game.outcome == full.outcome and game.board == full.board


class Naive:
    """Pousse played the plainest way: a grid of rows, every configuration kept in a
    list, straights counted from scratch. The reference the rules are checked against."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.grid = [["."] * n for _ in range(n)]
        self.seen = [(self.text(), 0)]
        self.over: tuple[Ending, int] | None = None

    def text(self) -> str:
        return "".join("".join(row) for row in self.grid)

    def play(self, move: tuple[str, int], mover: int) -> None:
        side, index = move
        n, i = self.n, index - 1
        cells = [(i, c) for c in range(n)] if side in "LR" else [(r, i) for r in range(n)]
        if side in "RB":
            cells.reverse()
        marks = [self.grid[r][c] for r, c in cells]
        if "." in marks:
            marks.remove(".")  # the first gap closes...
        else:
            marks.pop()  # ...or the last marker falls off
        for (r, c), mark in zip(cells, ["XO"[mover], *marks], strict=True):
            self.grid[r][c] = mark
        config = (self.text(), 1 - mover)
        lines = [*self.grid, *([row[c] for row in self.grid] for c in range(n))]
        x = sum(all(m == "X" for m in line) for line in lines)
        o = sum(all(m == "O" for m in line) for line in lines)
        if config in self.seen:
            self.over = (REPETITION, 1 - mover)
        elif x != o:
            self.over = (STRAIGHTS, 0 if x > o else 1)
        self.seen.append(config)
        self.scores = (x, o)


def test_play_and_undo_match_a_naive_reference() -> None:
    """Random games with random undos on every size class: board, scores and the end
    (straights or repetition) always equal the naive model replayed from the start."""
    rng = random.Random(7)
    endings: Counter[Ending] = Counter()
    for trial in range(120):
        n = rng.choice([4, 5, 6, 9, 20])
        game = Pousse.new({"size": n})
        pool = None if trial % 3 else rng.sample(game.legal_moves(), rng.randint(2, 5))
        states = [Naive(n)]  # the model after each move: undo pops one
        for _ in range(rng.randint(1, 150)):
            if game.history and rng.random() < 0.25:
                game.undo()
                states.pop()
            elif not game.is_over:
                move = rng.choice(pool or game.legal_moves())
                states.append(copy.deepcopy(states[-1]))
                states[-1].play(move, game.to_move)
                game.play(move)
            naive = states[-1]
            assert "".join(game.board) == naive.text()
            ended = game.outcome
            assert (ended.ending, ended.winner) == naive.over if ended else naive.over is None
            if game.history:
                assert game.scores() == naive.scores
        if game.outcome:
            endings[game.outcome.ending] += 1
    assert endings[REPETITION] > 3 and endings[STRAIGHTS] > 3


def test_bit_mask_straights_match_the_plain_count() -> None:
    rng = random.Random(2)
    for n in (4, 5, 7, 16, 20):
        for fill in (0.0, 0.5, 0.9, 1.0):
            for _ in range(40):
                board = [rng.choice("XO") if rng.random() < fill else "." for _ in range(n * n)]
                if rng.random() < 0.5:  # plant straights
                    r = rng.randrange(n)
                    board[r * n:(r + 1) * n] = [rng.choice("XO")] * n
                    board[rng.randrange(n)::n] = [rng.choice("XO")] * n
                xs, os_ = bit_masks("".join(board).encode())
                found = straights(board, n)
                assert full_lines(xs, n) == sum(m == "X" for *_, m in found)
                assert full_lines(os_, n) == sum(m == "O" for *_, m in found)


def test_shift_out_undoes_shift_in() -> None:
    rng = random.Random(4)
    for n in (4, 6, 20):
        for _ in range(200):
            board = [rng.choice(".XO") for _ in range(n * n)]
            before = list(board)
            move = (rng.choice("LRTB"), rng.randint(1, n))
            line = line_slice(n, move)
            k, off = shift_in(board, line, rng.choice("XO"))
            assert board[line][1:k + 1] == before[line][:k]
            shift_out(board, line, k, off)
            assert board == before


def test_copy_shares_nothing_that_changes() -> None:
    game = game_with("L1 L1 L1 L1 R2")
    twin = game.copy()
    twin.play_text("T1")
    twin.undo()
    twin.undo()
    assert game.history_text() == ["L1", "L1", "L1", "L1", "R2"]
    assert game.rows() == Pousse.from_native(game.to_native()).rows()
    game.play_text("T1")
    assert twin.history_text() == ["L1", "L1", "L1", "L1"]


def test_parse_move() -> None:
    game = Pousse.new({"size": 13})
    assert game.parse_move("T13") == ("T", 13)
    assert game.parse_move(" l2 ") == ("L", 2)
    assert game.move_text(("B", 7)) == "B7"
    for bad in ("", "X2", "L0", "L14", "L", "2L", "L2x", "L-1", "L²"):
        with pytest.raises(MoveError):
            game.parse_move(bad)


def test_native_round_trip_and_start() -> None:
    game = game_with("L2 T2 L2 B2 R2", size=5)
    text = game.to_native()
    assert text == "5\nL2\nT2\nL2\nB2\nR2\n"
    again = Pousse.from_native(text)
    assert again.board == game.board and again.history == game.history
    assert game.start_native() == "5\n"
    start = Pousse.from_start(game.options, game.start_native())
    assert start.size == 5 and start.history == []
    reply = game.copy()
    assert codec_of(Pousse).reply(reply, ("T", 1)) == "T1\n"


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ("\n\n", "empty"),
    ("six\nL1\n", "line 1"),
    ("3\n", "out of range"),
    ("21\n", "out of range"),
    ("4\nL1\nQ2\n", "line 3"),
    ("4\nL1\nL5\n", "line 3"),
    ("4\nL1 L2\n", "line 2"),
    ("4\nL1\nL2\nL1\nL2\nL1\nL2\nL1\nT1\n", "after the game has ended"),
])
def test_native_refuses_bad_input(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Pousse.from_native(text)


def test_preview_changes_nothing_and_flags_repetition() -> None:
    rng = random.Random(3)
    flagged = 0
    for _ in range(40):
        game = Pousse.new({"size": 4})
        while not game.is_over:
            key, hist = game.key(), list(game.history)
            for move in game.legal_moves():
                p = game.preview(move)
                probe = game.copy()
                probe.play(move)
                assert p.board == tuple(probe.board) and p.outcome == probe.outcome
                assert p.repeats == (probe.outcome is not None
                                     and probe.outcome.ending == REPETITION)
                flagged += p.repeats
            assert game.key() == key and game.history == hist
            game.play(rng.choice(game.legal_moves()))
    assert flagged > 0
