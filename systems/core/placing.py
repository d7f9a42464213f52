"""Where `Flock.scatter` puts boids: spaced points in a disc or a box, within the room that
the flock's obstacles leave.

The points are jittered sites of a square lattice (stratified sampling, the jitter kept to
the middle half of each lattice cell on each axis): any two are at least half the lattice's
pitch apart. The pitch is twice the spacing asked for (`Flock.scatter` asks for the
species' separation radius: boids nearer than that push each other apart on the first
step), but never more than the side of the square each boid has when the room is shared out
evenly, √(room / count), nor less than a quarter of it. The boids take `count` of the sites
at random: a few in a large room lie about as uniform draws would, less the near pairs; a
crowd fills its room evenly. Where the room holds too few sites (cut by its edges and
walls), the pitch shrinks until it holds enough. Everything comes from the flock's seeded
generator.

A room too small for its count (still short of sites after `TRIES` pitches) gets every boid
all the same: the sites found, spaced, and the rest at random points of the room, closer.
Nothing is placed outside the area asked for.

Obstacles are not core's business (core may not import a stage): the obstacle stage sets
`Flock.free_space`, a `FreeSpace`, which narrows an `Area` to the `Room` outside the
obstacles (reachable from a disc's centre) and tests candidate points against it.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

import numpy as np

from shoal.systems.core.store import BoolArray, FloatArray

if TYPE_CHECKING:
    from shoal.systems.core.flock import Flock

TRIES = 8
"""Lattice pitches tried, each finer, before a room counts as too small for its count."""
_JITTER_TRIES = 4  # draws per site: a site half in rock or past the edge often still fits
_FINEST = 4  # the finest first pitch, as a share of the even one: 16 sites a boid at most
_JITTER = 0.25  # of the pitch, each way on each axis: two points stay ≥ half a pitch apart


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
        the true area: `place` then shrinks its pitch until it fits). <= 0: empty."""
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
        """`count` independent uniform points in it, not spaced (a disc: in the whole disc,
        whatever cuts it)."""
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


FreeSpace = Callable[["Flock", Area, int], Room | None]
"""What `Flock.free_space` holds: (flock, area, count) → the room in the area for `count`
boids, or None when nothing in the flock's world narrows the area (no obstacles), or it
leaves no room at all."""


class Placement(NamedTuple):
    """What `place` chose: the points, and the least distance between two of them (0 when
    the room was too small for the count and some are closer)."""

    points: FloatArray
    spacing: float


def place(
    rng: np.random.Generator,
    area: Area,
    count: int,
    room: Room | None = None,
    spacing: float = 0.0,
) -> Placement:
    """`count` points in `area` (all in `room` when given), no two nearer than `spacing`
    where the room allows, else spread evenly (see the module)."""
    # A disc of radius 0 puts every boid at its centre; one wholly past the world's edge
    # puts them where it is, as if the world went on.
    if count == 0 or area.size <= 0.0:
        return Placement(area.uniform(rng, count), 0.0)
    if room is not None and not len(room.cells):
        room = None  # a room of no cells is no narrowing (`FreeSpace` says None)
    space = area.size if room is None else len(room.cells) * room.cell**2
    even = math.sqrt(space / count)
    pitch = min(even, max(spacing / (1.0 - 2.0 * _JITTER), even / _FINEST))
    box = (area.high[0] - area.low[0]) * (area.high[1] - area.low[1])
    found = np.zeros((0, 2))
    for _ in range(TRIES):
        if room is None and box / pitch**2 > 4 * _FINEST**2 * count:
            break  # a lattice this fine over the whole box costs more than it could give
        found = _jittered_sites(rng, area, room, pitch)
        if len(found) >= count:
            chosen = rng.choice(len(found), count, replace=False)
            return Placement(found[chosen], (1.0 - 2.0 * _JITTER) * pitch)
        # Finer by about what was missing, at most halving: the next try nearly fits.
        pitch *= min(0.95, max(0.5, 0.97 * math.sqrt(len(found) / count)))
    rest = _anywhere(rng, area, room, count - len(found))
    return Placement(np.vstack((found, rest)), 0.0)


def _jittered_sites(
    rng: np.random.Generator, area: Area, room: Room | None, pitch: float
) -> FloatArray:
    """One point near each site of a lattice of `pitch` (at a random offset) that has a
    jittered draw in the area and the room: the first of `_JITTER_TRIES` such draws."""
    offset = rng.uniform(0.0, pitch, 2)
    sites = _sites(area, room, pitch, offset)
    points = np.empty_like(sites)
    usable = np.zeros(len(sites), np.bool_)
    pending = np.arange(len(sites))
    for _ in range(_JITTER_TRIES):  # draws again only for the sites still without a point
        reach = _JITTER * pitch
        tries = sites[pending] + rng.uniform(-reach, reach, (len(pending), 2))
        ok = area.contains(tries)
        if room is not None and ok.any():
            ok[ok] = room.holds(tries[ok])
        points[pending[ok]] = tries[ok]
        usable[pending[ok]] = True
        pending = pending[~ok]
        if not len(pending):
            break
    found: FloatArray = points[usable]
    return found


def _sites(area: Area, room: Room | None, pitch: float, offset: FloatArray) -> FloatArray:
    """Centres of the lattice cells (side `pitch`, corner at `offset`) that cover the area,
    or that hold a cell of the room (never more than the room's cells)."""
    if room is None:
        first = np.floor((np.asarray(area.low) - offset) / pitch).astype(np.int64)
        last = np.floor((np.asarray(area.high) - offset) / pitch).astype(np.int64)
        xs = np.arange(first[0], last[0] + 1)
        ys = np.arange(first[1], last[1] + 1)
        index = np.stack(np.meshgrid(xs, ys, indexing="ij"), axis=-1).reshape(-1, 2)
    else:  # one number per lattice cell: numpy's unique rows sort 5-10 times slower
        held = np.floor((room.cells - offset) / pitch).astype(np.int64)
        low = held.min(axis=0)
        rows = int(held[:, 1].max() - low[1]) + 1
        key = np.unique((held[:, 0] - low[0]) * rows + (held[:, 1] - low[1]))
        index = np.column_stack((key // rows + low[0], key % rows + low[1]))
    centres: FloatArray = offset + (index + 0.5) * pitch
    return centres


def _anywhere(rng: np.random.Generator, area: Area, room: Room | None, count: int) -> FloatArray:
    """`count` random points of the room (not spaced): in a random cell of it, or at its
    centre where the draw in the cell falls outside."""
    if room is None:
        return area.uniform(rng, count)
    pick = rng.integers(len(room.cells), size=count)
    centres = room.cells[pick]
    points: FloatArray = centres + rng.uniform(-room.cell / 2, room.cell / 2, (count, 2))
    ok = area.contains(points)
    ok[ok] = room.holds(points[ok])
    points[~ok] = centres[~ok]
    return points
