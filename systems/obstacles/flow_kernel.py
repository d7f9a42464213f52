"""Flow-field kernels: the walkable raster, distance fields by fast marching, and sampling.

Over 400 lines: rasterizing, fast marching and the visibility sweep are one compiled
pipeline over one cell layout (below) and one priority queue; apart, each would restate it.

The world [0, width] × [0, height] is cut into nx × ny cells of cell_w × cell_h; cell
(ix, iy) has its centre at ((ix + 0.5)·cell_w, (iy + 0.5)·cell_h), and every per-cell array
is shaped (ny, nx). A cell is *blocked* when its centre lies within the clearance of an
obstacle (`rasterize`). These kernels measure from the world's lower-left corner: a world
that starts elsewhere (`FlockConfig.left`, `bottom`) is read with points shifted by its
origin (`shoal.systems.obstacles.nav_grid.NavGrid.local`); only `rasterize`, which reads
the obstacles where they are, takes the origin itself. A field towards a target is:

- its distance: the length of the shortest way from each cell to the target through free
  cells, by the fast marching method (Sethian 1996: the Eikonal equation |∇D| = 1 solved
  upwind in Dijkstra order, so the ways are straight in open water and round corners
  smoothly, not along the 8 compass directions of a grid Dijkstra) (`march`);
- its visibility: whether the straight line from the cell to the target is free, propagated
  ring by ring outward from the target, each cell looking one cell back along its line of
  sight (`visibility`);
- its descent: the unit direction downhill at each cell, from the upwind differences
  (`descent`).

A flee field is the same with the flee-map trick (the roguelike "Dijkstra map", Brogan):
the distance from the threat scaled by -FLEE_FACTOR and marched again from every cell at
once, so that downhill leads away from the threat along free space, round corners to open
water, never into a dead end (`flee_values`).

Fields are stored side by side in a *pool* (slots, ny, nx, 4) of float32: per cell its
distance, descent x, descent y and visibility, side by side so that one boid's bilinear read
(`shoal.systems.obstacles.way_kernel.sample`) touches a few cache lines, not sixteen.
"""

import math

import numba
import numpy as np
import numpy.typing as npt

from shoal.systems.core.maths import index_in
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.obstacles.shape_kernel import F_X0, F_X1, F_Y0, F_Y1, surface_one

ByteArray = npt.NDArray[np.uint8]
PoolArray = npt.NDArray[np.float32]

# Pool columns.
C_DIST, C_DX, C_DY, C_VIS = 0, 1, 2, 3

FLEE_FACTOR = 1.2
"""The flee map is -FLEE_FACTOR × the distance from the threat, relaxed: > 1, so that a way
out that passes no closer to the threat is worth taking even when it is longer."""

# How a boid's way is read from a field (`sample`).
WAY_UNKNOWN = 0  # no field there (outside what was marched, or walled off)
WAY_VISIBLE = 1  # the straight line to the target is free: steer straight
WAY_AROUND = 2  # steer along the field (descent direction, distance along the way)

# After the last cell a field must reach is done, march this many cells further, so that
# bilinear samples round it read finite distances.
_STOP_MARGIN = 3.0


# --- the raster -------------------------------------------------------------------------
@njit_no_refcount(cache=True, nogil=True)
def rasterize(
    shape_f: FloatArray,
    shape_i: IntArray,
    seg: FloatArray,
    cell_w: float,
    cell_h: float,
    left: float,
    bottom: float,
    clearance: float,
    blocked: ByteArray,
) -> None:
    """Set blocked[iy, ix] = 1 for every cell whose centre lies in an obstacle or within
    `clearance` of one (each obstacle visits only the cells of its grown box); the cells
    start at the world's corner (left, bottom), the obstacles are where they are."""
    ny, nx = blocked.shape
    for o in range(shape_f.shape[0]):
        ix0 = max(math.ceil((shape_f[o, F_X0] - left - clearance) / cell_w - 0.5), 0)
        ix1 = min(math.floor((shape_f[o, F_X1] - left + clearance) / cell_w - 0.5), nx - 1)
        iy0 = max(math.ceil((shape_f[o, F_Y0] - bottom - clearance) / cell_h - 0.5), 0)
        iy1 = min(math.floor((shape_f[o, F_Y1] - bottom + clearance) / cell_h - 0.5), ny - 1)
        for iy in range(iy0, iy1 + 1):
            py = bottom + (iy + 0.5) * cell_h
            for ix in range(ix0, ix1 + 1):
                if blocked[iy, ix]:
                    continue
                px = left + (ix + 0.5) * cell_w
                sd = surface_one(shape_f, shape_i, seg, o, px, py)[0]
                if sd <= 0.0 or sd < clearance:
                    blocked[iy, ix] = 1


# --- fast marching ----------------------------------------------------------------------
@numba.njit(cache=True)
def _solve(a: float, b: float, hx: float, hy: float) -> float:
    """The upwind Eikonal update from the least done neighbours a (along x) and b (along y):
    the u with ((u - a)/hx)² + ((u - b)/hy)² = 1, or the one-sided value if that fails."""
    one_sided = min(a + hx, b + hy)
    if math.isinf(a) or math.isinf(b):
        return one_sided
    wx, wy = 1.0 / (hx * hx), 1.0 / (hy * hy)
    half_b = a * wx + b * wy
    disc = half_b * half_b - (wx + wy) * (a * a * wx + b * b * wy - 1.0)
    if disc < 0.0:
        return one_sided
    u = (half_b + math.sqrt(disc)) / (wx + wy)
    return u if u >= max(a, b) else one_sided


@numba.njit(cache=True, nogil=True)
def march(
    links: IntArray,
    walls: ByteArray,
    cost: FloatArray,
    values: FloatArray,
    cell_w: float,
    cell_h: float,
    limit: float,
    until: IntArray,
) -> bool:
    """Fast marching in place: `values` holds each source cell's starting value (inf for the
    others) and ends holding the distance field (inf where not reached).

    `links[c]` are the cells beside c (-x, +x, -y, +y; n where there is none: see
    `NavGrid.links`); cells with `walls` set are never entered; crossing a cell costs its
    `cost` (≥ 1) per px, so the ways keep off what costs more (the walls' surroundings).
    The march stops once the next value exceeds `limit`, or, if `until` lists cells, a few
    cells beyond the last of them to be reached. Returns True if it reached everything it could.

    The queue is an untidy bucket queue (Yatziv, Bartesaghi & Sapiro 2006): values are put
    in buckets a fraction of a cell wide and each bucket is emptied first in, first out, so
    a march costs O(cells), not O(cells · log cells) as with a heap, for an error well below
    the scheme's own.
    """
    n = links.shape[0]
    flat = values.ravel()
    wall = walls.ravel()
    price = cost.ravel()
    known = np.full(n + 1, math.inf)  # accepted values; known[n] stands for "no cell"
    seeds = np.empty(n, np.int64)
    count = 0
    for c in range(n):
        if wall[c] or not flat[c] < math.inf:
            flat[c] = math.inf
        else:
            seeds[count] = c
            count += 1
    if count == 0:
        return True
    seeds = seeds[:count][np.argsort(flat[seeds[:count]], kind="mergesort")]
    wanted = np.zeros(n, np.bool_)
    pending = 0
    for c in until:
        if 0 <= c < n and not wall[c] and not wanted[c]:
            wanted[c] = True
            pending += 1
    # Buckets: a value u goes to bucket floor((u - base) / width); new values lie at most
    # one (priced) cell beyond the value being accepted, so a ring of `ring` buckets holds
    # them all.
    width = 0.25 * min(cell_w, cell_h)
    ring = math.ceil(2.0 * max(cell_w, cell_h) * max(price.max(), 1.0) / width) + 2
    base = flat[seeds[0]]
    head = np.full(ring, -1, np.int64)
    tail = np.full(ring, -1, np.int64)
    capacity = 5 * n + 1
    nxt = np.empty(capacity, np.int64)
    cell = np.empty(capacity, np.int64)
    key_of = np.empty(capacity)
    used = queued = int(0)  # typed, not the literal 0: `_enqueue` compiles once, not twice
    next_seed = 0
    bucket = 0
    complete = True
    margin = _STOP_MARGIN * max(cell_w, cell_h)
    while True:
        while next_seed < count and (flat[seeds[next_seed]] - base) // width <= bucket:
            c = seeds[next_seed]
            next_seed += 1
            used = _enqueue(head, tail, nxt, cell, key_of, used, bucket % ring, flat[c], c)
            queued += 1
        b = bucket % ring
        if head[b] < 0:
            if queued == 0:
                if next_seed == count:
                    break
                bucket = int((flat[seeds[next_seed]] - base) // width)
            else:
                bucket += 1
            if base + bucket * width > limit:
                complete = False
                break
            continue
        e = head[b]
        head[b] = nxt[e]
        if head[b] < 0:
            tail[b] = -1
        queued -= 1
        c, key = cell[e], key_of[e]
        if known[c] < math.inf or key > flat[c]:
            continue  # accepted already, or an outdated entry
        if key > limit:
            complete = False
            break
        known[c] = key
        if wanted[c]:
            pending -= 1
            if pending == 0:
                limit = min(limit, key + margin)
        for k in range(4):
            m = links[c, k]
            if m == n or wall[m] or known[m] < math.inf:
                continue
            a = min(known[links[m, 0]], known[links[m, 1]])
            d = min(known[links[m, 2]], known[links[m, 3]])
            u = _solve(a, d, cell_w * price[m], cell_h * price[m])
            if u < flat[m] and used < capacity:
                flat[m] = u
                # An untidy queue may find a value a hair below the bucket being emptied.
                slot = max(int((u - base) // width), bucket) % ring
                used = _enqueue(head, tail, nxt, cell, key_of, used, slot, u, m)
                queued += 1
    for c in range(n):
        if not known[c] < math.inf:
            flat[c] = math.inf
    return complete and used < capacity


@njit_no_refcount(cache=True)
def _enqueue(
    head: IntArray,
    tail: IntArray,
    nxt: IntArray,
    cell: IntArray,
    key_of: FloatArray,
    used: int,
    b: int,
    key: float,
    c: int,
) -> int:
    """Append (key, c) to bucket b's list; returns the entries used."""
    e = used
    cell[e], key_of[e], nxt[e] = c, key, -1
    if tail[b] < 0:
        head[b] = e
    else:
        nxt[tail[b]] = e
    tail[b] = e
    return used + 1


@numba.njit(cache=True, nogil=True)
def flee_values(distance: FloatArray, blocked: ByteArray, out_blocked: ByteArray) -> FloatArray:
    """The flee map's starting values (-FLEE_FACTOR × distance from the threat), and in
    `out_blocked` the cells the second march may not enter (walls, and what the first march
    did not reach: the map ends at its edge, which is the safest place it knows)."""
    ny, nx = distance.shape
    start = np.empty((ny, nx))
    for iy in range(ny):
        for ix in range(nx):
            d = distance[iy, ix]
            out_blocked[iy, ix] = 1 if (blocked[iy, ix] or math.isinf(d)) else 0
            start[iy, ix] = -FLEE_FACTOR * d if math.isfinite(d) else math.inf
    return start


# --- visibility and descent -------------------------------------------------------------
@numba.njit(cache=True)
def _wrap_index(i: int, n: int, wrap: bool) -> int:
    """Index i on an axis of n cells: wrapped, or -1 off the grid."""
    if wrap:
        return index_in(i, n)
    return i if 0 <= i < n else -1


@njit_no_refcount(cache=True)
def _vis_at(vis: PoolArray, ix: int, iy: int, nx: int, ny: int, wrap: bool) -> float:
    jx, jy = _wrap_index(ix, nx, wrap), _wrap_index(iy, ny, wrap)
    if jx < 0 or jy < 0:
        return 0.0
    return float(vis[jy, jx])


@njit_no_refcount(cache=True)
def _look_back(
    vis: PoolArray, sx: int, sy: int, dx: int, dy: int, r: int, nx: int, ny: int, wrap: bool
) -> float:
    """Visibility one cell back from offset (dx, dy) (ring r) along the line to the source,
    interpolated between the two cells of ring r - 1 that line passes between."""
    if abs(dx) == abs(dy):
        return _vis_at(vis, sx + dx - np.sign(dx), sy + dy - np.sign(dy), nx, ny, wrap)
    t = (r - 1) / r
    if abs(dx) == r:
        back = dy * t
        low = math.floor(back)
        f = back - low
        x = sx + dx - np.sign(dx)
        v0 = _vis_at(vis, x, sy + low, nx, ny, wrap)
        v1 = _vis_at(vis, x, sy + low + 1, nx, ny, wrap)
    else:
        back = dx * t
        low = math.floor(back)
        f = back - low
        y = sy + dy - np.sign(dy)
        v0 = _vis_at(vis, sx + low, y, nx, ny, wrap)
        v1 = _vis_at(vis, sx + low + 1, y, nx, ny, wrap)
    return v0 * (1.0 - f) + v1 * f


@njit_no_refcount(cache=True, nogil=True)
def cells_to_reach(
    points: FloatArray,
    left: float,
    bottom: float,
    cell_w: float,
    cell_h: float,
    blocked: ByteArray,
    wrap: bool,
    window: bool,
    around: int,
    out: IntArray,
) -> int:
    """Write into `out` (at least (2·around + 1)² + 1 slots a point) the flat cells a march
    must reach for each of `points` to read its way; returns how many it wrote. A point's
    own cell (clamped to the grid, or wrapped), and for a point in a blocked cell the cells
    `around` it; a window (`window`) leaves out the points past its edge."""
    ny, nx = blocked.shape
    width, height = nx * cell_w, ny * cell_h
    count = 0
    for i in range(points.shape[0]):
        x, y = points[i, 0] - left, points[i, 1] - bottom
        if window and not (0.0 <= x < width and 0.0 <= y < height):
            continue
        ix, iy = math.floor(x / cell_w), math.floor(y / cell_h)
        if wrap:
            ix, iy = index_in(ix, nx), index_in(iy, ny)
        else:
            ix, iy = min(max(ix, 0), nx - 1), min(max(iy, 0), ny - 1)
        out[count] = iy * nx + ix
        count += 1
        if not blocked[iy, ix]:
            continue
        for jy in range(iy - around, iy + around + 1):
            for jx in range(ix - around, ix + around + 1):
                if wrap:
                    out[count] = index_in(jy, ny) * nx + index_in(jx, nx)
                elif 0 <= jx < nx and 0 <= jy < ny:
                    out[count] = jy * nx + jx
                else:
                    continue
                count += 1
    return count


@njit_no_refcount(cache=True, nogil=True)
def visibility(distance: FloatArray, sx: int, sy: int, wrap: bool, vis: PoolArray) -> None:
    """vis ≥ 0.5 where the straight line from the cell to source cell (sx, sy) crosses only
    reached cells; ring by ring outward, each cell taking the visibility one cell back
    along its line (`_look_back`, interpolated), so that each ring reads only the ring
    inside it. Unreached cells are 0: shadows start there and widen as they go."""
    ny, nx = distance.shape
    vis[:, :] = 0.0
    if not math.isfinite(distance[sy, sx]):
        return
    vis[sy, sx] = 1.0
    reach_x = nx // 2 if wrap else nx
    reach_y = ny // 2 if wrap else ny
    for r in range(1, max(reach_x, reach_y) + 1):
        seen = False
        for side in range(4):
            for k in range(-r, r + 1):
                if side < 2:  # bottom and top rows of the ring
                    dx, dy = k, -r if side == 0 else r
                else:  # left and right columns, without the corners
                    if abs(k) == r:
                        continue
                    dx, dy = -r if side == 2 else r, k
                if abs(dx) > reach_x or abs(dy) > reach_y:
                    continue
                ix, iy = _wrap_index(sx + dx, nx, wrap), _wrap_index(sy + dy, ny, wrap)
                if ix < 0 or iy < 0 or not math.isfinite(distance[iy, ix]):
                    continue
                # Kept as a fraction, not rounded: rounding each ring would stop a shadow
                # from widening by less than a cell per ring (a band, not a cone).
                v = _look_back(vis, sx, sy, dx, dy, r, nx, ny, wrap)
                vis[iy, ix] = v
                seen = seen or v > 0.0
        if not seen:  # nothing further can be seen through this ring
            return


@numba.njit(cache=True)
def _downhill(here: float, low: float, high: float, h: float) -> float:
    """Descent along one axis: towards the lower neighbour, by the upwind difference."""
    if low <= high:
        return -(here - low) / h if low < here else 0.0
    return (here - high) / h if high < here else 0.0


@njit_no_refcount(cache=True, nogil=True)
def descent(
    distance: FloatArray,
    cell_w: float,
    cell_h: float,
    wrap: bool,
    tx: float,
    ty: float,
    out: PoolArray,
) -> None:
    """out[iy, ix] = the unit direction downhill at each reached cell ((0, 0) elsewhere); at
    the bottom (the target's cells), straight at the target point (tx, ty), if it is finite
    (a flee map has no target: its bottom is its edge, where nothing is left to flee)."""
    ny, nx = distance.shape
    for iy in range(ny):
        for ix in range(nx):
            here = distance[iy, ix]
            out[iy, ix, 0] = out[iy, ix, 1] = 0.0
            if not math.isfinite(here):
                continue
            left = _at(distance, ix - 1, iy, nx, ny, wrap)
            right = _at(distance, ix + 1, iy, nx, ny, wrap)
            down = _at(distance, ix, iy - 1, nx, ny, wrap)
            up = _at(distance, ix, iy + 1, nx, ny, wrap)
            gx = _downhill(here, left, right, cell_w)
            gy = _downhill(here, down, up, cell_h)
            if gx == 0.0 and gy == 0.0 and math.isfinite(tx):
                gx, gy = tx - (ix + 0.5) * cell_w, ty - (iy + 0.5) * cell_h
            norm = math.sqrt(gx * gx + gy * gy)
            if norm > 0.0:
                out[iy, ix, 0], out[iy, ix, 1] = gx / norm, gy / norm


@njit_no_refcount(cache=True)
def _at(distance: FloatArray, ix: int, iy: int, nx: int, ny: int, wrap: bool) -> float:
    jx, jy = _wrap_index(ix, nx, wrap), _wrap_index(iy, ny, wrap)
    if jx < 0 or jy < 0:
        return math.inf
    return float(distance[jy, jx])
