"""Pillars rules (RULES.md section 3): rectangles, the misère end, the joker and its values,
the scores of a natural end and of a fault, the native file and the seed's example."""

from __future__ import annotations

import random

import pytest

from ai.perft import reference_perft
from rules import MoveError, PositionError, Termination
from rules.pillars import DIAGONAL, LAST_CELL, Pillars, random_pillars, rectangles

PILLARS = "".join(f"{r}{r.lower()}\n" for r in "ABCDEFGHIJ")  # the seed's diagonal
EXAMPLE = PILLARS + "AcBd\n!AeAj\n"  # the seed's example game


def diagonal(*moves: str) -> Pillars:
    game = Pillars.new({"pillars": "diagonal"})
    game.replay(list(moves))
    return game


def test_the_seeds_example_and_the_start() -> None:
    game = Pillars.from_native(EXAMPLE)
    assert game.pillars == DIAGONAL and game.history_text() == ["AcBd", "!AeAj"]
    assert game.claims == [None, 9]  # blue claimed on its first move: 9, not 82 // 10
    assert game.empty == 90 - 4 - 6 and game.to_move == 0
    assert game.to_native() == EXAMPLE
    assert game.start_native() == PILLARS
    assert len(Pillars.new({"pillars": "diagonal"}).rectangles()) == 990  # the C program's
    assert Pillars.new(seed=1).pillar_lines() == "Ag Bi Cj Dh Ef Fd Ga He Ib Jc".split()
    assert len(Pillars.new(seed=1).rectangles()) == 909
    assert Pillars.from_native(PILLARS + "Start\nAcBd\n").history_text() == ["AcBd"]


def test_random_starts_are_permutations_and_repeat_by_seed() -> None:
    for seed in range(50):
        cols = random_pillars(seed)
        assert sorted(cols) == list(range(10))
        assert Pillars.new(seed=seed).pillars == cols
    assert len({random_pillars(s) for s in range(20)}) > 15


def test_perft_with_and_without_the_joker_twins() -> None:
    game = Pillars.new({"pillars": "diagonal"})
    assert reference_perft(game.copy(), 1) == [990]
    assert reference_perft(game.copy(), 1, joker=True) == [1980]
    mid = Pillars.from_native(EXAMPLE + "CeDj\nGaHb\nEgFj\n")
    assert mid.empty == 56 and mid.to_move == 1
    plain = reference_perft(mid.copy(), 2)
    # blue has claimed: only red's replies have twins
    assert reference_perft(mid.copy(), 2, joker=True) == [plain[0], 2 * plain[1]]


@pytest.mark.parametrize(("move", "ok"), [
    ("AbAj", True),  # the whole top row right of the pillar
    ("AaAb", False),  # over the pillar at Aa
    ("JaJi", True), ("BaJa", True), ("AjIj", True),  # the other edges
    ("BaJa", True), ("AbAb", True), ("JiJi", True),
    ("CdEf", False),  # around Dd and Ee: over a pillar
    ("CaCb", True), ("DeDj", True), ("EaEd", True),
])
def test_rectangles_at_the_edges_and_around_pillars(move: str, ok: bool) -> None:
    game = diagonal()
    assert game.is_legal(game.parse_move(move)) is ok
    if not ok:
        with pytest.raises(MoveError, match="is a pillar"):
            game.play_text(move)


def test_rectangles_must_be_written_in_order_and_over_empty_cells() -> None:
    game = diagonal("AcBd")
    with pytest.raises(MoveError, match="top row C is below the bottom row B"):
        game.play_text("CeBf")
    with pytest.raises(MoveError, match="left column f is right of the right column e"):
        game.play_text("CfCe")
    with pytest.raises(MoveError, match=r"Bd is already filled \(by red's AcBd\)"):
        game.play_text("BdBd")
    with pytest.raises(MoveError, match="is not a move"):
        game.play_text("Bd")
    with pytest.raises(MoveError, match="is not a move"):
        game.play_text("!!BdCe")
    assert game.history_text() == ["AcBd"]  # nothing changed
    assert game.parse_move("cece") == game.parse_move("CeCe")  # rows and columns by place


def test_the_enumeration_lists_each_rectangle_once_and_only_legal_ones() -> None:
    rng = random.Random(3)
    for _ in range(30):
        game = Pillars.new(seed=rng.randrange(1000))
        game.advance(rng, rng.randrange(0, 12))
        rects = game.rectangles()
        assert len(rects) == len(set(rects))
        brute = [(t, lc, b, r) for t in range(10) for lc in range(10) for b in range(t, 10)
                 for r in range(lc, 10) if game.rect_problem(t, lc, b, r) is None]
        assert rects == sorted(brute)
        assert rectangles(game.rows) == rects


def test_whoever_fills_the_last_cell_loses() -> None:
    game = diagonal("AbAj", "BaBa", "FaJe")
    rng = random.Random(0)
    while game.empty > 1:
        moves = [m for m in game.legal_moves() if not m[4]]
        game.play(rng.choice([m for m in moves
                              if (m[2] - m[0] + 1) * (m[3] - m[1] + 1) < game.empty]))
    last = game.to_move
    (move,) = [m for m in game.legal_moves() if not m[4]]
    game.play(move)
    outcome = game.outcome
    assert outcome is not None and outcome.ending == LAST_CELL
    assert outcome.winners == (1 - last,) and game.legal_moves() == []
    assert outcome.points[1 - last] == 18 and outcome.points[last] == 9
    assert "filled the last cell and loses" in outcome.reason
    assert game.score_lines() == [f"{('red', 'blue')[1 - last]} 18 + 0 (no joker) = 18",
                                  f"{('red', 'blue')[last]} 9 - 0 (no joker) = 9"]
    game.undo()
    assert not game.is_over and game.empty == 1


def play_to_end(game: Pillars, rng: random.Random) -> None:
    """Random plain rectangles, keeping clear of the last cell while another move exists."""
    while not game.is_over:
        rects = game.rectangles()
        safe = [r for r in rects if (r[2] - r[0] + 1) * (r[3] - r[1] + 1) < game.empty]
        t, lc, b, r = rng.choice(safe or rects)
        game.play((t, lc, b, r, False))


def test_joker_values() -> None:
    # red on its first move: 90 empty cells, worth 9
    game = diagonal()
    assert game.claim_value() == 9
    game.play_text("!AbAj")
    assert game.claims == [9, None]
    # blue on its first move: 9 whatever is left (81 here)
    assert game.claim_value() == 9
    game.play_text("!BaBa")
    assert game.claims == [9, 9]
    # later: floor(empty before the move / 10)
    game = diagonal("AbAj", "FaJe")  # 90 - 9 - 25 = 56 empty
    assert game.empty == 56 and game.claim_value() == 5
    game.play_text("!BaBa")
    assert game.claims == [5, None]
    game = diagonal("AbAj", "FaJe", "BaBa")  # blue's second move: no 9 any more
    assert game.empty == 55 and game.claim_value() == 5
    game.play_text("!BfEj")  # 55 empty before it: 5, though only 35 are left after
    assert game.claims == [None, 5] and game.empty == 55 - 20
    # once a game each
    with pytest.raises(MoveError, match="red has already used the joker"):
        diagonal("!AbAj", "BaBa").play_text("!CaCa")
    assert all(not m[4] for m in diagonal("!AbAj", "BaBa").legal_moves())


@pytest.mark.parametrize("claimer", [0, 1])
@pytest.mark.parametrize("seed", range(6))
def test_a_claim_that_wins_and_one_that_loses(claimer: int, seed: int) -> None:
    rng = random.Random(seed)
    game = Pillars.new(seed=seed)
    game.play((*game.rectangles()[0], claimer == 0))
    if claimer == 1:
        game.play((*game.rectangles()[-1], True))
    value = game.claims[claimer]
    assert value == 9  # either side's first move
    play_to_end(game, rng)
    outcome = game.outcome
    assert outcome is not None
    if outcome.winner == claimer:
        assert outcome.points[claimer] == 18 + value and outcome.points[1 - claimer] == 9
    else:
        assert outcome.points[claimer] == 9 - value and outcome.points[1 - claimer] == 18
    assert sum(line.count("(joker ") for line in game.score_lines()) == 1


@pytest.mark.parametrize("kind", [Termination.TIME, Termination.FAULT])
def test_a_fault_scores_zero_and_the_other_18_plus_its_joker_or_the_empty_cells(
        kind: Termination) -> None:
    # the winner never claimed: 18 + the empty cells now / 10
    game = diagonal("AbAj", "FaJe")  # 56 empty
    outcome = game.forfeit(0, kind, "red made an illegal move")
    assert outcome.winners == (1,) and outcome.points == (0, 23) and outcome.loser == 0
    assert outcome.reason == "red made an illegal move"
    assert game.score_lines() == ["blue 18 + 5 (56 empty cells / 10, no joker claimed) = 23",
                                  f"red 0 ({kind.label})"]
    # the winner claimed: its joker value, whatever is empty now
    game = diagonal("AbAj", "!BaBa", "FaJe")
    outcome = game.forfeit(0, kind, "red ran out of time")
    assert outcome.points == (0, 27)
    # the faulting side's own claim does not matter: it scores 0
    game = diagonal("!AbAj", "BaBa")
    assert game.forfeit(0, kind, "red crashed").points == (0, 18 + game.empty // 10)
    game.resume()
    assert not game.is_over


def test_scores_are_zero_until_the_end_and_the_panel_shows_the_jokers() -> None:
    game = Pillars.from_native(EXAMPLE)
    assert game.scores() == (0, 0)
    assert game.panel_lines() == ["80 empty in 3 regions", "red: joker unused (now 8)",
                                  "blue: joker !AeAj worth 9"]
    assert game.regions() == [45, 34, 1]  # the diagonal cuts the board in two; Ab alone


@pytest.mark.parametrize(("text", "says"), [
    ("", "expected 10 pillar lines"),
    (PILLARS.replace("Cc", "Cx"), "line 3: 'Cx' is not a pillar cell"),
    (PILLARS.replace("Cc", "Cb"), "line 3: a second pillar in column b (also Bb)"),
    (PILLARS.replace("Cc", "Bc"), "line 3: a second pillar in row B"),
    (PILLARS + "AcBd\nAcBd\n", "line 12: AcBd is not legal: Ac is already filled"),
    (PILLARS + "AcBd\n\nCeDj\n", "line 12 is empty"),
    (PILLARS + "AcBd\nStart\n", "line 12: 'Start' is not a move"),
    (PILLARS + "!AcBd\n!AeAj\n!CeDj\n", "line 13: !CeDj is not legal: red has already used"),
    ("Aa\n" * 5000, "too long"),
])
def test_bad_native_files_are_refused_in_one_line(text: str, says: str) -> None:
    with pytest.raises(PositionError) as caught:
        Pillars.from_native(text)
    message = str(caught.value)
    assert says in message and "\n" not in message


def test_undo_restores_everything() -> None:
    rng = random.Random(9)
    game = Pillars.new(seed=9)
    before = [(game.key(), list(game.tiles), game.empty, list(game.claims))]
    while not game.is_over:
        move = rng.choice(game.legal_moves())
        game.play(move)
        before.append((game.key(), list(game.tiles), game.empty, list(game.claims)))
    while game.history:
        game.undo()
        before.pop()
        assert (game.key(), list(game.tiles), game.empty, list(game.claims)) == before[-1]


def test_greedy_moves_fill_the_largest_rectangle_but_never_the_last_cell() -> None:
    game = diagonal()
    assert {game.move_text(m) for m in game.greedy_moves()} == {"FaJe", "AfEj"}  # 25 cells
    game = diagonal("AbAj", "FaJe", "BaBa", "BfEj", "CaEb")
    assert game.empty > 1 and all(
        (m[2] - m[0] + 1) * (m[3] - m[1] + 1) < game.empty for m in game.greedy_moves())


def test_the_most_moves_left_are_half_the_empty_cells_the_mover_rounding_up() -> None:
    game = Pillars.new(None, seed=1)
    assert game.empty == 90 and game.moves_left_most(0) == game.moves_left_most(1) == 45
    rng = random.Random(3)
    while not game.is_over:
        mover, other = game.to_move, 1 - game.to_move
        assert game.moves_left_most(mover) == (game.empty + 1) // 2
        assert game.moves_left_most(other) == game.empty // 2
        game.play(rng.choice(game.legal_moves()))
