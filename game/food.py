"""Food in the tank: pellets that sink, land on rocks or slide off them, and free spots.

A dropped pellet carries a `Sinking` component instead of a `Velocity`, so the flock's own
food drift (which knows the floor but not the rocks) leaves it alone and `sink_food` moves
it: down at `speed`; on a rock's flat-enough top it rests; on a slope it slides down along
the surface until it rests on a flatter part, on the floor or falls free. Pellets are few,
so this is plain Python per pellet, never per fish.
"""

import math
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
