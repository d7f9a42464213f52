"""Compiled kernels of what the render stage draws: each boid's arcade angle from its
velocity and the filter that turns its drawn heading towards it (`shoal.systems.render.
headings`), its position and angle between two steps (`...render.interpolation`), and their
write into the SpriteList's buffer (`...render.sprite_feed`).

This module imports no arcade (nor does the package's `__init__`, which imports its names
on first use), so that the warm-up compiles these kernels, with the others, in a program that
never draws (an import-linter contract keeps it so). At 100,000 boids numpy's
`arctan2` took 2.8-3.9 ms (a libm call per value), the filter's dozen numpy passes 2.6 ms,
the interpolation 1.3 ms and the converting, strided copy into the buffer 1.1 ms: one loop
each, in SIMD lanes where it can, brought the render stage from 10 to under 3 ms
(benchmarks/flock.py --render; docs/performance.md, "Drawing").
"""

import math

import numba
import numpy as np
import numpy.typing as npt

from shoal.systems.core.store import BoolArray, FloatArray, IntArray

Float32Array = npt.NDArray[np.float32]

_TAN_PI_8 = math.tan(math.pi / 8.0)
# atan(t) = t - t³/3 + t⁵/5 - ...: with |t| <= tan(π/8) = 0.414 the terms from t¹⁹ on
# add up to under 2.5e-9 rad (1.4e-7°).
_ATAN_TERMS = tuple((-1.0) ** k / (2 * k + 1) for k in range(1, 9))
_A3, _A5, _A7, _A9, _A11, _A13, _A15, _A17 = _ATAN_TERMS
# Numbers only: no NaN flags, which would let the compiler drop the checks that NaNs fail.
_FAST = {"contract"}


@numba.njit(cache=True, nogil=True, fastmath=_FAST, error_model="numpy", inline="always")
def _atan2(y: float, x: float) -> float:
    """atan2(y, x) within 2.5e-9 rad, as selects only, so that a loop runs it in SIMD lanes
    (libm's `atan2`, numpy's too, is a call per value: 27-35 ns each here)."""
    ax = x if x >= 0.0 else -x
    ay = y if y >= 0.0 else -y
    steep = ay > ax
    a = (ax if steep else ay) / ((ay if steep else ax) if ax + ay > 0.0 else 1.0)  # in [0, 1]
    # atan(a) = π/4 + atan((a - 1) / (a + 1)): the series converges fast for small t.
    high = a > _TAN_PI_8
    t = (a - 1.0) / (a + 1.0) if high else a
    s = t * t
    series = _A13 + s * (_A15 + s * _A17)
    series = _A3 + s * (_A5 + s * (_A7 + s * (_A9 + s * (_A11 + s * series))))
    angle = t + t * s * series + (math.pi / 4.0 if high else 0.0)
    angle = math.pi / 2.0 - angle if steep else angle
    angle = math.pi - angle if x < 0.0 else angle
    return math.copysign(angle, y)


@numba.njit(cache=True, nogil=True, fastmath=_FAST, error_model="numpy", inline="always")
def _wrap(degrees: float) -> float:
    """`degrees` in [-180, 180] (`headings.wrap_degrees`)."""
    return degrees - 360.0 * float(np.rint(degrees * (1.0 / 360.0)))


@numba.njit(cache=True, nogil=True, fastmath=_FAST, error_model="numpy")
def headings_into(velocities: FloatArray, out: FloatArray) -> None:
    """Write into `out` the arcade angle (clockwise degrees) of each row of `velocities`
    (C-contiguous): -atan2(vy, vx) in degrees (`headings.heading_degrees`)."""
    # Read as one flat array: indexed by row and column, the loop loaded each value on its
    # own (five times slower).
    flat = velocities.reshape(-1)
    to_degrees = 180.0 / math.pi
    for i in range(out.shape[0]):
        out[i] = -_atan2(flat[2 * i + 1], flat[2 * i]) * to_degrees


@numba.njit(cache=True, nogil=True, fastmath=_FAST, error_model="numpy")
def smooth_into(
    drawn: FloatArray,
    targets: FloatArray,
    factors: FloatArray,
    hold: BoolArray,
    max_lag: float,
    out: FloatArray,
) -> None:
    """Write into `out` each drawn angle turned `factors` of the way (the short way round)
    to its target, and at least to within `max_lag` of it; rows in `hold` keep theirs.
    In [-180, 180] (`headings.smooth_headings`)."""
    for i in range(drawn.shape[0]):
        out[i] = _smoothed(drawn[i], targets[i], factors[i], hold[i], max_lag)


@numba.njit(cache=True, nogil=True, fastmath=_FAST, error_model="numpy")
def turn_into(
    drawn: FloatArray,
    velocities: FloatArray,
    factors: FloatArray,
    still_speed: float,
    max_lag: float,
    out: FloatArray,
) -> None:
    """One step of the drawn headings: `smooth_into` towards the heading of each row of
    `velocities` (C-contiguous), rows slower than `still_speed` held (they have none), in
    one pass (`interpolation.DrawHistory.advance`)."""
    flat = velocities.reshape(-1)
    to_degrees = 180.0 / math.pi
    still2 = still_speed * still_speed
    for i in range(out.shape[0]):
        vx, vy = flat[2 * i], flat[2 * i + 1]
        target = -_atan2(vy, vx) * to_degrees
        out[i] = _smoothed(drawn[i], target, factors[i], vx * vx + vy * vy < still2, max_lag)


@numba.njit(cache=True, nogil=True, fastmath=_FAST, error_model="numpy", inline="always")
def _smoothed(drawn: float, target: float, factor: float, hold: bool, max_lag: float) -> float:
    """A drawn angle turned `factor` of the way to `target`, and at least to within
    `max_lag` of it (unless held), in [-180, 180]."""
    turn = _wrap(target - drawn)
    lag = min(max(turn * (1.0 - factor), -max_lag), max_lag)
    return _wrap(drawn + (0.0 if hold else turn - lag))


@numba.njit(cache=True, nogil=True, fastmath=_FAST, error_model="numpy")
def between_into(
    start: FloatArray,
    end: FloatArray,
    start_angles: FloatArray,
    end_angles: FloatArray,
    alpha: float,
    torus: tuple[float, float, float, float],
    positions: FloatArray,
    angles: FloatArray,
) -> None:
    """Write the positions and angles `alpha` of the way from `start` to `end` (positions,
    (n, 2), C-contiguous) and from `start_angles` to `end_angles` (turning the short way)
    into `positions` and `angles` (`interpolation.DrawHistory.frame`).

    `torus` is (width, height, origin x, origin y) of a torus world, widths 0 elsewhere: a
    boid that crossed an edge moves the short way across it, and is drawn wrapped back
    into the world."""
    width, height, origin_x, origin_y = torus
    inv_w = 1.0 / width if width > 0.0 else 0.0
    inv_h = 1.0 / height if height > 0.0 else 0.0
    a, b, out = start.reshape(-1), end.reshape(-1), positions.reshape(-1)
    for i in range(angles.shape[0]):
        out[2 * i] = _between(a[2 * i], b[2 * i], alpha, width, inv_w, origin_x)
        out[2 * i + 1] = _between(a[2 * i + 1], b[2 * i + 1], alpha, height, inv_h, origin_y)
        angles[i] = start_angles[i] + _wrap(end_angles[i] - start_angles[i]) * alpha


@numba.njit(cache=True, nogil=True, fastmath=_FAST, error_model="numpy", inline="always")
def _between(
    start: float, end: float, alpha: float, size: float, inv_size: float, origin: float
) -> float:
    """One coordinate `alpha` of the way from `start` to `end`, on a torus axis of `size`
    (0: none) from `origin`."""
    delta = end - start
    delta -= size * float(np.rint(delta * inv_size))  # the short way across an edge
    shifted = start + delta * alpha - origin
    return shifted - size * float(np.floor(shifted * inv_size)) + origin  # back into the world


@numba.njit(cache=True, nogil=True, error_model="numpy")
def write_sprites(
    positions: FloatArray, angles: FloatArray, slots: IntArray, buffer: Float32Array
) -> None:
    """Write row i's position (C-contiguous (n, 2)) and angle into slot `slots[i]` of an
    arcade SpriteList's buffer (float32 x, y, depth, angle a slot: `sprite_feed`), in one
    pass: numpy's converting, strided copies took 1.1 ms at 100,000 sprites."""
    flat = positions.reshape(-1)
    for i in range(angles.shape[0]):
        slot = slots[i]
        buffer[slot, 0] = flat[2 * i]
        buffer[slot, 1] = flat[2 * i + 1]
        buffer[slot, 3] = angles[i]
