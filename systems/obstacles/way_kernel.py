"""Reading flow fields: one boid's way from a field (`sample`), many points' ways
(`sample_points`), and a waypoint along a curved way (`trace`).

See `shoal.systems.obstacles.flow_kernel` for the fields and the pool they live in.

Every reader here (and the seeking kernel's `_navigate`) takes the same loose parameters,
pool, slot, cell_w, cell_h, wrap and the point, not a record: the pool must be passed bare
(numba reference-counts an array taken out of a tuple, per call, per boid).
"""

import math

import numba

from shoal.systems.core.maths import index_in
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.obstacles.flow_kernel import (
    C_DIST,
    C_DX,
    C_DY,
    C_VIS,
    WAY_AROUND,
    WAY_UNKNOWN,
    WAY_VISIBLE,
    PoolArray,
)

# A point sees its target when its visibility is at least this: the shadow's edge is blurred
# over a cell or two, and a line that grazes an obstacle is better taken round it.
_SEEN = 0.9
# A point hugging a wall (its cells all walled) heads for a reached cell near it, a px
# towards it counting this many px of the way: it leaves the wall first, where the best
# cell overall, diagonally past a corner, would have it push into the corner.
_OFF_WALL = 3.0
READ_CELLS = 2
"""A point whose cells are all walled reads the cells this many round it (5 × 5): a field
must reach them for it to find its way (`NavGrid.reach_cells`)."""


@njit_no_refcount(cache=True)
def sample(
    pool: PoolArray,
    slot: int,
    cell_w: float,
    cell_h: float,
    wrap: bool,
    x: float,
    y: float,
) -> tuple[int, float, float, float]:
    """A point's way in field `slot`: (WAY_*, direction x, y, distance along the way); the
    direction is the field's descent, given for a visible target too.

    Bilinear over the four cells round the point, reading only reached cells (WAY_UNKNOWN
    more than half a cell off the grid, when it does not wrap). Visible when
    the reached cells' visibility averages at least _SEEN. A point whose four cells are
    all walled (it hugs an obstacle) heads for the best reached cell `READ_CELLS` round it.
    """
    ny, nx = pool.shape[1], pool.shape[2]
    u, v = x / cell_w - 0.5, y / cell_h - 0.5
    if not wrap and (u < -1.0 or v < -1.0 or u > nx or v > ny):
        return WAY_UNKNOWN, 0.0, 0.0, math.inf  # off the grid (a window of a larger world)
    i0, j0 = math.floor(u), math.floor(v)
    fu, fv = u - i0, v - j0
    total = dist = vis = gx = gy = 0.0
    for corner in range(4):
        i, j = i0 + (corner & 1), j0 + (corner >> 1)
        w = (fu if corner & 1 else 1.0 - fu) * (fv if corner >> 1 else 1.0 - fv)
        ix, iy = _clamped(i, nx, wrap), _clamped(j, ny, wrap)
        d = pool[slot, iy, ix, C_DIST]
        if w <= 0.0 or not math.isfinite(d):
            continue
        total += w
        dist += w * d
        vis += w * pool[slot, iy, ix, C_VIS]
        gx += w * pool[slot, iy, ix, C_DX]
        gy += w * pool[slot, iy, ix, C_DY]
    if total > 0.0:
        norm = math.sqrt(gx * gx + gy * gy)
        if norm > 0.0:
            gx, gy = gx / norm, gy / norm
        if vis >= _SEEN * total:
            return WAY_VISIBLE, gx, gy, dist / total
        if norm > 0.0:
            return WAY_AROUND, gx, gy, dist / total
    return _nearest_reached(pool, slot, cell_w, cell_h, wrap, x, y, round(u), round(v))


@numba.njit(cache=True)
def _clamped(i: int, n: int, wrap: bool) -> int:
    if wrap:
        return index_in(i, n)
    return min(max(i, 0), n - 1)


@njit_no_refcount(cache=True)
def _nearest_reached(
    pool: PoolArray,
    slot: int,
    cell_w: float,
    cell_h: float,
    wrap: bool,
    x: float,
    y: float,
    ci: int,
    cj: int,
) -> tuple[int, float, float, float]:
    """Towards the reached cell `READ_CELLS` round (ci, cj) with the least distance there
    plus `_OFF_WALL` × the way to it; WAY_UNKNOWN if none."""
    ny, nx = pool.shape[1], pool.shape[2]
    best = best_d = math.inf
    best_x = best_y = 0.0
    for j in range(cj - READ_CELLS, cj + READ_CELLS + 1):
        for i in range(ci - READ_CELLS, ci + READ_CELLS + 1):
            ix, iy = _clamped(i, nx, wrap), _clamped(j, ny, wrap)
            d = pool[slot, iy, ix, C_DIST]
            if not math.isfinite(d):
                continue
            ox, oy = (i + 0.5) * cell_w - x, (j + 0.5) * cell_h - y
            reach = math.sqrt(ox * ox + oy * oy)
            if d + _OFF_WALL * reach < best:
                best, best_x, best_y, best_d = d + _OFF_WALL * reach, ox, oy, d + reach
    norm = math.sqrt(best_x * best_x + best_y * best_y)
    if not math.isfinite(best) or norm == 0.0:
        return WAY_UNKNOWN, 0.0, 0.0, math.inf
    return WAY_AROUND, best_x / norm, best_y / norm, best_d


@njit_no_refcount(cache=True, nogil=True)
def sample_points(
    first: int,
    last: int,
    pool: PoolArray,
    slots: IntArray,
    cell_w: float,
    cell_h: float,
    wrap: bool,
    points: FloatArray,
    way: IntArray,
    directions: FloatArray,
    distances: FloatArray,
) -> None:
    """`sample` for points [first, last), point i in field slots[i] (-1: WAY_UNKNOWN)."""
    for i in range(first, last):
        if slots[i] < 0:
            way[i], directions[i, 0], directions[i, 1], distances[i] = (
                WAY_UNKNOWN, 0.0, 0.0, math.inf,
            )  # fmt: skip
            continue
        way[i], directions[i, 0], directions[i, 1], distances[i] = sample(
            pool, slots[i], cell_w, cell_h, wrap, points[i, 0], points[i, 1]
        )


@njit_no_refcount(cache=True, nogil=True)
def trace(
    pool: PoolArray,
    slot: int,
    cell_w: float,
    cell_h: float,
    wrap: bool,
    x: float,
    y: float,
    length: float,
) -> tuple[float, float, float]:
    """Walk `length` px down field `slot` from (x, y), in steps of half a cell, stopping
    where the target comes into sight (past the first step) or the field ends; returns the
    end and the way's remaining distance there (a waypoint on a curved way, where a
    straight line along the first direction would cut the corner)."""
    step = 0.5 * min(cell_w, cell_h)
    walked = 0.0
    remaining = math.inf
    while walked < length:
        way, gx, gy, remaining = sample(pool, slot, cell_w, cell_h, wrap, x, y)
        if way == WAY_UNKNOWN or (walked > 0.0 and way == WAY_VISIBLE):
            break
        move = min(step, length - walked)
        x, y = x + gx * move, y + gy * move
        walked += move
    return x, y, remaining
