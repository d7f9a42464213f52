"""The neighbour stage's kernel: the flock's numbers copied into cell order (slots)."""

import numba
import numpy as np

from shoal.systems.core.store import FloatArray, IntArray

Slots = tuple[
    IntArray, FloatArray, FloatArray, IntArray, FloatArray, FloatArray, FloatArray,
    FloatArray, FloatArray, IntArray, IntArray,
]  # fmt: skip
"""cell, positions, velocities, species, alarm (as `Cells` has them), then x, y, vx, vy,
cell_species and cell_alarmed (see `Cells`)."""


@numba.njit(cache=True, nogil=True)
def gather_slots(
    order: IntArray,
    cell_x: IntArray,
    cell_y: IntArray,
    nx: int,
    ny: int,
    positions: FloatArray,
    velocities: FloatArray,
    species: IntArray,
    alarm: FloatArray,
    torus: tuple[bool, float, float, float, float],
) -> Slots:
    """Each slot's cell, position, velocity, species and alarm (slot k is row order[k]), and
    what each cell holds (see `Cells`).

    Boids of one cell end up side by side in memory, so a boid's search reads its
    neighbours' numbers from a few contiguous runs. `torus` is (wrap, left, bottom, width,
    height): on a torus the contiguous x and y are wrapped into the world, so that every
    boid lies within its cell (a host may have put one outside since the last step).
    """
    wrap, left, bottom, width, height = torus
    n = order.shape[0]
    cell = np.empty(n, np.int64)
    slot_pos = np.empty((n, 2))
    slot_vel = np.empty((n, 2))
    slot_species = np.empty(n, np.int64)
    slot_alarm = np.empty(n)
    x, y, vx, vy = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    cell_species = np.full(nx * ny, -2, np.int64)
    cell_alarmed = np.zeros(nx * ny, np.int64)
    for k in range(n):
        r = order[k]
        c = cell_x[r] * ny + cell_y[r]
        cell[k] = c
        px, py = positions[r, 0], positions[r, 1]
        slot_pos[k, 0], slot_pos[k, 1] = px, py
        if wrap:
            px = left + (px - left) % width
            py = bottom + (py - bottom) % height
        x[k], y[k] = px, py
        slot_vel[k, 0], slot_vel[k, 1] = velocities[r, 0], velocities[r, 1]
        vx[k], vy[k] = velocities[r, 0], velocities[r, 1]
        s = species[r]
        slot_species[k] = s
        if cell_species[c] == -2:
            cell_species[c] = s
        elif cell_species[c] != s:
            cell_species[c] = -1
        slot_alarm[k] = alarm[r]
        if alarm[r] != 0.0:
            cell_alarmed[c] = 1
    return (cell, slot_pos, slot_vel, slot_species, slot_alarm, x, y, vx, vy, cell_species,
            cell_alarmed)  # fmt: skip
