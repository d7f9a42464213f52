"""Small formulas shared by the kernels: steering, distances on a torus, cell ranges."""

import math

import numba
import numpy as np

MAX_PREDICTION = 1.0
"""Seconds ahead that pursuit and evasion predict another boid's position, at most."""


@numba.njit(cache=True)
def clamp_length(x: float, y: float, limit: float) -> tuple[float, float]:
    """(x, y) scaled down to at most `limit` long."""
    length = math.sqrt(x * x + y * y)
    if length > limit:
        return x * limit / length, y * limit / length
    return x, y


@numba.njit(cache=True)
def seek(
    tx: float, ty: float, vx: float, vy: float, max_speed: float, max_force: float
) -> tuple[float, float]:
    """Reynolds seek towards direction (tx, ty): max-speed desired velocity minus current."""
    length = math.sqrt(tx * tx + ty * ty)
    if length == 0.0:
        return 0.0, 0.0
    return clamp_length(tx / length * max_speed - vx, ty / length * max_speed - vy, max_force)


@numba.njit(cache=True)
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


@numba.njit(cache=True)
def slowing_before(edge: float) -> float:
    """How far before an edge `edge` px short of a target (food's radius, an attractor's dead
    radius, the follow distance) a boid arriving there starts to slow down: three times
    that, at least 3 px."""
    return max(edge, 1.0) * 3.0


@numba.njit(cache=True)
def index_in(index: int, count: int) -> int:
    """`index % count` (a torus's cell index), without the division for an index already
    in [0, count), as most are: an integer division costs tens of cycles, a boid's cell
    index is taken every step."""
    return index if 0 <= index < count else index % count


@numba.njit(cache=True)
def offset_in(offset: float, size: float) -> float:
    """`offset % size`, exactly, without the call into the C library (a float modulo) for
    an offset already in [0, size), as a wrapped boid's is."""
    return offset if 0.0 <= offset < size else offset % size


@numba.njit(cache=True)
def turn_towards(heading: float, target: float, limit: float) -> float:
    """`heading` turned towards `target` (radians) by at most `limit`."""
    delta = offset_in(target - heading + math.pi, 2.0 * math.pi) - math.pi
    return heading + max(-limit, min(limit, delta))


# --- distances on a torus and cell ranges (grid searches) -----------------------------
World = tuple[bool, float, float]
"""A world as the kernels take it: whether it wraps (a torus), its width and height."""


@numba.njit(cache=True)
def wrap_offset(delta: float, size: float, inv_size: float) -> float:
    """Minimal-image offset on a torus of `size`; `inv_size` = 1/size, or 0 for no wrap.

    Branch-free so that candidate loops vectorise; with inv_size = 0 it returns delta.
    `np.floor`, not `math.floor`: numba's math.floor returns an int, and the round trip
    through int64 has no SIMD instruction (the loop ran 1.5× slower), and overflows beyond
    2**63.
    """
    offset: float = delta - size * np.floor(delta * inv_size + 0.5)
    return offset


@numba.njit(cache=True)
def wrapped(delta: float, size: float, wrap: bool) -> float:
    """The shortest signed difference along one axis (minimal image when `wrap`)."""
    return wrap_offset(delta, size, 1.0 / size) if wrap else delta


@numba.njit(cache=True)
def cell_range(c: int, reach: int, n_cells: int, wrap: bool) -> tuple[int, int]:
    """First and last (inclusive, unwrapped) cell index to visit around cell c.

    In a torus with few cells the stencil would visit a cell twice; then visit each once.
    """
    if wrap:
        if 2 * reach + 1 >= n_cells:
            return 0, n_cells - 1
        return c - reach, c + reach
    return max(c - reach, 0), min(c + reach, n_cells - 1)
