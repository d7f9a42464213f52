"""Broken level files: each is refused with one line naming the file, layer, object and
field; parts of a map that shoal does not use are never read. (Files that are not there,
not regular or too big: test_level_files.py.)

No window and no OpenGL: a level loads and validates on its own.
"""

import base64
import json
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shoal.game.level import (
    MAX_FOOD,
    MAX_OBJECTS,
    MAX_SPAWN_COUNT,
    MAX_TOTAL_FISH,
    LevelError,
    load_level,
)

from level_maps import circle_polygon, point, tiled_map, tiled_object, write

# --- broken files -------------------------------------------------------------------------
Breaker = Callable[[dict[str, Any]], object]


def _set(path: str, value: object) -> Breaker:
    """Set doc[a][b]... (keys separated by '/', integers index lists)."""

    def breaker(doc: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = doc
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value

    return breaker


def _spawns(*objects: dict[str, Any]) -> Breaker:
    return _set("layers/1/objects", list(objects))


def _obstacles(*objects: dict[str, Any]) -> Breaker:
    return _set("layers/0/objects", list(objects))


def _both(first: Breaker, second: Breaker) -> Breaker:
    def breaker(doc: dict[str, Any]) -> None:
        first(doc)
        second(doc)

    return breaker


def _prop(name: str, kind: str, value: object) -> Breaker:
    return _set("properties", [{"name": name, "type": kind, "value": value}])


def _add_layer(layer: dict[str, Any]) -> Breaker:
    return lambda doc: doc["layers"].append(layer)


def _nest_in_groups(depth: int) -> Breaker:
    def breaker(doc: dict[str, Any]) -> None:
        for _ in range(depth):
            group = {"id": 9, "name": "g", "type": "group", "opacity": 1, "visible": True}
            doc["layers"] = [{**group, "layers": doc["layers"]}]

    return breaker


def _tiles(**fields: Any) -> dict[str, Any]:
    layer = {"id": 5, "name": "floor", "type": "tilelayer", "opacity": 1, "visible": True}
    return {**layer, "x": 0, "y": 0, "width": 2, "height": 2, "data": [0, 1, 1, 0], **fields}


SPAWN = point(7, "spawn", 40, 40, count=("int", 10))
BOW_TIE = [{"x": 0, "y": 0}, {"x": 60, "y": 40}, {"x": 60, "y": 0}, {"x": 0, "y": 20}]
ZLIB_TILES = base64.b64encode(zlib.compress(bytes(16))).decode()

BROKEN: dict[str, tuple[Breaker, list[str]]] = {
    "empty file": (lambda doc: "", ["the file is empty"]),
    "blank file": (lambda doc: " \n\t\n", ["the file is empty"]),
    "not JSON": (lambda doc: "{this is not json", ["not valid JSON", "line 1"]),
    "truncated JSON": (lambda doc: json.dumps(doc)[:300], ["not valid JSON (truncated?)"]),
    "NaN in JSON": (lambda doc: json.dumps(doc).replace('"x": 40', '"x": NaN', 1), ["NaN"]),
    "JSON list": (lambda doc: "[1, 2]", ["not a Tiled map"]),
    "TMX": (lambda doc: '<?xml version="1.0"?><map/>', ["an XML (TMX) map"]),
    "count many": (
        _spawns(point(7, "spawn", 40, 40, count=("string", "many"))),
        ["layer spawns, object 7 \"o7\": count = 'many' must be an integer"],
    ),
    "int property many": (
        _spawns(point(7, "spawn", 40, 40, count=("int", "many"))),
        ["layer spawns, object 7", "count = 'many' must be a whole number"],
    ),
    "count missing": (
        _spawns(point(7, "spawn", 40, 40)),
        ["layer spawns, object 7", "count is missing"],
    ),
    "negative count": (
        _spawns(point(7, "spawn", 40, 40, count=("int", -5))),
        ["object 7", "count = -5 must be at least 1"],
    ),
    "fractional count": (
        _spawns(point(7, "spawn", 40, 40, count=("float", 2.5))),
        ["count = 2.5 must be an integer"],
    ),
    "huge count": (
        _spawns(point(7, "spawn", 40, 40, count=("int", 10**9))),
        [f"count = 1000000000 must be at most {MAX_SPAWN_COUNT}"],
    ),
    "too many fish": (
        _spawns(*(point(k, "spawn", 160, 128, count=("int", 200)) for k in range(1, 4))),
        [f"layer spawns: fish and sharks = 600 are too many (at most {MAX_TOTAL_FISH} in all)"],
    ),
    "too many fish and sharks": (
        _spawns(
            point(1, "spawn", 160, 128, count=("int", MAX_TOTAL_FISH)),
            point(2, "shark", 100, 100),
        ),
        [f"fish and sharks = {MAX_TOTAL_FISH + 1} are too many"],
    ),
    "too much food": (
        _spawns(SPAWN, *(point(10 + k, "food", 100 + k, 100) for k in range(MAX_FOOD + 1))),
        [f"object {10 + MAX_FOOD}", f"food points = {MAX_FOOD + 1} are too many"],
    ),
    "too many objects": (
        _spawns(SPAWN, *(point(10 + k, "shark", 10, 10) for k in range(MAX_OBJECTS))),
        [f"layer spawns: objects = {MAX_OBJECTS + 1} are too many (at most {MAX_OBJECTS})"],
    ),
    "too many layers": (
        lambda doc: doc["layers"].extend([_tiles()] * 300),
        ["layers = 257 are too many (at most 256 in all)"],
    ),
    "duplicate key": (
        lambda doc: json.dumps(doc)[:-1] + ', "width": 99}',
        ["not valid JSON: the key 'width' appears twice in one object"],
    ),
    "a property given twice": (
        _spawns(
            point(7, "spawn", 40, 40, count=("int", 3), radius=("float", 9))
            | {"properties": [{"name": "count", "type": "int", "value": k} for k in (3, 9)]}
        ),
        ["object 7", "property 'count' is given twice"],
    ),
    "a 2000-digit number": (
        lambda doc: json.dumps(doc).replace('"x": 40', '"x": ' + "9" * 2000, 1),
        ["not valid JSON: a number of 2000 digits is too long"],
    ),
    "title with an escape sequence": (
        _prop("title", "string", "\x1b[2J\x1b]0;owned\x07"),
        ["title = '\\x1b[2J\\x1b]0;owned\\x07' must be printable"],
    ),
    "title with a line break": (_prop("title", "string", "a\nb"), ["title = 'a\\nb' must be"]),
    "title with a bidi override": (_prop("title", "string", "\u202eevil"), ["\\u202e"]),
    "long title": (_prop("title", "string", "T" * 61), ["is 61 characters long (at most 60)"]),
    "long species": (
        _spawns(point(7, "spawn", 40, 40, count=("int", 3), species=("string", "s" * 1000))),
        ["object 7", "species = 'ssss", "is 1000 characters long (at most 60)"],
    ),
    "huge food goal": (_prop("food_to_eat", "int", 10**9), ["food_to_eat = 1000000000 must be"]),
    "huge time limit": (_prop("time_limit", "float", 1e300), ["time_limit = 1e+300 must be at"]),
    "huge order": (_prop("order", "int", 2**53), ["order = 9007199254740992 must be at most"]),
    "text object": (
        _obstacles(tiled_object(3, "rock", 10, 10, width=9, height=9, text={"text": "hi"})),
        ["object 3", "shape = 'text' is not used"],
    ),
    "polyline": (
        _obstacles(tiled_object(3, "rock", 10, 10, polyline=[{"x": 0, "y": 0}])),
        ["object 3", "shape = 'polyline' is not used"],
    ),
    "tile object": (
        _obstacles(tiled_object(3, "rock", 10, 10, width=9, height=9, gid=1)),
        ["object 3", "shape = 'tile' is not used"],
    ),
    "unknown layer type": (_set("layers/0/type", "hexgroup"), ["type = 'hexgroup' must be"]),
    "zero-size map": (_set("width", 0), ["width = 0 must be at least 1 tile"]),
    "map width missing": (lambda doc: doc.pop("width"), ["width is missing"]),
    "map width text": (_set("height", "8"), ["height = '8' must be an integer"]),
    "isometric": (_set("orientation", "isometric"), ["orientation = 'isometric'"]),
    "infinite": (_set("infinite", True), ["infinite = True"]),
    "self-intersecting polygon": (
        _obstacles(tiled_object(3, "rock", 100, 100, polygon=BOW_TIE)),
        ['layer obstacles, object 3 "o3"', "self-intersect"],
    ),
    "two-point polygon": (
        _obstacles(tiled_object(3, "rock", 100, 100, polygon=BOW_TIE[:2])),
        ["object 3", "polygon = ", "must have 3 to"],
    ),
    "zero-width rectangle": (
        _obstacles(tiled_object(3, "rock", 100, 100, height=20)),
        ["object 3", "width = 0 must be at least 1 px"],
    ),
    "obstacle outside": (
        _obstacles(tiled_object(3, "rock", 1000, 100, width=20, height=20)),
        ["object 3", "wholly outside the 320×256 map"],
    ),
    "unknown obstacle class": (
        _obstacles(tiled_object(3, "coral", 100, 100, width=20, height=20)),
        ["object 3", "class = 'coral' must be one of rock, plant"],
    ),
    "point obstacle": (
        _obstacles(point(3, "rock", 100, 100)),
        ["object 3", "shape = 'point' must be a rectangle, ellipse or polygon"],
    ),
    "object x text": (
        _obstacles(tiled_object(3, "rock", "ten", 100, width=20, height=20)),
        ["layer obstacles, object 3", "x = 'ten' must be a finite number"],
    ),
    "object x missing": (
        _set("layers/0/objects", [{"id": 3, "name": "a", "y": 1}]),
        ["layer obstacles, object 3", "x is missing"],
    ),
    "unknown boundary": (
        _prop("boundary", "string", "donut"),
        ["boundary = 'donut' must be one of contain, bounce, wrap"],
    ),
    "misspelt map property": (_prop("boundry", "string", "wrap"), ["unknown map property"]),
    "bad property type": (_prop("order", "integer", 1), ["order.type = 'integer'"]),
    "negative time limit": (_prop("time_limit", "float", -1), ["time_limit = -1"]),
    "min_fish above the school": (_prop("min_fish", "int", 11), ["min_fish = 11"]),
    "fish_home above the school": (
        _both(_prop("fish_home", "int", 11), _spawns(SPAWN, point(8, "home", 200, 200))),
        ["fish_home = 11 must be at most the 10 fish"],
    ),
    "fish_home without a home": (
        _prop("fish_home", "int", 5),
        ["fish_home = 5 needs a home (a point object of class 'home')"],
    ),
    "no goal at all": (
        _prop("food_to_eat", "int", 0),
        ["food_to_eat = 0 must be at least 1 without a fish_home goal"],
    ),
    "negative food drops": (_prop("food_drops", "int", -1), ["food_drops = -1 must be at least"]),
    "food drops text": (_prop("food_drops", "string", "many"), ["food_drops = 'many' must be"]),
    "two homes": (
        _spawns(SPAWN, point(8, "home", 200, 200), point(9, "home", 100, 100)),
        ["layer spawns", "homes = 2 must be at most 1"],
    ),
    "tiny home": (
        _spawns(SPAWN, point(8, "home", 200, 200, radius=("float", 5))),
        ["object 8", "radius = 5 must be at least 20"],
    ),
    "home with a count": (
        _spawns(SPAWN, point(8, "home", 200, 200, count=("int", 5))),
        ["object 8", "unknown property 'count' (expected: radius)"],
    ),
    "missing spawns layer": (lambda doc: doc["layers"].pop(), ["layer spawns", "missing"]),
    "no spawn point": (_spawns(point(7, "shark", 40, 40)), ["has no spawn point"]),
    "unknown layer": (_set("layers/0/name", "obstacle"), ["layer obstacle", "unknown object"]),
    "unknown point class": (
        _spawns(SPAWN, point(8, "whale", 50, 50)),
        ["object 8", "class = 'whale' must be one of spawn, shark, food, leader, home"],
    ),
    "spawn as rectangle": (
        _spawns(tiled_object(7, "spawn", 40, 40, width=10, height=10)),
        ["object 7", "must be a point"],
    ),
    "spawn outside": (
        _spawns(point(7, "spawn", 400, 40, count=("int", 10))),
        ["object 7", "x, y = (400.0, 40.0) is outside the 320×256 map"],
    ),
    "food in a rock": (
        _both(
            _obstacles(tiled_object(3, "rock", 100, 100, width=50, height=50)),
            _spawns(SPAWN, point(8, "food", 120, 120)),
        ),
        ["object 8", "is inside obstacle 3 (rock)"],
    ),
    "centre in a rock": (
        _obstacles(tiled_object(3, "rock", 100, 100, width=100, height=100)),
        ["no leader point, and the tank centre is inside obstacle 3"],
    ),
    "two leaders": (
        _spawns(SPAWN, point(8, "leader", 50, 50), point(9, "leader", 60, 60)),
        ["leaders = 2 must be at most 1"],
    ),
    "unknown spawn property": (
        _spawns(point(7, "spawn", 40, 40, count=("int", 3), speed=("int", 3))),
        ["object 7", "unknown property 'speed'"],
    ),
    "food with no bites": (
        _spawns(SPAWN, point(8, "food", 50, 50, bites=("int", 0))),
        ["object 8", "bites = 0 must be at least 1"],
    ),
    "groups nested too deep": (_nest_in_groups(17), ["layer g: group layers nest too deep"]),
    "a 400-digit number": (_prop("current_x", "float", 10**400), ["must be a finite number"]),
    "property type a list": (
        _set("properties", [{"name": "order", "type": [], "value": 1}]),
        ["order.type = [] must be one of"],
    ),
    "strong current": (_prop("current_y", "float", 1e300), ["current_y = 1e+300 must be at most"]),
    "sub-pixel rectangle": (
        _obstacles(tiled_object(3, "rock", 100, 100, width=1e-3, height=20)),
        ["object 3", "width = 0.001 must be at least 1 px"],
    ),
    "obstacle reaching far out": (
        _obstacles(tiled_object(3, "rock", -1000, 100, width=1100, height=20)),
        ["object 3", "more than a map size outside the 320×256 map"],
    ),
    "too many polygon points": (
        _obstacles(
            *(tiled_object(k, "rock", 160, 60, polygon=circle_polygon(256, 40)) for k in range(9))
        ),
        ["object 8", "points = 2304 in the map's polygons are too many (at most 2048 in all)"],
    ),
    "too many obstacle vertices": (
        _obstacles(*(tiled_object(k, "rock", k % 300, 60, width=2, height=2) for k in range(513))),
        ["object 512", "vertices = 2052 of the obstacles up to this one are too many"],
    ),
    "huge spawn radius": (
        _spawns(point(7, "spawn", 40, 40, count=("int", 3), radius=("float", 1e300))),
        ["object 7", "radius = 1e+300 must be at most 16384"],
    ),
    "crowded school": (
        _spawns(point(7, "spawn", 160, 128, count=("int", 500), radius=("float", 5))),
        ["layer spawns: 500 fish and sharks would start in one 50 px square near x, y ="],
    ),
    "piled-up sharks": (
        _spawns(SPAWN, *(point(10 + k, "shark", 200, 200) for k in range(101))),
        ["layer spawns: 101 fish and sharks would start in one 50 px square"],
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_level_names_file_layer_object_and_field(tmp_path: Path, case: str) -> None:
    breaker, expected = BROKEN[case]
    doc = tiled_map()
    text = breaker(doc)
    path = write(tmp_path, text if isinstance(text, str) else doc)
    with pytest.raises(LevelError) as caught:
        load_level(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    assert "\n" not in message and "Traceback" not in message
    for fragment in expected:
        assert fragment in message


@pytest.mark.slow
def test_the_parts_shoal_does_not_use_are_never_read(tmp_path: Path) -> None:
    """Tile and image layers and tilesets are skipped, not decoded: a compression bomb, a
    tileset that is a device, broken tile data all load as the plain map does."""
    bomb = base64.b64encode(zlib.compress(bytes(64 << 20), 9)).decode()
    doc = tiled_map()
    doc["tilesets"] = [{"firstgid": 1, "source": "/dev/zero"}, {"firstgid": 9, "name": "t"}]
    doc["layers"] += [
        _tiles(encoding="base64", compression="zlib", data=bomb),
        _tiles(width=0, data=[0, 1]),
        _tiles(chunks=[{"x": 0, "y": 0, "width": 2, "height": 2, "data": [1]}]),
        {"id": 6, "name": "sky", "type": "imagelayer", "image": "/dev/zero"},
    ]
    tracemalloc.start()
    try:
        level = load_level(write(tmp_path, doc))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert level.spawns == load_level(write(tmp_path, tiled_map(), "plain.tmj")).spawns
    assert peak < 20_000_000
