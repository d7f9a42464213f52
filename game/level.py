"""Levels of the fish tank: Tiled maps (.tmj) read into plain, validated dataclasses.

A level loads and validates without a window (nothing here imports arcade)::

    level = load_level("reef")                  # a packaged level, by name
    level = load_level("my_levels/trench.tmj")  # or any Tiled JSON map
    for name in level_names(): ...              # the packaged levels, in play order

Any problem raises `LevelError`, whose one-line message names the file and, where they
apply, the layer, object and field.

`pytiled_parser` reads the map; this module turns its object layers into shoal's obstacle
shapes and spawn points in world coordinates (y up, origin bottom-left). arcade's own
object-layer reader is not used: it gets ellipses, polygon scaling and rectangle rotation
wrong.

The map (Tiled 1.8+ JSON, orthogonal, finite; tile, image and other layers are ignored):

- Map size in pixels is the tank; the map's background colour is the water.
- Map properties (all optional): ``title`` (string, default: the file name), ``order``
  (int, play order), ``boundary`` (``contain``, ``bounce`` or ``wrap``; default contain),
  ``current_x``, ``current_y`` (float, px/s², at most 1000 either way), ``food_to_eat``
  (int >= 1, default 10), ``min_fish`` (int >= 0, default 1), ``time_limit`` (float
  seconds, 0 = none).
- Object layer ``obstacles`` (optional): rectangles, ellipses and polygons, rotated or not,
  of class (type) ``rock`` or ``plant`` (none: rock).
- Object layer ``spawns`` (required): point objects of class ``spawn`` (properties
  ``count`` int, required; ``species`` string, default fish; ``radius`` float, default 60),
  at least one; ``shark``; ``food`` (``bites`` int, default 3; ``radius`` float, default 6);
  at most one ``leader`` (default: the tank centre).

Unknown layer names, classes and property names are errors, so that a typo never silently
drops an obstacle or a setting. Points may not lie outside the tank or inside an obstacle.

A level file is untrusted input: whatever it holds, `load_level` returns a level the tank
can play or raises `LevelError`, quickly and without a big allocation. So there are limits
(the constants below): file size, objects, vertices, fish, crowding at the start (fish
scattered as the game does, counted per 50 px square), group nesting, tile layer size. An
obstacle may reach at most one tank size past a wall, and rectangles and ellipses are at
least 1 px. Files named by the map are read only as JSON object templates (regular files
within the size limit); external tilesets and compressed tile layers are refused, as shoal
draws no tiles and pytiled_parser would read them unchecked.
"""

import importlib.resources
import json
import math
import re
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn, TypeGuard

import numpy as np
import pytiled_parser
from pytiled_parser import tiled_object as tiled
from pytiled_parser.layer import Layer as TiledLayer
from pytiled_parser.layer import LayerGroup, ObjectLayer

from shoal.components.obstacle import Circle, Point, Polygon, Rect, Shape
from shoal.components.species import BOUNDARY_MODES

MAX_SPAWN_COUNT = 5000
"""Most fish one spawn point may make."""
MAX_TOTAL_FISH = 20000
"""Most fish all the spawn points of a level may make together."""
MAX_WORLD_SIZE = 16384
"""Largest tank side, px: the flock's grids grow with the tank."""
MAX_RADIUS = MAX_WORLD_SIZE
"""Largest radius of a spawn or food point, px (squared in the flock: keep it finite)."""
MIN_OBSTACLE_SIZE = 1.0
"""Thinnest rectangle or ellipse, px: a thinner one rounds to a line with no normal."""
CROWD_CELL = 50.0
"""Side of the squares in which the start crowd is counted, px (a fish's default
perception radius)."""
MAX_CROWD = 100
"""Most fish and sharks that may start in one `CROWD_CELL` square: the flock's neighbour
lists grow with the square of a crowd (20,000 fish on one corner took gigabytes and
seconds a step)."""
MAX_CURRENT = 1000.0
"""Strongest water current, px/s², either way on each axis: six times what a fish can
swim against, and small enough that a step's speeds stay finite."""
MAX_FILE_BYTES = 4 * 1024 * 1024
"""Largest level file read: a real level is a few kB."""
MAX_OBJECTS = 5000
"""Most objects in one map."""
MAX_POLYGON_POINTS = 256
"""Most vertices of one polygon (validating a polygon costs vertices²)."""
MAX_OBSTACLE_VERTICES = 2048
"""Most vertices of all obstacles together (a rectangle or circle counts 4): keeps the
polygon checks and the point-in-obstacle checks of a load well under a second."""
MAX_GROUP_DEPTH = 16
"""Deepest nesting of group layers (each level costs stack in every reader)."""
MAX_TILES = 512 * 512
"""Most tiles of one tile layer: shoal draws no tiles, but pytiled_parser reads them all."""
ELLIPSE_VERTICES = 32
"""Vertices of the polygon that stands in for a non-circular ellipse."""
DEFAULT_BACKGROUND = (16, 44, 78)
"""Water colour of a map without a background colour: a dark blue."""
OBSTACLE_KINDS = ("rock", "plant")
"""Classes of obstacle objects; an obstacle without a class is a rock."""
POINT_CLASSES = ("spawn", "shark", "food", "leader")
"""Classes of the point objects in the spawns layer."""

OBSTACLES_LAYER = "obstacles"
SPAWNS_LAYER = "spawns"
_PACKAGE = "shoal.levels"
_SUFFIX = ".tmj"
_LEVEL_NAME = re.compile(r"[A-Za-z0-9_-]+")  # a bare name; anything else is a path
_MAX_VALUE_CHARS = 60  # of a value quoted in a message: one line stays readable
_MAX_SHAPE_MESSAGE = 200  # a shape's own message quotes all its points

_MAP_PROPERTIES = (
    "title",
    "order",
    "boundary",
    "current_x",
    "current_y",
    "food_to_eat",
    "min_fish",
    "time_limit",
)
_POINT_PROPERTIES = {
    "spawn": ("species", "count", "radius"),
    "food": ("bites", "radius"),
    "shark": (),
    "leader": (),
}


class LevelError(ValueError):
    """A level that cannot be used.

    The message is one line:
    ``'<file>: layer <name>, object <id> "<name>": <field> = <value> <why>'``, with the parts
    that do not apply left out.
    """


@dataclass(frozen=True, slots=True)
class LevelObstacle:
    """An obstacle of a level.

    Attributes:
        shape: the shape, world coordinates.
        kind: "rock" or "plant" (for drawing).
    """

    shape: Circle | Rect | Polygon
    kind: str


@dataclass(frozen=True, slots=True)
class SpawnPoint:
    """Where a school starts.

    Attributes:
        x: centre x, px.
        y: centre y, px.
        species: name of the species (not checked here).
        count: number of boids (1 .. `MAX_SPAWN_COUNT`).
        radius: they start scattered within this radius, px.
    """

    x: float
    y: float
    species: str
    count: int
    radius: float


@dataclass(frozen=True, slots=True)
class FoodDrop:
    """Food placed at the start.

    Attributes:
        x: centre x, px.
        y: centre y, px.
        bites: bites it lasts (>= 1).
        radius: its size, px.
    """

    x: float
    y: float
    bites: int
    radius: float


@dataclass(frozen=True, slots=True)
class Goal:
    """What wins and loses a level.

    Win: the school eats `food_to_eat` bites before `time_limit` seconds with at least
    `min_fish` alive. Lose: fewer than `min_fish` alive, or the time runs out.

    Attributes:
        food_to_eat: bites to eat (>= 1).
        min_fish: fish that must stay alive (>= 0).
        time_limit: seconds (0: no limit).
    """

    food_to_eat: int
    min_fish: int
    time_limit: float


@dataclass(frozen=True, slots=True)
class Level:
    """A level, in world coordinates (y up, origin bottom-left, px).

    Attributes:
        name: file name without its suffix ("reef").
        title: shown to the player ("Coral Reef").
        path: the file it was read from.
        order: play order of the packaged levels.
        width: tank width (the map's width in pixels).
        height: tank height.
        background: water colour, RGB.
        boundary: "contain", "bounce" or "wrap".
        current: steady acceleration of the water, px/s².
        obstacles: rocks and plants.
        spawns: where the schools start.
        sharks: shark start positions.
        food: food placed at the start.
        leader: the player's leader fish start.
        goal: what wins and loses.
    """

    name: str
    title: str
    path: Path
    order: int
    width: float
    height: float
    background: tuple[int, int, int]
    boundary: str
    current: tuple[float, float]
    obstacles: tuple[LevelObstacle, ...]
    spawns: tuple[SpawnPoint, ...]
    sharks: tuple[tuple[float, float], ...]
    food: tuple[FoodDrop, ...]
    leader: tuple[float, float]
    goal: Goal


# --- public entry points ------------------------------------------------------------------
def load_level(name_or_path: str | Path) -> Level:
    """Load and validate a level.

    Args:
        name_or_path: a packaged level's name ("reef"), or the path of a Tiled JSON map.

    Raises:
        LevelError: the file is missing or unreadable, or the map is not a valid level.
    """
    path = _resolve(name_or_path)
    where = _Where(str(path))
    raw = _read_json(path, where)
    _check_map_json(raw, where, path.parent)
    return _build_level(_parse_tiled(path, where), path, where)


def level_names() -> list[str]:
    """Names of the packaged levels, in play order (map property ``order``, then name).

    Only the order is read here: a broken level is still listed (last), so that the game can
    offer it and show `load_level`'s error.
    """
    files = [f for f in importlib.resources.files(_PACKAGE).iterdir() if f.name.endswith(_SUFFIX)]
    keyed = sorted((_peek_order(f.read_bytes()), f.name[: -len(_SUFFIX)]) for f in files)
    return [name for _, name in keyed]


# --- where an error is --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Where:
    """The file, layer and object being read: every error message names them."""

    file: str
    layer: str | None = None
    obj: str | None = None

    def at_layer(self, name: str) -> "_Where":
        return replace(self, layer=name, obj=None)

    def at_object(self, ident: object, name: str) -> "_Where":
        return replace(self, obj=f'{ident} "{name}"' if name else str(ident))

    def error(self, text: str) -> LevelError:
        place = []
        if self.layer is not None:
            place.append(f"layer {self.layer}")
        if self.obj is not None:
            place.append(f"object {self.obj}")
        head = f"{self.file}: {', '.join(place)}" if place else self.file
        # One line whatever the file holds: names and values may contain line breaks.
        return LevelError(" ".join(f"{head}: {text}".splitlines()))

    def fail(self, name: str, value: object, why: str) -> NoReturn:
        raise self.error(f"{name} = {_quote(value)} {why}")


def _quote(value: object) -> str:
    return _shorten(repr(value), _MAX_VALUE_CHARS)


def _shorten(text: str, limit: int) -> str:
    """The text, its middle cut out if it is longer than limit (the ends say the most)."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}…{text[-half:]}"


# --- finding and reading the file ---------------------------------------------------------
def _resolve(name_or_path: str | Path) -> Path:
    """The file of a packaged level's name, or the given path."""
    if isinstance(name_or_path, Path):
        return name_or_path
    if not isinstance(name_or_path, str):
        raise LevelError(f"{name_or_path!r}: not a level name or path")
    if not _LEVEL_NAME.fullmatch(name_or_path):
        return Path(name_or_path)
    resource = importlib.resources.files(_PACKAGE) / f"{name_or_path}{_SUFFIX}"
    if not resource.is_file():
        known = ", ".join(level_names())
        raise LevelError(f"{name_or_path}: no such level (packaged levels: {known})")
    if not isinstance(resource, Path):  # e.g. installed inside a zip archive
        raise LevelError(f"{name_or_path}: the packaged levels are not plain files")
    return resource


def _read_json(path: Path, where: _Where, what: str = "") -> dict[str, Any]:
    """The file's JSON object, after checks that keep huge or broken files out.

    `what` starts every message: empty for the level file itself, "template 'x.tj': " for
    a file it names (the message still starts with the level's file).
    """
    text = _read_text(path, where, what)
    if not text.strip():
        raise where.error(f"{what}the file is empty")
    if text.lstrip().startswith("<"):
        raise where.error(f"{what}an XML (TMX) map: save it in Tiled as JSON (.tmj)")
    try:
        raw = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except json.JSONDecodeError as error:
        cut = " (truncated?)" if error.pos >= len(text.rstrip()) else ""
        why = f"{error.msg} at line {error.lineno} column {error.colno}"
        raise where.error(f"{what}not valid JSON{cut}: {why}") from error
    except (ValueError, RecursionError) as error:
        raise where.error(f"{what}not valid JSON: {error}") from error
    if not isinstance(raw, dict):
        raise where.error(f"{what}not a Tiled map: the JSON is not an object")
    return raw


def _read_text(path: Path, where: _Where, what: str) -> str:
    """The text of a regular file of at most MAX_FILE_BYTES, checked before it is read: a
    device (/dev/zero) or a pipe would never end."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            raise where.error(f"{what}cannot read the file: not a regular file")
        if status.st_size > MAX_FILE_BYTES:
            size, limit = status.st_size, MAX_FILE_BYTES
            where.fail(f"{what}size", size, f"bytes is too big for a level (at most {limit})")
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise where.error(f"{what}cannot read the file: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise where.error(f"{what}not UTF-8 text (save it as JSON)") from error


def _no_constant(name: str) -> NoReturn:
    # Python's json accepts NaN and Infinity; Tiled never writes them.
    raise ValueError(f"{name} is not a number")


def _finite_float(text: str) -> float:
    # Python's json reads 1e999 as inf, which would reach pytiled_parser's round() in parts
    # of the map that shoal does not check (tileset properties): OverflowError.
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{_shorten(text, _MAX_VALUE_CHARS)} is too big a number")
    return value


def _peek_order(data: bytes) -> float:
    """A level file's ``order`` property (infinity if it cannot be read)."""
    try:
        for prop in json.loads(data).get("properties", []):
            if prop.get("name") == "order" and type(prop.get("value")) is int:
                return float(prop["value"])
    except (ValueError, TypeError, AttributeError, RecursionError):
        pass  # load_level will say what is wrong with it
    return math.inf


# --- checking the JSON before pytiled_parser reads it -------------------------------------
# pytiled_parser trusts its input: a missing key or a wrong type fails deep inside it with a
# KeyError or TypeError that names no layer or object. These tables hold the keys it reads
# (and we use), so that such a file fails here with a message that does.
_MAP_KEYS = {
    "width": "int",
    "height": "int",
    "tilewidth": "int",
    "tileheight": "int",
    "orientation": "str",
    "renderorder": "str",
    "nextobjectid": "int",
    "version": "version",
    "layers": "list",
    "tilesets": "list",
}
_MAP_OPTIONAL = {"infinite": "bool", "backgroundcolor": "color", "properties": "list"}
_LAYER_KEYS = {"name": "str", "type": "str", "opacity": "number", "visible": "bool"}
_LAYER_OPTIONAL = {"offsetx": "number", "offsety": "number", "properties": "list"}
_OBJECT_KEYS = {
    "id": "int",
    "x": "number",
    "y": "number",
    "width": "number",
    "height": "number",
    "rotation": "number",
    "visible": "bool",
    "name": "str",
}
_OBJECT_OPTIONAL = {
    "type": "str",
    "class": "str",
    "ellipse": "bool",
    "point": "bool",
    "polygon": "list",
    "polyline": "list",
    "properties": "list",
    "gid": "int",
    "template": "str",
}
_KIND_WORDS = {
    "int": "an integer",
    "number": "a finite number",
    "str": "a string",
    "bool": "true or false",
    "list": "a list",
    "dict": "an object",
    "version": "a string or number",
    "color": 'a colour "#rrggbb" or "#aarrggbb"',
    "whole": "a whole number",
}
_PROPERTY_KINDS = {
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


def _finite(value: object) -> TypeGuard[int | float]:
    """A JSON number (not a bool), finite, and an int only if a float can hold it."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    # Compared, not converted: float(10**400) and math.isfinite(10**400) raise OverflowError;
    # NaN and the infinities fail the comparison.
    return -sys.float_info.max <= value <= sys.float_info.max


def _is_kind(value: object, kind: str) -> bool:
    """Whether a JSON value is of a kind named in the tables above."""
    match kind:
        case "int":
            return isinstance(value, int) and not isinstance(value, bool)
        case "number":
            return _finite(value)
        case "whole":
            return _finite(value) and float(value).is_integer()
        case "str":
            return isinstance(value, str)
        case "bool":
            return isinstance(value, bool)
        case "list":
            return isinstance(value, list)
        case "dict":
            return isinstance(value, dict)
        case "version":
            return isinstance(value, str) or _finite(value)
        case "color":
            return isinstance(value, str) and _COLOUR.fullmatch(value) is not None
    raise AssertionError(kind)


def _check_keys(
    raw: Mapping[str, object], keys: Mapping[str, str], where: _Where, *, required: bool
) -> None:
    for key, kind in keys.items():
        if key not in raw:
            if required:
                raise where.error(f"{key} is missing")
            continue
        if not _is_kind(raw[key], kind):
            where.fail(key, raw[key], f"must be {_KIND_WORDS[kind]}")


def _check_map_json(raw: dict[str, Any], where: _Where, folder: Path) -> None:
    """Check the keys pytiled_parser reads, naming the layer and object of a bad one.

    `folder` holds the map: the object templates it names are read from there.
    """
    _check_keys(raw, _MAP_KEYS, where, required=True)
    _check_keys(raw, _MAP_OPTIONAL, where, required=False)
    _check_properties_json(raw.get("properties", []), where)
    _check_tilesets_json(raw["tilesets"], where)
    layers = enumerate(raw["layers"])
    objects = sum(_check_layer_json(layer, where, k, folder, 0) for k, layer in layers)
    if objects > MAX_OBJECTS:
        where.fail("objects", objects, f"are too many (at most {MAX_OBJECTS})")


def _check_tilesets_json(tilesets: list[Any], where: _Where) -> None:
    """Embedded tilesets only: an external one is a second file that pytiled_parser reads
    unchecked (and its tiles may name more files), for tiles that shoal never draws."""
    for k, tileset in enumerate(tilesets):
        if not isinstance(tileset, dict):
            where.fail(f"tilesets[{k}]", tileset, "must be an object")
        if "source" in tileset:
            why = "is an external tileset: embed it (Map > Embed Tilesets) or remove it"
            where.fail(f"tilesets[{k}].source", tileset["source"], f"{why} (shoal draws no tiles)")


def _check_layer_json(raw: object, where: _Where, index: int, folder: Path, depth: int) -> int:
    """Check one layer (and its sublayers); returns the number of objects in it."""
    if not isinstance(raw, dict):
        where.fail(f"layers[{index}]", raw, "must be an object")
    _check_keys(raw, _LAYER_KEYS, where.at_layer(f"#{index}"), required=True)
    here = where.at_layer(raw["name"])
    _check_keys(raw, _LAYER_OPTIONAL, here, required=False)
    _check_properties_json(raw.get("properties", []), here)
    if raw["type"] == "group":
        if depth >= MAX_GROUP_DEPTH:
            raise here.error(f"group layers nest too deep (at most {MAX_GROUP_DEPTH})")
        _check_keys(raw, {"layers": "list"}, here, required=True)
        layers = enumerate(raw["layers"])
        return sum(_check_layer_json(sub, here, k, folder, depth + 1) for k, sub in layers)
    if raw["type"] == "tilelayer":
        _check_tile_layer_json(raw, here)
    if raw["type"] != "objectgroup":
        return 0  # tile and image layers: pytiled_parser reads them, shoal ignores them
    _check_keys(raw, {"objects": "list", "draworder": "str"}, here, required=True)
    for k, obj in enumerate(raw["objects"]):
        if not isinstance(obj, dict):
            here.fail(f"objects[{k}]", obj, "must be an object")
        _check_object_json(obj, here, folder)
    return len(raw["objects"])


def _check_object_json(raw: dict[str, Any], where: _Where, folder: Path) -> None:
    """Check an object as pytiled_parser will see it: with its template's keys, if any."""
    here = _object_where(raw, where)
    _check_keys(raw, _OBJECT_KEYS, here, required=False)
    _check_keys(raw, _OBJECT_OPTIONAL, here, required=False)
    _check_properties_json(raw.get("properties", []), here)
    if raw.get("template"):  # pytiled_parser skips an empty one
        raw = _with_template(raw, _template_json(folder / raw["template"], raw["template"], here))
        here = _object_where(raw, where)  # the name may come from the template
    _check_keys(raw, _OBJECT_KEYS, here, required=True)
    _check_keys(raw, _OBJECT_OPTIONAL, here, required=False)
    if "polygon" in raw:
        _check_polygon_json(raw["polygon"], here)


def _template_json(path: Path, name: str, where: _Where) -> dict[str, Any]:
    """The object of a JSON template file (.tj), checked like an object of the map."""
    what = f"template {_quote(name)}: "
    raw = _read_json(path, where, what)
    if "tileset" in raw:
        raise where.error(f"{what}a tile object's template (shoal has no tile objects)")
    obj = raw.get("object")
    if not isinstance(obj, dict):
        where.fail(f"{what}object", obj, "must be an object")
    _check_keys(obj, _OBJECT_KEYS, where, required=False)
    _check_keys(obj, _OBJECT_OPTIONAL, where, required=False)
    _check_properties_json(obj.get("properties", []), where)
    return obj


def _object_where(raw: dict[str, Any], where: _Where) -> _Where:
    name = raw.get("name")
    return where.at_object(raw.get("id", "?"), name if isinstance(name, str) else "")


def _with_template(raw: dict[str, Any], template: dict[str, Any]) -> dict[str, Any]:
    """The object after pytiled_parser has applied its template: the template's keys win,
    except the id, a name the object has, and properties the object has."""
    merged = dict(raw)
    for key, value in template.items():
        if key == "properties":
            own = {prop["name"] for prop in raw.get("properties", [])}
            extra = [prop for prop in value if prop["name"] not in own]
            merged["properties"] = [*raw.get("properties", []), *extra]
        elif key == "name":
            merged.setdefault("name", value)
        elif key != "id":
            merged[key] = value
    return merged


def _check_tile_layer_json(raw: dict[str, Any], where: _Where) -> None:
    """A tile layer shoal ignores, but pytiled_parser decodes: keep it small and plain.

    Compressed data is refused because it is unpacked whole before any size is known: a
    few kB of zlib can hold gigabytes.
    """
    _check_keys(raw, {"width": "int", "height": "int"}, where, required=True)
    width, height = raw["width"], raw["height"]
    if not (width >= 1 and height >= 1 and width * height <= MAX_TILES):
        where.fail("width, height", (width, height), f"must be 1 to {MAX_TILES} tiles in all")
    if "chunks" in raw:
        where.fail("chunks", raw["chunks"], "are for infinite maps (a tank has a fixed size)")
    if raw.get("compression"):
        where.fail("compression", raw["compression"], "is not read: save tile layers as CSV "
                   "or uncompressed Base64 (shoal draws no tiles)")  # fmt: skip
    data = raw.get("data")
    if "encoding" in raw:
        # Base64: 4 characters for every 3 bytes, 4 bytes a tile.
        if not isinstance(data, str) or len(data) > 4 * (4 * MAX_TILES // 3 + 1):
            where.fail("data", data, f"must be Base64 text of at most {MAX_TILES} tiles")
    elif not isinstance(data, list) or len(data) != width * height:
        where.fail("data", data, f"must be a list of the layer's {width * height} tile ids")


def _check_polygon_json(points: list[Any], where: _Where) -> None:
    if not 3 <= len(points) <= MAX_POLYGON_POINTS:
        where.fail("polygon", points, f"must have 3 to {MAX_POLYGON_POINTS} points")
    for k, point in enumerate(points):
        ok = isinstance(point, dict) and all(_is_kind(point.get(a), "number") for a in "xy")
        if not ok:
            where.fail(f"polygon[{k}]", point, "must be an object with numbers x and y")


def _check_properties_json(props: list[Any], where: _Where) -> None:
    for k, prop in enumerate(props):
        if not isinstance(prop, dict):
            where.fail(f"properties[{k}]", prop, "must be an object with name, type and value")
        name, kind = prop.get("name"), prop.get("type")
        if not isinstance(name, str):
            where.fail(f"properties[{k}].name", name, "must be a string")
        if not isinstance(kind, str) or kind not in _PROPERTY_KINDS:  # a list is unhashable
            where.fail(f"{name}.type", kind, f"must be one of {', '.join(_PROPERTY_KINDS)}")
        if not _is_kind(prop.get("value"), _PROPERTY_KINDS[kind]):
            words = _KIND_WORDS[_PROPERTY_KINDS[kind]]
            where.fail(name, prop.get("value"), f"must be {words} (the property is {kind})")


# --- parsing with pytiled_parser ----------------------------------------------------------
_PARSER_ERRORS = (  # ArithmeticError: it computes with values shoal does not check
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


def _parse_tiled(path: Path, where: _Where) -> pytiled_parser.TiledMap:
    """pytiled_parser's map; whatever it raises becomes a LevelError naming the file."""
    try:
        return pytiled_parser.parse_map(path)
    except _PARSER_ERRORS as error:
        # KeyError's text is just the key: say which kind of error it was.
        detail = f"{type(error).__name__}: {error}"
        raise where.error(f"not a valid Tiled map ({detail})") from error


# --- building the level -------------------------------------------------------------------
@dataclass(slots=True)
class _Placed:
    """The point objects of the spawns layer, gathered."""

    spawns: list[SpawnPoint] = field(default_factory=list)
    sharks: list[tuple[float, float]] = field(default_factory=list)
    food: list[FoodDrop] = field(default_factory=list)
    leaders: list[tuple[float, float]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Frame:
    """What converting an object needs: the tank's size and the obstacles read so far."""

    width: float
    height: float
    obstacles: tuple[tuple[int, LevelObstacle], ...] = ()


def _build_level(tiled_map: pytiled_parser.TiledMap, path: Path, where: _Where) -> Level:
    width, height = _world_size(tiled_map, where)
    props = dict(tiled_map.properties or {})
    _check_names(props, _MAP_PROPERTIES, "map property", where)
    layers = _object_layers(tiled_map.layers, where)
    frame = _Frame(width, height)
    frame = replace(frame, obstacles=tuple(_obstacles(layers.get(OBSTACLES_LAYER, []), frame)))
    placed = _place_points(layers[SPAWNS_LAYER], frame, where.at_layer(SPAWNS_LAYER))
    boundary = _boundary(props, where)
    _check_crowding(placed, frame, boundary, where.at_layer(SPAWNS_LAYER))
    return Level(
        name=path.stem,
        title=_prop_str(props, "title", path.stem, where),
        path=path,
        order=_prop_int(props, "order", 0, where),
        width=width,
        height=height,
        background=_background(tiled_map),
        boundary=boundary,
        current=(
            _prop_float(props, "current_x", 0.0, where, low=-MAX_CURRENT, high=MAX_CURRENT),
            _prop_float(props, "current_y", 0.0, where, low=-MAX_CURRENT, high=MAX_CURRENT),
        ),
        obstacles=tuple(obstacle for _, obstacle in frame.obstacles),
        spawns=tuple(placed.spawns),
        sharks=tuple(placed.sharks),
        food=tuple(placed.food),
        leader=_leader(placed, frame, where.at_layer(SPAWNS_LAYER)),
        goal=_goal(props, sum(s.count for s in placed.spawns), where),
    )


def _world_size(tiled_map: pytiled_parser.TiledMap, where: _Where) -> tuple[float, float]:
    """Tank width and height, px."""
    if tiled_map.orientation != "orthogonal":
        where.fail("orientation", tiled_map.orientation, "must be orthogonal")
    if tiled_map.infinite:
        where.fail("infinite", True, "must be false (a tank has a fixed size)")
    tiles, tile = tiled_map.map_size, tiled_map.tile_size
    for name, value in (("width", tiles.width), ("height", tiles.height)):
        if value < 1:
            where.fail(name, value, "must be at least 1 tile")
    for name, value in (("tilewidth", tile.width), ("tileheight", tile.height)):
        if value < 1:
            where.fail(name, value, "must be at least 1 px")
    size = (tiles.width * tile.width, tiles.height * tile.height)
    if max(size) > MAX_WORLD_SIZE:  # before float(), which a 400-digit int overflows
        where.fail("size", size, f"px is too big (at most {MAX_WORLD_SIZE} px a side)")
    return float(size[0]), float(size[1])


def _background(tiled_map: pytiled_parser.TiledMap) -> tuple[int, int, int]:
    colour = tiled_map.background_color
    return DEFAULT_BACKGROUND if colour is None else (colour.red, colour.green, colour.blue)


def _boundary(props: Mapping[str, object], where: _Where) -> str:
    boundary = _prop_str(props, "boundary", "contain", where)
    if boundary not in BOUNDARY_MODES:
        where.fail("boundary", boundary, f"must be one of {', '.join(BOUNDARY_MODES)}")
    return boundary


def _goal(props: Mapping[str, object], fish: int, where: _Where) -> Goal:
    min_fish = _prop_int(props, "min_fish", 1, where, low=0)
    if min_fish > fish:
        where.fail("min_fish", min_fish, f"must be at most the {fish} fish the spawns make")
    return Goal(
        food_to_eat=_prop_int(props, "food_to_eat", 10, where, low=1),
        min_fish=min_fish,
        time_limit=_prop_float(props, "time_limit", 0.0, where, low=0.0),
    )


# --- layers -------------------------------------------------------------------------------
_Located = tuple[_Where, tiled.TiledObject, tuple[float, float]]
"""An object with where it is (for messages) and its layer's pixel offset."""


def _object_layers(layers: Iterable[TiledLayer], where: _Where) -> dict[str, list[_Located]]:
    """The objects of each object layer by layer name (groups flattened, offsets applied)."""
    found: dict[str, list[_Located]] = {}
    for layer, offset in _flatten(layers, (0.0, 0.0)):
        here = where.at_layer(layer.name)
        if layer.name not in (OBSTACLES_LAYER, SPAWNS_LAYER):
            raise here.error(
                f"unknown object layer (object layers are {OBSTACLES_LAYER!r} and {SPAWNS_LAYER!r})"
            )
        objects = found.setdefault(layer.name, [])
        objects.extend((here.at_object(o.id, o.name), o, offset) for o in layer.tiled_objects)
    if not found.get(SPAWNS_LAYER):
        raise where.at_layer(SPAWNS_LAYER).error(
            "missing or empty (an object layer named 'spawns' must hold at least one spawn point)"
        )
    return found


def _flatten(
    layers: Iterable[TiledLayer], offset: tuple[float, float]
) -> Iterator[tuple[ObjectLayer, tuple[float, float]]]:
    """Object layers in order, with their offsets (a group's offset adds to its layers')."""
    for layer in layers:
        shift = (offset[0] + layer.offset.x, offset[1] + layer.offset.y)
        if isinstance(layer, LayerGroup):
            yield from _flatten(layer.layers or [], shift)
        elif isinstance(layer, ObjectLayer):
            yield layer, shift


# --- obstacles ----------------------------------------------------------------------------
def _obstacles(objects: Sequence[_Located], frame: _Frame) -> Iterator[tuple[int, LevelObstacle]]:
    vertices = 0
    for here, obj, offset in objects:
        _check_names(obj.properties, (), "property", here)
        kind = _class_of(obj) or OBSTACLE_KINDS[0]
        if kind not in OBSTACLE_KINDS:
            here.fail("class", kind, f"must be one of {', '.join(OBSTACLE_KINDS)}")
        # Counted before the shape is made: checking a polygon costs its vertices².
        vertices += _vertex_count(obj)
        if vertices > MAX_OBSTACLE_VERTICES:
            here.fail("vertices", vertices, "of the obstacles up to this one are too many "
                      f"(at most {MAX_OBSTACLE_VERTICES} in all)")  # fmt: skip
        try:
            shape = _shape(obj, offset, frame, here)
        except LevelError:
            raise
        except ValueError as error:  # the shape's own validation, e.g. a self-crossing polygon
            raise here.error(_shorten(str(error), _MAX_SHAPE_MESSAGE)) from error
        _check_near_tank(shape, obj, frame, here)
        yield obj.id, LevelObstacle(shape, kind)


def _vertex_count(obj: tiled.TiledObject) -> int:
    """Vertices of the shape an obstacle object makes (a rectangle or circle counts 4)."""
    if isinstance(obj, tiled.Polygon):
        return len(obj.points)
    if isinstance(obj, tiled.Ellipse) and obj.size.width != obj.size.height:
        return ELLIPSE_VERTICES
    return 4


def _shape(
    obj: tiled.TiledObject, offset: tuple[float, float], frame: _Frame, here: _Where
) -> Shape:
    """The obstacle shape of a rectangle, ellipse or polygon object, world coordinates."""
    x, y = obj.coordinates.x + offset[0], obj.coordinates.y + offset[1]
    if isinstance(obj, tiled.Polygon):
        return Polygon(_to_world(frame, x, y, p.x, p.y, obj.rotation) for p in obj.points)
    if not isinstance(obj, tiled.Rectangle | tiled.Ellipse):
        here.fail("shape", _shape_name(obj), "must be a rectangle, ellipse or polygon")
    w, h = obj.size.width, obj.size.height
    for name, value in (("width", w), ("height", h)):
        if not value >= MIN_OBSTACLE_SIZE:
            here.fail(name, value, f"must be at least {MIN_OBSTACLE_SIZE:g} px")
    # Tiled rotates a rectangle or ellipse about its top-left corner, clockwise (y down).
    cx, cy = _to_world(frame, x, y, w / 2, h / 2, obj.rotation)
    if isinstance(obj, tiled.Rectangle):
        return Rect(cx, cy, w, h, _counter_clockwise(obj.rotation))
    if w == h:
        return Circle(cx, cy, w / 2)
    return Polygon(
        _to_world(frame, x, y, w / 2 * (1 + math.cos(t)), h / 2 * (1 + math.sin(t)), obj.rotation)
        for t in (2 * math.pi * k / ELLIPSE_VERTICES for k in range(ELLIPSE_VERTICES))
    )


def _to_world(frame: _Frame, x: float, y: float, u: float, v: float, rotation: float) -> Point:
    """Point (u, v) of an object at Tiled (x, y) turned `rotation` degrees clockwise, in world
    coordinates: Tiled's y points down from the top, the world's up from the bottom."""
    angle = math.radians(rotation)
    c, s = math.cos(angle), math.sin(angle)
    return x + u * c - v * s, frame.height - (y + u * s + v * c)


def _counter_clockwise(rotation: float) -> float:
    """Tiled's clockwise degrees (y down) as counter-clockwise degrees (y up), in [-180, 180)."""
    return (180.0 - rotation) % 360.0 - 180.0


def _shape_name(obj: tiled.TiledObject) -> str:
    return type(obj).__name__.lower()


def _check_near_tank(shape: Shape, obj: tiled.TiledObject, frame: _Frame, here: _Where) -> None:
    """An obstacle may poke out of the tank, but not lie wholly outside it, nor reach more
    than the tank's own size beyond a wall (the flock's obstacle grid spans that much)."""
    x0, y0, x1, y1 = _bounds(shape)
    w, h = frame.width, frame.height
    tiled_xy = (obj.coordinates.x, obj.coordinates.y)
    size = f"{w:g}×{h:g}"
    if x1 < 0 or y1 < 0 or x0 > w or y0 > h:
        here.fail("x, y", tiled_xy, f"put the obstacle wholly outside the {size} map")
    if not (-w <= x0 and x1 <= 2 * w and -h <= y0 and y1 <= 2 * h):
        extent = _quote((x0, y0, x1, y1))
        why = f"put the obstacle (x0, y0, x1, y1 = {extent}) more than a map size outside"
        here.fail("x, y", tiled_xy, f"{why} the {size} map")


def _bounds(shape: Shape) -> tuple[float, float, float, float]:
    if isinstance(shape, Circle):
        r = shape.radius
        return shape.x - r, shape.y - r, shape.x + r, shape.y + r
    ring = shape.corners() if isinstance(shape, Rect) else shape.points
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    return min(xs), min(ys), max(xs), max(ys)


_Mask = np.ndarray[Any, np.dtype[np.bool_]]


def _inside(shape: Shape, x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> _Mask:
    """Which points (x, y) are inside the shape (for level checks; edges may go either way).

    Vectorised over the points: a level may hold thousands of points and obstacles.
    """
    # Shapes far out of the tank overflow to inf, which still compares the right way.
    with np.errstate(all="ignore"):
        if isinstance(shape, Circle):
            return np.asarray(np.hypot(x - shape.x, y - shape.y) <= shape.radius)
        ring = shape.corners() if isinstance(shape, Rect) else shape.points
        inside = np.zeros(x.shape, bool)
        for (ax, ay), (bx, by) in zip(ring, (*ring[1:], ring[0]), strict=True):
            # Even-odd rule: count the edges a ray to +x crosses (a level edge never does).
            if ay != by:
                inside ^= ((ay > y) != (by > y)) & (x < ax + (y - ay) * (bx - ax) / (by - ay))
    return inside


# --- points: spawns, sharks, food, the leader ---------------------------------------------
def _place_points(objects: Sequence[_Located], frame: _Frame, where: _Where) -> _Placed:
    placed = _Placed()
    points: list[tuple[_Where, Point, Point]] = []
    for here, obj, offset in objects:
        kind = _class_of(obj)
        if kind not in POINT_CLASSES:
            here.fail("class", kind, f"must be one of {', '.join(POINT_CLASSES)}")
        _check_names(obj.properties, _POINT_PROPERTIES[kind], "property", here)
        tiled_xy, (x, y) = _point(obj, offset, frame, here)
        points.append((here, tiled_xy, (x, y)))
        props = obj.properties
        if kind == "spawn":
            count = _prop_int(props, "count", None, here, low=1, high=MAX_SPAWN_COUNT)
            species = _prop_str(props, "species", "fish", here)
            radius = _prop_float(props, "radius", 60.0, here, low=1.0, high=MAX_RADIUS)
            placed.spawns.append(SpawnPoint(x, y, species, count, radius))
        elif kind == "food":
            bites = _prop_int(props, "bites", 3, here, low=1, high=1000)
            radius = _prop_float(props, "radius", 6.0, here, low=1.0, high=MAX_RADIUS)
            placed.food.append(FoodDrop(x, y, bites, radius))
        else:
            (placed.sharks if kind == "shark" else placed.leaders).append((x, y))
    _check_clear(points, frame)
    _check_totals(placed, where)
    return placed


def _point(
    obj: tiled.TiledObject, offset: tuple[float, float], frame: _Frame, here: _Where
) -> tuple[Point, Point]:
    """Tiled and world position of a point object inside the tank."""
    if not isinstance(obj, tiled.Point):
        here.fail("shape", _shape_name(obj), "must be a point (insert it with Tiled's point tool)")
    tx, ty = obj.coordinates.x + offset[0], obj.coordinates.y + offset[1]
    x, y = _to_world(frame, tx, ty, 0.0, 0.0, 0.0)
    if not (0 <= x <= frame.width and 0 <= y <= frame.height):
        here.fail("x, y", (tx, ty), f"is outside the {frame.width:g}×{frame.height:g} map")
    return (tx, ty), (x, y)


def _check_clear(points: Sequence[tuple[_Where, Point, Point]], frame: _Frame) -> None:
    """No point inside an obstacle: names the first such point (Tiled position) in order."""
    blockers = _blockers([world for _, _, world in points], frame)
    for (here, tiled_xy, _), blocker in zip(points, blockers, strict=True):
        if blocker is not None:
            here.fail("x, y", tiled_xy, f"is inside obstacle {blocker}")


def _blockers(points: Sequence[Point], frame: _Frame) -> list[str | None]:
    """For each point, the first obstacle object (id and kind) that covers it, if any."""
    xy = np.asarray(points, float).reshape(-1, 2)
    found: list[str | None] = [None] * len(xy)
    free = np.ones(len(xy), bool)
    for ident, obstacle in frame.obstacles:
        hit = free & _inside(obstacle.shape, xy[:, 0], xy[:, 1])
        for k in np.flatnonzero(hit):
            found[k] = f"{ident} ({obstacle.kind})"
        free &= ~hit
    return found


def _check_totals(placed: _Placed, where: _Where) -> None:
    if not placed.spawns:
        raise where.error("has no spawn point (a point object of class 'spawn')")
    total = sum(s.count for s in placed.spawns)
    if total > MAX_TOTAL_FISH:
        where.fail("total count", total, f"must be at most {MAX_TOTAL_FISH}")
    if len(placed.leaders) > 1:
        where.fail("leaders", len(placed.leaders), "must be at most 1")


def _check_crowding(placed: _Placed, frame: _Frame, boundary: str, where: _Where) -> None:
    """The fish and sharks do not start more than `MAX_CROWD` to a `CROWD_CELL` square."""
    xy = _start_positions(placed, frame, boundary)
    cells = np.ceil(np.array([frame.width, frame.height]) / CROWD_CELL).astype(np.int64)
    ij = np.minimum((xy // CROWD_CELL).astype(np.int64), cells - 1)
    counts = np.bincount(ij[:, 0] * cells[1] + ij[:, 1], minlength=int(cells.prod()))
    worst = int(np.argmax(counts))
    if counts[worst] > MAX_CROWD:
        # The square's middle in Tiled's coordinates (y down), to find it in the editor.
        x, y = (worst // cells[1] + 0.5) * CROWD_CELL, (worst % cells[1] + 0.5) * CROWD_CELL
        near = _quote((round(x), round(frame.height - y)))
        raise where.error(
            f"{counts[worst]} fish and sharks would start in one {CROWD_CELL:g} px square near "
            f"x, y = {near} (at most {MAX_CROWD}: give the spawn points more radius or fewer fish)"
        )


def _start_positions(placed: _Placed, frame: _Frame, boundary: str) -> np.ndarray[Any, Any]:
    """Sharks, and fish scattered in their spawn discs as the game does, on a fixed sample
    (every load of a file gives the same verdict). Boids outside the tank are put on its
    edge (or wrapped), as the boundary does: a disc that reaches past a corner piles fish
    there."""
    rng = np.random.default_rng(0)
    chunks = [np.asarray(placed.sharks, float).reshape(-1, 2)]
    for spawn in placed.spawns:
        angle = rng.uniform(0.0, 2 * math.pi, spawn.count)
        dist = spawn.radius * np.sqrt(rng.uniform(0.0, 1.0, spawn.count))
        offsets = np.column_stack((dist * np.cos(angle), dist * np.sin(angle)))
        chunks.append(offsets + np.array([spawn.x, spawn.y]))
    size = np.array([frame.width, frame.height])
    xy = np.concatenate(chunks)
    return np.asarray(np.mod(xy, size) if boundary == "wrap" else np.clip(xy, 0.0, size))


def _leader(placed: _Placed, frame: _Frame, where: _Where) -> tuple[float, float]:
    """The leader point, or the tank centre if it is clear."""
    if placed.leaders:
        return placed.leaders[0]
    x, y = frame.width / 2, frame.height / 2
    blocker = _blockers([(x, y)], frame)[0]
    if blocker is not None:
        raise where.error(f"no leader point, and the tank centre is inside obstacle {blocker}")
    return x, y


# --- properties ---------------------------------------------------------------------------
def _class_of(obj: tiled.TiledObject) -> str:
    """Tiled 1.9 calls it class, earlier and later versions type; pytiled_parser reads both."""
    return (obj.class_ or "").strip().lower()


def _check_names(
    props: Mapping[str, object], allowed: Sequence[str], what: str, where: _Where
) -> None:
    for name in props:
        if name not in allowed:
            expected = ", ".join(allowed) if allowed else "none"
            raise where.error(f"unknown {what} {name!r} (expected: {expected})")


def _prop_str(props: Mapping[str, object], name: str, default: str, where: _Where) -> str:
    value = props.get(name, default)
    if not isinstance(value, str) or not value.strip():
        where.fail(name, value, "must be a non-empty string")
    return value.strip()


def _prop_int(
    props: Mapping[str, object],
    name: str,
    default: int | None,
    where: _Where,
    *,
    low: int | None = None,
    high: int | None = None,
) -> int:
    """An integer property in [low, high]; a missing one without a default is an error."""
    if name not in props and default is None:
        raise where.error(f"{name} is missing (an int property)")
    value = props.get(name, default)
    # A float property holding a whole number is fine; True is not 1.
    if not _finite(value) or not float(value).is_integer():
        where.fail(name, value, "must be an integer")
    number = int(value)
    _check_range(name, number, low, high, where)
    return number


def _prop_float(
    props: Mapping[str, object],
    name: str,
    default: float,
    where: _Where,
    *,
    low: float | None = None,
    high: float | None = None,
) -> float:
    value = props.get(name, default)
    if not _finite(value):
        where.fail(name, value, "must be a finite number")
    _check_range(name, value, low, high, where)
    return float(value)


def _check_range(
    name: str, value: float, low: float | None, high: float | None, where: _Where
) -> None:
    if low is not None and value < low:
        where.fail(name, value, f"must be at least {low:g}")
    if high is not None and value > high:
        where.fail(name, value, f"must be at most {high:g}")
