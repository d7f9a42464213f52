"""Small steering formulas shared by the kernels (numba, inlined where they are called)."""

import math

import numba

MAX_PREDICTION = 1.0
"""Seconds ahead that pursuit and evasion predict another boid's position, at most."""


@numba.njit(cache=True, inline="always")
def clamp_length(x: float, y: float, limit: float) -> tuple[float, float]:
    """(x, y) scaled down to at most `limit` long."""
    length = math.sqrt(x * x + y * y)
    if length > limit:
        return x * limit / length, y * limit / length
    return x, y


@numba.njit(cache=True, inline="always")
def seek(
    tx: float, ty: float, vx: float, vy: float, max_speed: float, max_force: float
) -> tuple[float, float]:
    """Reynolds seek towards direction (tx, ty): max-speed desired velocity minus current."""
    length = math.sqrt(tx * tx + ty * ty)
    if length == 0.0:
        return 0.0, 0.0
    return clamp_length(tx / length * max_speed - vx, ty / length * max_speed - vy, max_force)


@numba.njit(cache=True, inline="always")
def arrive(
    tx: float,
    ty: float,
    vx: float,
    vy: float,
    max_speed: float,
    max_force: float,
    slowing: float,
) -> tuple[float, float]:
    """Reynolds arrival at offset (tx, ty): like seek, slowing down inside `slowing` px."""
    length = math.sqrt(tx * tx + ty * ty)
    if length == 0.0:
        return clamp_length(-vx, -vy, max_force)
    speed = max_speed * min(1.0, length / slowing) if slowing > 0.0 else max_speed
    return clamp_length(tx / length * speed - vx, ty / length * speed - vy, max_force)


@numba.njit(cache=True, inline="always")
def turn_towards(heading: float, target: float, limit: float) -> float:
    """`heading` turned towards `target` (radians) by at most `limit`."""
    delta = (target - heading + math.pi) % (2.0 * math.pi) - math.pi
    return heading + max(-limit, min(limit, delta))
