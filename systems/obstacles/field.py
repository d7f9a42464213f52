"""The obstacle field: a world's obstacles compiled into arrays, and the queries on them.

Over 400 lines: the compiled arrays and every query on them read one layout; the geometry
itself is in `shape_kernel.py` (one shape) and `query_kernel.py` (every shape near a point).

Circles stay circles; rectangles and polygons become counter-clockwise edge segments. A
coarse uniform grid over the obstacles' bounding boxes lets a query test only the obstacles
near it (`shoal.systems.obstacles.shape_kernel`). A flock's field is rebuilt only when the set of
`Obstacle` entities in its world changes::

    field = obstacle_field(flock)
    stuck = inside_obstacle(field, flock.positions)     # bool per boid
"""

import math
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import esper
import numpy as np
import numpy.typing as npt

from shoal.components import arguments as check
from shoal.components.obstacle import Circle, Obstacle, Point, Polygon, Rect, Shape, signed_area
from shoal.systems.core.store import BoolArray, FloatArray, IntArray
from shoal.systems.core.threads import run_chunks
from shoal.systems.flock.ecs import Counted, counted, entities_with, in_world
from shoal.systems.flock.flock import Flock
from shoal.systems.obstacles.checks import as_points
from shoal.systems.obstacles.free_points import free_points
from shoal.systems.obstacles.query_kernel import cast_points, inside_points, surface_points
from shoal.systems.obstacles.shape_kernel import (
    F_X0,
    F_Y1,
    I_CELL_X,
    I_CELL_Y,
    I_FIRST,
    I_LAST,
    KIND_CIRCLE,
    KIND_POLYGON,
    Geometry,
)

# About this many grid cells per obstacle: a short look-ahead path then meets a few cells
# holding a few obstacles each, however many obstacles the world has.
_CELLS_PER_OBSTACLE = 4
_MAX_CELLS_PER_AXIS = 1024
# Obstacle boxes are registered slightly grown, so a point exactly on a box edge still finds
# the obstacle whatever the rounding of its cell index.
_BOX_PAD = 1e-6


@dataclass(frozen=True, slots=True)
class ObstacleField:
    """A set of obstacles compiled for the kernels. Immutable; made by `compile_field`.

    Attributes:
        shapes: the shapes, in obstacle-index order.
        entities: the esper entity of each obstacle (-1 when built from bare shapes).
        geometry: the arrays the kernels read (see `shoal.systems.obstacles.shape_kernel`).
        free: (m, 2) points just outside the obstacles, each outside every one (see
            `shoal.systems.obstacles.free_points`); made from the geometry when not given.
    """

    shapes: tuple[Shape, ...]
    entities: IntArray
    geometry: Geometry
    free: FloatArray | None = None

    def __post_init__(self) -> None:
        # The kernels index these arrays without bounds checks: a field built by hand with
        # an index out of range would read stray memory, not raise.
        if not isinstance(self.shapes, tuple):
            check.fail("ObstacleField", "shapes", self.shapes, "must be a tuple of shapes")
        for k, shape in enumerate(self.shapes):
            _check_shape("ObstacleField", f"shapes[{k}]", shape)
        n = len(self.shapes)
        ids = self.entities
        if not (isinstance(ids, np.ndarray) and ids.dtype == np.int64 and ids.shape == (n,)):
            check.fail("ObstacleField", "entities", ids, f"must be an int64 array of {n} ids")
        _check_geometry(self.geometry, n)
        if self.free is None:
            object.__setattr__(self, "free", free_points(self.geometry))
        elif not (isinstance(self.free, np.ndarray) and self.free.dtype == np.float64
                  and self.free.ndim == 2 and self.free.shape[1] == 2
                  and np.isfinite(self.free).all()):  # fmt: skip
            check.fail("ObstacleField", "free", self.free, "must be a finite (m, 2) float array")

    def __len__(self) -> int:
        return len(self.shapes)

    @property
    def bounds(self) -> FloatArray:
        """(n, 4) bounding boxes: x min, y min, x max, y max."""
        return self.geometry[0][:, F_X0 : F_Y1 + 1]


@dataclass(frozen=True, slots=True)
class Surface:
    """Per point: the nearest obstacle surface (see `surface`).

    Attributes:
        distance: signed distance (< 0 inside, 0 on the boundary; inf with no obstacles).
        points: nearest surface points, (n, 2).
        normals: outward unit normals there, (n, 2).
        obstacle: index of that obstacle in the field (-1 with no obstacles).
    """

    distance: FloatArray
    points: FloatArray
    normals: FloatArray
    obstacle: IntArray


@dataclass(frozen=True, slots=True)
class Hit:
    """Per path: the first obstacle it meets (see `first_hit`).

    Attributes:
        distance: distance travelled from the start to the contact (inf: none).
        normals: outward unit normals at the contact, (n, 2) (0 where none).
        obstacle: index of the obstacle in the field (-1: none).
    """

    distance: FloatArray
    normals: FloatArray
    obstacle: IntArray


# --- building ---------------------------------------------------------------------------
def compile_field(shapes: Iterable[Shape], entities: Sequence[int] | None = None) -> ObstacleField:
    """Compile shapes into an `ObstacleField` (obstacle i is the i-th shape).

    Args:
        shapes: `Circle`, `Rect` or `Polygon` instances.
        entities: the esper entity of each shape, if any.
    """
    if isinstance(shapes, str) or not isinstance(shapes, Iterable):
        check.fail("compile_field", "shapes", shapes, "must be an iterable of shapes")
    shapes = tuple(shapes)
    for k, shape in enumerate(shapes):
        _check_shape("compile_field", f"shapes[{k}]", shape)
    ids = np.full(len(shapes), -1, np.int64) if entities is None else _ids(entities)
    if ids.shape != (len(shapes),):
        check.fail("compile_field", "entities", entities, f"must be {len(shapes)} entity ids")
    shape_f, shape_i, seg = _shape_rows(shapes)
    cell_start, cell_items, grid = _build_grid(shape_f, shape_i)
    return ObstacleField(shapes, ids, (shape_f, shape_i, seg, cell_start, cell_items, grid))


def _shape_rows(shapes: tuple[Shape, ...]) -> tuple[FloatArray, IntArray, FloatArray]:
    """shape_f, shape_i (without the grid columns) and the edges of every polygon.

    Vectorised over the rectangles (a tile map's walls are thousands of them); the same
    floating-point operations, in the same order, as one rectangle's `Rect.corners` and
    `signed_area`, so the field is the same whichever way it is built.
    """
    n = len(shapes)
    shape_f = np.zeros((n, 7))
    shape_i = np.zeros((n, 5), np.int64)
    circles = [o for o, shape in enumerate(shapes) if isinstance(shape, Circle)]
    rects = [o for o, shape in enumerate(shapes) if isinstance(shape, Rect)]
    polygons = [o for o, shape in enumerate(shapes) if isinstance(shape, Polygon)]
    if circles:
        xyr = np.array([_circle_row(shapes[o]) for o in circles])
        x, y, r = xyr.T
        shape_f[circles] = np.column_stack((x - r, y - r, x + r, y + r, x, y, r))
        shape_i[circles, 0] = KIND_CIRCLE
    # Each polygon's edges follow those of the one before: a ring of k points, k edges.
    sizes = np.zeros(n, np.int64)
    sizes[rects] = 4
    sizes[polygons] = [len(_polygon(shapes[o]).points) for o in polygons]
    ends = np.cumsum(sizes)
    firsts = ends - sizes
    shape_i[:, 1], shape_i[:, 2] = firsts, ends
    ring = np.empty((int(ends[-1]) if n else 0, 2))
    if rects:
        ring[firsts[rects, None] + np.arange(4)] = _rect_rings([shapes[o] for o in rects])
    for o in polygons:
        ring[firsts[o] : ends[o]] = _counter_clockwise(_polygon(shapes[o]).points)
    sided = [o for o in range(n) if sizes[o]]  # rectangles and polygons, in order
    if sided:
        at = firsts[sided]
        shape_f[sided, :2] = np.minimum.reduceat(ring, at, axis=0)
        shape_f[sided, 2:4] = np.maximum.reduceat(ring, at, axis=0)
        shape_i[sided, 0] = KIND_POLYGON
    following = np.arange(1, len(ring) + 1)
    following[ends[sided] - 1] = firsts[sided]  # a ring's last point joins its first
    return shape_f, shape_i, _edges(ring, following)


def _circle_row(shape: Shape) -> tuple[float, float, float]:
    assert isinstance(shape, Circle)
    return shape.x, shape.y, shape.radius


def _polygon(shape: Shape) -> Polygon:
    assert isinstance(shape, Polygon)
    return shape


def _rect_rings(rects: list[Shape]) -> FloatArray:
    """(n, 4, 2) corners of each rectangle, counter-clockwise: `Rect.corners`, vectorised."""
    rows = np.array([_rect_row(rect) for rect in rects])
    x, y, c, s = (rows[:, k, None] for k in range(4))
    hw, hh = rows[:, 4, None] / 2, rows[:, 5, None] / 2
    u = np.hstack((-hw, hw, hw, -hw))
    v = np.hstack((-hh, -hh, hh, hh))
    corners = np.stack((x + u * c - v * s, y + u * s + v * c), axis=2)
    # Positive sizes make every ring counter-clockwise, but the shoelace of a tiny
    # rectangle far out may round to <= 0: then, like `_counter_clockwise`, turn it.
    cx, cy = corners[:, :, 0], corners[:, :, 1]
    nx, ny = np.roll(cx, -1, axis=1), np.roll(cy, -1, axis=1)
    terms = cx * ny - nx * cy
    area = (((0.0 + terms[:, 0]) + terms[:, 1]) + terms[:, 2]) + terms[:, 3]
    turned = ~(area / 2 > 0)
    corners[turned] = corners[turned, ::-1]
    return corners


def _rect_row(shape: Shape) -> tuple[float, float, float, float, float, float]:
    """x, y, cos, sin, width, height of a rectangle (math's cos and sin, as `Rect.corners`)."""
    assert isinstance(shape, Rect)
    angle = math.radians(shape.angle_degrees)
    return shape.x, shape.y, math.cos(angle), math.sin(angle), shape.width, shape.height


def _counter_clockwise(points: Sequence[Point]) -> FloatArray:
    ring = np.asarray(points, dtype=np.float64)
    return ring if signed_area(tuple(points)) > 0 else ring[::-1].copy()


def _edges(ring: FloatArray, following: IntArray) -> FloatArray:
    """Rows ax, ay, bx, by, nx, ny of counter-clockwise rings (point k's edge ends at point
    following[k]); n points away from inside."""
    ends = ring[following]
    ex, ey = (ends - ring).T
    length = np.hypot(ex, ey)
    return np.column_stack((ring, ends, ey / length, -ex / length))


def _build_grid(shape_f: FloatArray, shape_i: IntArray) -> tuple[IntArray, IntArray, FloatArray]:
    """Cells over the union of the boxes; each lists the obstacles whose box overlaps it.

    Returns cell_start, cell_items and grid; fills the I_CELL_X / I_CELL_Y columns.
    """
    n = len(shape_f)
    if n == 0:  # one empty cell
        return np.zeros(2, np.int64), np.zeros(0, np.int64), np.array([0.0, 0.0, 1.0, 1, 1])
    boxes = shape_f[:, F_X0 : F_Y1 + 1]
    lo, hi = boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)
    extent = np.maximum(hi - lo, 1e-9)
    cell = math.sqrt(float(extent[0] * extent[1]) / (_CELLS_PER_OBSTACLE * n))
    cell = max(cell, float(extent.max()) / _MAX_CELLS_PER_AXIS)
    inv = 1.0 / cell
    nx, ny = (int(v) for v in np.floor(extent * inv) + 1)
    pad, top = _BOX_PAD * cell, (nx - 1, ny - 1)
    first = np.floor((boxes[:, :2] - pad - lo) * inv).astype(np.int64).clip(0, top)
    last = np.floor((boxes[:, 2:] + pad - lo) * inv).astype(np.int64).clip(0, top)
    shape_i[:, I_CELL_X], shape_i[:, I_CELL_Y] = first[:, 0], first[:, 1]
    # Each obstacle's block of cells, x by x and y within x, obstacle after obstacle.
    span = last - first + 1
    counts = span[:, 0] * span[:, 1]
    owner = np.repeat(np.arange(n, dtype=np.int64), counts)
    local = np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts)
    tall = span[owner, 1]
    flat = (first[owner, 0] + local // tall) * ny + first[owner, 1] + local % tall
    order = np.argsort(flat, kind="stable")  # within a cell, obstacles stay in index order
    cell_start = np.concatenate(([0], np.cumsum(np.bincount(flat, minlength=nx * ny))))
    grid = np.array([float(lo[0]), float(lo[1]), inv, nx, ny])
    return cell_start.astype(np.int64), owner[order], grid


# --- a flock's field --------------------------------------------------------------------
class _Tracker:
    """A flock's compiled obstacles, and the state of its world's obstacles they were
    compiled from: esper's set of the `Obstacle` entities (a `Counted`) and its change
    count then."""

    __slots__ = ("changes", "field", "members")

    def __init__(self) -> None:
        self.members: Counted | None = None
        self.changes = -1  # never a count: the first call compiles
        self.field = compile_field(())


_trackers: "weakref.WeakKeyDictionary[Flock, _Tracker]" = weakref.WeakKeyDictionary()


def obstacle_field(flock: "Flock") -> ObstacleField:
    """The obstacles of the flock's world, compiled (rebuilt when an entity gained, lost or
    replaced its `Obstacle` since the last call, or the world was cleared).

    RuntimeError if the flock's world was deleted.
    """
    _check_flock("obstacle_field", flock)
    flock._members.check("obstacle_field", installed=False)
    tracker = _trackers.get(flock)
    with in_world(flock.world):
        # O(1) whatever the number of obstacles (see `counted`): the stages ask every step.
        members = counted(Obstacle)
        if (
            tracker is not None
            and members is tracker.members
            and (members is None or members.changes == tracker.changes)
        ):
            return tracker.field
    return refresh_obstacles(flock)


def no_obstacles(flock: "Flock") -> bool:
    """Whether the flock's world has no `Obstacle` entity: then `obstacle_field` is empty.
    Unchecked, for the stages, which ask every step (~0.2 µs against `obstacle_field`'s ~1,
    and twice that within a step)."""
    if esper.current_world == flock.world:
        return not entities_with(Obstacle)
    with in_world(flock.world):
        return not entities_with(Obstacle)


def refresh_obstacles(flock: "Flock") -> ObstacleField:
    """Rebuild the flock's obstacle field from its world now, and return it (RuntimeError
    if the flock's world was deleted)."""
    _check_flock("refresh_obstacles", flock)
    flock._members.check("refresh_obstacles", installed=False)
    tracker = _trackers.setdefault(flock, _Tracker())
    with in_world(flock.world):
        members = counted(Obstacle)
        entities = sorted(members) if members is not None else []
        shapes = [esper.component_for_entity(e, Obstacle).shape for e in entities]
        tracker.field = compile_field(shapes, entities)
        tracker.members = members
        tracker.changes = members.changes if members is not None else 0
    return tracker.field


# --- queries ----------------------------------------------------------------------------
def inside_obstacle(field: ObstacleField, points: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Whether each point lies inside (or on the edge of) any obstacle of the field.

    Args:
        field: from `obstacle_field(flock)` or `compile_field`.
        points: (n, 2) array, e.g. `flock.positions`.
    """
    check.instance("inside_obstacle", "field", field, ObstacleField)
    pts = as_points("inside_obstacle", "points", points)
    out = np.zeros(len(pts), np.bool_)
    if len(field) and len(pts):
        run_chunks(inside_points, len(pts), field.geometry, pts, out)
    return out


def surface(field: ObstacleField, points: npt.ArrayLike) -> Surface:
    """Per point: signed distance to the nearest obstacle, its nearest surface point and the
    outward normal there.

    Exact for any point, near the obstacles or not; it considers every obstacle (with a cheap
    box test first), so it is meant for queries, not for every boid every step. Inside
    overlapping obstacles it reports the one the point is deepest in.
    """
    check.instance("surface", "field", field, ObstacleField)
    pts = as_points("surface", "points", points)
    n = len(pts)
    distance = np.full(n, math.inf)
    closest = pts.copy()
    normals = np.zeros((n, 2))
    obstacle = np.full(n, -1, np.int64)
    if len(field) and n:
        run_chunks(surface_points, n, field.geometry, pts, distance, closest, normals, obstacle)
    return Surface(distance, closest, normals, obstacle)


def first_hit(
    field: ObstacleField, starts: npt.ArrayLike, ends: npt.ArrayLike, radius: float = 0.0
) -> Hit:
    """Per segment start → end: the first obstacle that a disc of `radius` moving along it
    touches (look-ahead). A disc that already overlaps part of a shape is not stopped by
    that part.
    """
    check.instance("first_hit", "field", field, ObstacleField)
    a, b = as_points("first_hit", "starts", starts), as_points("first_hit", "ends", ends)
    if a.shape != b.shape:
        raise ValueError(f"first_hit: starts {a.shape} and ends {b.shape} differ")
    radius = check.number("first_hit", "radius", radius, low=0.0)
    return Hit(*_cast(field, a, b, float(radius)))


def blocked(field: ObstacleField, starts: FloatArray, ends: FloatArray) -> BoolArray:
    """Whether an obstacle of `field` lies on each segment start → end: `first_hit`'s test
    for points the stages made themselves ((n, 2) float arrays, finite), without checking
    them (each numpy call of the checks costs 5-20 µs within a step)."""
    hit: BoolArray = _cast(field, starts, ends, 0.0)[2] >= 0
    return hit


def _cast(
    field: ObstacleField, starts: FloatArray, ends: FloatArray, radius: float
) -> tuple[FloatArray, FloatArray, IntArray]:
    """`first_hit` on checked points: distance, normal and obstacle (-1: none) of each."""
    n = len(starts)
    distance = np.full(n, math.inf)
    normals = np.zeros((n, 2))
    obstacle = np.full(n, -1, np.int64)
    if len(field) and n:
        run_chunks(cast_points, n, field.geometry, starts, ends, radius, distance, normals,
                   obstacle)  # fmt: skip
    return distance, normals, obstacle


def _ids(entities: object) -> IntArray:
    """Entity ids as an int64 array, or a ValueError naming `entities`."""
    try:
        ids = np.asarray(entities)
    except ValueError:
        ids = np.zeros((0, 0))
    if ids.size and ids.dtype.kind not in "iu":
        check.fail("compile_field", "entities", entities, "must be integers (entity ids)")
    return ids.astype(np.int64)


def _check_flock(owner: str, flock: object) -> None:
    """ValueError unless `flock` is a `Flock`."""
    check.instance(owner, "flock", flock, Flock)


def _check_shape(owner: str, name: str, shape: object) -> None:
    if not isinstance(shape, Circle | Rect | Polygon):
        check.fail(owner, name, shape, "must be a Circle, Rect or Polygon")


def _check_geometry(geometry: object, n: int) -> None:
    """ValueError unless `geometry` is arrays that the kernels can index safely for n shapes."""
    kinds = (np.float64, np.int64, np.float64, np.int64, np.int64, np.float64)
    columns = (7, 5, 6, None, None, None)
    if not isinstance(geometry, tuple) or len(geometry) != len(kinds):
        check.fail("ObstacleField", "geometry", geometry, "must be the 6 arrays of compile_field")
    for k, (array, kind, width) in enumerate(zip(geometry, kinds, columns, strict=True)):
        ok = isinstance(array, np.ndarray) and array.dtype == kind and array.flags.c_contiguous
        ok = ok and array.ndim == (1 if width is None else 2)
        if not ok or (width is not None and array.shape[1] != width):
            check.fail("ObstacleField", f"geometry[{k}]", array, "is not as compile_field makes it")
    if not _indices_in_range(geometry, n):
        check.fail("ObstacleField", "geometry", geometry, "has an index out of range")


def _indices_in_range(geometry: Geometry, n: int) -> bool:
    """Whether every index the kernels follow in `geometry` (of n shapes) lies in range."""
    shape_f, shape_i, seg, cell_start, cell_items, grid = geometry
    if len(shape_f) != n or len(shape_i) != n or grid.shape != (5,):
        return False
    nx, ny = grid[3], grid[4]
    if not (np.isfinite(grid).all() and grid[2] > 0 and nx >= 1 and ny >= 1):
        return False
    if nx != int(nx) or ny != int(ny) or len(cell_start) != int(nx * ny) + 1:
        return False
    spans = shape_i[:, I_FIRST : I_LAST + 1]
    return bool(
        cell_start[0] == 0
        and cell_start[-1] == len(cell_items)
        and np.all(np.diff(cell_start) >= 0)
        and np.all((cell_items >= 0) & (cell_items < n))
        and np.all((spans >= 0) & (spans <= len(seg)))
        and np.isfinite(shape_f).all()
        and np.isfinite(seg).all()
    )
