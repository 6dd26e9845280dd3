"""Save files: the versioned document (`saves.format`) and where and how it is stored
(`saves.store`). Nothing is ever lost: writes are atomic and loads replay every move."""

from saves.format import (
    FORMAT,
    VERSION,
    SaveDoc,
    SaveError,
    doc_from_game,
    dumps,
    loads,
    restore,
)
from saves.store import (
    atomic_write,
    default_name,
    export_native,
    list_saves,
    load_position,
    read_save,
    save_dir,
    write_save,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "SaveDoc",
    "SaveError",
    "atomic_write",
    "default_name",
    "doc_from_game",
    "dumps",
    "export_native",
    "list_saves",
    "load_position",
    "loads",
    "read_save",
    "restore",
    "save_dir",
    "write_save",
]
