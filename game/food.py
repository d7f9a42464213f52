"""Food in the tank: pellets that sink, land on rocks or slide off them, and free spots.

A dropped pellet carries a `Sinking` component instead of a `Velocity`, so the flock's own
food drift (which knows the floor but not the rocks) leaves it alone and `sink_food` moves
it: down at `speed`; on a rock's flat-enough top it rests; on a slope it slides down along
the surface until it rests on a flatter part, on the floor or falls free. Pellets are few,
so this is plain Python per pellet, never per fish. A pellet dropped over another that sinks
or has sunk goes beside it (`drop_spot`): dropped pellets all sink at one speed, so clicks
on one spot would stack them in a column that lands as one pellet.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

import esper
import numpy as np

from shoal.components import Food, Position
from shoal.systems import ObstacleField, inside_obstacle
from shoal.systems.obstacles.field import surface

RESTING_SLOPE = 0.6
"""A pellet rests on a surface whose outward normal points at least this much upwards (the
normal's y: 1 flat, 0.6 about 53° of slope); it slides down steeper ones."""
SEARCH_RINGS = 24
"""Rings of candidate points `free_spot` tries round a point when pushing it out fails."""
SIDE_STEPS = 12
"""Spots `drop_spot` tries on each side of a click, a pellet's width (and `SIDE_GAP`) apart."""
SIDE_GAP = 2.0
"""px between a pellet dropped beside another and it."""


@dataclass(slots=True)
class Sinking:
    """A pellet still moving: it sinks at `speed` px/s (0 once it rests)."""

    speed: float


@dataclass(frozen=True, slots=True)
class TankSpace:
    """What food needs to know of the tank: its size, its edges and its rocks."""

    width: float
    height: float
    wraps: bool
    field: ObstacleField


def sink_food(tank: TankSpace, dt: float) -> None:
    """Move every sinking pellet of the current esper world by one step of `dt` seconds."""
    for _, (sinking, position, food) in esper.get_components(Sinking, Position, Food):
        if sinking.speed > 0.0:
            x, y, speed = _sink(tank, position.x, position.y, food.radius, sinking.speed, dt)
            position.xy = (x, y)
            sinking.speed = speed


def _sink(tank: TankSpace, x: float, y: float, radius: float, speed: float, dt: float
          ) -> tuple[float, float, float]:  # fmt: skip
    """One step of one pellet: its new x, y and speed (0: resting)."""
    start = (x, y)
    y -= speed * dt
    if tank.wraps:
        x, y = x % tank.width, y % tank.height
    elif y <= radius:  # the floor
        return min(max(x, radius), tank.width - radius), radius, 0.0
    if not len(tank.field):
        return x, y, speed
    near = surface(tank.field, [(x, y)])
    if near.distance[0] >= radius:
        return x, y, speed
    nx, ny = near.normals[0]
    px, py = near.points[0]
    x, y = px + nx * radius, py + ny * radius  # on the surface, not in it
    if ny >= RESTING_SLOPE:
        return x, y, 0.0
    if ny < 0.0:  # under an overhang: slip off sideways, then fall free of it
        x += math.copysign(speed * dt, nx)
    else:  # a slope: move along it, downhill, as far as the sink would have gone
        tx, ty = (ny, -nx) if nx > 0.0 else (-ny, nx)
        x, y = x + tx * speed * dt, y + ty * speed * dt
    if math.dist(start, (x, y)) < 0.25 * speed * dt:
        return x, y, 0.0  # wedged in a dip between two slopes: it rests there
    return x, y, speed


def free_spot(tank: TankSpace, x: float, y: float, clearance: float) -> tuple[float, float]:
    """The point nearest (x, y) inside the tank and at least `clearance` px from any rock.

    A point already free comes back unchanged (clamped into the tank). One inside or too
    near a rock is pushed out along the nearest surface's normal; where that lands in
    another rock (rocks that overlap), rings of points round it are tried, nearest first.
    """
    x, y = _into_tank(tank, x, y, clearance)
    if _free(tank, x, y, clearance):
        return x, y
    near = surface(tank.field, [(x, y)])
    nx, ny = near.normals[0]
    px, py = near.points[0]
    pushed = _into_tank(tank, px + nx * (clearance + 1.0), py + ny * (clearance + 1.0), clearance)
    if _free(tank, *pushed, clearance):
        return pushed
    step = max(clearance, 4.0)
    for ring in range(1, SEARCH_RINGS + 1):
        count = 8 * ring
        angles = np.linspace(0.0, 2.0 * math.pi, count, endpoint=False)
        for angle in angles:
            cx, cy = _into_tank(tank, x + ring * step * math.cos(angle),
                                y + ring * step * math.sin(angle), clearance)  # fmt: skip
            if _free(tank, cx, cy, clearance):
                return cx, cy
    return x, y  # no free spot near: a tank made of rock (the level loader refuses those)


def drop_spot(tank: TankSpace, x: float, y: float, radius: float) -> tuple[float, float]:
    """Where a pellet of `radius` dropped at (x, y) goes, among the pellets of the current
    esper world: the free spot nearest (x, y) (`free_spot`), unless it would sink onto a
    dropped pellet or lie on any: then beside them (see `beside`)."""
    pellets = [(p.x, p.y, food.radius, esper.has_component(entity, Sinking))
               for entity, (food, p) in esper.get_components(Food, Position)]  # fmt: skip
    return beside(tank, x, y, radius, pellets)


def beside(tank: TankSpace, x: float, y: float, radius: float,
           pellets: Sequence[tuple[float, float, float, bool]]) -> tuple[float, float]:  # fmt: skip
    """The free spot nearest (x, y) for a pellet of `radius`, moved sideways till it is
    clear of `pellets` ((x, y, radius, dropped) each).

    A spot is taken when it overlaps a pellet, or lies over a dropped one (sinking, or
    sunk: pellets sink at one speed and stop where the one before stopped) or less than a
    pellet's width above it; in a tank that wraps, dropped pellets sink round and round,
    so the whole column is taken. Then spots a pellet's width apart are tried on both sides,
    nearest first, the click's side of the pellet it hit first; if all `SIDE_STEPS` each way
    are taken, the free spot itself (a crowded tank: food where the player clicked).
    """
    first = free_spot(tank, x, y, radius)
    hit = _taken(tank, *first, radius, pellets)
    if hit is None:
        return first
    step = 2.0 * radius + SIDE_GAP
    side = 1.0 if _across(tank, x - hit[0]) >= 0.0 else -1.0
    for k in range(1, SIDE_STEPS + 1):
        for direction in (side, -side):
            spot = free_spot(tank, x + direction * k * step, y, radius)
            if _taken(tank, *spot, radius, pellets) is None:
                return spot
    return first


def _taken(tank: TankSpace, x: float, y: float, radius: float,
           pellets: Sequence[tuple[float, float, float, bool]]
           ) -> tuple[float, float, float, bool] | None:  # fmt: skip
    """The first pellet that takes the spot (x, y) from a new one of `radius` (else None)."""
    for pellet in pellets:
        px, py, pr, dropped = pellet
        apart = radius + pr
        dx = _across(tank, x - px)
        if abs(dx) >= apart:
            continue
        if math.hypot(dx, y - py) < apart:
            return pellet
        if dropped and (tank.wraps or py < y + apart):
            return pellet
    return None


def _across(tank: TankSpace, dx: float) -> float:
    """A horizontal offset, the short way round in a tank that wraps."""
    return (dx + tank.width / 2) % tank.width - tank.width / 2 if tank.wraps else dx


def _free(tank: TankSpace, x: float, y: float, clearance: float) -> bool:
    if not len(tank.field):
        return True
    if inside_obstacle(tank.field, [(x, y)])[0]:
        return False
    return bool(surface(tank.field, [(x, y)]).distance[0] >= clearance)


def _into_tank(tank: TankSpace, x: float, y: float, clearance: float) -> tuple[float, float]:
    if tank.wraps:
        return x % tank.width, y % tank.height
    margin_x = min(clearance, tank.width / 2)
    margin_y = min(clearance, tank.height / 2)
    return (min(max(x, margin_x), tank.width - margin_x),
            min(max(y, margin_y), tank.height - margin_y))  # fmt: skip
