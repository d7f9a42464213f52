"""The steering kernel: separation, alignment and cohesion, per species style.

Phases per boid: gather (sums over the neighbours it flocks with) → combine (by the species'
steering style) → write its acceleration.
"""

import math

import numba

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
    n = slot_vel.shape[0]
    for i in numba.prange(n):
        s = slot_species[i]
        vx = slot_vel[i, 0]
        vy = slot_vel[i, 1]
        sep_radius = params[s, P_SEPARATION]
        square_falloff = params[s, P_FALLOFF] == 2.0
        style = int(params[s, P_STYLE])
        turning = style == STYLE_TURN
        # --- gather -------------------------------------------------------------------
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
        # --- combine ------------------------------------------------------------------
        ax = ay = 0.0
        if count > 0:
            if style == STYLE_REYNOLDS:
                ax, ay = _reynolds(
                    params,
                    s,
                    vx,
                    vy,
                    sep_x,
                    sep_y,
                    sum_vx / count,
                    sum_vy / count,
                    sum_dx / count,
                    sum_dy / count,
                )
            elif style == STYLE_ACCUMULATE:
                ax, ay = _accumulate(
                    params,
                    s,
                    vx,
                    vy,
                    sep_x,
                    sep_y,
                    sum_vx / count,
                    sum_vy / count,
                    sum_dx / count,
                    sum_dy / count,
                )
            else:
                ax, ay = _turn(
                    params,
                    s,
                    vx,
                    vy,
                    dt,
                    nearest < sep_radius,
                    near_dx,
                    near_dy,
                    sum_hx,
                    sum_hy,
                    sum_dx,
                    sum_dy,
                )
        accelerations[slot_row[i], 0] = ax
        accelerations[slot_row[i], 1] = ay


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
) -> tuple[float, float]:
    max_speed = params[s, P_MAX_SPEED]
    max_force = params[s, P_MAX_FORCE]
    sx, sy = _seek(sep_x, sep_y, vx, vy, max_speed, max_force)
    alx, aly = _seek(avg_vx, avg_vy, vx, vy, max_speed, max_force)
    cx, cy = _seek(centre_x, centre_y, vx, vy, max_speed, max_force)
    ax = (
        params[s, P_W_SEPARATION] * sx
        + params[s, P_W_ALIGNMENT] * alx
        + params[s, P_W_COHESION] * cx
    )
    ay = (
        params[s, P_W_SEPARATION] * sy
        + params[s, P_W_ALIGNMENT] * aly
        + params[s, P_W_COHESION] * cy
    )
    return clamp_length(ax, ay, max_force)


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
) -> tuple[float, float]:
    # Weights: separation in 1/s (times max speed), alignment in 1/s, cohesion in 1/s².
    max_speed = params[s, P_MAX_SPEED]
    w_sep = params[s, P_W_SEPARATION] * max_speed
    w_ali = params[s, P_W_ALIGNMENT]
    w_coh = params[s, P_W_COHESION]
    ax = w_sep * sep_x + w_ali * (avg_vx - vx) + w_coh * centre_x
    ay = w_sep * sep_y + w_ali * (avg_vy - vy) + w_coh * centre_y
    return clamp_length(ax, ay, params[s, P_MAX_FORCE])


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
) -> tuple[float, float]:
    # NetLogo Flocking: too close to the nearest → turn away from it; else align and cohere.
    speed = math.sqrt(vx * vx + vy * vy)
    heading = math.atan2(vy, vx)
    if crowded:
        heading = turn_towards(heading, math.atan2(-near_dy, -near_dx), params[s, P_SEPARATE_TURN])
    else:
        if sum_hx != 0.0 or sum_hy != 0.0:
            heading = turn_towards(heading, math.atan2(sum_hy, sum_hx), params[s, P_ALIGN_TURN])
        if sum_dx != 0.0 or sum_dy != 0.0:
            heading = turn_towards(heading, math.atan2(sum_dy, sum_dx), params[s, P_COHERE_TURN])
    return ((speed * math.cos(heading) - vx) / dt, (speed * math.sin(heading) - vy) / dt)
