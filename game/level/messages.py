"""Error messages of the level loader: one short, printable line, whatever the file holds.

Names, values and paths in a message come from the file (or its name). Each is cut to a
few dozen characters and every character that is not printable is written as an escape
(``\\x1b``, ``\\u202e``, ``\\n``): a message never clears the screen, sets a terminal's
title, reorders the text or breaks the line, and a 1 MB name makes a 60-character quote.
"""

import reprlib
from dataclasses import dataclass, replace
from typing import NoReturn

MAX_MESSAGE_CHARS = 400
"""Longest error message (a safety net: each part is cut shorter)."""
_MAX_PATH_CHARS = 160
_MAX_NAME_CHARS = 40
_MAX_VALUE_CHARS = 60
_MAX_FIELD_CHARS = 80
_CUT = "…"


class LevelError(ValueError):
    """A level that cannot be used.

    The message is one printable line of at most `MAX_MESSAGE_CHARS` characters:
    ``'<file>: layer <name>, object <id> "<name>": <field> = <value> <why>'``, with the parts
    that do not apply left out.
    """


def _value_repr() -> reprlib.Repr:
    # reprlib cuts as it goes: a 1 MB string or a list of a million points costs no more
    # than a short one, and a value nested 1,000 deep cannot overflow the stack.
    shown = reprlib.Repr()
    shown.maxlevel = 3
    shown.maxstring = shown.maxother = shown.maxlong = _MAX_VALUE_CHARS
    shown.maxlist = shown.maxtuple = shown.maxdict = shown.maxset = 6
    return shown


_VALUES = _value_repr()


def quote(value: object) -> str:
    """A value as it appears in a message: its repr, short and printable."""
    return clip(_VALUES.repr(value), _MAX_VALUE_CHARS)


def quote_word(value: object) -> str:
    """A word the loader looks for (a class, layer or property name) as a message quotes
    it: like `quote`, but letters outside ASCII escaped too, so that a look-alike (a Cyrillic
    s, a full-width r, a zero-width space) shows as what it is."""
    if not isinstance(value, str):
        return quote(value)
    return clip(ascii(shorten(value, _MAX_VALUE_CHARS)), _MAX_VALUE_CHARS)


def clip(text: str, limit: int) -> str:
    """The text, printable and at most about `limit` characters (the middle cut out)."""
    return shorten(printable(shorten(text, limit)), limit)


def shorten(text: str, limit: int) -> str:
    """The text, its middle cut out if it is longer than limit (the ends say the most)."""
    if len(text) <= limit:
        return text
    half = (limit - len(_CUT)) // 2
    return f"{text[:half]}{_CUT}{text[len(text) - half :]}"


def printable(text: str) -> str:
    """The text with each character that is not printable written as its escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(c) for c in text)


def _escape(char: str) -> str:
    # unicode_escape writes \x1b, \u202e, \ud800 (a lone surrogate too) in plain ASCII.
    return char.encode("unicode_escape", "backslashreplace").decode("ascii")


@dataclass(frozen=True, slots=True)
class Where:
    """The file, layer and object being read: every error message names them.

    Attributes:
        file: the level file's path as given.
        layer: the layer's name (or ``#index`` before its name is known).
        obj: the object's id and name.
    """

    file: str
    layer: str | None = None
    obj: str | None = None

    def at_layer(self, name: object) -> "Where":
        """The same file, in the named layer."""
        return replace(self, layer=clip(str(name), _MAX_NAME_CHARS), obj=None)

    def at_object(self, ident: object, name: str) -> "Where":
        """The same layer, at the object with this id and name."""
        # An id is an int once checked; before, it may be anything (quote cuts as it goes).
        shown = clip(str(ident), 24) if isinstance(ident, int) else quote(ident)
        if name:
            shown = f'{shown} "{clip(name, _MAX_NAME_CHARS)}"'
        return replace(self, obj=shown)

    def error(self, text: str) -> LevelError:
        """A LevelError whose message names the file, layer and object, then says `text`."""
        place = []
        if self.layer is not None:
            place.append(f"layer {self.layer}")
        if self.obj is not None:
            place.append(f"object {self.obj}")
        head = clip(self.file, _MAX_PATH_CHARS)
        if place:
            head = f"{head}: {', '.join(place)}"
        return LevelError(clip(f"{head}: {text}", MAX_MESSAGE_CHARS))

    def fail(self, name: str, value: object, why: str, *, word: bool = False) -> NoReturn:
        """Raise the error ``<name> = <value> <why>``; `word`: quote the value with
        `quote_word` (it should have been one of the format's words)."""
        shown = quote_word(value) if word else quote(value)
        raise self.error(f"{clip(name, _MAX_FIELD_CHARS)} = {shown} {why}")
