"""The lifecycle stage: catches, bites, eaten food, caught prey, moving food, rest after eating."""

from typing import Any

import esper
import numpy as np

from shoal.components import Food, Position, Predator, Prey, Velocity
from shoal.systems.core.events import BOID_EATEN, FOOD_BITTEN, FOOD_EATEN, PREY_CAUGHT
from shoal.systems.core.grid import Grid, query_rows
from shoal.systems.core.species_table import (
    P_CATCH_COOLDOWN,
    P_CATCH_RADIUS,
    P_CHASE_WEIGHT,
    RELATION_CHASE,
)
from shoal.systems.core.step import Step
from shoal.systems.core.store import BoolArray, FloatArray, IntArray
from shoal.systems.flock.agents import AgentArrays, gather
from shoal.systems.flock.ecs import any_entities_with
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.lifecycle.kernel import (
    boids_near,
    cool_down,
    find_catches,
    reached_by,
)


class LifecycleSystem(FlockProcessor):
    """Stage 6: boids caught by hunters and predators, food bitten and eaten, prey caught,
    food moved.

    Runs after motion (and collisions), so catches and bites use where boids ended the step.
    Fires `BOID_EATEN`, `FOOD_BITTEN`, `FOOD_EATEN` and `PREY_CAUGHT` once eaten boids are
    despawned and eaten food deleted. O(1) Python work per step plus per catch, per bite and
    per agent.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._events: list[tuple[str, tuple[Any, ...]]] = []

    def run(self, step: Step) -> None:
        """Reads `step.dt` and `step.targets`; removes caught boids and eaten food."""
        dt = step.dt
        store = self.flock.store
        cool_down(store.cooldown, dt)
        # Events wait until the flock is done changing: a handler may spawn or despawn boids,
        # which moves rows.
        self._events = []
        if not (any_entities_with(_AGENTS) or _hunts(self.flock.species.relations)):
            return  # nothing to catch, bite or move (a small flock's step: ~1 µs, not ~4)
        eaten: list[int] = []
        if len(store):
            eaten += self._boid_catches(step)
            eaten += self._predator_catches(dt, set(eaten))
            self._bites(set(eaten))
            self._prey_caught(set(eaten))
        self._move_food(dt)
        if eaten:
            self.flock.despawn(store.entities[np.asarray(eaten, np.int64)].copy())
        for name, event_args in self._events:
            esper.dispatch_event(name, *event_args)

    # --- catches ------------------------------------------------------------------------
    def _boid_catches(self, step: Step) -> list[int]:
        """Rows caught by hunting boids (their chase targets from the steering stage)."""
        flock, store = self.flock, self.flock.store
        if step.layout != store.layout or len(step.targets) != len(store):
            return []  # rows changed since steering chose its targets: none this step
        if not _hunts(flock.species.relations):
            return []
        config = flock.config
        hunters, prey = find_catches(
            store.positions,
            store.species,
            flock.species.params,
            store.cooldown,
            step.targets,
            config.wraps,
            config.width,
            config.height,
        )
        for hunter, victim in zip(hunters.tolist(), prey.tolist(), strict=True):
            store.cooldown[hunter] = flock.species.params[store.species[hunter], P_CATCH_COOLDOWN]
            self._report_catch(victim, int(store.entities[hunter]))
        return list(prey.tolist())

    def _predator_catches(self, dt: float, taken: set[int]) -> list[int]:
        """Rows caught by Predator entities: the nearest prey in reach of each rested one."""
        caught: list[int] = []
        predators = gather(Predator, self.flock.species)
        for k, entity in enumerate(predators.entities.tolist()):
            predator = esper.component_for_entity(entity, Predator)
            if predator.resting > 0.0:
                predator.resting = max(0.0, predator.resting - dt)
                continue
            rows = self._reachable(predators, k, predators.radius[k], taken)
            if len(rows):
                victim = int(rows[0])
                taken.add(victim)
                caught.append(victim)
                predator.resting = predator.cooldown
                self._report_catch(victim, entity)
        return caught

    def _report_catch(self, row: int, hunter: int) -> None:
        x, y = self.flock.store.positions[row]
        self._events.append((BOID_EATEN, (int(self.flock.store.entities[row]), hunter, x, y)))

    def _prey_caught(self, taken: set[int]) -> None:
        """Each `Prey` entity is caught by its nearest rested hunter within reach (at most one
        catch per prey and step); the hunter rests, the prey stays."""
        flock, store = self.flock, self.flock.store
        params = flock.species.params
        prey = gather(Prey, flock.species)
        if len(prey) == 0:
            return
        reach = np.where(params[:, P_CHASE_WEIGHT] > 0.0, params[:, P_CATCH_RADIUS], -np.inf)
        farthest, caught = float(reach.max(initial=0.0)), self._caught(taken)
        one_each = np.ones(len(prey), np.int64)
        entities = prey.entities.tolist()
        for k, row in self._reached(prey, one_each, reach, farthest, caught):
            x, y = prey.positions[k]
            self._events.append((PREY_CAUGHT, (entities[k], int(store.entities[row]), x, y)))

    # --- food ---------------------------------------------------------------------------
    def _bites(self, taken: set[int]) -> None:
        """Each rested boid in reach of food bites it, nearest first, while bites are left."""
        flock, store = self.flock, self.flock.store
        food = gather(Food, flock.species)
        if len(food) == 0:
            return
        params = flock.species.params
        reach = params[:, P_CATCH_RADIUS]
        # A grid query per pellet cost ~20 µs: 5,000 pellets took 60 ms a step. Only those
        # with a boid perhaps in reach are asked.
        farthest, caught = float(reach.max()), self._caught(taken)
        near = maybe_reached(flock.grid, food.positions, food.radius + farthest)
        entities = food.entities.tolist()
        items = [esper.component_for_entity(entity, Food) for entity in entities]
        left = np.array(
            [max(item.bites, 0) if near[k] else 0 for k, item in enumerate(items)], np.int64
        )
        bitten = iter(self._reached(food, left, reach, farthest, caught))
        bite = next(bitten, None)
        for k, (entity, item) in enumerate(zip(entities, items, strict=True)):
            while bite is not None and bite[0] == k:  # its bites, in the order they happened
                item.bites -= 1
                self._events.append(
                    (FOOD_BITTEN, (entity, int(store.entities[bite[1]]), item.bites))
                )
                bite = next(bitten, None)
            if item.bites == 0:
                self._events.append((FOOD_EATEN, (entity,)))
                esper.delete_entity(entity)

    def _caught(self, taken: set[int]) -> BoolArray:
        """The rows in `taken` (caught this step) as a mask over the store's rows."""
        caught = np.zeros(len(self.flock.store), np.bool_)
        caught[list(taken)] = True
        return caught

    def _reached(
        self,
        agents: AgentArrays,
        left: IntArray,
        reach: FloatArray,
        farthest: float,
        caught: BoolArray,
    ) -> list[tuple[int, int]]:
        """(agent, row) of each boid that reaches an agent (food it bites, prey it catches)
        this step, agent by agent, nearest first (ties: the lower row), at most `left[k]` for
        agent k (0: not asked): of a species it concerns, not `caught`, rested, within its
        radius plus their species' `reach` (-inf: that species never reaches it; `farthest`
        is the largest reach, or 0). Each of them rests from now (its species' catch
        cooldown)."""
        flock, store = self.flock, self.flock.store
        grid, params = flock.grid, flock.species.params
        targets = (agents.positions, agents.radius, agents.concerns, left)
        boids = (store.positions, store.species, caught, store.cooldown, reach)
        rest = params[:, P_CATCH_COOLDOWN].copy()
        cells = (grid.order, grid.cell_start, grid.frame)
        found, rows = reached_by(targets, boids, farthest, rest, cells)
        return list(zip(found.tolist(), rows.tolist(), strict=True))

    def _move_food(self, dt: float) -> None:
        """Food with a Velocity drifts (sinks); in a walled tank it settles on the floor."""
        config = self.flock.config
        left, right, bottom, top = config.bounds
        for entity, (_, position, velocity) in esper.get_components(Food, Position, Velocity):
            x, y = position.x + velocity.x * dt, position.y + velocity.y * dt
            if config.wraps:
                x, y = left + (x - left) % config.width, bottom + (y - bottom) % config.height
            else:
                radius = esper.component_for_entity(entity, Food).radius
                if y <= bottom + radius:  # on the floor: stop
                    y = bottom + radius
                    velocity.xy = (0.0, 0.0)
                x = min(max(x, left), right)
                y = min(y, top)
            position.xy = (x, y)

    # --- helpers ------------------------------------------------------------------------
    def _reachable(self, agents: AgentArrays, k: int, radius: float, taken: set[int]) -> IntArray:
        """Rows within `radius` of agent k, of species it concerns, not taken: nearest first."""
        flock, store = self.flock, self.flock.store
        x, y = agents.positions[k]
        rows = query_rows(flock.grid, store.positions, x, y, radius)
        rows = rows[agents.concerns[k, store.species[rows]]]
        if taken:
            rows = rows[~np.isin(rows, list(taken))]
        offsets = self._offsets(agents, k, rows)
        nearest_first: IntArray = rows[np.lexsort((rows, np.hypot(offsets[:, 0], offsets[:, 1])))]
        return nearest_first

    def _offsets(self, agents: AgentArrays, k: int, rows: IntArray) -> Any:
        """Offsets from agent k to the boids in `rows` (minimal image on a torus)."""
        config = self.flock.config
        d = self.flock.store.positions[rows] - agents.positions[k]
        if config.wraps:
            size = np.array([config.width, config.height])
            d = d - size * np.floor(d * (1.0 / size) + 0.5)
        return d


_AGENTS: frozenset[type[Any]] = frozenset((Food, Predator, Prey))
"""The kinds of entity this stage acts on: food bitten, predators that catch, prey caught."""


def _hunts(relations: IntArray) -> bool:
    """Whether some species chases another (else no boid has a target to catch). A Python
    scan of the few species' relations: cheaper than a numpy reduction, ~0.5 against ~2 µs."""
    return any(RELATION_CHASE in row for row in relations.tolist())


def maybe_reached(grid: Grid, points: FloatArray, reach: FloatArray) -> BoolArray:
    """Which of `points` may have a boid of `grid` within its `reach`: False only where no
    boid can be (no boid in the box of cells around the point's reach, counted at once for
    every point with a summed-area table of the cells' counts)."""
    if len(points) == 0:
        return np.zeros(0, bool)
    points = np.ascontiguousarray(points, np.float64)
    reach = np.ascontiguousarray(reach, np.float64)
    return boids_near(grid.cell_start, grid.frame, points, reach)
