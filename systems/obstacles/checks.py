"""Argument checks shared by the obstacle queries and the navigator: points, field slots
and grid cells, each refused with a one-line ValueError naming the function and argument.

The kernels index the pool and the grids without bounds checks, so a slot or cell out of
range must never reach them.
"""

import numpy as np
import numpy.typing as npt

from shoal.components import arguments as check
from shoal.systems.core.store import FloatArray, IntArray


def as_points(owner: str, name: str, values: npt.ArrayLike) -> FloatArray:
    """`values` as a finite, contiguous (n, 2) float array, or a ValueError naming them."""
    try:
        array = np.ascontiguousarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        check.fail(owner, name, values, "must be an (n, 2) array of numbers")
    if array.size == 0:
        return np.zeros((0, 2))
    if array.ndim != 2 or array.shape[1] != 2:
        check.fail(owner, name, values, f"must have shape (n, 2), not {array.shape}")
    if not np.isfinite(array).all():  # NaN compares false: it would be "outside" everything
        check.fail(owner, name, values, "must be finite")
    return array


def as_indices(owner: str, name: str, values: object, count: int, low: int, high: int) -> IntArray:
    """`values` as a contiguous int64 array of `count` integers in [low, high), or a
    ValueError naming them."""
    array = np.asarray(values) if isinstance(values, np.ndarray | list | tuple) else None
    if array is None or array.shape != (count,) or (count and array.dtype.kind not in "iu"):
        check.fail(owner, name, values, f"must be an array of {count} integers")
    indices = np.ascontiguousarray(array, dtype=np.int64)
    if count and (indices.min() < low or indices.max() >= high):
        check.fail(owner, name, values, f"must lie in [{low}, {high})")
    return indices


def as_limits(owner: str, name: str, values: object, count: int) -> FloatArray:
    """`values` as `count` floats, each > 0 (inf: no limit), or a ValueError naming them."""
    try:
        array = np.ascontiguousarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        check.fail(owner, name, values, f"must be an array of {count} numbers")
    if array.shape != (count,):
        check.fail(owner, name, values, f"must be an array of {count} numbers")
    if count and not (array > 0.0).all():  # NaN is not
        check.fail(owner, name, values, "must all be > 0")
    return array
