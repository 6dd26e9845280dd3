"""JSON as saves write and read it: a readable packed layout, and parsing with bounds.

Nothing here knows what a save holds. Parsing refuses what no save contains
(numbers beyond range or length, NaN, deep nesting, huge texts) with one line,
never a traceback from Python's own limits.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection
from typing import Any

WIDTH = 80
MAX_CHARS = 4_000_000  # far beyond any real save; bigger text is refused unparsed
MAX_DEPTH = 16  # a save nests 4 deep; deeper JSON is junk
MAX_DIGITS = 30  # no whole number in a save needs more
_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonError(ValueError):
    """Text that is not JSON a save can hold; one line."""


# ----- writing ---------------------------------------------------------------


def scalar(value: Any) -> str:
    """One JSON value on one line: readable UTF-8, except that a lone surrogate (which
    UTF-8 cannot hold) stays an escape, so any Python text can be written."""
    text = json.dumps(value, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _flat(value: Any) -> bool:
    """A scalar or a list of scalars: short enough to sit inside a one-line object."""
    if isinstance(value, list):
        return all(not isinstance(v, dict | list) for v in value)
    return not isinstance(value, dict)


def _inline(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(scalar(v) for v in value) + "]"
    return scalar(value)


def pretty(value: Any, one_per_line: Collection[str] = (), indent: int = 0,
           lines_here: bool = False) -> str:
    """Indented JSON whose short objects and lists of scalars are packed onto lines of WIDTH.

    Lists under a key in `one_per_line` keep one item a line (a board's rows).
    """
    pad = "  " * (indent + 1)
    end = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        if all(_flat(v) for v in value.values()):
            inline = "{" + ", ".join(f"{scalar(k)}: {_inline(v)}" for k, v in value.items()) + "}"
            if len(pad) + len(inline) <= WIDTH:
                return inline
        items = [
            f"{pad}{scalar(k)}: {pretty(v, one_per_line, indent + 1, k in one_per_line)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{end}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        parts = [pretty(v, one_per_line, indent + 1) for v in value]
        if _flat(value) and not lines_here:
            one_line = "[" + ", ".join(parts) + "]"
            if len(pad) + len(one_line) <= WIDTH:
                return one_line
            lines, line = [], ""
            for part in parts:
                if line and len(pad) + len(line) + len(part) + 2 > WIDTH:
                    lines.append(line + ",")
                    line = ""
                line = f"{line}, {part}" if line else part
            lines.append(line)
            return "[\n" + "\n".join(pad + ln for ln in lines) + f"\n{end}]"
        return "[\n" + ",\n".join(pad + p for p in parts) + f"\n{end}]"
    return scalar(value)


# ----- reading ---------------------------------------------------------------


def excerpt(value: Any, limit: int = 40) -> str:
    """A short, printable excerpt of a bad value for a message."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError(f"a number is out of range: {excerpt(text)}")
    return value


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise JsonError(f"a number has {len(text):,} digits")
    return int(text)


def _constant(name: str) -> Any:
    raise JsonError(f"{name} is not a number")


def _too_deep(data: Any) -> bool:
    """Whether `data` nests deeper than MAX_DEPTH (checked without recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return False


def parse(text: str) -> Any:
    """The value of `text`; JsonError (one line, saying how the file is damaged) if none."""
    if not text.strip():
        raise JsonError("the file is empty")
    if len(text) > MAX_CHARS:
        raise JsonError(f"the file is too large for a save ({len(text):,} characters)")
    try:
        data = json.loads(text, parse_float=_finite, parse_int=_whole, parse_constant=_constant)
    except json.JSONDecodeError as err:
        # A cut file fails on its last line (mid-string errors point at the string's start).
        last_line = text.rstrip().count("\n") + 1
        cut_string = err.msg.startswith("Unterminated string") and "\n" not in text[err.pos:]
        if err.lineno >= last_line or cut_string:
            raise JsonError("the file ends too soon: it is truncated") from None
        raise JsonError(f"not valid JSON at line {err.lineno} column {err.colno} ({err.msg}): "
                        "the file is corrupted") from None
    except RecursionError:
        raise JsonError("the JSON is nested too deeply: the file is corrupted") from None
    except JsonError as err:
        raise JsonError(f"{err}: the file is corrupted") from None
    except ValueError as err:  # Python's own limits on numbers, should any remain
        raise JsonError(f"a number cannot be read ({err}): the file is corrupted") from None
    if _too_deep(data):
        raise JsonError("the JSON is nested too deeply: the file is corrupted")
    return data
