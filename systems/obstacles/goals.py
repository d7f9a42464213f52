"""Chasing and fleeing round obstacles: the goal terms of the earlier stages, re-aimed.

The steering stage chases prey and flees predators it sees, the seeking stage flees predator
entities; both steer straight and record what they added in `Step.goals`. Here, a chaser
whose straight line to its prey is blocked, or a fleeing boid whose straight flight would
meet an obstacle within its look-ahead, has that term replaced by the same seek along the
way round: the prey's flow field, or the threat's flee map (away along free space, round
corners to open water, never into a dead end). Boids whose way is clear keep their term
exactly. Only the few boids that chase or flee are looked at, in vectorised steps; the fields
are built once per target cell and shared.
"""

import math

import numpy as np

from shoal.components import Predator
from shoal.systems.core.agents import gather
from shoal.systems.core.species_table import (
    P_CHASE_WEIGHT,
    P_FEAR_RADIUS,
    P_FLEE_WEIGHT,
    P_LOOK_AHEAD,
    P_MAX_FORCE,
    P_MAX_SPEED,
    RELATION_FLEE,
)
from shoal.systems.core.step import Step
from shoal.systems.core.store import BoolArray, FloatArray, IntArray
from shoal.systems.obstacles.field import blocked
from shoal.systems.obstacles.flow_kernel import WAY_AROUND
from shoal.systems.obstacles.navigation import Navigator

FLEE_REACH = 3.0
"""A flee map reaches this many fear radii from the threat: room to find the way out."""


def reaim_goals(nav: Navigator, step: Step, margin: float) -> None:
    """Re-aim this step's chase and flee terms whose straight way is blocked (see the module
    docstring); `margin` is the body clearance looked ahead for when fleeing."""
    flock = nav.flock
    store = flock.store
    n = len(store)
    if step.goals.shape[0] != n or n == 0 or not nav.active:
        return
    if len(step.targets) == n:
        _reaim_chase(nav, step)
    _reaim_flee(nav, step, margin)


def _reaim_chase(nav: Navigator, step: Step) -> None:
    store, params = nav.flock.store, nav.flock.species.params
    rows = np.flatnonzero(step.targets >= 0)
    if not len(rows):
        return
    prey = step.targets[rows]
    starts = store.positions[rows]
    offsets = _short_way(nav, store.positions[prey] - starts)
    hit = blocked(nav.obstacles, starts, starts + offsets)
    rows, prey = rows[hit], prey[hit]
    if not len(rows):
        return
    slots = np.full(len(rows), -1, np.int64)
    cells = nav.grid.cells_of(store.positions[prey])
    for cell in np.unique(cells):  # one field per prey cell, reaching each of its chasers
        mine = cells == cell
        x, y = store.positions[prey[mine][0]]
        slots[mine] = nav.seek_slot(x, y, until=nav.grid.cells_of(store.positions[rows[mine]]))
    weight = params[store.species[rows], P_CHASE_WEIGHT]
    _replace(nav, rows, slots, step.goals[rows, 2:4], weight)


def _reaim_flee(nav: Navigator, step: Step, margin: float) -> None:
    flock = nav.flock
    store, params = flock.store, flock.species.params
    goals = step.goals
    rows = np.flatnonzero((goals[:, 0] != 0.0) | (goals[:, 1] != 0.0))
    if not len(rows):
        return
    threats, fears = _threats(nav)
    if not len(threats):
        return
    species = store.species[rows]
    away = _short_way(nav, store.positions[rows][:, None, :] - threats[None, :, :])
    distance = np.hypot(away[..., 0], away[..., 1])
    fear = params[species, P_FEAR_RADIUS]
    distance[~fears[:, species].T | (distance >= fear[:, None])] = math.inf
    nearest = np.argmin(distance, axis=1)
    found = np.isfinite(distance[np.arange(len(rows)), nearest])
    rows, nearest, species = rows[found], nearest[found], species[found]
    if not len(rows):
        return
    # Straight flight ahead: blocked within the look-ahead?
    heading = away[np.flatnonzero(found), nearest]
    length = np.hypot(*heading.T)
    heading = heading / np.where(length > 0.0, length, 1.0)[:, None]
    reach = params[species, P_MAX_SPEED] * params[species, P_LOOK_AHEAD] + margin
    starts = store.positions[rows]
    hit = blocked(nav.obstacles, starts, starts + heading * reach[:, None])
    rows, nearest, species = rows[hit], nearest[hit], species[hit]
    if not len(rows):
        return
    radius = FLEE_REACH * float(params[:, P_FEAR_RADIUS].max())
    slots = np.full(len(rows), -1, np.int64)
    for k in np.unique(nearest):
        slots[nearest == k] = nav.flee_slot(float(threats[k, 0]), float(threats[k, 1]), radius)
    _replace(nav, rows, slots, goals[rows, 0:2], params[species, P_FLEE_WEIGHT])


def _threats(nav: Navigator) -> tuple[FloatArray, BoolArray]:
    """Every threat's position, and which species fear it ([threat, species]): boids of a
    species some species flees, and predator entities."""
    flock = nav.flock
    store, table = flock.store, flock.species
    feared = (table.relations == RELATION_FLEE).T  # [threat species, fearful species]
    threat_rows = np.flatnonzero(feared.any(axis=1)[store.species])
    with flock.in_world():
        predators = gather(Predator, table)
    positions = np.vstack((store.positions[threat_rows], predators.positions))
    masks = np.vstack((feared[store.species[threat_rows]], predators.concerns[:, : len(table)]))
    return positions, masks


def _replace(
    nav: Navigator, rows: IntArray, slots: IntArray, recorded: FloatArray, weight: FloatArray
) -> None:
    """Swap each row's recorded term for the same weighted seek along its field, where the
    field knows the way."""
    store, params = nav.flock.store, nav.flock.species.params
    way, directions, _ = nav.sample(slots, store.positions[rows])
    keep = way == WAY_AROUND
    rows, directions, recorded, weight = rows[keep], directions[keep], recorded[keep], weight[keep]
    species = store.species[rows]
    desired = directions * params[species, P_MAX_SPEED][:, None] - store.velocities[rows]
    length = np.hypot(*desired.T)
    limit = params[species, P_MAX_FORCE]
    scale = np.where(length > limit, limit / np.where(length > 0.0, length, 1.0), 1.0)
    store.accelerations[rows] += desired * (weight * scale)[:, None] - recorded


def _short_way(nav: Navigator, offsets: FloatArray) -> FloatArray:
    """Offsets the short way round a torus (unchanged in a box)."""
    config = nav.flock.config
    if not config.wraps:
        return offsets
    size = np.array([config.width, config.height])
    wrapped: FloatArray = offsets - np.rint(offsets / size) * size
    return wrapped
