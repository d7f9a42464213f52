"""The walkable raster of a world and the flow fields built on it.

`NavGrid` cuts the world into cells and marks those within a clearance of an obstacle as
blocked (`shoal.systems.obstacles.flow_kernel.rasterize`). `build_seek` and `build_flee` fill
one slot of a field pool: the distance to a target (or the flee map of a threat), its
visibility and its descent directions.
"""

import math
from dataclasses import dataclass

import numpy as np

from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.obstacles.field import ObstacleField, first_hit
from shoal.systems.obstacles.flow_kernel import (
    C_DIST,
    C_DX,
    C_VIS,
    ByteArray,
    PoolArray,
    cells_to_reach,
    descent,
    flee_values,
    march,
    rasterize,
    visibility,
)
from shoal.systems.obstacles.way_kernel import READ_CELLS

NAV_CELL = 10.0
"""Default side of a navigation cell (px); larger in a world rasterized whole that would
need more than MAX_NAV_CELLS (a 1920 × 1080 tank has 16,400 cells of 11.2 px)."""
MAX_NAV_CELLS = 1 << 14
"""A world rasterized whole has at most this many cells (larger ones, where that many would
not keep the cells fine, are rasterized through a window: `Navigator.max_cells`)."""
NAV_CLEARANCE = 8.0
"""Default room (px) a way keeps from obstacles: about half a default fish's length."""
# A wall thinner than a cell closes the raster only if the clearance reaches the centre of
# one cell in every row and column it crosses: at least this share of the cell's side.
_CLOSING_SHARE = 0.75
NEAR = 40.0
"""px: ways keep this far off the walls (the clearance's edge) where there is room."""
NEAR_COST = 1.0
"""How much more a px costs right beside a wall than in open water."""
# A target's field starts from the free cells this many cells round it that it can see.
_SEED_CELLS = 2


@dataclass(frozen=True, slots=True)
class NavGrid:
    """A world (or a window of it) cut into cells, those within `clearance` of an obstacle
    blocked: what `Navigator.grid` gives.

    Attributes:
        field: the obstacles it was made from.
        width, height: the size of what the cells tile exactly: the world, or a window of
            it (`window`).
        left, bottom: its lower-left corner, where the cells start (the field kernels read
            points measured from it: `local`).
        wrap: whether the world is a torus (the cells wrap round).
        nx, ny: cells across and up.
        cell_w, cell_h: a cell's size (px).
        clearance: room kept from obstacles (px).
        blocked: (ny, nx), 1 where a cell is blocked.
        links: (nx·ny, 4) the flat index of the cells beside each cell (-x, +x, -y, +y),
            round the torus or nx·ny (no cell) past the edge.
        cost: (ny, nx) what a px through each cell costs a way: 1 in open water, up to
            1 + NEAR_COST beside a blocked cell, so that ways keep off the walls (through
            the middle of a gap, round a corner in a curve), where boids crowding onto one
            line along the wall would file through one by one.
        window: whether the cells cover only a window of a larger world (see
            `shoal.systems.obstacles.navigation.Navigator.max_cells`); points outside it
            have no way.
    """

    field: ObstacleField
    width: float
    height: float
    left: float
    bottom: float
    wrap: bool
    nx: int
    ny: int
    cell_w: float
    cell_h: float
    clearance: float
    blocked: ByteArray
    links: IntArray
    cost: FloatArray
    window: bool = False

    @property
    def origin(self) -> tuple[float, float]:
        """(left, bottom): where the cells start."""
        return self.left, self.bottom

    def local(self, points: FloatArray) -> FloatArray:
        """(n, 2) points measured from the grid's origin, as the field kernels read them
        (the same array when the world starts at (0, 0))."""
        if self.left == 0.0 and self.bottom == 0.0:
            return points
        shifted: FloatArray = points - np.array([self.left, self.bottom])
        return shifted

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        """The (ix, iy) of the cell holding (x, y) (wrapped, or clamped to the grid)."""
        x, y = x - self.left, y - self.bottom
        ix, iy = math.floor(x / self.cell_w), math.floor(y / self.cell_h)
        if self.wrap:
            return ix % self.nx, iy % self.ny
        return min(max(ix, 0), self.nx - 1), min(max(iy, 0), self.ny - 1)

    def cells_of(self, points: FloatArray) -> IntArray:
        """Flat cell index (iy * nx + ix) of each point, as `cell_of`."""
        points = self.local(points)
        ix = np.floor(points[:, 0] / self.cell_w).astype(np.int64)
        iy = np.floor(points[:, 1] / self.cell_h).astype(np.int64)
        if self.wrap:
            ix, iy = ix % self.nx, iy % self.ny
        else:
            ix, iy = ix.clip(0, self.nx - 1), iy.clip(0, self.ny - 1)
        return iy * self.nx + ix

    def reach_cells(self, points: FloatArray) -> IntArray:
        """The cells a field must reach for each of the points on the grid to read its way
        (a march's `until`): its own cell, and for a point in a blocked cell (hugging a
        wall) the cells round it that `shoal.systems.obstacles.way_kernel.sample` reads
        then. A window leaves out the points past its edge."""
        out = np.empty(len(points) * ((2 * READ_CELLS + 1) ** 2 + 1), np.int64)
        count = cells_to_reach(
            points, self.left, self.bottom, self.cell_w, self.cell_h, self.blocked, self.wrap,
            self.window, READ_CELLS, out,
        )  # fmt: skip
        return out[:count]


def build_nav_grid(
    field: ObstacleField,
    width: float,
    height: float,
    wrap: bool,
    cell: float = NAV_CELL,
    clearance: float = NAV_CLEARANCE,
    origin: tuple[float, float] = (0.0, 0.0),
    max_cells: int = MAX_NAV_CELLS,
    window: bool = False,
) -> NavGrid:
    """Rasterize `field` over a width × height area whose lower-left corner is `origin`
    (cells about `cell` px, at most `max_cells`; the clearance grows to close thin walls
    if the cells must grow); `window`: the area is a window of a larger world."""
    left, bottom = float(origin[0]), float(origin[1])
    cell = max(cell, math.sqrt(width * height / max_cells))
    nx, ny = max(1, round(width / cell)), max(1, round(height / cell))
    cell_w, cell_h = width / nx, height / ny
    clearance = max(clearance, _CLOSING_SHARE * max(cell_w, cell_h))
    blocked = np.zeros((ny, nx), np.uint8)
    if len(field):
        shape_f, shape_i, seg = field.geometry[:3]
        rasterize(shape_f, shape_i, seg, cell_w, cell_h, left, bottom, clearance, blocked)
    links = _links(nx, ny, wrap)
    cost = _near_cost(blocked, links, cell_w, cell_h)
    return NavGrid(
        field, width, height, left, bottom, wrap, nx, ny, cell_w, cell_h, clearance, blocked,
        links, cost, window,
    )  # fmt: skip


def _near_cost(blocked: ByteArray, links: IntArray, cell_w: float, cell_h: float) -> FloatArray:
    """The cost of each cell: 1 + NEAR_COST · (1 - d / NEAR)² within NEAR px of a blocked
    cell (d: the distance to it, by a march from every blocked cell), 1 elsewhere."""
    cost = np.ones(blocked.shape)
    if not blocked.any():
        return cost
    distance = np.where(blocked == 1, 0.0, math.inf)
    open_water = np.zeros_like(blocked)
    none = np.zeros(0, np.int64)
    march(links, open_water, cost, distance, cell_w, cell_h, NEAR, none)
    near = np.clip(1.0 - distance / NEAR, 0.0, 1.0)
    result: FloatArray = 1.0 + NEAR_COST * near * near
    return result


def _links(nx: int, ny: int, wrap: bool) -> IntArray:
    """The cells beside each cell (see `NavGrid.links`)."""
    iy, ix = (a.ravel() for a in np.mgrid[0:ny, 0:nx])
    links = np.empty((nx * ny, 4), np.int64)
    for k, (sx, sy) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
        jx, jy = ix + sx, iy + sy
        if wrap:
            links[:, k] = (jy % ny) * nx + jx % nx
        else:
            off = (jx < 0) | (jx >= nx) | (jy < 0) | (jy >= ny)
            links[:, k] = np.where(off, nx * ny, jy * nx + jx)
    return links


# --- fields -----------------------------------------------------------------------------
def seed_values(grid: NavGrid, x: float, y: float) -> FloatArray | None:
    """Starting values of a march from (x, y): the exact distance at each free cell near it
    whose centre it sees past every obstacle; None if it sees none (walled in)."""
    cx, cy = grid.cell_of(x, y)
    span = np.arange(-_SEED_CELLS, _SEED_CELLS + 1)
    ix, iy = (a.ravel() for a in np.meshgrid(cx + span, cy + span))
    if grid.wrap:
        ix, iy = ix % grid.nx, iy % grid.ny
    else:
        keep = (ix >= 0) & (ix < grid.nx) & (iy >= 0) & (iy < grid.ny)
        ix, iy = ix[keep], iy[keep]
    keep = grid.blocked[iy, ix] == 0
    ix, iy = ix[keep], iy[keep]
    centres = np.column_stack(
        (grid.left + (ix + 0.5) * grid.cell_w, grid.bottom + (iy + 0.5) * grid.cell_h)
    )
    offsets = centres - (x, y)
    if grid.wrap:  # the short way round
        offsets -= np.rint(offsets / (grid.width, grid.height)) * (grid.width, grid.height)
    starts = np.broadcast_to(np.array([(x, y)], float), offsets.shape)
    seen = first_hit(grid.field, starts, starts + offsets).obstacle < 0
    if not seen.any():
        return None
    values = np.full((grid.ny, grid.nx), math.inf)
    values[iy[seen], ix[seen]] = np.hypot(*offsets[seen].T)
    return values


def build_seek(
    grid: NavGrid, plane: PoolArray, x: float, y: float, limit: float, until: IntArray
) -> bool:
    """Fill `plane` (ny, nx, 4: one pool slot) with the field towards (x, y): distance (up
    to `limit`, or just past the cells `until`), descent and visibility. Returns True if
    the march reached all it could."""
    values = seed_values(grid, x, y)
    if values is None:
        _unreached(plane)
        return True
    complete = march(
        grid.links, grid.blocked, grid.cost, values, grid.cell_w, grid.cell_h, limit, until
    )
    plane[..., C_DIST] = values
    sx, sy = grid.cell_of(x, y)
    visibility(values, sx, sy, grid.wrap, plane[..., C_VIS])
    tx, ty = x - grid.left, y - grid.bottom  # the target as the kernel measures it
    descent(values, grid.cell_w, grid.cell_h, grid.wrap, tx, ty, plane[..., C_DX : C_DX + 2])
    return complete


def build_flee(grid: NavGrid, plane: PoolArray, x: float, y: float, radius: float) -> None:
    """Fill `plane` with the flee map of a threat at (x, y), out to `radius` of it along
    free space: descent leads away from it, round corners, out of dead ends."""
    values = seed_values(grid, x, y)
    if values is None:
        _unreached(plane)
        return
    none = np.zeros(0, np.int64)
    march(grid.links, grid.blocked, grid.cost, values, grid.cell_w, grid.cell_h, radius, none)
    walls = np.empty_like(grid.blocked)
    start = flee_values(values, grid.blocked, walls)
    march(grid.links, walls, grid.cost, start, grid.cell_w, grid.cell_h, math.inf, none)
    plane[..., C_DIST] = start
    plane[..., C_VIS] = 0.0  # a flee map has no target to see ...
    nan = math.nan  # ... nor to head for at its bottom
    descent(start, grid.cell_w, grid.cell_h, grid.wrap, nan, nan, plane[..., C_DX : C_DX + 2])


def _unreached(plane: PoolArray) -> None:
    """A field that reaches nowhere (its target is walled in)."""
    plane[...] = 0.0
    plane[..., C_DIST] = math.inf
