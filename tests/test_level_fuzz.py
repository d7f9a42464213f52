"""Fuzzing the level loader: a broken level file gives a LevelError, never a crash or a hang.

Each example starts from a packaged level and breaks it, either in its parsed JSON (values
of the wrong type, huge, negative or non-finite numbers, deleted keys, duplicated, shuffled
or dropped objects, scaled coordinates, wild polygons, extra tile layers, tilesets, object
templates and group nesting) or in its raw bytes (cut short, flipped, inserted, deleted,
invalid UTF-8, numbers out of range). The property: `load_level` returns quickly, and either
refuses the file with a LevelError whose message is one line naming the file, or returns a
level the game can play (its Tank builds and steps with every position and velocity
finite). Any other exception fails the test.

The examples are derandomized, so a run checks the same files every time (CI included);
`pytest --hypothesis-show-statistics` shows how many were refused and how many played.
A longer, random hunt: ``SHOAL_FUZZ_EXAMPLES=5000 pytest tests/test_level_fuzz.py``.
"""

import base64
import copy
import gzip
import importlib.resources
import json
import math
import os
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from shoal.game.level import MAX_FILE_BYTES, Level, LevelError, load_level
from shoal.game.tank import Tank

if TYPE_CHECKING:
    import arcade

LOAD_SECONDS = 2.0
"""Longest a load may take: a real level loads in ~5 ms, so this catches hangs only."""
PLAY_SECONDS = 10.0
"""Longest building and stepping an accepted level's tank may take (kernels compiled)."""
PLAY_STEPS = 5
LONG_RUN = int(os.environ.get("SHOAL_FUZZ_EXAMPLES", "0"))
"""Examples per test of a long hunt (fresh random ones each run); 0: the short CI run."""
TREE_EXAMPLES = LONG_RUN or 400
RAW_EXAMPLES = LONG_RUN or 500

# derandomize: the same examples on every run; deadline=None: the property times itself
# (hypothesis's deadline would also count the tank's first kernel compile). The autouse
# fresh-world fixture is shared by the examples harmlessly: every Tank makes its own world.
FUZZ = settings(
    derandomize=not LONG_RUN,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

Json = Any
JsonPath = tuple[str | int, ...]


# --- the starting points ------------------------------------------------------------------
def _packaged_texts() -> dict[str, str]:
    files = importlib.resources.files("shoal.levels").iterdir()
    return {f.name: f.read_text(encoding="utf-8") for f in files if f.name.endswith(".tmj")}


TEXTS = _packaged_texts()
DOCS = {name: json.loads(text) for name, text in TEXTS.items()}
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
EDGES = [0, -1, 1, 1000, 1001, 5000, 5001, 20001, 16384, 16385, 1e300, -1e300, 1e308, -1e308]
EDGES += [5e-324, 10**30, 10**400]
WIDE_NUMBERS = st.one_of(st.integers(-5, 25000), st.floats(-1e4, 1e4), st.sampled_from(EDGES))
PATHS_OUT = ["/dev/zero", "/dev/null", ".", "..", "missing.tsj", "missing.tj", "", "/"]


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
]


# --- raw mutations: bytes in, bytes out -----------------------------------------------------
def cut_short(data: st.DataObject, raw: bytes) -> bytes:
    return raw[: data.draw(st.integers(0, max(len(raw) - 1, 0)))]


def flip_bytes(data: st.DataObject, raw: bytes) -> bytes:
    out = bytearray(raw)
    for _ in range(data.draw(st.integers(1, 8)) if out else 0):
        out[data.draw(st.integers(0, len(out) - 1))] ^= data.draw(st.integers(1, 255))
    return bytes(out)


# Invalid UTF-8 (a lone byte, a bad pair, a surrogate), NUL, a BOM, deep nesting, odd breaks.
JUNK = [
    b"\xff",
    b"\xc3\x28",
    b"\xed\xa0\x80",
    b"\x00",
    b"\xef\xbb\xbf",
    b"[" * 5000,
    b"\r",
    b"\x0b",
]
# Numbers JSON allows but no level should hold: inf, too many digits for int(), NaN tokens.
TOKENS = [
    b"1e999",
    b"-1e999",
    b"1" * 5000,
    b"1" * 400,
    b"-0",
    b"1e-400",
    b"9" * 30,
    b"NaN",
    b"Infinity",
]


def insert_bytes(data: st.DataObject, raw: bytes) -> bytes:
    at = data.draw(st.integers(0, len(raw)))
    junk = data.draw(st.one_of(st.binary(min_size=1, max_size=16), st.sampled_from(JUNK)))
    return raw[:at] + junk + raw[at:]


def delete_a_span(data: st.DataObject, raw: bytes) -> bytes:
    start = data.draw(st.integers(0, max(len(raw) - 1, 0)))
    return raw[:start] + raw[start + data.draw(st.integers(1, 200)) :]


def replace_a_number(data: st.DataObject, raw: bytes) -> bytes:
    """A number token replaced by one JSON allows but no level should hold."""
    starts = [k for k in range(1, len(raw)) if raw[k - 1 : k] == b":" and raw[k : k + 1].isdigit()]
    if not starts:
        return raw
    at = data.draw(st.sampled_from(starts))
    end = at
    while end < len(raw) and raw[end : end + 1] in b"0123456789.-eE":
        end += 1
    token = data.draw(st.sampled_from(TOKENS))
    return raw[:at] + token + raw[end:]


RAW_MUTATIONS = [cut_short, flip_bytes, insert_bytes, delete_a_span, replace_a_number]


# --- the property ---------------------------------------------------------------------------
def check_refused_or_playable(path: Path) -> str:
    """Load the file: a quick one-line LevelError naming it, or a playable level."""
    start = time.perf_counter()
    try:
        level = load_level(path)
    except LevelError as error:
        _check_message(str(error), path)
        outcome = "refused"
    else:
        outcome = "played"
    took = time.perf_counter() - start
    assert took < LOAD_SECONDS, f"loading took {took:.2f} s"
    if outcome == "played":
        _check_playable(level)
    return outcome


def _check_message(message: str, path: Path) -> None:
    assert message.startswith(f"{path}: "), message
    assert len(message.splitlines()) == 1, message
    assert len(message) < 1000, message


def _check_playable(level: Level) -> None:
    start = time.perf_counter()
    tank = Tank(level, seed=0)
    try:
        # Every spawn point's boids (a spawn of species "shark" makes sharks), and the sharks.
        assert len(tank.flock) == sum(spawn.count for spawn in level.spawns) + len(level.sharks)
        for _ in range(PLAY_STEPS):
            tank.step()
        store = tank.flock.store
        assert np.isfinite(store.positions).all() and np.isfinite(store.velocities).all()
    finally:
        tank.close()
    took = time.perf_counter() - start
    assert took < PLAY_SECONDS, f"building and stepping the tank took {took:.2f} s"


@pytest.fixture(scope="module")
def fuzz_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one file every example writes (a folder of its own: no tileset or template in
    it, so a reference to one is always missing); the tank kernels compiled beforehand."""
    _check_playable(load_level("reef"))
    return tmp_path_factory.mktemp("fuzz") / "level.tmj"


def _mutated_tree(data: st.DataObject) -> Json:
    doc = copy.deepcopy(DOCS[data.draw(st.sampled_from(NAMES), label="level")])
    for mutation in data.draw(st.lists(st.sampled_from(TREE_MUTATIONS), min_size=1, max_size=3)):
        mutation(data, doc)
    return doc


@settings(FUZZ, max_examples=TREE_EXAMPLES)
@given(data=st.data())
def test_a_mutated_level_tree_is_refused_or_playable(fuzz_file: Path, data: st.DataObject) -> None:
    doc = _mutated_tree(data)
    text = json.dumps(doc)
    if data.draw(st.booleans(), label="infinities as 1e999"):
        # json writes inf as Infinity, which the loader refuses at once; 1e999 is a number
        # that Python's json reads as inf, and it reaches whatever reads that value.
        text = text.replace("Infinity", "1e999")
    fuzz_file.write_text(text, encoding="utf-8")
    event(check_refused_or_playable(fuzz_file))


@settings(FUZZ, max_examples=RAW_EXAMPLES)
@given(data=st.data())
def test_mutated_level_bytes_are_refused_or_playable(fuzz_file: Path, data: st.DataObject) -> None:
    raw = TEXTS[data.draw(st.sampled_from(NAMES), label="level")].encode()
    for mutation in data.draw(st.lists(st.sampled_from(RAW_MUTATIONS), min_size=1, max_size=3)):
        raw = mutation(data, raw)
    fuzz_file.write_bytes(raw)
    event(check_refused_or_playable(fuzz_file))


# --- what the fuzzing found -------------------------------------------------------------------
# Each case is a minimal failing example the fuzzer reported, written out (the derandomized
# run need not draw it again), with what the loader did before the fix.
def _spawn(doc: Json) -> Json:
    return next(o for o in doc["layers"][1]["objects"] if o["type"] == "spawn")


def _set_property(holder: Json, name: str, kind: str, value: Json) -> None:
    holder["properties"] = [p for p in holder.get("properties", []) if p["name"] != name]
    holder["properties"].append({"name": name, "type": kind, "value": value})


def _add_obstacle(doc: Json, **fields: Json) -> None:
    obstacle = {"id": 99, "name": "found", "type": "rock", "rotation": 0, "visible": True}
    doc["layers"][0]["objects"].append({**obstacle, **fields})


def tile_layer_of_width_0(doc: Json) -> None:  # ZeroDivisionError in pytiled_parser
    doc["layers"].append(
        {
            "id": 90,
            "name": "tiles",
            "type": "tilelayer",
            "opacity": 1,
            "visible": True,
            "x": 0,
            "y": 0,
            "width": 0,
            "height": 0,
            "encoding": "base64",
            "compression": "",
            "data": "AAAAAA==",
        }
    )


def property_type_a_list(doc: Json) -> None:  # TypeError: unhashable type: 'list'
    next(p for p in doc["properties"] if p["name"] == "order")["type"] = []


def number_of_400_digits(doc: Json) -> None:  # OverflowError: int too large for a float
    _set_property(doc, "current_x", "float", 10**400)


def polygon_scaled_far_out(doc: Json) -> None:  # ValueError from the tank's obstacle field
    # The caves' ceiling times -1e300: its area overflows to NaN, which passed every check.
    ceiling = DOCS["caves.tmj"]["layers"][0]["objects"][0]["polygon"]
    far = [{"x": p["x"] * -1e300, "y": p["y"] * -1e300} for p in ceiling]
    _add_obstacle(doc, x=0, y=0, width=0, height=0, polygon=far)


def rectangle_thinner_than_a_float_step(doc: Json) -> None:  # ValueError: obstacle field
    _add_obstacle(doc, x=436.95, y=350, width=7e-299, height=300, rotation=12)


def current_of_1e300(doc: Json) -> None:  # the tank's state became NaN; bounce: ValueError
    _set_property(doc, "boundary", "string", "bounce")
    _set_property(doc, "current_y", "float", -1e300)


def school_in_a_pinhead(doc: Json) -> None:  # MemoryError (841 MiB) in the neighbour lists
    _set_property(_spawn(doc), "count", "int", 5000)
    _set_property(_spawn(doc), "radius", "float", 1.0)


def external_tileset_dev_zero(doc: Json) -> None:  # read /dev/zero until memory ran out
    doc["tilesets"] = [{"firstgid": 1, "source": "/dev/zero"}]


def template_dev_zero(doc: Json) -> None:  # read /dev/zero until memory ran out
    doc["layers"][0]["objects"][0]["template"] = "/dev/zero"


def tile_layer_zlib_bomb(doc: Json) -> None:  # 64 MiB unpacked from 65 kB, 16 M tile ids
    doc["layers"].append(
        {
            "id": 90,
            "name": "tiles",
            "type": "tilelayer",
            "opacity": 1,
            "visible": True,
            "x": 0,
            "y": 0,
            "width": 40,
            "height": 22,
            "encoding": "base64",
            "compression": "zlib",
            "data": BOMB,
        }
    )


def tileset_property_of_1e999(doc: Json) -> None:  # OverflowError in pytiled_parser's round()
    # Found by reading pytiled_parser, not by the fuzzer: written as 1e999 by _write_found.
    tileset = {"firstgid": 1, "name": "t", "tilewidth": 32, "tileheight": 32, "tilecount": 0}
    doc["tilesets"] = [{**tileset, "properties": [{"name": "a", "type": "int", "value": math.inf}]}]


FOUND: dict[str, tuple[Callable[[Json], None], str]] = {
    "tile layer of width 0": (tile_layer_of_width_0, "width, height = (0, 0) must be 1 to"),
    "property type a list": (property_type_a_list, "order.type = [] must be one of"),
    "number of 400 digits": (number_of_400_digits, "must be a finite number"),
    "polygon scaled far out": (polygon_scaled_far_out, "more than a map size outside"),
    "thin rectangle": (rectangle_thinner_than_a_float_step, "width = 7e-299 must be at least 1"),
    "current of 1e300": (current_of_1e300, "current_y = -1e+300 must be at least -1000"),
    "school in a pinhead": (school_in_a_pinhead, "would start in one 50 px square"),
    "tileset /dev/zero": (external_tileset_dev_zero, "tilesets[0].source = '/dev/zero' is an"),
    "template /dev/zero": (template_dev_zero, "template '/dev/zero': cannot read the file"),
    "tile layer zlib bomb": (tile_layer_zlib_bomb, "compression = 'zlib' is not read"),
    "tileset property of 1e999": (tileset_property_of_1e999, "not valid JSON: 1e999 is too big"),
}


def _write_found(case: str, path: Path) -> Path:
    doc = copy.deepcopy(DOCS["reef.tmj"])
    FOUND[case][0](doc)
    path.write_text(json.dumps(doc).replace("Infinity", "1e999"), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", FOUND)
def test_what_the_fuzzing_found_is_refused_with_a_clear_message(case: str, tmp_path: Path) -> None:
    path = _write_found(case, tmp_path / "found.tmj")
    assert check_refused_or_playable(path) == "refused"
    with pytest.raises(LevelError) as caught:
        load_level(path)
    assert FOUND[case][1] in str(caught.value)


# Subprocesses are slow (~1 s each): the command line gets a few of the findings.
@pytest.mark.parametrize("case", ["property type a list", "current of 1e300", "template /dev/zero"])
def test_the_game_refuses_a_fuzzed_level_in_one_line(case: str, tmp_path: Path) -> None:
    path = _write_found(case, tmp_path / "found.tmj")
    level = ["--level", str(path), "--headless", "--frames", "5"]
    command = [sys.executable, "-m", "shoal.game", *level]
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    done = subprocess.run(
        command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"shoal: error: {path}: "), done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert FOUND[case][1] in done.stderr


def test_reloading_a_fuzzed_level_keeps_the_current_one(
    window: "arcade.Window", tmp_path: Path
) -> None:
    from shoal.game.tank_view import TankView  # imports arcade: only this test needs it

    path = tmp_path / "reef.tmj"
    path.write_text(TEXTS["reef.tmj"], encoding="utf-8")
    view = TankView(load_level(path), lambda level: Tank(level, seed=2))
    window.show_view(view)
    view.step()
    tank = view.tank
    try:
        for case in ("tile layer of width 0", "school in a pinhead", "tileset /dev/zero"):
            _write_found(case, path)
            view.reload()
            assert view.tank is tank, case  # still playing the level it had
            assert view.hud.error.startswith(f"{path}: ") and FOUND[case][1] in view.hud.error
            assert len(view.hud.error.splitlines()) == 1
        view.on_draw()  # and the error is drawn without trouble
    finally:
        view.tank.close()
