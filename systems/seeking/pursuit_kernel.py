"""The pursuit kernel: hunters go after `Prey` entities, however far away they are.

Per boid of a hunting species: the nearest prey that concerns its species → where that prey
will be when the hunter gets there (at most `MAX_PREDICTION` s ahead, as in the steering
stage's "chase") → seek it at full speed with the species' chase weight. A hunter whose
straight line to the prey is blocked seeks along the way round the obstacles instead (the
prey's flow field, as a follower does its leader's). A resting hunter (after a catch) does
not pursue.
"""

import math

from shoal.systems.core.maths import MAX_PREDICTION, seek, wrap_offset
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import P_CHASE_WEIGHT, P_MAX_FORCE, P_MAX_SPEED
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.obstacles.flow_kernel import WAY_AROUND
from shoal.systems.seeking.kernel import Agents, Space, _navigate, _nearest

Hunters = tuple[FloatArray, FloatArray, IntArray, FloatArray, FloatArray]
"""The store's columns the pursuit reads: positions, velocities, species, cooldown; and the
one it writes: accelerations."""


@njit_no_refcount(cache=True, nogil=True)
def pursue_prey(
    first: int, last: int, hunters: Hunters, params: FloatArray, space: Space, prey: Agents
) -> None:
    """Add the pursuit of the nearest prey to the accelerations of rows [first, last).

    `prey` as `seek_agents` takes agents: concerns[k, s] is True when prey k is hunted by
    species s; its slot is prey k's field in `space`'s pool (-1: none).
    """
    positions, velocities, species, cooldown, accelerations = hunters
    wrap, width, height, pool, cell_w, cell_h, left, bottom = space
    prey_pos, prey_vel, _, _, _, _, hunts, prey_slot = prey
    inv_w = 1.0 / width if wrap else 0.0
    inv_h = 1.0 / height if wrap else 0.0
    torus = (width, height, inv_w, inv_h)
    for i in range(first, last):
        s = species[i]
        weight = params[s, P_CHASE_WEIGHT]
        if weight <= 0.0 or cooldown[i] > 0.0:
            continue
        x, y = positions[i, 0], positions[i, 1]
        best = _nearest(x, y, prey_pos, hunts, s, torus, math.inf)
        if best < 0:
            continue
        max_speed = params[s, P_MAX_SPEED]
        dx = wrap_offset(prey_pos[best, 0] - x, width, inv_w)
        dy = wrap_offset(prey_pos[best, 1] - y, height, inv_h)
        slot = prey_slot[best]
        way, tx, ty = _navigate(pool, slot, cell_w, cell_h, wrap, x - left, y - bottom, dx, dy)
        if way != WAY_AROUND:  # in sight: aim where it will be
            distance = math.sqrt(dx * dx + dy * dy)
            ahead = min(distance / max_speed, MAX_PREDICTION) if max_speed > 0.0 else 0.0
            tx = dx + prey_vel[best, 0] * ahead
            ty = dy + prey_vel[best, 1] * ahead
        fx, fy = seek(tx, ty, velocities[i, 0], velocities[i, 1], max_speed, params[s, P_MAX_FORCE])
        accelerations[i, 0] += weight * fx
        accelerations[i, 1] += weight * fy
