"""Gather the entities boids react to (leaders, food, attractors, predators, prey) into arrays.

There are few of them (tens, not thousands), so this is one Python pass over them per step;
the per-boid work happens in the seeking kernel.
"""

from dataclasses import dataclass
from typing import Any

import esper
import numpy as np

from shoal.components import Attractor, Food, Leader, Position, Predator, Prey, Velocity
from shoal.systems.core.maths import slowing_before
from shoal.systems.core.species_table import SpeciesTable
from shoal.systems.core.store import BoolArray, FloatArray, IntArray
from shoal.systems.flock.ecs import entities_with


@dataclass(frozen=True, slots=True)
class AgentArrays:
    """One kind of agent as arrays: entity, position, velocity, size, species mask.

    `concerns[k, s]` is True when agent k concerns species s. `radius` and `inner` are the
    agent's own sizes (food: radius and 0; attractor: radius and dead radius; predator: catch
    radius; prey: radius; otherwise 0).
    `weight` is the attractor weight (1 for the others). `slowing`: how far short of its
    edge (food's radius, an attractor's dead radius) a boid coming to it starts to slow
    down (0: it does not; see `Attractor.arrive`).
    """

    entities: IntArray
    positions: FloatArray
    velocities: FloatArray
    radius: FloatArray
    inner: FloatArray
    weight: FloatArray
    slowing: FloatArray
    concerns: BoolArray

    def __len__(self) -> int:
        return len(self.entities)


def gather(kind: type[Any], table: SpeciesTable) -> AgentArrays:
    """Every entity of the current world with a `kind` component and a Position, by entity."""
    if not entities_with(kind):  # most scenes lack most kinds, and every stage asks each step
        return _none(len(table))
    found = sorted(esper.get_components(kind, Position), key=_entity)
    if not found:
        return _none(len(table))
    # Built as lists, then one array each, in as few numpy calls as can be: each costs
    # 5-20 µs within a step (its code and data out of the caches after the kernels; 20
    # pellets took 125 µs a call with 11 of them), against ~1 µs in a loop of its own.
    # No finiteness test: Position and Velocity refuse a non-finite value on every write.
    ids: list[int] = []
    xy: list[tuple[float, float]] = []
    moving: list[tuple[float, float]] = []
    sizes: list[tuple[float, float, float, float]] = []
    rows: list[BoolArray] = []
    masks: dict[tuple[str, ...], BoolArray] = {}  # most agents name the same species
    for entity, (agent, position) in found:
        ids.append(entity)
        xy.append(position.xy)
        velocity = esper.try_component(entity, Velocity)
        moving.append(_STILL if velocity is None else velocity.xy)
        sizes.append(_sizes(agent))
        names = agent.prey if isinstance(agent, Predator) else agent.species
        mask = masks.get(names)
        if mask is None:
            mask = masks[names] = _mask(agent, entity, table)
        rows.append(mask)
    entities = np.array(ids, np.int64)
    positions = np.array(xy, np.float64)
    velocities = np.array(moving, np.float64)
    radius, inner, weight, slowing = np.array(sizes, np.float64).T.copy()  # rows: contiguous
    concerns = np.array(rows, bool)
    return AgentArrays(entities, positions, velocities, radius, inner, weight, slowing, concerns)


def _entity(item: tuple[int, Any]) -> int:
    """The entity of an (entity, components) pair: esper's order is not the entities'."""
    return item[0]


_STILL = (0.0, 0.0)


def _none(species: int) -> AgentArrays:
    """No agents, for a table of `species` species (one shared, empty: nothing to write)."""
    none = _NONE.get(species)
    if none is None:
        ints, floats, vectors = np.zeros(0, np.int64), np.zeros(0), np.zeros((0, 2))
        concerns = np.zeros((0, max(species, 1)), bool)
        none = _NONE[species] = AgentArrays(ints, vectors, vectors, floats, floats, floats,
                                            floats, concerns)  # fmt: skip
    return none


_NONE: dict[int, AgentArrays] = {}


def _sizes(agent: object) -> tuple[float, float, float, float]:
    """An agent's radius, inner radius, weight and slowing distance (see `AgentArrays`)."""
    # float(): a whole-number radius (a game's `Food(radius=6)`) would otherwise compile
    # and load a second signature of `slowing_before`, on the frame that first meets it.
    if isinstance(agent, Food):
        return agent.radius, 0.0, 1.0, slowing_before(float(agent.radius))
    if isinstance(agent, Attractor):
        slowing = slowing_before(float(agent.dead_radius)) if agent.arrive else 0.0
        return agent.radius, agent.dead_radius, agent.weight, slowing
    if isinstance(agent, Predator):
        return agent.catch_radius, 0.0, 1.0, 0.0
    if isinstance(agent, Prey):
        return agent.radius, 0.0, 1.0, 0.0
    return 0.0, 0.0, 1.0, 0.0


def _mask(
    agent: Leader | Food | Attractor | Predator | Prey, entity: int, table: SpeciesTable
) -> BoolArray:
    names = agent.prey if isinstance(agent, Predator) else agent.species
    mask = np.zeros(max(len(table), 1), bool)
    if not names:
        mask[:] = True
        return mask
    for name in names:
        if name not in table:
            raise ValueError(
                f"{type(agent).__name__} of entity {entity} names unknown species {name!r}; "
                f"known: {table.names}"
            )
        mask[table.index(name)] = True
    return mask
