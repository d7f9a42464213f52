"""The neighbour stage: rebuild the grid and list who each boid sees."""

from dataclasses import dataclass, field
from typing import Any, NoReturn

import numba
import numpy as np

from shoal.components import arguments as check
from shoal.systems.core.processor import FlockProcessor
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.neighbours.kernel import find_neighbours

# Work is split into this many chunks of cells per thread, so that a chunk holding a dense
# school does not leave the other threads idle.
_CHUNKS_PER_THREAD = 4
# Room reserved per boid before the first step has shown how many neighbours they have.
_FIRST_GUESS_PER_BOID = 16.0
# Headroom on the measured room: schools tighten over time and an overflow costs a rerun.
_HEADROOM = 1.25


@dataclass(frozen=True, slots=True)
class Neighbours:
    """Who each boid saw at the start of the last step, in slot order.

    Slot k is store row `order[k]` (boids sorted by grid cell). The neighbours of slot k are
    the slots `slots[start[k]:stop[k]]`, at offsets `dx`, `dy` (wrap-aware, from k to them)
    and distance `dist`; the flat arrays have gaps between chunks. `slot_velocities` and
    `slot_species` are the velocities and species in slot order when the neighbours were
    found. Use `of(row)` for the rows seen by a store row. The arrays are reused: valid until
    the next step.
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
        from shoal.systems.core.flock import MAX_BOIDS  # flock.py imports this module

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


class NeighbourSystem(FlockProcessor):
    """Stage 1: sync with the esper world, sort boids into the grid, find neighbours."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._per_boid = _FIRST_GUESS_PER_BOID
        self._buffers: tuple[IntArray, FloatArray, FloatArray, FloatArray] = (
            np.zeros(0, np.int64),
            np.zeros(0),
            np.zeros(0),
            np.zeros(0),
        )

    def process(self, *args: Any, **kwargs: Any) -> None:
        """Find every boid's neighbours for this step (stored as `flock.neighbours`)."""
        flock = self.flock
        flock.sync()
        flock.neighbours = self.find() if len(flock.store) else Neighbours.none(0)

    def find(self) -> Neighbours:
        """Run the kernel; grow the regions that overflowed and rerun until none does."""
        flock = self.flock
        store, grid, table, config = flock.store, flock.grid, flock.species, flock.config
        n = len(store)
        order = grid.order
        slot_pos = store.positions[order]
        slot_vel = store.velocities[order]
        slot_species = store.species[order]
        chunk_cells = _chunks(grid.cell_start, n)
        boids = np.diff(grid.cell_start[chunk_cells])
        room = np.ceil(boids * self._per_boid).astype(np.int64)
        start = np.empty(n, np.int64)
        stop = np.empty(n, np.int64)
        needed = np.empty(len(boids), np.int64)
        while True:
            offset = np.concatenate(([0], np.cumsum(room)))
            self._reserve(int(offset[-1]))
            find_neighbours(
                slot_pos, slot_vel, slot_species, order, table.params, table.relations,
                grid.cell_start, grid.nx, grid.ny, grid.wrap, config.width, config.height,
                chunk_cells, offset, start, stop, *self._buffers, needed,
            )  # fmt: skip
            if np.all(needed <= room):
                break
            room = np.maximum(room, np.ceil(needed * _HEADROOM).astype(np.int64))
        self._per_boid = _HEADROOM * float(np.max(needed / np.maximum(boids, 1)))
        self._per_boid = max(self._per_boid, 1.0)
        # Views of buffers reused next step: copying them cost ~1 ms per step at 10k boids.
        return Neighbours.found(order, start, stop, self._buffers, slot_vel, slot_species)

    def _reserve(self, size: int) -> None:
        if size <= len(self._buffers[0]):
            return
        size = int(size * _HEADROOM)
        self._buffers = (np.empty(size, np.int64), np.empty(size), np.empty(size), np.empty(size))


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


def _chunks(cell_start: IntArray, n: int) -> IntArray:
    """Cell boundaries that split the boids into chunks of about equal size."""
    count = max(1, numba.get_num_threads() * _CHUNKS_PER_THREAD)
    targets = np.linspace(0, n, count + 1)
    cells = np.searchsorted(cell_start, targets, side="left").astype(np.int64)
    cells[0], cells[-1] = 0, len(cell_start) - 1
    return np.maximum.accumulate(np.minimum(cells, len(cell_start) - 1))
