"""Keeping the sharks in open water and apart, and the fish off the rocks: host processors.

The obstacle stage keeps every boid out of the rocks, but it steers by the rock in front of
a boid, and a shark's long body needs more room than a fish's. A shark that swam into a
crevice (the caves' boulder leans on the floor) met two rock faces whose pushes point
opposite ways: pushed off the nearest rock only, it was pushed up one step and down the
next, its turn went left then right, and it sat there, nose in the rock, for tens of seconds.

So the push here comes from a map of the whole tank, `OpenWaterMap`, built once per set of
rocks on the flock's navigation raster: for every cell, how far it is, round the rocks,
from open water (water at least `clearance` from any rock or tank wall). A shark closer to
a rock than that is pushed down the map, which points along a crevice towards its mouth
(both faces at once), out of a dead end, and straight off a plain wall. A shark facing away
from where the map points turns round: to the side the way out lies on or, where it lies
straight behind, to the side it chose before, so that pushes from either side of it can
never undo its turn. Sharks also keep a body length apart, and two that meet head on both
turn to their right, as ships do, and pass.

Sharks are few (a handful a level): their work is a few vectorised reads a step.
`RoomSystem` does the same for fish with a smaller clearance, on the fish near a rock only.
"""

import math
from dataclasses import dataclass
from typing import Any

import esper
import numpy as np
import numpy.typing as npt

from shoal.systems import Flock, navigator, obstacle_field
from shoal.systems.core.store import FloatArray
from shoal.systems.obstacles.field import ObstacleField, surface
from shoal.systems.obstacles.flow_kernel import march

CLEARANCE = 60.0
"""px: water this far from every rock and tank wall is open (about half a shark's length)."""
PUSH = 2000.0
"""px/s²: the push towards open water at a rock's surface (more than a shark's steering).
1,500 left the sharks of kelp within 25 px of a rock 0-5.3 % of the time (seeds 0-7, 30 s:
a shark chasing fish into the kelp); 2,000: 0-2.1 % (caves seeds 0-4: 0-0.6 %)."""
SPACING = 130.0
"""px: sharks keep at least this far apart, centre to centre (a shark is drawn 125 px long)."""
SPACING_REACH = 1.5
"""Sharks begin to push apart this many `SPACING`s apart: early enough to turn away."""
SPACING_PUSH = 2000.0
"""px/s²: how hard two sharks `SPACING` apart push apart (none at the reach, up to twice as
hard nearer)."""
BEHIND = 0.5
"""A direction within 30° of straight behind a shark (|sin| below this) is behind it: it
turns round on the side it chose before."""
RIGHT = -1.0
"""The side two sharks meeting head on both turn to (+1 is left)."""
ROCK_COST = 5.0
"""How much more a px through rock costs on the map than a px of water: the map goes on
inside the rocks (a shark pressed onto a surface still reads a way out), steeply."""


@dataclass(frozen=True, slots=True)
class OpenWaterMap:
    """How far each cell of the tank is from open water, and which way that is.

    Attributes:
        field: the rocks it was made from.
        left, bottom: the world's lower-left corner.
        cell_w, cell_h: a cell's size (px).
        wrap: whether the world is a torus.
        values: (ny, nx, 3): per cell, the px from open water round the rocks (0 in open
            water), and that distance's gradient (x, y: uphill, away from open water).
    """

    field: ObstacleField
    left: float
    bottom: float
    cell_w: float
    cell_h: float
    wrap: bool
    values: FloatArray

    def read(self, points: FloatArray) -> FloatArray:
        """Per point, the px from open water and the gradient ((n, 3) as `values`), read
        bilinearly between cell centres; `way_out` turns the gradient into a direction."""
        ny, nx = self.values.shape[:2]
        u = (points[:, 0] - self.left) / self.cell_w - 0.5
        v = (points[:, 1] - self.bottom) / self.cell_h - 0.5
        x0, y0 = np.floor(u), np.floor(v)
        fx, fy = u - x0, v - y0
        ix = np.stack((x0, x0 + 1, x0, x0 + 1)).astype(np.int64)  # the 4 corners
        iy = np.stack((y0, y0, y0 + 1, y0 + 1)).astype(np.int64)
        if self.wrap:
            ix, iy = ix % nx, iy % ny
        else:  # beyond the outer cell centres the edge cell's values hold
            ix, iy = np.minimum(np.maximum(ix, 0), nx - 1), np.minimum(np.maximum(iy, 0), ny - 1)
        weights = np.stack(((1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy))
        read: FloatArray = (self.values[iy, ix] * weights[..., None]).sum(axis=0)
        return read

    def way_out(self, points: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Per point, the px from open water and the unit direction towards it ((0, 0) in
        open water)."""
        read = self.read(points)
        return read[:, 0], -_unit(read[:, 1:])


def open_water_map(flock: Flock, clearance: float = CLEARANCE) -> OpenWaterMap:
    """The open-water map of the flock's tank (see `OpenWaterMap`), on its navigation raster:
    each cell's clearance is its centre's exact distance to the nearest rock (and, in a
    box, to the tank's walls); open water is every cell with `clearance` or more (the most
    open cells, if no cell has that much); a fast march from them gives the rest."""
    grid = navigator(flock).grid
    config = flock.config
    iy, ix = np.mgrid[0 : grid.ny, 0 : grid.nx]
    centres = np.column_stack(
        ((ix.ravel() + 0.5) * grid.cell_w, (iy.ravel() + 0.5) * grid.cell_h)
    )  # measured from the world's corner
    flat_room = np.full(len(centres), math.inf)
    if len(grid.field):
        flat_room = surface(grid.field, centres + np.array([grid.left, grid.bottom])).distance
    if not config.wraps:
        walls = np.minimum(centres, (grid.width, grid.height) - centres).min(axis=1)
        flat_room = np.minimum(flat_room, walls)
    room = flat_room.reshape(grid.ny, grid.nx)
    open_cells = room >= min(clearance, float(room.max()))
    cost = np.where(room > 0.0, 1.0, ROCK_COST)
    distance = np.where(open_cells, 0.0, math.inf)
    march(grid.links, np.zeros(room.shape, np.uint8), cost, distance, grid.cell_w, grid.cell_h,
          math.inf, np.zeros(0, np.int64))  # fmt: skip
    distance[~np.isfinite(distance)] = 0.0  # cut off from all water: nowhere better to go
    slope = _gradient(distance, grid.cell_w, grid.cell_h, grid.wrap)
    return OpenWaterMap(grid.field, grid.left, grid.bottom, grid.cell_w, grid.cell_h,
                        grid.wrap, np.dstack((distance, slope)))  # fmt: skip


def _gradient(values: FloatArray, cell_w: float, cell_h: float, wrap: bool) -> FloatArray:
    """(ny, nx, 2) central differences of `values` (round a torus, one-sided at a box's
    edges)."""
    if wrap:
        gx = (np.roll(values, -1, axis=1) - np.roll(values, 1, axis=1)) / (2 * cell_w)
        gy = (np.roll(values, -1, axis=0) - np.roll(values, 1, axis=0)) / (2 * cell_h)
    else:
        gx = np.gradient(values, cell_w, axis=1) if values.shape[1] > 1 else 0 * values
        gy = np.gradient(values, cell_h, axis=0) if values.shape[0] > 1 else 0 * values
    return np.stack((gx, gy), axis=-1)


class OpenWaterSystem(esper.Processor):
    """Keeps the boids of one species in open water and `spacing` px apart (see the module
    docstring); runs after seeking, before the obstacle stage."""

    def __init__(self, flock: Flock, species: str, clearance: float = CLEARANCE,
                 push: float = PUSH, spacing: float = SPACING,
                 spacing_push: float = SPACING_PUSH) -> None:  # fmt: skip
        self.flock = flock
        self.species = flock.species.index(species)
        self.clearance, self.push = clearance, push
        self.spacing, self.spacing_push = spacing, spacing_push
        self.map: OpenWaterMap | None = None
        self._sides: dict[int, float] = {}  # entity: the side it turns round on (+1: left)

    def process(self, *args: Any) -> None:
        """Add this step's pushes to the accelerations."""
        store = self.flock.store
        rows = np.flatnonzero(store.species == self.species)
        if not len(rows):
            return
        field = obstacle_field(self.flock)
        if self.map is None or self.map.field is not field:
            self.map = open_water_map(self.flock, self.clearance)
        positions = store.positions[rows]
        read = self.map.read(positions)
        strength = self.push * np.minimum(read[:, 0] / self.clearance, 2.0)
        apart, crowding = self._apart(positions)
        if not (strength.any() or crowding.any()):
            self._sides.clear()
            return  # the usual case: every shark in open water, away from the others
        out = -_unit(read[:, 1:])
        heading = _unit(store.velocities[rows])
        entities = store.entities[rows].tolist()
        kept = np.array([self._sides.get(entity, 1.0) for entity in entities])
        push, sides = _turn_towards(heading, out, strength, kept)
        # Remembered while pushed, forgotten in open water.
        self._sides = {
            entity: side for entity, side, s in zip(entities, sides, strength, strict=True) if s > 0
        }
        push += _turn_towards(heading, apart, crowding, np.full(len(rows), RIGHT))[0]
        store.accelerations[rows] += push

    def _apart(self, positions: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Per boid, the unit direction away from the others it is too close to (their
        pushes summed) and the push's strength: the shortest way round a torus."""
        if len(positions) < 2:
            return np.zeros_like(positions), np.zeros(len(positions))
        offsets = positions[:, None, :] - positions[None, :, :]
        config = self.flock.config
        if config.wraps:
            size = np.array([config.width, config.height])
            offsets -= np.rint(offsets / size) * size
        gaps = np.hypot(offsets[..., 0], offsets[..., 1])
        np.fill_diagonal(gaps, math.inf)
        reach = SPACING_REACH * self.spacing
        closeness = np.minimum(np.maximum((reach - gaps) / (reach - self.spacing), 0.0), 2.0)
        away = (offsets / np.maximum(gaps, 1e-9)[..., None] * closeness[..., None]).sum(axis=1)
        return _unit(away), self.spacing_push * closeness.max(axis=1, initial=0.0)


def _unit(vectors: FloatArray) -> FloatArray:
    """Unit vectors ((0, 0) stays (0, 0))."""
    length = np.hypot(vectors[:, 0], vectors[:, 1])
    unit: FloatArray = np.where(
        length[:, None] > 1e-9, vectors / np.maximum(length, 1e-9)[:, None], 0.0
    )
    return unit


def _turn_towards(heading: FloatArray, want: FloatArray, strength: FloatArray,
                  sides: FloatArray) -> tuple[FloatArray, FloatArray]:  # fmt: skip
    """Accelerations of `strength` towards `want`, and the side each boid turns on.

    A boid heading away from `want` (more than a right angle) is also pushed sideways, so
    that it turns round: towards the side `want` lies on, or where `want` is nearly straight
    behind it, to its `sides` (+1 left, -1 right). A push straight back only slows a boid
    down to its minimum speed, and there any sideways push, however small, would decide
    its turn: one that flips from step to step (two rock faces) would undo it each time.
    """
    push = want * strength[:, None]
    cross = heading[:, 0] * want[:, 1] - heading[:, 1] * want[:, 0]
    sides = np.where(np.abs(cross) >= BEHIND, np.sign(cross), sides)
    away = (heading * want).sum(axis=1) < 0.0
    left = np.column_stack((-heading[:, 1], heading[:, 0]))
    push[away] += left[away] * (sides[away] * strength[away])[:, None]
    return push, sides


ROOM = 8.0
"""px: fish keep this clear of rocks and plants (about half a fish's length)."""
ROOM_PUSH = 3000.0
"""px/s²: the push off a rock at its surface: more than a crowd's separation (a fish's
`max_force`) and its goals together, so that a crowd never presses fish onto a rock."""


class RoomSystem(esper.Processor):
    """Keeps the boids of one species `room` px clear of rocks and plants.

    The obstacle stage steers a boid off the rock ahead of it, and the collision stage puts
    one that ended a step inside a rock back on its surface. A crowd of 2,000 fish pressed
    the fish at its edge sideways into rocks and into the pockets between a kelp's leaves,
    step after step: put back on the same surface points, a tenth of the school lay on top
    of each other there. This pushes them down an open-water map with `room` as its
    clearance: off a rock, and out of a pocket too narrow for a fish.

    Only the fish in cells near a rock are read (one index each; most of the school is in
    open water).
    """

    def __init__(self, flock: Flock, species: str, room: float = ROOM,
                 push: float = ROOM_PUSH) -> None:  # fmt: skip
        self.flock = flock
        self.species = flock.species.index(species)
        self.room, self.push = room, push
        self.map: OpenWaterMap | None = None
        self._near: npt.NDArray[np.bool_] = np.zeros((0, 0), np.bool_)

    def process(self, *args: Any) -> None:
        """Add this step's pushes to the accelerations."""
        field = obstacle_field(self.flock)
        if not len(field):
            return
        if self.map is None or self.map.field is not field:
            self.map = open_water_map(self.flock, self.room)
            self._near = _dilated(self.map.values[..., 0] > 0.0, self.map.wrap)
        store, near, room_map = self.flock.store, self._near, self.map
        if not len(store):
            return
        # Which cell each boid is in: a few whole-array operations, no gathers.
        cells = ((store.positions - (room_map.left, room_map.bottom))
                 * (1.0 / room_map.cell_w, 1.0 / room_map.cell_h)).astype(np.int64)  # fmt: skip
        np.clip(cells, 0, (near.shape[1] - 1, near.shape[0] - 1), out=cells)
        rows = np.flatnonzero(near[cells[:, 1], cells[:, 0]] & (store.species == self.species))
        distance, out = room_map.way_out(store.positions[rows])
        pushed = distance > 0.0
        rows, out = rows[pushed], out[pushed]
        strength = self.push * np.minimum(distance[pushed] / self.room, 2.0)
        heading = _unit(store.velocities[rows])
        store.accelerations[rows] += _turn_towards(heading, out, strength,
                                                   np.ones(len(rows)))[0]  # fmt: skip


def _dilated(cells: npt.NDArray[np.bool_], wrap: bool) -> npt.NDArray[np.bool_]:
    """`cells` grown by one cell each way (a point in a cell reads its neighbours too),
    round the edges of a torus."""
    if wrap:
        rows = cells | np.roll(cells, 1, 0) | np.roll(cells, -1, 0)
        grown: npt.NDArray[np.bool_] = rows | np.roll(rows, 1, 1) | np.roll(rows, -1, 1)
        return grown
    padded = np.pad(cells, 1)
    rows = padded[:-2] | padded[1:-1] | padded[2:]
    grown = rows[:, :-2] | rows[:, 1:-1] | rows[:, 2:]
    return grown
