"""Levels: the packaged Tiled maps load, are sound and playable; conversion and errors.

No window and no OpenGL: a level loads and validates on its own.
"""

import math
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from shoal.components import BOUNDARY_MODES, Circle, Polygon, Rect
from shoal.game.level import (
    ELLIPSE_VERTICES,
    OBSTACLE_KINDS,
    Level,
    level_names,
    load_level,
)
from shoal.systems import compile_field, inside_obstacle
from shoal.systems.obstacles.field import surface

from level_maps import H, point, tiled_map, tiled_object, write

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
    # Every packaged level is won by bringing fish home, in a limited time, with a few
    # pellets to lure the school (docs/game.md).
    fish = sum(s.count for s in level.spawns)
    assert level.home is not None and level.home.radius >= 20
    assert 0 < level.goal.fish_home < fish and level.goal.food_to_eat == 0
    assert level.goal.min_fish <= level.goal.fish_home
    assert level.goal.time_limit > 0
    assert level.food_drops is not None and 0 < level.food_drops <= 5


@pytest.mark.slow
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
    assert (reef.title, len(reef.sharks), reef.goal.fish_home) == ("Coral Reef", 0, 45)
    assert {o.kind for o in reef.obstacles} == {"rock", "plant"}
    assert len(kelp.sharks) == 3
    assert sum(isinstance(o.shape, Polygon) and o.kind == "plant" for o in kelp.obstacles) >= 6
    assert len(caves.sharks) == 2
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
    limits = [level.goal.time_limit for level in levels]
    assert limits == sorted(limits)


def _points(level: Level) -> list[tuple[float, float]]:
    return [
        *((s.x, s.y) for s in level.spawns),
        *((f.x, f.y) for f in level.food),
        *level.sharks,
        level.leader,
        *([] if level.home is None else [(level.home.x, level.home.y)]),
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
def _close(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return len(a) == len(b) and all(
        math.isclose(p, q, abs_tol=1e-9) for p, q in zip(a, b, strict=True)
    )


def _same_ring(
    points: tuple[tuple[float, float], ...], expected: list[tuple[float, float]]
) -> bool:
    return sorted(tuple(round(c, 9) for c in p) for p in points) == sorted(expected)


def test_a_minimal_map_loads_with_defaults(tmp_path: Path) -> None:
    level = load_level(write(tmp_path, tiled_map()))
    assert (level.name, level.title, level.order) == ("test", "test", 0)
    assert (level.width, level.height, level.background) == (320, 256, (16, 32, 48))
    assert (level.boundary, level.current, level.obstacles) == ("contain", (0.0, 0.0), ())
    assert level.spawns[0].x == 40 and level.spawns[0].y == H - 40
    assert level.spawns[0].species == "fish" and level.spawns[0].count == 10
    assert level.leader == (160, 128)  # no leader point: the tank centre


def test_rectangle_rotated_90_degrees_about_its_top_left_corner(tmp_path: Path) -> None:
    # Tiled: top-left (100, 50), 40 × 20, turned 90° clockwise (y down) about that corner:
    # its corners are (100, 50), (100, 90), (80, 90), (80, 50) in Tiled's coordinates.
    rect = tiled_object(1, "rock", 100, 50, width=40, height=20, rotation=90)
    shape = load_level(write(tmp_path, tiled_map([rect]))).obstacles[0].shape
    assert isinstance(shape, Rect)
    assert _close((shape.x, shape.y, shape.width, shape.height), (90, H - 70, 40, 20))
    assert shape.angle_degrees == -90  # counter-clockwise, y up
    assert _same_ring(shape.corners(), [(100, H - 50), (100, H - 90), (80, H - 90), (80, H - 50)])


def test_rectangle_rotated_30_degrees(tmp_path: Path) -> None:
    rect = tiled_object(1, "rock", 200, 100, width=60, height=20, rotation=30)
    shape = load_level(write(tmp_path, tiled_map([rect]))).obstacles[0].shape
    assert isinstance(shape, Rect)
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    # The top-right corner in Tiled: (200, 100) + 60 · (cos 30°, sin 30°), y down.
    top_right = (200 + 60 * c, H - (100 + 60 * s))
    assert any(_close(corner, top_right) for corner in shape.corners())
    assert any(_close(corner, (200, H - 100)) for corner in shape.corners())
    assert shape.angle_degrees == pytest.approx(-30)


def test_ellipses_become_circles_or_polygons(tmp_path: Path) -> None:
    circle = tiled_object(1, "plant", 200, 100, width=60, height=60, ellipse=True)
    wide = tiled_object(2, "rock", 20, 150, width=80, height=40, ellipse=True)
    turned = tiled_object(3, "rock", 250, 150, width=40, height=20, ellipse=True, rotation=90)
    level = load_level(write(tmp_path, tiled_map([circle, wide, turned])))
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
    plain = tiled_object(1, "rock", 150, 200, polygon=points)
    turned = tiled_object(2, "rock", 150, 200, polygon=points, rotation=90)
    level = load_level(write(tmp_path, tiled_map([plain, turned])))
    first, second = (o.shape for o in level.obstacles)
    assert isinstance(first, Polygon) and isinstance(second, Polygon)
    assert _same_ring(first.points, [(150, H - 200), (190, H - 200), (150, H - 170)])
    # 90° clockwise in Tiled: (40, 0) → (0, 40) and (0, -30) → (30, 0), y down.
    assert _same_ring(second.points, [(150, H - 200), (150, H - 240), (180, H - 200)])


def test_points_and_properties(tmp_path: Path) -> None:
    spawns = [
        point(1, "spawn", 40, 40, species=("string", "guppy"), count=("int", 7)),
        point(2, "shark", 300, 30),
        point(3, "food", 160, 200, bites=("int", 4), radius=("float", 9.5)),
        point(4, "leader", 280, 220),
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
    level = load_level(write(tmp_path, tiled_map(spawns=spawns, props=props)))
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
    doc = tiled_map()
    spawns = doc["layers"].pop()
    spawns["offsetx"], spawns["offsety"] = 5, 0
    group = {"id": 3, "name": "g", "type": "group", "opacity": 1, "visible": True}
    group.update(layers=[spawns], offsetx=10, offsety=-20)
    doc["layers"].append(group)
    spawn = load_level(write(tmp_path, doc)).spawns[0]
    assert (spawn.x, spawn.y) == (55, H - 20)


def test_a_bare_name_finds_the_packaged_level() -> None:
    assert load_level("reef").path == load_level(load_level("reef").path).path
