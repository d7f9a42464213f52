"""Checking a map's JSON tree, and taking from it only what shoal uses.

The map is walked once. Every layer, object and property that shoal reads is checked, object
templates filled in, and the counts kept within the limits as the walk goes (so a huge map
fails at its first object too many, not after all of it was read). What passes is copied
into a clean tree for pytiled_parser: object and group layers only, each object with only
the keys shoal uses. Tile and image layers and tilesets are never decoded (shoal draws no
tiles), and no file but an object template is ever opened.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shoal.game.level.limits import (
    MAX_GROUP_DEPTH,
    MAX_LAYERS,
    MAX_OBJECTS,
    MAX_OBSTACLE_VERTICES,
    MAX_POLYGON_POINTS,
    MAX_WORLD_SIZE,
)
from shoal.game.level.messages import Where
from shoal.game.level.schema import (
    LAYER_KEYS,
    LAYER_OPTIONAL,
    MAP_KEYS,
    MAP_OPTIONAL,
    OBJECT_KEYS,
    OBJECT_OPTIONAL,
    check_keys,
    check_properties,
    finite,
)
from shoal.game.level.templates import Templates

_IGNORED_LAYERS = ("tilelayer", "imagelayer")
_UNUSED_SHAPES = ("tile", "polyline", "text")
_KEPT_KEYS = ("type", "class", "properties")  # optional keys of an object shoal reads


@dataclass(frozen=True, slots=True)
class CheckedMap:
    """What shoal uses of a map, checked.

    Attributes:
        width: the tank's width, px.
        height: the tank's height, px.
        background: the map's background colour ("#rrggbb" or "#aarrggbb"), if any.
        properties: the map's properties, as Tiled writes them.
        layers: its object and group layers, as Tiled writes them, templates filled in.
    """

    width: float
    height: float
    background: str | None
    properties: list[dict[str, Any]]
    layers: list[dict[str, Any]]


def check_map(raw: dict[str, Any], where: Where, folder: Path) -> CheckedMap:
    """Check the map and take what shoal uses; `folder` holds the templates it names."""
    check_keys(raw, MAP_KEYS, where, required=True)
    check_keys(raw, MAP_OPTIONAL, where, required=False)
    width, height = _world_size(raw, where)
    properties = raw.get("properties", [])
    check_properties(properties, where)
    layers = _Walk(Templates(folder)).layers(raw["layers"], where, 0)
    return CheckedMap(width, height, raw.get("backgroundcolor"), properties, layers)


def _world_size(raw: dict[str, Any], where: Where) -> tuple[float, float]:
    """Tank width and height, px."""
    if raw["orientation"] != "orthogonal":
        where.fail("orientation", raw["orientation"], "must be orthogonal")
    if raw.get("infinite", False):
        where.fail("infinite", True, "must be false (a tank has a fixed size)")
    for name, unit in (("width", "tile"), ("height", "tile"), ("tilewidth", "px"),
                       ("tileheight", "px")):  # fmt: skip
        if raw[name] < 1:
            where.fail(name, raw[name], f"must be at least 1 {unit}")
    size = (raw["width"] * raw["tilewidth"], raw["height"] * raw["tileheight"])
    if max(size) > MAX_WORLD_SIZE:  # before float(), which a 400-digit int overflows
        where.fail("size", size, f"px is too big (at most {MAX_WORLD_SIZE} px a side)")
    return float(size[0]), float(size[1])


class _Walk:
    """One walk through a map's layers: the templates read so far and the counts so far."""

    def __init__(self, templates: Templates) -> None:
        self.templates = templates
        self.layer_count = 0
        self.object_count = 0
        self.point_count = 0

    def layers(self, raws: list[Any], where: Where, depth: int) -> list[dict[str, Any]]:
        """The clean object and group layers of a list of layers."""
        found = (self.layer(raw, where, k, depth) for k, raw in enumerate(raws))
        return [layer for layer in found if layer is not None]

    def layer(self, raw: object, where: Where, index: int, depth: int) -> dict[str, Any] | None:
        """A clean object or group layer; None for a tile or image layer."""
        if not isinstance(raw, dict):
            where.fail(f"layers[{index}]", raw, "must be an object")
        self.layer_count += 1
        if self.layer_count > MAX_LAYERS:
            where.fail("layers", self.layer_count, f"are too many (at most {MAX_LAYERS} in all)")
        check_keys(raw, LAYER_KEYS, where.at_layer(f"#{index}"), required=True)
        here = where.at_layer(raw["name"])
        check_keys(raw, LAYER_OPTIONAL, here, required=False)
        kind = raw["type"]
        if kind in _IGNORED_LAYERS:
            return None
        # pytiled_parser reads these; shoal uses none but the offset.
        common = {"name": raw["name"], "type": kind, "opacity": 1.0, "visible": True}
        common |= {"offsetx": raw.get("offsetx", 0.0), "offsety": raw.get("offsety", 0.0)}
        if kind == "group":
            return {**common, "layers": self.group(raw, here, depth)}
        if kind == "objectgroup":
            return {**common, "draworder": "topdown", "objects": self.objects(raw, here)}
        here.fail("type", kind, "must be objectgroup, group, tilelayer or imagelayer", word=True)

    def group(self, raw: dict[str, Any], where: Where, depth: int) -> list[dict[str, Any]]:
        if depth >= MAX_GROUP_DEPTH:
            raise where.error(f"group layers nest too deep (at most {MAX_GROUP_DEPTH})")
        check_keys(raw, {"layers": "list"}, where, required=True)
        return self.layers(raw["layers"], where, depth + 1)

    def objects(self, raw: dict[str, Any], where: Where) -> list[dict[str, Any]]:
        check_keys(raw, {"objects": "list"}, where, required=True)
        self.object_count += len(raw["objects"])
        if self.object_count > MAX_OBJECTS:
            where.fail("objects", self.object_count, f"are too many (at most {MAX_OBJECTS})")
        return [self.object(obj, where, k) for k, obj in enumerate(raw["objects"])]

    def object(self, raw: object, where: Where, index: int) -> dict[str, Any]:
        """A clean object: its template filled in, only the keys shoal uses."""
        if not isinstance(raw, dict):
            where.fail(f"objects[{index}]", raw, "must be an object")
        here = _object_where(raw, where)
        check_keys(raw, OBJECT_KEYS, here, required=False)
        check_keys(raw, OBJECT_OPTIONAL, here, required=False)
        check_properties(raw.get("properties", []), here)
        if raw.get("template"):  # Tiled leaves an empty one out; pytiled_parser skips it
            raw = with_template(raw, self.templates.object(raw["template"], here))
            here = _object_where(raw, where)  # the name may come from the template
        check_keys(raw, OBJECT_KEYS, here, required=True)
        clean = {key: raw[key] for key in OBJECT_KEYS}
        clean |= {key: raw[key] for key in _KEPT_KEYS if key in raw}
        shape = shape_of(raw)
        if shape in _UNUSED_SHAPES:
            why = "is not used (obstacles are rectangles, ellipses or polygons; spawns points)"
            here.fail("shape", shape, why)
        if shape == "polygon":
            clean["polygon"] = self.polygon(raw["polygon"], here)
        elif shape != "rectangle":
            clean[shape] = True
        return clean

    def polygon(self, points: list[Any], where: Where) -> list[dict[str, Any]]:
        """The polygon's points, checked and counted (templates count each time used)."""
        if not 3 <= len(points) <= MAX_POLYGON_POINTS:
            where.fail("polygon", points, f"must have 3 to {MAX_POLYGON_POINTS} points")
        self.point_count += len(points)
        if self.point_count > MAX_OBSTACLE_VERTICES:
            why = f"in the map's polygons are too many (at most {MAX_OBSTACLE_VERTICES} in all)"
            where.fail("points", self.point_count, why)
        for k, point in enumerate(points):
            if not (isinstance(point, dict) and finite(point.get("x")) and finite(point.get("y"))):
                where.fail(f"polygon[{k}]", point, "must be an object with numbers x and y")
        return [{"x": point["x"], "y": point["y"]} for point in points]


def shape_of(raw: dict[str, Any]) -> str:
    """The kind of a Tiled object, decided in pytiled_parser's order."""
    for key, shape in (("ellipse", "ellipse"), ("point", "point"), ("gid", "tile")):
        if raw.get(key):
            return shape
    if "polygon" in raw:  # pytiled_parser takes an empty polygon for a rectangle
        return "polygon"
    for key in ("polyline", "text"):
        if raw.get(key):
            return key
    return "rectangle"


def _object_where(raw: dict[str, Any], where: Where) -> Where:
    name = raw.get("name")
    return where.at_object(raw.get("id", "?"), name if isinstance(name, str) else "")


def with_template(raw: dict[str, Any], template: dict[str, Any]) -> dict[str, Any]:
    """The object with its template filled in, as Tiled means it: what the object sets
    itself wins (its id always), the template gives the rest; properties are merged the
    same way. (pytiled_parser lets the template win, so a resized copy took its size.)"""
    merged = {key: value for key, value in template.items() if key != "id"}
    merged.update(raw)
    own = raw.get("properties", [])
    names = {prop["name"] for prop in own}
    extra = [prop for prop in template.get("properties", []) if prop["name"] not in names]
    merged["properties"] = [*own, *extra]
    return merged
