"""`arena move loaps PATH`: the input file (or stdin), the `<from> <to>` reply, the time taken
from the seconds left in the file, and one-line refusals of bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import codec_of
from rules.clock import LEAST_SECONDS
from rules.loaps import Loaps
from tests.rules.test_loaps import SAMPLES
from tests.tui.test_cli import assert_user_error, fresh_process, run  # noqa: F401 - a fixture
from tests.tui.test_contest import play, refused, shared
from tui.play.contest import EXIT_RESERVE, Contest, process_seconds


def write(tmp_path: Path, text: str, name: str = "input") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_the_reply_is_one_line_from_and_to(tmp_path: Path) -> None:
    path = write(tmp_path, SAMPLES[0])
    result = play(Loaps, "", [path], script=["b7 b5"])
    assert result.out.getvalue() == "b7 b5\n"
    from_stdin = play(Loaps, SAMPLES[2], script=["a3 a5"])  # no path: the file on stdin
    assert from_stdin.out.getvalue() == "a3 a5\n"


def test_the_time_comes_from_the_seconds_left_in_the_file(tmp_path: Path) -> None:
    # blue has 40.7 s, planned over a sixth of its 23 moves left (past a typical game),
    # each of the 23 keeping its start-up back
    result = play(Loaps, "", [write(tmp_path, SAMPLES[2])])
    expected = shared(40.7, 3, kept=23)
    assert result.engine.seconds == [pytest.approx(expected)]
    assert result.engine.seconds[0] < 40.7  # never more than is left
    # red at the start: 60 s over a typical game of 8 moves a side, 50 start-ups kept
    start = play(Loaps, "", [write(tmp_path, SAMPLES[0], "start")])
    assert start.engine.seconds == [pytest.approx(shared(60, 8, kept=50))]


@pytest.mark.parametrize("start_ups", [[0.15], [0.3], [0.07, 0.33, 0.12, 0.25, 0.1]])
def test_a_long_game_keeps_the_start_up_of_every_move_to_the_draw(start_ups: list[float]
                                                                   ) -> None:
    # red at its 35th move with 6 s left and 16 moves to the 50-move draw, each a new
    # process whose start-up (cycling through `start_ups`: a busy machine's vary) is what
    # it measures: every process taking all it may, the clock still lasts to the draw
    # (the plan alone, a sixth of the moves left, would spend 2.4 s now and flag later)
    have = 6.0
    for number in range(35, 51):
        start_up = start_ups[number % len(start_ups)]
        shown = f"{have - 0.005:.2f}"  # as the jury writes it: rounded down
        game = Loaps.from_native(SAMPLES[0].replace("1 1\n1 0 60.0", f"1 {number}\n1 0 {shown}"))
        assert game.moves_left_most(0) == 51 - number
        allowed = process_seconds(Contest(codec_of(Loaps), [], "max", None, None, None, None),
                                  game, start_up)
        assert allowed >= start_up + EXIT_RESERVE + LEAST_SECONDS
        have -= allowed
        assert have > 0, number


@pytest.mark.parametrize(("text", "says"), [
    ("", "empty input"),
    ("1 1\n1 0 60\n", "expected 10 lines"),
    (SAMPLES[0].replace(".11.11.", ".11.1x.", 1), "only 1, 2 and ."),
    (SAMPLES[0].replace("1 1\n", "1 77\n", 1), "1 to 50"),
    (SAMPLES[0].replace(".......", "..2....", 1), "player 2 (blue) has 9 pieces"),
])
def test_bad_files_are_refused_in_one_line(tmp_path: Path, text: str, says: str) -> None:
    path = write(tmp_path, text)
    message = refused(Loaps, "", [path])
    assert message.startswith(f"bad LOAPS position in {path}: ") and says in message


def test_a_file_with_no_legal_move_is_refused(tmp_path: Path) -> None:
    walled = ("1 20\n1 0 60\n2 0 60\n12.....\n22.....\n.......\n.......\n.......\n"
              ".......\n......2\n")
    assert Loaps.from_native(walled).is_over
    message = refused(Loaps, "", [write(tmp_path, walled)])
    assert "game is over" in message and "red has no legal move" in message


def test_missing_and_extra_arguments(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    assert refused(Loaps, "", [str(missing)]) == f"{missing}: no such file"
    assert refused(Loaps, "", [write(tmp_path, SAMPLES[0]), "X"]) == (
        "arena move loaps: 'X' is one argument too many for the LOAPS program")


def test_the_cli_refuses_bad_files_with_exit_code_2(tmp_path: Path) -> None:
    bad = write(tmp_path, SAMPLES[1].replace("1  4  5.34", "1  4  soon"))
    assert_user_error(run(["move", "loaps", bad]), "bad LOAPS position", "seconds")
    assert_user_error(run(["move", "loaps"], "1 1\n"), "on stdin", "expected 10 lines")
