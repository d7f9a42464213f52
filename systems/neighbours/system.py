"""The neighbour stage: rebuild the grid and list who each boid sees."""

from typing import Any

import numba
import numpy as np

from shoal.systems.core.processor import FlockProcessor
from shoal.systems.core.step import Neighbours, Step
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.neighbours.kernel import find_neighbours

# Work is split into this many chunks of cells per thread, so that a chunk holding a dense
# school does not leave the other threads idle.
_CHUNKS_PER_THREAD = 4
# Room reserved per boid before the first step has shown how many neighbours they have.
_FIRST_GUESS_PER_BOID = 16.0
# Headroom on the measured room: schools tighten over time and an overflow costs a rerun.
_HEADROOM = 1.25


class NeighbourSystem(FlockProcessor):
    """Stage 1: sort boids into the grid and find who each boid sees."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._per_boid = _FIRST_GUESS_PER_BOID
        self._buffers: tuple[IntArray, FloatArray, FloatArray, FloatArray] = (
            np.zeros(0, np.int64),
            np.zeros(0),
            np.zeros(0),
            np.zeros(0),
        )

    def run(self, step: Step) -> None:
        """Writes `step.neighbours`: who each boid sees."""
        if len(self.flock.store):
            step.neighbours = self.find()

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


def _chunks(cell_start: IntArray, n: int) -> IntArray:
    """Cell boundaries that split the boids into chunks of about equal size."""
    count = max(1, numba.get_num_threads() * _CHUNKS_PER_THREAD)
    targets = np.linspace(0, n, count + 1)
    cells = np.searchsorted(cell_start, targets, side="left").astype(np.int64)
    cells[0], cells[-1] = 0, len(cell_start) - 1
    return np.maximum.accumulate(np.minimum(cells, len(cell_start) - 1))
