"""One boid's step of motion: walls, cruise speed, turn and speed limits, noise, integration,
world boundary.

The motion stage runs this for every boid; the steering stage runs it too, boid by boid, when
a flock updates in place (`FlockConfig.update` = ``"sequential"``), so that each boid sees the
boids before it where they have moved to. One function, so the two can never disagree.

Phases: add the wall push (contain) and the pull to the cruise speed → limit the turn → add
the heading noise → clamp the speed (higher in a burst, gliding back down after one) →
integrate → apply the boundary (wrap / bounce / hard containment).
"""

import math

import numba
import numpy as np

from shoal.systems.core.config import BOUNDARY_BOUNCE, BOUNDARY_CONTAIN, BOUNDARY_WRAP
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    ACCELERATION_KEPT,
    P_ACCELERATION,
    P_BURST_FACTOR,
    P_CRUISE_RATE,
    P_CRUISE_SPEED,
    P_HEADING_NOISE,
    P_MAX_SPEED,
    P_MAX_TURN,
    P_MIN_SPEED,
    P_WALLS,
    WALLS_PUSH,
    WALLS_TURN,
    any_positive,
)
from shoal.systems.core.store import FloatArray, IntArray

# A wall's push grows as (margin / d)² - 1 (zero at the margin, like a virtual boid's
# inverse-square separation); capped so that a boid on the wall gets a finite push.
_MAX_WALL_FACTOR = 50.0
# The walls' strength grows as 1 / margin; capped so that a hair-thin margin cannot overflow
# (an infinite push times a zero distance term would be NaN). Far above any speed limit.
_MAX_WALL_STRENGTH = 1e15
GLIDE = 0.25
"""Seconds: after a burst, a boid faster than its max speed slows down to it with this time
constant (water drag), instead of stopping short in one step."""

Motion = tuple[float, float, float, float]
"""x, y, vx, vy after the step."""
Walls = tuple[int, float, float, float, float]
"""The world as a boid's motion meets it: its boundary (an index of `BOUNDARY_MODES`),
width and height, and the walls' margin and weight (a contain world's push)."""


def draw_noise(
    rng: np.random.Generator, species: IntArray, params: FloatArray, dt: float
) -> FloatArray:
    """Each boid's random turn for a step of `dt` s (radians: heading_noise × √dt × a normal
    draw); an empty array when no species has heading noise (nothing is drawn)."""
    if not any_positive(params, P_HEADING_NOISE):
        return np.zeros(0)
    sigma = params[species, P_HEADING_NOISE]
    if not np.any(sigma > 0.0):  # only species with no boids have noise
        return np.zeros(0)
    noise: FloatArray = rng.standard_normal(len(species)) * sigma * math.sqrt(dt)
    return noise


@njit_no_refcount(cache=True, nogil=True)
def moving_acceleration(
    s: int, params: FloatArray, accelerations: FloatArray, kept: FloatArray, row: int
) -> tuple[float, float]:
    """The acceleration row `row` (species s) moves under this step: what the stages added
    up, plus what it kept from the steps before where its species keeps it
    (`ACCELERATIONS`)."""
    ax, ay = accelerations[row, 0], accelerations[row, 1]
    if int(params[s, P_ACCELERATION]) == ACCELERATION_KEPT:
        ax += kept[row, 0]
        ay += kept[row, 1]
    return ax, ay


@numba.njit(cache=True, nogil=True)
def _wall_push(distance: float, margin: float, style: int) -> float:
    if distance >= margin:
        return 0.0
    if style == WALLS_TURN:
        return 1.0
    ratio = margin / max(distance, 1e-9)
    return min(ratio * ratio - 1.0, _MAX_WALL_FACTOR)


@numba.njit(cache=True, nogil=True)
def wall_acceleration(
    x: float, y: float, max_speed: float, style: int, width: float, height: float,
    margin: float, wall_weight: float,
) -> tuple[float, float]:  # fmt: skip
    """The walls' push on a boid at (x, y) in a contain world (see `WALL_STYLES`)."""
    if margin <= 0.0 or (style != WALLS_PUSH and style != WALLS_TURN):
        return 0.0, 0.0
    strength = min(wall_weight * max_speed * max_speed / margin, _MAX_WALL_STRENGTH)
    ax = strength * (_wall_push(x, margin, style) - _wall_push(width - x, margin, style))
    ay = strength * (_wall_push(y, margin, style) - _wall_push(height - y, margin, style))
    return ax, ay


@numba.njit(cache=True, nogil=True)
def _cruise(vx: float, vy: float, cruise: float, rate: float, dt: float) -> tuple[float, float]:
    """The acceleration along the heading that closes the gap to the cruise speed at `rate`
    per second (exactly, whatever dt: an exponential approach, never an overshoot)."""
    speed = math.sqrt(vx * vx + vy * vy)
    if cruise <= 0.0 or speed == 0.0 or dt == 0.0:
        return 0.0, 0.0
    change = (cruise - speed) * -math.expm1(-rate * dt) / dt
    return vx / speed * change, vy / speed * change


# Below this speed (px/s) a velocity is scaled by _TINY_SCALE before it is brought up to
# min_speed (at most LARGEST): 1e6 / (5e-324 · 2**600) is still finite.
_TINY_SPEED = 1e-150
_TINY_SCALE = 2.0**600


@njit_no_refcount(cache=True, nogil=True)
def speed_limit(s: int, params: FloatArray, old_speed: float, burst: float, dt: float) -> float:
    """The highest speed a boid may have after this step: max speed × burst factor in a burst
    (`burst` > 0), gliding down from above max speed after one (`burst` < 0)."""
    max_speed = float(params[s, P_MAX_SPEED])
    if burst > 0.0:
        return max_speed * float(params[s, P_BURST_FACTOR])
    if burst < 0.0 and old_speed > max_speed:
        return max_speed + (old_speed - max_speed) * math.exp(-dt / GLIDE)
    return max_speed


@numba.njit(cache=True, nogil=True)
def length(x: float, y: float) -> float:
    """The length of (x, y): sqrt(x² + y²), or `math.hypot` (slower) where the squares lose
    precision (a host's 1e-160 px/s velocity set from them missed min_speed by 2e-4) or
    overflow."""
    square = x * x + y * y
    if 1e-290 < square < 1e290:
        return math.sqrt(square)
    return math.hypot(x, y)


@njit_no_refcount(cache=True, nogil=True)
def advance(
    x: float,
    y: float,
    vx: float,
    vy: float,
    ax: float,
    ay: float,
    s: int,
    params: FloatArray,
    dt: float,
    burst: float,
    noise: float,
    *walls: *Walls,
) -> Motion:
    """One boid's motion over `dt` seconds under acceleration (ax, ay) (see module docstring).

    `burst`: the boid's burst state (> 0: seconds of burst left; < 0: spent; 0: none).
    `noise`: the random turn of this step, in radians (already scaled by √dt).
    `walls`: the world (`Walls`), as a record (``*walls``) or its five numbers.
    """
    boundary, width, height, margin, wall_weight = walls
    min_speed = params[s, P_MIN_SPEED]
    max_speed = params[s, P_MAX_SPEED]
    # --- walls and cruise speed
    if boundary == BOUNDARY_CONTAIN:
        wx, wy = wall_acceleration(
            x, y, max_speed, int(params[s, P_WALLS]), width, height, margin, wall_weight
        )
        ax += wx
        ay += wy
    cx, cy = _cruise(vx, vy, params[s, P_CRUISE_SPEED], params[s, P_CRUISE_RATE], dt)
    nvx = vx + (ax + cx) * dt
    nvy = vy + (ay + cy) * dt
    old_speed = length(vx, vy)
    new_speed = length(nvx, nvy)
    # --- turn rate: rotate the old heading by at most max_turn * dt
    max_turn = params[s, P_MAX_TURN] * dt
    if old_speed > 0.0 and new_speed > 0.0 and max_turn < math.pi:
        # The turn exceeds the limit where the cosine of the angle between the headings is
        # below the limit's (the angle itself, an atan2, costs twice a cosine).
        c = math.cos(max_turn)
        if vx * nvx + vy * nvy < c * old_speed * new_speed:
            cross = vx * nvy - vy * nvx  # the side it turns to (an about-turn: as atan2)
            sn = math.sin(max_turn) if math.copysign(1.0, cross) > 0.0 else -math.sin(max_turn)
            nvx = (vx * c - vy * sn) / old_speed * new_speed
            nvy = (vx * sn + vy * c) / old_speed * new_speed
    # --- noise: the heading turned by a random angle, after the turn limit. The limit bounds
    # the turns the rules ask for (max_turn × dt); the noise is a diffusion on top (its angle
    # grows as √dt). Clipped by the limit, as it was, it lost more of its spread the smaller
    # the step (at 1/120 s a 0.8 rad/√s noise is 0.073 rad a step against a 300°/s limit's
    # 0.044): a noisy mill (0.8 rad/√s) circled at 150 px at 1/120 s, at 100 px at 1/30 s.
    if noise != 0.0 and new_speed > 0.0:
        c, sn = math.cos(noise), math.sin(noise)
        nvx, nvy = nvx * c - nvy * sn, nvx * sn + nvy * c
    # --- speed: within [min, limit]; a stopped boid keeps its old heading (or +x)
    new_speed = length(nvx, nvy)  # as noise and the turn left it (rounding included)
    top = speed_limit(s, params, old_speed, burst, dt)
    if new_speed > top:
        nvx *= top / new_speed
        nvy *= top / new_speed
    elif new_speed < min_speed:
        if new_speed > 0.0:
            if new_speed < _TINY_SPEED:
                # min_speed / new_speed overflows to inf for a subnormal speed (a boid that
                # stopped dead in a corner went to ±inf px/s): scale the velocity up by a
                # power of two first, which keeps its heading exactly.
                nvx, nvy = nvx * _TINY_SCALE, nvy * _TINY_SCALE
                new_speed = math.hypot(nvx, nvy)
            nvx *= min_speed / new_speed
            nvy *= min_speed / new_speed
        elif old_speed > 0.0:
            nvx, nvy = vx / old_speed * min_speed, vy / old_speed * min_speed
        else:
            nvx, nvy = min_speed, 0.0
    x += nvx * dt
    y += nvy * dt
    return bounded(x, y, nvx, nvy, boundary, width, height)


@numba.njit(cache=True, nogil=True)
def bounded(
    x: float, y: float, vx: float, vy: float, boundary: int, width: float, height: float
) -> Motion:
    """The position wrapped round a torus, or kept in the box heading inwards (a boid on a
    wall of a contain or bounce world cannot head out of it)."""
    if boundary == BOUNDARY_WRAP:
        x -= width * np.floor(x / width)
        y -= height * np.floor(y / height)
        if x >= width:  # rounding of a tiny negative x
            x = 0.0
        if y >= height:
            y = 0.0
        return x, y, vx, vy
    if boundary == BOUNDARY_BOUNCE:  # mirror the overshoot back into the box
        if x < 0.0:
            x, vx = -x, abs(vx)
        elif x > width:
            x, vx = 2.0 * width - x, -abs(vx)
        if y < 0.0:
            y, vy = -y, abs(vy)
        elif y > height:
            y, vy = 2.0 * height - y, -abs(vy)
    # Hard guarantee for contain and bounce: inside the box, heading inwards.
    if x <= 0.0:
        x, vx = 0.0, abs(vx)
    elif x >= width:
        x, vx = width, -abs(vx)
    if y <= 0.0:
        y, vy = 0.0, abs(vy)
    elif y >= height:
        y, vy = height, -abs(vy)
    return x, y, vx, vy
