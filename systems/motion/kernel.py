"""The motion kernel: every boid's step of motion, its burst and alarm clocks, dead radii.

Phases per boid: start, run down or reset its burst (a flash expansion when a scare begins)
→ move (`shoal.systems.core.integrate.advance`: walls, limits, integration, boundary) →
keep out of the dead radius of every attractor that draws it → count how long its alarm
has stood (the alarm spreads from it at the species' alarm speed for that long).
"""

import math

import numba

from shoal.systems.core.config import BOUNDARY_WRAP
from shoal.systems.core.integrate import Walls, advance, bounded, moving_acceleration
from shoal.systems.core.maths import wrap_offset
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    ACCELERATION_KEPT,
    P_ACCELERATION,
    P_BURST_FACTOR,
    P_BURST_TIME,
)
from shoal.systems.core.store import BoolArray, FloatArray, IntArray

Movers = tuple[
    FloatArray, FloatArray, FloatArray, FloatArray, IntArray, FloatArray, FloatArray, FloatArray
]
"""The store's columns the motion kernel reads and writes: positions, velocities,
accelerations, kept (`ACCELERATIONS`), species, alarm, alarm age, burst."""
Clock = tuple[float, FloatArray, FloatArray, FloatArray]
"""The step's own numbers: dt (seconds), each row's random turn (radians; empty: none), its
alarm level when the step began, and how long before the step's end a flockmate's alarm
reached it (empty: none)."""


@njit_no_refcount(cache=True, nogil=True)
def move(
    first: int, last: int, movers: Movers, params: FloatArray, walls: Walls, clock: Clock
) -> None:
    """Advance rows [first, last) by one step of `clock`'s dt seconds, in place.

    `kept` is the acceleration each row kept from the last step (`ACCELERATIONS`): rows of a
    species that keeps it move under that plus this step's, and keep the sum. `alarm` is the
    level now (`Clock` has the level the step began with).
    """
    positions, velocities, accelerations, kept, species, alarm, alarm_age, burst = movers
    dt, noise, alarm_before, alarm_lead = clock
    noisy = noise.shape[0] > 0
    led = alarm_lead.shape[0] > 0
    for i in range(first, last):
        s = species[i]
        burst[i] = _burst(burst[i], alarm[i], params[s, P_BURST_FACTOR], params[s, P_BURST_TIME])
        ax, ay = moving_acceleration(s, params, accelerations, kept, i)
        if int(params[s, P_ACCELERATION]) == ACCELERATION_KEPT:
            kept[i, 0], kept[i, 1] = ax, ay
        turn = noise[i] if noisy else 0.0
        x, y = positions[i, 0], positions[i, 1]
        vx, vy = velocities[i, 0], velocities[i, 1]
        x, y, vx, vy = advance(x, y, vx, vy, ax, ay, s, params, dt, burst[i], turn, *walls)
        positions[i, 0], positions[i, 1] = x, y
        velocities[i, 0], velocities[i, 1] = vx, vy
        if burst[i] > 0.0:  # run down; then spent until the boid is calm again
            burst[i] = burst[i] - dt if burst[i] > dt else -1.0
        # The alarm spreads from a boid for as long as its level has not risen; one passed
        # on by a flockmate reached it that long before the step's end (a threat: now).
        if alarm[i] > alarm_before[i]:
            alarm_age[i] = alarm_lead[i] if led and alarm[i] < 1.0 else 0.0
        else:
            alarm_age[i] += dt


@numba.njit(cache=True, nogil=True, parallel=True)
def move_chunks(
    workers: int,
    chunks: int,
    n: int,
    movers: Movers,
    params: FloatArray,
    walls: Walls,
    clock: Clock,
) -> None:
    """`move` over rows [0, n) in `chunks` chunks on `workers` of numba's threads (see
    `core/threads.py`)."""
    for w in numba.prange(workers):
        for k in range(w, chunks, workers):
            first, last = n * k // chunks, n * (k + 1) // chunks
            move(first, last, movers, params, walls, clock)


@numba.njit(cache=True, nogil=True)
def _burst(state: float, alarm: float, factor: float, duration: float) -> float:
    """The burst state for this step: a burst starts when a calm boid is scared (once per
    scare), a spent one is ready again once calm (see `advance` for the states)."""
    if alarm <= 0.0:
        return 0.0 if state < 0.0 else state
    if state == 0.0 and factor > 1.0 and duration > 0.0:
        return duration
    return state


Pits = tuple[FloatArray, FloatArray, BoolArray]
"""The attractors' centres (from the world's corner), dead radii, and which species each
draws."""


@njit_no_refcount(cache=True, nogil=True)
def keep_out(first: int, last: int, movers: Movers, pits: Pits, walls: Walls) -> None:
    """Put rows [first, last) found inside the dead radius of an attractor that draws them
    back on its rim, their velocity into it removed (they slide round it)."""
    positions, velocities, _, _, species, _, _, _ = movers
    centres, dead, draws = pits
    boundary, width, height, _, _ = walls
    wrap = boundary == BOUNDARY_WRAP
    inv_w = 1.0 / width if wrap else 0.0
    inv_h = 1.0 / height if wrap else 0.0
    for i in range(first, last):
        s = species[i]
        for k in range(centres.shape[0]):
            if not draws[k, s] or dead[k] <= 0.0:
                continue
            dx = wrap_offset(positions[i, 0] - centres[k, 0], width, inv_w)
            dy = wrap_offset(positions[i, 1] - centres[k, 1], height, inv_h)
            d = math.sqrt(dx * dx + dy * dy)
            if d >= dead[k]:
                continue
            vx, vy = velocities[i, 0], velocities[i, 1]
            speed = math.sqrt(vx * vx + vy * vy)
            if d > 0.0:
                nx, ny = dx / d, dy / d
            elif speed > 0.0:  # on the centre: out the way it is heading
                nx, ny = vx / speed, vy / speed
            else:
                nx, ny = 1.0, 0.0
            x = positions[i, 0] + nx * (dead[k] - d)
            y = positions[i, 1] + ny * (dead[k] - d)
            # Slide round the rim at the same speed (straight out if it came straight in).
            inward = vx * nx + vy * ny
            if inward < 0.0:
                vx, vy = vx - inward * nx, vy - inward * ny
                along = math.sqrt(vx * vx + vy * vy)
                vx, vy = (vx / along * speed, vy / along * speed) if along > 0.0 else (
                    nx * speed, ny * speed)  # fmt: skip
            x, y, vx, vy = bounded(x, y, vx, vy, boundary, width, height)
            positions[i, 0], positions[i, 1] = x, y
            velocities[i, 0], velocities[i, 1] = vx, vy
