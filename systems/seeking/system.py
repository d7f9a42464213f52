"""The seeking stage: boids react to leaders, food, attractors, predator and prey entities."""

import math
from typing import Any

import esper
import numpy as np

from shoal.components import Attractor, Food, Leader, Predator, Prey
from shoal.systems.core.agents import AgentArrays, gather
from shoal.systems.core.ecs import entities_with
from shoal.systems.core.events import LEADER_LOST
from shoal.systems.core.processor import FlockProcessor
from shoal.systems.core.species_table import P_WANDER_RATE, P_WANDER_WEIGHT
from shoal.systems.core.step import Step
from shoal.systems.core.threads import run_chunks
from shoal.systems.seeking.kernel import seek_agents
from shoal.systems.seeking.pursuit_kernel import pursue_prey

# The wander angle is pulled back towards straight ahead with this time constant (s), so it
# drifts smoothly around the heading instead of walking off.
_WANDER_RETURN = 1.0


class SeekingSystem(FlockProcessor):
    """Stage 3: leader following, food and attractor seeking, fleeing predators, hunting prey,
    wander.

    Adds to the accelerations the steering stage wrote. Fires `LEADER_LOST` when a leader
    entity is deleted or loses its `Leader` component.

    Attributes:
        leaders, food, attractors, predators, prey: this step's agents (see `AgentArrays`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._leaders_seen: set[int] = set()
        table = self.flock.species
        self.leaders = self.food = self.attractors = self.predators = gather(Leader, table)
        self.prey = self.leaders

    def run(self, step: Step) -> None:
        """Adds to the store's accelerations; reads `step.dt` (wander drift)."""
        flock = self.flock
        table, store, config = flock.species, flock.store, flock.config
        self._report_lost_leaders()
        self.leaders = gather(Leader, table)
        self.food = gather(Food, table)
        self.attractors = gather(Attractor, table)
        self.predators = gather(Predator, table)
        self.prey = gather(Prey, table)
        if len(store) == 0 or not (self._any_agents() or self._wanders()):
            return
        self._drift_wander(step.dt)
        run_chunks(
            seek_agents, len(store), store.positions, store.velocities, store.species,
            table.params, config.wraps, config.width, config.height,
            self.leaders.positions, self.leaders.velocities, self.leaders.concerns,
            self.food.positions, self.food.radius, self.food.concerns,
            self.attractors.positions, self.attractors.radius, self.attractors.inner,
            self.attractors.weight, self.attractors.concerns,
            self.predators.positions, self.predators.velocities, self.predators.concerns,
            store.wander, store.accelerations, store.alarm,
        )  # fmt: skip
        if len(self.prey):
            run_chunks(
                pursue_prey, len(store), store.positions, store.velocities, store.species,
                table.params, store.cooldown, config.wraps, config.width, config.height,
                self.prey.positions, self.prey.velocities, self.prey.concerns, store.accelerations,
            )  # fmt: skip

    def _any_agents(self) -> bool:
        kinds: tuple[AgentArrays, ...] = (
            self.leaders, self.food, self.attractors, self.predators, self.prey,
        )  # fmt: skip
        return any(len(kind) for kind in kinds)

    def _wanders(self) -> bool:
        return bool(np.any(self.flock.species.params[:, P_WANDER_WEIGHT] > 0))

    def _drift_wander(self, dt: float) -> None:
        """Move each wandering boid's wander angle: a smooth, seeded random drift."""
        if not self._wanders():
            return
        store, params = self.flock.store, self.flock.species.params
        rate = params[store.species, P_WANDER_RATE]
        noise = self.flock.rng.standard_normal(len(store))
        store.wander[:] += -store.wander * (dt / _WANDER_RETURN) + rate * math.sqrt(dt) * noise

    def _report_lost_leaders(self) -> None:
        alive = entities_with(Leader)
        if alive == self._leaders_seen:
            return
        for entity in sorted(self._leaders_seen - alive):
            esper.dispatch_event(LEADER_LOST, entity)
        self._leaders_seen = set(alive)
