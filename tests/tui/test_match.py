"""`arena match`: AI levels and contest programs play; the table, the JSON, the saves,
bad input refused before any game, and Ctrl-C keeping what was finished."""

from __future__ import annotations

import io
import json
import math
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rules import get_game
from saves.store import load_position, read_save
from tests.processes import default_sigint, eventually_none, group_gone, group_members, running
from tests.tui.test_cli import assert_user_error, run
from tui.play import match as runner
from tui.play import match_report as report

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "tests" / "programs" / "bot.py"
ARENA = Path(sys.executable).with_name("arena")  # the venv's console script
PY = sys.executable


def bot(game: str, mode: str = "random", path: Path = BOT) -> str:
    return f"prog:{PY} {path} {game} {mode}"


def table_rows(stdout: str) -> dict[str, list[str]]:
    """The table's rows by player label (its cells split on runs of spaces)."""
    rows = {}
    for line in stdout.splitlines():
        if line[:1].isdigit() and ". " in line:
            label, _, rest = line.partition(". ")[2].partition("  ")
            rows[label] = rest.split()
    return rows


def played(args: list[str]) -> dict:
    result = run(["match", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def check_counts(doc: dict, total: int) -> None:
    """Every finished game is in the list and in the table; the counts add up."""
    assert doc["finished"] == doc["total"] == total == len(doc["games"])
    assert [g["number"] for g in doc["games"]] == list(range(1, total + 1))
    seats = sum(len(g["players"]) for g in doc["games"])
    assert sum(line["games"] for line in doc["table"]) == seats
    for line in doc["table"]:
        assert line["wins"] + line["draws"] + line["losses"] == line["games"]
    assert math.isclose(sum(line["points"] for line in doc["table"]), total)
    for g in doc["games"]:
        assert len(g["clock"]["moves"]) == len(g["moves"])
        assert g["result"]["kind"]


# ----- matches ---------------------------------------------------------------------------


def test_two_ai_levels_give_a_table_an_elo_line_and_a_json_document() -> None:
    args = ["pahtum", "ai:easy", "ai:medium", "-n", "2", "--time-scale", "0.1",
            "--seed", "7"]
    text = run(["match", *args])
    assert text.exit_code == 0, text.stderr
    rows = table_rows(text.stdout)
    assert set(rows) == {"AI (easy)", "AI (medium)"}
    assert sum(int(r[0]) for r in rows.values()) == 4  # two games, two seats each
    assert "Elo of AI (easy) over AI (medium):" in text.stdout
    assert "Elo of AI (easy) over AI (medium): " in text.stdout and "seed 7" in text.stdout
    progress = [line for line in text.stderr.splitlines() if line.startswith("game ")]
    assert len(progress) == 2 and "(2/2 done)" in progress[-1]

    doc = played(args)
    check_counts(doc, 2)
    assert doc["game"] == "pahtum" and doc["seed"] == 7
    assert doc["clock"] == {"kind": "move", "seconds": 1.0}
    assert [p["text"] for p in doc["players"]] == ["ai:easy", "ai:medium"]
    assert [p["label"] for p in doc["players"]] == ["AI (easy)", "AI (medium)"]
    first, second = doc["games"]
    assert first["players"] == [0, 1] and second["players"] == [1, 0]  # colours swapped
    assert first["start"] == second["start"]  # on one seeded start
    assert first["faults"] == [None, None] and first["save"] is None
    assert set(doc["elo"]) == {"games", "score", "difference", "low", "high"}
    assert doc["elo"]["games"] == 2


def test_built_in_players_and_an_ai_with_its_own_time_without_a_clock() -> None:
    """A strength run: `random`, `greedy` and `ai:LEVEL@SECONDS` under --clock none, each
    AI at its own time, the same seeded starts from both sides."""
    doc = played(["pahtum", "greedy", "ai:easy@0.05", "random", "-n", "2", "--clock",
                  "none", "--seed", "5"])
    check_counts(doc, 6)  # three pairings of two games
    assert doc["clock"] == {"kind": "none", "seconds": 0.0}
    assert [p["label"] for p in doc["players"]] == ["Greedy", "AI (easy, 0.05 s)", "Random"]
    assert all(g["faults"] == [None, None] for g in doc["games"])


def test_a_program_plays_the_ai_and_every_game_is_saved(tmp_path: Path) -> None:
    out = tmp_path / "new" / "saves"  # made when missing
    doc = played(["pillars", bot("pillars"), "ai:easy", "-n", "2", "--time-scale", "0.6",
                  "--seed", "3", "--out", str(out)])
    check_counts(doc, 2)
    assert doc["players"][0]["command"] == f"{PY} {BOT} pillars random"
    assert doc["players"][0]["label"] == "bot.py"
    assert sorted(p.name for p in out.iterdir()) == [  # each save with its record
        "match-001.arena.json", "match-001.arena.txt", "match-002.arena.json",
        "match-002.arena.txt"]
    for entry in doc["games"]:
        path = Path(entry["save"])
        saved, game = read_save(path)
        assert game.history_text() == entry["moves"]
        assert game.outcome is not None and game.outcome.to_json()["winners"] == \
            entry["result"]["winners"]
        assert [p.text() for p in saved.players] == \
            [doc["players"][i]["text"] for i in entry["players"]]
        assert saved.clock.moves == entry["clock"]["moves"]
        loaded = load_position("pillars", path)  # what `arena play --load` opens
        assert loaded.history_text() == entry["moves"]


@pytest.mark.parametrize(("game", "mode", "scale"), [
    ("pillars", "illegal", "0.6"),
    ("pahtum", "malformed", "0.3"),
    ("pillars", "hang", "0.1"),
])
def test_a_faulty_program_loses_every_game_with_its_fault_counted(
        tmp_path: Path, game: str, mode: str, scale: str) -> None:
    fault = "timeout" if mode == "hang" else mode
    args = [game, bot(game, mode), "ai:easy", "-n", "2", "--time-scale", scale, "--seed", "1",
            "--out", str(tmp_path)]
    doc = played(args)
    check_counts(doc, 2)
    faulty, ai = doc["table"]
    assert (faulty["losses"], faulty["points"], faulty["faults"]) == (2, 0, {fault: 2})
    assert (ai["wins"], ai["faults"]) == (2, {})
    for entry in doc["games"]:
        seat = entry["players"].index(0)
        assert entry["faults"][seat] == fault and entry["result"]["loser"] == seat
        assert entry["result"]["fault"] == fault and "bot.py" in entry["result"]["reason"]
        saved, _ = read_save(entry["save"])  # the fault and the output are kept
        assert saved.result is not None and saved.result.fault == fault
        assert saved.result.output == entry["result"]["output"]
    if mode == "illegal":
        text = run(["match", *args[:-2]])
        assert text.exit_code == 0
        assert table_rows(text.stdout)["bot.py"][-2:] == ["illegal", "2"]


def test_three_players_make_a_round_robin_with_a_crosstable() -> None:
    args = ["pahtum", "ai:easy", "ai:medium", "ai:easy", "-n", "2", "--time-scale", "0.05",
            "--seed", "11", "--jobs", "3"]
    doc = played(args)
    check_counts(doc, 6)
    assert [p["label"] for p in doc["players"]] == ["AI (easy) 1", "AI (medium)", "AI (easy) 2"]
    pairs = [tuple(sorted(g["players"])) for g in doc["games"]]
    assert sorted(pairs) == [(0, 1), (0, 1), (0, 2), (0, 2), (1, 2), (1, 2)]
    cross = doc["crosstable"]
    for a in range(3):
        assert cross[a][a] is None
        for b in range(3):
            if a != b:
                assert cross[a][b] + cross[b][a] == 2
        assert math.isclose(sum(v for v in cross[a] if v is not None),
                            doc["table"][a]["points"])
    assert "elo" not in doc
    text = run(["match", *args])
    assert text.exit_code == 0 and "crosstable" in text.stdout
    assert set(table_rows(text.stdout)) >= {"AI (easy) 1", "AI (medium)", "AI (easy) 2"}


def test_boxing_seats_everyone_in_every_game_rotating_the_seats() -> None:
    result = run(["match", "boxing", "ai:easy", "ai:medium", "ai:easy", "-n", "2",
                  "--time-scale", "0.05", "--jobs", "3", "--json"])
    assert result.exit_code == 0, result.stderr
    notices = [line for line in result.stderr.splitlines()
               if line.startswith(("arena: seed", "arena: -n"))]
    assert notices[0].startswith("arena: seed ")  # a random seed is said
    assert notices[1] == "arena: -n 2 rounded up to 3: each start is played from every seat"
    doc = json.loads(result.stdout)
    assert f"arena: seed {doc['seed']} " in notices[0]
    check_counts(doc, 3)  # rounded up to a multiple of the three players
    assert doc["options"]["players"] == 3
    assert [g["players"] for g in doc["games"]] == [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    assert len({g["start"] for g in doc["games"]}) == 1


# ----- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "words"), [
    (["nosuchgame", "ai:easy", "ai:hard"], ["nosuchgame"]),
    (["pahtum", "ai:easy", "ai:wizard"], ["player 2", "wizard"]),
    (["pahtum", "ai:easy"], ["two players"]),
    (["pahtum", "ai:easy", "human"], ["no people"]),
    (["pahtum", "ai:easy", "prog:/no/such/bot"], ["player 2", "/no/such/bot"]),
    (["pahtum", "ai:easy", "prog:no-such-command-xyz --go"], ["no-such-command-xyz"]),
    (["boxing", *["ai:easy"] * 9], ["2 to 8 players", "9"]),
    (["boxing", "ai:easy", "ai:easy", "--opt", "players=3"], ["players=3"]),
    (["pahtum", "ai:easy", "ai:hard", "-n", "0"], ["-n"]),
    (["pahtum", "ai:easy", "ai:hard", "-n", "10000000"], ["too many"]),
    (["pahtum", "ai:easy", "ai:hard", "--time-scale", "1e300"], ["--time-scale"]),
    (["pahtum", "ai:easy", "ai:hard", "--jobs", "0"], ["--jobs"]),
    (["pahtum", "ai:easy", "ai:hard", "--time-scale", "0"], ["--time-scale"]),
    (["pahtum", "ai:easy", "ai:hard", "--time-scale", "nan"], ["--time-scale"]),
    (["pahtum", "ai:easy", "ai:hard", "--opt", "size"], ["--opt"]),
    (["pahtum", "ai:easy", "ai:hard", "--opt", "colour=red"], ["colour"]),
    (["pahtum", "ai:easy@0", "random"], ["time of its own"]),
    (["pahtum", "ai:easy@soon", "random"], ["seconds after '@'"]),
    (["pahtum", "rev:HEAD", "random"], ["rev:REV:LEVEL"]),
    (["pahtum", "random", "greedy", "--clock", "move:1", "--time-scale", "0.5"],
     ["--clock or --time-scale"]),
    (["pahtum", "random", "greedy", "--clock", "soon"], ["bad clock"]),
])
def test_bad_input_is_one_line_before_any_game(args: list[str], words: list[str]) -> None:
    result = run(["match", *args])
    assert_user_error(result, *words)


def test_an_out_path_that_is_a_file_or_holds_a_match_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("x")
    args = ["pahtum", "ai:easy", "ai:hard", "--seed", "1", "--out"]
    assert_user_error(run(["match", *args, str(file)]), "is a file")
    (tmp_path / "match-001.arena.json").write_text("{}")
    assert_user_error(run(["match", *args, str(tmp_path)]), "already holds")
    assert file.read_text() == "x"


# ----- pieces --------------------------------------------------------------------------------


def test_elo_from_scores() -> None:
    even = report.Elo.of([1, 0, 0.5, 0.5])
    assert even is not None and even.difference == 0 and even.low < 0
    assert math.isclose(even.low, -even.high)
    won = report.Elo.of([1.0, 1.0])
    assert won is not None and won.difference == math.inf and won.high == math.inf
    assert -400 < won.low < 0  # two wins prove little
    lost = report.Elo.of([0.0] * 10)
    assert lost is not None and lost.difference == -math.inf and -400 < lost.high < 0
    assert report.Elo.of([]) is None
    assert round(report.elo(0.75)) == 191
    assert won.to_json()["difference"] == "+inf"
    # the report's line: a sweep gives its one finite bound, not "-inf (... -inf to +72)"
    swept = report.Elo.of([0.0] * 4)
    assert swept is not None
    assert report.elo_line("A", "B", swept) == ("Elo of A over B: at most +72 (95% bound; "
                                                 "score 0.0% over 4 games)")
    assert report.elo_line("A", "B", won).startswith("Elo of A over B: at least -")
    assert report.elo_line("A", "B", even) == ("Elo of A over B: +0 (95% interval "
                                                f"{report.signed(even.low)} to "
                                                f"{report.signed(even.high)}; score 50.0% "
                                                "over 4 games)")


def test_the_schedule_shares_each_start_between_the_colours() -> None:
    cls = get_game("loaps")  # no random start: seeded opening moves instead
    tasks = runner.plan(cls, {}, 2, 3, seed=5)
    assert [t.seats for t in tasks] == [(0, 1), (1, 0), (0, 1)]
    assert tasks[0].start is tasks[1].start and tasks[2].start is not tasks[0].start
    assert len(tasks[0].start.history) == 2


def test_progress_redraws_one_line_on_a_terminal() -> None:
    cls = get_game("pahtum")
    players = runner.entrants([], [])
    result = runner.Result(cls, {}, players, cls.clock, 1, 2, 4)
    stream = io.StringIO()
    progress = report.Progress(stream, tty=True, width=60)
    progress.start(result)
    progress.tick(result)
    progress.close()
    text = stream.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n") and "0/4 games" in text
    assert all(len(part) <= 60 + 3 for part in text.split("\r"))


# ----- Ctrl-C ------------------------------------------------------------------------------


@pytest.mark.skipif(not ARENA.is_file() or not Path("/proc").is_dir(),
                    reason="needs the console script and /proc")
def test_ctrl_c_stops_the_match_keeps_the_finished_games_and_leaves_nothing_running(
        tmp_path: Path) -> None:
    copy = tmp_path / "bot.py"  # its own path marks its processes
    shutil.copy(BOT, copy)
    out = tmp_path / "saves"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [str(ARENA), "match", "pillars", bot("pillars", "sleep:0.1", copy), "ai:easy",
            "-n", "40", "--jobs", "2", "--seed", "4", "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env=env, start_new_session=True,
                            preexec_fn=default_sigint)
    assert proc.stderr is not None
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while b"\ngame " not in b"\n" + seen and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stderr], [], [], 0.5)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 4096)
                assert chunk, f"arena ended early: {seen.decode()}"
                seen += chunk
        assert b"game " in seen, seen.decode()
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, (stdout, seen + stderr)
    text = stdout.decode()
    assert "(interrupted)" in text and "bot.py" in text
    finished = int(text.split(": ", 1)[1].split(" of ", 1)[0])
    assert 1 <= finished < 40
    saves = sorted(out.glob("*.arena.json"))
    assert len(saves) == finished  # the finished games are saved, nothing more
    assert len(list(out.iterdir())) == 2 * finished  # each with its record
    for path in saves:
        _, game = read_save(path)
        assert game.is_over
    assert group_gone(proc.pid, 5.0), group_members(proc.pid)
    assert eventually_none(lambda: running(str(copy))), running(str(copy))
