"""Kernels compiled ahead of time (`ai.native`): a native module gives exactly what the JIT
gives, loads without Numba, releases the GIL like `nogil=True`, and a damaged one is
never loaded. Pah-Tum's, the quickest to build (about 10 s), stands for every game; the
build is shared by the module's tests."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import seeded_cache

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A cache folder holding Pah-Tum's native module (built by `python -m ai.native`,
    as `arena prepare` does, from the JIT kernels of the run's cache) and the environment
    that uses it."""
    cache = seeded_cache(tmp_path_factory.mktemp("native-cache"))
    env = dict(os.environ, ARENA_CACHE_DIR=str(cache), ARENA_NATIVE="1", PYTHONPATH=str(ROOT))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-m", "ai.native", "pahtum"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "built arena_pahtum" in done.stdout
    return env


def run(code: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


SEARCH = """
    import sys
    from ai.engine import Budget, get_engine
    from rules import get_game
    engine = get_engine("pahtum")
    game = get_game("pahtum").new({"blocks": "5"}, seed=3)
    print(engine.perft(game, 4))
    result = engine.search(game, Budget(seconds=600, max_depth=6))
    print(result.move_text, result.depth, result.nodes, result.score, result.pv)
    game.play(result.move)
    print(engine.score_moves(game, 3))
    print("numba" in sys.modules)
"""


def test_native_kernels_give_what_the_jit_gives_without_loading_numba(
        built: dict[str, str]) -> None:
    native = run(SEARCH, built).splitlines()
    jit = run(SEARCH, dict(built, ARENA_NATIVE="0")).splitlines()
    assert native[:-1] == jit[:-1]  # the same leaves, nodes, scores and lines
    assert native[-1] == "False" and jit[-1] == "True"


def test_the_apps_warm_up_on_native_kernels_only_loads_them(built: dict[str, str]) -> None:
    """With a native module the app's warm-up loads it and searches nothing: no Numba,
    no warm-up searches (the slowest game's took 3 s), and the first search still runs."""
    out = run("""
        import sys, time
        from ai import engine
        from tui.services import Services
        searched = []
        engine.Engine.search = lambda *args, **kw: searched.append(args)
        start = time.process_time()
        Services(lambda message: None)._warm_up("pahtum")
        print(time.process_time() - start < 1.0, searched == [], "numba" in sys.modules)
        print(engine.get_engine("pahtum").perft(engine.get_engine("pahtum")
              .adapter.warm_up_searches()[0][0], 2))
    """, built).splitlines()
    assert out[0] == "True True False"
    assert out[1].startswith("[") and int(out[1].strip("[]").split(",")[0]) > 0


def test_a_native_search_releases_the_gil(built: dict[str, str]) -> None:
    """The deadline timer and the UI thread run while a native search does."""
    out = run("""
        import threading, time
        from ai.engine import Budget, get_engine
        from rules import get_game
        engine = get_engine("pahtum")
        game = get_game("pahtum").new(None, seed=1)
        ticks = []
        done = threading.Event()
        def tick():
            while not done.is_set():
                ticks.append(1)
                time.sleep(0.002)
        threading.Thread(target=tick).start()
        began = time.perf_counter()
        result = engine.search(game, Budget(seconds=0.6))
        spent = time.perf_counter() - began
        done.set()
        print(len(ticks), round(spent, 3), result.depth)
    """, built)
    ticks, spent, depth = out.split()
    assert float(spent) < 1.2 and int(depth) >= 2  # the deadline stopped it
    assert int(ticks) > 50  # the other thread ran the while


def test_a_damaged_native_module_is_not_loaded(built: dict[str, str], tmp_path: Path) -> None:
    import shutil

    cache = tmp_path / "cache"
    shutil.copytree(built["ARENA_CACHE_DIR"], cache)
    out = run("""
        from ai import native
        path = native.module_path("pahtum")
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
        print(native.loadable("pahtum"), native.ready("pahtum"))
    """, dict(built, ARENA_CACHE_DIR=str(cache)))
    assert out.split() == ["False", "False"]


EVERY_GAME = """
    import sys
    from ai.engine import Budget, get_engine
    name = sys.argv[1]
    engine = get_engine(name)
    games = engine.bench_positions()[:3]
    if name == "pillars":  # its depth 2 proves moves until the time is up where it cannot
        # settle them: a start (nothing to prove) and endgames it proves end by themselves
        games = engine.bench_positions()[1:2] + engine.bench_endgames()[0][:3]
    for game in games:
        print(engine.perft(game, 2))
        result = engine.search(game, Budget(seconds=600, max_depth=3))
        print(result.move_text, result.depth, result.nodes, result.score)
    print("numba" in sys.modules)
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", ["loaps", "pillars", "boxing", "pousse"])
def test_every_games_native_kernels_give_what_the_jit_gives(name: str, built: dict[str, str]
                                                            ) -> None:
    """Slow (each game's build takes up to a minute): run with `pytest -m slow`."""
    done = subprocess.run([sys.executable, "-m", "ai.native", name], env=built, cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]

    def output(env: dict[str, str]) -> list[str]:
        ran = subprocess.run([sys.executable, "-c", textwrap.dedent(EVERY_GAME), name],
                             env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)
        assert ran.returncode == 0, ran.stderr[-3000:]
        return ran.stdout.splitlines()

    native, jit = output(built), output(dict(built, ARENA_NATIVE="0"))
    assert native[:-1] == jit[:-1]
    assert native[-1] == "False" and jit[-1] == "True"


def test_arena_move_on_native_kernels_loads_neither_typer_nor_numba(built: dict[str, str]
                                                                    ) -> None:
    from rules.pahtum import SAMPLE_BOARD

    code = """
        import os, sys
        real_exit = os._exit
        def report(code):
            loaded = [m for m in ('typer', 'textual', 'numba') if m in sys.modules]
            sys.stderr.write(f'loaded: {loaded}')
            real_exit(code)
        os._exit = report
        sys.argv = ['arena', 'move', 'pahtum', '--time', '2']
        from tui.cli import main
        main()
    """
    # 2 s: with 0.5 s, a start-up slowed by a busy machine (0.23 s once, in a CI run)
    # leaves too little to load the kernels, and the move is the quick search's
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], input=SAMPLE_BOARD,
                          env=dict(built, ARENA_TRACE_STARTUP="1"), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) == 56
    assert "native kernels" in done.stderr and done.stderr.endswith("loaded: []")
