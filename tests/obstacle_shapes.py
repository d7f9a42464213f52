"""Obstacle shapes for the obstacle tests: a concave cup, random stars and shapes
(hypothesis), and brute-force references for inside, distance and outline."""

import math

import esper
import numpy as np
import numpy.typing as npt
from hypothesis import assume
from hypothesis import strategies as st

from shoal.components import Circle, Obstacle, Polygon, Rect, Shape

Points = npt.NDArray[np.float64]
W, H = 400.0, 300.0
CUP = ((0, 0), (90, 0), (90, 90), (60, 90), (60, 30), (30, 30), (30, 90), (0, 90))


# --- shapes and brute-force references -------------------------------------------------
def cup(x: float, y: float, size: float, angle: float, wall: float = 1 / 3) -> Polygon:
    """A U (concave), `size` wide, its notch `1 - 2·wall` of that, turned by `angle` rad."""
    a, b = size * wall, size * (1 - wall)
    local = [(0, 0), (size, 0), (size, size), (b, size), (b, a), (a, a), (a, size), (0, size)]
    c, s = math.cos(angle), math.sin(angle)
    h = size / 2
    return Polygon(
        [(x + (u - h) * c - (v - h) * s, y + (u - h) * s + (v - h) * c) for u, v in local]
    )


def outline(shape: Shape) -> Points:
    """The polygon's vertices (rectangles by their own analytic corners)."""
    if isinstance(shape, Rect):
        c, s = (
            math.cos(math.radians(shape.angle_degrees)),
            math.sin(math.radians(shape.angle_degrees)),
        )
        hw, hh = shape.width / 2, shape.height / 2
        return np.array(
            [
                (shape.x + u * c - v * s, shape.y + u * s + v * c)
                for u, v in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))
            ]
        )
    assert isinstance(shape, Polygon)
    return np.array(shape.points)


def brute_distance(shape: Shape, p: Points) -> float:
    """Unsigned distance from p to the shape's boundary."""
    if isinstance(shape, Circle):
        return abs(math.hypot(p[0] - shape.x, p[1] - shape.y) - shape.radius)
    a = outline(shape)
    e = np.roll(a, -1, axis=0) - a
    t = np.clip(np.einsum("ij,ij->i", p - a, e) / np.einsum("ij,ij->i", e, e), 0.0, 1.0)
    return float(np.hypot(*(p - (a + t[:, None] * e)).T).min())


def in_box(shape: Shape, p: Points) -> bool:
    """p lies within the shape's bounding box."""
    if isinstance(shape, Circle):
        return bool(abs(p[0] - shape.x) <= shape.radius and abs(p[1] - shape.y) <= shape.radius)
    ring = outline(shape)
    return bool(np.all(p >= ring.min(axis=0)) and np.all(p <= ring.max(axis=0)))


def brute_inside(shape: Shape, p: Points) -> bool:
    """Inside or on the boundary (see `inside_many`)."""
    return bool(inside_many(shape, np.asarray(p, float)[None, :])[0])


def inside_many(shape: Shape, points: Points) -> npt.NDArray[np.bool_]:
    """Inside or on the boundary: analytic for circles and rectangles, even-odd rule else."""
    x, y = points[:, 0], points[:, 1]
    if isinstance(shape, Circle):
        result: npt.NDArray[np.bool_] = (x - shape.x) ** 2 + (y - shape.y) ** 2 <= shape.radius**2
        return result
    if isinstance(shape, Rect):
        angle = math.radians(shape.angle_degrees)
        c, s = math.cos(angle), math.sin(angle)
        u, v = (x - shape.x) * c + (y - shape.y) * s, -(x - shape.x) * s + (y - shape.y) * c
        result = (np.abs(u) <= shape.width / 2) & (np.abs(v) <= shape.height / 2)
        return result
    ring = outline(shape)
    inside = np.zeros(len(points), np.bool_)
    for (ax, ay), (bx, by) in zip(ring, np.roll(ring, -1, axis=0), strict=True):
        with np.errstate(divide="ignore", invalid="ignore"):
            crosses = ((ay > y) != (by > y)) & (x < ax + (bx - ax) * (y - ay) / (by - ay))
        inside ^= crosses
    result = inside | (distances_to(shape, points) == 0.0)
    return result


def distances_to(shape: Shape, points: Points) -> Points:
    """Unsigned distance from each point to the shape's boundary."""
    if isinstance(shape, Circle):
        return np.abs(np.hypot(points[:, 0] - shape.x, points[:, 1] - shape.y) - shape.radius)
    a = outline(shape)[None, :, :]
    e = np.roll(a, -1, axis=1) - a
    rel = points[:, None, :] - a
    t = np.clip((rel * e).sum(axis=2) / (e * e).sum(axis=2), 0.0, 1.0)
    gap = rel - t[:, :, None] * e
    result: Points = np.hypot(gap[:, :, 0], gap[:, :, 1]).min(axis=1)
    return result


@st.composite
def star(draw: st.DrawFn, size: float = 60.0) -> Polygon:
    """A star-shaped polygon (often concave) round a random centre."""
    n = draw(st.integers(3, 10))
    angles = np.sort(draw(st.lists(st.floats(0, 2 * math.pi), min_size=n, max_size=n)))
    assume(np.all(np.diff(np.append(angles, angles[0] + 2 * math.pi)) > 0.1))
    radii = np.array(draw(st.lists(st.floats(0.25, 1.0), min_size=n, max_size=n))) * size
    x, y = draw(st.floats(0, W)), draw(st.floats(0, H))
    try:
        return Polygon(np.column_stack((x + radii * np.cos(angles), y + radii * np.sin(angles))))
    except ValueError:
        assume(False)
        raise


@st.composite
def shapes(draw: st.DrawFn, size: float = 60.0) -> Shape:
    """Any obstacle shape, up to about `size` across, somewhere in the W × H world."""
    x, y = draw(st.floats(0, W)), draw(st.floats(0, H))
    kind = draw(st.sampled_from(["circle", "rect", "cup", "star"]))
    if kind == "circle":
        return Circle(x, y, draw(st.floats(2, size / 2)))
    if kind == "rect":
        return Rect(
            x, y, draw(st.floats(2, size)), draw(st.floats(2, size)), draw(st.floats(-360, 360))
        )
    if kind == "cup":
        return cup(x, y, draw(st.floats(6, size)), draw(st.floats(0, 2 * math.pi)))
    return draw(star(size))


def add_obstacles(shapes_: list[Shape]) -> list[int]:
    """Put each shape on an entity of the current world."""
    return [esper.create_entity(Obstacle(shape)) for shape in shapes_]
