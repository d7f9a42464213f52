"""Chasing and fleeing round obstacles: the goal terms of the earlier stages, re-aimed.

The steering stage chases prey and flees predators it sees, the seeking stage flees predator
entities; both steer straight and record what they added in `Step.goals`. Here, a chaser
whose straight line to its prey is blocked, or a fleeing boid whose straight flight would
meet an obstacle within its look-ahead, has that term replaced by the same seek along the
way round: the prey's flow field, or the threat's flee map (away along free space, round
corners to open water, never into a dead end). Boids whose way is clear keep their term
exactly. The boids whose way is blocked are found in one compiled call (`goals_kernel.py`);
only those few are looked at further, in vectorised steps; the fields are built once per
target cell and shared.
"""

import math

import numpy as np

from shoal.components import Predator
from shoal.systems.core.maths import World
from shoal.systems.core.species_table import (
    P_CHASE_WEIGHT,
    P_FEAR_RADIUS,
    P_FLEE_WEIGHT,
    P_MAX_FORCE,
    P_MAX_SPEED,
    RELATION_FLEE,
)
from shoal.systems.core.step import Step
from shoal.systems.core.store import FloatArray, IntArray
from shoal.systems.flock.agents import gather
from shoal.systems.obstacles.flow_kernel import WAY_AROUND
from shoal.systems.obstacles.goals_kernel import blocked_chases, blocked_flights
from shoal.systems.obstacles.nav_grid import NavGrid
from shoal.systems.obstacles.navigation import Navigator

FLEE_REACH = 3.0
"""A flee map reaches this many fear radii from the threat: room to find the way out."""


def reaim_goals(nav: Navigator, step: Step, margin: float) -> None:
    """Re-aim this step's chase and flee terms whose straight way is blocked (see the module
    docstring); `margin` is the body clearance looked ahead for when fleeing."""
    flock = nav.flock
    store = flock.store
    n = len(store)
    if step.goals.shape[0] != n or n == 0 or not nav.enabled:
        return
    grid = nav.grid  # read once: each read checks the world's obstacles
    if not len(grid.field):
        return
    if len(step.targets) == n:
        _reaim_chase(nav, grid, step)
    _reaim_flee(nav, grid, step, margin)


def _reaim_chase(nav: Navigator, grid: NavGrid, step: Step) -> None:
    flock = nav.flock
    store, params = flock.store, flock.species.params
    rows, prey = blocked_chases(step.targets, store.positions, _world(nav), grid.field.geometry)
    if not len(rows):
        return
    slots = np.full(len(rows), -1, np.int64)
    cells = grid.cells_of(store.positions[prey])
    for cell in np.unique(cells):  # one field per prey cell, reaching each of its chasers
        mine = cells == cell
        x, y = store.positions[prey[mine][0]].tolist()
        until = grid.cells_of(store.positions[rows[mine]])
        slots[mine] = nav._seek_slot(grid, x, y, math.inf, until)
    weight = params[store.species[rows], P_CHASE_WEIGHT]
    _replace(nav, grid, rows, slots, step.goals[rows, 2:4], weight)


def _reaim_flee(nav: Navigator, grid: NavGrid, step: Step, margin: float) -> None:
    flock = nav.flock
    store, table = flock.store, flock.species
    params, goals = table.params, step.goals
    if not goals[:, 0:2].any():  # no one flees this step (most steps): no threats to gather
        return
    feared = np.ascontiguousarray((table.relations == RELATION_FLEE).T)  # [threat, fearful]
    with flock.in_world():
        predators = gather(Predator, table)
    rows, nearest, threats = blocked_flights(
        goals, store.positions, store.species, params, feared, predators.positions,
        np.ascontiguousarray(predators.concerns), margin, _world(nav), grid.field.geometry,
    )  # fmt: skip
    if not len(rows):
        return
    species = store.species[rows]
    radius = FLEE_REACH * float(params[:, P_FEAR_RADIUS].max())
    slots = np.full(len(rows), -1, np.int64)
    for k in np.unique(nearest):
        x, y = threats[k].tolist()
        slots[nearest == k] = nav._flee_slot(grid, x, y, radius)
    _replace(nav, grid, rows, slots, goals[rows, 0:2], params[species, P_FLEE_WEIGHT])


def _replace(
    nav: Navigator, grid: NavGrid, rows: IntArray, slots: IntArray, recorded: FloatArray,
    weight: FloatArray,
) -> None:  # fmt: skip
    """Swap each row's recorded term for the same weighted seek along its field, where the
    field knows the way."""
    store, params = nav.flock.store, nav.flock.species.params
    way, directions, _ = nav._sample(grid, slots, store.positions[rows])
    keep = way == WAY_AROUND
    rows, directions, recorded, weight = rows[keep], directions[keep], recorded[keep], weight[keep]
    species = store.species[rows]
    desired = directions * params[species, P_MAX_SPEED][:, None] - store.velocities[rows]
    length = np.hypot(*desired.T)
    limit = params[species, P_MAX_FORCE]
    scale = np.where(length > limit, limit / np.where(length > 0.0, length, 1.0), 1.0)
    store.accelerations[rows] += desired * (weight * scale)[:, None] - recorded


def _world(nav: Navigator) -> World:
    """Whether the flock's world wraps, and its width and height."""
    config = nav.flock.config
    return config.wraps, config.width, config.height
