"""Drawn headings: arcade angles from velocities, smoothed apart from steering.

A boid's velocity can swing a few degrees from step to step as neighbours come and go; drawn
as is, a school shimmers. The drawn heading therefore follows the velocity heading through
an exponential filter (a time constant per species), on the circle: the shortest way round,
so 359° → 1° turns 2°, never 358° back. Everything here works on arrays with one row per
boid (the headings and the filter in compiled loops: `shoal.systems.render.drawing`), and
depends only on the fixed step, never on the display rate.
"""

import numpy as np
import numpy.typing as npt

from shoal.systems.core.store import FloatArray
from shoal.systems.render.drawing import headings_into, smooth_into

MAX_LAG = 75.0
"""Degrees: however sudden a boid's swerve (turned along a rock it was pushed out of in one
step), its drawn heading is never further than this behind its velocity's: it is drawn
making a quick turn, never sliding sideways or backwards. A fish turning at its full rate is
drawn ~25° behind (`DEFAULT_HEADING_SMOOTHING`), so only swerves reach this."""
STILL_SPEED = 1e-6
"""Speeds below this (px/s) have no heading: such boids keep their drawn angle (atan2(0, 0)
would snap them to +x)."""


def heading_degrees(velocities: FloatArray) -> FloatArray:
    """arcade angles (clockwise degrees) that turn a sprite drawn facing +x to its velocity.

    A boid's heading is atan2(vy, vx), counter-clockwise from +x; arcade 3's `Sprite.angle`
    turns clockwise, hence the minus sign. Within 1.4e-7° of numpy's `arctan2`, over ten
    times faster (`shoal.systems.render.drawing`).
    """
    angles = np.empty(len(velocities))
    headings_into(kernel_floats(velocities), angles)
    return angles


def still(velocities: FloatArray) -> npt.NDArray[np.bool_]:
    """True for rows too slow to have a heading."""
    vx, vy = velocities[:, 0], velocities[:, 1]
    speed2: FloatArray = vx * vx + vy * vy  # ~4× faster than einsum on (n, 2)
    return speed2 < STILL_SPEED * STILL_SPEED


def wrap_degrees(angles: FloatArray) -> FloatArray:
    """Angles in [-180, 180] (a new array)."""
    # a - 360·rint(a/360): ~10× faster than numpy's floating-point modulo.
    turns = np.rint(angles * (1.0 / 360.0))
    turns *= 360.0
    wrapped: FloatArray = angles - turns
    return wrapped


def turn_between(start: FloatArray, end: FloatArray) -> FloatArray:
    """The shortest signed turn (degrees, in [-180, 180]) from `start` to `end`."""
    return wrap_degrees(end - start)


def blend_factors(dt: float, time_constants: FloatArray) -> FloatArray:
    """Share of the remaining turn an exponential filter makes in one step of `dt` seconds.

    A time constant of 0 (or less) means no smoothing: factor 1.
    """
    taus = np.asarray(time_constants, np.float64)
    factors = np.ones_like(taus)
    smooth = taus > 0.0
    factors[smooth] = -np.expm1(-dt / taus[smooth])  # 1 - exp(-dt/tau), exact for small dt
    return factors


def smooth_headings(
    drawn: FloatArray,
    targets: FloatArray,
    factors: FloatArray,
    hold: npt.NDArray[np.bool_] | None = None,
) -> FloatArray:
    """Turn each drawn angle a share of the way to its target (one fixed step), and at
    least to within `MAX_LAG` of it.

    Args:
        drawn: current drawn angles (degrees, any range).
        targets: velocity headings (degrees).
        factors: share of the turn made this step, per row (see `blend_factors`); 1 snaps.
        hold: rows that keep their drawn angle (e.g. `still` boids).

    Returns:
        New drawn angles in [-180, 180].
    """
    n = len(drawn)
    angles = np.empty(n)
    keep = np.zeros(n, bool) if hold is None else np.ascontiguousarray(hold, bool)
    factors = np.broadcast_to(factors, (n,))  # one factor for all, or one a row
    smooth_into(
        kernel_floats(drawn), kernel_floats(targets), kernel_floats(factors), keep, MAX_LAG, angles
    )
    return angles


def kernel_floats(values: FloatArray) -> FloatArray:
    """`values` as the drawing kernels (`shoal.systems.render.drawing`) take them, the one
    type they were compiled for: C-contiguous float64 (no copy when they already are)."""
    return np.ascontiguousarray(values, np.float64)


def side_view(angles: FloatArray, rows: npt.NDArray[np.bool_]) -> tuple[FloatArray, FloatArray]:
    """Angles and x-scale signs for textures seen from the side (`SpeciesLook.mirror`).

    A side view turned by a heading to the left would be drawn upside down; instead, in
    `rows`, a boid heading left (more than 90° from +x) is mirrored left-right (sign -1) and
    turned by its heading minus 180°, so that it tilts up or down with its climb. Other rows
    keep their angle and get sign 0: leave their sprite as it is.

    Returns:
        (angles, signs): new arcade angles, and per row +1 (as drawn), -1 (mirrored) or 0.
    """
    folded = wrap_degrees(angles)
    left = rows & (np.abs(folded) > 90.0)
    folded[left] -= np.copysign(180.0, folded[left])
    signs = np.where(rows, np.where(left, -1.0, 1.0), 0.0)
    return np.where(rows, folded, angles), signs
