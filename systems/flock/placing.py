"""Where `Flock.scatter` puts boids: uniform draws in a disc or a box, those that land
outside the room the flock's obstacles leave drawn again in it.

The draws are the ones `scatter` has always made (an angle and a distance for a disc, a
point of the box otherwise, from the flock's seeded generator): a flock without obstacles
scatters exactly as it always did. Where the obstacle stage narrows the area to a `Room`
(outside the obstacles, a little clear of them, reachable from a disc's centre), each draw
outside it is drawn again in a cell of the room of its own (jittered in the cell's middle
half), so that boids that would have landed in rock are not stacked on one face of it;
only a room with fewer cells than boids to redraw gives some of them one cell.

Obstacles are not this package's business (it may not import a stage): the obstacle stage sets
`Flock.free_space`, a `FreeSpace` (`shoal.systems.flock.flock`), which narrows an `Area` to
the `Room` outside the obstacles (reachable from a disc's centre) and tests candidate points
against it.
"""

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from shoal.systems.core.store import BoolArray, FloatArray


@dataclass(frozen=True, slots=True)
class Area:
    """Where boids may go: the box `low`..`high` and, when `centre` is given, only the disc
    of `radius` round it (a disc that crosses a world's edge is cut by the world's box)."""

    low: tuple[float, float]
    high: tuple[float, float]
    centre: tuple[float, float] | None = None
    radius: float = 0.0

    @classmethod
    def disc(
        cls, x: float, y: float, radius: float, within: tuple[float, float, float, float] | None
    ) -> "Area":
        """The disc of `radius` round (x, y), within the box (left, right, bottom, top) when
        one is given (a world without wrap: its edge is a wall)."""
        left, right, bottom, top = within or (-math.inf, math.inf, -math.inf, math.inf)
        low = (max(x - radius, left), max(y - radius, bottom))
        high = (min(x + radius, right), min(y + radius, top))
        return cls(low, high, (x, y), radius)

    @property
    def size(self) -> float:
        """Its area (px²): for a disc that the box cuts, the smaller of the two (more than
        the true area). <= 0: empty."""
        box = (self.high[0] - self.low[0]) * (self.high[1] - self.low[1])
        if self.high[0] <= self.low[0] or self.high[1] <= self.low[1]:
            return min(box, 0.0)
        return box if self.centre is None else min(box, math.pi * self.radius**2)

    def contains(self, points: FloatArray) -> BoolArray:
        """Whether each of (n, 2) `points` lies in it (the box half-open, as draws are)."""
        low, high = np.asarray(self.low), np.asarray(self.high)
        inside: BoolArray = np.all((points >= low) & (points < high), axis=1)
        if self.centre is not None:
            offset = points - np.asarray(self.centre)
            inside &= np.einsum("ij,ij->i", offset, offset) <= self.radius**2
        return inside

    def uniform(self, rng: np.random.Generator, count: int) -> FloatArray:
        """`count` independent uniform points in it (a disc: in the whole disc, whatever cuts
        it), drawn as `scatter` has always drawn them."""
        if self.centre is None:
            box: FloatArray = rng.uniform(self.low, self.high, size=(count, 2))
            return box
        angle = rng.uniform(0, 2 * math.pi, count)
        distance = self.radius * np.sqrt(rng.uniform(0, 1, count))
        round_: FloatArray = np.asarray(self.centre) + np.column_stack(
            (distance * np.cos(angle), distance * np.sin(angle))
        )
        return round_


class Room(Protocol):
    """The part of an `Area` that boids may be placed in (see `FreeSpace`)."""

    @property
    def cells(self) -> FloatArray:
        """(m, 2) centres of the square cells that make up the room; each holds."""

    @property
    def cell(self) -> float:
        """The side of a cell (px)."""

    def holds(self, points: FloatArray) -> BoolArray:
        """Whether each of (n, 2) points of the area lies in the room."""


def place(rng: np.random.Generator, area: Area, count: int, room: Room | None = None) -> FloatArray:
    """`count` points in `area`, every one in `room` when given (see the module)."""
    points = area.uniform(rng, count)
    if room is None or not len(room.cells) or not count:
        return points
    outside = ~room.holds(points)
    if outside.any():
        points[outside] = _in_room(rng, area, room, int(outside.sum()))
    return points


def _in_room(rng: np.random.Generator, area: Area, room: Room, count: int) -> FloatArray:
    """`count` random points of the room, each in a cell of its own where the room has the
    cells, jittered within its middle half (at a cell's centre where the jitter leaves the
    area or the room)."""
    cells = len(room.cells)
    pick = rng.choice(cells, count, replace=count > cells)
    centres = room.cells[pick]
    reach = room.cell / 4.0
    points: FloatArray = centres + rng.uniform(-reach, reach, (count, 2))
    ok = area.contains(points)
    ok[ok] = room.holds(points[ok])
    points[~ok] = centres[~ok]
    return points
