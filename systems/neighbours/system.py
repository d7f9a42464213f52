"""The neighbour stage: the flock sorted into grid cells, for every boid's vision."""

import numpy as np

from shoal.systems.core.grid import GridFrame, grid_frame, sort_into_cells
from shoal.systems.core.species_table import P_PERCEPTION
from shoal.systems.core.step import Step
from shoal.systems.core.store import FlockStore, IntArray
from shoal.systems.core.threads import LIGHT_NATIVE_MIN_ROWS, native_forced, run_chunks
from shoal.systems.core.vision import Cells
from shoal.systems.flock.flock import Flock
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.neighbours.kernel import (
    Slots,
    crowded,
    empty_slots,
    fill_slots,
    gather_chunks,
    gather_slots,
    mark_cells,
)


class NeighbourSystem(FlockProcessor):
    """Stage 1: sort the boids into grid cells (their numbers copied in cell order)."""

    def run(self, step: Step) -> None:
        """Writes `step.cells`: the flock in cell order, as it is when the step begins."""
        # Below LIGHT_NATIVE_MIN_ROWS boids one thread copies them anyway: in one call.
        one_call = len(self.flock.store) < LIGHT_NATIVE_MIN_ROWS and not native_forced()
        step.cells = sorted_cells(self.flock, one_call)


def sorted_cells(flock: Flock, one_call: bool) -> Cells:
    """The flock sorted into cells now: copied in one compiled call (`fill_slots`) or in
    chunks that threads may share (`gather_slots`; the warm-up runs both). The cells are
    as wide as the radius of `_cell_size`, or half as wide where those would be `crowded`."""
    store, config = flock.store, flock.config
    radius = _cell_size(flock)
    where = (config.wraps, config.width, config.height, config.origin)
    frame = grid_frame(store.positions, radius, *where)
    if one_call:
        order, cell_start, slots, crowd = _copy_in_one_call(store, frame)
        # A crowd is sorted and copied twice: cheaper, for the few small crowds, than a
        # second compiled call in every small flock's step.
        if crowd:
            frame = grid_frame(store.positions, radius / 2, *where)
            order, cell_start, slots, _ = _copy_in_one_call(store, frame)
    else:
        cell_x, cell_y, order, cell_start = sort_into_cells(store.positions, *frame[:7])
        if crowded(cell_start):
            frame = grid_frame(store.positions, radius / 2, *where)
            cell_x, cell_y, order, cell_start = sort_into_cells(store.positions, *frame[:7])
        slots = _copy_on_threads(store, frame, cell_x, cell_y, order, cell_start)
    cell, positions, velocities, species, alarm, x, y, vx, vy, kinds, alarmed = slots
    return Cells(
        order, cell, cell_start, positions, velocities, species, alarm, *frame, x, y, vx, vy,
        kinds, alarmed,
    )  # fmt: skip


def _copy_in_one_call(
    store: FlockStore, frame: GridFrame
) -> tuple[IntArray, IntArray, Slots, bool]:
    """The rows in cell order, where each cell's slots start, the slots, and whether the
    cells are `crowded`."""
    n, cells = len(store), frame[4] * frame[5]
    order, cell_start = np.empty(n, np.int64), np.empty(cells + 1, np.int64)
    slots = empty_slots(n, cells)
    crowd = fill_slots(
        store.positions,
        store.velocities,
        store.species,
        store.alarm,
        frame,
        order,
        cell_start,
        slots,
    )
    return order, cell_start, slots, crowd


def _copy_on_threads(
    store: FlockStore,
    frame: GridFrame,
    cell_x: IntArray,
    cell_y: IntArray,
    order: IntArray,
    cell_start: IntArray,
) -> Slots:
    """The slots of boids sorted into cells (`sort_into_cells`), copied in chunks (a large
    flock: over threads)."""
    origin_x, origin_y, _, _, nx, ny, wrap, width, height = frame
    slots = empty_slots(len(store), nx * ny)
    sorting = (order, cell_x, cell_y, ny)
    columns = (store.positions, store.velocities, store.species, store.alarm)
    torus = (wrap, origin_x, origin_y, width, height)
    records, n = (sorting, columns, torus, slots), len(store)
    run_chunks(
        gather_slots, n, *records, native=gather_chunks, native_min_rows=LIGHT_NATIVE_MIN_ROWS
    )
    mark_cells(0, nx * ny, cell_start, slots)  # reads in order: fast
    return slots


def _cell_size(flock: Flock) -> float:
    """The perception radius of the species with the most boids (with none, the
    largest): those boids search their own cell and the 8 round it, and a species that
    sees farther walks more rings of cells. Sized for the largest radius instead, a
    tank's 2,000 fish (50 px) in a grid for its 2 sharks (150 px) each read hundreds of
    boids: 11 µs a fish a step. Smaller cells cost a flock that is not crowded more in
    visits than they save in distance tests (measured: a share of 0.25 of the radius 1.8 /
    45 ms a step at 500 / 10,000 boids, 0.5: 1.9 / 37, 1: 1.3 / 23; a crowded one gets
    cells of half the radius, see `kernel.CROWDED`)."""
    table, store = flock.species, flock.store
    if len(store) == 0:
        return table.max_perception
    if len(table) == 1:
        return float(table.params[0, P_PERCEPTION])
    counts = np.bincount(store.species, minlength=len(table))
    return float(table.params[int(np.argmax(counts)), P_PERCEPTION])
