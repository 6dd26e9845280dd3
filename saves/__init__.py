"""Save files: the versioned document (`saves.format`), its JSON text (`saves.jsontext`)
and where and how it is stored (`saves.store`). Nothing is ever lost: writes are atomic
and loads replay every move."""
