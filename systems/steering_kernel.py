"""The steering kernel: separation, alignment and cohesion, per species style.

Phases per boid: gather (sums over the neighbours it flocks with) → combine (by the species'
steering style) → write its acceleration.
"""

import math

import numba
import numpy as np

from shoal.systems.species_table import (
    P_ALIGN_TURN,
    P_COHERE_TURN,
    P_FALLOFF,
    P_MAX_FORCE,
    P_MAX_SPEED,
    P_SEPARATE_TURN,
    P_SEPARATION,
    P_STYLE,
    P_W_ALIGNMENT,
    P_W_COHESION,
    P_W_SEPARATION,
    RELATION_FLOCK,
    STYLE_ACCUMULATE,
    STYLE_REYNOLDS,
    STYLE_TURN,
)
from shoal.systems.store import FloatArray, IntArray

# Separation from a neighbour at distance d grows as (r / d)^p; this caps it so that two boids
# almost on top of each other get a strong but finite push.
_MAX_SEPARATION_FACTOR = 1.0e4
_GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))


@numba.njit(cache=True, inline="always")
def clamp_length(x: float, y: float, limit: float) -> tuple[float, float]:
    """(x, y) scaled down to at most `limit` long."""
    length = math.sqrt(x * x + y * y)
    if length > limit:
        return x * limit / length, y * limit / length
    return x, y


@numba.njit(cache=True, inline="always")
def _seek(
    tx: float, ty: float, vx: float, vy: float, max_speed: float, max_force: float
) -> tuple[float, float]:
    """Reynolds steering towards direction (tx, ty): max-speed desired velocity minus current."""
    length = math.sqrt(tx * tx + ty * ty)
    if length == 0.0:
        return 0.0, 0.0
    return clamp_length(tx / length * max_speed - vx, ty / length * max_speed - vy, max_force)


@numba.njit(cache=True, inline="always")
def turn_towards(heading: float, target: float, limit: float) -> float:
    """`heading` turned towards `target` (radians) by at most `limit`."""
    delta = (target - heading + math.pi) % (2.0 * math.pi) - math.pi
    return heading + max(-limit, min(limit, delta))


@numba.njit(cache=True, error_model="numpy", parallel=True)
def steer(
    slot_vel: FloatArray,
    slot_species: IntArray,
    slot_row: IntArray,
    params: FloatArray,
    relations: IntArray,
    nb_start: IntArray,
    nb_stop: IntArray,
    nb_slot: IntArray,
    nb_dx: FloatArray,
    nb_dy: FloatArray,
    nb_dist: FloatArray,
    dt: float,
    accelerations: FloatArray,
) -> None:
    """Write each boid's flocking acceleration into `accelerations` (store row order).

    Works in slot order (see `Neighbours`): neighbours' velocities are read from nearby memory.
    """
    for i in numba.prange(slot_vel.shape[0]):
        sx, sy, alx, aly, cx, cy, limit = _rule_terms(
            i, slot_vel, slot_species, slot_row, params, relations, nb_start, nb_stop, nb_slot,
            nb_dx, nb_dy, nb_dist, dt,
        )  # fmt: skip
        ax, ay = clamp_length(sx + alx + cx, sy + aly + cy, limit)
        accelerations[slot_row[i], 0] = ax
        accelerations[slot_row[i], 1] = ay


@numba.njit(cache=True, error_model="numpy")
def rule_forces(
    slot: int,
    slot_vel: FloatArray,
    slot_species: IntArray,
    slot_row: IntArray,
    params: FloatArray,
    relations: IntArray,
    nb_start: IntArray,
    nb_stop: IntArray,
    nb_slot: IntArray,
    nb_dx: FloatArray,
    nb_dy: FloatArray,
    nb_dist: FloatArray,
    dt: float,
) -> FloatArray:
    """One boid's weighted separation, alignment and cohesion terms as rows of a (3, 2) array.

    Their sum, clamped to the species' max force, is what `steer` applies (for debugging and
    the overlay: it runs the very same code).
    """
    sx, sy, alx, aly, cx, cy, _ = _rule_terms(
        slot, slot_vel, slot_species, slot_row, params, relations, nb_start, nb_stop, nb_slot,
        nb_dx, nb_dy, nb_dist, dt,
    )  # fmt: skip
    terms = np.empty((3, 2))
    terms[0, 0], terms[0, 1] = sx, sy
    terms[1, 0], terms[1, 1] = alx, aly
    terms[2, 0], terms[2, 1] = cx, cy
    return terms


@numba.njit(cache=True, error_model="numpy", inline="always")
def _rule_terms(
    i: int,
    slot_vel: FloatArray,
    slot_species: IntArray,
    slot_row: IntArray,
    params: FloatArray,
    relations: IntArray,
    nb_start: IntArray,
    nb_stop: IntArray,
    nb_slot: IntArray,
    nb_dx: FloatArray,
    nb_dy: FloatArray,
    nb_dist: FloatArray,
    dt: float,
) -> tuple[float, float, float, float, float, float, float]:
    """Slot i's separation, alignment and cohesion terms, and the limit on their sum."""
    s = slot_species[i]
    vx = slot_vel[i, 0]
    vy = slot_vel[i, 1]
    sep_radius = params[s, P_SEPARATION]
    square_falloff = params[s, P_FALLOFF] == 2.0
    style = int(params[s, P_STYLE])
    turning = style == STYLE_TURN
    # --- gather: sums over the neighbours it flocks with ---------------------------------
    count = 0
    sum_vx = sum_vy = 0.0  # neighbours' velocities
    sum_hx = sum_hy = 0.0  # neighbours' unit headings (turn style)
    sum_dx = sum_dy = 0.0  # offsets to neighbours: their centre, relative to i
    sep_x = sep_y = 0.0
    nearest = math.inf
    near_dx = near_dy = 0.0
    for q in range(nb_start[i], nb_stop[i]):
        j = nb_slot[q]
        if relations[s, slot_species[j]] != RELATION_FLOCK:
            continue
        count += 1
        wx = slot_vel[j, 0]
        wy = slot_vel[j, 1]
        sum_vx += wx
        sum_vy += wy
        if turning:
            w_speed = math.sqrt(wx * wx + wy * wy)
            if w_speed > 0.0:
                sum_hx += wx / w_speed
                sum_hy += wy / w_speed
        dx = nb_dx[q]
        dy = nb_dy[q]
        d = nb_dist[q]
        sum_dx += dx
        sum_dy += dy
        if d < nearest:
            nearest, near_dx, near_dy = d, dx, dy
        if d < sep_radius:
            if d > 0.0:
                ratio = sep_radius / d
                factor = min(ratio * ratio if square_falloff else ratio, _MAX_SEPARATION_FACTOR)
                sep_x -= dx / d * factor
                sep_y -= dy / d * factor
            else:  # same spot: part in a direction fixed by the pair, opposite for each
                a, b = slot_row[i], slot_row[j]
                angle = _GOLDEN_ANGLE * (min(a, b) + max(a, b)) + (math.pi if a > b else 0.0)
                sep_x += math.cos(angle) * _MAX_SEPARATION_FACTOR
                sep_y += math.sin(angle) * _MAX_SEPARATION_FACTOR
    # --- combine, by the species' steering style -----------------------------------------
    if count == 0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    if style == STYLE_REYNOLDS:
        return _reynolds(params, s, vx, vy, sep_x, sep_y, sum_vx / count, sum_vy / count,
                         sum_dx / count, sum_dy / count)  # fmt: skip
    if style == STYLE_ACCUMULATE:
        return _accumulate(params, s, vx, vy, sep_x, sep_y, sum_vx / count, sum_vy / count,
                           sum_dx / count, sum_dy / count)  # fmt: skip
    return _turn(params, s, vx, vy, dt, nearest < sep_radius, near_dx, near_dy, sum_hx, sum_hy,
                 sum_dx, sum_dy)  # fmt: skip


Terms = tuple[float, float, float, float, float, float, float]
"""Separation x, y, alignment x, y, cohesion x, y (accelerations), and the limit on the sum."""


@numba.njit(cache=True, inline="always")
def _reynolds(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    sep_x: float,
    sep_y: float,
    avg_vx: float,
    avg_vy: float,
    centre_x: float,
    centre_y: float,
) -> Terms:
    max_speed = params[s, P_MAX_SPEED]
    max_force = params[s, P_MAX_FORCE]
    sx, sy = _seek(sep_x, sep_y, vx, vy, max_speed, max_force)
    alx, aly = _seek(avg_vx, avg_vy, vx, vy, max_speed, max_force)
    cx, cy = _seek(centre_x, centre_y, vx, vy, max_speed, max_force)
    w_sep = params[s, P_W_SEPARATION]
    w_ali = params[s, P_W_ALIGNMENT]
    w_coh = params[s, P_W_COHESION]
    return w_sep * sx, w_sep * sy, w_ali * alx, w_ali * aly, w_coh * cx, w_coh * cy, max_force


@numba.njit(cache=True, inline="always")
def _accumulate(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    sep_x: float,
    sep_y: float,
    avg_vx: float,
    avg_vy: float,
    centre_x: float,
    centre_y: float,
) -> Terms:
    # Weights: separation in 1/s (times max speed), alignment in 1/s, cohesion in 1/s².
    w_sep = params[s, P_W_SEPARATION] * params[s, P_MAX_SPEED]
    w_ali = params[s, P_W_ALIGNMENT]
    w_coh = params[s, P_W_COHESION]
    return (
        w_sep * sep_x, w_sep * sep_y, w_ali * (avg_vx - vx), w_ali * (avg_vy - vy),
        w_coh * centre_x, w_coh * centre_y, params[s, P_MAX_FORCE],
    )  # fmt: skip


@numba.njit(cache=True, inline="always")
def _turn(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    dt: float,
    crowded: bool,
    near_dx: float,
    near_dy: float,
    sum_hx: float,
    sum_hy: float,
    sum_dx: float,
    sum_dy: float,
) -> Terms:
    # NetLogo Flocking: too close to the nearest → turn away from it; else align and cohere.
    # Each term is the change of velocity its turn makes, per second; the sum is not limited.
    speed = math.sqrt(vx * vx + vy * vy)
    start = math.atan2(vy, vx)
    separated = aligned = cohered = start
    if crowded:
        separated = turn_towards(start, math.atan2(-near_dy, -near_dx), params[s, P_SEPARATE_TURN])
        aligned = cohered = separated
    else:
        if sum_hx != 0.0 or sum_hy != 0.0:
            aligned = turn_towards(start, math.atan2(sum_hy, sum_hx), params[s, P_ALIGN_TURN])
        cohered = aligned
        if sum_dx != 0.0 or sum_dy != 0.0:
            cohered = turn_towards(aligned, math.atan2(sum_dy, sum_dx), params[s, P_COHERE_TURN])
    sx, sy = _turn_change(speed, start, separated, dt)
    alx, aly = _turn_change(speed, separated, aligned, dt)
    cx, cy = _turn_change(speed, aligned, cohered, dt)
    return sx, sy, alx, aly, cx, cy, math.inf


@numba.njit(cache=True, inline="always")
def _turn_change(speed: float, before: float, after: float, dt: float) -> tuple[float, float]:
    """Change of velocity per second when a boid of `speed` turns from `before` to `after`."""
    return (
        speed * (math.cos(after) - math.cos(before)) / dt,
        speed * (math.sin(after) - math.sin(before)) / dt,
    )
