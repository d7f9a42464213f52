"""How aligned a flock is, and how much it mills (circles its centre)."""

import numpy as np
import numpy.typing as npt

from shoal.systems.metrics.points import as_points, as_wrap_size, clip_unit

# A boid this close to the flock centre (relative to the flock's size) is "at the centre":
# the mean position carries rounding error, so a boid placed there is never exactly on it.
_CENTRE_TOLERANCE = 1e-9


def polarization(velocities: npt.ArrayLike) -> float:
    """How aligned the flock is: the length of the mean unit heading.

    Args:
        velocities: (n, 2) velocities. Boids with zero speed have no heading and are left out.

    Returns:
        A value in [0, 1]: 1.0 when every moving boid heads the same way, near 0 for random or
        opposing headings, and 0.0 when no boid moves.

    Raises:
        ValueError: if `velocities` is not a finite (n, 2) array.
    """
    vel = as_points("polarization", "velocities", velocities)
    speed = np.hypot(vel[:, 0], vel[:, 1])
    moving = speed > 0.0
    if not moving.any():
        return 0.0
    headings = vel[moving] / speed[moving, None]
    return clip_unit(float(np.hypot(*headings.mean(axis=0))))


def milling(
    positions: npt.ArrayLike,
    velocities: npt.ArrayLike,
    wrap_size: tuple[float, float] | None = None,
) -> float:
    """How much the flock circles its centre: the normalised angular momentum.

    For each boid, r is its offset from the flock centre (the mean position) and v its
    velocity; the result is |mean of cross(r, v) / (|r| |v|)|, the mean sine of the angle between
    offset and heading.

    Args:
        positions: (n, 2) positions.
        velocities: (n, 2) velocities, one row per position.
        wrap_size: (width, height) of a torus world: the centre is then the circular mean of
            the positions and each offset goes the short way round to it, so that a school
            across an edge is measured whole. None for an open world.

    Returns:
        A value in [0, 1]: 1.0 when every boid moves tangentially round the centre in the same
        sense, near 0 for a flock swimming straight or halves turning opposite ways. Boids at
        the centre or with zero speed are left out; 0.0 when none is left.

    Raises:
        ValueError: if the arrays are not finite (n, 2) arrays of the same length.
    """
    pos = as_points("milling", "positions", positions)
    vel = as_points("milling", "velocities", velocities)
    if len(pos) != len(vel):
        raise ValueError(
            f"milling: positions and velocities must have the same length, got {len(pos)} and "
            f"{len(vel)}"
        )
    size = as_wrap_size("milling", wrap_size)
    if len(pos) == 0:
        return 0.0
    offset = pos - pos.mean(axis=0) if size is None else _wrapped_offsets(pos, size)
    reach = np.hypot(offset[:, 0], offset[:, 1])
    speed = np.hypot(vel[:, 0], vel[:, 1])
    counted = (reach > _CENTRE_TOLERANCE * reach.max()) & (speed > 0.0)
    if not counted.any():
        return 0.0
    offset, vel = offset[counted], vel[counted]
    cross = offset[:, 0] * vel[:, 1] - offset[:, 1] * vel[:, 0]
    sines = cross / (reach[counted] * speed[counted])
    return clip_unit(abs(float(sines.mean())))


def _wrapped_offsets(
    pos: npt.NDArray[np.float64], size: tuple[float, float]
) -> npt.NDArray[np.float64]:
    """Offsets from the circular mean of the positions on a torus of `size`, the short way."""
    period = np.asarray(size, dtype=np.float64)
    angle = pos / period * 2.0 * np.pi
    centre = np.arctan2(np.sin(angle).mean(axis=0), np.cos(angle).mean(axis=0))
    offset: npt.NDArray[np.float64] = pos - centre / (2.0 * np.pi) * period
    offset -= period * np.round(offset / period)
    return offset
