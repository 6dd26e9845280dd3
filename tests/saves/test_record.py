"""Game records (`saves.record`): every game survives the round trip record -> save ->
record, random games of every game included (Pillars' jokers, Boxing for three or more,
a program's fault, a flag); every broken record is one line naming its line; the CLI
writes records (`arena record`, `arena match --out`) and opens them (`arena play
--load`), and a record's programs run only once approved."""

from __future__ import annotations

import random
import re
import sys
import types
from pathlib import Path

import pytest

from rules import Clock, MatchState, PlayerSpec, TimeControl, game_names, get_game
from rules.base import COUNT_OPTION
from rules.outcome import FAULT_KINDS, Termination
from saves.format import SaveDoc, SaveError, doc_from_game, dumps, loads
from saves.record import dumps_record, load_record, loads_record, looks_like_record, move_lines
from saves.store import (
    describe_save,
    is_record,
    is_save,
    load_position,
    read_save,
    saved_programs,
    write_record,
    write_save,
)
from tests.tui.test_cli import assert_user_error, run

PLAYERS = [PlayerSpec.human(), PlayerSpec.human("Zoë | \"the\" [best]"), PlayerSpec.ai("hard"),
           PlayerSpec("ai", "max", seconds=2.5), PlayerSpec("random"), PlayerSpec("greedy"),
           PlayerSpec.program("python3 bot.py --say '|' \"x\""),
           PlayerSpec("rev", "max", revision="HEAD~1"), PlayerSpec.program("./bot", "Bot 7")]
CONTROLS = [TimeControl.none(), TimeControl.parse("move:10"), TimeControl.parse("game:300"),
            TimeControl.parse("move:0.1234567")]  # (the last one only as JSON reads back)
WEIRD_OUTPUT = "bad move | \"Zz9\"\n[Result \"x\"]\n\u2028\x00 end"


def random_doc(name: str, rng: random.Random) -> tuple[SaveDoc, object]:
    """A random game of `name`: played to its end, or cut short and ended (or not) by a
    flag or a program's fault; random players, clock, move times and match."""
    cls = get_game(name)
    options = {}
    if cls.takes_count():
        count = rng.randint(2, min(5, cls.player_count[1]))
        options = cls.parse_options({COUNT_OPTION: str(count)})
    game = cls.new(options, seed=rng.randrange(10**6))
    stop = rng.choice([None, rng.randint(0, 12)])
    while not game.is_over and (stop is None or len(game.history) < stop):
        game.play(rng.choice(list(game.legal_moves())))
    n = game.players
    if not game.is_over and rng.random() < 0.7:
        loser = rng.randrange(n)
        if rng.random() < 0.5:
            game.forfeit(loser, Termination.TIME, "ran out of time")
        else:
            game.forfeit(loser, Termination.FAULT, "made an illegal move",
                         fault=rng.choice(FAULT_KINDS), output=WEIRD_OUTPUT)
    players = [rng.choice(PLAYERS) for _ in range(n)]
    times = [round(rng.random() * 3, 3) for _ in game.history] if rng.random() < 0.6 else []
    clock = Clock(rng.choice(CONTROLS), [round(rng.random() * 100, 3) for _ in range(n)], times)
    match = None
    rule = cls.match_rule
    if rule.games(n) > 1 and rng.random() < 0.5:
        earlier = cls.new(options, seed=1)
        earlier.forfeit(0, Termination.TIME, "ran out of time")
        assert earlier.outcome is not None
        match = MatchState(rule, n, 1, [earlier.outcome])
    return doc_from_game(game, players, clock, match), game


@pytest.mark.parametrize("name", game_names())
def test_random_games_survive_the_round_trip(name: str) -> None:
    rng = random.Random(f"records {name}")
    jokers = players = 0
    for _ in range(12):
        doc, game = random_doc(name, rng)
        text = dumps_record(doc)
        assert looks_like_record(text)
        again, replayed = load_record(text)
        assert dumps(again) == dumps(doc)  # record -> save: the same save
        assert dumps_record(loads(dumps(again))) == text  # save -> record: the same record
        assert replayed.key() == game.key() and replayed.outcome == game.outcome
        jokers += sum(m.startswith("!") for m in doc.moves)
        players = max(players, len(doc.players))
    if get_game(name).has_joker:
        assert jokers, "no joker was played"
    assert players >= min(3, get_game(name).player_count[1])


def test_move_texts_that_could_be_misread_are_quoted() -> None:
    moves = ["a|b", " x", '"q', "ok", "two  spaces", "tab\there", "é"]
    lines = move_lines(moves, 2)
    assert lines[0] == '1. "a|b" | " x"' and lines[1].startswith('2. "\\"q" | ok')
    doc, _ = random_doc("pahtum", random.Random(1))
    doc.moves = moves
    doc.clock.moves = []
    assert loads_record(dumps_record(doc)).moves == moves


def test_a_record_reads_as_people_do(tmp_path: Path) -> None:
    game = get_game("loaps").new()
    game.replay(["e1 c3", "a3 c5", "c1 e3"])
    doc = doc_from_game(game, [PlayerSpec.human(), PlayerSpec.ai("hard")],
                        Clock(TimeControl.parse("game:60"), [1.5, 2.0], [1.0, 2.0, 0.5]))
    text = dumps_record(doc)
    assert '[Game "loaps"]\n[Record 1]\n' in text
    assert '[Start ".11.11."]' in text and '[Player "ai:hard"]' in text
    assert '[Clock "game:60"]\n[ClockUsed [1.5, 2.0]]\n[MoveTimes [1.0, 2.0, 0.5]]' in text
    assert '[Result "*"]' in text
    assert text.endswith("\n\n1. e1 c3 | a3 c5\n2. c1 e3\n")
    # CRLF line ends from an editor on another system read the same
    assert dumps(loads_record(text.replace("\n", "\r\n"))) == dumps(doc)


# ----- broken records: one line each, naming the line ------------------------------------


def _base() -> str:
    game = get_game("pahtum").new({"board": "sample"})
    rng = random.Random(3)
    while not game.is_over:
        game.play(rng.choice(list(game.legal_moves())))
    return dumps_record(doc_from_game(game, [PlayerSpec.human(), PlayerSpec.ai("easy")]))


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if line.startswith(start))


BASE = _base()
BROKEN = [
    # (how the record is broken, the words of the error, the line it must name)
    (lambda t: "hello\n" + t, "not an Arena record", "line 1"),
    (lambda t: _edit(t, '[Game "pahtum"]', '[Game "chess"]'), "chess", "line 1"),
    (lambda t: _edit(t, "[Record 1]", "[Record 9]"), "newer Arena", "line 2"),
    (lambda t: _edit(t, "[Record 1]", "[Event \"x\"]"), "unknown header [Event]", "line 2"),
    (lambda t: _edit(t, "[Record 1]", "[Record 1]\n[Record 1]"), "a second [Record]", "line 3"),
    (lambda t: _edit(t, "[Date \"", "[Date \"yesterday"), "[Date]", "line 3"),
    (lambda t: _edit(t, "[Options {", "[Options {bad"), "not one JSON value", "line 4"),
    (lambda t: re.sub(r"\[Options .*\]", "[Options 5]", t), "must be an object", "line 4"),
    (lambda t: _edit(t, '[Start "', '[Start "x'), "bad start position", "line 5"),
    (lambda t: _edit(t, "[Clock \"none\"]\n", ""), "without a [Clock]", "line "),
    (lambda t: _edit(t, "[Player \"human\"]\n", ""), "1 [Player] header", "line "),
    (lambda t: _edit(t, "[Player \"human\"]", "[Player \"alien\"]"), "bad player 'alien'",
     "line "),
    (lambda t: _edit(t, "[ClockUsed [0.0, 0.0]]", "[ClockUsed [0.0]]"), "2 times", "line "),
    (lambda t: _edit(t, "[ClockUsed [0.0, 0.0]]", "[ClockUsed [0.0, 0.0]]\n[MoveTimes [1]]"),
     "1 times for", "line "),
    (lambda t: _edit(t, "[Winners [", "[Winners [7, "), "winners", "line "),
    (lambda t: _edit(t, "[Ending \"rule\"]\n", ""), "[Ending] is missing", "line "),
    (lambda t: _edit(t, "[Ending \"rule\"]", "[Ending \"boredom\"]"), "unknown way", "line "),
    (lambda t: re.sub(r'\[Result "[^"]*"\]', '[Result "*"]', t), "belongs to a finished game",
     "line "),
    (lambda t: t + "[Game \"pahtum\"]\n", "a header after the moves", "line "),
    (lambda t: t.replace("\n1. ", "\n2. ", 1), "round 2 where round 1 comes", "line "),
    (lambda t: t.replace("\n1. ", "\n1. A1 | ", 1), "round 1 has 3 moves", "line "),
    (lambda t: t.replace("\n1. ", "\n1. | ", 1), "an empty move", "line "),
    (lambda t: t.replace("\n1. ", "\n1. \"open | ", 1), "quoted move", "line "),
    (lambda t: t.replace("\n1. ", "\none. ", 1), "a line of moves is", "line "),
    (lambda t: t.rstrip("\n").rsplit("\n", 1)[0] + "\n", "does not match the moves", "line "),
]


@pytest.mark.parametrize("case", range(len(BROKEN)))
def test_a_broken_record_is_one_line_naming_the_line(case: int) -> None:
    edit, words, where = BROKEN[case]
    text = edit(BASE)
    with pytest.raises(SaveError) as err:
        load_record(text)
    message = str(err.value)
    assert "\n" not in message and len(message) <= 300
    assert words in message, message
    assert message.startswith(where), message


def test_an_illegal_move_names_its_line_and_number() -> None:
    lines = BASE.split("\n")
    at = _line_of(BASE, "3. ")
    first = lines[at - 1].split(" ")[1]
    lines[at - 1] = lines[at - 1].replace(first, "Z9", 1)
    with pytest.raises(SaveError) as err:
        load_record("\n".join(lines))
    assert str(err.value).startswith(f"line {at}: move 5 (")


# ----- the store: records load wherever saves do ----------------------------------------


def test_records_load_wherever_saves_do(tmp_path: Path) -> None:
    doc, game = random_doc("boxing", random.Random(7))
    doc.players = [PlayerSpec.program("touch nothing")] + [PlayerSpec.ai()] * (len(doc.players) - 1)
    path = tmp_path / "game.arena.txt"
    write_record(path, doc)
    assert is_save(path) and is_record(path)
    assert dumps(read_save(path)[0]) == dumps(doc)
    assert load_position("boxing", path).key() == game.key()
    title = get_game("boxing").title
    with pytest.raises(SaveError, match=f"a {title} save, not Pah-Tum"):
        load_position("pahtum", path)
    assert saved_programs(path) == ["touch nothing"]
    assert describe_save(path).startswith(f"{title} · ")
    assert describe_save(path).endswith(" · record")
    broken = tmp_path / "broken.arena.txt"
    broken.write_text(BASE.replace("[Record 1]", "[Record \"one\"]"))
    assert describe_save(broken).startswith("unreadable: line 2: [Record] must be")
    save = tmp_path / "game.arena.json"
    write_save(save, doc)
    assert not is_record(save)


# ----- the command line -----------------------------------------------------------------


def _finished_save(tmp_path: Path, name: str = "pillars") -> tuple[Path, SaveDoc]:
    doc, _ = random_doc(name, random.Random(11))
    path = tmp_path / f"{name}.arena.json"
    write_save(path, doc)
    return path, doc


def test_arena_record_writes_beside_the_save_and_never_over_a_file(tmp_path: Path) -> None:
    save, doc = _finished_save(tmp_path)
    result = run(["record", str(save)])
    assert result.exit_code == 0, result.stderr
    made = tmp_path / "pillars.arena.txt"
    assert result.stdout.strip() == str(made)
    assert made.read_text() == dumps_record(doc)
    before = made.read_text()
    assert_user_error(run(["record", str(save)]), "exists", "--force")
    assert made.read_text() == before
    assert run(["record", str(save), "--force"]).exit_code == 0
    printed = run(["record", str(made), "-o", "-"])  # a record reads as a save does
    assert printed.exit_code == 0 and printed.stdout == before
    folder = tmp_path / "out"
    folder.mkdir()
    assert run(["record", str(save), "-o", str(folder)]).exit_code == 0
    assert (folder / "pillars.arena.txt").read_text() == before
    assert run(["record", str(save), "-o", str(folder / "mine.txt")]).exit_code == 0
    assert (folder / "mine.txt").read_text() == before


def test_arena_record_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    save, _ = _finished_save(tmp_path)
    assert_user_error(run(["record", str(tmp_path / "none.arena.json")]), "no such file")
    native = tmp_path / "pos.txt"
    native.write_text(get_game("pousse").new().to_native())
    assert_user_error(run(["record", str(native)]), "native position")
    garbage = tmp_path / "garbage.txt"  # neither: not called a position
    garbage.write_text("garbage\n")
    said = assert_user_error(run(["record", str(garbage)]), "garbage.txt: not an Arena save")
    assert "native position" not in said
    assert_user_error(run(["record", str(save), "-o", str(tmp_path / "no" / "x.txt")]),
                      "does not exist")
    link = tmp_path / "link.arena.txt"
    link.symlink_to(tmp_path / "elsewhere.txt")
    assert_user_error(run(["record", str(save), "-o", str(link), "--force"]),
                      "not a plain file")
    assert not (tmp_path / "elsewhere.txt").exists()
    broken = tmp_path / "broken.arena.txt"
    broken.write_text(BASE.replace("\n1. ", "\n1. Q | ", 1))
    assert_user_error(run(["record", str(broken)]), "broken.arena.txt: line ")


def test_arena_match_out_writes_each_games_record_beside_its_save(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    result = run(["match", "boxing", "random", "greedy", "random", "-n", "3", "--seed", "2",
                  "--clock", "none", "--out", str(folder)])
    assert result.exit_code == 0, result.stderr
    saves = sorted(folder.glob("match-*.arena.json"))
    records = sorted(folder.glob("match-*.arena.txt"))
    assert len(saves) == 3 and [p.name.replace(".txt", ".json") for p in records] == [
        p.name for p in saves]
    for save, record in zip(saves, records, strict=True):
        doc, game = read_save(record)
        assert dumps(doc) == dumps(read_save(save)[0]) and game.is_over
        assert len(doc.players) == 3


def _fake_app(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    calls: list[dict] = []
    fake = types.ModuleType("tui.app")
    fake.run = lambda game=None, **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tui.app", fake)
    return calls


def test_arena_play_load_takes_a_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    calls = _fake_app(monkeypatch)
    save, doc = _finished_save(tmp_path)
    record = tmp_path / "game.arena.txt"
    write_record(record, doc)
    result = run(["play", "pillars", "--load", str(record)])
    assert result.exit_code == 0, result.stderr
    assert calls[0]["load"] == record
    assert_user_error(run(["play", "pousse", "--load", str(record)]), "not Pousse")
    assert_user_error(run(["play", "pillars", "--load", str(record), "--x", "human"]),
                      "seats its own")
    doc.players[1] = PlayerSpec.program("touch ran")
    write_record(record, doc)
    assert_user_error(run(["play", "pillars", "--load", str(record)]), "seats programs",
                      "touch ran")


# ----- the app: a finished record opens as a replay; programs still ask first -----------


async def test_a_finished_record_opens_as_a_replay(tmp_path: Path) -> None:
    from tui.app import ArenaApp
    from tui.screens.game import GameScreen
    from tui.screens.replay import ReplayScreen

    _, doc = _finished_save(tmp_path, "pahtum")
    record = tmp_path / "game.arena.txt"
    write_record(record, doc)
    app = ArenaApp(load=record, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.total == len(doc.moves)
        await pilot.press("escape", "escape")  # the replay, then the result
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.session.game.is_over


async def test_a_records_program_runs_only_once_approved(tmp_path: Path) -> None:
    from tui.app import ArenaApp
    from tui.screens.dialogs import ProgramsDialog

    marker = tmp_path / "ran"
    game = get_game("pahtum").new({"blocks": "21"}, 4)
    game.play(sorted(game.legal_moves())[0])
    record = tmp_path / "game.arena.txt"
    write_record(record, doc_from_game(game, [PlayerSpec.human(),
                                              PlayerSpec.program(f"touch {marker}")]))
    app = ArenaApp(load=record, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ProgramsDialog)
        await pilot.pause(0.3)
        assert not marker.exists()
        await pilot.press("escape")
        await pilot.pause(0.3)
    assert not marker.exists()
