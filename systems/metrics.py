"""Measures of a flock: how aligned, how much it mills, how spread out, in how many groups.

Pure functions on numpy arrays (no esper, no arcade), so they work on a `FlockStore`'s views,
on a recorded run, or on any (n, 2) data::

    from shoal.systems.metrics import group_count, mean_nn_distance, milling, polarization

    polarization(store.velocities)                       # 1.0: all swim the same way
    milling(store.positions, store.velocities)           # 1.0: all circle the centre
    mean_nn_distance(store.positions, wrap_size=(w, h))  # typical spacing in a torus world
    group_count(store.positions, radius=50.0)            # schools linked within 50 units

The two spatial measures use the cell-sorted grid of `shoal.systems.grid` and numba kernels,
so they take milliseconds for tens of thousands of boids.
"""

import math

import numba
import numpy as np
import numpy.typing as npt

from shoal.components import arguments as check
from shoal.systems.grid import Grid, build_grid, cell_range, wrapped
from shoal.systems.store import FloatArray, IntArray

# Cells for the nearest-neighbour search hold about this many boids each, so the first ring
# or two of cells settles the search (1 to 8 all measured 12-20 ms at 50,000 boids).
_NN_BOIDS_PER_CELL = 2.0

# If the boids fill less than this share of the cells, they are clustered (a school in a big
# tank): the cells are then sized again by the area the boids actually occupy, or a crowded
# cell would make the search quadratic.
_CLUSTERED_FILL = 0.25

# Margin against rounding for the linking grid: its cells' diagonal stays this much below the
# radius, so that two boids in one cell are surely linked even after rounding.
_CELL_SLACK = 1.0 + 1e-9

# Coordinates and sizes beyond this are refused: squares of differences stay far from
# overflow (1e300 < 1.8e308), however the boids are spread.
_LARGEST = 1e150

# A boid this close to the flock centre (relative to the flock's size) is "at the centre":
# the mean position carries rounding error, so a boid placed there is never exactly on it.
_CENTRE_TOLERANCE = 1e-9


# --- alignment and rotation ---------------------------------------------------------------
def polarization(velocities: npt.ArrayLike) -> float:
    """How aligned the flock is: the length of the mean unit heading.

    Args:
        velocities: (n, 2) velocities. Boids with zero speed have no heading and are left out.

    Returns:
        A value in [0, 1]: 1.0 when every moving boid heads the same way, near 0 for random or
        opposing headings, and 0.0 when no boid moves.

    Raises:
        ValueError: if `velocities` is not a finite (n, 2) array.
    """
    vel = _as_points("polarization", "velocities", velocities)
    speed = np.hypot(vel[:, 0], vel[:, 1])
    moving = speed > 0.0
    if not moving.any():
        return 0.0
    headings = vel[moving] / speed[moving, None]
    return _clip_unit(float(np.hypot(*headings.mean(axis=0))))


def milling(positions: npt.ArrayLike, velocities: npt.ArrayLike) -> float:
    """How much the flock circles its centre: the normalised angular momentum.

    For each boid, r is its offset from the flock centre (the mean position) and v its
    velocity; the result is |mean of cross(r, v) / (|r| |v|)|, the mean sine of the angle between
    offset and heading.

    Args:
        positions: (n, 2) positions.
        velocities: (n, 2) velocities, one row per position.

    Returns:
        A value in [0, 1]: 1.0 when every boid moves tangentially round the centre in the same
        sense, near 0 for a flock swimming straight or halves turning opposite ways. Boids at
        the centre or with zero speed are left out; 0.0 when none is left.

    Raises:
        ValueError: if the arrays are not finite (n, 2) arrays of the same length.
    """
    pos = _as_points("milling", "positions", positions)
    vel = _as_points("milling", "velocities", velocities)
    if len(pos) != len(vel):
        raise ValueError(
            f"milling: positions and velocities must have the same length, got {len(pos)} and "
            f"{len(vel)}"
        )
    if len(pos) == 0:
        return 0.0
    offset = pos - pos.mean(axis=0)
    reach = np.hypot(offset[:, 0], offset[:, 1])
    speed = np.hypot(vel[:, 0], vel[:, 1])
    counted = (reach > _CENTRE_TOLERANCE * reach.max()) & (speed > 0.0)
    if not counted.any():
        return 0.0
    offset, vel = offset[counted], vel[counted]
    cross = offset[:, 0] * vel[:, 1] - offset[:, 1] * vel[:, 0]
    sines = cross / (reach[counted] * speed[counted])
    return _clip_unit(abs(float(sines.mean())))


# --- spacing ------------------------------------------------------------------------------
def mean_nn_distance(
    positions: npt.ArrayLike, wrap_size: tuple[float, float] | None = None
) -> float:
    """The mean distance from each boid to its nearest other boid.

    Args:
        positions: (n, 2) positions.
        wrap_size: (width, height) of a torus world: distances then go the short way round
            (minimal image) and positions are taken modulo the size. None for an open world.

    Returns:
        The mean nearest-neighbour distance (0.0 for boids on the same spot), or NaN for fewer
        than 2 boids.

    Raises:
        ValueError: if `positions` is not a finite (n, 2) array or `wrap_size` is not two
            positive finite numbers.
    """
    pos = _as_points("mean_nn_distance", "positions", positions)
    size = _as_wrap_size("mean_nn_distance", wrap_size)
    if len(pos) < 2:
        return math.nan
    grid = _nn_grid(pos, size)
    nearest = _nearest_distances(
        pos,
        grid.order,
        grid.cell_start,
        grid.cell_x,
        grid.cell_y,
        grid.origin_x,
        grid.origin_y,
        grid.cell_w,
        grid.cell_h,
        grid.nx,
        grid.ny,
        grid.wrap,
        grid.width,
        grid.height,
    )
    return float(nearest.mean())


def _nn_grid(pos: FloatArray, size: tuple[float, float] | None) -> Grid:
    """A grid whose cells hold a few boids each, even when the boids are clustered."""
    extent = size or (float(np.ptp(pos[:, 0])), float(np.ptp(pos[:, 1])))
    cell = _cell_for_density(extent[0] * extent[1], max(extent), len(pos))
    grid = _build(pos, cell, size)
    occupied = np.count_nonzero(np.diff(grid.cell_start))
    if occupied < _CLUSTERED_FILL * grid.nx * grid.ny:
        occupied_area = occupied * grid.cell_w * grid.cell_h
        grid = _build(pos, _cell_for_density(occupied_area, max(extent), len(pos)), size)
    return grid


def _cell_for_density(area: float, longest: float, n: int) -> float:
    """A cell size that puts about `_NN_BOIDS_PER_CELL` of n boids spread over `area` in a cell.

    Boids on a line (no area) are spaced along it instead; boids all on one spot take any size.
    """
    if area > 0.0:
        return math.sqrt(_NN_BOIDS_PER_CELL * area / n)
    if longest > 0.0:
        return _NN_BOIDS_PER_CELL * longest / n
    return 1.0


@numba.njit(cache=True)
def _nearest_distances(
    positions: FloatArray,
    order: IntArray,
    cell_start: IntArray,
    cell_x: IntArray,
    cell_y: IntArray,
    origin_x: float,
    origin_y: float,
    cell_w: float,
    cell_h: float,
    nx: int,
    ny: int,
    wrap: bool,
    width: float,
    height: float,
) -> FloatArray:
    """Distance from each boid to its nearest other boid (needs at least 2 boids).

    Phases per boid: scan ring r of cells around its own → stop once the best distance found
    is no more than the distance to anything beyond ring r → else widen to ring r + 1.
    """
    n = positions.shape[0]
    nearest = np.empty(n)
    for i in range(n):
        cx, cy = cell_x[i], cell_y[i]
        # Where the boid sits inside its cell decides how far away the ring walls are.
        fx = _offset_in_cell(positions[i, 0] - origin_x - cx * cell_w, cell_w, width, wrap)
        fy = _offset_in_cell(positions[i, 1] - origin_y - cy * cell_h, cell_h, height, wrap)
        best2 = math.inf
        ring = 0
        while True:
            best2 = _scan_ring(
                i, ring, best2, positions, order, cell_start, cx, cy, nx, ny, wrap, width, height
            )
            beyond = min(
                _distance_past_ring(ring, cx, fx, cell_w, nx, wrap),
                _distance_past_ring(ring, cy, fy, cell_h, ny, wrap),
            )
            if best2 <= beyond * beyond:
                break
            ring += 1
        nearest[i] = math.sqrt(best2)
    return nearest


@numba.njit(cache=True, inline="always")
def _offset_in_cell(offset: float, cell: float, size: float, wrap: bool) -> float:
    """The boid's offset from its cell's low wall, kept in [0, cell] against rounding."""
    inside: float = wrapped(offset, size, wrap)
    return min(max(inside, 0.0), cell)


@numba.njit(cache=True)
def _scan_ring(
    i: int,
    ring: int,
    best2: float,
    positions: FloatArray,
    order: IntArray,
    cell_start: IntArray,
    cx: int,
    cy: int,
    nx: int,
    ny: int,
    wrap: bool,
    width: float,
    height: float,
) -> float:
    """The smaller of `best2` and the squared distances from boid i to the boids in the ring.

    The ring is the cells exactly `ring` steps (in x or y) from (cx, cy); ring 0 is the cell
    itself. In a small torus a ring may revisit cells, which only costs time.
    """
    x, y = positions[i, 0], positions[i, 1]
    for ox in range(-ring, ring + 1):
        gx = cx + ox
        if not wrap and (gx < 0 or gx >= nx):
            continue
        # The side columns of the ring are full; the ones between only have top and bottom.
        step = 1 if abs(ox) == ring else 2 * ring
        for oy in range(-ring, ring + 1, step):
            gy = cy + oy
            if not wrap and (gy < 0 or gy >= ny):
                continue
            c = (gx % nx) * ny + (gy % ny)
            for k in range(cell_start[c], cell_start[c + 1]):
                j = order[k]
                if j == i:
                    continue
                dx = wrapped(positions[j, 0] - x, width, wrap)
                dy = wrapped(positions[j, 1] - y, height, wrap)
                best2 = min(best2, dx * dx + dy * dy)
    return best2


@numba.njit(cache=True, inline="always")
def _distance_past_ring(
    ring: int, c: int, f: float, cell: float, n_cells: int, wrap: bool
) -> float:
    """Along one axis, the least distance to a cell outside rings 0..ring (inf if none is left).

    `c` is the boid's cell index on the axis and `f` its offset inside that cell. In an open
    world each side counts only while the grid goes on past the ring; in a torus both sides
    count until the rings have covered every cell of the axis.
    """
    if wrap:
        if 2 * ring + 1 >= n_cells:
            return math.inf
        return ring * cell + min(f, cell - f)
    low = f + ring * cell if c - ring > 0 else math.inf
    high = (cell - f) + ring * cell if c + ring < n_cells - 1 else math.inf
    return min(low, high)


# --- groups -------------------------------------------------------------------------------
def group_count(
    positions: npt.ArrayLike, radius: float, wrap_size: tuple[float, float] | None = None
) -> int:
    """The number of separate groups: boids are linked when at most `radius` apart.

    Groups are the connected components of that link graph, so a chain of boids each within
    `radius` of the next is one group however long it is.

    Args:
        positions: (n, 2) positions.
        radius: the link distance (finite, > 0); boids exactly `radius` apart are linked.
        wrap_size: (width, height) of a torus world: distances then go the short way round
            (minimal image) and positions are taken modulo the size. None for an open world.

    Returns:
        The number of groups; 0 for no boids, and a lone boid is a group of its own.

    Raises:
        ValueError: if `positions` is not a finite (n, 2) array, `radius` is not finite and
            positive, or `wrap_size` is not two positive finite numbers.
    """
    pos = _as_points("group_count", "positions", positions)
    link = check.number("group_count", "radius", radius, low=0.0, above=True)
    size = _as_wrap_size("group_count", wrap_size)
    if len(pos) == 0:
        return 0
    if link >= _span(pos, size):  # every pair is linked (and a huge radius would overflow)
        return 1
    grid = _build(pos, _clique_cell(link, size), size)
    # Cells no wider than radius / sqrt(2) hold boids that are all linked to each other; the
    # grid may have grown them (cell cap), and then every pair must be checked.
    cliques = grid.cell_w**2 + grid.cell_h**2 <= (link / _CELL_SLACK) ** 2
    # How many cells away a linked boid can be (a distance spans at most floor(d / w) + 1).
    reach_x = int(link // grid.cell_w) + 1
    reach_y = int(link // grid.cell_h) + 1
    return int(
        _count_groups(
            pos,
            grid.order,
            grid.cell_start,
            grid.origin_x,
            grid.origin_y,
            grid.cell_w,
            grid.cell_h,
            grid.nx,
            grid.ny,
            reach_x,
            reach_y,
            grid.wrap,
            grid.width,
            grid.height,
            link,
            cliques,
        )
    )


def _clique_cell(radius: float, size: tuple[float, float] | None) -> float:
    """The cell size to ask for so that a cell's diagonal is (just) below `radius`.

    A torus grid divides the world into whole cells, rounding their number down, which widens
    them; ask for a size that already divides both sides into whole cells.
    """
    cell = radius / (math.sqrt(2.0) * _CELL_SLACK)
    if size is None:
        return cell
    fits = min(side / math.ceil(side / cell) for side in size)
    return fits / _CELL_SLACK


@numba.njit(cache=True)
def _count_groups(
    positions: FloatArray,
    order: IntArray,
    cell_start: IntArray,
    origin_x: float,
    origin_y: float,
    cell_w: float,
    cell_h: float,
    nx: int,
    ny: int,
    reach_x: int,
    reach_y: int,
    wrap: bool,
    width: float,
    height: float,
    radius: float,
    cliques: bool,
) -> int:
    """Connected components of the "within radius" graph, by union-find over pairs of cells.

    Phases: (if cells are cliques) join every cell into one group → for each pair of non-empty
    cells within reach, merge the groups of linked boids. Each merge leaves one group fewer.
    """
    n = positions.shape[0]
    parent = np.arange(n)
    groups: int = n
    if cliques:
        groups -= _join_each_cell(parent, order, cell_start)
    for a in range(nx * ny):
        if cell_start[a] == cell_start[a + 1]:
            continue
        x0, x1 = cell_range(a // ny, reach_x, nx, wrap)
        y0, y1 = cell_range(a % ny, reach_y, ny, wrap)
        for gx in range(x0, x1 + 1):
            for gy in range(y0, y1 + 1):
                b = (gx % nx) * ny + (gy % ny)
                if b < a or (b == a and cliques):  # each pair of cells once
                    continue
                if cell_start[b] == cell_start[b + 1]:
                    continue
                # Cell b spans [low_x, low_x + cell_w] by [low_y, low_y + cell_h].
                low_x = origin_x + (gx % nx) * cell_w
                low_y = origin_y + (gy % ny) * cell_h
                groups -= _link_cells(
                    a,
                    b,
                    low_x,
                    low_y,
                    cell_w,
                    cell_h,
                    cliques,
                    parent,
                    positions,
                    order,
                    cell_start,
                    wrap,
                    width,
                    height,
                    radius,
                )
    return groups


@numba.njit(cache=True)
def _join_each_cell(parent: IntArray, order: IntArray, cell_start: IntArray) -> int:
    """Put each cell's boids in one group (with its first boid); return the number of merges."""
    merges = 0
    for c in range(cell_start.shape[0] - 1):
        for k in range(cell_start[c] + 1, cell_start[c + 1]):
            parent[order[k]] = order[cell_start[c]]
            merges += 1
    return merges


@numba.njit(cache=True)
def _link_cells(
    a: int,
    b: int,
    low_x: float,
    low_y: float,
    cell_w: float,
    cell_h: float,
    cliques: bool,
    parent: IntArray,
    positions: FloatArray,
    order: IntArray,
    cell_start: IntArray,
    wrap: bool,
    width: float,
    height: float,
    radius: float,
) -> int:
    """Merge the groups of linked boids of cells a and b (a == b: within a); return merges.

    With `cliques` each cell is already one group, so the first link joins the pair: skip
    pairs already joined through other cells and stop at the first link. Boids of a too far
    from b's rectangle are skipped before looking at b's boids; without that, two crowded
    cells that barely touch (diagonal neighbours two cells apart) cost |a| * |b| checks.
    """
    if cliques and _root(parent, order[cell_start[a]]) == _root(parent, order[cell_start[b]]):
        return 0
    r2 = radius * radius
    reach2 = r2 * _CELL_SLACK  # boids on a cell's wall may be a rounding error outside it
    merges = 0
    for p in range(cell_start[a], cell_start[a + 1]):
        i = order[p]
        x, y = positions[i, 0], positions[i, 1]
        gap_x = _gap_to_span(x, low_x, cell_w, width, wrap)
        gap_y = _gap_to_span(y, low_y, cell_h, height, wrap)
        if gap_x * gap_x + gap_y * gap_y > reach2:
            continue
        first = p + 1 if a == b else cell_start[b]  # within one cell, each pair once
        for q in range(first, cell_start[b + 1]):
            j = order[q]
            dx = wrapped(positions[j, 0] - x, width, wrap)
            dy = wrapped(positions[j, 1] - y, height, wrap)
            if dx * dx + dy * dy <= r2 and _merge(parent, i, j):
                merges += 1
                if cliques:
                    return merges
    return merges


@numba.njit(cache=True, inline="always")
def _gap_to_span(x: float, low: float, span: float, size: float, wrap: bool) -> float:
    """Distance along one axis from x to the nearest point of [low, low + span]."""
    to_middle: float = wrapped(low + 0.5 * span - x, size, wrap)
    return max(abs(to_middle) - 0.5 * span, 0.0)


@numba.njit(cache=True, inline="always")
def _root(parent: IntArray, i: int) -> int:
    """The representative of i's group; halves the path on the way (keeps trees shallow)."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@numba.njit(cache=True, inline="always")
def _merge(parent: IntArray, i: int, j: int) -> bool:
    """Join the groups of i and j; False if they were already one group."""
    ri = _root(parent, i)
    rj = _root(parent, j)
    if ri == rj:
        return False
    parent[max(ri, rj)] = min(ri, rj)
    return True


# --- shared helpers -----------------------------------------------------------------------
def _build(pos: FloatArray, cell: float, size: tuple[float, float] | None) -> Grid:
    """A grid with cells at least `cell` wide, tiling the torus when `size` is given."""
    if size is None:
        return build_grid(pos, cell, False, 0.0, 0.0)
    return build_grid(pos, cell, True, size[0], size[1])


def _clip_unit(value: float) -> float:
    """Keep a mean of unit quantities in [0, 1] despite rounding (it can reach 1 + 1e-16)."""
    return min(max(value, 0.0), 1.0)


def _as_points(owner: str, name: str, values: npt.ArrayLike) -> FloatArray:
    """`values` as a contiguous float64 (n, 2) array, or ValueError naming the argument.

    Coordinates beyond ±`_LARGEST` are refused: their differences and squares would
    overflow to inf, and the measures would come out NaN without a word.
    """
    try:
        array = np.ascontiguousarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        check.fail(owner, name, values, "must be an (n, 2) array of numbers")
    if array.ndim != 2 or array.shape[1] != 2:
        check.fail(owner, name, values, f"must have shape (n, 2), got {array.shape}")
    if not np.isfinite(array).all():
        check.fail(owner, name, values, "must be finite (no NaN or inf)")
    if array.size and np.abs(array).max() > _LARGEST:
        check.fail(owner, name, values, f"must lie within ±{_LARGEST:g}")
    return array


def _as_wrap_size(owner: str, wrap_size: object) -> tuple[float, float] | None:
    """`wrap_size` as two floats (or None), or ValueError unless both are finite and > 0."""
    if wrap_size is None:
        return None
    width, height = check.pair(owner, "wrap_size", wrap_size)
    if not (0.0 < width <= _LARGEST and 0.0 < height <= _LARGEST):
        check.fail(owner, "wrap_size", wrap_size, f"must be positive, at most {_LARGEST:g}")
    return width, height


def _span(pos: FloatArray, size: tuple[float, float] | None) -> float:
    """A distance that no two of the boids are apart by more than (the short way round)."""
    if size is not None:
        return 0.5 * math.hypot(*size)
    return math.hypot(float(np.ptp(pos[:, 0])), float(np.ptp(pos[:, 1])))
