"""Obstacle geometry kernels, one shape at a time: inside tests, nearest surface points and
casts along paths. Every obstacle near a point or a path: `query_kernel`.

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

A shape's boundary belongs to it (a point on an edge is inside).

The per-point helpers take the arrays one by one: passing the tuple itself into a per-boid
loop costs ~4× (numba reference-counts every array taken out of a tuple, per boid). That is
why so many of them share a long list of parameters.
"""

import math

import numba

from shoal.systems.core.refcount import njit_no_refcount
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


@njit_no_refcount(cache=True)
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


@njit_no_refcount(cache=True)
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


@njit_no_refcount(cache=True)
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
def _ray_meets_edge(
    wx: float, wy: float, dx: float, dy: float, sx: float, sy: float
) -> tuple[float, float]:
    """Where the ray from p along (dx, dy) crosses the line through a along (sx, sy), given
    w = a - p: (t along the ray, s along the edge); s = -1 (no crossing) if they are
    parallel."""
    denom = dx * sy - dy * sx
    if denom == 0.0:
        return NO_HIT, -1.0
    return (wx * sy - wy * sx) / denom, (wx * dy - wy * dx) / denom


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


@njit_no_refcount(cache=True)
def cast_circle(
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


@njit_no_refcount(cache=True)
def cast_polygon(
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
        if dx * nx + dy * ny < 0.0:  # heading in through this edge
            wx, wy = ax - px, ay - py
            t, s = _ray_meets_edge(wx, wy, dx, dy, sx, sy)
            if 0.0 <= s <= 1.0 and 0.0 <= t <= length and t < best:
                best, best_nx, best_ny = t, nx, ny
            if radius > 0.0:  # the same edge pushed out by the radius
                t, s = _ray_meets_edge(wx + radius * nx, wy + radius * ny, dx, dy, sx, sy)
                if 0.0 <= s <= 1.0 and 0.0 <= t <= length and t < best:
                    best, best_nx, best_ny = t, nx, ny
        if radius > 0.0:
            t = _enter_disc(px, py, dx, dy, ax, ay, radius)
            if t <= length and t < best:
                hx, hy = px + t * dx - ax, py + t * dy - ay
                best, best_nx, best_ny = t, hx / radius, hy / radius
    return best, best_nx, best_ny


@njit_no_refcount(cache=True)
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
        t, s = _ray_meets_edge(ax - px, ay - py, dx, dy, seg[k, 2] - ax, seg[k, 3] - ay)
        if 0.0 <= s <= 1.0 and 0.0 <= t < best:
            best, best_nx, best_ny = t, seg[k, 4], seg[k, 5]
    return best, best_nx, best_ny
