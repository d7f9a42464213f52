"""Reading a level's files: the map, or an object template it names, as strict JSON.

A file is opened once and checked before it is read: a regular file (a device such as
/dev/zero, a pipe or a folder is refused unread, also behind a symbolic link) of at most its
size limit; then at most that many bytes are read, so a file that grows while it is read, or
one of /proc that says it is empty, is refused too. The text is UTF-8 (a byte-order mark is
allowed) and strict JSON: no NaN or Infinity, no number too big for a float, no key twice in
one object (which value would the author have meant?).
"""

import json
import math
import os
import stat
from pathlib import Path
from typing import Any, NoReturn

from shoal.game.level.limits import MAX_FILE_BYTES
from shoal.game.level.messages import LevelError, Where, quote, shorten

# O_NONBLOCK: opening a named pipe must not wait for a writer (it is refused once open).
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_MAX_DIGITS = 1000  # of a JSON integer: more is no number a level means


def read_json(path: Path, where: Where, limit: int, what: str = "") -> dict[str, Any]:
    """The JSON object of a file of at most `limit` bytes.

    `what` starts every message: empty for the level file itself, "template 'x.tj': " for
    a file it names (the message still starts with the level's file).
    """
    text = _decode(_read_bytes(path, where, limit, what), where, what)
    raw = _parse(text, where, what)
    if not isinstance(raw, dict):
        raise where.error(f"{what}not a Tiled {_kind(what)}: the JSON is not an object")
    return raw


def _read_bytes(path: Path, where: Where, limit: int, what: str) -> bytes:
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except ValueError as error:  # Python refuses a NUL in a path before the system sees it
        raise where.error(f"{what}cannot read the file: its path holds a NUL character") from error
    except OSError as error:
        raise where.error(f"{what}cannot read the file: {error.strerror or error}") from error
    try:
        with os.fdopen(fd, "rb") as file:
            status = os.fstat(file.fileno())
            if not stat.S_ISREG(status.st_mode):
                raise where.error(f"{what}cannot read the file: not a regular file")
            _check_size(status.st_size, limit, where, what)
            data = file.read(limit + 1)
    except OSError as error:
        raise where.error(f"{what}cannot read the file: {error.strerror or error}") from error
    _check_size(len(data), limit, where, what)
    return data


def _check_size(size: int, limit: int, where: Where, what: str) -> None:
    if size > limit:
        noun = "template" if what else "level"
        where.fail(f"{what}size", size, f"bytes is too big for a {noun} (at most {limit})")


def _kind(what: str) -> str:
    return "template" if what else "map"


def _decode(data: bytes, where: Where, what: str) -> str:
    try:
        text = data.decode("utf-8-sig")  # Windows editors start UTF-8 with a byte-order mark
    except UnicodeDecodeError as error:
        raise where.error(f"{what}not UTF-8 text (save it as JSON)") from error
    if not text.strip():
        raise where.error(f"{what}the file is empty")
    if text.lstrip().startswith("<"):
        raise where.error(f"{what}an XML (TMX) {_kind(what)}: save it in Tiled as JSON")
    return text


def _parse(text: str, where: Where, what: str) -> object:
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_no_constant,
            parse_float=_finite_float,
            parse_int=_short_int,
        )
    except json.JSONDecodeError as error:
        cut = " (truncated?)" if error.pos >= len(text.rstrip()) else ""
        why = f"{error.msg} at line {error.lineno} column {error.colno}"
        raise where.error(f"{what}not valid JSON{cut}: {why}") from error
    except RecursionError as error:
        raise where.error(f"{what}not valid JSON: nested too deep") from error
    except ValueError as error:  # raised by the hooks below
        raise where.error(f"{what}not valid JSON: {error}") from error


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) < len(pairs):
        raise ValueError(f"the key {quote(_first_repeated(pairs))} appears twice in one object")
    return found


def _first_repeated(pairs: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("no key is repeated")


def _no_constant(name: str) -> NoReturn:
    # Python's json accepts NaN and Infinity; Tiled never writes them.
    raise ValueError(f"{name} is not a number")


def _finite_float(text: str) -> float:
    # Python's json reads 1e999 as inf.
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{shorten(text, 40)} is too big a number")
    return value


def _short_int(text: str) -> int:
    # int() of a long run of digits costs time quadratic in its length (Python refuses
    # more than 4,300 digits, with a message about sys.set_int_max_str_digits).
    if len(text) > _MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits is too long")
    return int(text)


def peek_order(path: Path) -> float:
    """A level file's ``order`` property (infinity if it cannot be read)."""
    try:
        raw = read_json(path, Where(str(path)), MAX_FILE_BYTES)
    except LevelError:
        return math.inf  # load_level will say what is wrong with it
    props = raw.get("properties")
    for prop in props if isinstance(props, list) else []:
        if isinstance(prop, dict) and prop.get("name") == "order":
            value = prop.get("value")
            if type(value) is int and abs(value) <= 1 << 53:
                return float(value)
    return math.inf
