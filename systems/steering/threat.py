"""How a boid reacts to a threat: its flight from a predator it senses (out of the
predator's path: the fountain effect), and its alarm, which it passes on to its flockmates
and which makes it flee with them (a flash expansion when its species can burst)."""

import math

import numba

from shoal.systems.core.maths import MAX_PREDICTION, seek
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    P_ALARM_WEIGHT,
    P_BURST_FACTOR,
    P_FLEE_WEIGHT,
    P_MAX_FORCE,
    P_MAX_SPEED,
)
from shoal.systems.core.store import FloatArray

# Alarm passed from boid to boid loses this share per hop and is dropped below the minimum,
# so a scare ripples a few body lengths through a school instead of forever.
ALARM_DECAY = 0.8
ALARM_MINIMUM = 0.1
ALARM_FADE = 0.5
"""Seconds: a boid no longer threatened calms down with this time constant (its alarm
falls below `ALARM_MINIMUM` about 1.2 s after the last threat it sensed)."""
FOUNTAIN = 2.0
"""How strongly a boid in front of a predator flees sideways, out of its path, against
straight away from it (1: at 45° off the path; 2: at about 63°): the school splits round
the predator and closes behind it (the fountain effect)."""


@numba.njit(cache=True, nogil=True)
def flight(
    dx: float,
    dy: float,
    d: float,
    wx: float,
    wy: float,
    vx: float,
    vy: float,
    max_speed: float,
    row: int,
) -> tuple[float, float]:
    """The flight from one predator at offset (dx, dy), moving at (wx, wy): a direction
    whose length grows as 1 / distance. Away from where the predator will be when it could
    reach us and, in front of it, sideways out of its path (`FOUNTAIN`)."""
    w_speed = math.sqrt(wx * wx + wy * wy)
    ahead = min(d / (max_speed + w_speed), MAX_PREDICTION)
    px, py = dx + wx * ahead, dy + wy * ahead
    pd = math.sqrt(px * px + py * py)
    if pd == 0.0:
        if d == 0.0:  # on top of us: any way out
            return -vx, -vy
        px, py, pd = dx, dy, d
    ux, uy = -px / pd, -py / pd  # straight away
    if w_speed > 0.0 and d > 0.0:
        hx, hy = wx / w_speed, wy / w_speed
        front = -(dx * hx + dy * hy) / d  # cos of the angle between its path and us
        if front > 0.0:
            side = dx * hy - dy * hx  # > 0: we are to the left of its path
            if side == 0.0:  # dead ahead: the way we already turn, or by row
                side = vx * hy - vy * hx
                side = side if side != 0.0 else (1.0 if row % 2 else -1.0)
            sign = 1.0 if side > 0.0 else -1.0
            ux += -hy * sign * front * FOUNTAIN
            uy += hx * sign * front * FOUNTAIN
            u = math.sqrt(ux * ux + uy * uy)
            ux, uy = ux / u, uy / u
    return ux / pd, uy / pd


@njit_no_refcount(cache=True, nogil=True)
def fleeing(
    params: FloatArray,
    s: int,
    vx: float,
    vy: float,
    threatened: bool,
    flee_x: float,
    flee_y: float,
    before: float,
    alarm_seen: float,
    alarm_vx: float,
    alarm_vy: float,
    bursting: bool,
    dt: float,
) -> tuple[float, float, float]:
    """Fleeing from a predator it senses (alarm 1), else with the alarmed flockmates whose
    alarm reached it; and its new alarm level (the old one fading, or what reached it)."""
    max_speed = params[s, P_MAX_SPEED]
    max_force = params[s, P_MAX_FORCE]
    if bursting:  # a flash expansion: faster, and with the strength to get there
        max_speed *= params[s, P_BURST_FACTOR]
        max_force *= params[s, P_BURST_FACTOR]
    if threatened:
        fx, fy = seek(flee_x, flee_y, vx, vy, max_speed, max_force)
        return fx * params[s, P_FLEE_WEIGHT], fy * params[s, P_FLEE_WEIGHT], 1.0
    alarm = max(before * math.exp(-dt / ALARM_FADE), alarm_seen * ALARM_DECAY)
    if alarm < ALARM_MINIMUM:
        return 0.0, 0.0, 0.0
    fx, fy = seek(alarm_vx, alarm_vy, vx, vy, max_speed, max_force)
    weight = params[s, P_ALARM_WEIGHT] * alarm
    return fx * weight, fy * weight, alarm
