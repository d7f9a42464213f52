"""The keys of a Tiled map that shoal reads, and the kinds of their values.

pytiled_parser trusts its input: a missing key or a wrong type fails deep inside it with a
KeyError or TypeError that names no layer or object. These tables hold the keys it reads
(and shoal uses), so that such a file fails here with a message that does.
"""

import re
import sys
from collections.abc import Mapping
from typing import Any, TypeGuard

from shoal.game.level.messages import Where, quote

MAP_KEYS = {
    "width": "int",
    "height": "int",
    "tilewidth": "int",
    "tileheight": "int",
    "orientation": "str",
    "layers": "list",
}
MAP_OPTIONAL = {"infinite": "bool", "backgroundcolor": "color", "properties": "list"}
LAYER_KEYS = {"name": "str", "type": "str"}
LAYER_OPTIONAL = {"offsetx": "number", "offsety": "number"}
OBJECT_KEYS = {
    "id": "int",
    "x": "number",
    "y": "number",
    "width": "number",
    "height": "number",
    "rotation": "number",
    "visible": "bool",
    "name": "str",
}
OBJECT_OPTIONAL = {
    "type": "str",
    "class": "str",
    "properties": "list",
    "template": "str",
    "ellipse": "bool",
    "point": "bool",
    "polygon": "list",
}
_KIND_WORDS = {
    "int": "an integer",
    "number": "a finite number",
    "str": "a string",
    "bool": "true or false",
    "list": "a list",
    "dict": "an object",
    "color": 'a colour "#rrggbb" or "#aarrggbb"',
    "whole": "a whole number",
}
PROPERTY_KINDS = {
    "string": "str",
    "int": "whole",
    "float": "number",
    "bool": "bool",
    "color": "color",
    "file": "str",
    "object": "int",
    "class": "dict",
}
_COLOUR = re.compile(r"#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


def finite(value: object) -> TypeGuard[int | float]:
    """A JSON number (not a bool), finite, and an int only if a float can hold it."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    # Compared, not converted: float(10**400) and math.isfinite(10**400) raise OverflowError;
    # NaN and the infinities fail the comparison.
    return -sys.float_info.max <= value <= sys.float_info.max


def is_kind(value: object, kind: str) -> bool:
    """Whether a JSON value is of a kind named in the tables above."""
    match kind:
        case "int":
            return isinstance(value, int) and not isinstance(value, bool)
        case "number":
            return finite(value)
        case "whole":
            return finite(value) and float(value).is_integer()
        case "str":
            return isinstance(value, str)
        case "bool":
            return isinstance(value, bool)
        case "list":
            return isinstance(value, list)
        case "dict":
            return isinstance(value, dict)
        case "color":
            return isinstance(value, str) and _COLOUR.fullmatch(value) is not None
    raise AssertionError(kind)


def check_keys(
    raw: Mapping[str, object],
    keys: Mapping[str, str],
    where: Where,
    *,
    required: bool,
    prefix: str = "",
) -> None:
    """Each key of `keys` holds a value of its kind (and is there, if `required`).

    `prefix` starts each message (e.g. "template 'rock.tj': ").
    """
    for key, kind in keys.items():
        if key not in raw:
            if required:
                raise where.error(f"{prefix}{key} is missing")
            continue
        if not is_kind(raw[key], kind):
            where.fail(f"{prefix}{key}", raw[key], f"must be {_KIND_WORDS[kind]}")


def check_properties(props: list[Any], where: Where, prefix: str = "") -> None:
    """A Tiled property list: each an object with a name, a known type and a value of that
    type; no name twice (Tiled never writes one twice: which would the author have meant?)."""
    names: set[str] = set()
    for k, prop in enumerate(props):
        if not isinstance(prop, dict):
            why = "must be an object with name, type and value"
            where.fail(f"{prefix}properties[{k}]", prop, why)
        name, kind = prop.get("name"), prop.get("type")
        if not isinstance(name, str):
            where.fail(f"{prefix}properties[{k}].name", name, "must be a string")
        if name in names:
            raise where.error(f"{prefix}property {quote(name)} is given twice")
        names.add(name)
        field = f"{prefix}{name}"  # Where.fail cuts and escapes it
        if not isinstance(kind, str) or kind not in PROPERTY_KINDS:  # a list is unhashable
            where.fail(f"{field}.type", kind, f"must be one of {', '.join(PROPERTY_KINDS)}")
        if not is_kind(prop.get("value"), PROPERTY_KINDS[kind]):
            words = _KIND_WORDS[PROPERTY_KINDS[kind]]
            where.fail(field, prop.get("value"), f"must be {words} (the property is {kind})")
