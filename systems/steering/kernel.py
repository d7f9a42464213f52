"""The steering kernel: how each boid reacts to the boids it sees.

Flockmates give separation, alignment and cohesion (per species style); avoided species
add to separation out to the perception radius; predators it flees give evasion (with
prediction) and raise its alarm, which spreads to flockmates; prey it chases give pursuit
(with prediction) and a catch target.

Phases per boid: look (`shoal.systems.core.vision.seen`: the neighbours it sees, in cell
order) → gather (sums over them, by relation) → combine (by steering style) → write its
acceleration, alarm and target. Seeing and reacting are fused: no neighbour list is stored.
"""

import math

import numba
import numpy as np

from shoal.systems.core.maths import MAX_PREDICTION, clamp_length, seek, turn_towards
from shoal.systems.core.species_table import (
    P_ALARM_WEIGHT,
    P_ALIGN_TURN,
    P_CHASE_WEIGHT,
    P_COHERE_TURN,
    P_FALLOFF,
    P_FEAR_RADIUS,
    P_FLEE_WEIGHT,
    P_MAX_FORCE,
    P_MAX_NEIGHBOURS,
    P_MAX_SPEED,
    P_PERCEPTION,
    P_SEPARATE_TURN,
    P_SEPARATION,
    P_STYLE,
    P_W_ALIGNMENT,
    P_W_COHESION,
    P_W_SEPARATION,
    RELATION_AVOID,
    RELATION_CHASE,
    RELATION_FLEE,
    RELATION_FLOCK,
    STYLE_ACCUMULATE,
    STYLE_REYNOLDS,
)
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.core.vision import Cells, Seen, buffers, seen

# Separation from a neighbour at distance d grows as (r / d)^p; this caps it so that two boids
# almost on top of each other get a strong but finite push.
_MAX_SEPARATION_FACTOR = 1.0e4
_GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))
# Alarm passed from boid to boid loses this share per hop and is dropped below the minimum,
# so a scare ripples a few body lengths through a school instead of forever.
ALARM_DECAY = 0.8
ALARM_MINIMUM = 0.1


RULES = ("separation", "alignment", "cohesion", "flee", "chase")
"""The rows of `rule_forces`, in order."""

# (separation, alignment, cohesion, flee, chase) as x, y pairs, the limit on the sum of the
# first three, the boid's new alarm level and the slot of the prey it chases (-1: none).
Terms = tuple[
    float, float, float, float, float, float, float, float, float, float, float, float, int
]


@numba.njit(cache=True, nogil=True, error_model="numpy")
def steer(
    first: int,
    last: int,
    cells: Cells,
    cooldown: FloatArray,
    params: FloatArray,
    relations: IntArray,
    dt: float,
    accelerations: FloatArray,
    alarm: FloatArray,
    target_row: IntArray,
    goals: FloatArray,
) -> None:
    """Write the acceleration, alarm and chase target of slots [first, last) (store rows).

    Each boid looks at its neighbours once (`seen`, in cell order: nearby memory) and reacts
    to them at once: the lists are never stored. `cells.alarm` holds the alarm levels of the
    previous step, `cooldown` (row order) the seconds until each boid may catch again.
    `goals` gets the flee (from a predator it sees) and chase terms, for navigation.
    """
    out = buffers(max(1, int(params[:, P_MAX_NEIGHBOURS].max())))
    for i in range(first, last):
        t = _rule_terms(i, cells, cooldown, params, relations, dt, out)
        ax, ay = clamp_length(t[0] + t[2] + t[4], t[1] + t[3] + t[5], t[10])
        row = cells.row[i]
        accelerations[row, 0] = ax + t[6] + t[8]
        accelerations[row, 1] = ay + t[7] + t[9]
        alarm[row] = t[11]
        target_row[row] = cells.row[t[12]] if t[12] >= 0 else -1
        fled = t[11] == 1.0  # alarm 1: it flees a predator it sees, not a scared neighbour
        goals[row, 0], goals[row, 1] = (t[6], t[7]) if fled else (0.0, 0.0)
        goals[row, 2], goals[row, 3] = t[8], t[9]


@numba.njit(cache=True, nogil=True, error_model="numpy")
def rule_forces(
    slot: int,
    cells: Cells,
    cooldown: FloatArray,
    params: FloatArray,
    relations: IntArray,
    dt: float,
) -> FloatArray:
    """One boid's terms as the rows of a (5, 2) array, in the order of `RULES`.

    `steer` applies: clamp(separation + alignment + cohesion, max force) + flee + chase.
    This runs the very same code (for debugging and the overlay).
    """
    out = buffers(max(1, int(params[:, P_MAX_NEIGHBOURS].max())))
    t = _rule_terms(slot, cells, cooldown, params, relations, dt, out)
    terms = np.empty((5, 2))
    terms[0, 0], terms[0, 1] = t[0], t[1]
    terms[1, 0], terms[1, 1] = t[2], t[3]
    terms[2, 0], terms[2, 1] = t[4], t[5]
    terms[3, 0], terms[3, 1] = t[6], t[7]
    terms[4, 0], terms[4, 1] = t[8], t[9]
    return terms


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _rule_terms(
    i: int,
    cells: Cells,
    cooldown: FloatArray,
    params: FloatArray,
    relations: IntArray,
    dt: float,
    out: Seen,
) -> Terms:
    """Slot i's terms (see `Terms`), from the neighbours it sees (written into `out`)."""
    slot_vel, slot_species, slot_row, slot_alarm = (
        cells.velocities, cells.species, cells.row, cells.alarm,
    )  # fmt: skip
    seen_count = seen(i, cells, params, relations, out)
    s = slot_species[i]
    vx = slot_vel[i, 0]
    vy = slot_vel[i, 1]
    sep_radius = params[s, P_SEPARATION]
    perception = params[s, P_PERCEPTION]
    fear = params[s, P_FEAR_RADIUS]
    max_speed = params[s, P_MAX_SPEED]
    max_force = params[s, P_MAX_FORCE]
    square_falloff = params[s, P_FALLOFF] == 2.0
    style = int(params[s, P_STYLE])
    # --- gather: sums over its neighbours, by relation -----------------------------------
    count = 0
    sum_vx = sum_vy = 0.0  # flockmates' velocities
    sum_hx = sum_hy = 0.0  # flockmates' unit headings (turn style)
    sum_dx = sum_dy = 0.0  # offsets to flockmates: their centre, relative to i
    sep_x = sep_y = 0.0
    # Turn style: the nearest flockmate inside the separation radius, or avoided boid.
    nearest = math.inf
    near_dx = near_dy = 0.0
    alarm_vx = alarm_vy = 0.0  # alarmed flockmates' velocities, weighted by their alarm
    alarm_seen = 0.0
    threatened = False
    flee_x = flee_y = 0.0
    prey = -1
    prey_dist = math.inf
    prey_x = prey_y = 0.0
    for q in range(seen_count):
        j = out.slot[q]
        relation = relations[s, slot_species[j]]
        dx = out.dx[q]
        dy = out.dy[q]
        d = out.dist[q]
        wx = slot_vel[j, 0]
        wy = slot_vel[j, 1]
        if relation == RELATION_FLOCK:
            count += 1
            sum_vx += wx
            sum_vy += wy
            w_speed = math.sqrt(wx * wx + wy * wy)
            if w_speed > 0.0:
                sum_hx += wx / w_speed
                sum_hy += wy / w_speed
            sum_dx += dx
            sum_dy += dy
            if slot_alarm[j] > 0.0:
                alarm_vx += wx * slot_alarm[j]
                alarm_vy += wy * slot_alarm[j]
                alarm_seen = max(alarm_seen, slot_alarm[j])
            if d < sep_radius:
                px, py = _push(i, j, slot_row, dx, dy, d, sep_radius, square_falloff)
                sep_x += px
                sep_y += py
                if d < nearest:
                    nearest, near_dx, near_dy = d, dx, dy
        elif relation == RELATION_AVOID:
            px, py = _push(i, j, slot_row, dx, dy, d, perception, square_falloff)
            sep_x += px
            sep_y += py
            if d < nearest:
                nearest, near_dx, near_dy = d, dx, dy
        elif relation == RELATION_FLEE and d < fear:
            threatened = True
            # Evade: flee where the predator will be when it could reach us.
            ahead = min(d / (max_speed + math.sqrt(wx * wx + wy * wy)), MAX_PREDICTION)
            px = dx + wx * ahead
            py = dy + wy * ahead
            pd = math.sqrt(px * px + py * py)
            if pd > 0.0:
                flee_x -= px / pd * fear / pd
                flee_y -= py / pd * fear / pd
            elif d > 0.0:
                flee_x -= dx / d
                flee_y -= dy / d
        elif relation == RELATION_CHASE and d < prey_dist:
            # Pursue: head for where the prey will be when we could reach it (looking at
            # most MAX_PREDICTION s ahead: a fast prey far off would send it off the map).
            ahead = min(d / max_speed, MAX_PREDICTION)
            prey, prey_dist = j, d
            prey_x = dx + wx * ahead
            prey_y = dy + wy * ahead
    # --- combine ------------------------------------------------------------------------
    if style == STYLE_REYNOLDS:
        sx, sy, alx, aly, cx, cy, limit = _reynolds(
            params, s, vx, vy, count, sep_x, sep_y, sum_vx, sum_vy, sum_dx, sum_dy
        )
    elif style == STYLE_ACCUMULATE:
        sx, sy, alx, aly, cx, cy, limit = _accumulate(
            params, s, vx, vy, count, sep_x, sep_y, sum_vx, sum_vy, sum_dx, sum_dy
        )
    else:
        sx, sy, alx, aly, cx, cy, limit = _turn(
            params,
            s,
            vx,
            vy,
            dt,
            nearest < math.inf,
            near_dx,
            near_dy,
            sum_hx,
            sum_hy,
            sum_dx,
            sum_dy,
        )
    # Fleeing: from a predator it sees (alarm 1), else with alarmed flockmates.
    fx = fy = 0.0
    alarm = 0.0
    if threatened:
        alarm = 1.0
        fx, fy = seek(flee_x, flee_y, vx, vy, max_speed, max_force)
        fx *= params[s, P_FLEE_WEIGHT]
        fy *= params[s, P_FLEE_WEIGHT]
    elif alarm_seen * ALARM_DECAY >= ALARM_MINIMUM:
        alarm = alarm_seen * ALARM_DECAY
        fx, fy = seek(alarm_vx, alarm_vy, vx, vy, max_speed, max_force)
        fx *= params[s, P_ALARM_WEIGHT] * alarm
        fy *= params[s, P_ALARM_WEIGHT] * alarm
    # Chasing: only when rested.
    hx = hy = 0.0
    if prey >= 0 and cooldown[slot_row[i]] <= 0.0:
        hx, hy = seek(prey_x, prey_y, vx, vy, max_speed, max_force)
        hx *= params[s, P_CHASE_WEIGHT]
        hy *= params[s, P_CHASE_WEIGHT]
    else:
        prey = -1
    return sx, sy, alx, aly, cx, cy, fx, fy, hx, hy, limit, alarm, prey


@numba.njit(cache=True)
def _push(
    i: int,
    j: int,
    slot_row: IntArray,
    dx: float,
    dy: float,
    d: float,
    radius: float,
    square_falloff: bool,
) -> tuple[float, float]:
    """Separation push away from a neighbour at offset (dx, dy), distance d < radius."""
    if d > 0.0:
        ratio = radius / d
        factor = min(ratio * ratio if square_falloff else ratio, _MAX_SEPARATION_FACTOR)
        return -dx / d * factor, -dy / d * factor
    # Same spot: part in a direction fixed by the pair (by row), opposite for each.
    a, b = slot_row[i], slot_row[j]
    angle = _GOLDEN_ANGLE * (min(a, b) + max(a, b)) + (math.pi if a > b else 0.0)
    return math.cos(angle) * _MAX_SEPARATION_FACTOR, math.sin(angle) * _MAX_SEPARATION_FACTOR


FlockTerms = tuple[float, float, float, float, float, float, float]
"""Separation x, y, alignment x, y, cohesion x, y (accelerations), and the limit on the sum."""


@numba.njit(cache=True)
def _reynolds(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    count: int,
    sep_x: float,
    sep_y: float,
    sum_vx: float,
    sum_vy: float,
    sum_dx: float,
    sum_dy: float,
) -> FlockTerms:
    max_speed = params[s, P_MAX_SPEED]
    max_force = params[s, P_MAX_FORCE]
    w_sep = params[s, P_W_SEPARATION]
    sx, sy = seek(sep_x, sep_y, vx, vy, max_speed, max_force)
    if count == 0:
        return w_sep * sx, w_sep * sy, 0.0, 0.0, 0.0, 0.0, max_force
    w_ali = params[s, P_W_ALIGNMENT]
    w_coh = params[s, P_W_COHESION]
    alx, aly = seek(sum_vx, sum_vy, vx, vy, max_speed, max_force)
    cx, cy = seek(sum_dx, sum_dy, vx, vy, max_speed, max_force)
    return w_sep * sx, w_sep * sy, w_ali * alx, w_ali * aly, w_coh * cx, w_coh * cy, max_force


@numba.njit(cache=True)
def _accumulate(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    count: int,
    sep_x: float,
    sep_y: float,
    sum_vx: float,
    sum_vy: float,
    sum_dx: float,
    sum_dy: float,
) -> FlockTerms:
    # Weights: separation in 1/s (times max speed), alignment in 1/s, cohesion in 1/s².
    w_sep = params[s, P_W_SEPARATION] * params[s, P_MAX_SPEED]
    max_force = params[s, P_MAX_FORCE]
    if count == 0:
        return w_sep * sep_x, w_sep * sep_y, 0.0, 0.0, 0.0, 0.0, max_force
    w_ali = params[s, P_W_ALIGNMENT]
    w_coh = params[s, P_W_COHESION]
    return (
        w_sep * sep_x, w_sep * sep_y,
        w_ali * (sum_vx / count - vx), w_ali * (sum_vy / count - vy),
        w_coh * sum_dx / count, w_coh * sum_dy / count, max_force,
    )  # fmt: skip


@numba.njit(cache=True)
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
) -> FlockTerms:
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


@numba.njit(cache=True)
def _turn_change(speed: float, before: float, after: float, dt: float) -> tuple[float, float]:
    """Change of velocity per second when a boid of `speed` turns from `before` to `after`."""
    if dt == 0.0:  # a paused step: no turn
        return 0.0, 0.0
    return (
        speed * (math.cos(after) - math.cos(before)) / dt,
        speed * (math.sin(after) - math.sin(before)) / dt,
    )
