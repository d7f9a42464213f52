"""Obstacle geometry kernels: inside tests, nearest surface points and casts along paths.

The obstacles of a world are compiled (`shoal.systems.obstacles.field`) into six arrays, the
*geometry* ``(shape_f, shape_i, seg, cell_start, cell_items, grid)``:

- ``shape_f[o]``: obstacle o's box (`F_X0`, `F_Y0`, `F_X1`, `F_Y1`) and, for a circle, its
  centre and radius (`F_CX`, `F_CY`, `F_R`);
- ``shape_i[o]``: its kind (`I_KIND`: `KIND_CIRCLE` or `KIND_POLYGON`; rectangles are
  polygons), its edges ``seg[shape_i[o, I_FIRST]:shape_i[o, I_LAST]]``, and the lowest
  grid cell it is listed in (`I_CELL_X`, `I_CELL_Y`);
- ``seg[k]``: edge k as ax, ay, bx, by (counter-clockwise: the inside is on the left) and
  its outward unit normal nx, ny;
- ``cell_start``, ``cell_items``: the obstacles whose box overlaps grid cell c are
  ``cell_items[cell_start[c]:cell_start[c + 1]]`` (c = cx * ny + cy);
- ``grid``: origin x, origin y, 1 / cell size, nx, ny.

A shape's boundary belongs to it (a point on an edge is inside). Every query visits only the
grid cells it touches, and meets each obstacle once, so its cost depends on the obstacles
nearby, not on how many there are.

The per-point helpers take the arrays one by one: passing the tuple itself into a per-boid
loop costs ~4× (numba reference-counts every array taken out of a tuple, per boid).
"""

import math

import numba
import numpy as np
import numpy.typing as npt

from shoal.systems.core.store import FloatArray, IntArray

KIND_CIRCLE = 0
KIND_POLYGON = 1

# Columns of shape_f and shape_i.
F_X0, F_Y0, F_X1, F_Y1, F_CX, F_CY, F_R = 0, 1, 2, 3, 4, 5, 6
I_KIND, I_FIRST, I_LAST, I_CELL_X, I_CELL_Y = 0, 1, 2, 3, 4

Geometry = tuple[FloatArray, IntArray, FloatArray, IntArray, IntArray, FloatArray]
"""(shape_f, shape_i, seg, cell_start, cell_items, grid): see the module docstring."""

NO_HIT = math.inf
# The distance reported for a point that rounds onto an edge without lying on it exactly.
_HAIR = 1e-300


# --- the grid --------------------------------------------------------------------------
@numba.njit(cache=True)
def cell_span(lo: float, hi: float, origin: float, inv_cell: float, n: int) -> tuple[int, int]:
    """First and last cell along one axis that [lo, hi] overlaps (first > last: none)."""
    first = math.floor((lo - origin) * inv_cell)
    last = math.floor((hi - origin) * inv_cell)
    if not (last >= 0 and first <= n - 1):  # also false for NaN
        return 1, 0
    return max(first, 0), min(last, n - 1)


@numba.njit(cache=True)
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


# --- inside and nearest point of one shape ---------------------------------------------
@numba.njit(cache=True)
def _crosses(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> bool:
    """Edge a-b crosses the ray from p towards +x (even-odd rule, half-open in y)."""
    return (ay > py) != (by > py) and px < ax + (bx - ax) * (py - ay) / (by - ay)


@numba.njit(cache=True)
def _on_edge(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> bool:
    """p lies exactly on the closed edge a-b."""
    return (
        (bx - ax) * (py - ay) == (by - ay) * (px - ax)
        and min(ax, bx) <= px <= max(ax, bx)
        and min(ay, by) <= py <= max(ay, by)
    )


@numba.njit(cache=True)
def inside_one(
    shape_f: FloatArray, shape_i: IntArray, seg: FloatArray, o: int, px: float, py: float
) -> bool:
    """Whether (px, py) lies in obstacle o or on its boundary."""
    if not (shape_f[o, F_X0] <= px <= shape_f[o, F_X1]):
        return False
    if not (shape_f[o, F_Y0] <= py <= shape_f[o, F_Y1]):
        return False
    if shape_i[o, I_KIND] == KIND_CIRCLE:
        dx, dy = px - shape_f[o, F_CX], py - shape_f[o, F_CY]
        return bool(dx * dx + dy * dy <= shape_f[o, F_R] * shape_f[o, F_R])
    inside = False
    for k in range(shape_i[o, I_FIRST], shape_i[o, I_LAST]):
        ax, ay, bx, by = seg[k, 0], seg[k, 1], seg[k, 2], seg[k, 3]
        if _on_edge(ax, ay, bx, by, px, py):
            return True
        if _crosses(ax, ay, bx, by, px, py):
            inside = not inside
    return inside


@numba.njit(cache=True)
def _polygon_nearest(
    seg: FloatArray, first: int, last: int, px: float, py: float
) -> tuple[bool, bool, float, int, float]:
    """Inside (boundary included)?, on the boundary?, squared distance to the boundary, and
    the nearest edge and the parameter t of the nearest point on it."""
    inside = False
    on_boundary = False
    best, best_k, best_t = math.inf, first, 0.0
    for k in range(first, last):
        ax, ay, bx, by = seg[k, 0], seg[k, 1], seg[k, 2], seg[k, 3]
        on_boundary |= _on_edge(ax, ay, bx, by, px, py)
        if _crosses(ax, ay, bx, by, px, py):
            inside = not inside
        ex, ey = bx - ax, by - ay
        t = min(max(((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey), 0.0), 1.0)
        dx, dy = px - (ax + t * ex), py - (ay + t * ey)
        d2 = dx * dx + dy * dy
        if d2 < best:
            best, best_k, best_t = d2, k, t
    return inside or on_boundary, on_boundary, best, best_k, best_t


@numba.njit(cache=True)
def _vertex_normal(seg: FloatArray, first: int, last: int, k: int, t: float) -> tuple[float, float]:
    """Outward normal at a point of edge k: the edge's, or at a vertex the mean of both."""
    nx, ny = seg[k, 4], seg[k, 5]
    if t <= 0.0:
        other = k - 1 if k > first else last - 1
    elif t >= 1.0:
        other = k + 1 if k + 1 < last else first
    else:
        return nx, ny
    sx, sy = nx + seg[other, 4], ny + seg[other, 5]
    length = math.sqrt(sx * sx + sy * sy)
    if length == 0.0:
        return nx, ny
    return sx / length, sy / length


@numba.njit(cache=True)
def surface_one(
    shape_f: FloatArray, shape_i: IntArray, seg: FloatArray, o: int, px: float, py: float
) -> tuple[float, float, float, float, float]:
    """Signed distance (< 0 inside, 0 on the boundary), nearest surface point, outward normal.

    The sign agrees with `inside_one`. At the centre of a circle the normal is +x.
    """
    if shape_i[o, I_KIND] == KIND_CIRCLE:
        cx, cy, r = shape_f[o, F_CX], shape_f[o, F_CY], shape_f[o, F_R]
        dx, dy = px - cx, py - cy
        d = math.sqrt(dx * dx + dy * dy)
        # The sign follows inside_one's test, whatever the rounding of the square root.
        d = min(d, r) if dx * dx + dy * dy <= r * r else max(d, r)
        nx, ny = (dx / d, dy / d) if d > 0.0 else (1.0, 0.0)
        return d - r, cx + r * nx, cy + r * ny, nx, ny
    first, last = shape_i[o, I_FIRST], shape_i[o, I_LAST]
    inside, on_boundary, d2, k, t = _polygon_nearest(seg, first, last, px, py)
    if on_boundary or d2 == 0.0:
        nx, ny = _vertex_normal(seg, first, last, k, t)
        # Off the edge by less than rounding: keep the sign of the inside test.
        hair = 0.0 if on_boundary else (-_HAIR if inside else _HAIR)
        return hair, px, py, nx, ny
    ax, ay = seg[k, 0], seg[k, 1]
    qx, qy = ax + t * (seg[k, 2] - ax), ay + t * (seg[k, 3] - ay)
    d = math.sqrt(d2)
    sign = -1.0 if inside else 1.0
    return sign * d, qx, qy, sign * (px - qx) / d, sign * (py - qy) / d


# --- casts along a path (one shape) -----------------------------------------------------
@numba.njit(cache=True)
def _enter_disc(
    px: float, py: float, dx: float, dy: float, cx: float, cy: float, r: float
) -> float:
    """Distance along unit (dx, dy) from p to where it enters the disc; inf if it does not."""
    mx, my = px - cx, py - cy
    b = mx * dx + my * dy
    c = mx * mx + my * my - r * r
    if c <= 0.0 or b >= 0.0:  # starts inside (or on) it, or moves away
        return NO_HIT
    disc = b * b - c
    if disc < 0.0:
        return NO_HIT
    return -b - math.sqrt(disc)


@numba.njit(cache=True)
def _cast_circle(
    shape_f: FloatArray,
    o: int,
    px: float,
    py: float,
    dx: float,
    dy: float,
    radius: float,
) -> tuple[float, float, float]:
    """First contact of the disc (or of its centre) with circle o: distance and normal."""
    cx, cy, r = shape_f[o, F_CX], shape_f[o, F_CY], shape_f[o, F_R]
    t = _enter_disc(px, py, dx, dy, cx, cy, r + radius)
    if radius > 0.0:
        t = min(t, _enter_disc(px, py, dx, dy, cx, cy, r))
    if t == NO_HIT:
        return NO_HIT, 0.0, 0.0
    hx, hy = px + t * dx - cx, py + t * dy - cy
    h = math.sqrt(hx * hx + hy * hy)
    return t, hx / h, hy / h


@numba.njit(cache=True)
def _cast_polygon(
    seg: FloatArray,
    first: int,
    last: int,
    px: float,
    py: float,
    dx: float,
    dy: float,
    length: float,
    radius: float,
) -> tuple[float, float, float]:
    """First contact of the disc (or of its centre) with a polygon grown by `radius`: each
    edge pushed out along its normal, a disc at each vertex. Only edges faced from outside
    count, so a path that starts inside leaves freely."""
    best, best_nx, best_ny = NO_HIT, 0.0, 0.0
    for k in range(first, last):
        nx, ny = seg[k, 4], seg[k, 5]
        ax, ay = seg[k, 0], seg[k, 1]
        sx, sy = seg[k, 2] - ax, seg[k, 3] - ay
        denom = dx * sy - dy * sx
        if dx * nx + dy * ny < 0.0 and denom != 0.0:  # heading in through this edge
            wx, wy = ax - px, ay - py
            s = (wx * dy - wy * dx) / denom
            t = (wx * sy - wy * sx) / denom
            if 0.0 <= s <= 1.0 and 0.0 <= t <= length and t < best:
                best, best_nx, best_ny = t, nx, ny
            if radius > 0.0:  # the same edge pushed out by the radius
                wx, wy = wx + radius * nx, wy + radius * ny
                s = (wx * dy - wy * dx) / denom
                t = (wx * sy - wy * sx) / denom
                if 0.0 <= s <= 1.0 and 0.0 <= t <= length and t < best:
                    best, best_nx, best_ny = t, nx, ny
        if radius > 0.0:
            t = _enter_disc(px, py, dx, dy, ax, ay, radius)
            if t <= length and t < best:
                hx, hy = px + t * dx - ax, py + t * dy - ay
                best, best_nx, best_ny = t, hx / radius, hy / radius
    return best, best_nx, best_ny


@numba.njit(cache=True)
def exit_one(
    shape_f: FloatArray,
    shape_i: IntArray,
    seg: FloatArray,
    o: int,
    px: float,
    py: float,
    dx: float,
    dy: float,
) -> tuple[float, float, float]:
    """From p inside obstacle o, the distance along unit (dx, dy) to its boundary, and the
    outward normal there (inf, 0, 0 if the ray never meets the boundary)."""
    if shape_i[o, I_KIND] == KIND_CIRCLE:
        cx, cy, r = shape_f[o, F_CX], shape_f[o, F_CY], shape_f[o, F_R]
        mx, my = px - cx, py - cy
        b = mx * dx + my * dy
        disc = b * b - (mx * mx + my * my - r * r)
        if disc < 0.0:
            return NO_HIT, 0.0, 0.0
        t = max(-b + math.sqrt(disc), 0.0)
        hx, hy = px + t * dx - cx, py + t * dy - cy
        h = math.sqrt(hx * hx + hy * hy)
        return (t, hx / h, hy / h) if h > 0.0 else (t, dx, dy)
    best, best_nx, best_ny = NO_HIT, 0.0, 0.0
    for k in range(shape_i[o, I_FIRST], shape_i[o, I_LAST]):
        ax, ay = seg[k, 0], seg[k, 1]
        sx, sy = seg[k, 2] - ax, seg[k, 3] - ay
        denom = dx * sy - dy * sx
        if denom == 0.0:
            continue
        wx, wy = ax - px, ay - py
        t = (wx * sy - wy * sx) / denom
        s = (wx * dy - wy * dx) / denom
        if 0.0 <= s <= 1.0 and 0.0 <= t < best:
            best, best_nx, best_ny = t, seg[k, 4], seg[k, 5]
    return best, best_nx, best_ny


# --- every obstacle near a point or a path ---------------------------------------------
@numba.njit(cache=True)
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


@numba.njit(cache=True)
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


@numba.njit(cache=True)
def first_hit(
    shape_f: FloatArray,
    shape_i: IntArray,
    seg: FloatArray,
    cell_start: IntArray,
    cell_items: IntArray,
    grid: FloatArray,
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
                    t, nx, ny_ = _cast_circle(shape_f, o, px, py, dx, dy, radius)
                    if t > length:
                        continue
                else:
                    first, last = shape_i[o, I_FIRST], shape_i[o, I_LAST]
                    t, nx, ny_ = _cast_polygon(seg, first, last, px, py, dx, dy, length, radius)
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
    shape_f, shape_i, seg, cell_start, cell_items, grid = geometry
    for i in range(first, last):
        px, py = starts[i, 0], starts[i, 1]
        dx, dy = ends[i, 0] - px, ends[i, 1] - py
        length = math.sqrt(dx * dx + dy * dy)
        if length == 0.0:
            distance[i], normals[i, 0], normals[i, 1], obstacle[i] = NO_HIT, 0.0, 0.0, -1
            continue
        dx, dy = dx / length, dy / length
        t, nx, ny, o = first_hit(
            shape_f, shape_i, seg, cell_start, cell_items, grid, px, py, dx, dy, length, radius
        )
        distance[i], normals[i, 0], normals[i, 1], obstacle[i] = t, nx, ny, o
