"""Where saves live and how they reach the disk: atomic writes, safe reads.

Every write goes to a temporary file in the target's folder, is flushed and
synced, then renamed over the target, so a crash or a full disk mid-save
leaves the previous file intact (and a temp that a kill left behind is
cleaned the next time the folder is listed). Names typed by a user are
names, never paths. Reading for a list or the menu never raises: a bad file
is a line saying why.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
import time
import unicodedata
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import platformdirs

from rules import Game, RulesError, codec_of, game_names, get_game
from rules.players import labels
from saves.format import FORMAT, SaveDoc, SaveError, dumps, loads, restore, saved_time
from saves.jsontext import MAX_CHARS
from saves.record import RECORD_SUFFIX, dumps_record, load_record, loads_record, looks_like_record

SUFFIX = ".arena.json"
NATIVE_SUFFIX = ".txt"  # exported native positions
ENV_DIR = "ARENA_SAVE_DIR"
MAX_BYTES = MAX_CHARS  # a save's UTF-8 is at least as long as its text
NAME_CHARS = 120  # characters of a typed name
NAME_BYTES = 200  # UTF-8 bytes of a file name: its temp (+14) stays within NAME_MAX (255)
TEMP_SUFFIX = ".tmp"
# What atomic_write's mkstemp makes: ".<name>.<8 random of [a-z0-9_]>.tmp" (a test checks
# that it still does); clean_stale_temps removes these and nothing else.
_TEMP = re.compile(r"\..+\.[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX), re.DOTALL)
STALE_SECONDS = 60.0  # a temp older than this belongs to no write still running
AUTOSAVE_DIR = "autosave"  # a subfolder, so the list of named saves never shows it
AUTOSAVE_NAME = f"last{SUFFIX}"
DAMAGED = ".damaged"
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")  # reorder shown text


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

    The folder must exist (none is created on the way). Raises OSError; the
    temporary file is removed whatever happens short of a kill.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
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


def write_save(path: Path | str, doc: SaveDoc) -> str:
    """Write a save atomically; the text written. SaveError (one line) if the disk refuses."""
    text = dumps(doc)
    try:
        atomic_write(path, text)
    except OSError as err:
        raise SaveError(f"could not save {path}: {_os_reason(err)}") from None
    return text


def write_record(path: Path | str, doc: SaveDoc) -> None:
    """Write a game record (`saves.record`) atomically; SaveError (one line) if the disk
    refuses."""
    try:
        atomic_write(path, dumps_record(doc))
    except OSError as err:
        raise SaveError(f"could not write {path}: {_os_reason(err)}") from None


def record_name(save_name: str) -> str:
    """The record's file name beside a save (or record) called `save_name`:
    `match-001.arena.json` -> `match-001.arena.txt`."""
    for suffix in (SUFFIX, RECORD_SUFFIX, ".json", NATIVE_SUFFIX):
        if save_name.endswith(suffix) and len(save_name) > len(suffix):
            return save_name[: -len(suffix)] + RECORD_SUFFIX
    return save_name + RECORD_SUFFIX


def _read(path: Path, limit: int) -> str:
    """The file's text; SaveError with the reason alone (the caller names the file)."""
    # Non-blocking, so that a named pipe (or a device) is refused instead of waited on:
    # opening a FIFO for reading blocks until a writer comes.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise SaveError("no such file") from None
    except IsADirectoryError:
        raise SaveError("is a folder, not a file") from None
    except OSError as err:
        if err.errno == errno.ENXIO:  # a socket (or a FIFO no one writes to, for writing)
            raise SaveError("not a regular file (a pipe, a socket or a device)") from None
        raise SaveError(f"cannot read it: {_os_reason(err)}") from None
    mode = os.fstat(fd).st_mode
    if stat.S_ISDIR(mode):
        os.close(fd)
        raise SaveError("is a folder, not a file")
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise SaveError("not a regular file (a pipe, a socket or a device)")
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as err:
            raise SaveError(f"cannot read it: {_os_reason(err)}") from None
    if len(data) > limit:
        raise SaveError(f"too large for a save or position (over {limit:,} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError("not a text file (not UTF-8)") from None


def read_text(path: Path | str, limit: int | None = None) -> str:
    """The file's text, read no further than `limit` bytes (by default a save's most; an
    endless file is refused); SaveError naming the file on any problem. Only a regular
    file is read: a named pipe, a socket or a device is refused without waiting on it.
    """
    limit = MAX_BYTES if limit is None else limit
    try:
        return _read(Path(path), limit)
    except SaveError as err:
        raise SaveError(f"{path}: {err}") from None


def append_line(path: Path | str, line: str) -> None:
    """Add a line to a log file (made if missing); OSError if it is not a regular file
    (opened without blocking: a named pipe would wait for a reader)."""
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
             | getattr(os, "O_NOCTTY", 0))
    fd = os.open(path, flags, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def read_save(path: Path | str) -> tuple[SaveDoc, Game]:
    """Read, validate and replay a save or a game record; SaveError naming the file and the
    problem."""
    path = Path(path)
    try:
        return _load_game(_read(path, MAX_BYTES))
    except SaveError as err:
        raise SaveError(f"{path.name}: {err}") from None


# ----- names -------------------------------------------------------------------


def _quoted(name: str) -> str:
    """A short, printable quote of a typed name (control characters escaped)."""
    text = repr(name)
    return text if len(text) <= 40 else text[:36] + "...'"


def _unsafe_char(ch: str) -> bool:
    """Control characters, lone surrogates, line breaks and bidi overrides: a file name
    holding one cannot be written, printed on one line or read as it looks."""
    return unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI


def safe_name(name: str, suffix: str) -> str:
    """The file name for `name` typed by a user: stripped, `suffix` added when missing.

    A name is never a path: SaveError (one line) for path separators, `..`, a
    leading dot (hidden, and the temp files' own pattern), control characters,
    nothing at all, or too long a name.
    """
    what = {SUFFIX: "a save name", NATIVE_SUFFIX: "an export name"}.get(suffix, "a file name")
    text = name.strip()
    if not text:
        raise SaveError(f"{what} cannot be empty")
    if len(text) > NAME_CHARS:
        raise SaveError(f"{what} is limited to {NAME_CHARS} characters (this one has "
                        f"{len(text):,}): {_quoted(text)}")
    if "/" in text or "\\" in text or ".." in text:
        raise SaveError(f"{what} cannot contain '/', '\\' or '..': {_quoted(text)}")
    if text.startswith("."):
        raise SaveError(f"{what} cannot start with '.': {_quoted(text)}")
    if any(_unsafe_char(ch) for ch in text):
        raise SaveError(f"{what} cannot hold control characters: {_quoted(text)}")
    file_name = text if text.endswith(suffix) else text + suffix
    size = len(file_name.encode("utf-8"))
    if size > NAME_BYTES:
        raise SaveError(f"{what} is too long for a file name ({size} bytes in UTF-8, at most "
                        f"{NAME_BYTES}): {_quoted(text)}")
    return file_name


def path_in(folder: Path | str, name: str, suffix: str) -> Path:
    """The path of `name` (see `safe_name`) in `folder`, checked to be right inside it.

    Nothing is created. The check after resolving is defence in depth: it also
    refuses a name that is a link leading out of the folder.
    """
    base = Path(folder).resolve()
    path = (base / safe_name(name, suffix)).resolve()
    if path.parent != base:
        raise SaveError(f"{_quoted(name)} would leave the folder {base}")
    return path


# ----- listing -----------------------------------------------------------------


def clean_stale_temps(folder: Path | str, older_than: float = STALE_SECONDS) -> int:
    """Remove the temp files a killed `atomic_write` left in `folder`; how many went.

    Only regular files of atomic_write's exact pattern, last written over
    `older_than` seconds ago (a younger one may be a write in progress, say by
    another Arena). Never raises.
    """
    now = time.time()
    removed = 0
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not _TEMP.fullmatch(entry.name):
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(info.st_mode) and now - info.st_mtime >= older_than:
                        os.unlink(entry.path)
                        removed += 1
                except OSError:  # gone already, or not ours to remove
                    continue
    except OSError:
        return removed
    return removed


def list_saves(folder: Path | str, native: bool = False) -> list[Path]:
    """The save files in `folder`, newest first (none if the folder does not exist).

    With `native`, exported native positions (`*.txt`) are listed too. The
    autosave (in a subfolder) is not. Listing also cleans stale temp files.
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    clean_stale_temps(folder)
    clean_stale_temps(folder / AUTOSAVE_DIR)
    found = []
    paths = list(folder.glob(f"*{SUFFIX}"))
    if native:
        paths += folder.glob(f"*{NATIVE_SUFFIX}")
    for path in paths:
        try:
            try:
                when = path.stat().st_mtime
            except OSError:  # a broken link or a link loop: listed, described unreadable
                when = path.lstat().st_mtime
        except OSError:  # removed while listing
            continue
        found.append((when, path.name, path))
    found.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [path for _, _, path in found]


def move_to_play(moves: int, players: int) -> int:
    """The move to play after `moves` moves, counted as the moves panel numbers them (one
    a player): 3 moves of two players are into move 2."""
    return moves // max(1, players) + 1


def _summary(doc: SaveDoc) -> str:
    """`Pah-Tum · move 2 · You v AI (max) · 2026-11-22 07:12` (`game 2 of 2, move 2` in a
    match's later game, `game 1 of 2 over` between a match's games): the players named as
    the game screen names them, the move counted as its moves panel numbers them (one a
    player: the move to play);
    SaveError/RulesError if the doc names an unknown game or an unshowable date."""
    title = get_game(doc.game).title
    when = saved_time(doc.saved_at).strftime("%Y-%m-%d %H:%M")
    players = " v ".join(labels(doc.players))
    state = "finished" if doc.result else f"move {move_to_play(len(doc.moves), len(doc.players))}"
    match = doc.match
    if match is not None and doc.result and match.index + 1 < match.length:
        state = f"game {match.index + 1} of {match.length} over"  # the match goes on
    elif match is not None and match.index > 0:  # a later game of a match
        state = f"game {match.index + 1} of {match.length}, {state}"
    return f"{title} · {state} · {players} · {when}"


def describe_save(path: Path | str) -> str:
    """One line for a save list: game, moves, players and when; or why it cannot be read.

    The save is validated but not replayed (the list stays quick); loading replays it.
    Never raises: one bad file is one line of the list.
    """
    return summarize_save(path)[1]


def summarize_save(path: Path | str) -> tuple[str | None, str]:
    """The game a listed file holds (None if it cannot be read) and `describe_save`'s line,
    from one read: the load list filters and sorts by the game. Never raises."""
    try:
        text = _read(Path(path), MAX_BYTES)
        if not _looks_like_save(text):
            game = native_game(text)
            return game.name, f"{game.title} position, native format"
        doc = _load_doc(text)
        return doc.game, _summary(doc) + (" · record" if looks_like_record(text) else "")
    except (SaveError, RulesError) as err:
        return None, f"unreadable: {err}"
    except Exception as err:  # noqa: BLE001 - a bug elsewhere must not cost the whole list
        reason = SaveError(f"unexpected {type(err).__name__}: {err}")
        return None, f"unreadable: {reason}"


# ----- renaming and deleting a listed file ------------------------------------------------
# Only a file the load list shows, right inside the saves folder: a regular file (or a link,
# which is renamed or removed itself, never what it points at); a folder, a pipe, a socket or
# a device is refused. A rename keeps the file's kind (its suffix) and never replaces another
# file. Every problem is a SaveError of one line, and the disk is left as it was.

LISTED_SUFFIXES = (SUFFIX, RECORD_SUFFIX, NATIVE_SUFFIX)  # the kinds the load list shows


def _listed_suffix(name: str) -> str:
    for suffix in LISTED_SUFFIXES:
        if name.endswith(suffix) and name != suffix:
            return suffix
    raise SaveError(f"{_quoted(name)} is not a save, a game record or an exported position")


def _listed_file(path: Path, folder: Path | str | None, doing: str) -> str:
    """Check that `path` may be renamed or deleted; its suffix. SaveError saying why not."""
    if folder is not None and path.parent.resolve() != Path(folder).resolve():
        raise SaveError(f"cannot {doing} {_quoted(path.name)}: it is not in the saves folder "
                        f"{Path(folder).resolve()}")
    suffix = _listed_suffix(path.name)
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        raise SaveError(f"cannot {doing} {_quoted(path.name)}: no such file") from None
    except OSError as err:
        raise SaveError(f"cannot {doing} {_quoted(path.name)}: {_os_reason(err)}") from None
    if stat.S_ISDIR(mode):
        raise SaveError(f"cannot {doing} {_quoted(path.name)}: is a folder, not a file")
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise SaveError(f"cannot {doing} {_quoted(path.name)}: not a regular file "
                        "(a pipe, a socket or a device)")
    return suffix


def _same_file(one: Path, other: Path) -> bool:
    """Whether two names are one file (a case-only rename on a case-blind disk)."""
    try:
        a, b = one.lstat(), other.lstat()
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def rename_target(folder: Path | str, old: Path | str, new_name: str) -> Path:
    """Where `rename_save` would move `old`; SaveError (one line) if it may not, nothing
    changed: a bad name, a name leaving the folder, a name taken, or no file to rename."""
    old = Path(old)
    suffix = _listed_file(old, folder, "rename")
    new = path_in(folder, new_name, suffix)
    if new.name != old.name and os.path.lexists(new) and not _same_file(old, new):
        raise SaveError(f"{_quoted(new.name)} already exists; choose another name")
    return new


def rename_save(folder: Path | str, old: Path | str, new_name: str) -> Path:
    """Rename the listed file `old` in `folder` to `new_name` (its suffix added if missing),
    in one atomic rename; the new path. SaveError (one line) and nothing changed if the name
    is bad, leaves the folder or is taken, or the disk refuses."""
    old = Path(old)
    new = rename_target(folder, old, new_name)
    if new.name == old.name:
        return new
    _move(old, new, f"could not rename {_quoted(old.name)}")
    return new


def _move(old: Path, new: Path, failure: str) -> None:
    """Rename `old` to `new` in one step, the folder synced; SaveError (`failure`: the
    reason) and nothing changed if the disk refuses."""
    try:
        os.rename(old, new)
    except OSError as err:
        raise SaveError(f"{failure}: {_os_reason(err)}") from None
    _sync_dir(new.parent)


def delete_save(path: Path | str, folder: Path | str | None = None) -> None:
    """Remove the listed file `path` (with `folder`, only if it is right inside it); a link
    goes, never what it points at. SaveError (one line) and nothing changed if it is no save
    or position, is a folder or a special file, or the disk refuses."""
    path = Path(path)
    _listed_file(path, folder, "delete")
    try:
        path.unlink()
    except OSError as err:
        raise SaveError(f"could not delete {_quoted(path.name)}: {_os_reason(err)}") from None
    _sync_dir(path.parent)


# ----- the autosaves --------------------------------------------------------------
# Each game's unfinished game, written after every move to <saves>/autosave/<game>.arena.json
# (a subfolder: never among the named saves) and cleared when it is over, saved by name or
# thrown away: a new game of one kind never replaces another kind's. An older Arena kept
# one slot, last.arena.json: it is still read, as the autosave of the game it holds, until
# that game's next autosave replaces it. Writes raise SaveError; reads never raise.
# Two Arenas may share a saves folder (two terminals): a writer passes the text it last
# put in a slot, and a slot holding other text is the other's, never overwritten or
# removed (`SlotTaken`; the caller keeps its game elsewhere).


class SlotTaken(SaveError):
    """The autosave slot holds what another writer put there since this one's last write
    (another Arena using the same saves folder)."""


def slot_text(folder: Path | str, game: str) -> str | None:
    """The text in `game`'s autosave slot, None if there is none (never raises: an
    unreadable slot reads as text no writer wrote)."""
    try:
        return autosave_path(folder, game).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError:
        return "\0"


def _check_held(folder: Path | str, game: str, held: str | None) -> None:
    if held is not None and slot_text(folder, game) not in (None, held):
        raise SlotTaken(f"the {game} autosave was written by another Arena")


def autosave_path(folder: Path | str, game: str | None = None) -> Path:
    """Where `game`'s autosave lives in the saves folder `folder` (None: the old one slot)."""
    name = AUTOSAVE_NAME if game is None else f"{game}{SUFFIX}"
    return Path(folder) / AUTOSAVE_DIR / name


def write_autosave(folder: Path | str, doc: SaveDoc, held: str | None = None) -> str:
    """Write `doc` as its game's autosave, atomically (the old one-slot file goes if it held
    this game); the text written. `held`: the text this writer last put in the slot (None:
    it takes the slot whatever is in it); SlotTaken, and nothing written, if the slot holds
    other text now. SaveError (one line) if the disk refuses."""
    path = autosave_path(folder, doc.game)
    _check_held(folder, doc.game, held)
    try:
        path.parent.mkdir(exist_ok=True)
    except OSError as err:
        raise SaveError(f"could not autosave in {path.parent}: {_os_reason(err)}") from None
    text = write_save(path, doc)
    old = _read_one(autosave_path(folder))
    if old is not None and old[0].game == doc.game:
        with contextlib.suppress(OSError):
            autosave_path(folder).unlink()
    return text


def keep_unfinished(folder: Path | str, game: str) -> Path | None:
    """Move the unfinished game in `game`'s autosave slot among the named saves (a fresh
    name, `<game>-unfinished-<when it was played>`), before a new game of that kind takes
    the slot; its new path, or None when the slot holds no game to keep. SaveError (one
    line) and nothing moved if the disk refuses."""
    for path in (autosave_path(folder, game), autosave_path(folder)):
        got = _read_one(path)  # a damaged one is set aside
        if got is None or got[0].game != game:
            continue
        when = datetime.fromtimestamp(os.stat(path).st_mtime)
        kept = Path(folder) / default_name(f"{game}-unfinished", folder, when)
        _move(path, kept, "could not keep the unfinished game")
        return kept
    return None


def _set_aside(path: Path) -> None:
    """Move a damaged autosave out of the way, kept for a look (replacing an older one)."""
    with contextlib.suppress(OSError):
        os.replace(path, path.with_name(path.name + DAMAGED))


def _read_one(path: Path) -> tuple[SaveDoc, Game] | None:
    if not os.path.lexists(path):
        return None
    try:
        return read_save(path)
    except Exception:  # noqa: BLE001 - a SaveError, or a bug elsewhere: the menu still opens
        _set_aside(path)
        return None


def read_autosave(folder: Path | str, game: str | None = None) -> tuple[SaveDoc, Game] | None:
    """`game`'s autosaved game, replayed (None: the most recent of any game); None if there
    is none. Never raises: a damaged autosave is moved aside (`<name>.damaged`)."""
    if game is None:
        found = autosaves(folder)
        return read_autosave(folder, found[0][0]) if found else None
    got = _read_one(autosave_path(folder, game))
    if got is None:
        old = _read_one(autosave_path(folder))
        if old is not None and old[0].game == game:
            return old
    return got


def autosaves(folder: Path | str) -> list[tuple[str, str]]:
    """(game, the menu's line) for every game with an unfinished game to resume, the most
    recently played first. Every one is replayed, so Resume offered is Resume working."""
    found: list[tuple[float, str, str]] = []
    seen: set[str] = set()
    for name in [*game_names(), None]:
        path = autosave_path(folder, name)
        got = _read_one(path)
        if got is None or got[0].game in seen:
            continue
        seen.add(got[0].game)
        try:
            line = _summary(got[0])
            stamp = path.stat().st_mtime
        except (SaveError, RulesError, OSError):  # cannot happen after a load; never raise
            continue
        found.append((stamp, got[0].game, line))
    return [(game, line) for _, game, line in sorted(found, reverse=True)]


def describe_autosave(folder: Path | str, game: str | None = None) -> str | None:
    """One line for the menu's Resume entry of `game` (as `describe_save`'s; None: the most
    recent), or None if there is nothing to resume."""
    for name, line in autosaves(folder):
        if game is None or name == game:
            return line
    return None


def clear_autosave(folder: Path | str, game: str | None = None, held: str | None = None,
                   ) -> None:
    """Remove `game`'s autosave (None: every one); none is fine. `held` as for
    `write_autosave`: a slot holding other text stays (SlotTaken). SaveError (one line) if
    the disk refuses."""
    if game is not None:
        _check_held(folder, game, held)
    names = [*game_names(), None] if game is None else [game]
    for name in names:
        path = autosave_path(folder, name)
        if name is not None and game is not None:
            old = _read_one(autosave_path(folder))
            if old is not None and old[0].game == game:
                _unlink(autosave_path(folder))
        _unlink(path)


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        return
    except OSError as err:
        raise SaveError(f"could not remove the autosave {path}: {_os_reason(err)}") from None


def default_name(
    game_name: str, folder: Path | str | None = None, now: datetime | None = None,
    suffix: str = SUFFIX,
) -> str:
    """`pahtum-2026-11-22-0712.arena.json`; with `folder`, a -2, -3 suffix avoids clobbering."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%d-%H%M")
    name = f"{game_name}-{stamp}{suffix}"
    if folder is not None:
        n = 2
        while (Path(folder) / name).exists():
            name = f"{game_name}-{stamp}-{n}{suffix}"
            n += 1
    return name


def export_native(game: Game, path: Path | str,
                  seconds_left: Sequence[float | None] | None = None) -> None:
    """Write the current position in the game's native format, atomically (with the
    clocks, per player, where the format holds them)."""
    try:
        atomic_write(path, codec_of(type(game)).native_text(game, seconds_left))
    except OSError as err:
        raise SaveError(f"could not write {path}: {_os_reason(err)}") from None


def saved_programs(path: Path | str) -> list[str]:
    """The command lines of the programs a save seats ([] for a native position); SaveError
    naming the file if it cannot be read."""
    path = Path(path)
    text = read_text(path)
    if not _looks_like_save(text):
        return []
    try:
        doc = _load_doc(text)
    except SaveError as err:
        raise SaveError(f"{path.name}: {err}") from None
    return [p.command for p in doc.players if p.command is not None]


def _looks_like_save(text: str) -> bool:
    """A save or a game record (`saves.record`): a whole game, players and all."""
    return (text.lstrip().startswith("{") and FORMAT in text) or looks_like_record(text)


def _load_doc(text: str) -> SaveDoc:
    """The document of a save's or a record's text, checked (not replayed)."""
    return loads_record(text) if looks_like_record(text) else loads(text)


def _load_game(text: str) -> tuple[SaveDoc, Game]:
    """The document of a save's or a record's text, checked and replayed."""
    if looks_like_record(text):
        return load_record(text)
    doc = loads(text)
    return doc, restore(doc)


def is_record(path: Path | str) -> bool:
    """Whether the file is a game record (by its content); SaveError naming the file if it
    cannot be read."""
    path = Path(path)
    try:
        return looks_like_record(_read(path, MAX_BYTES))
    except SaveError as err:
        raise SaveError(f"{path.name}: {err}") from None


def is_save(path: Path | str) -> bool:
    """Whether the file is an Arena save or game record (by its content); SaveError naming
    the file if it cannot be read."""
    path = Path(path)
    try:
        return _looks_like_save(_read(path, MAX_BYTES))
    except SaveError as err:
        raise SaveError(f"{path.name}: {err}") from None


def native_game(text: str) -> Game:
    """The game whose native format `text` is (the formats do not overlap); SaveError if none."""
    if not text.strip():
        raise SaveError("the file is empty")
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
        return native_game(_read(path, MAX_BYTES))
    except SaveError as err:
        raise SaveError(f"{path.name}: {err}") from None


def load_position(game_name: str, path: Path | str) -> Game:
    """A game from a save file, a game record or a native position file of `game_name`.

    Which one is decided by the content (a save is a JSON object, a record starts with
    its `[Game ...]` header). Any
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
            game = _load_game(text)[1]
        except SaveError as err:
            raise SaveError(f"{path.name}: {err}") from None
        if game.name != cls.name:
            raise SaveError(f"{path.name}: a {game.title} save, not {cls.title}")
        return game
    try:
        return cls.from_native(text)
    except RulesError as err:
        raise SaveError(f"{path.name}: not a {cls.title} position or Arena save: {err}") from None
