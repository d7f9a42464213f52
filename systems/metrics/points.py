"""Checks and helpers shared by the measures: points, torus sizes, grids."""

import numpy as np
import numpy.typing as npt

from shoal.components import arguments as check
from shoal.systems.core.grid import Grid, build_grid
from shoal.systems.core.store import FloatArray

LARGEST = 1e150
"""Coordinates and sizes beyond this are refused: squares of differences stay far from
overflow (1e300 < 1.8e308), however the boids are spread."""


def grid_for(pos: FloatArray, cell: float, size: tuple[float, float] | None) -> Grid:
    """A grid with cells at least `cell` wide, tiling the torus when `size` is given."""
    if size is None:
        return build_grid(pos, cell, False, 0.0, 0.0)
    return build_grid(pos, cell, True, size[0], size[1])


def clip_unit(value: float) -> float:
    """Keep a mean of unit quantities in [0, 1] despite rounding (it can reach 1 + 1e-16)."""
    return min(max(value, 0.0), 1.0)


def as_points(owner: str, name: str, values: npt.ArrayLike) -> FloatArray:
    """`values` as a contiguous float64 (n, 2) array, or ValueError naming the argument.

    Coordinates beyond ±`LARGEST` are refused: their differences and squares would
    overflow to inf, and the measures would come out NaN without a word.
    """
    try:
        array = np.ascontiguousarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        check.fail(owner, name, values, "must be an (n, 2) array of numbers")
    if array.ndim != 2 or array.shape[1] != 2:
        check.fail(owner, name, values, f"must have shape (n, 2), got {array.shape}")
    if not np.isfinite(array).all():
        check.fail(owner, name, values, "must be finite (no NaN or inf)")
    if array.size and np.abs(array).max() > LARGEST:
        check.fail(owner, name, values, f"must lie within ±{LARGEST:g}")
    return array


def as_wrap_size(owner: str, wrap_size: object) -> tuple[float, float] | None:
    """`wrap_size` as two floats (or None), or ValueError unless both are finite and > 0."""
    if wrap_size is None:
        return None
    width, height = check.pair(owner, "wrap_size", wrap_size)
    if not (0.0 < width <= LARGEST and 0.0 < height <= LARGEST):
        check.fail(owner, "wrap_size", wrap_size, f"must be positive, at most {LARGEST:g}")
    return width, height
