"""The AI's view on the game and replay screens: `o` scores the position in a worker (a
stand-in engine here: fixed scores, no kernels), shades the board with a legend, scores
each new position, and goes away with `o` again; SVG snapshots of fixed scores at 80x24
and 120x40 (Pah-Tum), and of a turned LOAPS board with its view."""

from __future__ import annotations

from collections.abc import Hashable

import pytest

from ai.engine import MoveScores
from rules import Game, PlayerSpec
from tui.app import ArenaApp
from tui.screens.game import GameScreen
from tui.widgets.overlay_legend import OverlayLegend

PEOPLE = (PlayerSpec.human("Ann"), PlayerSpec.human("Bob"))


@pytest.fixture(autouse=True)
def own_saves_folder(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Autosaves and saves of these tests never reach the user's folder."""
    monkeypatch.setenv("ARENA_SAVE_DIR", str(tmp_path_factory.mktemp("saves")))


def fixed_scores(game: Game) -> MoveScores:
    """Scores that depend on the move's place in the list only: the first a proven win,
    the last a proven loss, the others falling in turn."""
    moves = game.legal_moves()
    scores: dict[Hashable, float] = {m: float(-i) for i, m in enumerate(moves)}
    scores[moves[0]], scores[moves[-1]] = 1000.0, -1000.0
    return MoveScores(3, scores, frozenset({moves[0], moves[-1]}))


class StandIn:
    """The engine as the overlay uses it: the positions it was asked about."""

    def __init__(self) -> None:
        self.asked: list[Game] = []

    def rate_moves(self, game: Game, seconds: float, stop: object) -> MoveScores:
        self.asked.append(game)
        return fixed_scores(game)


def frozen_app(game: str, **kw) -> ArenaApp:
    return ArenaApp(game, players=PEOPLE, seed=2, clocks_running=False, now=lambda: 0.0, **kw)


async def settle(app: ArenaApp, pilot) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_o_shades_each_position_with_a_legend_and_o_again_clears_it() -> None:
    app = frozen_app("pahtum")
    engine = StandIn()
    async with app.run_test(size=(80, 24)) as pilot:
        app.services.engine_ready = lambda name: True  # type: ignore[method-assign]
        app.services.engine = lambda name: engine  # type: ignore[method-assign, assignment]
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.board
        await pilot.press("o")
        await settle(app, pilot)
        game = screen.session.game
        assert board.overlay_scores == fixed_scores(game).scores
        legend = screen.query_one(OverlayLegend)
        assert legend.display and "depth 3" in str(legend.render())
        await pilot.press("enter")  # a move: the new position is scored
        await settle(app, pilot)
        assert len(game.history) == 1 and len(engine.asked) == 2
        assert board.overlay_scores == fixed_scores(game).scores
        await pilot.press("o")
        await pilot.pause()
        assert board.overlay_scores is None and not legend.display
        assert board.overlay_map() == {}


class Candidates(StandIn):
    """An engine that scores only some of the moves (its candidates)."""

    def rate_moves(self, game: Game, seconds: float, stop: object) -> MoveScores:
        rated = super().rate_moves(game, seconds, stop)
        return MoveScores(3, dict(list(rated.scores.items())[:10]), frozenset())


async def test_the_legend_counts_all_moves_and_those_scored() -> None:
    app = frozen_app("pahtum")
    for engine, words in ((StandIn(), "depth 3, {n} moves;"),
                          (Candidates(), "depth 3, 10 of {n} moves;")):
        async with app.run_test(size=(80, 24)) as pilot:
            app.services.engine_ready = lambda name: True  # type: ignore[method-assign]
            app.services.engine = lambda name, e=engine: e  # type: ignore[method-assign, assignment, misc]
            await pilot.pause()
            screen = app.screen
            await pilot.press("o")
            await settle(app, pilot)
            n = len(screen.session.game.legal_moves())
            assert words.format(n=n) in str(screen.query_one(OverlayLegend).render())
        app = frozen_app("pahtum")


async def test_the_view_leaves_the_ais_turn_alone() -> None:
    app = ArenaApp("pahtum", players=(PlayerSpec.ai("easy"), PlayerSpec.human("Bob")),
                   seed=2, clocks_running=False, now=lambda: 0.0)
    engine = StandIn()
    app.services.prepare_engine = lambda name: None  # type: ignore[method-assign]
    app.services.engine = lambda name: engine  # type: ignore[method-assign, assignment]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.session.ai_to_move
        await pilot.press("o")
        await settle(app, pilot)
        assert engine.asked == [] and screen.board.overlay_scores is None
        assert "waiting for the AI" in str(screen.query_one(OverlayLegend).render())


def show_fixed(flip: bool = False):
    async def run_before(pilot) -> None:
        screen = pilot.app.screen
        if flip:
            screen.board.flip()
        screen.overlay_show(fixed_scores(screen.session.game))
        await pilot.pause()
    return run_before


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_pahtum_with_the_ais_view(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(frozen_app("pahtum"), run_before=show_fixed(), terminal_size=size)


def test_loaps_turned_with_the_ais_view(snap_compare) -> None:
    assert snap_compare(frozen_app("loaps"), run_before=show_fixed(flip=True),
                        terminal_size=(80, 24))


async def test_the_replay_shows_the_view_of_each_move_stepped_to(tmp_path) -> None:
    from tests.tui.test_replay import finished, open_replay, saved
    from tui.screens.replay import ReplayScreen

    session = finished("pahtum", players=PEOPLE)
    app = ArenaApp(load=saved(session, tmp_path), save_dir=tmp_path, clocks_running=False)
    engine = StandIn()
    async with app.run_test(size=(80, 24)) as pilot:
        app.services.engine_ready = lambda name: True  # type: ignore[method-assign]
        app.services.engine = lambda name: engine  # type: ignore[method-assign, assignment]
        screen = await open_replay(app, pilot)
        assert isinstance(screen, ReplayScreen)
        await pilot.press("o")
        await settle(app, pilot)
        assert engine.asked == [] and "the game is over here" in str(
            screen.query_one(OverlayLegend).render())  # the last move ended it
        await pilot.press("left")
        await settle(app, pilot)
        assert len(engine.asked) == 1 and screen.board.overlay_scores == fixed_scores(
            screen.game).scores
        await pilot.press("f")
        await pilot.pause()
        assert screen.board.flipped


async def test_looking_back_scores_the_position_looked_at() -> None:
    app = frozen_app("pahtum")
    engine = StandIn()
    async with app.run_test(size=(80, 24)) as pilot:
        app.services.engine_ready = lambda name: True  # type: ignore[method-assign]
        app.services.engine = lambda name: engine  # type: ignore[method-assign, assignment]
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("enter", "right", "enter")  # two moves, by the two people
        await pilot.press("o")
        await settle(app, pilot)
        assert len(engine.asked[-1].history) == 2
        await pilot.press("left_square_bracket")  # move 1 on the board: it is scored
        await settle(app, pilot)
        looked = engine.asked[-1]
        assert len(looked.history) == 1
        assert screen.board.overlay_scores == fixed_scores(looked).scores
        await pilot.press("end")  # back to the game: its own position again
        await settle(app, pilot)
        assert len(engine.asked[-1].history) == 2
