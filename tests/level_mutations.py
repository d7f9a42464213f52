"""Mutations of level files for the fuzz tests: each breaks a packaged level's parsed JSON
in place, drawing its choices from hypothesis (the raw bytes' mutations: level_bytes.py)."""

import base64
import copy
import gzip
import json
import math
import zlib
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import strategies as st

from shoal.game.level import (
    MAX_BITES,
    MAX_CURRENT,
    MAX_FILE_BYTES,
    MAX_FOOD,
    MAX_FOOD_TO_EAT,
    MAX_ORDER,
    MAX_SPAWN_COUNT,
    MAX_TIME_LIMIT,
    MAX_TOTAL_FISH,
    MAX_WORLD_SIZE,
)

from level_checks import TEXTS

Json = Any
JsonPath = tuple[str | int, ...]


# --- the starting points ------------------------------------------------------------------
NAMES = sorted(TEXTS)

# 64 MiB of zero tiles in 65 kB: a tile layer that would unpack to far more than it says.
BOMB = base64.b64encode(zlib.compress(bytes(64 << 20), 9)).decode()
GZIP_BOMB = base64.b64encode(gzip.compress(bytes(16 << 20), 9)).decode()


# --- values of every wrong kind -------------------------------------------------------------
ODD_NUMBERS: list[Json] = [0, -1, 1, 2, 7, 2**63, 10**30, -(10**30), 10**400, -(10**400)]
ODD_FLOATS: list[Json] = [1e308, -1e308, 5e-324, 0.5, -0.0, 1e-9, math.nan, math.inf, -math.inf]
ODD_TEXTS: list[Json] = ["", " ", "NaN", "inf", "-Infinity", "1e999", "10", "\n", "a\nb", "é" * 5]
ODD_CONTAINERS: list[Json] = [[], {}, [[]], {"x": 1}, [{"x": 0, "y": 0}], [1, 2, 3]]
# Words the loader looks for, in the wrong places.
WORDS: list[Json] = ["objectgroup", "group", "tilelayer", "spawn", "rock", "shark", "food"]
WORDS += ["leader", "wrap", "count", "obstacles", "spawns", "#zzzzzz", "#ff0000", "x" * 300]
ODD_CONSTANTS = [None, True, False, *ODD_NUMBERS, *ODD_FLOATS, *ODD_TEXTS, *ODD_CONTAINERS, *WORDS]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12),
    st.integers(min_value=-(2**70), max_value=2**70),
)  # fmt: skip
ODD_VALUES = st.one_of(
    st.sampled_from(ODD_CONSTANTS),
    SCALARS,
    st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(max_size=6), inner, max_size=3), max_leaves=8),
)  # fmt: skip
# Property names with the type Tiled gives them; "speed" and "" are unknown names.
MAP_PROPERTIES = {"title": "string", "order": "int", "boundary": "string", "min_fish": "int"}
MAP_PROPERTIES |= {"current_x": "float", "current_y": "float", "time_limit": "float"}
MAP_PROPERTIES |= {"food_to_eat": "int"}
POINT_PROPERTIES = {"count": "int", "species": "string", "radius": "float", "bites": "int"}
POINT_PROPERTIES |= {"speed": "int", "": "string"}
PROPERTY_TYPES = ["string", "int", "float", "bool", "color", "file", "object", "class", "x"]
# Values at and just past the loader's limits, and far beyond them.
LIMITS: list[float] = [
    MAX_FOOD,
    MAX_SPAWN_COUNT,
    MAX_TOTAL_FISH,
    MAX_WORLD_SIZE,
    MAX_BITES,
    MAX_ORDER,
]
LIMITS += [MAX_FOOD_TO_EAT, MAX_TIME_LIMIT, MAX_CURRENT]
EDGES: list[Json] = [0, -1, 1, 1e300, -1e300, 1e308, -1e308, 5e-324, 10**30, 10**400]
EDGES += [edge for limit in LIMITS for edge in (limit, limit + 1, -limit)]
WIDE_NUMBERS = st.one_of(st.integers(-5, 25000), st.floats(-1e4, 1e4), st.sampled_from(EDGES))
PATHS_OUT = ["/dev/zero", "/dev/null", ".", "..", "missing.tsj", "missing.tj", "", "/"]
PATHS_OUT += ["/proc/self/environ", "zero.tj", "loop.tj", "pipe.tj", "a\x00.tj", "x" * 300 + ".tj"]
# Template files beside the fuzzed map (see `fuzz_file`): a rock, a polygon, a big one.
TEMPLATES = ["rock.tj", "ring.tj", "big.tj", "tile.tj"]
# Text that must never reach a terminal as it is: escape sequences that clear the screen or
# set the title, bidi overrides, line and paragraph separators, lone surrogates, NUL, a zero
# width space in a keyword, look-alike letters (Cyrillic s), long runs.
TRICKS: list[str] = ["\x1b[2J\x1b[H", "\x1b]0;owned\x07", "\u202eevil", "a\u2028b", "\ud800"]
TRICKS += ["\x00", "spawns\u200b", "\u0455pawns", "rock\r", "\x85", "x" * 100_000, "é" * 70]
TEXTS_ODD = st.one_of(st.sampled_from(TRICKS), st.text(max_size=80))


# --- walking the JSON tree ------------------------------------------------------------------
def _paths(node: Json, prefix: JsonPath = ()) -> Iterator[JsonPath]:
    """Every path below node (not node itself): keys of objects, indices of lists."""
    children: Iterator[tuple[str | int, Json]] = iter(())
    if isinstance(node, dict):
        children = iter(node.items())
    elif isinstance(node, list):
        children = enumerate(node)
    for key, child in children:
        yield (*prefix, key)
        yield from _paths(child, (*prefix, key))


def _get(doc: Json, path: JsonPath) -> Json:
    for key in path:
        doc = doc[key]
    return doc


def _pick(data: st.DataObject, doc: Json, keep: Callable[[Json], bool]) -> JsonPath | None:
    """A random path to a node that keep() accepts, or None if there is none."""
    paths = [p for p in _paths(doc) if keep(_get(doc, p))]
    return data.draw(st.sampled_from(paths)) if paths else None


def _objects(doc: Json) -> list[Json]:
    """Every object dict in the map's object layers (groups included)."""
    found: list[Json] = []
    for path in _paths(doc):
        if path[-1] == "objects" and isinstance(_get(doc, path), list):
            found.extend(o for o in _get(doc, path) if isinstance(o, dict))
    return found


# --- tree mutations: each changes doc in place ----------------------------------------------
Mutation = Callable[[st.DataObject, Json], None]


def replace_any_value(data: st.DataObject, doc: Json) -> None:
    path = _pick(data, doc, lambda node: True)
    if path is not None:
        _get(doc, path[:-1])[path[-1]] = data.draw(ODD_VALUES)


def delete_a_key(data: st.DataObject, doc: Json) -> None:
    path = _pick(data, doc, lambda node: isinstance(node, dict) and bool(node))
    node = doc if path is None else _get(doc, path)
    node.pop(data.draw(st.sampled_from(sorted(node))))


def duplicate_an_item(data: st.DataObject, doc: Json) -> None:
    """Copies of a list item: a few, or enough to pass the loader's limits."""
    path = _pick(data, doc, lambda node: isinstance(node, list) and bool(node))
    if path is None:
        return
    items = _get(doc, path)
    item = items[data.draw(st.integers(0, len(items) - 1))]
    copies = data.draw(st.one_of(st.integers(1, 3), st.sampled_from([300, 6000])))
    # Up to about the loader's file limit: beyond it a file is refused unread, and a copy
    # of a big item many times over would only fill this process's memory.
    copies = min(copies, max(1, MAX_FILE_BYTES // len(json.dumps(item))))
    items.extend(copy.deepcopy(item) for _ in range(copies))


def shuffle_a_list(data: st.DataObject, doc: Json) -> None:
    path = _pick(data, doc, lambda node: isinstance(node, list) and len(node) > 1)
    if path is not None:
        # A seeded shuffle: st.permutations of a 6000-item list would overrun the example.
        data.draw(st.randoms(use_true_random=False)).shuffle(_get(doc, path))


def truncate_a_list(data: st.DataObject, doc: Json) -> None:
    path = _pick(data, doc, lambda node: isinstance(node, list) and bool(node))
    if path is not None:
        items = _get(doc, path)
        del items[data.draw(st.integers(0, len(items) - 1)) :]


def scale_an_object(data: st.DataObject, doc: Json) -> None:
    """An object (and its polygon) moved or stretched far: huge, tiny, negative, zero."""
    objects = _objects(doc)
    if not objects:
        return
    obj = data.draw(st.sampled_from(objects))
    factor = data.draw(st.sampled_from([0, -1, 1e-300, 0.01, 3, 1e6, 1e300, -1e300, 10**30]))
    keys = data.draw(st.sets(st.sampled_from(["x", "y", "width", "height", "rotation"])))
    for key in keys:
        if isinstance(obj.get(key), int | float):
            obj[key] = obj[key] * factor
    for point in obj.get("polygon", []) if isinstance(obj.get("polygon"), list) else []:
        if isinstance(point, dict) and all(isinstance(point.get(a), int | float) for a in "xy"):
            point["x"], point["y"] = point["x"] * factor, point["y"] * factor


COORDINATES = st.one_of(st.sampled_from([0, 10, 50, 100, -20]), st.floats(-1e4, 1e4))
POINTS = st.lists(st.tuples(COORDINATES, COORDINATES), max_size=12)


def _collinear(data: st.DataObject) -> list[tuple[float, float]]:
    n = data.draw(st.integers(3, 6))
    dx, dy = data.draw(st.sampled_from([(1, 0), (0, 1), (3, 2), (0, 0)]))
    order = list(range(n))
    data.draw(st.randoms(use_true_random=False)).shuffle(order)
    return [(k * dx * 10.0, k * dy * 10.0) for k in order]


def wild_polygon(data: st.DataObject, doc: Json) -> None:
    """A polygon of random points: often self-intersecting; also collinear or repeated."""
    objects = _objects(doc)
    if not objects:
        return
    obj = data.draw(st.sampled_from(objects))
    kind = data.draw(st.sampled_from(["random", "collinear", "repeated", "many"]))
    if kind == "collinear":
        points = _collinear(data)
    elif kind == "many":
        # Valid and big: a circle of up to 300 vertices, past the limit of one polygon.
        n = data.draw(st.sampled_from([100, 256, 257, 300]))
        points = [
            (50 * math.cos(2 * math.pi * k / n), 50 * math.sin(2 * math.pi * k / n))
            for k in range(n)
        ]
    else:
        points = data.draw(POINTS)
        if kind == "repeated" and points:
            points.insert(data.draw(st.integers(0, len(points))), points[0])
    obj["polygon"] = [{"x": x, "y": y} for x, y in points]


def set_a_property(data: st.DataObject, doc: Json) -> None:
    """A map or object property: mostly a known name of its own type with an extreme value
    (a later property of the same name wins), else any type and any value."""
    holder = data.draw(st.sampled_from([doc, *_objects(doc)]))
    names = MAP_PROPERTIES if holder is doc else POINT_PROPERTIES
    name = data.draw(st.sampled_from(sorted(names)))
    prop = {
        "name": name,
        "type": data.draw(st.one_of(st.just(names[name]), st.sampled_from(PROPERTY_TYPES))),
        "value": data.draw(st.one_of(WIDE_NUMBERS, ODD_VALUES)),
    }
    props = holder.get("properties")
    holder["properties"] = [*(props if isinstance(props, list) else []), prop]


def _layer(ident: int, name: str, kind: str, **fields: Json) -> Json:
    return {"id": ident, "name": name, "type": kind, "opacity": 1, "visible": True, **fields}


def _tile_layer(data: st.DataObject) -> Json:
    width, height = (data.draw(st.sampled_from([0, -1, 1, 3, 40, 10**6])) for _ in "wh")
    layer = _layer(90, "tiles", "tilelayer", x=0, y=0, width=width, height=height)
    form = data.draw(st.sampled_from(["csv", "base64", "zlib", "gzip", "zstd", "bomb", "chunks"]))
    if form == "csv":
        layer["data"] = data.draw(st.lists(st.integers(0, 2**32), max_size=50))
    elif form == "chunks":
        layer["chunks"] = [{"x": 0, "y": 0, "width": width, "height": height, "data": [1]}]
    else:
        raw = data.draw(st.binary(max_size=64))
        packed = {"zlib": zlib.compress(raw), "gzip": gzip.compress(raw)}.get(form, raw)
        layer.update(encoding="base64", compression=form if form != "base64" else "")
        layer["data"] = base64.b64encode(packed).decode()
        if form == "bomb":
            bombs = st.sampled_from([("zlib", BOMB), ("gzip", GZIP_BOMB)])
            layer["compression"], layer["data"] = data.draw(bombs)
    return layer


def _odd_properties(data: st.DataObject) -> Json:
    kinds = st.sampled_from(PROPERTY_TYPES)
    values = st.one_of(WIDE_NUMBERS, ODD_VALUES)
    return [{"name": "p", "type": data.draw(kinds), "value": data.draw(values)}]


def _tileset(data: st.DataObject) -> Json:
    """An embedded tileset (shoal ignores it; pytiled_parser reads it all) or a reference."""
    if data.draw(st.booleans()):
        return {"firstgid": 1, "source": data.draw(st.sampled_from(PATHS_OUT))}
    tile = {"id": 0, "properties": _odd_properties(data)}
    if data.draw(st.booleans()):
        objects = [{"id": 1, "template": data.draw(st.sampled_from(PATHS_OUT))}]
        tile["objectgroup"] = _layer(
            1, "shapes", "objectgroup", draworder="topdown", objects=objects
        )
    tileset = {"firstgid": 1, "name": "t", "tilewidth": 32, "tileheight": 32, "columns": 1}
    tileset.update(tilecount=data.draw(st.sampled_from([0, 1, 10**9])), tiles=[tile])
    return {**tileset, "properties": _odd_properties(data)}


def add_a_layer_or_reference(data: st.DataObject, doc: Json) -> None:
    """The parts of a Tiled map shoal does not use, which pytiled_parser still reads."""
    kind = data.draw(st.sampled_from(["tiles", "image", "groups", "tileset", "template"]))
    if not isinstance(doc.get("layers"), list):
        return
    if kind == "tiles":
        doc["layers"].append(_tile_layer(data))
    elif kind == "image":
        image = data.draw(st.sampled_from(PATHS_OUT))
        doc["layers"].append(_layer(91, "picture", "imagelayer", image=image))
    elif kind == "groups":
        for _ in range(data.draw(st.sampled_from([1, 2, 40, 400]))):
            doc["layers"] = [_layer(92, "g", "group", layers=doc["layers"])]
    elif kind == "tileset":
        doc["tilesets"] = [_tileset(data)]
    elif objects := _objects(doc):
        data.draw(st.sampled_from(objects))["template"] = data.draw(st.sampled_from(PATHS_OUT))


def rename_with_tricks(data: st.DataObject, doc: Json) -> None:
    """A name, title, species, class, layer or property name, or template path: hostile text."""
    text = data.draw(TEXTS_ODD)
    layers = [layer for layer in doc.get("layers", []) if isinstance(layer, dict)]
    holders = [doc, *_objects(doc), *layers]
    holder = data.draw(st.sampled_from(holders))
    key = data.draw(st.sampled_from(["name", "type", "class", "template", "properties"]))
    if key != "properties":
        holder[key] = text
        return
    kind = data.draw(st.sampled_from(["title", "species", "boundary", "name"]))
    prop = {"name": text, "type": "string", "value": ""}
    if kind != "name":
        prop = {"name": kind, "type": "string", "value": text}
    holder["properties"] = [prop]


def place_from_a_template(data: st.DataObject, doc: Json) -> None:
    """Objects placed from the template files beside the map, their own keys mostly gone:
    a few, or thousands (one template used 5,000 times hung the loader)."""
    objects = _objects(doc)
    if not objects:
        return
    name = data.draw(st.sampled_from(TEMPLATES))
    keep = data.draw(st.sets(st.sampled_from(["x", "y", "width", "height", "name", "type"])))
    for obj in data.draw(st.lists(st.sampled_from(objects), min_size=1, max_size=4)):
        for key in set(obj) - keep - {"id", "x", "y", "properties"}:
            del obj[key]
        obj["template"] = name
    if data.draw(st.booleans()):
        layers = doc["layers"] if isinstance(doc.get("layers"), list) else []
        # An earlier mutation may have moved every object layer into a group: then none.
        layer = next((lay for lay in layers if isinstance(lay, dict) and "objects" in lay), None)
        if layer is None or not isinstance(layer["objects"], list):
            return
        copies = data.draw(st.sampled_from([100, 5000]))
        placed = ({"id": 500 + k, "template": name, "x": 9, "y": 9} for k in range(copies))
        layer["objects"] += list(placed)


TREE_MUTATIONS: list[Mutation] = [
    replace_any_value,
    delete_a_key,
    duplicate_an_item,
    shuffle_a_list,
    truncate_a_list,
    scale_an_object,
    wild_polygon,
    set_a_property,
    add_a_layer_or_reference,
    rename_with_tricks,
    place_from_a_template,
]
