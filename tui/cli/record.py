"""`arena record`: a save turned into a game record, the whole game as plain text."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Annotated

import typer

from rules import RulesError
from tui.cli.common import _out, _path, _user_errors, app

STDOUT = "-"


@app.command(short_help="Write a save as a game record: headers and moves, as plain text.")
def record(
    save: Annotated[str, typer.Argument(metavar="SAVE",
                                        help="a save (.arena.json) or a game record")],
    out: Annotated[
        str | None,
        typer.Option("-o", "--out", metavar="FILE",
                     help="where the record goes: a file, a folder (the save's name with "
                     "the record's suffix, .arena.txt) or - for standard output "
                     "[default: beside the save]"),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="replace a file already there")
                     ] = False,
) -> None:
    """Write the whole game of a save as a game record (README: Game records): its
    options, start, players, clock and result as headers, then the moves in the game's
    notation. The record loads back (`arena play GAME --load RECORD`) as the same game.
    The path written is printed; an existing file is replaced only with --force."""
    from saves.record import dumps_record
    from saves.store import read_save, record_name, write_record

    with _user_errors():
        source = _path(save, "SAVE")
        assert source is not None
        _readable(source)
        doc, _game = read_save(source)
        if out == STDOUT:
            _out(dumps_record(doc), nl=False)
            return
        target = _path(out, "--out")
        name = record_name(source.name)
        if target is None:
            target = source.parent / name
        elif target.is_dir():
            target = target / name
        _writable(target, force)
        write_record(target, doc)
    _out(str(target))


def _readable(path: Path) -> None:
    """A save to read: one line for a native position (it holds no game to record), and
    one for a file that is neither (what the file is not)."""
    from saves.store import is_save, read_native

    if not is_save(path):
        read_native(path)  # SaveError: neither a save nor any game's position
        raise RulesError(f"{path.name} is a native position, not a save: it holds no "
                         "moves or players to record")


def _writable(target: Path, force: bool) -> None:
    """Refuse a folder that is not there, and a file already there unless `force`."""
    folder = target.parent
    if not folder.is_dir():
        raise RulesError(f"--out {target}: the folder {folder} does not exist")
    try:
        mode = target.lstat().st_mode
    except FileNotFoundError:
        return
    except OSError as err:
        raise RulesError(f"--out {target}: {err.strerror or err}") from None
    if not stat.S_ISREG(mode):
        raise RulesError(f"--out {target} exists and is not a plain file")
    if not force:
        raise RulesError(f"{target} exists: give --force to replace it")
