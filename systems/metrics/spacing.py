"""How spread out a flock is: the mean distance to the nearest other boid."""

import math

import numba
import numpy as np
import numpy.typing as npt

from shoal.systems.core.grid import Grid, GridFrame
from shoal.systems.core.maths import wrapped
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.metrics.points import as_points, as_wrap_size, grid_for

# Cells for the nearest-neighbour search hold about this many boids each, so the first ring
# or two of cells settles the search (1 to 8 all measured 12-20 ms at 50,000 boids).
_NN_BOIDS_PER_CELL = 2.0

# If the boids fill less than this share of the cells, they are clustered (a school in a big
# tank): the cells are then sized again by the area the boids actually occupy, or a crowded
# cell would make the search quadratic.
_CLUSTERED_FILL = 0.25


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
    pos = as_points("mean_nn_distance", "positions", positions)
    size = as_wrap_size("mean_nn_distance", wrap_size)
    if len(pos) < 2:
        return math.nan
    grid = _nn_grid(pos, size)
    nearest = _nearest_distances(
        pos, grid.order, grid.cell_start, grid.cell_x, grid.cell_y, grid.frame
    )
    return float(nearest.mean())


def _nn_grid(pos: FloatArray, size: tuple[float, float] | None) -> Grid:
    """A grid whose cells hold a few boids each, even when the boids are clustered."""
    extent = size or (float(np.ptp(pos[:, 0])), float(np.ptp(pos[:, 1])))
    cell = _cell_for_density(extent[0] * extent[1], max(extent), len(pos))
    grid = grid_for(pos, cell, size)
    occupied = np.count_nonzero(np.diff(grid.cell_start))
    if occupied < _CLUSTERED_FILL * grid.nx * grid.ny:
        occupied_area = occupied * grid.cell_w * grid.cell_h
        grid = grid_for(pos, _cell_for_density(occupied_area, max(extent), len(pos)), size)
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
    frame: GridFrame,
) -> FloatArray:
    """Distance from each boid to its nearest other boid (needs at least 2 boids).

    Phases per boid: scan ring r of cells around its own → stop once the best distance found
    is no more than the distance to anything beyond ring r → else widen to ring r + 1.
    """
    origin_x, origin_y, cell_w, cell_h, nx, ny, wrap, width, height = frame
    n = positions.shape[0]
    nearest = np.empty(n)
    for i in range(n):
        cx, cy = cell_x[i], cell_y[i]
        # Where the boid sits inside its cell decides how far away the ring walls are.
        fx = _offset_in_cell(positions[i, 0] - origin_x - cx * cell_w, cell_w, width, wrap)
        fy = _offset_in_cell(positions[i, 1] - origin_y - cy * cell_h, cell_h, height, wrap)
        best2 = math.inf
        ring = int(0)  # typed, not the literal 0: its callees compile once, not twice
        while True:
            best2 = _scan_ring(i, ring, best2, positions, order, cell_start, cx, cy, frame)
            beyond = min(
                _distance_past_ring(ring, cx, fx, cell_w, nx, wrap),
                _distance_past_ring(ring, cy, fy, cell_h, ny, wrap),
            )
            if best2 <= beyond * beyond:
                break
            ring += 1
        nearest[i] = math.sqrt(best2)
    return nearest


@numba.njit(cache=True)
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
    frame: GridFrame,
) -> float:
    """The smaller of `best2` and the squared distances from boid i to the boids in the ring.

    The ring is the cells exactly `ring` steps (in x or y) from (cx, cy); ring 0 is the cell
    itself. In a small torus a ring may revisit cells, which only costs time.
    """
    _, _, _, _, nx, ny, wrap, width, height = frame
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


@numba.njit(cache=True)
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
