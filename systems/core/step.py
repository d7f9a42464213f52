"""What one fixed step's stages hand on to each other: the `Step`, and who each boid saw.

The first stage to run begins a step (`Flock.begin_step`); every later stage reads the
step it began. Each stage's `run(step)` says in its docstring which fields it reads and
writes, so the data flow is visible in one place: there is no other channel between stages.
"""

from dataclasses import dataclass, field
from typing import NoReturn

import numpy as np

from shoal.components import arguments as check
from shoal.systems.core.config import MAX_BOIDS
from shoal.systems.core.species_table import P_MAX_NEIGHBOURS
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.vision import Cells, buffers, count_seen, list_seen, no_cells


@dataclass(frozen=True, slots=True)
class Neighbours:
    """Who each boid saw at the start of a step, in slot order (see `list_neighbours`).

    Slot k is store row `order[k]` (boids sorted by grid cell). The neighbours of slot k are
    the slots `slots[start[k]:stop[k]]`, at offsets `dx`, `dy` (wrap-aware, from k to them)
    and distance `dist`. `slot_velocities` and `slot_species` are the velocities and species
    in slot order when the step began. Use `of(row)` for the rows seen by a store row.
    """

    order: IntArray
    start: IntArray
    stop: IntArray
    slots: IntArray
    dx: FloatArray
    dy: FloatArray
    dist: FloatArray
    slot_velocities: FloatArray
    slot_species: IntArray
    _rank: IntArray = field(repr=False)

    def __post_init__(self) -> None:
        # Shapes only, in O(1): this runs every step (~1 µs), and the kernels index these.
        try:
            n, m = len(self.order), len(self.slots)
            ok = (
                self.order.shape == self.start.shape == self.stop.shape == (n,)
                and self.slot_species.shape == self._rank.shape == (n,)
                and self.slots.shape == self.dx.shape == self.dy.shape == self.dist.shape == (m,)
                and self.slot_velocities.shape == (n, 2)
            )
        except (AttributeError, TypeError):
            ok = False
        if not ok:
            _refuse(self)

    @classmethod
    def found(
        cls,
        order: IntArray,
        start: IntArray,
        stop: IntArray,
        buffers: tuple[IntArray, FloatArray, FloatArray, FloatArray],
        slot_velocities: FloatArray,
        slot_species: IntArray,
    ) -> "Neighbours":
        """Wrap the kernel's output (computes the row -> slot map)."""
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return cls(order, start, stop, *buffers, slot_velocities, slot_species, rank)

    @classmethod
    def none(cls, n: int = 0) -> "Neighbours":
        """n boids that see nobody."""
        n = check.integer("Neighbours.none", "n", n, high=MAX_BOIDS)
        empty = np.zeros(0)
        zeros = np.zeros(n, np.int64)
        buffers = (np.zeros(0, np.int64), empty, empty, empty)
        order = np.arange(n, dtype=np.int64)
        return cls.found(order, zeros, zeros, buffers, np.zeros((n, 2)), zeros)

    def __len__(self) -> int:
        return len(self.order)

    def of(self, row: int) -> IntArray:
        """Store rows seen by store `row` (nearest first when a cap applies)."""
        k = self._rank[check.integer("Neighbours.of", "row", row, high=len(self.order) - 1)]
        return self.order[self.slots[self.start[k] : self.stop[k]]]

    @property
    def counts(self) -> IntArray:
        """Number of neighbours of each store row."""
        return (self.stop - self.start)[self._rank]


def list_neighbours(cells: Cells, params: FloatArray, relations: IntArray) -> Neighbours:
    """Every boid's neighbours in `cells`, by the vision rule the steering uses."""
    longest = int(params[:, P_MAX_NEIGHBOURS].max()) if len(params) else 0
    out = buffers(max(longest, 1))
    counts = count_seen(cells, params, relations, out)
    stop = np.cumsum(counts)
    start = stop - counts
    flat = buffers(int(stop[-1]) if len(stop) else 0)
    list_seen(cells, params, relations, start, out, flat)
    lists = (flat.slot, flat.dx, flat.dy, flat.dist)
    return Neighbours.found(cells.row, start, stop, lists, cells.velocities, cells.species)


GOAL_COLUMNS = 4
"""Columns of `Step.goals`: flee x, flee y, chase x, chase y (px/s²)."""
_NO_CELLS: Cells = no_cells()
_NO_ROWS: IntArray = np.zeros(0, np.int64)
_NO_VALUES: FloatArray = np.zeros(0)
_NO_POINTS: FloatArray = np.zeros((0, 2))
_NO_GOALS: FloatArray = np.zeros((0, GOAL_COLUMNS))


@dataclass(slots=True)
class Step:
    """The shared state of one fixed step.

    Attributes:
        number: counts the flock's steps from 1 (0: before the first).
        dt: the step's length in seconds (0 for a paused step); checked once, by the stage
            that began it.
        layout: `FlockStore.layout` when the step began: the row numbers below refer to it,
            and are stale once boids are added or removed, or the flock sorts its rows.
        cells: the flock in grid-cell order as the step began (written by the neighbour
            stage, read by every boid's vision: the steering, `Flock.neighbours`).
        targets: for each row, the row of the prey it chases this step, -1 for none (written
            by the steering stage, read by the lifecycle stage to resolve catches).
        alarm_lead: for each row whose alarm a flockmate's raised, how long before the end of
            the step it reached it (s; written by the steering stage, read by the motion
            stage, which starts the boid's alarm age there: the alarm front moves at its
            speed between steps, not a hop a step).
        neighbours: who each boid saw, listed on first use (`Flock.neighbours`); None until.
        noise: each row's random turn this step (radians; empty: no species has heading
            noise), drawn by the first stage that needs it (`FlockProcessor._noise`); None
            until then.
        start: the positions when the step began (by row), read by the collision stage to
            stop a boid that would pass through a thin obstacle within one step.
        start_alarm: the alarm levels when the step began (by row), read by the motion
            stage (an alarm that rose this step starts spreading).
        goals: per row, the flee and chase accelerations added this step (columns flee x,
            flee y, chase x, chase y: written by the steering stage, flee added to by the
            seeking stage), read by the obstacle stage, which turns those whose straight
            way is blocked along the way round (navigation).
    """

    number: int
    dt: float
    layout: int
    # Until a stage writes them: shared empties (a step begins every 1/60 s, and making
    # fresh ones cost ~10 µs of a small flock's ~250 µs step; nothing writes into them).
    cells: Cells = field(default_factory=lambda: _NO_CELLS)
    targets: IntArray = field(default_factory=lambda: _NO_ROWS)
    alarm_lead: FloatArray = field(default_factory=lambda: _NO_VALUES)
    neighbours: Neighbours | None = None
    noise: FloatArray | None = None
    start: FloatArray = field(default_factory=lambda: _NO_POINTS)
    start_alarm: FloatArray = field(default_factory=lambda: _NO_VALUES)
    goals: FloatArray = field(default_factory=lambda: _NO_GOALS)

    def goals_for(self, n: int) -> FloatArray:
        """`goals`, made (n, GOAL_COLUMNS) zeros first if it is not that shape."""
        if type(n) is int and self.goals.shape == (n, GOAL_COLUMNS):
            return self.goals  # every stage asks each step: checked only when it changes
        if type(n) is not int or not 0 <= n <= MAX_BOIDS:
            n = check.integer("Step.goals_for", "n", n, high=MAX_BOIDS)
        if self.goals.shape != (n, GOAL_COLUMNS):
            self.goals = np.zeros((n, GOAL_COLUMNS))
        return self.goals


def _refuse(neighbours: Neighbours) -> NoReturn:
    """Raise a ValueError naming the first array of `neighbours` that has the wrong shape."""
    n = len(neighbours.order) if np.ndim(neighbours.order) else 0
    m = len(neighbours.slots) if np.ndim(neighbours.slots) else 0
    shapes: dict[str, tuple[int, ...]] = dict.fromkeys(
        ("order", "start", "stop", "slot_species", "_rank"), (n,)
    )
    shapes |= dict.fromkeys(("slots", "dx", "dy", "dist"), (m,))
    shapes["slot_velocities"] = (n, 2)
    for name, shape in shapes.items():
        array = getattr(neighbours, name)
        if not isinstance(array, np.ndarray) or array.shape != shape:
            check.fail("Neighbours", name.lstrip("_"), array, f"must be an array of shape {shape}")
    check.fail("Neighbours", "order", neighbours.order, "must be a 1-d array")
