"""The kernel cache heals itself: damaged folders are set aside and rebuilt, unwritable
ones give way to a private temporary folder, nothing is written beside the sources.

The subprocess tests run the real `arena move` over a real cache: one run fills it,
then it is damaged and the next run must still answer. Read-only folders are tested
truthfully only when the test can run the child as another user (root ignores modes),
a full disk only when a tiny tmpfs can be mounted; otherwise the same paths are driven
in-process by making the write probe fail.
"""

from __future__ import annotations

import os
import pickle
import random
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from ai import numba_cache
from rules import codec_of, get_game
from tests.conftest import seeded_cache

ROOT = Path(__file__).resolve().parents[2]
ARENA = [sys.executable, "-c", "from tui.cli import main; main()"]
INPUT = {
    "pahtum": "-------\n------+\n---+---\n-------\n--++---\n-------\n+------\n",
}


def arena_move(game: str, cache: Path, *, user: list[str] | None = None,
               ) -> subprocess.CompletedProcess[str]:
    """`arena move GAME --time 1` in a fresh process over the cache folder `cache`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    env["ARENA_CACHE_DIR"] = str(cache)
    return subprocess.run([*(user or []), *ARENA, "move", game, "--time", "1"],
                          input=INPUT[game], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)


def assert_answers(done: subprocess.CompletedProcess[str], game: str, notices: int = 1) -> str:
    """A legal reply on stdout, exit 0, at most `notices` lines on stderr, no traceback."""
    assert done.returncode == 0, done.stderr[-2000:]
    cls = get_game(game)
    codec = codec_of(cls)
    moves = codec.position(INPUT[game], []).legal_moves()
    # the reply plays the move: a fresh position for each
    assert done.stdout in {codec.reply(codec.position(INPUT[game], []), m) for m in moves}
    lines = done.stderr.splitlines()
    assert len(lines) <= notices, done.stderr
    assert all(line.startswith("arena: ") for line in lines) and "Traceback" not in done.stderr
    return done.stderr


def nothing_beside_the_sources() -> None:
    assert not [p for p in numba_cache.AI_DIR.rglob("*.nb[ic]")]


def version_dir(cache: Path) -> Path:
    (folder,) = [p for p in (cache / "numba").iterdir() if numba_cache.DAMAGED not in p.name]
    return folder


def current(cache: Path) -> None:
    """Name a copied cache's folder after the sources as they are now (the name hashes
    every `ai/` source, and the tree may have changed since the copy was filled)."""
    folder = version_dir(cache)
    name = f"{numba_cache.package_version()}-{numba_cache.source_hash()}"
    if folder.name != name:
        folder.rename(folder.with_name(name))


@pytest.fixture(scope="module")
def good_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder used by a real run (seeded with the run's kernels, so that it loads
    rather than compiles them)."""
    cache = seeded_cache(tmp_path_factory.mktemp("good-cache"))
    for game in INPUT:
        assert_answers(arena_move(game, cache), game)
    assert (version_dir(cache) / numba_cache.MANIFEST).is_file()  # the move sealed it
    return cache


def damage(data: bytes, kind: str, rng: random.Random) -> bytes:
    if kind == "empty":
        return b""
    if kind == "truncated":
        return data[: len(data) // 2]
    return bytes(rng.randrange(256) for _ in range(len(data)))


# ----- in-process: the checks themselves ----------------------------------------------


def test_a_sound_file_is_whole_pickles_and_nothing_else() -> None:
    index = pickle.dumps("0.68.1") + pickle.dumps(("stamp", {"key": "file.1.nbc"}))
    assert numba_cache.sound(index, 2)
    assert not numba_cache.sound(index, 1)  # bytes left over
    assert not numba_cache.sound(index[:-1], 2)
    assert not numba_cache.sound(b"", 1)
    assert not numba_cache.sound(bytes(random.Random(3).randrange(256) for _ in range(500)), 1)


def fake_cache(folder: Path) -> Path:
    sub = folder / f"game_{uuid.uuid4().hex}"
    sub.mkdir(parents=True)
    (sub / "kernels.f-1.py311.nbi").write_bytes(pickle.dumps("v") + pickle.dumps(("s", {})))
    (sub / "kernels.f-1.py311.1.nbc").write_bytes(pickle.dumps((b"\x00" * 4000, "code")))
    return sub


@pytest.fixture
def state(monkeypatch: pytest.MonkeyPatch) -> numba_cache._State:
    fresh = numba_cache._State()
    monkeypatch.setattr(numba_cache, "_state", fresh)
    return fresh


def test_damage_is_found_by_shape_and_by_the_seal(tmp_path: Path, state) -> None:
    home = tmp_path / "cache"
    sub = fake_cache(home)
    assert numba_cache.find_damage(home) is None
    state.folder = state.home = home
    numba_cache.seal()
    data = sub / "kernels.f-1.py311.1.nbc"
    raw = bytearray(data.read_bytes())
    raw[-100] ^= 0xFF  # inside the bytes: still a whole pickle
    data.write_bytes(bytes(raw))
    assert numba_cache.sound(bytes(raw), 1)
    assert "changed" in (numba_cache.find_damage(home) or "")
    (home / numba_cache.MANIFEST).unlink()
    assert numba_cache.find_damage(home) is None  # unsealed: only the shape is checked
    (sub / "kernels.f-1.py311.nbi").write_bytes(b"")
    assert "not a whole" in (numba_cache.find_damage(home) or "")


def test_a_damaged_folder_is_set_aside_and_recreated(tmp_path: Path, state) -> None:
    home = tmp_path / "cache"
    sub = fake_cache(home)
    (sub / "kernels.f-1.py311.1.nbc").write_bytes(b"\x80\x05garbage")
    assert numba_cache._prepare(home) == home
    assert home.is_dir() and not any(home.iterdir())
    (aside,) = tmp_path.glob(f"cache{numba_cache.DAMAGED}*")
    assert (aside / sub.name / "kernels.f-1.py311.1.nbc").is_file()
    assert state.notice and "damaged" in state.notice and aside.name in state.notice


def test_an_unwritable_folder_gives_way_to_a_private_copy(tmp_path: Path, state,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Simulated in-process (the write probe fails as on a full or read-only disk)."""
    home = tmp_path / "cache"
    sub = fake_cache(home)
    monkeypatch.setattr(numba_cache, "_unwritable", lambda folder: "No space left on device")
    folder = numba_cache._prepare(home)
    try:
        assert folder != home and folder.name.startswith(numba_cache.PRIVATE_PREFIX)
        assert (folder / sub.name / "kernels.f-1.py311.nbi").is_file()  # no recompiling
        assert state.notice and "No space left" in state.notice and "copy" in state.notice
        assert state.home is None
    finally:
        numba_cache.cleanup()
    assert not folder.exists()


def test_damaged_and_unwritable_gives_an_empty_private_folder(tmp_path: Path, state,
                                                              monkeypatch) -> None:
    home = tmp_path / "cache"
    (fake_cache(home) / "kernels.f-1.py311.nbi").write_bytes(b"")
    monkeypatch.setattr(numba_cache, "_unwritable", lambda folder: "Read-only file system")
    folder = numba_cache._prepare(home)
    try:
        assert folder != home and not any(folder.iterdir())
        assert state.notice and "compiled for this run only" in state.notice
    finally:
        numba_cache.cleanup()


def test_run_time_failures_in_numbas_cache_code_are_recognised(tmp_path: Path, state) -> None:
    from numba.core.caching import IndexDataCacheFile

    index = IndexDataCacheFile(str(tmp_path), "kernels.f-1.py311", "stamp")
    (tmp_path / "kernels.f-1.py311.nbi").write_bytes(pickle.dumps("0.68.1")[:-1])
    with pytest.raises(Exception) as caught:
        index.load("key")
    assert numba_cache.caused_by_cache(caught.value)
    assert not numba_cache.caused_by_cache(ValueError("elsewhere"))
    home = tmp_path / "home"
    home.mkdir()
    state.folder = state.home = home
    assert "set aside" in numba_cache.recover(caught.value)
    assert home.is_dir() and list(tmp_path.glob(f"home{numba_cache.DAMAGED}*"))


def test_the_locator_never_falls_back_beside_the_sources() -> None:
    from ai import jit

    jit._load_numba()  # as Arena loads it (the cache is configured first), run alone too
    import numba.core.config as config

    assert config.CACHE_LOCATOR_CLASSES == "ai.numba_cache.ArenaLocator"
    assert numba_cache.ArenaLocator.__mro__[1].__name__ == "UserProvidedCacheLocator"


# ----- subprocesses: the real `arena move` over a damaged cache ---------------------------


# one run with the most hostile damage (random bytes): an empty or cut file is found by
# the same shape check, tested in-process above; each run recompiles (about 10 s)
@pytest.mark.parametrize(("game", "kind"), [("pahtum", "random")])
def test_move_answers_over_a_damaged_cache(good_cache: Path, tmp_path: Path, game: str,
                                           kind: str) -> None:
    """Every file of the game damaged, and the seal removed so only the shape check can
    find it (a sealed file's damage is caught by its hash, tested above)."""
    cache = tmp_path / "cache"
    shutil.copytree(good_cache, cache)
    current(cache)
    folder = version_dir(cache)
    (folder / numba_cache.MANIFEST).unlink()
    rng = random.Random(kind)
    for path in folder.glob(f"{game}_*/*.nb[ic]"):
        path.write_bytes(damage(path.read_bytes(), kind, rng))
    said = assert_answers(arena_move(game, cache), game)
    assert "damaged" in said and "set aside" in said
    assert list((cache / "numba").glob(f"*{numba_cache.DAMAGED}*"))
    assert numba_cache.find_damage(version_dir(cache)) is None  # rebuilt
    assert_answers(arena_move(game, cache), game, notices=0)  # and used: no word, no compile
    nothing_beside_the_sources()


def other_user() -> list[str] | None:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return None
    probe = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    done = subprocess.run([*probe, sys.executable, "-c", "import tui.cli"], cwd=ROOT,
                          capture_output=True)
    return probe if done.returncode == 0 else None


@pytest.mark.parametrize("filled", [True, False])
def test_move_answers_over_a_read_only_cache(good_cache: Path, filled: bool) -> None:
    user = other_user()
    if user is None:
        pytest.skip("needs root and setpriv to run the child as another user "
                    "(root ignores a read-only mode); covered in-process above")
    base = Path(tempfile.mkdtemp(prefix="arena-read-only-"))  # pytest's folders are private
    try:
        cache = base / "cache"
        if filled:
            shutil.copytree(good_cache, cache)
            current(cache)
        else:
            (cache / "numba").mkdir(parents=True)
        for path in [base, *base.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        before = sorted(p.relative_to(cache) for p in cache.rglob("*"))
        said = assert_answers(arena_move("pahtum", cache, user=user), "pahtum")
        assert "cannot be" in said and ("copy" if filled else "this run only") in said
        assert sorted(p.relative_to(cache) for p in cache.rglob("*")) == before
    finally:
        shutil.rmtree(base)
    nothing_beside_the_sources()


def test_move_answers_over_a_full_disk(tmp_path: Path) -> None:
    mount = tmp_path / "full"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
            capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tiny tmpfs here; the full-disk path is covered in-process")
    try:
        said = assert_answers(arena_move("pahtum", mount), "pahtum")
        assert "No space left on device" in said
    finally:
        subprocess.run(["umount", str(mount)], check=False)
    nothing_beside_the_sources()


def test_reading_a_cache_runs_nothing_it_contains(tmp_path: Path) -> None:
    """The check walks opcodes only: a pickle that would run code is merely 'whole'."""
    class Boom:
        def __reduce__(self):  # noqa: ANN204
            return (os.system, ("touch " + str(tmp_path / "ran"),))

    data = pickle.dumps(Boom())
    assert numba_cache.sound(data, 1)
    assert not (tmp_path / "ran").exists()
