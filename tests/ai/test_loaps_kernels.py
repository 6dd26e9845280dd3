"""LOAPS kernels against the rules: legal moves, boards, line counts, points, hashes and
every ending (connection by the mover, a capture that connects the other side, the
50-move draw, no legal move) on thousands of random positions, and perft."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from ai.loaps import kernels as K
from ai.loaps import search as S
from ai.loaps.adapter import (
    SAMPLE2,
    SAMPLE3,
    bitboards,
    kernel_position,
    move_code,
    plies_left,
    rules_move,
)
from ai.loaps.evaluate import MATE, PARAMS, SCALE, connecting_win, evaluate_position
from ai.perft import reference_perft
from rules.loaps import CONNECTION, MARKS, MOVE_LIMIT_DRAW, NO_MOVES, Loaps, connected
from rules.outcome import Ending

KINDS = {K.ENDS_CONNECT: CONNECTION, K.ENDS_CAPTURE_CONNECT: CONNECTION,
         K.ENDS_MOVE_LIMIT: MOVE_LIMIT_DRAW, K.ENDS_NO_MOVES: NO_MOVES}


def random_native(rng: random.Random) -> Loaps:
    """A random position as a native file: a random mover and move number (often near the
    50-move draw), few or many pieces a side, points within what the moves allow."""
    number = rng.choice([rng.randint(1, 50), rng.randint(44, 50)])
    mover = rng.randrange(2)
    made = [number - 1 + mover, number - 1]
    squares = list(range(49))
    rng.shuffle(squares)
    board = ["."] * 49
    for player in (0, 1):
        low = max(1, 8 - made[1 - player])
        count = rng.choice([rng.randint(low, 8), low, min(8, low + 1)])
        for _ in range(count):
            board[squares.pop()] = MARKS[player]
    points = [rng.randint(0, min(40, 8 * made[p])) for p in (0, 1)]
    rows = ["".join(board[r * 7:(r + 1) * 7]) for r in range(7)]
    text = f"{mover + 1} {number}\n1 {points[0]} 30.0\n2 {points[1]} 30.0\n" + "\n".join(rows)
    return Loaps.from_native(text + "\n")


def kernel_outcome(game: Loaps, mover: int, res: int, kind: int) -> tuple[Ending, int | None]:
    winner = {K.WIN: mover, K.LOSS: 1 - mover, K.DRAW: None}[res]
    return KINDS[kind], winner


def check_position(game: Loaps, seen: Counter) -> None:
    """Every legal move from `game` (not over): the kernels' moves, child, points, hash
    and ending against the rules' play."""
    pos, side, left, h = kernel_position(game)
    moves = np.zeros(64, dtype=np.int64)
    n = K.legal_moves(pos, moves)
    codes = [int(m) for m in moves[:n]]
    assert sorted(rules_move(m) for m in codes) == sorted(game.legal_moves()), game.to_native()
    st = np.zeros((2, S.SWORDS), dtype=np.uint64)
    st[0, :K.PWORDS] = pos
    st[0, S.S_H] = np.uint64(h)
    child = np.zeros(K.PWORDS, dtype=np.uint64)
    for code in codes:
        move = rules_move(code)
        assert move_code(move) == code
        res, kind = K.play_code(pos, code, left, child)
        cap = S.make_s(st, 0, side, code)
        assert (st[1, :K.PWORDS] == child).all()
        search_res = S.judge_s(st, 1, cap, left - 1)
        game.play(move)
        text = f"{game.move_text(move)} from\n{game.to_native()}"
        # the child's board, line counts and hash from scratch
        red, blue = bitboards(game)
        mover_b, other_b = (red, blue) if side == 0 else (blue, red)
        assert (int(child[K.P_OPP]), int(child[K.P_ME])) == (mover_b, other_b), text
        assert K.line_counts(np.uint64(red | blue)) == tuple(child[K.P_C0:K.P_C2 + 1]), text
        assert int(st[1, S.S_H]) == int(S.start_hash(np.uint64(red), np.uint64(blue), 1 - side))
        # points (the rules add the connection's 12 to the points; the kernels judge it)
        pts = [int(child[K.P_POPP]), int(child[K.P_PME])]  # mover's, other's
        outcome = game.outcome
        if outcome is not None and outcome.ending == CONNECTION:
            pts[0 if kind == K.ENDS_CONNECT else 1] += K.CONNECT_POINTS
        assert (pts[0], pts[1]) == (game.points[side], game.points[1 - side]), text
        # the ending: its kind and winner, and the search's own verdict
        if outcome is None:
            assert res == K.NOT_OVER, text
            assert search_res == K.NOT_OVER and left - 1 > 0, text
            seen["on"] += 1
        else:
            assert res != K.NOT_OVER, text
            assert kernel_outcome(game, side, res, kind) == (outcome.ending, outcome.winner), text
            if kind == K.ENDS_CONNECT:
                assert connected(game.board, MARKS[side])
                seen["connect"] += 1
            elif kind == K.ENDS_CAPTURE_CONNECT:
                assert not connected(game.board, MARKS[side])
                seen["capture-connect"] += 1
            else:
                seen[kind] += 1
            seen["connection lost" if res == K.LOSS else "decided"] += 1
            # the search sees the same end, except a stuck side that still has pieces
            stuck_with_pieces = kind == K.ENDS_NO_MOVES and game.board.count(
                MARKS[1 - side]) > 0
            assert search_res == (K.NOT_OVER if stuck_with_pieces else res), text
        game.undo()


def playout_positions(rng: random.Random, game: Loaps, limit: int) -> list[Loaps]:
    """The positions of one random game from `game` (not over), at most `limit`."""
    out = []
    while not game.is_over and len(out) < limit:
        out.append(game.copy())
        game.play(rng.choice(game.legal_moves()))
    return out


def test_differential_against_the_rules() -> None:
    rng = random.Random(9)
    seen: Counter = Counter()
    positions = 0
    starts = 0
    while positions < 2400:
        start = Loaps() if starts % 3 == 0 else random_native(rng)
        starts += 1
        for game in playout_positions(rng, start, 60):
            check_position(game, seen)
            positions += 1
    assert positions >= 2000
    # every ending was met, connections both won and lost on points
    for kind in ("connect", "capture-connect", K.ENDS_MOVE_LIMIT, K.ENDS_NO_MOVES,
                 "connection lost", "decided"):
        assert seen[kind] >= 5, seen


# Positions with a move after which the other side, pieces left, cannot move: found once
# in seeded random positions (a search of 6 s), checked by the rules below
STUCK = [
    ("1 49\n1 30 30.00\n2 2 30.00\n.......\n1..12..\n...11..\n....11.\n1......\n1......\n"
     ".......\n", "e4 f5"),
    ("1 29\n1 9 30.00\n2 8 30.00\n......2\n....111\n..1....\n....1..\n..1....\n.....1.\n"
     "...1...\n", "e6 f7"),
    ("2 33\n1 15 30.00\n2 25 30.00\n2....21\n.......\n.2.22..\n...2...\n......2\n.......\n"
     ".......\n", "d5 g5"),
]


def test_a_stuck_side_with_pieces_loses() -> None:
    for native, text in STUCK:
        game = Loaps.from_native(native)
        move = game.parse_move(text)
        probe = game.copy()
        probe.play(move)
        assert probe.outcome is not None and probe.outcome.ending == NO_MOVES
        assert MARKS[probe.to_move] in probe.board  # stuck with pieces left
        pos, side, left, _ = kernel_position(game)
        child = np.zeros(K.PWORDS, dtype=np.uint64)
        res, kind = K.play_code(pos, move_code(move), left, child)
        assert (res, kind) == (K.WIN, K.ENDS_NO_MOVES)
        assert not K.has_move(child[K.P_ME], child[K.P_OPP], child[K.P_C0], child[K.P_C1],
                              child[K.P_C2])
        check_position(game, Counter())


def test_the_50_move_draw_comes_before_no_legal_move() -> None:
    # blue's 50th move a7xa5 takes red's last piece without connecting blue: a draw, not
    # red's loss for having no move
    text = "2 50\n1 3 1.0\n2 9 1.0\n2......\n.......\n1......\n.......\n.......\n" \
        ".......\n......2\n"
    game = Loaps.from_native(text)
    pos, side, left, _ = kernel_position(game)
    assert left == 1
    child = np.zeros(K.PWORDS, dtype=np.uint64)
    kinds = set()
    for move in game.legal_moves():
        res, kind = K.play_code(pos, move_code(move), left, child)
        probe = game.copy()
        probe.play(move)
        assert probe.outcome is not None
        assert kernel_outcome(probe, side, res, kind) == (probe.outcome.ending,
                                                          probe.outcome.winner)
        kinds.add(probe.outcome.ending)
    capture = game.parse_move("a7 a5")
    assert K.play_code(pos, move_code(capture), left, child) == (K.DRAW, K.ENDS_MOVE_LIMIT)
    assert child[K.P_ME] == 0
    assert kinds == {MOVE_LIMIT_DRAW}


def test_plies_left() -> None:
    assert plies_left([0, 0], 0) == 100
    assert plies_left([28, 27], 1) == 45
    assert plies_left([50, 49], 1) == 1
    rng = random.Random(3)
    for _ in range(50):
        game = random_native(rng)
        assert plies_left(game.made, game.to_move) == 100 - sum(game.made)


SEEDS = [Loaps(), Loaps.from_native(SAMPLE2), Loaps.from_native(SAMPLE3)]


@pytest.mark.parametrize("game", SEEDS, ids=["start", "sample2", "sample3"])
def test_perft_equals_the_rules(game: Loaps) -> None:
    kernel = K.perft(kernel_position(game)[0], 3, kernel_position(game)[2])
    assert [int(c) for c in kernel] == reference_perft(game.copy(), 3)


def test_perft_near_the_draw_and_after_captures() -> None:
    rng = random.Random(12)
    checked = 0
    while checked < 8:
        game = random_native(rng)
        if game.is_over:
            continue
        pos, _, left, _ = kernel_position(game)
        assert [int(c) for c in K.perft(pos, 3, left)] == reference_perft(game.copy(), 3)
        checked += 1


def test_perft_deep_counts() -> None:
    # the counts of the C perft (../shared/cperft) at depth 5
    for game, count in ((SEEDS[0], 7181852), (SEEDS[2], 4357669)):
        pos, _, left, _ = kernel_position(game)
        assert int(K.perft(pos, 5, left)[-1]) == count


def test_evaluation_is_monotone_in_points_and_bounded() -> None:
    rng = random.Random(5)
    for _ in range(200):
        game = random_native(rng)
        pos, side, left, _ = kernel_position(game)
        if pos[K.P_ME] == 0 or pos[K.P_OPP] == 0:
            continue
        values = []
        for d in range(-40, 41, 4):
            pos[K.P_PME], pos[K.P_POPP] = np.uint64(max(d, 0)), np.uint64(max(-d, 0))
            values.append(evaluate_position(pos, left, PARAMS))
        assert values == sorted(values)
        # the curve's +-SCALE plus the linear terms (points, race, gain): far inside the
        # values the search keeps for a seen end of the game
        assert all(abs(v) < 4 * SCALE or v == MATE - 1 for v in values)


def connects_and_wins(game: Loaps) -> bool:
    """The side to move has a move that connects its pieces and wins on points."""
    me = game.to_move
    for move in game.legal_moves():
        game.play(move)
        outcome = game.outcome
        won = (outcome is not None and outcome.ending == CONNECTION
               and connected(game.board, MARKS[me]) and outcome.won(me))
        game.undo()
        if won:
            return True
    return False


def test_evaluation_sees_a_winning_connection_in_one() -> None:
    rng = random.Random(8)
    counts = Counter()
    for _ in range(300):
        for game in playout_positions(rng, random_native(rng), 20):
            pos, side, left, _ = kernel_position(game)
            if connected(game.board, MARKS[side]):
                continue  # only a native file starts so; the search never evaluates it
            wins = connects_and_wins(game)
            value = evaluate_position(pos, left, PARAMS)
            assert (value == MATE - 1) == wins, game.to_native()
            counts[wins] += 1
    assert counts[True] >= 100 and counts[False] >= 1000, counts


def test_points_in_reach_are_the_rules_best_landing() -> None:
    # the evaluation's "gain": the most points one move of the side to move scores (a
    # landing square's bonus and a capture), as the rules count them, move by move
    rng = random.Random(17)
    checked = 0
    for _ in range(300):
        game = random_native(rng)
        pos, side, left, _ = kernel_position(game)
        if pos[K.P_ME] == 0 or pos[K.P_OPP] == 0 or game.is_over:
            continue
        wins, _, gain = connecting_win(pos[K.P_ME], pos[K.P_OPP], pos[K.P_C0], pos[K.P_C1],
                                       pos[K.P_C2], np.int64(pos[K.P_PME]),
                                       np.int64(pos[K.P_POPP]))
        if wins:  # it stops at the winning move: the gain of the rest is not counted
            continue
        best = 0
        for move in game.legal_moves():
            child = game.copy()
            before = child.points[side]
            child.play(move)
            scored = child.points[side] - before
            outcome = child.outcome
            if (outcome is not None and outcome.ending == CONNECTION
                    and connected(child.board, MARKS[side])):
                scored -= 12  # the mover's connection bonus is not a landing's points
            best = max(best, scored)
        assert gain == best, (game.to_native(), gain, best)
        checked += 1
    assert checked > 150
