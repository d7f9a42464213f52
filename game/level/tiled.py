"""pytiled_parser's reading of the checked map: typed layers, objects and properties.

pytiled_parser gets only the clean tree that `tree.check_map` made: no file to open, no
template to fill in, no tile data to decode, and every key it reads present and of its
kind. So it does not fail; if it still does, the error names the file and says so.
"""

from typing import Any, cast

import pytiled_parser
from pytiled_parser.layer import Layer as TiledLayer
from pytiled_parser.parsers.json.layer import parse as parse_layer
from pytiled_parser.parsers.json.properties import parse as parse_properties
from pytiled_parser.util import parse_color

from shoal.game.level.messages import Where

_PARSER_ERRORS = (
    pytiled_parser.UnknownFormat,
    ArithmeticError,
    KeyError,
    TypeError,
    ValueError,
    AttributeError,
    IndexError,
    RuntimeError,
    NotImplementedError,
    OSError,
)


def tiled_layers(layers: list[dict[str, Any]], where: Where) -> list[TiledLayer]:
    """The clean object and group layers, read by pytiled_parser."""
    try:
        # No parent folder: an object still naming a template would fail, not open a file.
        return [parse_layer(cast(Any, layer), "utf-8", None) for layer in layers]
    except _PARSER_ERRORS as error:
        raise _parser_error(error, where) from error


def tiled_properties(props: list[dict[str, Any]], where: Where) -> dict[str, object]:
    """Checked Tiled properties by name (ints rounded, colours and files typed)."""
    try:
        return dict(parse_properties(cast(Any, props)))
    except _PARSER_ERRORS as error:
        raise _parser_error(error, where) from error


def colour(text: str) -> tuple[int, int, int]:
    """The RGB of a checked Tiled colour ("#rrggbb" or "#aarrggbb")."""
    parsed = parse_color(text)
    return parsed.red, parsed.green, parsed.blue


def _parser_error(error: Exception, where: Where) -> Exception:
    # KeyError's text is just the key: say which kind of error it was.
    return where.error(f"not a valid Tiled map ({type(error).__name__}: {error})")
