"""Make docs/screenshot.svg, the README's picture: Pah-Tum against the AI at 80x24.

    python docs/make_screenshot.py
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from rules import PlayerSpec
from tui.app import ArenaApp

OUT = Path(__file__).resolve().parent / "screenshot.svg"
MOVES = [24, 17, 31, 10, 38]  # D4, C4, E4, B4, F4: cells picked by a person


async def main() -> None:
    app = ArenaApp("pahtum", options={"blocks": "7"}, seed=11, clocks_running=False,
                   players=[PlayerSpec.human(), PlayerSpec.ai("hard")], ai_seconds=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        deadline = time.monotonic() + 300
        while not app.services.engine_ready("pahtum") and time.monotonic() < deadline:
            await pilot.pause(0.1)
        for cell in MOVES:
            game = screen.session.game
            if cell not in game.legal_moves():
                cell = game.legal_moves()[0]
            screen._play(cell)
            await pilot.pause()
            while screen.session.ai_to_move:
                await pilot.pause(0.1)
            await app.workers.wait_for_complete()
            await pilot.pause()
        screen.board.cursor = 3 * 7 + 5
        await pilot.pause()
        app.save_screenshot(filename=OUT.name, path=str(OUT.parent))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    asyncio.run(main())
