"""The re-aiming's search, compiled: which chases and flights an obstacle blocks.

`goals.py` re-aims the few boids whose straight chase or flight meets an obstacle. Finding
them means reading every row (the chase targets, the flee terms), and done with numpy that
took ~30 calls a step, each 5-20 µs within a step (its arrays cold after the kernels), for
the one or two rows it usually finds. Here one call reads the rows once and tests the
lines with `segment_hit`, as `field.blocked` does: the same rows, in the same order.
"""

import math

import numba
import numpy as np

from shoal.systems.core.maths import World
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import P_FEAR_RADIUS, P_LOOK_AHEAD, P_MAX_SPEED
from shoal.systems.core.store import BoolArray, FloatArray, IntArray
from shoal.systems.obstacles.query_kernel import segment_hit
from shoal.systems.obstacles.shape_kernel import Geometry


@numba.njit(cache=True, nogil=True, error_model="numpy")
def blocked_chases(
    targets: IntArray, positions: FloatArray, world: World, geometry: Geometry
) -> tuple[IntArray, IntArray]:
    """The rows that chase (`targets[row]` >= 0, their prey's row) whose straight line to
    their prey (the short way round a torus) meets an obstacle, and their prey."""
    wrap, width, height = world
    rows = np.empty(targets.shape[0], np.int64)
    prey = np.empty(targets.shape[0], np.int64)
    count = 0
    for i in range(targets.shape[0]):
        j = targets[i]
        if j < 0:
            continue
        px, py = positions[i, 0], positions[i, 1]
        ox = _short(positions[j, 0] - px, width, wrap)
        oy = _short(positions[j, 1] - py, height, wrap)
        if _blocked(geometry, px, py, px + ox, py + oy):
            rows[count], prey[count] = i, j
            count += 1
    return rows[:count].copy(), prey[:count].copy()


@numba.njit(cache=True, nogil=True, error_model="numpy")
def blocked_flights(
    goals: FloatArray, positions: FloatArray, species: IntArray, params: FloatArray,
    feared: BoolArray, predators: FloatArray, predator_fears: BoolArray, margin: float,
    world: World, geometry: Geometry,
) -> tuple[IntArray, IntArray, FloatArray]:  # fmt: skip
    """The rows with a flee term (`goals` columns 0, 1) whose straight flight from their
    nearest threat, out to their look-ahead plus `margin`, meets an obstacle; that threat
    (its index in the threats); the threats' positions (none where no row flees).

    The threats are the boids of a species that some species flees (`feared[threat
    species, fearful species]`), in row order, then the predator entities at `predators`
    (`predator_fears[predator, fearful species]`). A row's nearest is the nearest that its
    species fears within its fear radius (ties: the first)."""
    wrap, width, height = world
    rows = _flee_rows(goals)
    if not len(rows):
        return rows, rows, np.zeros((0, 2))
    threats, fears = _threats(positions, species, feared, predators, predator_fears)
    nearest = np.empty(len(rows), np.int64)
    count = 0  # the rows found are written over `rows` (at or before the one read)
    for i in rows:
        s = species[i]
        px, py = positions[i, 0], positions[i, 1]
        fear = params[s, P_FEAR_RADIUS]
        best, k_best, away_x, away_y = math.inf, -1, 0.0, 0.0
        for k in range(threats.shape[0]):
            ax = _short(px - threats[k, 0], width, wrap)
            ay = _short(py - threats[k, 1], height, wrap)
            distance = math.hypot(ax, ay)
            if fears[k, s] and distance < fear and distance < best:
                best, k_best, away_x, away_y = distance, k, ax, ay
        if k_best < 0:
            continue
        length = math.hypot(away_x, away_y)
        if length > 0.0:  # (on the threat's very spot: no way away, no flight to test)
            away_x, away_y = away_x / length, away_y / length
        reach = params[s, P_MAX_SPEED] * params[s, P_LOOK_AHEAD] + margin
        if _blocked(geometry, px, py, px + away_x * reach, py + away_y * reach):
            rows[count], nearest[count] = i, k_best
            count += 1
    return rows[:count].copy(), nearest[:count].copy(), threats


@numba.njit(cache=True)
def _flee_rows(goals: FloatArray) -> IntArray:
    """The rows whose flee term (`goals` columns 0, 1) is not zero."""
    rows = np.empty(goals.shape[0], np.int64)
    count = 0
    for i in range(goals.shape[0]):
        if goals[i, 0] != 0.0 or goals[i, 1] != 0.0:
            rows[count] = i
            count += 1
    return rows[:count].copy()


@numba.njit(cache=True)
def _threats(
    positions: FloatArray, species: IntArray, feared: BoolArray, predators: FloatArray,
    predator_fears: BoolArray,
) -> tuple[FloatArray, BoolArray]:  # fmt: skip
    """The threats' positions and which species fear each (see `blocked_flights`)."""
    kinds = feared.shape[1]
    threat_species = np.zeros(feared.shape[0], np.bool_)
    for t in range(feared.shape[0]):
        threat_species[t] = feared[t].any()
    rows = np.flatnonzero(threat_species[species])
    count = len(rows) + predators.shape[0]
    threats = np.empty((count, 2))
    fears = np.empty((count, kinds), np.bool_)
    for k, j in enumerate(rows):
        threats[k, 0], threats[k, 1] = positions[j, 0], positions[j, 1]
        fears[k] = feared[species[j]]
    for p in range(predators.shape[0]):
        k = len(rows) + p
        threats[k, 0], threats[k, 1] = predators[p, 0], predators[p, 1]
        fears[k] = predator_fears[p, :kinds]
    return threats, fears


@njit_no_refcount(cache=True)
def _short(offset: float, size: float, wrap: bool) -> float:
    """`offset` the short way round a torus of `size`, as the numpy code this replaced made
    it (`offset - rint(offset / size) * size`). Not `maths.wrapped`, its twin: that rounds
    `offset × (1 / size) + 0.5` down, which can differ in the last bit (and on an exact
    half), and the rows found would no longer be the very same."""
    if not wrap:
        return offset
    short: float = offset - np.rint(offset / size) * size
    return short


@njit_no_refcount(cache=True)
def _blocked(geometry: Geometry, px: float, py: float, ex: float, ey: float) -> bool:
    """Whether an obstacle lies on the segment (px, py) → (ex, ey) (`field.blocked`)."""
    return segment_hit(geometry, px, py, ex, ey, 0.0)[3] >= 0
