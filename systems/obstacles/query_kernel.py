"""Obstacle queries over the whole geometry: which obstacle holds a point, the one it is
shallowest in, the first one a moving disc touches; and the batch forms game code and the
tests call (rows [first, last), see `shoal.systems.core.threads`).

The arrays are the *geometry* of `shoal.systems.obstacles.shape_kernel`. Every query visits
only the grid cells it touches, and meets each obstacle once, so its cost depends on the
obstacles nearby, not on how many there are.

The per-point queries are compiled without reference counting (`njit_no_refcount`): numba
would count every array taken out of the `Geometry` tuple, per call, which cost ~4× in a
per-boid loop. So `first_hit` takes the tuple and `containing` and `shallowest` take its six
arrays.
"""

import math

import numba
import numpy as np
import numpy.typing as npt

from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.obstacles.shape_kernel import (
    F_X0,
    F_X1,
    F_Y0,
    F_Y1,
    I_CELL_X,
    I_CELL_Y,
    I_FIRST,
    I_KIND,
    I_LAST,
    KIND_CIRCLE,
    NO_HIT,
    Geometry,
    cast_circle,
    cast_polygon,
    inside_one,
    surface_one,
)


# --- the grid --------------------------------------------------------------------------
@numba.njit(cache=True)
def cell_span(lo: float, hi: float, origin: float, inv_cell: float, n: int) -> tuple[int, int]:
    """First and last cell along one axis that [lo, hi] overlaps (first > last: none)."""
    first = math.floor((lo - origin) * inv_cell)
    last = math.floor((hi - origin) * inv_cell)
    if not (last >= 0 and first <= n - 1):  # also false for NaN
        return 1, 0
    return max(first, 0), min(last, n - 1)


@njit_no_refcount(cache=True)
def _cell_of(grid: FloatArray, px: float, py: float) -> int:
    """The cell holding p; -1 outside the grid."""
    nx, ny = int(grid[3]), int(grid[4])
    cx0, cx1 = cell_span(px, px, grid[0], grid[2], nx)
    cy0, cy1 = cell_span(py, py, grid[1], grid[2], ny)
    if cx0 > cx1 or cy0 > cy1:
        return -1
    return cx0 * ny + cy0


@numba.njit(cache=True)
def _path_meets_box(
    px: float,
    py: float,
    dx: float,
    dy: float,
    length: float,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
) -> bool:
    """Whether the segment p → p + length·(dx, dy) meets the box (slab test)."""
    enter, leave = 0.0, length
    if dx == 0.0:
        if px < x0 or px > x1:
            return False
    else:
        a, b = (x0 - px) / dx, (x1 - px) / dx
        enter, leave = max(enter, min(a, b)), min(leave, max(a, b))
    if dy == 0.0:
        if py < y0 or py > y1:
            return False
    else:
        a, b = (y0 - py) / dy, (y1 - py) / dy
        enter, leave = max(enter, min(a, b)), min(leave, max(a, b))
    return enter <= leave


# --- every obstacle near a point or a path ---------------------------------------------
@njit_no_refcount(cache=True)
def containing(
    shape_f: FloatArray,
    shape_i: IntArray,
    seg: FloatArray,
    cell_start: IntArray,
    cell_items: IntArray,
    grid: FloatArray,
    px: float,
    py: float,
) -> int:
    """The first obstacle (lowest index in its cell) that contains p; -1 if none."""
    c = _cell_of(grid, px, py)
    if c < 0:
        return -1
    for q in range(cell_start[c], cell_start[c + 1]):
        o = cell_items[q]
        if inside_one(shape_f, shape_i, seg, o, px, py):
            return int(o)
    return -1


@njit_no_refcount(cache=True)
def shallowest(
    shape_f: FloatArray,
    shape_i: IntArray,
    seg: FloatArray,
    cell_start: IntArray,
    cell_items: IntArray,
    grid: FloatArray,
    px: float,
    py: float,
) -> tuple[int, float, float, float, float]:
    """Of the obstacles that contain p, the one whose surface is nearest: its index, that
    surface point and the outward normal there. Index -1 if p is in no obstacle."""
    best_o, best_d = -1, math.inf
    best_qx, best_qy, best_nx, best_ny = px, py, 0.0, 0.0
    c = _cell_of(grid, px, py)
    if c < 0:
        return best_o, best_qx, best_qy, best_nx, best_ny
    for q in range(cell_start[c], cell_start[c + 1]):
        o = cell_items[q]
        if not inside_one(shape_f, shape_i, seg, o, px, py):
            continue
        sd, qx, qy, nx, ny = surface_one(shape_f, shape_i, seg, o, px, py)
        if -sd < best_d:
            best_o, best_d = o, -sd
            best_qx, best_qy, best_nx, best_ny = qx, qy, nx, ny
    return best_o, best_qx, best_qy, best_nx, best_ny


@njit_no_refcount(cache=True)
def first_hit(
    geometry: Geometry,
    px: float,
    py: float,
    dx: float,
    dy: float,
    length: float,
    radius: float,
) -> tuple[float, float, float, int]:
    """The first obstacle that a disc of `radius` moving from p along unit (dx, dy) for
    `length` touches: distance, outward normal there, obstacle (inf, 0, 0, -1 if none).

    Only contacts from outside count: a disc that already overlaps part of a shape is not
    stopped by that part until its centre reaches the surface, and a path that starts inside
    a shape leaves it freely. Ties go to the lowest obstacle index.
    """
    shape_f, shape_i, seg, cell_start, cell_items, grid = geometry
    ex, ey = px + dx * length, py + dy * length
    ny = int(grid[4])
    gx0, gx1 = cell_span(min(px, ex) - radius, max(px, ex) + radius, grid[0], grid[2], int(grid[3]))
    gy0, gy1 = cell_span(min(py, ey) - radius, max(py, ey) + radius, grid[1], grid[2], ny)
    best, best_nx, best_ny, best_o = NO_HIT, 0.0, 0.0, -1
    for gx in range(gx0, gx1 + 1):
        for gy in range(gy0, gy1 + 1):
            c = gx * ny + gy
            for q in range(cell_start[c], cell_start[c + 1]):
                o = cell_items[q]
                # Meet each obstacle once: in the first of its cells that the path's box meets.
                if gx != max(gx0, shape_i[o, I_CELL_X]) or gy != max(gy0, shape_i[o, I_CELL_Y]):
                    continue
                x0, y0 = shape_f[o, F_X0] - radius, shape_f[o, F_Y0] - radius
                x1, y1 = shape_f[o, F_X1] + radius, shape_f[o, F_Y1] + radius
                if not _path_meets_box(px, py, dx, dy, length, x0, y0, x1, y1):
                    continue
                if shape_i[o, I_KIND] == KIND_CIRCLE:
                    t, nx, ny_ = cast_circle(shape_f, o, px, py, dx, dy, radius)
                    if t > length:
                        continue
                else:
                    first, last = shape_i[o, I_FIRST], shape_i[o, I_LAST]
                    t, nx, ny_ = cast_polygon(seg, first, last, px, py, dx, dy, length, radius)
                if t < best or (t == best and t < NO_HIT and o < best_o):
                    best, best_nx, best_ny, best_o = t, nx, ny_, o
    return best, best_nx, best_ny, best_o


# --- batch queries (game code and tests; rows [first, last), see core/threads.py) --------
@numba.njit(cache=True, nogil=True, error_model="numpy")
def inside_points(
    first: int, last: int, geometry: Geometry, points: FloatArray, out: npt.NDArray[np.bool_]
) -> None:
    """out[i] = whether points[i] lies in (or on) any obstacle."""
    shape_f, shape_i, seg, cell_start, cell_items, grid = geometry
    for i in range(first, last):
        o = containing(
            shape_f, shape_i, seg, cell_start, cell_items, grid, points[i, 0], points[i, 1]
        )
        out[i] = o >= 0


@numba.njit(cache=True, nogil=True, error_model="numpy")
def surface_points(
    first: int,
    last: int,
    geometry: Geometry,
    points: FloatArray,
    distance: FloatArray,
    closest: FloatArray,
    normals: FloatArray,
    obstacle: IntArray,
) -> None:
    """Per point: the obstacle with the least signed distance, that distance, its nearest
    surface point and outward normal.

    Every obstacle is considered (a box lower bound skips most), so the answer is exact
    however far the point is from the obstacles. Inside overlapping obstacles the deepest
    wins.
    """
    shape_f, shape_i, seg = geometry[0], geometry[1], geometry[2]
    for i in range(first, last):
        px, py = points[i, 0], points[i, 1]
        best = math.inf
        for o in range(shape_f.shape[0]):
            # The box is never farther than the shape: skip shapes that cannot do better.
            gap_x = max(shape_f[o, F_X0] - px, px - shape_f[o, F_X1], 0.0)
            gap_y = max(shape_f[o, F_Y0] - py, py - shape_f[o, F_Y1], 0.0)
            limit = max(best, 0.0)
            if gap_x * gap_x + gap_y * gap_y > limit * limit:
                continue
            sd, qx, qy, nx, ny = surface_one(shape_f, shape_i, seg, o, px, py)
            if sd < best:
                best = sd
                distance[i] = sd
                closest[i, 0], closest[i, 1] = qx, qy
                normals[i, 0], normals[i, 1] = nx, ny
                obstacle[i] = o


@numba.njit(cache=True, nogil=True, error_model="numpy")
def cast_points(
    first: int,
    last: int,
    geometry: Geometry,
    starts: FloatArray,
    ends: FloatArray,
    radius: float,
    distance: FloatArray,
    normals: FloatArray,
    obstacle: IntArray,
) -> None:
    """Per segment start → end: `first_hit` of a disc of `radius` along it."""
    for i in range(first, last):
        t, nx, ny, o = segment_hit(
            geometry, starts[i, 0], starts[i, 1], ends[i, 0], ends[i, 1], radius
        )
        distance[i], normals[i, 0], normals[i, 1], obstacle[i] = t, nx, ny, o


@njit_no_refcount(cache=True)
def segment_hit(
    geometry: Geometry, px: float, py: float, ex: float, ey: float, radius: float
) -> tuple[float, float, float, int]:
    """`first_hit` of a disc of `radius` moving from (px, py) to (ex, ey); none for a
    segment of length 0."""
    dx, dy = ex - px, ey - py
    length = math.sqrt(dx * dx + dy * dy)
    if length == 0.0:
        return NO_HIT, 0.0, 0.0, -1
    dx, dy = dx / length, dy / length
    return first_hit(geometry, px, py, dx, dy, length, radius)
