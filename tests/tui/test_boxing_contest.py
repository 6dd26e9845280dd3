"""`arena move boxing MARK` as the seed's contest program, in-process with a scripted engine:
the arena back with one new box, byte for byte otherwise; a full arena copied unchanged; bad
input refused in one line before the engine loads. (Boxing is not in the game list yet: the
protocol driver is given its class.)"""

from __future__ import annotations

from rules.boxing import EMPTY_ARENA, Boxing
from tests.tui.test_contest import play, refused

FULL = ("A" * 32 + "\n") * 8 + ("B" * 32 + "\n") * 8


def test_the_arena_comes_back_with_one_new_box() -> None:
    run = play(Boxing, EMPTY_ARENA, ["A"], script=["C12x5"])
    out = run.out.getvalue()
    assert len(out) == 528
    changed = [i for i, (a, b) in enumerate(zip(EMPTY_ARENA, out, strict=True)) if a != b]
    assert len(changed) == 25 and {out[i] for i in changed} == {"A"}
    rows = {i // 33 for i in changed}
    cols = {i % 33 for i in changed}
    assert rows == set(range(2, 7)) and cols == set(range(11, 16))  # C..G, 12..16


def test_a_full_arena_is_copied_unchanged_without_the_engine() -> None:
    run = play(Boxing, FULL, ["B"])
    assert run.out.getvalue() == FULL
    assert run.loads == []  # nothing to choose: the engine is never loaded


def test_bad_input_is_one_line_and_no_output() -> None:
    assert "mark" in refused(Boxing, EMPTY_ARENA, ["-"])
    assert "give the mark to play" in refused(Boxing, EMPTY_ARENA, [])
    assert refused(Boxing, EMPTY_ARENA[:-1], ["A"])
    assert refused(Boxing, EMPTY_ARENA.replace("-", "--", 1), ["A"])
