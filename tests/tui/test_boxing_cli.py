"""Boxing's command line end to end, as real processes of the venv's `arena` script: the
seed's contest program `prog A < old > new` (one new box, byte for byte otherwise, 1 s a
move), whole games through pipes checked by the rules, one-line refusals of bad input,
`perft --players`, `bench`, and the seat checks of `play`. (The protocol's replies
in-process, with a scripted engine, are tests/tui/test_boxing_contest.py.)"""

from __future__ import annotations

import io
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules import PlayerSpec
from rules.boxing import (
    CELLS,
    HEIGHT,
    LAST_CELL,
    NATIVE_BYTES,
    SAMPLE_ARENA,
    VACANT,
    WIDTH,
    Boxing,
    BoxMove,
    native,
)
from rules.codecs.boxing import CODEC as BOXING
from tests.conftest import seeded_cache
from tests.tui.test_cli import assert_user_error, leaf_counts, run, ui  # noqa: F401 - a fixture
from tests.tui.test_contest import FakeEngine, FakeTime
from tui.play import contest
from tui.play.contest import EXIT_RESERVE, LATE_SHARE, MIN_SEARCH, TIME_SHARE

ROOT = Path(__file__).resolve().parents[2]
ARENA = Path(sys.executable).with_name("arena")  # the venv's console script
CONTEST_SECONDS = Boxing.clock.seconds  # the seed: 1 s a move, start-up included
COMPILING = "arena: compiling the boxing AI kernels"
LINE = WIDTH + 1

pytestmark = pytest.mark.skipif(not ARENA.is_file(), reason=f"no console script {ARENA}")


@dataclass
class Done:
    """A finished `arena` process, shaped like a CliRunner result (for assert_user_error)."""

    exit_code: int
    out: bytes
    stderr: str
    seconds: float  # wall time, from start to exit: what the seed's referee would count

    @property
    def stdout(self) -> str:
        return self.out.decode()


def arena(args: list[str], stdin: str | bytes = b"", timeout: float = 120) -> Done:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    began = time.perf_counter()
    done = subprocess.run([str(ARENA), *args], input=data, capture_output=True, cwd=ROOT,
                          timeout=timeout)
    return Done(done.returncode, done.stdout, done.stderr.decode(),
                time.perf_counter() - began)


def quiet(done: Done) -> None:
    """Exit 0 and nothing on stderr but, on a cold cache, the one-time compile notice."""
    assert done.exit_code == 0, f"exit {done.exit_code}: {done.stderr[-2000:]}"
    lines = done.stderr.splitlines()
    assert all(line.startswith(COMPILING) for line in lines), done.stderr[-2000:]


@pytest.fixture(scope="module")
def compiled() -> None:
    """Compile every Boxing kernel into the cache the processes share (ARENA_CACHE_DIR is
    inherited), so the timed processes load them and never compile."""
    from ai.engine import get_engine

    get_engine("boxing").warm_up()


def new_box(before: str, after: str, mark: str) -> BoxMove:
    """The one k x k box of `mark`, on cells vacant in `before`, that makes `after`;
    everything else byte for byte the same."""
    assert len(after.encode()) == NATIVE_BYTES, len(after.encode())
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert changed, "the arena came back unchanged"
    assert all(before[i] == VACANT and after[i] == mark for i in changed), [
        (divmod(i, LINE), before[i], after[i]) for i in changed][:5]
    rows = sorted({i // LINE for i in changed})
    cols = sorted({i % LINE for i in changed})
    k = len(rows)
    assert len(cols) == k and len(changed) == k * k, (rows, cols, len(changed))
    assert rows == list(range(rows[0], rows[0] + k)) and cols == list(range(cols[0], cols[0] + k))
    return rows[0], cols[0], k


def checked_step(game: Boxing, before: str, after: str) -> BoxMove:
    """`after` is `before` with a legal box of the mover's mark: as the next program reads
    the arena, and in the game's own turn order."""
    mark = game.marks[game.to_move]
    move = new_box(before, after, mark)
    fresh = BOXING.position(before, [mark])
    fresh.play(move)  # MoveError (saying why) if it is not legal
    assert fresh.to_native() == after
    game.play(move)
    assert game.to_native() == after
    return move


def near_end(players: int, seed: int, rows: int, cols: int) -> Boxing:
    """A seeded random arena, played by the rules with greedy boxes everywhere but its
    top-left `rows` x `cols` corner: a game near its end whose vacant cells are one
    region (less its o cells), where boxes larger than 1x1 are still to be chosen."""
    game = Boxing.new({"players": players}, seed=seed)
    rng = random.Random(seed)
    while True:
        outside = [m for m in game.legal_moves() if m[0] >= rows or m[1] >= cols]
        if not outside:
            return game
        best = max(k for _, _, k in outside)
        game.play(rng.choice([m for m in outside if m[2] == best]))


def pipe_game(game: Boxing) -> tuple[list[BoxMove], list[float]]:
    """Each mover in turn as its own `arena move boxing MARK`, fed the last one's output,
    until no cell is vacant; then one more run, which copies the full arena unchanged."""
    text, moves, seconds = game.to_native(), [], []
    while not game.is_over:
        mark = game.marks[game.to_move]
        done = arena(["move", "boxing", mark], text)
        quiet(done)
        moves.append(checked_step(game, text, done.stdout))
        seconds.append(done.seconds)
        text = done.stdout
    assert VACANT not in text
    for mark in game.marks:
        done = arena(["move", "boxing", mark], text)
        assert (done.exit_code, done.stdout, done.stderr) == (0, text, "")
    return moves, seconds


# ----- one move -------------------------------------------------------------------------


def test_one_move_on_the_sample_arena_is_one_new_box() -> None:
    done = arena(["move", "boxing", "A"], SAMPLE_ARENA)
    quiet(done)
    assert len(done.out) == NATIVE_BYTES
    r, c, k = new_box(SAMPLE_ARENA, done.stdout, "A")
    assert BOXING.position(SAMPLE_ARENA, ["A"]).is_legal((r, c, k))
    print(f"\narena move boxing A on the sample arena: {Boxing().move_text((r, c, k))} "
          f"in {done.seconds:.3f} s")


def test_the_seeds_own_test_a_pipeline_of_four_programs(compiled: None) -> None:
    """`cat start.arena | a.out A | a.out B | a.out A | a.out B > 4move.arena`, all four
    running at once as the shell would start them."""
    procs: list[subprocess.Popen[bytes]] = []
    feed: int | object = subprocess.PIPE
    try:
        for mark in "ABAB":
            proc = subprocess.Popen([str(ARENA), "move", "boxing", mark], stdin=feed,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
            if procs:
                procs[-1].stdout.close()  # type: ignore[union-attr] # only the next reads it
            procs.append(proc)
            feed = proc.stdout  # type: ignore[assignment]
        procs[0].stdin.write(SAMPLE_ARENA.encode())  # type: ignore[union-attr]
        procs[0].stdin.close()  # type: ignore[union-attr]
        final = procs[-1].stdout.read()  # type: ignore[union-attr]
        for proc in procs:
            assert proc.wait(timeout=120) == 0, proc.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
            assert all(line.startswith(COMPILING)
                       for line in proc.stderr.read().decode().splitlines())  # type: ignore[union-attr]
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    assert len(final) == NATIVE_BYTES
    after = final.decode()
    changed = [i for i, (a, b) in enumerate(zip(SAMPLE_ARENA, after, strict=True)) if a != b]
    assert all(SAMPLE_ARENA[i] == VACANT for i in changed)
    for mark in "AB":  # two boxes each, disjoint, so legal in any order
        cells = {divmod(i, LINE) for i in changed if after[i] == mark}
        assert two_boxes(cells), f"{mark}'s new cells are not two square boxes:\n{after}"
    assert {after[i] for i in changed} == {"A", "B"}


def two_boxes(cells: set[tuple[int, int]], count: int = 2) -> bool:
    """Whether `cells` are exactly `count` disjoint square boxes. The first cell (row by
    row) is the top-left of one of them: try each size that fits."""
    if not cells or count == 0:
        return not cells and count == 0
    r, c = min(cells)
    for k in range(1, HEIGHT + 1):
        box = {(r + i, c + j) for i in range(k) for j in range(k)}
        if not box <= cells:
            break
        if two_boxes(cells - box, count - 1):
            return True
    return False


# ----- whole games through pipes ----------------------------------------------------------

def whole_game(players: int, seed: int, rows: int, cols: int) -> tuple[list[BoxMove],
                                                                        list[float], str]:
    """A game near its end played to its last cell by `arena move` processes through
    pipes, checked by the rules: (the moves, each process's wall time, the winner's mark)."""
    game = near_end(players, seed, rows, cols)
    assert set(game.marks) == set("ABC"[:players]) and game.vacant >= rows * cols - 6
    assert set(Boxing.from_native(game.to_native()).marks) == set(game.marks)
    start = len(game.history)
    moves, seconds = pipe_game(game)
    outcome = game.outcome
    assert outcome is not None and outcome.ending == LAST_CELL
    winner = (start + len(moves) - 1 + game.first) % players
    assert outcome.winners == (winner,)
    assert outcome.points[winner] == game.to_native().count(game.marks[winner])
    return moves, seconds, game.marks[winner]


def test_a_game_to_its_last_cell_through_pipes(compiled: None) -> None:
    """Three players, the fewest moves; two play the seed's pipeline above, and both games
    are timed below (slow)."""
    whole_game(3, 2, 4, 6)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed", "rows", "cols"), [(2, 5, 4, 7), (3, 2, 4, 6)])
def test_every_move_of_a_whole_game_keeps_to_the_contest_second(
        compiled: None, players: int, seed: int, rows: int, cols: int) -> None:
    moves, seconds, winner = whole_game(players, seed, rows, cols)
    sizes = sorted(k for _, _, k in moves)
    # Wall time of each process, start-up and exit included, as the seed's referee counts.
    # After the first run (which may load what the warm-up left), the median must keep to
    # the second. A loaded machine (more runnable processes than cores) slows every
    # start-up past it, which is no fault of the program's clock (tested above, in-process):
    # then the bound is doubled. The max is reported, and bounded loosely (a search that
    # ignored its clock would take far longer).
    timed = seconds[1:] or seconds
    median, worst = statistics.median(timed), max(timed)
    load = os.getloadavg()[0]
    loaded = load > (os.cpu_count() or 1)
    print(f"\n{players} players from {sum(k * k for k in sizes)} vacant cells: "
          f"{len(moves)} moves, boxes {sizes}, {winner} wins; arena move boxing "
          f"median {median:.3f} s, max {worst:.3f} s, "
          f"{sum(t >= CONTEST_SECONDS for t in timed)} of {len(timed)} at 1 s or more "
          f"(load {load:.1f}); all {[round(s, 2) for s in seconds]}")
    assert median < CONTEST_SECONDS * (2 if loaded else 1), (median, load)
    assert worst < 4 * CONTEST_SECONDS


@pytest.mark.parametrize(("age", "search"), [
    # 0.9 s less its late share, start-up and the exit reserve
    (0.2, CONTEST_SECONDS * TIME_SHARE * (1 - LATE_SHARE) - 0.2 - EXIT_RESERVE),
    (0.9, MIN_SEARCH),  # a slow start-up: the least search there is
])
def test_the_search_gets_the_second_less_start_up_and_exit(age: float, search: float) -> None:
    """What the process's clock does with the 1 s (the check behind the wall times)."""
    engine = FakeEngine(FakeTime())
    out = io.StringIO()
    contest.run(contest.Contest(BOXING, ["B"], "max", None, lambda seconds: engine,
                                io.StringIO(SAMPLE_ARENA), out, age=lambda: age))
    assert engine.seconds == [pytest.approx(search)]
    assert contest.process_seconds(contest.Contest(BOXING, ["B"], "max", None,
                                                   lambda seconds: engine, None, out),
                                   Boxing.new()) == pytest.approx(0.9)
    new_box(SAMPLE_ARENA, out.getvalue(), "B")


# ----- bad input ------------------------------------------------------------------------


def lines_of(text: str) -> list[str]:
    return text.splitlines(keepends=True)


SHORT_LONG = lines_of(SAMPLE_ARENA)
SHORT_LONG[2] = SHORT_LONG[2][1:]  # line 3: 31 characters, line 4: 33 (528 bytes still)
SHORT_LONG[3] = "-" + SHORT_LONG[3]
NINE = native("".join("ABCDEFGHI") + VACANT * (CELLS - 9))


@pytest.mark.parametrize(("stdin", "args", "words"), [
    (SAMPLE_ARENA[:-1], ["A"], "must end with a newline"),  # 527 bytes
    (SAMPLE_ARENA + "\n", ["A"], "got 17 lines (529 characters)"),  # 529 bytes
    (SAMPLE_ARENA.replace("-", "\u00e9", 1), ["A"], "line 1, column 1: '\u00e9'"),  # 529 bytes
    ("".join(lines_of(SAMPLE_ARENA)[:15]), ["A"], "got 15 lines"),
    ("".join(SHORT_LONG), ["A"], "line 3 has 31 characters, expected 32"),
    (SAMPLE_ARENA.replace("-", " ", 1), ["A"], "is not a cell"),
    (SAMPLE_ARENA.replace("\n", "\r\n"), ["A"], "\\r characters"),
    ("", ["A"], "empty input"),
    (NINE, ["A"], "9 different marks"),
])
def test_bad_input_is_one_error_line_and_exit_2(stdin: str, args: list[str],
                                                words: str) -> None:
    done = arena(["move", "boxing", *args], stdin)
    line = assert_user_error(done, "bad Boxing position on stdin: ", words)
    assert done.out == b""
    assert len(line) < 300


@pytest.mark.parametrize(("args", "words"), [
    (["-"], "got '-'"),
    (["o"], "got 'o'"),
    (["AB"], "got 'AB'"),
    ([], "give the mark to play (like A) after the game name"),
    (["A", "B"], "give one mark to play (like A), not 2 arguments"),
])
def test_a_bad_or_missing_mark_is_named_before_the_arena_is_read(args: list[str],
                                                                 words: str) -> None:
    """The argument is judged first, and not blamed on the arena: with no input at all
    the mark is still what the line names."""
    for stdin in (SAMPLE_ARENA, ""):
        done = arena(["move", "boxing", *args], stdin)
        line = assert_user_error(done, "arena: error: arena move boxing: ", words)
        assert "position" not in line and done.out == b""


def test_a_bad_character_is_named_in_full() -> None:
    line = assert_user_error(arena(["move", "boxing", "A"], SAMPLE_ARENA.replace("-", " ", 1)))
    assert line == ("arena: error: bad Boxing position on stdin: line 1, column 1: ' ' is not "
                    "a cell: - (vacant), o (unusable) or a player's mark (printable ASCII, "
                    "not a space)")


# ----- perft ----------------------------------------------------------------------------


def printed_position(output: str) -> str:
    return output.split("position:\n", 1)[1].split("depth", 1)[0]


@pytest.mark.parametrize("seed", [None, 1])
def test_perft_with_three_players(compiled: None, seed: int | None) -> None:
    extra = [] if seed is None else ["--seed", str(seed)]
    done = arena(["perft", "boxing", "2", "--players", "3", *extra])
    quiet(done)
    start = Boxing.new({"players": 3}, seed=0 if seed is None else seed)
    assert printed_position(done.stdout) == start.to_native()
    counts = leaf_counts(done.stdout)
    assert len(counts) == 2 and counts[0] == len(start.legal_moves()) < counts[1]
    assert re.search(r"^total +[\d,]+ ", done.stdout, re.MULTILINE)


@pytest.mark.parametrize(("args", "words"), [
    (["perft", "boxing", "1", "--players", "9"], "players 9 is out of range: 2 to 8"),
    (["perft", "boxing", "1", "--players", "1"], "players 1 is out of range: 2 to 8"),
    (["perft", "pahtum", "1", "--players", "3"], "--players: Pah-Tum takes 2 players"),
    (["perft", "boxing", "1", "--players", "3", "--opt", "players=4"], "disagree"),
])
def test_perft_refuses_a_bad_player_count(args: list[str], words: str) -> None:
    assert_user_error(arena(args), words)


def test_perft_on_a_partial_arena_agrees_with_the_reference(compiled: None,
                                                            tmp_path: Path) -> None:
    game = near_end(2, 7, 7, 9)
    path = tmp_path / "partial.txt"
    path.write_text(game.to_native())
    fast = arena(["perft", "boxing", "2", "--position", str(path)])
    slow = arena(["perft", "boxing", "2", "--position", str(path), "--reference"])
    quiet(fast)
    quiet(slow)
    assert "engine kernels" in fast.stdout and "reference" in slow.stdout
    assert printed_position(fast.stdout) == game.to_native()
    assert leaf_counts(fast.stdout) == leaf_counts(slow.stdout)
    assert leaf_counts(fast.stdout)[0] == len(Boxing.from_native(game.to_native()).legal_moves())
    assert_user_error(arena(["perft", "boxing", "1", "--position", str(path), "--players", "3"]),
                      "apply to a new game, not to --position")


# ----- play: the seats are checked before the UI opens ---------------------------------


def test_play_refuses_a_player_count_the_options_contradict() -> None:
    # as a real process: a check that let it through would open the UI (and time out here)
    done = arena(["play", "boxing", "--player", "human", "--player", "ai", "--player", "ai",
                  "--opt", "players=2"], timeout=30)
    assert_user_error(done, "--opt players=2 but 3 players are given")
    done = arena(["play", "boxing", "--x", "human", "--o", "ai", "--opt", "players=3"],
                 timeout=30)
    assert_user_error(done, "--opt players=3 but 2 players are given")
    assert_user_error(arena(["play", "boxing", *["--player", "ai"] * 9], timeout=30),
                      "Boxing takes 2 to 8 players, not 9")


def test_play_takes_x_and_o_for_two_and_player_for_more(ui: list[dict]) -> None:  # noqa: F811
    """Boxing's fewest is two, so --x/--o name those two seats; the count follows the
    seats given."""
    human, ai = PlayerSpec.human(), PlayerSpec.ai("hard")
    result = run(["play", "boxing", "--x", "human", "--o", "ai"])
    assert result.exit_code == 0, result.stderr
    assert ui[-1]["players"] == [human, ai] and ui[-1]["options"] == {"players": 2}
    result = run(["play", "boxing", "--x", "ai:easy", "--opt", "players=2"])
    assert result.exit_code == 0, result.stderr
    assert ui[-1]["players"] == [PlayerSpec.ai("easy"), ai]
    result = run(["play", "boxing", "--player", "human", "--player", "ai", "--player", "ai"])
    assert result.exit_code == 0, result.stderr
    assert ui[-1]["players"] == [human, ai, ai] and ui[-1]["options"] == {"players": 3}
    result = run(["play", "boxing", "--opt", "players=4"])
    assert result.exit_code == 0, result.stderr
    assert ui[-1]["players"] == [human, ai, ai, ai] and ui[-1]["options"] == {"players": 4}
    count = len(ui)
    assert_user_error(run(["play", "boxing", "--x", "human", "--player", "ai"]),
                      "with --player or with --x/--o")
    assert len(ui) == count


# ----- the warm-up compiles what a search uses -------------------------------------------


def assert_bench_figures(lines: list[str]) -> None:
    """`arena bench boxing`'s report: its positions, nodes, speed and exact endgames."""
    head = re.fullmatch(r"bench boxing: (\d+) positions, depth (\d+)", lines[0])
    assert head, lines[0]
    assert sum(line.startswith("position ") for line in lines) == int(head.group(1))
    nodes = int(next(x for x in lines if x.startswith("Nodes searched")).split(":")[1])
    assert nodes > 0
    assert any(x.startswith("Nodes/second") for x in lines)
    assert re.fullmatch(r"Exact endgames : \d+ of \d+ solved, mean \d+\.\d+ s, slowest "
                        r"\d+\.\d+ s \(limit [\d.]+ s\)", lines[-1]), lines[-1]


# In a fresh process on the JIT: the warm-up, then the bench as `arena bench boxing` runs
# it; each kernel's signatures (compiled or loaded from the cache) are listed after each.
NO_NEW_SIGNATURES = """
import json, sys
from ai import jit
from ai.engine import get_engine

def signatures():
    return {f"{k.module}.{k.name}": sorted(map(str, k.materialize().signatures))
            for k in jit._lazies if isinstance(k, jit.Kernel) and k._real is not None}

get_engine("boxing").warm_up()
before = signatures()
sys.argv = ["arena", "bench", "boxing"]
from tui.cli import main
try:
    main()
except SystemExit as done:
    assert not done.code, done.code
# three and four players in midgames, as hard (holds the count) and max (takes it)
import random
from rules.boxing import Boxing
engine = get_engine("boxing")
for players in (3, 4):
    game, rng = Boxing.new({"players": players}, seed=players), random.Random(players)
    while game.vacant > 230:
        game.play(max(game.legal_moves(), key=lambda m: (m[2], rng.random())))
    for _ in range(players):
        for level in ("hard", "max"):
            engine.search(game, engine.budget(level).with_seconds(0.2))
        game.play(rng.choice(game.legal_moves()))
after = signatures()
new = {name: sorted(set(sigs) - set(before.get(name, []))) for name, sigs in after.items()}
with open(OUT, "w") as out:
    json.dump({name: sigs for name, sigs in new.items() if sigs}, out)
"""


def test_after_the_warm_up_no_search_compiles(tmp_path: Path) -> None:
    """The warm-up, then `arena bench boxing` (whose exact endgames include lost
    positions) and three- and four-player searches at hard and max must call no kernel
    with types the warm-up did not give it (a player's first search would stop to
    compile them, and the native module, built from the warm-up's signatures, would not
    have them), and print its figures. Over a copy of the run's kernel cache: a
    signature loaded from it counts as much as one compiled."""
    cache = seeded_cache(tmp_path / "cache")
    out = tmp_path / "new.json"
    env = {**os.environ, "ARENA_CACHE_DIR": str(cache), "ARENA_NATIVE": "0"}
    env.pop("NUMBA_CACHE_DIR", None)
    code = NO_NEW_SIGNATURES.replace("OUT", repr(str(out)))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr == ""  # the cache counts as compiled: no notice
    assert_bench_figures(done.stdout.splitlines())
    new = json.loads(out.read_text())
    assert new == {}, f"called after the warm-up with new types: {new}"
