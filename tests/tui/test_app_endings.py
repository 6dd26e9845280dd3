"""Endings the app once crashed on: a forfeit with several winners (Boxing for three or
more), and an undo after a program's fault with a person seated."""

from __future__ import annotations

import json
from pathlib import Path

from rules import PlayerSpec, TimeControl
from rules.base import COUNT_OPTION
from tui.app import ArenaApp
from tui.screens.dialogs import ResultScreen
from tui.screens.game import GameScreen

SIZE = (80, 24)


class Now:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


async def test_a_flag_among_three_boxers_ends_with_two_winners_named(tmp_path: Path) -> None:
    now = Now()
    app = ArenaApp("boxing", options={COUNT_OPTION: "3"}, seed=5,
                   players=[PlayerSpec.human()] * 3, control=TimeControl.parse("move:1"),
                   now=now, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        now.t += 2
        screen._tick()
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)
        head = app.screen.lines[0]
        assert head.endswith(" win") and " and " in head, head
        assert "ran out of time" in "\n".join(app.screen.lines)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("u")  # the flag is taken back
        await pilot.pause()
        assert not screen.session.game.is_over


async def test_undo_after_a_programs_fault_with_a_person_seated(tmp_path: Path) -> None:
    """The save from the fuzzer's report: X a person, O a program that faulted."""
    save = {
        "players": [{"kind": "human"}, {"kind": "prog", "command": "/bin/true"}],
        "result": {"kind": "fault", "winners": [0], "points": [0, 0], "loser": 1,
                   "fault": "malformed", "output": ""},
    }
    from rules import get_game
    from saves.format import doc_from_game, dumps

    game = get_game("pahtum").new({"blocks": "21"}, 3)
    first = next(m for m in game.legal_moves())
    doc = json.loads(dumps(doc_from_game(game, [PlayerSpec.human()] * 2)))
    doc.update(players=save["players"], moves=[game.move_text(first)], result=save["result"])
    path = tmp_path / "fault.arena.json"
    path.write_text(json.dumps(doc))
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")  # run /bin/true (the match's return game would)
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("escape")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("u")
        await pilot.pause()
        s = screen.session
        assert not s.game.is_over and s.game.history == []  # back to the person's turn
        assert screen._status.startswith("Took back")
