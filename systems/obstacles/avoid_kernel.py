"""The obstacle avoidance kernel: look ahead along the velocity, steer around what is there.

Phases per boid: look ahead (a disc of the body margin swept along the heading, and the bare
centre line) → if it meets an obstacle, steer sideways away from the surface, harder the
nearer the contact, braking a little when heading straight in → add the weighted steering
to the acceleration the earlier stages wrote (Reynolds 1999, "obstacle avoidance").
"""

import math

import numba

from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    P_LOOK_AHEAD,
    P_MAX_FORCE,
    P_MAX_SPEED,
    P_OBSTACLE_WEIGHT,
)
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.obstacles.query_kernel import first_hit
from shoal.systems.obstacles.shape_kernel import F_X0, F_X1, F_Y0, F_Y1, Geometry

# Share of the steering that brakes (along the heading) when the path meets a wall square
# on; the rest turns. Braking alone never avoids anything, turning alone can be too slow.
_BRAKE = 0.5


@njit_no_refcount(cache=True)
def _force_limit(params: FloatArray, s: int, reach: float) -> float:
    """The species' max force; if unlimited, the acceleration that turns a boid at full
    speed through a right angle within its look-ahead reach."""
    limit = float(params[s, P_MAX_FORCE])
    if math.isinf(limit):
        max_speed = float(params[s, P_MAX_SPEED])
        return max_speed * max_speed / reach
    return limit


@njit_no_refcount(cache=True)
def _side(
    shape_f: FloatArray, o: int, px: float, py: float, hx: float, hy: float
) -> tuple[float, float]:
    """Unit vector square to the heading, away from the middle of obstacle o's box (left if
    the middle is dead ahead): the way to turn when the surface faces the boid square on."""
    mx = 0.5 * (shape_f[o, F_X0] + shape_f[o, F_X1]) - px
    my = 0.5 * (shape_f[o, F_Y0] + shape_f[o, F_Y1]) - py
    if hx * my - hy * mx > 0.0:  # the middle is to the left: go right
        return hy, -hx
    return -hy, hx


@numba.njit(cache=True)
def _steer_from(
    t: float, nx: float, ny: float, hx: float, hy: float, reach: float, limit: float
) -> tuple[float, float, bool]:
    """Steering from a contact at distance t with outward normal n, for heading h: sideways
    along the normal's part square to h, braking a little when it faces h; `limit` long at
    the boid, fading to zero at the end of its reach. The flag asks the caller to choose a
    side: the surface faces the boid square on."""
    urgency = 1.0 - t / reach
    facing = nx * hx + ny * hy  # < 0: heading into the surface
    lx, ly = nx - facing * hx, ny - facing * hy
    lateral = math.sqrt(lx * lx + ly * ly)
    if lateral < 1e-6:
        return 0.0, 0.0, True
    brake = _BRAKE * min(facing, 0.0)
    sx, sy = lx / lateral + brake * hx, ly / lateral + brake * hy
    scale = limit * urgency / math.sqrt(sx * sx + sy * sy)
    return sx * scale, sy * scale, False


Avoiders = tuple[FloatArray, FloatArray, IntArray, FloatArray]
"""The store's columns obstacle avoidance reads: positions, velocities, species; and the one
it adds to: accelerations."""


@njit_no_refcount(cache=True, nogil=True, error_model="numpy")
def avoid(
    first: int, last: int, boids: Avoiders, params: FloatArray, geometry: Geometry, margin: float
) -> None:
    """Add the weighted obstacle avoidance of rows [first, last) to `accelerations`."""
    positions, velocities, species, accelerations = boids
    shape_f = geometry[0]  # the shapes' boxes (`first_hit` reads the rest)
    for i in range(first, last):
        s = species[i]
        weight = params[s, P_OBSTACLE_WEIGHT]
        vx, vy = velocities[i, 0], velocities[i, 1]
        speed = math.sqrt(vx * vx + vy * vy)
        if weight == 0.0 or speed == 0.0:
            continue
        # --- look ahead: the body margin swept along the heading
        look = params[s, P_LOOK_AHEAD]
        reach = speed * look + margin
        x, y, hx, hy = positions[i, 0], positions[i, 1], vx / speed, vy / speed
        t, nx, ny, o = first_hit(geometry, x, y, hx, hy, reach, margin)
        if o < 0:
            continue
        # --- steer sideways, harder the nearer the contact
        limit = _force_limit(params, s, params[s, P_MAX_SPEED] * look + margin)
        ax, ay, square_on = _steer_from(t, nx, ny, hx, hy, reach, limit)
        if square_on:  # as if the surface were tilted 45° towards the chosen side
            lx, ly = _side(shape_f, o, x, y, hx, hy)
            ax, ay, _ = _steer_from(t, lx - hx, ly - hy, hx, hy, reach, limit)
        accelerations[i, 0] += weight * ax
        accelerations[i, 1] += weight * ay


@numba.njit(cache=True, nogil=True, parallel=True)
def avoid_chunks(
    workers: int,
    chunks: int,
    n: int,
    boids: Avoiders,
    params: FloatArray,
    geometry: Geometry,
    margin: float,
) -> None:
    """`avoid` over rows [0, n) in `chunks` chunks on `workers` of numba's threads (see
    `core/threads.py`)."""
    for w in numba.prange(workers):
        for k in range(w, chunks, workers):
            first, last = n * k // chunks, n * (k + 1) // chunks
            avoid(first, last, boids, params, geometry, margin)
