"""Obstacles: shapes that boids steer around and never end a step inside.

Put an `Obstacle` on an esper entity of the flock's world (the entity needs no `Position`)::

    esper.create_entity(Obstacle(Circle(400, 300, 50)))
    esper.create_entity(Obstacle(Rect(200, 150, 120, 40, angle_degrees=30)))
    esper.create_entity(Obstacle(Polygon([(0, 0), (90, 0), (90, 90), (60, 90), (60, 30),
                                          (30, 30), (30, 90), (0, 90)])))  # a U

Shapes are immutable: to move or change an obstacle, replace its `Obstacle` component
(`esper.add_component`), or delete its entity and create another; the flock notices either.
A shape's boundary counts as inside it. Coordinates are world units, y up; coordinates
and sizes lie within ±MAX_COORDINATE (1e7), as boids do.
"""

import math
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice
from numbers import Real

from shoal.components.arguments import shown
from shoal.components.parameters import MAX_COORDINATE

Point = tuple[float, float]

# The check that a polygon does not cross itself compares every pair of edges (~0.7 s for
# 1000 vertices): beyond this a polygon would stall the game; split it into several.
MAX_VERTICES = 1000


def _fail(shape: str, field: str, value: object, why: str) -> None:
    raise ValueError(f"{shape}: {field} = {shown(value)} {why}")


def _finite(shape: str, field: str, value: object, largest: float = MAX_COORDINATE) -> float:
    """`value` as a float within ±`largest`, or a ValueError naming the field. (A circle of
    radius 1e300 overflowed the obstacle grid; shapes live where boids do.)"""
    # A float first: the test against the Real ABC costs ~0.5 µs, five times a Rect, and a
    # tile map's walls make 13,000 of them.
    if type(value) is not float and (isinstance(value, bool) or not isinstance(value, Real)):
        _fail(shape, field, value, "must be a number")
    number = float(value)  # type: ignore[arg-type]
    if not math.isfinite(number):
        _fail(shape, field, value, "must be finite")
    if abs(number) > largest:
        _fail(shape, field, value, f"must lie within ±{largest:g}")
    return number


@dataclass(frozen=True, slots=True)
class Circle:
    """A disc.

    Attributes:
        x: centre x.
        y: centre y.
        radius: radius (> 0).
    """

    x: float
    y: float
    radius: float

    def __post_init__(self) -> None:
        for name in ("x", "y", "radius"):
            object.__setattr__(self, name, _finite("Circle", name, getattr(self, name)))
        if self.radius <= 0:
            _fail("Circle", "radius", self.radius, "must be > 0")


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle, optionally rotated about its centre.

    Attributes:
        x: centre x.
        y: centre y.
        width: size along its own x axis (> 0).
        height: size along its own y axis (> 0).
        angle_degrees: rotation, counter-clockwise (y up).
    """

    x: float
    y: float
    width: float
    height: float
    angle_degrees: float = 0.0

    def __post_init__(self) -> None:
        for name in ("x", "y", "width", "height"):
            object.__setattr__(self, name, _finite("Rect", name, getattr(self, name)))
        angle = _finite("Rect", "angle_degrees", self.angle_degrees, math.inf)
        object.__setattr__(self, "angle_degrees", angle)
        for name in ("width", "height"):
            if getattr(self, name) <= 0:
                _fail("Rect", name, getattr(self, name), "must be > 0")

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """The four corners, counter-clockwise."""
        angle = math.radians(self.angle_degrees)
        c, s = math.cos(angle), math.sin(angle)
        hw, hh = self.width / 2, self.height / 2
        local = ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))
        a, b, d, e = ((self.x + u * c - v * s, self.y + u * s + v * c) for u, v in local)
        return a, b, d, e


@dataclass(frozen=True, slots=True)
class Polygon:
    """A simple polygon: convex or concave, either winding, no self-intersection.

    Attributes:
        points: the vertices in order (3 to 1000; the last joins the first). Stored as a
            tuple of (x, y) float pairs.
    """

    points: tuple[Point, ...]

    def __init__(self, points: Iterable[Iterable[float]]) -> None:
        object.__setattr__(self, "points", _vertices(points))
        _check_simple(self.points)

    @property
    def area(self) -> float:
        """Signed area: positive when the points run counter-clockwise."""
        return signed_area(self.points)


Shape = Circle | Rect | Polygon
"""Any obstacle shape."""


@dataclass(frozen=True, slots=True)
class Obstacle:
    """Marks an entity as an obstacle of the given shape.

    Attributes:
        shape: a `Circle`, `Rect` or `Polygon`.
    """

    shape: Shape

    def __post_init__(self) -> None:
        if not isinstance(self.shape, Circle | Rect | Polygon):
            _fail("Obstacle", "shape", self.shape, "must be a Circle, Rect or Polygon")


def signed_area(points: tuple[Point, ...]) -> float:
    """Shoelace area of a closed polyline; positive when counter-clockwise."""
    total = 0.0
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
        total += ax * by - bx * ay
    return total / 2


def _vertices(points: Iterable[Iterable[float]]) -> tuple[Point, ...]:
    """Validated (x, y) float pairs, or a ValueError naming `points`."""
    try:
        # islice: an endless or enormous iterable is refused below, not read to the end.
        pairs = [tuple(islice(p, 3)) for p in islice(points, MAX_VERTICES + 1)]
    except TypeError:
        _fail("Polygon", "points", points, "must be a sequence of (x, y) pairs")
    if len(pairs) > MAX_VERTICES:
        _fail("Polygon", "points", points, f"must have at most {MAX_VERTICES} vertices")
    result: list[Point] = []
    for k, pair in enumerate(pairs):
        if len(pair) != 2:
            _fail("Polygon", f"points[{k}]", pair, "must be an (x, y) pair")
        result.append((_finite("Polygon", f"points[{k}]", pair[0]),
                       _finite("Polygon", f"points[{k}]", pair[1])))  # fmt: skip
    if len(result) < 3:
        _fail("Polygon", "points", tuple(result), "must have at least 3 vertices")
    return tuple(result)


def _check_simple(points: tuple[Point, ...]) -> None:
    """ValueError naming `points` for a repeated vertex, zero area or crossing edges."""
    n = len(points)
    for k in range(n):
        if points[k] == points[(k + 1) % n]:
            _fail("Polygon", "points", points, f"repeat vertex {k} (zero-length edge)")
    area = signed_area(points)
    span = max(max(abs(x), abs(y)) for x, y in points)
    if abs(area) <= 1e-12 * max(span * span, 1.0):
        _fail("Polygon", "points", points, "enclose zero area")
    for i in range(n):
        for j in range(i + 1, n):
            if _edges_cross(points, i, j):
                _fail("Polygon", "points", points, f"self-intersect (edges {i} and {j})")


def _edges_cross(points: tuple[Point, ...], i: int, j: int) -> bool:
    """Whether edges i and j meet anywhere they should not.

    Neighbouring edges may share their common vertex but must not fold back over each other.
    """
    n = len(points)
    a, b = points[i], points[(i + 1) % n]
    c, d = points[j], points[(j + 1) % n]
    if j == i + 1 or (i == 0 and j == n - 1):
        # Neighbours: they share one vertex; they overlap only if collinear and folding back.
        shared, p, q = (b, a, d) if j == i + 1 else (a, b, c)
        if _cross(shared, p, q) != 0:
            return False
        return (p[0] - shared[0]) * (q[0] - shared[0]) + (p[1] - shared[1]) * (q[1] - shared[1]) > 0
    return _segments_meet(a, b, c, d)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    """p, known to be collinear with a-b, lies within the segment's box."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def _segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Closed segments a-b and c-d share at least one point."""
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return (
        (d1 == 0 and _on_segment(c, d, a))
        or (d2 == 0 and _on_segment(c, d, b))
        or (d3 == 0 and _on_segment(a, b, c))
        or (d4 == 0 and _on_segment(a, b, d))
    )
