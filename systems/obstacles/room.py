"""The free room of a scatter: the part of its disc (or of the world) outside the flock's
obstacles, a little clear of them, and, for a disc, reachable from its centre.

`Flock.scatter` asks through `Flock.free_space`, which the obstacle stage sets to
`free_room` (core may not import this stage). The area is rastered into small square cells
(about 64 a boid, at most 4 px, at most `_MAX_CELLS` in all); a cell is free when its centre
lies outside every obstacle. From a disc's centre a flood fill walks from free cell to free
cell, each step a segment cast (`blocked`), so that a wall thinner than a cell still parts
two rooms (a centre inside an obstacle reaches nowhere: it gets the disc's largest room);
cells nearer an obstacle than `SCATTER_CLEARANCE` are then dropped, unless that
leaves nothing. A point holds when its cell is in the room, it lies outside every obstacle
and no obstacle parts it from its cell's centre.
"""

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from shoal.systems.core.store import BoolArray, FloatArray, IntArray
from shoal.systems.flock.placing import Area
from shoal.systems.obstacles.field import (
    ObstacleField,
    blocked,
    inside_obstacle,
    no_obstacles,
    obstacle_field,
)

if TYPE_CHECKING:
    from shoal.systems.flock.flock import Flock

SCATTER_CLEARANCE = 4.0
"""Room a scattered boid keeps from obstacles where the room allows (px): about half a
default fish's body."""
_CELL = 4.0  # the largest cell where there are cells to spare (px): finer than a tile's side
_CELLS_PER_BOID = 64  # enough cells that each boid redrawn into the room gets one of its own
_MAX_CELLS = 1 << 18  # a large disc or world gets coarser cells, not more (time, memory)


@dataclass(frozen=True, slots=True)
class Raster:
    """Square cells of side `cell` over a box, `shape` (columns, rows) from `origin` (its
    lower left corner); cell (i, j) is number i · rows + j."""

    origin: tuple[float, float]
    cell: float
    shape: tuple[int, int]

    @property
    def centres(self) -> FloatArray:
        """(columns · rows, 2) cell centres, in cell-number order."""
        return self.centre_of(np.arange(self.shape[0] * self.shape[1]))

    def centre_of(self, numbers: IntArray) -> FloatArray:
        """The centre of each cell number."""
        ny = self.shape[1]
        index = np.column_stack((numbers // ny, numbers % ny))
        centres: FloatArray = np.asarray(self.origin) + (index + 0.5) * self.cell
        return centres

    def number(self, points: FloatArray) -> IntArray:
        """The cell number of each point (-1 outside the raster)."""
        index = np.floor((points - np.asarray(self.origin)) / self.cell).astype(np.int64)
        nx, ny = self.shape
        inside = (index >= 0).all(axis=1) & (index[:, 0] < nx) & (index[:, 1] < ny)
        numbers: IntArray = np.where(inside, index[:, 0] * ny + index[:, 1], -1)
        return numbers


@dataclass(frozen=True, slots=True)
class FreeRoom:
    """A `Room` (see `shoal.systems.flock.placing`): the free cells of a raster.

    Attributes:
        raster: the cells.
        room: per cell number, whether the cell is in the room.
        field: the obstacles.
        cells: (m, 2) centres of the room's cells.
    """

    raster: Raster
    room: BoolArray
    field: ObstacleField
    cells: FloatArray

    @property
    def cell(self) -> float:
        """The side of a cell (px)."""
        return self.raster.cell

    def holds(self, points: FloatArray) -> BoolArray:
        """Whether each point lies in a cell of the room, outside every obstacle, with no
        obstacle between it and its cell's centre (a thin wall across the cell)."""
        number = self.raster.number(points)
        ok = number >= 0
        ok[ok] = self.room[number[ok]]
        if ok.any():
            ok[ok] = ~inside_obstacle(self.field, points[ok])
        if ok.any():
            centres = self.raster.centre_of(number[ok])
            ok[ok] = ~blocked(self.field, centres, points[ok])
        return ok


def free_room(flock: "Flock", area: Area, count: int) -> FreeRoom | None:
    """The room of `area` for `count` boids among the flock's obstacles (see the module);
    None when the world has no obstacles or they leave the area no free cell."""
    if no_obstacles(flock):
        return None
    field = obstacle_field(flock)
    if not len(field):
        return None
    raster, keep = _raster(area, count)
    centres = raster.centres
    solid = inside_obstacle(field, centres)
    free = area.contains(centres) & ~solid
    if area.centre is not None:
        free = _reachable(field, raster, free, np.asarray([area.centre]))
    clear = free & ~_near(solid, raster.shape, keep)
    room = clear if clear.any() else free  # a narrow room: up against its walls
    return FreeRoom(raster, room, field, centres[room]) if room.any() else None


def _raster(area: Area, count: int) -> tuple[Raster, int]:
    """A raster over the area's box, padded by the cells that keep the clearance (an
    obstacle just outside still keeps boids off); and that number of cells."""
    width, height = area.high[0] - area.low[0], area.high[1] - area.low[1]
    cell = min(_CELL, math.sqrt(area.size / (_CELLS_PER_BOID * count)))
    cell = max(cell, math.sqrt(width * height / _MAX_CELLS))
    # A point of a kept cell is at most half a cell nearer an obstacle than its centre; a
    # raster coarser than the clearance keeps none (the obstacles' own test still holds).
    keep = math.ceil(SCATTER_CLEARANCE / cell + 0.5) if cell <= SCATTER_CLEARANCE else 0
    nx = math.ceil(width / cell) + 2 * keep
    ny = math.ceil(height / cell) + 2 * keep
    origin = (area.low[0] - keep * cell, area.low[1] - keep * cell)
    return Raster(origin, cell, (max(nx, 1), max(ny, 1))), keep


def _reachable(
    field: ObstacleField, raster: Raster, free: BoolArray, start: FloatArray
) -> BoolArray:
    """The free cells reachable from `start` by steps between side-by-side free cells that
    no obstacle parts; from a `start` inside an obstacle, which reaches nowhere, the
    largest such room of free cells."""
    right, up = _open_steps(field, raster, free)
    reached = np.zeros_like(free)
    first = int(raster.number(start)[0])
    if first >= 0 and free[first]:
        _flood(raster.shape, right, up, first, reached)
        return reached
    return _largest_room(raster.shape, right, up, free)


def _largest_room(
    shape: tuple[int, int], right: BoolArray, up: BoolArray, free: BoolArray
) -> BoolArray:
    """The largest set of free cells joined by open steps (rooms flooded one by one, until
    those left could not hold a larger one)."""
    reached = np.zeros_like(free)
    best = np.zeros(0, np.int64)
    seeds = np.flatnonzero(free)
    left = len(seeds)
    for seed in seeds.tolist():
        if left <= len(best):
            break
        if reached[seed]:
            continue
        room = _flood(shape, right, up, seed, reached)
        left -= len(room)
        best = room if len(room) > len(best) else best
    largest = np.zeros_like(free)
    largest[best] = True
    return largest


def _open_steps(
    field: ObstacleField, raster: Raster, free: BoolArray
) -> tuple[BoolArray, BoolArray]:
    """Per cell: whether a boid may step to the cell to its right, and to the one above
    (both free, and no obstacle on the segment between their centres)."""
    nx, ny = raster.shape
    column = np.arange(nx * ny) // ny
    row = np.arange(nx * ny) % ny
    right = free & (column < nx - 1)
    right[right] = free[np.flatnonzero(right) + ny]
    up = free & (row < ny - 1)
    up[up] = free[np.flatnonzero(up) + 1]
    centres = raster.centres
    for steps, stride in ((right, ny), (up, 1)):
        cells = np.flatnonzero(steps)
        steps[cells] = ~blocked(field, centres[cells], centres[cells + stride])
    return right, up


def _flood(
    shape: tuple[int, int], right: BoolArray, up: BoolArray, first: int, reached: BoolArray
) -> IntArray:
    """The cells reached from cell `first` by open steps, marked in `reached` too (breadth
    first, a front at a time: numpy work per front, not per cell)."""
    ny = shape[1]
    reached[first] = True
    front = np.array([first], np.int64)
    fronts = [front]
    while len(front):
        left = front[front >= ny] - ny
        down = front[front % ny > 0] - 1
        nearby = np.concatenate(
            (front[right[front]] + ny, left[right[left]], front[up[front]] + 1, down[up[down]])
        )
        front = np.unique(nearby[~reached[nearby]])
        reached[front] = True
        fronts.append(front)
    return np.concatenate(fronts)


def _near(solid: BoolArray, shape: tuple[int, int], keep: int) -> BoolArray:
    """Cells within `keep` cells (on each axis) of a solid one."""
    near = solid.reshape(shape).copy()
    for axis in (0, 1):
        grown = near.copy()
        for shift in range(1, keep + 1):
            grown |= _shifted(near, shift, axis) | _shifted(near, -shift, axis)
        near = grown
    flat: BoolArray = near.reshape(-1)
    return flat


def _shifted(mask: BoolArray, shift: int, axis: int) -> BoolArray:
    """`mask` moved by `shift` cells along `axis`, False where it moved in from outside."""
    moved = np.zeros_like(mask)
    size = mask.shape[axis]
    if abs(shift) >= size:
        return moved
    source = [slice(None), slice(None)]
    target = [slice(None), slice(None)]
    source[axis] = slice(max(0, -shift), size - max(0, shift))
    target[axis] = slice(max(0, shift), size - max(0, -shift))
    moved[tuple(target)] = mask[tuple(source)]
    return moved
