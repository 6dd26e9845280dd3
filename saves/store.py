"""Where saves live and how they reach the disk: atomic writes, safe reads.

Every write goes to a temporary file in the target's folder, is flushed and
synced, then renamed over the target, so a crash or a full disk mid-save
leaves the previous file intact.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from datetime import datetime
from pathlib import Path

import platformdirs

from rules import Game, RulesError, game_names, get_game
from saves.format import FORMAT, SaveDoc, SaveError, dumps, loads, restore, saved_time
from saves.jsontext import MAX_CHARS

SUFFIX = ".arena.json"
NATIVE_SUFFIX = ".txt"  # exported native positions
ENV_DIR = "ARENA_SAVE_DIR"
MAX_BYTES = MAX_CHARS  # a save's UTF-8 is at least as long as its text


def save_dir(override: Path | str | None = None) -> Path:
    """The saves folder (created on demand): `override`, else $ARENA_SAVE_DIR, else user data."""
    if override is not None and str(override):
        folder = Path(override).expanduser()
    elif os.environ.get(ENV_DIR):
        folder = Path(os.environ[ENV_DIR]).expanduser()
    else:
        folder = Path(platformdirs.user_data_dir("arena")) / "saves"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def atomic_write(path: Path | str, text: str) -> None:
    """Replace `path` with `text` (UTF-8) all at once; on failure the old file is untouched.

    Raises OSError; the temporary file is removed whatever happens.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp makes the file private (0600); a save or position is an ordinary file.
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_dir(path.parent)


def _sync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless to skip where unsupported."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _os_reason(err: OSError) -> str:
    return err.strerror or err.__class__.__name__


def write_save(path: Path | str, doc: SaveDoc) -> None:
    """Write a save atomically; SaveError (one line) if the disk refuses."""
    try:
        atomic_write(path, dumps(doc))
    except OSError as err:
        raise SaveError(f"could not save {path}: {_os_reason(err)}") from None


def read_text(path: Path, limit: int | None = None) -> str:
    """The file's text, read no further than `limit` bytes (by default a save's most; an
    endless file is refused); SaveError naming the file on any problem."""
    limit = MAX_BYTES if limit is None else limit
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise SaveError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SaveError(f"{path}: is a folder, not a file") from None
    except OSError as err:
        raise SaveError(f"{path}: cannot read it: {_os_reason(err)}") from None
    if len(data) > limit:
        raise SaveError(f"{path}: too large for a save or position (over {limit:,} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a text file (not UTF-8)") from None


def read_save(path: Path | str) -> tuple[SaveDoc, Game]:
    """Read, validate and replay a save; SaveError naming the file and the problem."""
    path = Path(path)
    text = read_text(path)
    try:
        doc = loads(text)
        return doc, restore(doc)
    except SaveError as err:
        raise SaveError(f"{path.name}: {err}") from None


def list_saves(folder: Path | str, native: bool = False) -> list[Path]:
    """The save files in `folder`, newest first (none if the folder does not exist).

    With `native`, exported native positions (`*.txt`) are listed too.
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = []
    paths = list(folder.glob(f"*{SUFFIX}"))
    if native:
        paths += folder.glob(f"*{NATIVE_SUFFIX}")
    for path in paths:
        try:
            found.append((path.stat().st_mtime, path.name, path))
        except OSError:  # removed while listing
            continue
    found.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [path for _, _, path in found]


def describe_save(path: Path | str) -> str:
    """One line for a save list: game, moves, players and when; or why it cannot be read.

    The save is validated but not replayed (the list stays quick); loading replays it.
    """
    try:
        text = read_text(Path(path))
        if not _looks_like_save(text):
            return f"{native_game(text).title} position, native format"
        doc = loads(text)
        title = get_game(doc.game).title
        when = saved_time(doc.saved_at).strftime("%Y-%m-%d %H:%M")
    except (SaveError, RulesError) as err:
        return f"unreadable: {err}"
    players = " v ".join(p.text() for p in doc.players)
    moves = len(doc.moves)
    state = "finished" if doc.result else f"{moves} move{'' if moves == 1 else 's'}"
    return f"{title} · {state} · {players} · {when}"


def default_name(
    game_name: str, folder: Path | str | None = None, now: datetime | None = None
) -> str:
    """`pahtum-2026-11-22-0712.arena.json`; with `folder`, a -2, -3 suffix avoids clobbering."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%d-%H%M")
    name = f"{game_name}-{stamp}{SUFFIX}"
    if folder is not None:
        n = 2
        while (Path(folder) / name).exists():
            name = f"{game_name}-{stamp}-{n}{SUFFIX}"
            n += 1
    return name


def export_native(game: Game, path: Path | str) -> None:
    """Write the current position in the game's native format, atomically."""
    try:
        atomic_write(path, game.to_native())
    except OSError as err:
        raise SaveError(f"could not write {path}: {_os_reason(err)}") from None


def _looks_like_save(text: str) -> bool:
    return text.lstrip().startswith("{") and FORMAT in text


def is_save(path: Path | str) -> bool:
    """Whether the file is an Arena save (by its content); SaveError if it cannot be read."""
    return _looks_like_save(read_text(Path(path)))


def native_game(text: str) -> Game:
    """The game whose native format `text` is (the formats do not overlap); SaveError if none."""
    for name in game_names():
        try:
            return get_game(name).from_native(text)
        except RulesError:
            continue
    raise SaveError(f"not an Arena save nor a position of {', '.join(game_names())}")


def read_native(path: Path | str) -> Game:
    """A native position file of any game; SaveError naming the file if it is none."""
    path = Path(path)
    try:
        return native_game(read_text(path))
    except SaveError as err:
        raise SaveError(f"{path.name}: {err}") from None


def load_position(game_name: str, path: Path | str) -> Game:
    """A game from a save file or from a native position file of `game_name`.

    Which one is decided by the content (a save is a JSON object). Any
    problem is a SaveError of one line naming the file.
    """
    path = Path(path)
    try:
        cls = get_game(game_name)
    except RulesError as err:
        raise SaveError(str(err)) from None
    text = read_text(path)
    if _looks_like_save(text):
        try:
            doc = loads(text)
            game = restore(doc)
        except SaveError as err:
            raise SaveError(f"{path.name}: {err}") from None
        if game.name != cls.name:
            raise SaveError(f"{path.name}: a {game.title} save, not {cls.title}")
        return game
    try:
        return cls.from_native(text)
    except RulesError as err:
        raise SaveError(f"{path.name}: not a {cls.title} position or Arena save: {err}") from None
