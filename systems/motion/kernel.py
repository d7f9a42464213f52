"""The motion kernel: walls, turn-rate and speed limits, integration, world boundary.

Phases per boid: add the wall push (contain) → limit the turn → clamp the speed →
integrate → apply the boundary (wrap / bounce / hard containment).
"""

import math

import numba

from shoal.systems.core.config import BOUNDARY_BOUNCE, BOUNDARY_CONTAIN, BOUNDARY_WRAP
from shoal.systems.core.species_table import P_MAX_SPEED, P_MAX_TURN, P_MIN_SPEED
from shoal.systems.core.store import FloatArray, IntArray

# A wall's push grows as (margin / d)² - 1 (zero at the margin, like a virtual boid's
# inverse-square separation); capped so that a boid on the wall gets a finite push.
_MAX_WALL_FACTOR = 50.0
# The walls' strength grows as 1 / margin; capped so that a hair-thin margin cannot overflow
# (an infinite push times a zero distance term would be NaN). Far above any speed limit.
_MAX_WALL_STRENGTH = 1e15


@numba.njit(cache=True)
def _wall_push(distance: float, margin: float) -> float:
    if distance >= margin:
        return 0.0
    ratio = margin / max(distance, 1e-9)
    return min(ratio * ratio - 1.0, _MAX_WALL_FACTOR)


@numba.njit(cache=True, nogil=True)
def move(
    first: int,
    last: int,
    positions: FloatArray,
    velocities: FloatArray,
    accelerations: FloatArray,
    species: IntArray,
    params: FloatArray,
    dt: float,
    boundary: int,
    width: float,
    height: float,
    margin: float,
    wall_weight: float,
) -> None:
    """Advance rows [first, last) by one step of `dt` seconds, in place."""
    for i in range(first, last):
        s = species[i]
        min_speed = params[s, P_MIN_SPEED]
        max_speed = params[s, P_MAX_SPEED]
        x = positions[i, 0]
        y = positions[i, 1]
        vx = velocities[i, 0]
        vy = velocities[i, 1]
        ax = accelerations[i, 0]
        ay = accelerations[i, 1]
        # --- walls: repel like virtual boids, strong enough to turn back within the margin
        if boundary == BOUNDARY_CONTAIN and margin > 0.0:
            strength = min(wall_weight * max_speed * max_speed / margin, _MAX_WALL_STRENGTH)
            ax += strength * (_wall_push(x, margin) - _wall_push(width - x, margin))
            ay += strength * (_wall_push(y, margin) - _wall_push(height - y, margin))
        nvx = vx + ax * dt
        nvy = vy + ay * dt
        # --- turn rate: rotate the old heading by at most max_turn * dt
        max_turn = params[s, P_MAX_TURN] * dt
        old_speed = math.sqrt(vx * vx + vy * vy)
        new_speed = math.sqrt(nvx * nvx + nvy * nvy)
        if old_speed > 0.0 and new_speed > 0.0 and max_turn < math.pi:
            angle = math.atan2(vx * nvy - vy * nvx, vx * nvx + vy * nvy)
            if abs(angle) > max_turn:
                turn = max_turn if angle > 0.0 else -max_turn
                c = math.cos(turn)
                sn = math.sin(turn)
                nvx = (vx * c - vy * sn) / old_speed * new_speed
                nvy = (vx * sn + vy * c) / old_speed * new_speed
        # --- speed: within [min, max]; a stopped boid keeps its old heading (or +x)
        if new_speed > max_speed:
            nvx *= max_speed / new_speed
            nvy *= max_speed / new_speed
        elif new_speed < min_speed:
            if new_speed > 0.0:
                nvx *= min_speed / new_speed
                nvy *= min_speed / new_speed
            elif old_speed > 0.0:
                nvx, nvy = vx / old_speed * min_speed, vy / old_speed * min_speed
            else:
                nvx, nvy = min_speed, 0.0
        x += nvx * dt
        y += nvy * dt
        # --- boundary
        if boundary == BOUNDARY_WRAP:
            x -= width * math.floor(x / width)
            y -= height * math.floor(y / height)
            if x >= width:  # rounding of a tiny negative x
                x = 0.0
            if y >= height:
                y = 0.0
        else:
            if boundary == BOUNDARY_BOUNCE:  # mirror the overshoot back into the box
                if x < 0.0:
                    x, nvx = -x, abs(nvx)
                elif x > width:
                    x, nvx = 2.0 * width - x, -abs(nvx)
                if y < 0.0:
                    y, nvy = -y, abs(nvy)
                elif y > height:
                    y, nvy = 2.0 * height - y, -abs(nvy)
            # Hard guarantee for contain and bounce: inside the box, heading inwards.
            if x <= 0.0:
                x, nvx = 0.0, abs(nvx)
            elif x >= width:
                x, nvx = width, -abs(nvx)
            if y <= 0.0:
                y, nvy = 0.0, abs(nvy)
            elif y >= height:
                y, nvy = height, -abs(nvy)
        positions[i, 0] = x
        positions[i, 1] = y
        velocities[i, 0] = nvx
        velocities[i, 1] = nvy
