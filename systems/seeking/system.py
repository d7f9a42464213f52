"""The seeking stage: boids react to leaders, food, attractors, predator and prey entities,
and the world's current pushes them."""

import math
from typing import Any

import esper
import numpy as np

from shoal.components import Attractor, Food, Leader, Predator, Prey
from shoal.systems.core.events import LEADER_LOST
from shoal.systems.core.species_table import (
    P_CHASE_WEIGHT,
    P_FOOD_RANGE,
    P_FOOD_WEIGHT,
    P_LEADER_WEIGHT,
    P_REJOIN_WEIGHT,
    P_WANDER_RATE,
    P_WANDER_WEIGHT,
    any_positive,
)
from shoal.systems.core.step import Step
from shoal.systems.core.store import BoolArray, FloatArray, IntArray
from shoal.systems.core.threads import LIGHT_NATIVE_MIN_ROWS, run_chunks
from shoal.systems.flock.agents import AgentArrays, gather
from shoal.systems.flock.ecs import any_entities_with, entities_with
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.obstacles.nav_grid import NavGrid
from shoal.systems.obstacles.navigation import Navigator, navigator
from shoal.systems.seeking.current import add_current
from shoal.systems.seeking.kernel import Agents, seek_agents, seek_chunks
from shoal.systems.seeking.pursuit_kernel import pursue_prey
from shoal.systems.seeking.rejoin import add_rejoining

# The wander angle is pulled back towards straight ahead with this time constant (s), so it
# drifts round the heading instead of walking off.
_WANDER_RETURN = 1.0
# The angle drifts at a rate that is itself random, losing its memory with this time constant
# (s): the angle then changes smoothly. Drawn onto the angle itself (as it was), the random
# steps made the boid's turn change side 3 to 5 times a second in a calm school (benchmarks/
# natural.py); a real fish turns one way for a second or more.
_WANDER_DRIFT_MEMORY = 0.5


class SeekingSystem(FlockProcessor):
    """Stage 3: leader following, food and attractor seeking, fleeing predators, hunting prey,
    rejoining the schools of its species (`rejoin.py`), wander, the world's current
    (`Flock.current`, `current.py`).

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
        """Adds to the store's accelerations and to `step.goals` (flight from predator
        entities); reads `step.dt` (wander drift)."""
        flock = self.flock
        table, store = flock.species, flock.store
        self._report_lost_leaders()
        present = any_entities_with(_KINDS)
        if present:
            self.leaders = gather(Leader, table)
            self.food = gather(Food, table)
            self.attractors = gather(Attractor, table)
            self.predators = gather(Predator, table)
            self.prey = gather(Prey, table)
        else:  # none of any kind (most small scenes): one shared empty set for all
            self.leaders = self.food = self.attractors = self.predators = self.prey = gather(
                Leader, table
            )
        self._seek(step, present)
        add_current(flock.current, store.species, table.params, store.accelerations)

    def _seek(self, step: Step, present: bool) -> None:
        """Rejoining, the agents and wandering (see `run`; `present`: some entity of a kind
        of agent is in the world)."""
        flock = self.flock
        table, store, config = flock.species, flock.store, flock.config
        n = len(store)
        if n and self._rejoins():
            add_rejoining(
                store.positions - np.asarray(config.origin),
                store.species,
                table.params,
                store.alarm <= 0.0,
                (config.wraps, config.width, config.height),
                store.accelerations,
            )
        if n == 0 or not ((present and self._any_agents()) or self._wanders()):
            return
        self._drift_wander(step.dt)
        nav = navigator(flock)
        # Read once (each read checks the world's obstacles), and not while navigation is
        # off (a window would be moved for nothing): None where it is not `nav.active`.
        grid = nav.grid if nav.enabled else None
        if grid is not None and not len(grid.field):
            grid = None
        slots = self._field_slots(nav, grid)
        # The pool after the fields: building one may grow it.
        pool = nav.pool if grid is not None else np.zeros((0, 1, 1, 4), np.float32)
        cell = (1.0, 1.0, 0.0, 0.0) if grid is None else (grid.cell_w, grid.cell_h, *grid.origin)
        agents = [
            _agents(kind, slots)
            for kind, slots in zip(
                (self.leaders, self.food, self.attractors, self.predators),
                slots[:4],
                strict=True,
            )
        ]
        agents[0] = (*agents[0][:2], self._followers(), *agents[0][3:])
        order = step.cells.row if len(step.cells.row) == n else np.arange(n, dtype=np.int64)
        space = (config.wraps, config.width, config.height, pool, *cell)
        seekers = (
            order,
            store.positions,
            store.velocities,
            store.species,
            store.wander,
            store.burst,
            store.accelerations,
            store.alarm,
            step.goals_for(n),
        )
        records = (seekers, table.params, space, *agents)
        run_chunks(
            seek_agents, n, *records, native=seek_chunks, native_min_rows=LIGHT_NATIVE_MIN_ROWS
        )
        if len(self.prey):
            hunters = (
                store.positions,
                store.velocities,
                store.species,
                store.cooldown,
                store.accelerations,
            )
            prey = _agents(self.prey, slots[4])
            run_chunks(pursue_prey, n, hunters, table.params, space, prey)

    def _field_slots(self, nav: Navigator, grid: NavGrid | None) -> list[IntArray]:
        """Each agent's field slot (-1: none) for leaders, food, attractors, predators and
        prey (`grid`: the navigator's this step; None where it is not `active`).

        A leader's and a prey's field covers the whole world, or in a window (a big world)
        reaches every boid (followers and hunters far away come back round the obstacles);
        food and an attractor's reach twice as far as they can be sensed.
        """
        kinds = (self.leaders, self.food, self.attractors, self.predators, self.prey)
        slots = [np.full(len(kind), -1, np.int64) for kind in kinds]
        if grid is None:
            return slots
        params, present = self.flock.species.params, self._present()
        sense = 2.0 * float(params[present, P_FOOD_RANGE].max()) if present.any() else 0.0
        boids = None  # the cells of the boids, which a window's far-reaching fields reach
        if grid.window and (len(self.leaders) or len(self.prey)):
            boids = grid.reach_cells(self.flock.store.positions)
        for k, column, limits, until in (
            (0, P_LEADER_WEIGHT, math.inf, boids),
            (1, P_FOOD_WEIGHT, sense, None),
            (2, P_FOOD_WEIGHT, 2.0 * self.attractors.radius, None),
            (4, P_CHASE_WEIGHT, math.inf, boids),
        ):
            kind = kinds[k]
            if len(kind):  # most scenes lack most kinds: no arrays made for them
                wanted = self._wanted(kind, column, present)
                reach = np.broadcast_to(limits, (len(kind),))
                slots[k] = self._slots(nav, grid, kind, wanted, reach, until)
        return slots

    def _followers(self) -> FloatArray:
        """About how many boids follow each leader (the kernel reads it as the leader's
        radius, which leaders lack): those of the species it leads that follow leaders,
        each species' shared evenly among its leaders."""
        if not len(self.leaders):
            return self.leaders.radius
        table, store = self.flock.species, self.flock.store
        counts = np.bincount(store.species, minlength=len(table)).astype(np.float64)
        counts[table.params[:, P_LEADER_WEIGHT] <= 0.0] = 0.0
        concerns = self.leaders.concerns[:, : len(counts)]
        followers: FloatArray = concerns @ (counts / np.maximum(concerns.sum(axis=0), 1))
        return followers

    def _present(self) -> BoolArray:
        """Which species have boids now."""
        table, store = self.flock.species, self.flock.store
        counts: IntArray = np.bincount(store.species, minlength=len(table))
        return counts > 0

    def _wanted(self, kind: AgentArrays, column: int, present: BoolArray) -> BoolArray:
        """Agents that concern a species present whose weight in `column` is > 0."""
        active = present & (self.flock.species.params[:, column] > 0)
        return np.asarray(kind.concerns[:, : len(active)] @ active, bool)

    @staticmethod
    def _slots(
        nav: Navigator,
        grid: NavGrid,
        kind: AgentArrays,
        wanted: BoolArray,
        limits: FloatArray,
        until: IntArray | None = None,
    ) -> IntArray:
        slots = np.full(len(kind), -1, np.int64)
        wanted = wanted & (limits > 0.0)  # sensed from nowhere (a range of 0): no field
        if wanted.any():
            slots[wanted] = nav._seek_slots(grid, kind.positions[wanted], limits[wanted], until)
        return slots

    def _any_agents(self) -> bool:
        kinds: tuple[AgentArrays, ...] = (
            self.leaders,
            self.food,
            self.attractors,
            self.predators,
            self.prey,
        )
        return any(len(kind) for kind in kinds)

    def _rejoins(self) -> bool:
        return any_positive(self.flock.species.params, P_REJOIN_WEIGHT)

    def _wanders(self) -> bool:
        return any_positive(self.flock.species.params, P_WANDER_WEIGHT)

    def _drift_wander(self, dt: float) -> None:
        """Move each wandering boid's wander angle: a smooth, seeded random drift."""
        if not self._wanders():
            return
        store, params = self.flock.store, self.flock.species.params
        rate = params[store.species, P_WANDER_RATE]
        noise = self.flock.rng.standard_normal(len(store))
        # The drift: a random rate whose spread is wander_rate (rad/s) whatever dt
        # (Ornstein-Uhlenbeck); the angle follows it, pulled back towards the heading.
        memory = _WANDER_DRIFT_MEMORY
        drift = store.wander_drift
        drift += -drift * (dt / memory) + rate * math.sqrt(2.0 * dt / memory) * noise
        store.wander[:] += (drift - store.wander / _WANDER_RETURN) * dt

    def _report_lost_leaders(self) -> None:
        alive = entities_with(Leader)
        if alive == self._leaders_seen:
            return
        for entity in sorted(self._leaders_seen - alive):
            esper.dispatch_event(LEADER_LOST, entity)
        self._leaders_seen = set(alive)


_KINDS: frozenset[type[Any]] = frozenset((Leader, Food, Attractor, Predator, Prey))


def _agents(kind: AgentArrays, slots: IntArray) -> Agents:
    """One kind of agent as the kernel reads it (see `seek_agents`)."""
    return (
        kind.positions,
        kind.velocities,
        kind.radius,
        kind.inner,
        kind.weight,
        kind.slowing,
        kind.concerns,
        slots,
    )
