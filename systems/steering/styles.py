"""How the steering turns a boid's sums over its neighbours into accelerations, on either
path: the separation push of one neighbour or wall (`push`, `walls_push`, `separation`), and
one combine function per steering style (`STEERING_STYLES`; `flocking` picks the `reynolds`
or `accumulate` one), each of which returns separation, alignment and cohesion (x, y pairs,
px/s²) and the limit on their sum."""

import math

import numba

from shoal.systems.core.maths import seek, turn_towards
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    CAP_RULES,
    COMBINE_MEAN,
    FALLOFF_LINEAR,
    FALLOFF_SOFT,
    FALLOFF_SQUARE,
    P_ALIGN_TURN,
    P_COHERE_TURN,
    P_COHESION_PULL,
    P_COMBINE,
    P_FALLOFF,
    P_FORCE_CAP,
    P_MAX_FORCE,
    P_MAX_SPEED,
    P_MAX_TURN,
    P_SEPARATE_TURN,
    P_SEPARATION,
    P_W_ALIGNMENT,
    P_W_COHESION,
    P_W_SEPARATION,
    P_WALLS,
    PULL_STEADY,
    STYLE_REYNOLDS,
    WALLS_NEIGHBOURS,
)
from shoal.systems.core.store import FloatArray

# Separation from a neighbour at distance d grows as (r / d)^p; this caps it so that two boids
# almost on top of each other get a strong but finite push.
MAX_SEPARATION_FACTOR = 1.0e4

FlockTerms = tuple[float, float, float, float, float, float, float]
"""Separation x, y, alignment x, y, cohesion x, y (accelerations), and the limit on the sum."""


@numba.njit(cache=True, nogil=True)
def push(dx: float, dy: float, d: float, radius: float, falloff: int) -> tuple[float, float]:
    """Separation push away from a neighbour at offset (dx, dy), distance 0 < d < radius."""
    if falloff == FALLOFF_LINEAR:
        return -dx / radius, -dy / radius
    ratio = radius / d
    if falloff == FALLOFF_SOFT:
        ratio -= 1.0
    factor = min(ratio * ratio if falloff == FALLOFF_SQUARE else ratio, MAX_SEPARATION_FACTOR)
    return -dx / d * factor, -dy / d * factor


@njit_no_refcount(cache=True, nogil=True)
def sum_limit(params: FloatArray, s: int) -> float:
    """The limit on the weighted sum of the flocking rules of species s (`FORCE_CAPS`)."""
    return math.inf if int(params[s, P_FORCE_CAP]) == CAP_RULES else params[s, P_MAX_FORCE]


@njit_no_refcount(cache=True, nogil=True)
def reynolds(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    aligned: int,
    cohered: int,
    sep_x: float,
    sep_y: float,
    sum_vx: float,
    sum_vy: float,
    sum_dx: float,
    sum_dy: float,
) -> FlockTerms:
    """Reynolds (1999): each rule seeks a desired velocity at max speed, within max force."""
    max_speed = params[s, P_MAX_SPEED]
    max_force = params[s, P_MAX_FORCE]
    w_sep = params[s, P_W_SEPARATION]
    sx, sy = seek(sep_x, sep_y, vx, vy, max_speed, max_force)
    alx = aly = cx = cy = 0.0
    if aligned:
        alx, aly = seek(sum_vx, sum_vy, vx, vy, max_speed, max_force)
    if cohered:
        cx, cy = seek(sum_dx, sum_dy, vx, vy, max_speed, max_force)
    w_ali = params[s, P_W_ALIGNMENT]
    w_coh = params[s, P_W_COHESION]
    limit = sum_limit(params, s)
    return w_sep * sx, w_sep * sy, w_ali * alx, w_ali * aly, w_coh * cx, w_coh * cy, limit


@njit_no_refcount(cache=True, nogil=True)
def accumulate(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    aligned: int,
    cohered: int,
    sep_x: float,
    sep_y: float,
    sum_vx: float,
    sum_vy: float,
    sum_dx: float,
    sum_dy: float,
) -> FlockTerms:
    """The raw rule vectors, weighted: separation in 1/s (times max speed), alignment (match
    the mean velocity) in 1/s, cohesion (to the centre) in 1/s² (a spring) or, with a
    ``steady`` pull, in 1/s (times max speed, along the direction to the centre)."""
    w_sep = params[s, P_W_SEPARATION] * params[s, P_MAX_SPEED]
    alx = aly = cx = cy = 0.0
    if aligned:
        w_ali = params[s, P_W_ALIGNMENT]
        alx, aly = w_ali * (sum_vx / aligned - vx), w_ali * (sum_vy / aligned - vy)
    if cohered:
        w_coh = params[s, P_W_COHESION]
        if int(params[s, P_COHESION_PULL]) == PULL_STEADY:
            reach = math.sqrt(sum_dx * sum_dx + sum_dy * sum_dy)
            if reach > 0.0:
                w_coh *= params[s, P_MAX_SPEED] / reach
            else:
                w_coh = 0.0
            cx, cy = w_coh * sum_dx, w_coh * sum_dy
        else:
            cx, cy = w_coh * sum_dx / cohered, w_coh * sum_dy / cohered
    return w_sep * sep_x, w_sep * sep_y, alx, aly, cx, cy, sum_limit(params, s)


@njit_no_refcount(cache=True, nogil=True)
def turn(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    dt: float,
    crowded: bool,
    away: float,
    sum_hx: float,
    sum_hy: float,
    sum_dx: float,
    sum_dy: float,
) -> FlockTerms:
    """NetLogo's Flocking model (as "boids algorithm 実装方法についての簡単なメモ" ports it):
    too close to the nearest → turn to `away` (its heading + 180°); else turn to the mean
    heading and, from the same start, towards the centre. Each turn is capped per rule
    (degrees per second); each term is the change of velocity its turn makes, per second;
    the sum is not limited."""
    speed = math.sqrt(vx * vx + vy * vy)
    start = math.atan2(vy, vx)
    separated = aligned = cohered = start
    if crowded:
        separated = turn_towards(start, away, params[s, P_SEPARATE_TURN] * dt)
        aligned = cohered = separated
    else:
        if sum_hx != 0.0 or sum_hy != 0.0:
            aligned = turn_towards(start, math.atan2(sum_hy, sum_hx), params[s, P_ALIGN_TURN] * dt)
        cohered = aligned
        if sum_dx != 0.0 or sum_dy != 0.0:
            step = turn_towards(start, math.atan2(sum_dy, sum_dx), params[s, P_COHERE_TURN] * dt)
            cohered = aligned + (step - start)
    sx, sy = turn_change(speed, start, separated, dt)
    alx, aly = turn_change(speed, separated, aligned, dt)
    cx, cy = turn_change(speed, aligned, cohered, dt)
    return sx, sy, alx, aly, cx, cy, math.inf


@njit_no_refcount(cache=True, nogil=True)
def zones(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    dt: float,
    repelled: int,
    rep_x: float,
    rep_y: float,
    oriented: int,
    sum_hx: float,
    sum_hy: float,
    attracted: int,
    att_x: float,
    att_y: float,
) -> FlockTerms:
    """Couzin et al. (2002): away from the neighbours in the zone of repulsion if any; else
    along the sum of the unit headings of those in the zone of orientation and the unit
    offsets to those beyond it (zone of attraction), turning at most max_turn_rate."""
    speed = math.sqrt(vx * vx + vy * vy)
    if speed == 0.0 or dt == 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, math.inf
    start = math.atan2(vy, vx)
    limit = params[s, P_MAX_TURN] * dt
    if repelled:
        sx, sy = turn_change(speed, start, turn_towards(start, math.atan2(rep_y, rep_x), limit), dt)
        return sx, sy, 0.0, 0.0, 0.0, 0.0, math.inf
    # The sums of unit vectors, not their means: the zone with more boids in it weighs more.
    wx, wy = sum_hx + att_x, sum_hy + att_y
    if wx == 0.0 and wy == 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, math.inf
    cx, cy = turn_change(speed, start, turn_towards(start, math.atan2(wy, wx), limit), dt)
    # Shown as alignment and cohesion, in the shares the two zones had in the choice.
    share = oriented / (oriented + attracted)
    return 0.0, 0.0, cx * share, cy * share, cx * (1.0 - share), cy * (1.0 - share), math.inf


@numba.njit(cache=True, nogil=True)
def turn_change(speed: float, before: float, after: float, dt: float) -> tuple[float, float]:
    """Change of velocity per second when a boid of `speed` turns from `before` to `after`."""
    if dt == 0.0:  # a paused step: no turn
        return 0.0, 0.0
    return (
        speed * (math.cos(after) - math.cos(before)) / dt,
        speed * (math.sin(after) - math.sin(before)) / dt,
    )


@njit_no_refcount(cache=True, nogil=True)
def separation(
    params: FloatArray,
    s: int,
    at: tuple[float, float],
    world: tuple[float, float, bool],
    separated: int,
    sep_x: float,
    sep_y: float,
) -> tuple[float, float]:
    """The separation sum of a boid at `at` (from the world's lower-left corner; `world`:
    width, height, wraps) with the walls' pushes added (where they count as neighbours),
    as a mean where the species averages its separation."""
    if int(params[s, P_WALLS]) == WALLS_NEIGHBOURS and not world[2]:
        px, py, walls = walls_push(
            at, world[0], world[1], params[s, P_SEPARATION], int(params[s, P_FALLOFF])
        )
        sep_x += px
        sep_y += py
        separated += walls
    if int(params[s, P_COMBINE]) == COMBINE_MEAN and separated > 0:
        return sep_x / separated, sep_y / separated
    return sep_x, sep_y


@njit_no_refcount(cache=True, nogil=True)
def flocking(
    params: FloatArray,
    s: int,
    style: int,
    vx: float,
    vy: float,
    aligned: int,
    count: int,
    sep_x: float,
    sep_y: float,
    sum_vx: float,
    sum_vy: float,
    sum_dx: float,
    sum_dy: float,
) -> FlockTerms:
    """The flocking terms of the `reynolds` or `accumulate` style."""
    if style == STYLE_REYNOLDS:
        return reynolds(
            params, s, vx, vy, aligned, count, sep_x, sep_y, sum_vx, sum_vy, sum_dx, sum_dy
        )
    return accumulate(
        params, s, vx, vy, aligned, count, sep_x, sep_y, sum_vx, sum_vy, sum_dx, sum_dy
    )


@numba.njit(cache=True, nogil=True)
def walls_push(
    at: tuple[float, float], width: float, height: float, radius: float, falloff: int
) -> tuple[float, float, int]:
    """The pushes of the walls nearer than `radius` to a boid at `at` (from the world's
    lower-left corner), each a virtual boid at the foot of the perpendicular (as Narita's
    Unity post on Boids has its walls), and how many there are."""
    x, y = at
    px = py = 0.0
    count = 0
    # Each wall by its inward normal (nx, ny) and the boid's distance to it.
    for nx, ny, d in ((1.0, 0.0, x), (-1.0, 0.0, width - x), (0.0, 1.0, y),
                      (0.0, -1.0, height - y)):  # fmt: skip
        if d >= radius:
            continue
        count += 1
        if d > 0.0:
            fx, fy = push(-nx * d, -ny * d, d, radius, falloff)
        elif falloff != FALLOFF_LINEAR:  # on the wall: straight back in, hard
            fx, fy = nx * MAX_SEPARATION_FACTOR, ny * MAX_SEPARATION_FACTOR
        else:
            fx = fy = 0.0
        px += fx
        py += fy
    return px, py, count
