"""Rejoining: a calm boid steers towards the other schools of its species that it sees.

A school split by a predator stays split once its halves are out of each other's perception:
each half aligns only with itself. Real fish keep sight of a school well beyond the fish they
align with, and join a school rather than stay in a small one. Here each species with a
`rejoin_weight` is divided into schools each step (fish within twice its separation radius
of each other, chained: `core.linking`); a calm boid (alarm 0: it flees nothing) steers
towards the centres of the other schools within its `rejoin_radius` that hold at least
`REJOIN_SHARE` of the fish of its own, weighted by their size, with a steady pull of
rejoin_weight × max_speed px/s². A lone straggler is drawn back to the school; the school
does not turn for it (too small a share); two halves draw each other back together.
"""

import math

import numba
import numpy as np

from shoal.systems.core.linking import first_labels, linked
from shoal.systems.core.maths import World, wrapped
from shoal.systems.core.refcount import njit_no_refcount
from shoal.systems.core.species_table import (
    P_MAX_SPEED,
    P_PERCEPTION,
    P_REJOIN_RADIUS,
    P_REJOIN_WEIGHT,
    P_SEPARATION,
)
from shoal.systems.core.store import BoolArray, FloatArray, IntArray

REJOIN_SHARE = 0.3
"""A boid rejoins only schools at least this share of the size of its own."""


def add_rejoining(
    positions: FloatArray,
    species: IntArray,
    params: FloatArray,
    calm: BoolArray,
    world: World,
    accelerations: FloatArray,
) -> None:
    """Add the rejoining pull of every calm boid of a species that rejoins to
    `accelerations` (rows as `positions`, which start at the world's corner; `world` is
    (wraps, width, height))."""
    wrap, width, height = world
    for s in np.flatnonzero(params[:, P_REJOIN_WEIGHT] > 0.0).tolist():
        rows = np.flatnonzero(species == s)
        # Only calm boids rejoin: a school that a predator alarms all through (the game's
        # sharks alarm 99.9 % of a far-seeing school) is not linked (0.3 ms a step at 2,000).
        if len(rows) < 2 or not calm[rows].any():
            continue
        pos = positions[rows]
        count, parent = linked(pos, _link(params, s), (width, height) if wrap else None)
        if count < 2:
            continue
        school, first = first_labels(count, parent)
        sizes = np.bincount(school, minlength=count)
        centres = _centres(pos, school, first, sizes, wrap, width, height)
        strength = params[s, P_REJOIN_WEIGHT] * params[s, P_MAX_SPEED]
        pulls = np.zeros((len(rows), 2))
        schools = (school, sizes.astype(np.float64), centres)
        pull = (REJOIN_SHARE, float(params[s, P_REJOIN_RADIUS]), float(strength))
        _pull_towards_schools(pos, calm[rows], schools, pull, world, pulls)
        accelerations[rows] += pulls


def _link(params: FloatArray, s: int) -> float:
    """How near two boids of species s must be to be of one school: twice its separation
    radius, within its perception (half of it without a separation radius)."""
    separation, perception = float(params[s, P_SEPARATION]), float(params[s, P_PERCEPTION])
    return min(2.0 * separation, perception) if separation > 0.0 else 0.5 * perception


@numba.njit(cache=True, nogil=True)
def _centres(
    pos: FloatArray,
    school: IntArray,
    first: IntArray,
    sizes: IntArray,
    wrap: bool,
    width: float,
    height: float,
) -> FloatArray:
    """Each school's centre: its first fish (`first`, by school) plus the mean offset to its
    fish (the short way round a torus, so that a school across the world's edge is not
    centred in the middle)."""
    sums = np.zeros((len(first), 2))
    for i in range(len(pos)):
        k = school[i]
        sums[k, 0] += wrapped(pos[i, 0] - pos[first[k], 0], width, wrap)
        sums[k, 1] += wrapped(pos[i, 1] - pos[first[k], 1], height, wrap)
    centres = np.empty_like(sums)
    for k in range(len(first)):
        centres[k, 0] = pos[first[k], 0] + sums[k, 0] / sizes[k]
        centres[k, 1] = pos[first[k], 1] + sums[k, 1] / sizes[k]
    return centres


@njit_no_refcount(cache=True, nogil=True)
def _pull_towards_schools(
    pos: FloatArray,
    calm: BoolArray,
    schools: tuple[IntArray, FloatArray, FloatArray],
    pull: tuple[float, float, float],
    world: World,
    pulls: FloatArray,
) -> None:
    """Each calm boid's pull (`strength` px/s²) towards the size-weighted offsets to the
    centres of the other schools within `radius` at least `share` of its own school's size.
    `schools` is each boid's school, each school's size and centre; `pull` is (share,
    radius, strength)."""
    school, sizes, centres = schools
    share, radius, strength = pull
    wrap, width, height = world
    r2 = radius * radius
    for i in range(pos.shape[0]):
        if not calm[i]:
            continue
        own = school[i]
        tx = ty = 0.0
        for g in range(centres.shape[0]):
            if g == own or sizes[g] < share * sizes[own]:
                continue
            dx = wrapped(centres[g, 0] - pos[i, 0], width, wrap)
            dy = wrapped(centres[g, 1] - pos[i, 1], height, wrap)
            if dx * dx + dy * dy <= r2:
                tx += sizes[g] * dx
                ty += sizes[g] * dy
        length = math.sqrt(tx * tx + ty * ty)
        if length > 0.0:
            pulls[i, 0] = strength * tx / length
            pulls[i, 1] = strength * ty / length
