"""A cell-sorted uniform grid (counting sort), rebuilt whenever the positions change.

Cells are at least as wide as the search radius, so every neighbour of a boid lies in its own
cell or one of the 8 around it. In a torus world the grid tiles the world exactly and the
cell indices wrap; otherwise it covers the bounding box of the boids.
"""

import math
from dataclasses import dataclass

import numba
import numpy as np

from shoal.systems.core.maths import cell_range, index_in, wrapped
from shoal.systems.core.store import FloatArray, IntArray

# A grid never has more cells than this many per boid (plus a floor), so a few boids far
# apart cannot make it allocate a huge empty grid: the cells grow instead.
_MAX_CELLS_PER_BOID = 4
_MIN_MAX_CELLS = 4096

GridFrame = tuple[float, float, float, float, int, int, bool, float, float]
"""A grid's scalars as its kernels take them, one record: origin_x, origin_y, cell_w, cell_h,
nx, ny, wrap, width, height (numba passes a tuple of scalars by value, at no cost)."""


@dataclass(frozen=True, slots=True)
class Grid:
    """Boids sorted by cell.

    Attributes:
        order: row indices sorted by cell.
        cell_start: `order[cell_start[c]:cell_start[c + 1]]` are the rows in cell c
            (c = cx * ny + cy).
        cell_x, cell_y: the cell coordinates of each row.
        origin_x, origin_y: world coordinates of the corner of cell (0, 0).
        cell_w, cell_h: size of a cell (both >= the radius the grid was built for).
        nx, ny: number of cells along x and y.
        wrap: True in a torus world of size `width` × `height`.
    """

    order: IntArray
    cell_start: IntArray
    cell_x: IntArray
    cell_y: IntArray
    origin_x: float
    origin_y: float
    cell_w: float
    cell_h: float
    nx: int
    ny: int
    wrap: bool
    width: float
    height: float

    @property
    def frame(self) -> GridFrame:
        """The scalars of the grid for its kernels (see `GridFrame`)."""
        return (
            float(self.origin_x), float(self.origin_y), float(self.cell_w), float(self.cell_h),
            int(self.nx), int(self.ny), bool(self.wrap), float(self.width), float(self.height),
        )  # fmt: skip


def build_grid(
    positions: FloatArray,
    radius: float,
    wrap: bool,
    width: float,
    height: float,
    origin: tuple[float, float] = (0.0, 0.0),
) -> Grid:
    """Sort `positions` into cells at least `radius` wide.

    Args:
        positions: (n, 2) array.
        radius: the largest search radius the grid must serve (> 0).
        wrap: torus world of size width × height (positions taken modulo the size).
        width, height: world size; used only when `wrap`.
        origin: the torus world's lower-left corner; used only when `wrap`.
    """
    frame = grid_frame(positions, radius, wrap, width, height, origin)
    cell_x, cell_y, order, cell_start = sort_into_cells(positions, *frame[:7])
    return Grid(order, cell_start, cell_x, cell_y, *frame)


def grid_frame(
    positions: FloatArray,
    radius: float,
    wrap: bool,
    width: float,
    height: float,
    origin: tuple[float, float] = (0.0, 0.0),
) -> GridFrame:
    """Where the cells of `build_grid`'s grid lie (its arguments), without sorting: the
    neighbour stage sorts a small flock in the same compiled call that copies it."""
    n = len(positions)
    max_cells = max(_MAX_CELLS_PER_BOID * n, _MIN_MAX_CELLS)
    if wrap:
        origin_x, origin_y = origin
        extent_x, extent_y = width, height
        # Capped before the int: a subnormal radius makes width // radius infinite.
        nx = max(1, int(min(width // radius, max_cells)))
        ny = max(1, int(min(height // radius, max(1, max_cells // nx))))
    else:
        origin_x, origin_y, top_x, top_y = _bounds(positions) if n else (0.0, 0.0, 0.0, 0.0)
        extent_x, extent_y = top_x - origin_x, top_y - origin_y
        # Grow the cells if the box would need too many (also a long thin box: boids in a
        # line); a cell is never below `radius`.
        longest = max(extent_x, extent_y)
        cell = max(radius, math.sqrt(extent_x * extent_y / max_cells), longest / max_cells)
        nx = int(extent_x // cell) + 1
        ny = int(extent_y // cell) + 1
        extent_x, extent_y = nx * cell, ny * cell
    return (
        float(origin_x), float(origin_y), float(extent_x / nx), float(extent_y / ny), nx, ny,
        bool(wrap), float(width), float(height),
    )  # fmt: skip


@numba.njit(cache=True)
def _bounds(positions: FloatArray) -> tuple[float, float, float, float]:
    """The box round some positions: lowest x, y, highest x, y. (numpy's `min(axis=0)` of
    an (n, 2) array reads it with a stride: ~80 µs for 2,000 boids, twice a step each.)"""
    low_x = high_x = positions[0, 0]
    low_y = high_y = positions[0, 1]
    for i in range(1, positions.shape[0]):
        x, y = positions[i, 0], positions[i, 1]
        low_x, high_x = min(low_x, x), max(high_x, x)
        low_y, high_y = min(low_y, y), max(high_y, y)
    return low_x, low_y, high_x, high_y


@numba.njit(cache=True, nogil=True)
def sort_into_cells(
    positions: FloatArray,
    origin_x: float,
    origin_y: float,
    cell_w: float,
    cell_h: float,
    nx: int,
    ny: int,
    wrap: bool,
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Counting sort of `positions` into the cells of a `grid_frame`: each row's cell x
    and y, the rows in cell order, and where each cell's rows start (see `Grid`)."""
    n = positions.shape[0]
    cell_x = np.empty(n, np.int64)
    cell_y = np.empty(n, np.int64)
    cell = np.empty(n, np.int64)
    counts = np.zeros(nx * ny + 1, np.int64)
    for i in range(n):
        cx = math.floor((positions[i, 0] - origin_x) / cell_w)
        cy = math.floor((positions[i, 1] - origin_y) / cell_h)
        if wrap:
            cx, cy = index_in(cx, nx), index_in(cy, ny)
        else:  # the box edge itself (and rounding) belongs to the last cell
            cx = min(max(cx, 0), nx - 1)
            cy = min(max(cy, 0), ny - 1)
        cell_x[i] = cx
        cell_y[i] = cy
        cell[i] = cx * ny + cy
        counts[cell[i] + 1] += 1
    cell_start = np.cumsum(counts)
    fill = cell_start[:-1].copy()
    order = np.empty(n, np.int64)
    for i in range(n):  # stable: rows of a cell stay in row order (determinism)
        order[fill[cell[i]]] = i
        fill[cell[i]] += 1
    return cell_x, cell_y, order, cell_start


@numba.njit(cache=True)
def _query_kernel(
    positions: FloatArray,
    order: IntArray,
    cell_start: IntArray,
    frame: GridFrame,
    x: float,
    y: float,
    radius: float,
) -> IntArray:
    origin_x, origin_y, cell_w, cell_h, nx, ny, wrap, width, height = frame
    cx = math.floor((x - origin_x) / cell_w)
    cy = math.floor((y - origin_y) / cell_h)
    if wrap:
        cx, cy = index_in(cx, nx), index_in(cy, ny)
    reach_x = math.ceil(radius / cell_w)
    reach_y = math.ceil(radius / cell_h)
    x0, x1 = cell_range(cx, reach_x, nx, wrap)
    y0, y1 = cell_range(cy, reach_y, ny, wrap)
    found = np.empty(positions.shape[0], np.int64)
    count = 0
    r2 = radius * radius
    for gx in range(x0, x1 + 1):
        for gy in range(y0, y1 + 1):
            c = index_in(gx, nx) * ny + index_in(gy, ny)
            for k in range(cell_start[c], cell_start[c + 1]):
                j = order[k]
                dx = wrapped(positions[j, 0] - x, width, wrap)
                dy = wrapped(positions[j, 1] - y, height, wrap)
                if dx * dx + dy * dy <= r2:
                    found[count] = j
                    count += 1
    result = found[:count].copy()
    result.sort()
    return result


def query_rows(grid: Grid, positions: FloatArray, x: float, y: float, radius: float) -> IntArray:
    """Rows within `radius` of (x, y) (inclusive, wrap-aware), in row order."""
    return rows_within(
        positions, grid.order, grid.cell_start, grid.frame, float(x), float(y), float(radius)
    )


@numba.njit(cache=True, nogil=True)
def rows_within(
    positions: FloatArray,
    order: IntArray,
    cell_start: IntArray,
    frame: GridFrame,
    x: float,
    y: float,
    radius: float,
) -> IntArray:
    """`query_rows` on a grid's arrays (compiled: a kernel that asks for many points)."""
    origin_x, origin_y, cell_w, cell_h, nx, ny, wrap, width, height = frame
    if positions.shape[0] == 0 or radius < 0.0:
        return np.zeros(0, np.int64)
    if wrap:
        x, y = x % width, y % height  # exact for any finite x, y
    span_x, span_y = nx * cell_w, ny * cell_h
    if not (
        origin_x - radius <= x <= origin_x + span_x + radius
        and origin_y - radius <= y <= origin_y + span_y + radius
    ):
        return np.zeros(0, np.int64)  # out of reach of every cell, however far
    if radius >= max(span_x, span_y):
        # Every cell is in reach; counted in cells, such a radius may overflow the kernel's
        # integers (a radius of 1e21 once found nobody).
        return _query_all(positions, wrap, width, height, x, y, radius)
    return _query_kernel(positions, order, cell_start, frame, x, y, radius)


@numba.njit(cache=True, nogil=True)
def _query_all(
    positions: FloatArray, wrap: bool, width: float, height: float, x: float, y: float,
    radius: float,
) -> IntArray:  # fmt: skip
    """`query_rows` by testing every row: for a radius that reaches every cell."""
    r2 = radius * radius
    found = np.empty(positions.shape[0], np.int64)
    count = 0
    for j in range(positions.shape[0]):
        dx, dy = positions[j, 0] - x, positions[j, 1] - y
        if wrap:
            dx -= width * np.floor(dx / width + 0.5)
            dy -= height * np.floor(dy / height + 0.5)
        # As the kernel tests it; a radius whose square overflows is compared unsquared.
        inside = dx * dx + dy * dy <= r2 if math.isfinite(r2) else math.hypot(dx, dy) <= radius
        if inside:
            found[count] = j
            count += 1
    return found[:count].copy()
