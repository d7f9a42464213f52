"""How natural a flock's motion looks: speeds held at a limit, turn reversals, sprite overlap.

Pure numpy on recorded arrays, like the other measures. A calm school of real fish spreads its
speeds, each fish turns one way for a while before it turns back (about once a second or
less), and neighbours do not swim through each other; a boids model that clamps every fish to
a speed limit, jitters its heading from step to step, or packs fish closer than their bodies
looks mechanical. benchmarks/natural.py and tests/test_natural.py use these.
"""

import numpy as np
import numpy.typing as npt

from shoal.components import arguments as check
from shoal.systems.core.store import FloatArray
from shoal.systems.metrics.points import LARGEST, as_points

TURNING = 0.1
"""rad/s: a fish that turns slower than this swims straight (its turn has no side)."""

_CHUNK = 1024  # rows of the distance matrix at a time: 1024 × n floats


def share_at_limit(
    velocities: npt.ArrayLike, min_speed: float, max_speed: float, tolerance: float = 0.01
) -> float:
    """The share of boids whose speed is within `tolerance` (relative) of a speed limit.

    Args:
        velocities: (n, 2) velocities.
        min_speed: the species' lowest speed.
        max_speed: the species' highest speed.
        tolerance: how near a limit counts as at it, as a share of the limit.

    Returns:
        A value in [0, 1] (0.0 for no boids).
    """
    vel = as_points("share_at_limit", "velocities", velocities)
    low_limit = check.number("share_at_limit", "min_speed", min_speed, low=0.0)
    check.number("share_at_limit", "max_speed", max_speed, low=low_limit)
    check.number("share_at_limit", "tolerance", tolerance, low=0.0, high=1.0)
    if len(vel) == 0:
        return 0.0
    speed = np.hypot(vel[:, 0], vel[:, 1])
    low = speed <= min_speed * (1.0 + tolerance)
    high = speed >= max_speed * (1.0 - tolerance)
    return float(np.mean(low | high))


def turn_reversals(headings: npt.ArrayLike, dt: float, turning: float = TURNING) -> float:
    """How often a boid's turn changes side (left to right or back), per boid per second.

    Args:
        headings: (steps, n) headings in radians, one row per step of `dt` seconds, the same
            boids in the same columns.
        dt: seconds between rows.
        turning: turns slower than this (rad/s) count as swimming straight; a reversal is a
            turn to one side after the last turn to the other, straight stretches between
            them left out.

    Returns:
        Reversals per boid per second (0.0 with fewer than two rows or no boids).
    """
    check.number("turn_reversals", "dt", dt, low=0.0, above=True)
    check.number("turn_reversals", "turning", turning, low=0.0)
    try:
        angles = np.asarray(headings, dtype=np.float64)
    except (TypeError, ValueError):
        check.fail("turn_reversals", "headings", headings, "must be a (steps, n) array of numbers")
    if angles.ndim != 2 and angles.size:
        check.fail(
            "turn_reversals",
            "headings",
            headings,
            f"must have shape (steps, n), got {angles.shape}",
        )
    if not np.isfinite(angles).all():
        check.fail("turn_reversals", "headings", headings, "must be finite (no NaN or inf)")
    if angles.ndim != 2 or angles.shape[0] < 2 or angles.shape[1] == 0:
        return 0.0
    turn = np.angle(np.exp(1j * np.diff(angles, axis=0))) / dt  # rad/s, wrapped
    side = np.sign(np.where(np.abs(turn) > turning, turn, 0.0))
    flips = 0
    for column in side.T:  # each boid: the sides it turned to, straight stretches dropped
        sides = column[column != 0]
        flips += int(np.count_nonzero(sides[1:] != sides[:-1]))
    return float(flips / angles.shape[1] / (angles.shape[0] * dt))


def nearest_neighbours(positions: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Each boid's nearest other boid (its row), by brute force in chunks (O(n²) time,
    O(n) memory per row of a chunk): for measuring, not for every step."""
    pos = as_points("nearest_neighbours", "positions", positions)
    n = len(pos)
    nearest = np.zeros(n, dtype=np.int64)
    for start in range(0, n, _CHUNK):
        block = pos[start : start + _CHUNK]
        d2 = ((block[:, None, :] - pos[None, :, :]) ** 2).sum(axis=2)
        d2[np.arange(len(block)), np.arange(start, start + len(block))] = np.inf
        nearest[start : start + len(block)] = np.argmin(d2, axis=1)
    return nearest


def sprite_overlap(
    positions: npt.ArrayLike, velocities: npt.ArrayLike, size: tuple[float, float]
) -> float:
    """The share of nearest-neighbour pairs whose sprites overlap.

    Each boid is drawn as a `size` (length, width) box centred on it and turned to its
    heading; a pair overlaps when the boxes intersect (the separating axis test).

    Args:
        positions: (n, 2) positions.
        velocities: (n, 2) velocities (a boid at rest heads along +x).
        size: a sprite's length and width, px.

    Returns:
        A value in [0, 1] (0.0 for fewer than two boids).
    """
    pos = as_points("sprite_overlap", "positions", positions)
    vel = as_points("sprite_overlap", "velocities", velocities)
    if len(vel) != len(pos):
        check.fail(
            "sprite_overlap",
            "velocities",
            velocities,
            f"must have {len(pos)} rows, one per position",
        )
    length, width = check.pair("sprite_overlap", "size", size)
    if not (0.0 < length <= LARGEST and 0.0 < width <= LARGEST):
        check.fail("sprite_overlap", "size", size, f"must be positive, at most {LARGEST:g}")
    if len(pos) < 2:
        return 0.0
    speed = np.hypot(vel[:, 0], vel[:, 1])
    heading = np.where(speed[:, None] > 0, vel / np.maximum(speed, 1e-300)[:, None], [1.0, 0.0])
    j = nearest_neighbours(pos)
    return float(np.mean(_boxes_meet(pos, heading, pos[j], heading[j], (length, width))))


def _boxes_meet(
    pa: FloatArray, ha: FloatArray, pb: FloatArray, hb: FloatArray, size: tuple[float, float]
) -> npt.NDArray[np.bool_]:
    """Whether box a (centre pa, unit heading ha) meets box b, row by row: two rectangles
    meet unless one of their four edge normals separates them."""
    half_l, half_w = size[0] / 2.0, size[1] / 2.0
    sa = np.column_stack((-ha[:, 1], ha[:, 0]))
    sb = np.column_stack((-hb[:, 1], hb[:, 0]))
    gap = pb - pa
    meet = np.ones(len(pa), dtype=bool)
    for axis in (ha, sa, hb, sb):
        # Each box's half extent along the axis, and the centres' distance along it.
        reach_a = half_l * np.abs((ha * axis).sum(1)) + half_w * np.abs((sa * axis).sum(1))
        reach_b = half_l * np.abs((hb * axis).sum(1)) + half_w * np.abs((sb * axis).sum(1))
        meet &= np.abs((gap * axis).sum(1)) <= reach_a + reach_b
    return meet
