"""The neighbour stage's kernels: the flock's numbers copied into cell order (slots), and
what each cell holds. The copy takes a range of slots, so that a large flock's runs on
several threads (`core/threads.run_chunks`: each chunk writes only its own slots; its
reads are random, by row, and wait on memory: 21 ms of one thread at 100,000 boids)."""

import numba
import numpy as np

from shoal.systems.core.grid import GridFrame, sort_into_cells
from shoal.systems.core.maths import offset_in
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.vision import CELL_SAMPLE

CROWDED = 40
"""Boids in a boid's cell, itself included, on average over the flock, from which its
cells are better half as wide as the radius they serve (`crowded`). Measured, whole steps
of 10,000 boids at even densities, cells as wide / half as wide: the benchmark's fish at
32 and 46 boids a cell 3.88 / 4.27 and 4.60 / 4.47 ms, the baitball preset's at 32 and 45
3.35 / 3.30 and 4.26 / 3.48 ms; at 12, 2.8 / 4.3 ms (the cells' own cost, 4 × as many)."""

Slots = tuple[
    IntArray, FloatArray, FloatArray, IntArray, FloatArray, FloatArray, FloatArray,
    FloatArray, FloatArray, IntArray, IntArray,
]  # fmt: skip
"""cell, positions, velocities, species, alarm (as `Cells` has them), then x, y, vx, vy,
cell_species and cell_alarmed (see `Cells`)."""


def empty_slots(n: int, cells: int) -> Slots:
    """The arrays of `Slots` for n boids in `cells` cells, to be filled by `gather_slots`
    and `mark_cells`."""
    return (
        np.empty(n, np.int64), np.empty((n, 2)), np.empty((n, 2)), np.empty(n, np.int64),
        np.empty(n), np.empty(n), np.empty(n), np.empty(n), np.empty(n),
        np.empty(cells, np.int64), np.empty(cells, np.int64),
    )  # fmt: skip


Sorting = tuple[IntArray, IntArray, IntArray, int]
"""The flock sorted into cells (`sort_into_cells`): the rows in cell order, each row's cell
column and row, and how many rows of cells the grid has."""
Columns = tuple[FloatArray, FloatArray, IntArray, FloatArray]
"""The store's columns copied into the slots: positions, velocities, species, alarm."""
Torus = tuple[bool, float, float, float, float]
"""Whether the world wraps, its lower-left corner, width and height."""


@numba.njit(cache=True, nogil=True)
def gather_slots(
    first: int, last: int, sorting: Sorting, columns: Columns, torus: Torus, slots: Slots
) -> None:
    """Write slots [first, last) of `slots` (slot k is row order[k]): its cell, position,
    velocity, species and alarm, and the contiguous x, y, vx, vy.

    Boids of one cell end up side by side in memory, so a boid's search reads its
    neighbours' numbers from a few contiguous runs. On a torus the contiguous x and y are
    wrapped into the world, so that every boid lies within its cell (a host may have put
    one outside since the last step).
    """
    # Read out of the tuples once: in the loop each read would count a reference up and down.
    order, cell_x, cell_y, ny = sorting
    positions, velocities, species, alarm = columns
    wrap, left, bottom, width, height = torus
    cell, slot_pos, slot_vel, slot_species, slot_alarm, x, y, vx, vy = slots[:9]
    for k in range(first, last):
        r = order[k]
        cell[k] = cell_x[r] * ny + cell_y[r]
        px, py = positions[r, 0], positions[r, 1]
        slot_pos[k, 0], slot_pos[k, 1] = px, py
        if wrap:
            px = left + offset_in(px - left, width)
            py = bottom + offset_in(py - bottom, height)
        x[k], y[k] = px, py
        slot_vel[k, 0], slot_vel[k, 1] = velocities[r, 0], velocities[r, 1]
        vx[k], vy[k] = velocities[r, 0], velocities[r, 1]
        slot_species[k] = species[r]
        slot_alarm[k] = alarm[r]


@numba.njit(cache=True, nogil=True, parallel=True)
def gather_chunks(
    workers: int,
    chunks: int,
    n: int,
    sorting: Sorting,
    columns: Columns,
    torus: Torus,
    slots: Slots,
) -> None:
    """`gather_slots` over slots [0, n) in `chunks` chunks on `workers` of numba's threads
    (see `core/threads.py`)."""
    for w in numba.prange(workers):
        for k in range(w, chunks, workers):
            first, last = n * k // chunks, n * (k + 1) // chunks
            gather_slots(first, last, sorting, columns, torus, slots)


@numba.njit(cache=True, nogil=True)
def mark_cells(first: int, last: int, cell_start: IntArray, slots: Slots) -> None:
    """Write what cells [first, last) hold, from their slots (`gather_slots`): the one
    species of each cell's boids (-1: several; -2: none) and 1 where one of them is
    alarmed."""
    slot_species, slot_alarm = slots[3], slots[4]
    cell_species, cell_alarmed = slots[9], slots[10]
    for c in range(first, last):
        kind, alarmed = -2, 0
        for k in range(cell_start[c], cell_start[c + 1]):
            s = slot_species[k]
            kind = s if kind == -2 or kind == s else -1
            if slot_alarm[k] != 0.0:
                alarmed = 1
        cell_species[c], cell_alarmed[c] = kind, alarmed


@numba.njit(cache=True, nogil=True)
def fill_slots(
    positions: FloatArray,
    velocities: FloatArray,
    species: IntArray,
    alarm: FloatArray,
    frame: GridFrame,
    order: IntArray,
    cell_start: IntArray,
    slots: Slots,
) -> bool:
    """Sort the flock into the cells of `frame` (`sort_into_cells`: `order` and
    `cell_start`), copy it into `slots` (`gather_slots`) and mark its cells (`mark_cells`),
    in one call, for a flock that one thread copies; return whether the cells are
    `crowded`. Four calls from Python cost a 100-boid flock ~8 µs more than the work; the
    arrays come in from Python (returned from a compiled call, an array costs ~0.3 µs to
    hand back: more than numpy takes to make it)."""
    origin_x, origin_y, cell_w, cell_h, nx, ny, wrap, width, height = frame
    cell_x, cell_y, sorted_rows, starts = sort_into_cells(
        positions, origin_x, origin_y, cell_w, cell_h, nx, ny, wrap
    )
    # Copied by loops, not `order[:] = sorted_rows`: a slice assignment compiles numba's
    # message for mismatched shapes (its string formatting: ~1.2 s of the install). The
    # lengths match: `_copy_in_one_call` makes them those `sort_into_cells` returns.
    for k in range(order.shape[0]):
        order[k] = sorted_rows[k]
    for k in range(cell_start.shape[0]):
        cell_start[k] = starts[k]
    sorting = (order, cell_x, cell_y, ny)
    columns = (positions, velocities, species, alarm)
    torus = (wrap, origin_x, origin_y, width, height)
    # int(0), not 0: numba compiles a callee handed the literal 0 once more, for it.
    gather_slots(int(0), positions.shape[0], sorting, columns, torus, slots)
    mark_cells(int(0), nx * ny, cell_start, slots)
    return crowded(cell_start)


@numba.njit(cache=True, nogil=True)
def crowded(cell_start: IntArray) -> bool:
    """Whether cells half as wide would serve the boids sorted into these better: a boid
    shares its cell with `CROWDED` boids or more on average (there its 5 × 5 cells of half
    the width hold a third fewer boids to test than its 3 × 3 of these), and no cell holds
    more than `CELL_SAMPLE` (none is read by sample, so none of the smaller cells is: in
    either grid a boid sees the very same boids)."""
    n = cell_start[-1]
    shared = most = 0
    for c in range(cell_start.shape[0] - 1):
        count = cell_start[c + 1] - cell_start[c]
        shared += count * count
        most = max(most, count)
    return n > 0 and most <= CELL_SAMPLE and shared >= CROWDED * n
