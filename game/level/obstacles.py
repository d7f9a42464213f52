"""Obstacles: rectangles, ellipses and polygons of the obstacles layer as shoal's shapes.

Tiled's coordinates have y down from the top, the world's y up from the bottom; Tiled turns
a rectangle or ellipse clockwise about its top-left corner, a polygon about its first point.
"""

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pytiled_parser import tiled_object as tiled

from shoal.components.obstacle import Circle, Point, Polygon, Rect, Shape
from shoal.game.level.limits import MAX_OBSTACLE_VERTICES, MIN_OBSTACLE_SIZE
from shoal.game.level.messages import LevelError, Where, clip, quote
from shoal.game.level.model import ELLIPSE_VERTICES, OBSTACLE_KINDS, LevelObstacle
from shoal.game.level.properties import check_names, class_of

Located = tuple[Where, tiled.TiledObject, tuple[float, float]]
"""An object with where it is (for messages) and its layer's pixel offset."""
_MAX_SHAPE_MESSAGE = 200  # a shape's own message quotes all its points


@dataclass(frozen=True, slots=True)
class Frame:
    """What converting an object needs: the tank's size and the obstacles read so far."""

    width: float
    height: float
    obstacles: tuple[tuple[int, LevelObstacle], ...] = ()


def read_obstacles(objects: Sequence[Located], frame: Frame) -> Iterator[tuple[int, LevelObstacle]]:
    """The obstacles of the obstacles layer's objects, with their object ids."""
    vertices = 0
    for here, obj, offset in objects:
        check_names(obj.properties, (), "property", here)
        kind = class_of(obj) or OBSTACLE_KINDS[0]
        if kind not in OBSTACLE_KINDS:
            here.fail("class", kind, f"must be one of {', '.join(OBSTACLE_KINDS)}", word=True)
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
            raise here.error(clip(str(error), _MAX_SHAPE_MESSAGE)) from error
        _check_near_tank(shape, obj, frame, here)
        yield obj.id, LevelObstacle(shape, kind)


def _vertex_count(obj: tiled.TiledObject) -> int:
    """Vertices of the shape an obstacle object makes (a rectangle or circle counts 4)."""
    if isinstance(obj, tiled.Polygon):
        return len(obj.points)
    if isinstance(obj, tiled.Ellipse) and obj.size.width != obj.size.height:
        return ELLIPSE_VERTICES
    return 4


def _shape(obj: tiled.TiledObject, offset: tuple[float, float], frame: Frame, here: Where) -> Shape:
    """The obstacle shape of a rectangle, ellipse or polygon object, world coordinates."""
    x, y = obj.coordinates.x + offset[0], obj.coordinates.y + offset[1]
    if isinstance(obj, tiled.Polygon):
        return Polygon(to_world(frame, x, y, p.x, p.y, obj.rotation) for p in obj.points)
    if not isinstance(obj, tiled.Rectangle | tiled.Ellipse):
        here.fail("shape", shape_name(obj), "must be a rectangle, ellipse or polygon")
    w, h = obj.size.width, obj.size.height
    for name, value in (("width", w), ("height", h)):
        if not value >= MIN_OBSTACLE_SIZE:
            here.fail(name, value, f"must be at least {MIN_OBSTACLE_SIZE:g} px")
    cx, cy = to_world(frame, x, y, w / 2, h / 2, obj.rotation)
    if isinstance(obj, tiled.Rectangle):
        return Rect(cx, cy, w, h, _counter_clockwise(obj.rotation))
    if w == h:
        return Circle(cx, cy, w / 2)
    return Polygon(
        to_world(frame, x, y, w / 2 * (1 + math.cos(t)), h / 2 * (1 + math.sin(t)), obj.rotation)
        for t in (2 * math.pi * k / ELLIPSE_VERTICES for k in range(ELLIPSE_VERTICES))
    )


def to_world(frame: Frame, x: float, y: float, u: float, v: float, rotation: float) -> Point:
    """Point (u, v) of an object at Tiled (x, y) turned `rotation` degrees clockwise, in world
    coordinates: Tiled's y points down from the top, the world's up from the bottom."""
    angle = math.radians(rotation)
    c, s = math.cos(angle), math.sin(angle)
    return x + u * c - v * s, frame.height - (y + u * s + v * c)


def _counter_clockwise(rotation: float) -> float:
    """Tiled's clockwise degrees (y down) as counter-clockwise degrees (y up), in [-180, 180)."""
    return (180.0 - rotation) % 360.0 - 180.0


def shape_name(obj: tiled.TiledObject) -> str:
    """The object's kind of shape as Tiled's tools call it ("point", "rectangle"...)."""
    return type(obj).__name__.lower()


def _check_near_tank(shape: Shape, obj: tiled.TiledObject, frame: Frame, here: Where) -> None:
    """An obstacle may poke out of the tank, but not lie wholly outside it, nor reach more
    than the tank's own size beyond a wall (the flock's obstacle grid spans that much)."""
    x0, y0, x1, y1 = _bounds(shape)
    w, h = frame.width, frame.height
    tiled_xy = (obj.coordinates.x, obj.coordinates.y)
    size = f"{w:g}×{h:g}"
    if x1 < 0 or y1 < 0 or x0 > w or y0 > h:
        here.fail("x, y", tiled_xy, f"put the obstacle wholly outside the {size} map")
    if not (-w <= x0 and x1 <= 2 * w and -h <= y0 and y1 <= 2 * h):
        extent = quote((x0, y0, x1, y1))
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


def inside(shape: Shape, x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> _Mask:
    """Which points (x, y) are inside the shape (for level checks; edges may go either way).

    Vectorised over the points: a level may hold thousands of points and obstacles.
    """
    # Shapes far out of the tank overflow to inf, which still compares the right way.
    with np.errstate(all="ignore"):
        if isinstance(shape, Circle):
            return np.asarray(np.hypot(x - shape.x, y - shape.y) <= shape.radius)
        ring = shape.corners() if isinstance(shape, Rect) else shape.points
        found = np.zeros(x.shape, bool)
        for (ax, ay), (bx, by) in zip(ring, (*ring[1:], ring[0]), strict=True):
            # Even-odd rule: count the edges a ray to +x crosses (a level edge never does).
            if ay != by:
                found ^= ((ay > y) != (by > y)) & (x < ax + (y - ay) * (bx - ax) / (by - ay))
    return found


def blockers(points: Sequence[Point], frame: Frame) -> list[str | None]:
    """For each point, the first obstacle object (id and kind) that covers it, if any."""
    xy = np.asarray(points, float).reshape(-1, 2)
    found: list[str | None] = [None] * len(xy)
    free = np.ones(len(xy), bool)
    for ident, obstacle in frame.obstacles:
        hit = free & inside(obstacle.shape, xy[:, 0], xy[:, 1])
        for k in np.flatnonzero(hit):
            found[k] = f"{ident} ({obstacle.kind})"
        free &= ~hit
    return found
