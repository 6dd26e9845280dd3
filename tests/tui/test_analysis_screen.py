"""The analysis board (tui/screens/analysis.py) and the evaluation graph
(tui/widgets/eval_graph.py), through Pilot at 80x24: opened from a game and from a replay,
moves for both sides, take-back and forward, Esc back to a game left as it was; the
graph's drawing and its clicks; one live analysis on Pah-Tum's kernels, and the replay's
graph filled by them; snapshots at 80x24 and 120x40 from fixed lines and evaluations."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from ai.analysis import Analysis, Evaluation, Line
from ai.engine import SearchResult
from rules import PlayerSpec, get_game
from rules.pahtum import PahTum
from tests.tui.test_app import keys_to, nearest, own_saves_folder, wait_engine  # noqa: F401
from tests.tui.test_replay import finished, open_replay, saved
from tui.app import ArenaApp
from tui.screens.analysis import AnalysisScreen
from tui.screens.game import GameScreen
from tui.widgets.analysis_panels import LineMoves, LinesPanel
from tui.widgets.eval_graph import EvalGraph
from tui.widgets.panels import EnginePanel

SIZE = (80, 24)
ANN, BOB = PlayerSpec.human("Ann"), PlayerSpec.human("Bob")


@pytest.fixture
def no_auto_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screens open without starting the engine (these tests are about the screen)."""
    monkeypatch.setattr(AnalysisScreen, "AUTO_START", False)


def hot_seat(**kw) -> ArenaApp:
    return ArenaApp("pahtum", options={"blocks": "7"}, seed=11, players=(ANN, BOB),
                    clocks_running=False, now=lambda: 0.0, **kw)


async def play(pilot, screen, move) -> None:
    await pilot.press(*keys_to(screen.board, move), "enter")
    await pilot.pause()


def text_of(widget) -> str:
    return str(widget.render())


async def test_from_a_game_both_sides_play_and_esc_leaves_the_game_as_it_was(
        no_auto_start: None) -> None:
    app = hot_seat()
    async with app.run_test(size=SIZE) as pilot:
        game_screen = app.screen
        assert isinstance(game_screen, GameScreen)
        for _ in range(2):
            await play(pilot, game_screen, nearest(game_screen.board))
        game = game_screen.session.game
        before, history = game.to_native(), list(game.history)
        await pilot.press("z")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert screen.game is not game and screen.game.to_native() == before
        assert screen.k == 2 and screen.line == history and screen.board.has_focus
        assert "X to move · move 2 of 2" in screen.title_line[1]
        # a move for X, then one for O: both sides play on the analysis board
        for mark in ("X", "O"):
            assert screen.game.seat_name(screen.game.to_move) == mark
            move = nearest(screen.board)
            await play(pilot, screen, move)
            assert screen.line[-1] == move
        assert screen.k == 4 and len(screen.line) == 4
        moves = screen.query_one(LineMoves)
        assert moves._shown is not None and moves._shown[2:] == (4, 2)
        # back two, forward one, then another move replaces the rest of the line
        await pilot.press("u", "u")
        assert screen.k == 2 and len(screen.game.history) == 2
        await pilot.press("r")
        assert screen.k == 3 and screen.line[2] == screen.game.history[2]
        old = screen.line[3]
        other = next(m for m in screen.game.legal_moves() if m != old)
        await play(pilot, screen, other)
        assert screen.line[3] == other and len(screen.line) == 4
        await pilot.press("home")
        assert screen.k == 0 and not screen.game.history
        await pilot.press("end")
        assert screen.k == 4
        assert game.to_native() == before and game.history == history  # never touched
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game_screen
        assert game.to_native() == before and game.history == history
        assert game_screen.board.game is game


async def test_the_game_screen_keeps_the_board_while_the_ai_moves(no_auto_start: None) -> None:
    # the AI thinks for half a minute (or waits for its kernels): it is to move throughout
    app = ArenaApp("pahtum", seed=3, players=(PlayerSpec.ai("max"), ANN),
                   clocks_running=False, ai_seconds=30)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.session.machine_to_move
        await pilot.press("z")
        await pilot.pause()
        assert app.screen is screen
        assert screen._status.startswith("The analysis board opens on a person's turn")


async def test_from_a_replay_it_opens_at_the_move_shown(no_auto_start: None,
                                                       tmp_path: Path) -> None:
    session = finished()
    path = saved(session, tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        replay = await open_replay(app, pilot)
        await pilot.press("home", "right", "right", "right")
        await pilot.press("z")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert screen.k == 3 and screen.line == session.game.history[:3]
        await play(pilot, screen, nearest(screen.board))
        assert screen.k == 4
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is replay and replay.k == 3
        assert replay.game.history == session.game.history[:3]


async def test_at_the_end_the_lines_panel_gives_the_whole_ending_wrapped(
        no_auto_start: None, tmp_path: Path) -> None:
    session = finished()
    app = ArenaApp(load=saved(session, tmp_path), save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        await pilot.press("end", "z")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen) and screen.game.is_over
        await pilot.press("a")
        await pilot.pause()
        panel = screen.query_one(LinesPanel)
        rows = text_of(panel).splitlines()
        assert len(rows) > 1 and all(len(row) <= panel.content_size.width for row in rows)
        assert " ".join(rows) == f"game over: {screen.game.outcome.reason}"
        await pilot.resize_terminal(120, 40)  # wrapped again to the wider panel
        await pilot.pause()
        assert text_of(panel).splitlines() != rows


async def test_a_click_on_the_graph_jumps_to_its_move(no_auto_start: None) -> None:
    app = hot_seat()
    async with app.run_test(size=SIZE) as pilot:
        game_screen = app.screen
        for _ in range(4):
            await play(pilot, game_screen, nearest(game_screen.board))
        await pilot.press("z")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        graph = screen.query_one(EvalGraph)
        graph.set_values([Evaluation(v) for v in (0, 2, -1, 3, 1)])
        await pilot.pause()
        width = graph.content_size.width
        each = min(3, width // 5)  # five positions, up to 3 columns each
        # the frame and the padding, then the legend's row
        await pilot.click(EvalGraph, offset=(2 + 1 * each + 1, 3))
        await pilot.pause()
        assert screen.k == 1 and graph.current == 1
        await pilot.click(EvalGraph, offset=(2 + 3 * each, 4))
        await pilot.pause()
        assert screen.k == 3 and len(screen.game.history) == 3
        await pilot.click(EvalGraph, offset=(2 + 5 * each + 2, 4))  # past the last
        await pilot.pause()
        assert screen.k == 3


class GraphHost(App):
    def __init__(self, graph: EvalGraph) -> None:
        super().__init__()
        self.graph = graph
        self.picked: list[int] = []

    def compose(self) -> ComposeResult:
        yield self.graph

    def on_eval_graph_picked(self, message: EvalGraph.Picked) -> None:
        self.picked.append(message.index)


async def test_the_lines_moves_of_a_round_stand_apart_where_a_move_has_a_space() -> None:
    moves = LineMoves()
    async with GraphHost(moves).run_test(size=(60, 5)) as pilot:  # type: ignore[arg-type]
        moves.show(["e1 e3", "g3 f2", "b1 b3"], 2, 3, 3)
        await pilot.pause()
        assert text_of(moves).splitlines()[0] == " 1. e1 e3   g3 f2   2. b1 b3"
        moves.show(["BbBb", "DaEa", "AcAc"], 2, 3, 3)
        await pilot.pause()
        assert text_of(moves).splitlines()[0] == " 1. BbBb DaEa   2. AcAc"
        # from round 100 every number is three wide, so the rounds stay in columns
        moves.show(["L1", "T20"] * 100 + ["B3"], 2, 200, 201)  # the row of round 100
        await pilot.pause()
        assert text_of(moves).splitlines()[0] == (
            " 97. L1  T20   98. L1  T20   99. L1  T20  100. L1  T20")


async def test_a_lines_pv_keeps_from_to_moves_apart() -> None:
    panel = LinesPanel()
    async with GraphHost(panel).run_test(size=(60, 5)) as pilot:  # type: ignore[arg-type]
        panel.show_lines(Analysis(11, [Line("f5e5", "f5 e5", 30, 11, ["f5 e5", "d2 b2"]),
                                       Line("Aa", "D3", 4, 9, ["D3", "C4"])]))
        await pilot.pause()
        rows = text_of(panel).splitlines()
        assert rows[0].endswith("f5 e5   d2 b2") and rows[1].endswith("D3 C4")
    engine = EnginePanel()  # the game screen's engine line, the same
    async with GraphHost(engine).run_test(size=(60, 5)) as pilot:  # type: ignore[arg-type]
        engine.show_info(SearchResult("f5e5", "f5 e5", 9, 100, 30, ["f5 e5", "d2 b2"], 0.1),
                         "red")
        await pilot.pause()
        assert text_of(engine).splitlines()[2] == "line f5 e5   d2 b2"
        assert text_of(engine).splitlines()[0] == "depth 9  red eval +30"
        # a proven result in words: its number counts the plies to the end
        lost = SearchResult("L1", "L1", 5, 61, -999992, ["L1", "L4"], 0.01, exact=True)
        assert lost.verdict == "proven loss"
        engine.show_info(lost, "O")
        await pilot.pause()
        assert text_of(engine).splitlines()[0] == "proven loss for O"


def line_of(plies: int) -> tuple[PahTum, list]:
    game = PahTum.new({"blocks": "7"}, seed=2)
    start = game.copy()
    game.advance(random.Random(2), plies)
    return start, list(game.history)


async def test_the_graph_draws_clamped_bars_proven_results_and_the_current_move() -> None:
    graph = EvalGraph()
    start, moves = line_of(5)
    async with GraphHost(graph).run_test(size=(20, 7)) as pilot:
        graph.styles.border = ("none", "white")
        graph.styles.padding = 0
        graph.set_line(start, moves)
        graph.set_values([Evaluation(4), Evaluation(-2), Evaluation(9, True),
                          Evaluation(0, True), Evaluation(-8, True)])  # the last: pending
        graph.set_current(1)
        await pilot.pause()
        rows = text_of(graph).splitlines()
        # the legend: spaced by one, then without the position, where it does not fit
        assert rows[0] == "▲ X ▼ O ±4 proven"
        assert graph.legend(24).plain == "▲ X ▼ O  ±4  proven  1/5"
        assert graph.legend(23).plain == graph.legend(21).plain == "▲ X ▼ O ±4 proven 1/5"
        bars = rows[1:]  # six rows: three half-row pairs above zero, three below
        assert len(bars) == 6

        def column(index: int) -> str:
            return "".join(row[index * 3] for row in bars)

        assert column(0) == "███   "  # +4 of ±4: full height up
        assert column(1) == "  ▁█▀ "  # -2: half the height down (in half rows), under
        # the zero line (▁)
        assert column(2) == "███   "  # proven win: to the top
        assert column(3) == "  ◆   "  # a proven draw: on the zero line
        assert column(4) == "  ▁███"  # a proven loss: to the bottom
        assert column(5) == "  ·   "  # not evaluated yet
        await pilot.click(EvalGraph, offset=(2 * 3 + 1, 3))
        await pilot.click(EvalGraph, offset=(5 * 3, 2))
        await pilot.click(EvalGraph, offset=(5 * 3, 0))  # the legend: nothing
        await pilot.pause()
        assert pilot.app.picked == [2, 5]


async def test_a_long_game_takes_one_column_a_position_or_less() -> None:
    graph = EvalGraph()
    start, moves = line_of(30)
    async with GraphHost(graph).run_test(size=(20, 7)) as pilot:
        graph.set_line(start, moves)
        graph.set_values([Evaluation(i - 15) for i in range(31)])
        graph.set_current(30)
        await pilot.pause()
        width = graph.content_size.width
        assert width < 31 and text_of(graph).splitlines()[0].endswith("…")  # cut to fit
        assert graph.index_at(0) == 0 and graph.index_at(width - 1) < 31
        assert graph.index_at(width) is None
        assert all(len(row) <= width for row in text_of(graph).splitlines())


async def test_a_long_three_player_line_draws_a_value_in_every_column() -> None:
    """With more than two players only the first player's turns have a value; a column
    standing for several positions draws one that has (it drew its first, mostly blank,
    and the end of a won game showed nothing), and the current move's column is lit."""
    from rich.console import Console

    graph = EvalGraph()
    start, moves = line_of(40)
    n = len(moves) + 1
    async with GraphHost(graph).run_test(size=(12, 7)) as pilot:
        graph.styles.border = ("none", "white")
        graph.styles.padding = 0
        graph.set_line(start, moves)
        values = [Evaluation(None if i % 3 else i - n // 2) for i in range(n)]
        values[-1] = Evaluation(1, True)  # the end: the first player won
        graph.set_values(values)
        graph.set_current(n - 2)
        await pilot.pause()
        width = graph.content_size.width
        assert n >= 3 * width  # every column stands for three positions or more
        picked = [graph.index_at(x) for x in range(width)]
        assert all(p is not None and values[p].score is not None for p in picked), picked
        assert picked[-1] == n - 1
        text = graph.render()
        rows = text.plain.splitlines()
        assert rows[1][-1] == "█" and "·" not in "".join(rows[1:])  # all drawn, the end too
        assert [x for x in range(width) if n - 2 in graph.span(x, width)] == [width - 1]
        offset = sum(len(row) + 1 for row in rows[:-1])  # the last row's first column
        bg = [text.get_style_at_offset(Console(), offset + x).bgcolor for x in range(width)]
        current = graph.get_component_rich_style("eval-graph--current", partial=True).bgcolor
        assert bg[-1] == current and current not in bg[:-1]  # the current move's column


async def test_a_live_analysis_shows_proven_lines_and_keeps_every_moves_score() -> None:
    rng = random.Random(3)
    game = PahTum.new({"blocks": "7"}, seed=3)
    while game.empty_count() > 10:
        game.play(rng.choice(game.legal_moves()))
    app = hot_seat()
    async with app.run_test(size=SIZE) as pilot:
        screen = AnalysisScreen(game, app.services)
        await app.push_screen(screen)
        await wait_engine(app, pilot, "pahtum")
        deadline = time.monotonic() + 60
        while screen.analysis is None or not screen.analysis.finished:
            assert time.monotonic() < deadline, "the analysis did not finish"
            await pilot.pause(0.05)
        lines = text_of(screen.query_one(LinesPanel))
        assert lines.count("proven") >= 3 and lines.startswith("1. ")
        assert set(screen.move_scores) == set(game.legal_moves())
        assert "solved" in str(screen.query_one(LinesPanel).border_title)
        await pilot.press("a")
        assert not screen.analysing


async def test_the_replays_graph_fills_in_and_a_click_steps_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EvalGraph, "SECONDS", 0.01)
    session = finished()
    path = saved(session, tmp_path)
    app = ArenaApp(load=path, save_dir=tmp_path, clocks_running=False)
    async with app.run_test(size=SIZE) as pilot:
        replay = await open_replay(app, pilot)
        graph = replay.query_one(EvalGraph)
        assert not graph.display
        await pilot.press("g")
        assert graph.display and len(graph.values) == len(session.game.history) + 1
        deadline = time.monotonic() + 120
        while any(v is None for v in graph.values):
            assert time.monotonic() < deadline, "the graph was not filled in"
            await pilot.pause(0.1)
        assert graph.values[-1] is not None and graph.values[-1].proven  # the end
        assert graph.current == replay.k
        await pilot.click(EvalGraph, offset=(2, 3))  # the first column: the start
        await pilot.pause()
        assert replay.k == graph.index_at(0) == 0
        await pilot.press("right")
        assert graph.current == 1


# ----- snapshots: fixed lines and evaluations (no live search) ---------------------------

FIXED = Analysis(9, [
    Line("D3", "D3", 4, 9, ["D3", "C4", "E5", "B2", "F6"]),
    Line("C3", "C3", 1, 9, ["C3", "D3", "A1"]),
    Line("E5", "E5", -2, 9, ["E5", "D3"]),
], {}, 12_345, 1.0)
SOLVED = Analysis(12, [
    Line("A5", "A5", 3, 12, ["A5", "E5", "C6"], "win", 3, 2),
    Line("B4", "B4", 0, 12, ["B4", "A5"], "draw"),
    Line("C4", "C4", -2, 12, ["C4"], "loss"),
], {}, 99, 1.0, finished=True)
VALUES = [0, 1, -1, 2, 3, 1, 0, -2, 4, 5]


def board_app(lines: Analysis, proven_end: bool) -> tuple[ArenaApp, object]:
    app = hot_seat()

    async def run_before(pilot) -> None:
        game = get_game("pahtum").new({"blocks": "7"}, seed=11)
        game.advance(random.Random(5), 9)
        screen = AnalysisScreen(game, app.services, analyse=False)
        await app.push_screen(screen)
        await pilot.pause()
        values = [Evaluation(v) for v in VALUES]
        if proven_end:
            values[-1] = Evaluation(1, True)
        screen.query_one(EvalGraph).set_values(values)
        screen.show_analysis(lines)
        await pilot.press("u")  # the current move: one back
        screen.query_one(EvalGraph).set_values(values)
        screen.show_analysis(lines)
        await pilot.pause()

    return app, run_before


def test_analysis_board_80x24(snap_compare) -> None:
    app, run_before = board_app(FIXED, False)
    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))


def test_analysis_board_120x40(snap_compare) -> None:
    app, run_before = board_app(SOLVED, True)
    assert snap_compare(app, run_before=run_before, terminal_size=(120, 40))


async def test_o_shades_the_board_by_the_last_depths_scores_with_a_legend() -> None:
    from tui.widgets.overlay_legend import OverlayLegend

    app = hot_seat()
    async with app.run_test(size=SIZE) as pilot:
        game = get_game("pahtum").new({"blocks": "7"}, seed=11)
        game.advance(random.Random(5), 2)
        screen = AnalysisScreen(game, app.services, analyse=False)
        await app.push_screen(screen)
        await pilot.pause()
        moves = game.legal_moves()[:3]
        scores = {moves[0]: 5.0, moves[1]: -3.0, moves[2]: 0.0}
        lines = [Line(moves[0], game.move_text(moves[0]), 5, 4, [game.move_text(moves[0])])]
        screen.show_analysis(Analysis(4, lines, scores, 10, 0.1))
        assert screen.board.overlay_scores is None  # off until asked
        await pilot.press("o")
        await pilot.pause()
        assert screen.board.overlay_scores == scores
        assert not screen.query_one(EvalGraph).display  # the legend takes the graph's place
        assert "depth 4" in str(screen.query_one(OverlayLegend).render())
        screen.board.focus()
        await pilot.press("u")  # a position with no scores yet: nothing shaded
        await pilot.pause()
        assert screen.board.overlay_scores is None
        await pilot.press("o")
        await pilot.pause()
        assert not screen.query(OverlayLegend) and screen.query_one(EvalGraph).display
