"""Levels: the packaged Tiled maps load, are sound and playable; conversion and errors.

No window and no OpenGL: a level loads and validates on its own.
"""

import base64
import json
import math
import time
import tracemalloc
import zlib
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from shoal.components import BOUNDARY_MODES, Circle, Polygon, Rect
from shoal.game.level import (
    ELLIPSE_VERTICES,
    MAX_SPAWN_COUNT,
    OBSTACLE_KINDS,
    Level,
    LevelError,
    level_names,
    load_level,
)
from shoal.systems import compile_field, inside_obstacle
from shoal.systems.obstacles.field import surface

# --- the packaged levels ------------------------------------------------------------------
NAMES = level_names()
CLEARANCE = 30.0  # px from any obstacle or wall: a gap of 60 px lets a school through
GRID = 8.0  # px between the cells of the reachability check


def test_there_are_at_least_four_levels_in_play_order() -> None:
    assert len(NAMES) >= 4
    assert [load_level(name).order for name in NAMES] == list(range(1, len(NAMES) + 1))


def test_one_level_is_open_water_on_a_torus() -> None:
    open_levels = [load_level(name) for name in NAMES if "open" in name]
    assert open_levels
    assert all(level.boundary == "wrap" for level in open_levels)


@pytest.mark.parametrize("name", NAMES)
def test_packaged_level_is_sound(name: str) -> None:
    level = load_level(name)
    assert level.name == name and level.title and level.path.name == f"{name}.tmj"
    assert level.width > 0 and level.height > 0
    assert level.boundary in BOUNDARY_MODES
    assert all(0 <= c <= 255 for c in level.background)
    assert all(o.kind in OBSTACLE_KINDS for o in level.obstacles)
    assert level.spawns and all(s.count > 0 and s.radius > 0 for s in level.spawns)
    assert level.goal.food_to_eat >= 1 and level.goal.time_limit >= 0
    assert level.goal.min_fish <= sum(s.count for s in level.spawns)
    # Placed food is enough to win even if the player drops none.
    assert sum(f.bites for f in level.food) >= level.goal.food_to_eat


@pytest.mark.parametrize("name", NAMES)
def test_points_are_in_the_tank_and_clear_of_obstacles(name: str) -> None:
    level = load_level(name)
    points = np.array(_points(level))
    assert np.all((points >= 0) & (points <= (level.width, level.height)))
    field = compile_field(o.shape for o in level.obstacles)
    assert not inside_obstacle(field, points).any()


@pytest.mark.parametrize("name", NAMES)
def test_everything_is_reachable_from_the_leader_through_60px_gaps(name: str) -> None:
    level = load_level(name)
    clear = _clear_cells(level)
    reached = _flood(clear, _cell(level.leader), wrap=level.boundary == "wrap")
    reach = int(CLEARANCE // GRID) + 1  # a point near a wall counts if water near it is reached
    for x, y in _points(level):
        i, j = _cell((x, y))
        assert reached[max(0, i - reach) : i + reach + 1, max(0, j - reach) : j + reach + 1].any()


def test_levels_have_the_promised_contents() -> None:
    reef, kelp, caves, open_water = (load_level(n) for n in ("reef", "kelp", "caves", "open_water"))
    assert (reef.title, len(reef.sharks), reef.goal.food_to_eat, reef.goal.min_fish) == (
        "Coral Reef",
        0,
        15,
        20,
    )
    assert {o.kind for o in reef.obstacles} == {"rock", "plant"}
    assert len(kelp.sharks) == 1 and (kelp.goal.food_to_eat, kelp.goal.min_fish) == (25, 25)
    assert sum(isinstance(o.shape, Polygon) and o.kind == "plant" for o in kelp.obstacles) >= 6
    assert len(caves.sharks) == 2 and caves.goal.time_limit == 180
    assert any(isinstance(o.shape, Rect) and o.shape.angle_degrees for o in caves.obstacles)
    assert any(_is_ellipse_polygon(o.shape) for o in caves.obstacles)
    assert (open_water.boundary, open_water.current, len(open_water.sharks)) == (
        "wrap",
        (15.0, 0.0),
        3,
    )
    fish = [sum(s.count for s in level.spawns) for level in (reef, kelp, caves, open_water)]
    assert fish[-1] == max(fish)
    shapes = {type(o.shape) for n in NAMES for o in load_level(n).obstacles}
    assert shapes == {Circle, Rect, Polygon}


def test_levels_get_harder() -> None:
    levels = [load_level(name) for name in NAMES]
    sharks = [len(level.sharks) for level in levels]
    assert sharks == sorted(sharks) and sharks[0] < sharks[-1]
    goals = [level.goal.food_to_eat for level in levels]
    assert goals == sorted(goals)


def _points(level: Level) -> list[tuple[float, float]]:
    return [
        *((s.x, s.y) for s in level.spawns),
        *((f.x, f.y) for f in level.food),
        *level.sharks,
        level.leader,
    ]


def _is_ellipse_polygon(shape: object) -> bool:
    return isinstance(shape, Polygon) and len(shape.points) == ELLIPSE_VERTICES


def _cell(point: tuple[float, float]) -> tuple[int, int]:
    return int(point[0] // GRID), int(point[1] // GRID)


def _clear_cells(level: Level) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Cells at least CLEARANCE from every obstacle (and from the walls of a walled tank)."""
    xs = np.arange(GRID / 2, level.width, GRID)
    ys = np.arange(GRID / 2, level.height, GRID)
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    points = np.stack([gx.ravel(), gy.ravel()], axis=1)
    field = compile_field(o.shape for o in level.obstacles)
    distance = surface(field, points).distance
    if level.boundary != "wrap":
        walls = np.minimum(points, (level.width, level.height) - points).min(axis=1)
        distance = np.minimum(distance, walls)
    clear: np.ndarray[Any, np.dtype[np.bool_]] = (distance >= CLEARANCE).reshape(gx.shape)
    return clear


def _flood(
    clear: np.ndarray[Any, np.dtype[np.bool_]], start: tuple[int, int], *, wrap: bool
) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Cells reachable from start through clear cells (4-neighbour flood fill)."""
    assert clear[start], "the leader starts too close to an obstacle"
    seen = np.zeros_like(clear)
    seen[start] = True
    queue = deque([start])
    nx, ny = clear.shape
    while queue:
        i, j = queue.popleft()
        for a, b in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if wrap:
                a, b = a % nx, b % ny
            if 0 <= a < nx and 0 <= b < ny and clear[a, b] and not seen[a, b]:
                seen[a, b] = True
                queue.append((a, b))
    return seen


# --- a small handmade map -----------------------------------------------------------------
MAP_W, MAP_H, TILE = 10, 8, 32  # 320 × 256 px
H = MAP_H * TILE


def _object(ident: int, kind: str, x: object, y: object, **extra: Any) -> dict[str, Any]:
    obj = {"id": ident, "name": f"o{ident}", "type": kind, "x": x, "y": y, "width": 0}
    obj.update(height=0, rotation=0, visible=True)
    obj.update(extra)
    return obj


def _point(ident: int, kind: str, x: float, y: float, **props: Any) -> dict[str, Any]:
    properties = [{"name": k, "type": t, "value": v} for k, (t, v) in props.items()]
    return _object(ident, kind, x, y, point=True, properties=properties)


def _layer(ident: int, name: str, objects: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": ident,
        "name": name,
        "type": "objectgroup",
        "draworder": "topdown",
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
        "objects": objects,
    }


def _map(
    obstacles: list[dict[str, Any]] | None = None,
    spawns: list[dict[str, Any]] | None = None,
    props: dict[str, tuple[str, Any]] | None = None,
) -> dict[str, Any]:
    """A valid Tiled 1.10 map, 10 × 8 tiles of 32 px, no tilesets."""
    if spawns is None:
        spawns = [_point(100, "spawn", 40, 40, count=("int", 10), radius=("float", 20))]
    return {
        "type": "map",
        "version": "1.10",
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": MAP_W,
        "height": MAP_H,
        "tilewidth": TILE,
        "tileheight": TILE,
        "nextlayerid": 3,
        "nextobjectid": 200,
        "backgroundcolor": "#102030",
        "properties": [{"name": k, "type": t, "value": v} for k, (t, v) in (props or {}).items()],
        "tilesets": [],
        "layers": [_layer(1, "obstacles", obstacles or []), _layer(2, "spawns", spawns)],
    }


def _write(directory: Path, content: dict[str, Any] | str, name: str = "test.tmj") -> Path:
    path = directory / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def _close(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return len(a) == len(b) and all(
        math.isclose(p, q, abs_tol=1e-9) for p, q in zip(a, b, strict=True)
    )


def _same_ring(
    points: tuple[tuple[float, float], ...], expected: list[tuple[float, float]]
) -> bool:
    return sorted(tuple(round(c, 9) for c in p) for p in points) == sorted(expected)


def test_a_minimal_map_loads_with_defaults(tmp_path: Path) -> None:
    level = load_level(_write(tmp_path, _map()))
    assert (level.name, level.title, level.order) == ("test", "test", 0)
    assert (level.width, level.height, level.background) == (320, 256, (16, 32, 48))
    assert (level.boundary, level.current, level.obstacles) == ("contain", (0.0, 0.0), ())
    assert level.spawns[0].x == 40 and level.spawns[0].y == H - 40
    assert level.spawns[0].species == "fish" and level.spawns[0].count == 10
    assert level.leader == (160, 128)  # no leader point: the tank centre


def test_rectangle_rotated_90_degrees_about_its_top_left_corner(tmp_path: Path) -> None:
    # Tiled: top-left (100, 50), 40 × 20, turned 90° clockwise (y down) about that corner:
    # its corners are (100, 50), (100, 90), (80, 90), (80, 50) in Tiled's coordinates.
    rect = _object(1, "rock", 100, 50, width=40, height=20, rotation=90)
    shape = load_level(_write(tmp_path, _map([rect]))).obstacles[0].shape
    assert isinstance(shape, Rect)
    assert _close((shape.x, shape.y, shape.width, shape.height), (90, H - 70, 40, 20))
    assert shape.angle_degrees == -90  # counter-clockwise, y up
    assert _same_ring(shape.corners(), [(100, H - 50), (100, H - 90), (80, H - 90), (80, H - 50)])


def test_rectangle_rotated_30_degrees(tmp_path: Path) -> None:
    rect = _object(1, "rock", 200, 100, width=60, height=20, rotation=30)
    shape = load_level(_write(tmp_path, _map([rect]))).obstacles[0].shape
    assert isinstance(shape, Rect)
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    # The top-right corner in Tiled: (200, 100) + 60 · (cos 30°, sin 30°), y down.
    top_right = (200 + 60 * c, H - (100 + 60 * s))
    assert any(_close(corner, top_right) for corner in shape.corners())
    assert any(_close(corner, (200, H - 100)) for corner in shape.corners())
    assert shape.angle_degrees == pytest.approx(-30)


def test_ellipses_become_circles_or_polygons(tmp_path: Path) -> None:
    circle = _object(1, "plant", 200, 100, width=60, height=60, ellipse=True)
    wide = _object(2, "rock", 20, 150, width=80, height=40, ellipse=True)
    turned = _object(3, "rock", 250, 150, width=40, height=20, ellipse=True, rotation=90)
    level = load_level(_write(tmp_path, _map([circle, wide, turned])))
    first, second, third = (o.shape for o in level.obstacles)
    assert first == Circle(230, H - 130, 30) and level.obstacles[0].kind == "plant"
    assert isinstance(second, Polygon) and len(second.points) == ELLIPSE_VERTICES
    for x, y in second.points:  # on the ellipse centred (60, H - 170), semi-axes 40 and 20
        assert ((x - 60) / 40) ** 2 + ((y - (H - 170)) / 20) ** 2 == pytest.approx(1)
    assert isinstance(third, Polygon)
    # Turned 90° clockwise about (250, 150): centre (240, 170) in Tiled, long axis vertical.
    xs, ys = [p[0] for p in third.points], [p[1] for p in third.points]
    assert (min(xs), max(xs)) == pytest.approx((230, 250))
    assert (min(ys), max(ys)) == pytest.approx((H - 190, H - 150))


def test_polygons_are_relative_to_their_object_and_turn_about_it(tmp_path: Path) -> None:
    points = [{"x": 0, "y": 0}, {"x": 40, "y": 0}, {"x": 0, "y": -30}]
    plain = _object(1, "rock", 150, 200, polygon=points)
    turned = _object(2, "rock", 150, 200, polygon=points, rotation=90)
    level = load_level(_write(tmp_path, _map([plain, turned])))
    first, second = (o.shape for o in level.obstacles)
    assert isinstance(first, Polygon) and isinstance(second, Polygon)
    assert _same_ring(first.points, [(150, H - 200), (190, H - 200), (150, H - 170)])
    # 90° clockwise in Tiled: (40, 0) → (0, 40) and (0, -30) → (30, 0), y down.
    assert _same_ring(second.points, [(150, H - 200), (150, H - 240), (180, H - 200)])


def test_points_and_properties(tmp_path: Path) -> None:
    spawns = [
        _point(1, "spawn", 40, 40, species=("string", "guppy"), count=("int", 7)),
        _point(2, "shark", 300, 30),
        _point(3, "food", 160, 200, bites=("int", 4), radius=("float", 9.5)),
        _point(4, "leader", 280, 220),
    ]
    props: dict[str, tuple[str, Any]] = {
        "title": ("string", "Test"),
        "order": ("int", 9),
        "boundary": ("string", "bounce"),
        "current_x": ("float", 2.5),
        "current_y": ("float", -1),
        "food_to_eat": ("int", 4),
        "min_fish": ("int", 3),
        "time_limit": ("float", 60),
    }
    level = load_level(_write(tmp_path, _map(spawns=spawns, props=props)))
    assert (level.title, level.order, level.boundary) == ("Test", 9, "bounce")
    assert level.current == (2.5, -1.0)
    assert (level.spawns[0].species, level.spawns[0].count, level.spawns[0].radius) == (
        "guppy",
        7,
        60.0,
    )
    assert level.sharks == ((300, H - 30),)
    food = level.food[0]
    assert (food.x, food.y, food.bites, food.radius) == (160, H - 200, 4, 9.5)
    assert level.leader == (280, H - 220)
    assert (level.goal.food_to_eat, level.goal.min_fish, level.goal.time_limit) == (4, 3, 60.0)


def test_layer_offsets_and_groups_move_their_objects(tmp_path: Path) -> None:
    doc = _map()
    spawns = doc["layers"].pop()
    spawns["offsetx"], spawns["offsety"] = 5, 0
    group = {"id": 3, "name": "g", "type": "group", "opacity": 1, "visible": True}
    group.update(layers=[spawns], offsetx=10, offsety=-20)
    doc["layers"].append(group)
    spawn = load_level(_write(tmp_path, doc)).spawns[0]
    assert (spawn.x, spawn.y) == (55, H - 20)


def test_a_bare_name_finds_the_packaged_level() -> None:
    assert load_level("reef").path == load_level(load_level("reef").path).path


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


def _circle_polygon(n: int, radius: float) -> list[dict[str, float]]:
    turns = (2 * math.pi * k / n for k in range(n))
    return [{"x": radius * math.cos(t), "y": radius * math.sin(t)} for t in turns]


SPAWN = _point(7, "spawn", 40, 40, count=("int", 10))
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
        _spawns(_point(7, "spawn", 40, 40, count=("string", "many"))),
        ["layer spawns, object 7 \"o7\": count = 'many' must be an integer"],
    ),
    "int property many": (
        _spawns(_point(7, "spawn", 40, 40, count=("int", "many"))),
        ["layer spawns, object 7", "count = 'many' must be a whole number"],
    ),
    "count missing": (
        _spawns(_point(7, "spawn", 40, 40)),
        ["layer spawns, object 7", "count is missing"],
    ),
    "negative count": (
        _spawns(_point(7, "spawn", 40, 40, count=("int", -5))),
        ["object 7", "count = -5 must be at least 1"],
    ),
    "fractional count": (
        _spawns(_point(7, "spawn", 40, 40, count=("float", 2.5))),
        ["count = 2.5 must be an integer"],
    ),
    "huge count": (
        _spawns(_point(7, "spawn", 40, 40, count=("int", 10**9))),
        [f"count = 1000000000 must be at most {MAX_SPAWN_COUNT}"],
    ),
    "too many fish": (
        _spawns(*(_point(k, "spawn", 40, 40, count=("int", 5000)) for k in range(1, 6))),
        ["layer spawns: total count = 25000 must be at most 20000"],
    ),
    "zero-size map": (_set("width", 0), ["width = 0 must be at least 1 tile"]),
    "map width missing": (lambda doc: doc.pop("width"), ["width is missing"]),
    "map width text": (_set("height", "8"), ["height = '8' must be an integer"]),
    "isometric": (_set("orientation", "isometric"), ["orientation = 'isometric'"]),
    "infinite": (_set("infinite", True), ["infinite = True"]),
    "self-intersecting polygon": (
        _obstacles(_object(3, "rock", 100, 100, polygon=BOW_TIE)),
        ['layer obstacles, object 3 "o3"', "self-intersect"],
    ),
    "two-point polygon": (
        _obstacles(_object(3, "rock", 100, 100, polygon=BOW_TIE[:2])),
        ["object 3", "polygon = ", "must have 3 to"],
    ),
    "zero-width rectangle": (
        _obstacles(_object(3, "rock", 100, 100, height=20)),
        ["object 3", "width = 0 must be at least 1 px"],
    ),
    "obstacle outside": (
        _obstacles(_object(3, "rock", 1000, 100, width=20, height=20)),
        ["object 3", "wholly outside the 320×256 map"],
    ),
    "unknown obstacle class": (
        _obstacles(_object(3, "coral", 100, 100, width=20, height=20)),
        ["object 3", "class = 'coral' must be one of rock, plant"],
    ),
    "point obstacle": (
        _obstacles(_point(3, "rock", 100, 100)),
        ["object 3", "shape = 'point' must be a rectangle, ellipse or polygon"],
    ),
    "object x text": (
        _obstacles(_object(3, "rock", "ten", 100, width=20, height=20)),
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
    "missing spawns layer": (lambda doc: doc["layers"].pop(), ["layer spawns", "missing"]),
    "no spawn point": (_spawns(_point(7, "shark", 40, 40)), ["has no spawn point"]),
    "unknown layer": (_set("layers/0/name", "obstacle"), ["layer obstacle", "unknown object"]),
    "unknown point class": (
        _spawns(SPAWN, _point(8, "whale", 50, 50)),
        ["object 8", "class = 'whale' must be one of spawn, shark, food, leader"],
    ),
    "spawn as rectangle": (
        _spawns(_object(7, "spawn", 40, 40, width=10, height=10)),
        ["object 7", "must be a point"],
    ),
    "spawn outside": (
        _spawns(_point(7, "spawn", 400, 40, count=("int", 10))),
        ["object 7", "x, y = (400.0, 40.0) is outside the 320×256 map"],
    ),
    "food in a rock": (
        _both(
            _obstacles(_object(3, "rock", 100, 100, width=50, height=50)),
            _spawns(SPAWN, _point(8, "food", 120, 120)),
        ),
        ["object 8", "is inside obstacle 3 (rock)"],
    ),
    "centre in a rock": (
        _obstacles(_object(3, "rock", 100, 100, width=100, height=100)),
        ["no leader point, and the tank centre is inside obstacle 3"],
    ),
    "two leaders": (
        _spawns(SPAWN, _point(8, "leader", 50, 50), _point(9, "leader", 60, 60)),
        ["leaders = 2 must be at most 1"],
    ),
    "unknown spawn property": (
        _spawns(_point(7, "spawn", 40, 40, count=("int", 3), speed=("int", 3))),
        ["object 7", "unknown property 'speed'"],
    ),
    "food with no bites": (
        _spawns(SPAWN, _point(8, "food", 50, 50, bites=("int", 0))),
        ["object 8", "bites = 0 must be at least 1"],
    ),
    "external tileset": (
        _set("tilesets", [{"firstgid": 1, "source": "nowhere.tsj"}]),
        ["tilesets[0].source = 'nowhere.tsj' is an external tileset: embed it"],
    ),
    "tile layer of no tiles": (_add_layer(_tiles(width=0)), ["layer floor", "width, height"]),
    "tile data of the wrong length": (
        _add_layer(_tiles(data=[0, 1])),
        ["layer floor", "must be a list of the layer's 4 tile ids"],
    ),
    "compressed tile layer": (
        _add_layer(_tiles(encoding="base64", compression="zlib", data=ZLIB_TILES)),
        ["layer floor", "compression = 'zlib' is not read"],
    ),
    "tile layer in chunks": (
        _add_layer(_tiles(chunks=[{"x": 0, "y": 0, "width": 2, "height": 2, "data": [1]}])),
        ["layer floor", "chunks = ", "infinite maps"],
    ),
    "groups nested too deep": (_nest_in_groups(17), ["layer g: group layers nest too deep"]),
    "a 400-digit number": (_prop("current_x", "float", 10**400), ["must be a finite number"]),
    "property type a list": (
        _set("properties", [{"name": "order", "type": [], "value": 1}]),
        ["order.type = [] must be one of"],
    ),
    "strong current": (_prop("current_y", "float", 1e300), ["current_y = 1e+300 must be at most"]),
    "sub-pixel rectangle": (
        _obstacles(_object(3, "rock", 100, 100, width=1e-3, height=20)),
        ["object 3", "width = 0.001 must be at least 1 px"],
    ),
    "obstacle reaching far out": (
        _obstacles(_object(3, "rock", -1000, 100, width=1100, height=20)),
        ["object 3", "more than a map size outside the 320×256 map"],
    ),
    "too many obstacle vertices": (
        _obstacles(
            *(_object(k, "rock", 160, 60, polygon=_circle_polygon(256, 40)) for k in range(9))
        ),
        ["object 8", "vertices = 2304 of the obstacles up to this one are too many"],
    ),
    "huge spawn radius": (
        _spawns(_point(7, "spawn", 40, 40, count=("int", 3), radius=("float", 1e300))),
        ["object 7", "radius = 1e+300 must be at most 16384"],
    ),
    "crowded school": (
        _spawns(_point(7, "spawn", 160, 128, count=("int", 500), radius=("float", 5))),
        ["layer spawns: 500 fish and sharks would start in one 50 px square near x, y ="],
    ),
    "piled-up sharks": (
        _spawns(SPAWN, *(_point(10 + k, "shark", 200, 200) for k in range(101))),
        ["layer spawns: 101 fish and sharks would start in one 50 px square"],
    ),
    "broken embedded tileset": (
        _set("tilesets", [{"firstgid": 1, "name": "t"}]),
        ["not a valid Tiled map (KeyError"],
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_level_names_file_layer_object_and_field(tmp_path: Path, case: str) -> None:
    breaker, expected = BROKEN[case]
    doc = _map()
    text = breaker(doc)
    path = _write(tmp_path, text if isinstance(text, str) else doc)
    with pytest.raises(LevelError) as caught:
        load_level(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    assert "\n" not in message and "Traceback" not in message
    for fragment in expected:
        assert fragment in message


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LevelError, match=r"nope\.tmj: cannot read the file: No such file"):
        load_level(tmp_path / "nope.tmj")


def test_a_directory(tmp_path: Path) -> None:
    with pytest.raises(LevelError, match="cannot read the file"):
        load_level(tmp_path)


def test_an_unknown_level_name() -> None:
    with pytest.raises(LevelError, match=r"atlantis: no such level \(packaged levels: reef"):
        load_level("atlantis")


def test_a_huge_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.tmj"
    with path.open("wb") as file:
        file.truncate(64 * 1024 * 1024)  # sparse: costs no disk
    with pytest.raises(LevelError, match="is too big for a level"):
        load_level(path)


def test_a_huge_count_is_refused_before_anything_is_allocated(tmp_path: Path) -> None:
    doc = _map(spawns=[_point(7, "spawn", 40, 40, count=("int", 10**12))])
    path = _write(tmp_path, doc)
    tracemalloc.start()
    try:
        with pytest.raises(LevelError, match="must be at most"):
            load_level(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000


def test_level_error_is_a_value_error() -> None:
    assert issubclass(LevelError, ValueError)


def test_a_device_is_refused_unread() -> None:
    with pytest.raises(LevelError, match=r"^/dev/zero: cannot read the file: not a regular file"):
        load_level(Path("/dev/zero"))


def _template_map(tmp_path: Path, template: dict[str, Any], **extra: Any) -> Path:
    (tmp_path / "rock.tj").write_text(json.dumps({"type": "template", **template}))
    placed = {"id": 3, "template": "rock.tj", "x": 100, "y": 50, **extra}
    return _write(tmp_path, _map(obstacles=[placed]))


ROCK = {"name": "boulder", "type": "rock", "width": 40, "height": 30, "rotation": 0}


def test_an_object_template_fills_in_the_object(tmp_path: Path) -> None:
    level = load_level(_template_map(tmp_path, {"object": {**ROCK, "visible": True}}))
    assert level.obstacles[0].shape == Rect(120, H - 65, 40, 30)


def test_a_template_polygon_obeys_the_limits(tmp_path: Path) -> None:
    huge = {**ROCK, "visible": True, "polygon": _circle_polygon(300, 40)}
    with pytest.raises(LevelError, match=r'object 3 "boulder": polygon = .* must have 3 to 256'):
        load_level(_template_map(tmp_path, {"object": huge}))


def test_a_template_lacking_a_key_names_the_object(tmp_path: Path) -> None:
    with pytest.raises(
        LevelError, match=r'layer obstacles, object 3 "boulder": visible is missing'
    ):
        load_level(_template_map(tmp_path, {"object": ROCK}))


def test_a_tile_object_template_is_refused(tmp_path: Path) -> None:
    tile = {"object": {**ROCK, "visible": True, "gid": 1}, "tileset": {"source": "/dev/zero"}}
    with pytest.raises(LevelError, match=r"template 'rock\.tj': a tile object's template"):
        load_level(_template_map(tmp_path, tile))


def test_a_template_that_is_a_device_is_refused_unread(tmp_path: Path) -> None:
    placed = {"id": 3, "template": "/dev/zero", "x": 100, "y": 50}
    path = _write(tmp_path, _map(obstacles=[placed]))
    with pytest.raises(
        LevelError, match="template '/dev/zero': cannot read the file: not a regular"
    ):
        load_level(path)


def test_thousands_of_points_and_obstacles_load_in_well_under_a_second(tmp_path: Path) -> None:
    """Every point is checked against every obstacle: vectorised, 500 × 2000 takes ~0.1 s
    (it took ~5 s point by point)."""
    rocks = [_object(k, "rock", 4 + k % 25 * 12, 4 + k // 25 * 12, width=3, height=3)
             for k in range(1, 501)]  # fmt: skip
    food = [_point(1000 + k, "food", 9 + k % 50 * 6, 9 + k // 50 * 6) for k in range(2000)]
    path = _write(tmp_path, _map(rocks, [SPAWN, *food]))
    start = time.perf_counter()
    level = load_level(path)
    assert time.perf_counter() - start < 1.0
    assert (len(level.obstacles), len(level.food)) == (500, 2000)
