"""Points of the spawns layer: where the schools, sharks, food and the leader start.

Every point lies in the tank and outside every obstacle; together they keep within the
limits that keep a step's cost near the packaged levels' (fish, sharks, food, crowding).
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pytiled_parser import tiled_object as tiled

from shoal.components.obstacle import Point
from shoal.game.level.limits import (
    CROWD_CELL,
    MAX_BITES,
    MAX_CROWD,
    MAX_FOOD,
    MAX_RADIUS,
    MAX_SPAWN_COUNT,
    MAX_TOTAL_FISH,
)
from shoal.game.level.messages import Where, quote
from shoal.game.level.model import POINT_CLASSES, FoodDrop, Home, SpawnPoint
from shoal.game.level.obstacles import Frame, Located, blockers, shape_name, to_world
from shoal.game.level.properties import check_names, class_of, prop_float, prop_int, prop_text

_POINT_PROPERTIES = {
    "spawn": ("species", "count", "radius"),
    "food": ("bites", "radius"),
    "shark": (),
    "leader": (),
    "home": ("radius",),
}
HOME_RADIUS = 80.0
"""px: a home's radius when its point does not say."""
MIN_HOME_RADIUS = 20.0
"""px: a smaller home would hold no school (a fish is 24 px long)."""


@dataclass(slots=True)
class Placed:
    """The point objects of the spawns layer, gathered."""

    spawns: list[SpawnPoint] = field(default_factory=list)
    sharks: list[tuple[float, float]] = field(default_factory=list)
    food: list[FoodDrop] = field(default_factory=list)
    leaders: list[tuple[float, float]] = field(default_factory=list)
    homes: list[Home] = field(default_factory=list)


def place_points(objects: Sequence[Located], frame: Frame, where: Where) -> Placed:
    """The spawns layer's points, each checked, and their totals."""
    placed = Placed()
    points: list[tuple[Where, Point, Point]] = []
    for here, obj, offset in objects:
        kind = class_of(obj)
        if kind not in POINT_CLASSES:
            here.fail("class", kind, f"must be one of {', '.join(POINT_CLASSES)}", word=True)
        check_names(obj.properties, _POINT_PROPERTIES[kind], "property", here)
        tiled_xy, (x, y) = _point(obj, offset, frame, here)
        points.append((here, tiled_xy, (x, y)))
        _place(placed, kind, obj.properties, (x, y), here)
    _check_clear(points, frame)
    _check_totals(placed, where)
    return placed


def _place(
    placed: Placed, kind: str, props: dict[str, Any], xy: tuple[float, float], here: Where
) -> None:
    x, y = xy
    if kind == "spawn":
        count = prop_int(props, "count", None, here, low=1, high=MAX_SPAWN_COUNT)
        species = prop_text(props, "species", "fish", here)
        radius = prop_float(props, "radius", 60.0, here, low=1.0, high=MAX_RADIUS)
        placed.spawns.append(SpawnPoint(x, y, species, count, radius))
    elif kind == "food":
        if len(placed.food) >= MAX_FOOD:
            here.fail("food points", len(placed.food) + 1, f"are too many (at most {MAX_FOOD})")
        bites = prop_int(props, "bites", 3, here, low=1, high=MAX_BITES)
        radius = prop_float(props, "radius", 6.0, here, low=1.0, high=MAX_RADIUS)
        placed.food.append(FoodDrop(x, y, bites, radius))
    elif kind == "home":
        radius = prop_float(props, "radius", HOME_RADIUS, here, low=MIN_HOME_RADIUS,
                            high=MAX_RADIUS)  # fmt: skip
        placed.homes.append(Home(x, y, radius))
    else:
        (placed.sharks if kind == "shark" else placed.leaders).append((x, y))


def _point(
    obj: tiled.TiledObject, offset: tuple[float, float], frame: Frame, here: Where
) -> tuple[Point, Point]:
    """Tiled and world position of a point object inside the tank."""
    if not isinstance(obj, tiled.Point):
        here.fail("shape", shape_name(obj), "must be a point (insert it with Tiled's point tool)")
    tx, ty = obj.coordinates.x + offset[0], obj.coordinates.y + offset[1]
    x, y = to_world(frame, tx, ty, 0.0, 0.0, 0.0)
    if not (0 <= x <= frame.width and 0 <= y <= frame.height):
        here.fail("x, y", (tx, ty), f"is outside the {frame.width:g}×{frame.height:g} map")
    return (tx, ty), (x, y)


def _check_clear(points: Sequence[tuple[Where, Point, Point]], frame: Frame) -> None:
    """No point inside an obstacle: names the first such point (Tiled position) in order."""
    found = blockers([world for _, _, world in points], frame)
    for (here, tiled_xy, _), blocker in zip(points, found, strict=True):
        if blocker is not None:
            here.fail("x, y", tiled_xy, f"is inside obstacle {blocker}")


def _check_totals(placed: Placed, where: Where) -> None:
    if not placed.spawns:
        raise where.error("has no spawn point (a point object of class 'spawn')")
    total = sum(s.count for s in placed.spawns) + len(placed.sharks)
    if total > MAX_TOTAL_FISH:
        where.fail("fish and sharks", total, f"are too many (at most {MAX_TOTAL_FISH} in all)")
    if len(placed.leaders) > 1:
        where.fail("leaders", len(placed.leaders), "must be at most 1")
    if len(placed.homes) > 1:
        where.fail("homes", len(placed.homes), "must be at most 1")


def check_crowding(placed: Placed, frame: Frame, boundary: str, where: Where) -> None:
    """The fish and sharks do not start more than `MAX_CROWD` to a `CROWD_CELL` square."""
    xy = _start_positions(placed, frame, boundary)
    cells = np.ceil(np.array([frame.width, frame.height]) / CROWD_CELL).astype(np.int64)
    ij = np.minimum((xy // CROWD_CELL).astype(np.int64), cells - 1)
    counts = np.bincount(ij[:, 0] * cells[1] + ij[:, 1], minlength=int(cells.prod()))
    worst = int(np.argmax(counts))
    if counts[worst] > MAX_CROWD:
        # The square's middle in Tiled's coordinates (y down), to find it in the editor.
        x, y = (worst // cells[1] + 0.5) * CROWD_CELL, (worst % cells[1] + 0.5) * CROWD_CELL
        near = quote((round(x), round(frame.height - y)))
        raise where.error(
            f"{counts[worst]} fish and sharks would start in one {CROWD_CELL:g} px square near "
            f"x, y = {near} (at most {MAX_CROWD}: give the spawn points more radius or fewer fish)"
        )


def _start_positions(placed: Placed, frame: Frame, boundary: str) -> np.ndarray[Any, Any]:
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


def leader_start(placed: Placed, frame: Frame, where: Where) -> tuple[float, float]:
    """The leader point, or the tank centre if it is clear."""
    if placed.leaders:
        return placed.leaders[0]
    x, y = frame.width / 2, frame.height / 2
    blocker = blockers([(x, y)], frame)[0]
    if blocker is not None:
        raise where.error(f"no leader point, and the tank centre is inside obstacle {blocker}")
    return x, y
