"""Boxing kernels against the rules.

Proven here, on over 2,000 random positions (random arenas with random unusable counts
and seeds, the seed's sample, partial and empty arenas, 2 to 8 players, random play to
every stage down to the full arena) and hand-made edge cases: the kernel's moves are
exactly the rules' legal moves (as sets and in number, no repeats); the child after a
move is the rules' rows and vacant count after playing it; perft equals
`reference_perft` at depths 1-2 (3 on small late positions), its checksum is the one
its made leaves give, and it matches the C program's counts.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import numpy as np
import pytest

from ai.boxing import kernels as K
from ai.perft import reference_perft
from rules.boxing import HEIGHT, MAX_BOX, WIDTH, Boxing

FULL_ROW = (1 << WIDTH) - 1
MOVE3 = "/work/shared/cperft/positions/boxing-move3.txt"
M64 = (1 << 64) - 1


def kernel_moves(rows: list[int] | tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    masks = K.row_masks(rows)
    out = np.zeros(K.MAX_MOVES, np.int64)
    n = K.box_codes(masks, out)
    return out[:n].copy(), masks


def kernel_children(codes: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    out = np.zeros((codes.size, HEIGHT), np.uint64)
    left = np.zeros(codes.size, np.int64)
    K.children(masks, codes, codes.size, out, left)
    return out, left


def after(rows: list[int] | tuple[int, ...], move: tuple[int, int, int]) -> list[int]:
    """The rows with the box filled (plain arithmetic, for rows no game reaches)."""
    r, c, k = move
    mask = ((1 << k) - 1) << c
    return [m & ~mask if r <= i < r + k else m for i, m in enumerate(rows)]


def plain_moves(rows: list[int] | tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Every vacant box by brute force."""
    out = []
    for r in range(HEIGHT):
        for c in range(WIDTH):
            for k in range(1, MAX_BOX + 1):
                if r + k > HEIGHT or c + k > WIDTH:
                    break
                mask = ((1 << k) - 1) << c
                if not all(rows[i] & mask == mask for i in range(r, r + k)):
                    break
                out.append((r, c, k))
    return out


def plain_perft(rows: list[int], depth: int) -> tuple[list[int], int]:
    """Counts and the made-leaf checksum by plain Python: each leaf adds its changed rows
    (mod 2^64); the kernel reports the sum shifted right by one."""
    counts = [0] * depth
    check = 0

    def walk(rows: list[int], ply: int) -> None:
        nonlocal check
        for move in plain_moves(rows):
            counts[ply] += 1
            r, c, k = move
            child = after(rows, move)
            if ply == depth - 1:
                check += sum(child[r:r + k])
            elif any(child):
                walk(child, ply + 1)

    if any(rows):
        walk(list(rows), 0)
    return counts, (check & M64) >> 1


def random_game(rng: random.Random) -> Boxing:
    arena = rng.choice(["random"] * 6 + ["sample", "partial", "empty"])
    players = 2 if arena == "partial" else rng.randint(2, 8)
    options: dict = {"arena": arena, "players": players}
    if arena == "random":
        options["unusable"] = rng.choice(["random", "0", "5", "40", "100", "256",
                                          str(rng.randint(0, 256))])
    return Boxing.new(options, seed=rng.randrange(1 << 30))


def game_positions(rng: random.Random) -> list[Boxing]:
    """Positions of one random game to the full arena: box sizes capped (a large cap
    ends the game in a few moves, a small one fragments the arena), more of them kept
    late in the game."""
    game = random_game(rng)
    cap = rng.choice([16, 8, 4, 3, 2])
    keep = rng.choice([0.05, 0.15, 0.3])
    out = []
    while not game.is_over:
        if rng.random() < (0.3 if game.vacant > 300 else keep if game.vacant > 40 else 0.5):
            out.append(game.copy())
        moves = game.legal_moves()
        small = [m for m in moves if m[2] <= cap]
        if game.vacant > 60 and rng.random() < 0.3:  # now and then the largest box
            big = max(m[2] for m in moves)
            small = [m for m in moves if m[2] == big]
        game.play(rng.choice(small or moves))
    out.append(game)
    return out


@cache
def positions() -> tuple[Boxing, ...]:
    """Over 2,000 positions at every stage (the same every run)."""
    rng = random.Random(1994)
    out: list[Boxing] = []
    while len(out) < 2100:
        out.extend(game_positions(rng))
    return tuple(out)


# ----- move codes -------------------------------------------------------------------------
def test_move_codes_round_trip() -> None:
    for r in range(HEIGHT):
        for c in range(WIDTH):
            for k in range(1, MAX_BOX + 1):
                code = K.encode(r, c, k)
                assert code == k << 16 | r << 8 | c
                assert K.decode(code) == (r, c, k)
                assert K.decode(np.int64(code)) == (r, c, k)


def test_row_masks() -> None:
    rows = [random.Random(r).randrange(1 << WIDTH) for r in range(HEIGHT)]
    masks = K.row_masks(rows)
    assert masks.dtype == np.uint64 and masks.shape == (HEIGHT,)
    assert [int(m) for m in masks] == rows
    assert K.vacant(masks) == sum(bin(m).count("1") for m in rows)
    with pytest.raises(ValueError):
        K.row_masks(rows[:-1])


# ----- moves and children against the rules' play --------------------------------------
def test_differential_moves_and_children() -> None:
    stages: Counter = Counter()
    rng = random.Random(7)
    for game in positions():
        codes, masks = kernel_moves(game.rows)
        moves = [K.decode(c) for c in codes]
        legal = game.legal_moves()
        text = game.to_native()
        assert len(moves) == len(set(moves)) == len(legal), text
        assert set(moves) == set(legal), text
        assert K.vacant(masks) == game.vacant
        # the order: by size, then row, then column
        assert moves == sorted(moves, key=lambda m: (m[2], m[0], m[1]))
        out, left = kernel_children(codes, masks)
        picks = range(len(moves)) if len(moves) <= 60 else rng.sample(range(len(moves)), 60)
        for i in picks:
            game.play(moves[i])
            assert [int(x) for x in out[i]] == game.rows, (text, moves[i])
            assert left[i] == game.vacant, (text, moves[i])
            game.undo()
        # `play` in place says how many cells it filled
        for i in picks[:5]:
            rows = masks.copy()
            assert K.play(rows, codes[i]) == moves[i][2] ** 2
            assert np.array_equal(rows, out[i])
        v = game.vacant
        stages["full" if v == 0 else "early" if v > 300 else "mid" if v > 60 else
               "late" if v > 10 else "end"] += 1
        stages[game.players] += 1
    assert len(positions()) >= 2000
    assert all(stages[s] >= 100 for s in ("early", "mid", "late", "end")), stages
    assert stages["full"] >= 50, stages  # every game's last position
    assert all(stages[p] >= 20 for p in range(2, 9)), stages


@pytest.mark.parametrize("rows", [
    (FULL_ROW,) * HEIGHT,  # the empty arena: every box
    (0,) * HEIGHT,  # a full arena: no move
    (1,) + (0,) * 15,  # one cell in each corner
    (1 << 31,) + (0,) * 15,
    (0,) * 15 + (1,),
    (0,) * 15 + (1 << 31,),
    (FULL_ROW,) + (0,) * 15,  # one whole row, top and bottom
    (0,) * 15 + (FULL_ROW,),
    (1 << 31,) * HEIGHT,  # the last column
    (0xFFFF0000,) * HEIGHT,  # the right half: a 16x16 box at its right edge
    (FULL_ROW,) * 15 + (0,),  # 15 rows: no 16x16 box
    (0xAAAAAAAA, 0x55555555) * 8,  # a checkerboard: 1x1 boxes only
    (0xFFFFFFFE,) * 8 + (0x7FFFFFFF,) * 8,
    tuple(((1 << 16) - 1) << r for r in range(HEIGHT)),  # a staircase of runs
])
def test_edge_rows(rows: tuple[int, ...]) -> None:
    codes, masks = kernel_moves(rows)
    moves = [K.decode(c) for c in codes]
    assert sorted(moves) == plain_moves(rows) and len(moves) == len(set(moves))
    out, left = kernel_children(codes, masks)
    for i, move in enumerate(moves):
        child = after(rows, move)
        assert [int(x) for x in out[i]] == child
        assert left[i] == sum(bin(m).count("1") for m in child)


def test_empty_arena_counts() -> None:
    codes, _ = kernel_moves((FULL_ROW,) * HEIGHT)
    assert codes.size == K.MAX_MOVES == 3672
    sizes = Counter(K.decode(c)[2] for c in codes)
    assert sizes[16] == 17 and sizes[1] == 512
    assert list(K.perft(K.row_masks((0,) * HEIGHT), 3)) == [0, 0, 0, 0]


# ----- perft -------------------------------------------------------------------------------
def test_perft_equals_reference_perft() -> None:
    done: Counter = Counter()
    for game in positions()[::3]:  # a third of them: the reference perft is slow Python
        n = len(game.legal_moves())
        depth = 3 if n <= 14 else 2 if n <= 70 else 1 if n <= 400 else 0
        if depth == 0:
            continue
        counts = K.perft(K.row_masks(game.rows), depth)
        assert list(counts[:depth]) == reference_perft(game, depth), game.to_native()
        done[depth] += 1
    assert done[1] >= 200 and done[2] >= 200 and done[3] >= 100, done


def test_perft_terminal_children_are_not_expanded() -> None:
    # two vacant cells side by side: 1x1, 1x1 (each leaves one cell), no 2x2
    rows = [0] * HEIGHT
    rows[5] = 0b11 << 7
    assert list(K.perft(K.row_masks(rows), 4)[:4]) == [2, 2, 0, 0]
    # a vacant 2x2 box: the 2x2 move fills the arena and is not expanded
    rows = [0] * HEIGHT
    rows[14] = rows[15] = 0b11 << 30
    counts = list(K.perft(K.row_masks(rows), 5)[:5])
    assert counts == plain_perft(rows, 5)[0] == [5, 12, 24, 24, 0]


def test_perft_checksum_counts_the_made_leaves() -> None:
    rng = random.Random(3)
    small = [g for g in positions() if 0 < len(g.legal_moves()) <= 40]
    for game in rng.sample(small, 40):
        depth = rng.choice([1, 2])
        counts = K.perft(K.row_masks(game.rows), depth)
        want, check = plain_perft(game.rows, depth)
        assert list(counts[:depth]) == want
        assert int(counts[depth]) == check
    counts = K.perft(K.row_masks(Boxing.new({"arena": "sample"}).rows), 1)
    assert int(counts[1]) == plain_perft(Boxing.new({"arena": "sample"}).rows, 1)[1]


@pytest.mark.parametrize(("arena", "want"), [
    ("sample", [2250, 4520346]),  # boxing_perft.c's self-test reference counts
    ("partial", [330, 101530]),
])
def test_perft_c_reference_counts(arena: str, want: list[int]) -> None:
    game = Boxing.new({"arena": arena})
    assert list(K.perft(K.row_masks(game.rows), 2)[:2]) == want
    assert reference_perft(game, 1) == want[:1]


def test_perft_move3_position() -> None:
    """The C program's default position; its counts as boxing_perft prints them."""
    with open(MOVE3) as f:
        game = Boxing.from_native(f.read())
    assert reference_perft(game, 1) == [1219]
    counts = K.perft(K.row_masks(game.rows), 3)
    assert list(counts[:3]) == [1219, 1230366, 1102526664]


@pytest.mark.parametrize("arena", ["empty", "sample", "random"])
def test_perft_depth_two_on_open_arenas(arena: str) -> None:
    """Where reference_perft is too slow: depth 2 is the moves of every child (the moves
    and children proven against the rules above), every box size up to 16x16 made."""
    game = Boxing.new({"arena": arena, "unusable": "5"}, seed=11)
    codes, masks = kernel_moves(game.rows)
    out, left = kernel_children(codes, masks)
    below = sum(kernel_moves([int(x) for x in out[i]])[0].size for i in range(codes.size))
    counts = K.perft(masks, 2)
    assert list(counts[:2]) == [codes.size, below]
    if arena == "empty":
        assert codes.size == 3672
