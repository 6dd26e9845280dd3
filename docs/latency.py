"""Key-to-screen latency of the app while the AI searches at `max`, for every game.

    .venv/bin/python docs/latency.py [--presses 20] [--games pahtum,pousse]

The app runs in-process at 80x24 (Textual's headless driver: everything but the
final write to a terminal). The AI holds the first seat at `max` with a long
budget, so it searches during the whole run. Each key is posted as the terminal
driver posts it, and its latency is the time from posting it to the first frame
the app paints (`App._display`, called with the compositor's update) that shows
its effect: `?` opens the rules, escape closes them, an arrow moves the cursor.
Figures: median and worst per game and key, in milliseconds. `--idle` measures the
same keys with people in every seat (no search): the baseline of the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual import events  # noqa: E402

from rules import PlayerSpec, game_names, get_game  # noqa: E402
from tui.app import ArenaApp  # noqa: E402
from tui.screens.dialogs import RulesDialog  # noqa: E402
from tui.screens.game import GameScreen  # noqa: E402

SEARCH_SECONDS = 600.0  # longer than the run: the search never ends on its own
KEYS = {"question_mark": "?", "escape": "\x1b", "left": None, "right": None}


class Frames:
    """Wraps `App._display` to note when each frame is painted and what it showed."""

    def __init__(self, app: ArenaApp) -> None:
        self.app = app
        self.seen: list[tuple[float, object]] = []
        self._check: Callable[[], object] = lambda: None
        original = app._display

        def display(screen, renderable) -> None:  # noqa: ANN001 - Textual's own signature
            original(screen, renderable)
            if renderable is not None:
                self.seen.append((time.perf_counter(), self._check()))

        app._display = display  # type: ignore[method-assign]

    async def latency(self, key: str, shows: Callable[[], bool], timeout: float = 5.0) -> float:
        """Seconds from posting `key` to the first frame for which `shows()` is true."""
        self._check = shows
        self.seen.clear()
        event = events.Key(key, KEYS.get(key))
        event.set_sender(self.app)
        start = time.perf_counter()
        assert self.app._driver is not None
        self.app._driver.send_message(event)
        deadline = start + timeout
        while time.perf_counter() < deadline:
            for when, ok in self.seen:
                if ok:
                    return when - start
            await asyncio.sleep(0.001)
        raise TimeoutError(f"{key}: no frame showed its effect within {timeout} s")


async def measure(game_name: str, presses: int, idle: bool = False) -> dict[str, list[float]]:
    """Per key, the latencies of `presses` presses during a `max` search (none: `idle`)."""
    n = get_game(game_name).player_count[0]
    first = PlayerSpec.human() if idle else PlayerSpec.ai("max")
    players = [first] + [PlayerSpec.human()] * (n - 1)
    app = ArenaApp(game_name, players=players, ai_seconds=SEARCH_SECONDS)
    results: dict[str, list[float]] = {"open ?": [], "close": [], "cursor": []}
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        deadline = time.monotonic() + 300
        while screen._thinking is None and not idle:  # the warm-up, then the search
            assert time.monotonic() < deadline, "the AI never started"
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # well into the search: deeper iterations, full speed
        frames = Frames(app)
        board = screen.board
        for i in range(presses):
            results["open ?"].append(await frames.latency(
                "question_mark", lambda: isinstance(app.screen, RulesDialog)))
            await asyncio.sleep(0.05)
            results["close"].append(await frames.latency(
                "escape", lambda: app.screen is screen))
            await asyncio.sleep(0.05)
            before = board.cursor
            key = "right" if i % 2 == 0 else "left"
            results["cursor"].append(await frames.latency(
                key, lambda b=before: board.cursor != b))
            await asyncio.sleep(0.05)
        assert idle or screen._thinking is not None, "the search ended during the run"
        app.services.stop_all()
        await pilot.pause(0.2)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--games", default=",".join(game_names()))
    parser.add_argument("--idle", action="store_true", help="no search: the baseline")
    args = parser.parse_args()
    during = "with no search (baseline)" if args.idle else "during a max search"
    print(f"key-to-screen latency {during}, {args.presses} presses each (ms)")
    print(f"{'game':10} {'key':8} {'median':>7} {'worst':>7}")
    for name in args.games.split(","):
        for key, values in asyncio.run(measure(name, args.presses, args.idle)).items():
            ms = [v * 1000 for v in values]
            print(f"{name:10} {key:8} {statistics.median(ms):7.1f} {max(ms):7.1f}")


if __name__ == "__main__":
    main()
