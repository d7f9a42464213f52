"""The neighbour stage's kernel: the flock's numbers copied into cell order (slots)."""

import numba
import numpy as np

from shoal.systems.core.store import FloatArray, IntArray


@numba.njit(cache=True, nogil=True)
def gather_slots(
    order: IntArray,
    cell_x: IntArray,
    cell_y: IntArray,
    ny: int,
    positions: FloatArray,
    velocities: FloatArray,
    species: IntArray,
    alarm: FloatArray,
) -> tuple[IntArray, FloatArray, FloatArray, IntArray, FloatArray]:
    """Each slot's cell, position, velocity, species and alarm (slot k is row order[k]).

    Boids of one cell end up side by side in memory, so a boid's search reads its
    neighbours' numbers from a few contiguous runs.
    """
    n = order.shape[0]
    cell = np.empty(n, np.int64)
    slot_pos = np.empty((n, 2))
    slot_vel = np.empty((n, 2))
    slot_species = np.empty(n, np.int64)
    slot_alarm = np.empty(n)
    for k in range(n):
        r = order[k]
        cell[k] = cell_x[r] * ny + cell_y[r]
        slot_pos[k, 0], slot_pos[k, 1] = positions[r, 0], positions[r, 1]
        slot_vel[k, 0], slot_vel[k, 1] = velocities[r, 0], velocities[r, 1]
        slot_species[k] = species[r]
        slot_alarm[k] = alarm[r]
    return cell, slot_pos, slot_vel, slot_species, slot_alarm
