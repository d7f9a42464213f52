"""The fish tank as a simulation: a level's world, the player's leader, the goal and score.

No arcade here: the tank runs and is tested without a window; `game/tank_view.py` draws it.
"""

import itertools
import math
from dataclasses import dataclass
from typing import Any

import esper
import numpy as np

from shoal.components import Food, Leader, Obstacle, Position, Species, Velocity
from shoal.game.leader_fish import LeaderState, patrol_point, swim_towards
from shoal.game.level import Level
from shoal.systems import (
    BOID_EATEN,
    FOOD_BITTEN,
    SEEKING_PRIORITY,
    Flock,
    FlockConfig,
    inside_obstacle,
    install,
    obstacle_field,
)
from shoal.systems.core.ecs import in_world
from shoal.systems.metrics import group_count, mean_nn_distance, milling, polarization
from shoal.systems.obstacles.field import surface

DT = 1.0 / 60.0
FISH = Species("fish", leader_weight=1.2, food_weight=2.0, fear_radius=120)
SHARK = Species(
    "shark", min_speed=40, max_speed=125, max_force=260, max_turn_rate=150,
    perception_radius=150, separation_radius=40, fov_degrees=300, catch_radius=12,
    catch_cooldown=4.0, wander_weight=0.8, wander_rate=1.0, leader_weight=0, food_weight=0,
)  # fmt: skip
DROPPED_FOOD = Food(bites=3, radius=6)
SINK_SPEED = 35.0  # px/s
POINTS_PER_BITE = 10
POINTS_PER_FISH = 5  # for each fish alive when the level is won

_worlds = itertools.count()


class CurrentSystem(esper.Processor):
    """A host processor: the level's water current pushes every boid (px/s²)."""

    def __init__(self, flock: Flock, current: tuple[float, float]) -> None:
        self.flock, self.current = flock, np.asarray(current, float)

    def process(self, *args: Any) -> None:
        """Add the current to this step's accelerations (after seeking, before obstacles)."""
        self.flock.store.accelerations[:] += self.current


@dataclass(frozen=True, slots=True)
class StatsRecord:
    """One simulated second of metrics (the --stats file has one per second)."""

    t: float
    fish: int
    polarization: float
    milling: float
    nn_distance: float | None  # None with fewer than two fish
    groups: int
    fish_eaten: int
    food_eaten: int
    outside: int
    inside_obstacles: int


class Tank:
    """One level being played: its flock, obstacles, food, sharks, leader, goal and score.

    Args:
        level: the level to build.
        seed: seed of everything random.
        fish: number of fish (None: the level's spawn counts), spread over its spawn points.
        species: the fish species (e.g. a preset applied to `FISH`).
        leader: False lets the school swim without a leader.
        autopilot: the leader follows a scripted path instead of the player's target.
    """

    def __init__(
        self,
        level: Level,
        *,
        seed: int = 0,
        fish: int | None = None,
        species: Species = FISH,
        leader: bool = True,
        autopilot: bool = False,
    ) -> None:
        self.level = level
        self.autopilot = autopilot
        self.world = f"tank-{next(_worlds)}"
        margin = min(40.0, level.width / 5, level.height / 5)
        config = FlockConfig(
            width=level.width, height=level.height, boundary=level.boundary, margin=margin,
            seed=seed,
        )  # fmt: skip
        self.flock = install(config, [species, SHARK], world=self.world)
        self.flock.relate("shark", "fish", "chase")
        self.flock.relate("fish", "shark", "flee")
        self.time = 0.0
        self.food_eaten = 0
        self.fish_eaten = 0
        self.status = "playing"
        self.leader: LeaderState | None = LeaderState(*level.leader) if leader else None
        self.target = level.leader
        self._leader_entity = -1
        self._populate(fish)
        self.flock.set_handler(FOOD_BITTEN, self._on_bite)
        self.flock.set_handler(BOID_EATEN, self._on_catch)

    # --- building ------------------------------------------------------------------------
    def _populate(self, fish: int | None) -> None:
        level, flock = self.level, self.flock
        with in_world(self.world):
            for obstacle in level.obstacles:
                esper.create_entity(Obstacle(obstacle.shape))
            for drop in level.food:
                esper.create_entity(Position(drop.x, drop.y), Food(drop.bites, drop.radius))
            if self.leader is not None:
                self._leader_entity = esper.create_entity(
                    Position(self.leader.x, self.leader.y), Velocity(), Leader(("fish",))
                )
            if any(level.current):
                esper.add_processor(CurrentSystem(flock, level.current), SEEKING_PRIORITY - 50)
        for spawn, count in zip(level.spawns, _spread(fish, level), strict=True):
            flock.scatter("fish" if spawn.species not in flock.species else spawn.species,
                          count, centre=(spawn.x, spawn.y), radius=spawn.radius)  # fmt: skip
        if level.sharks:
            flock.spawn("shark", np.asarray(level.sharks, float))

    def close(self) -> None:
        """Stop listening to the tank's events and delete its esper world."""
        self.flock.remove_handler(FOOD_BITTEN, self._on_bite)
        self.flock.remove_handler(BOID_EATEN, self._on_catch)
        if self.world in esper.list_worlds():
            if esper.current_world == self.world:
                esper.switch_world("default")
            esper.delete_world(self.world)

    # --- playing -------------------------------------------------------------------------
    def step(self, dt: float = DT) -> None:
        """Move the leader, then one fixed step of everything; check the goal."""
        if self.status != "playing":
            return
        self._move_leader(dt)
        self.flock.step(dt)
        self.time += dt
        self._check_goal()

    def drop_food(self, x: float, y: float) -> None:
        """Drop a pellet that sinks (a click in the game)."""
        with in_world(self.world):
            esper.create_entity(Position(x, y), Velocity(0.0, -SINK_SPEED),
                                Food(DROPPED_FOOD.bites, DROPPED_FOOD.radius))  # fmt: skip

    @property
    def fish(self) -> int:
        """Fish alive."""
        return int(np.count_nonzero(self.flock.store.species == self.flock.species.index("fish")))

    @property
    def score(self) -> int:
        """Points: bites eaten, plus fish alive once the level is won."""
        bonus = self.fish * POINTS_PER_FISH if self.status == "won" else 0
        return self.food_eaten * POINTS_PER_BITE + bonus

    def food_items(self) -> list[tuple[float, float, float]]:
        """(x, y, radius) of every food item (for drawing)."""
        with in_world(self.world):
            return [(p.x, p.y, f.radius) for _, (f, p) in esper.get_components(Food, Position)]

    # --- measuring -----------------------------------------------------------------------
    def stats(self) -> StatsRecord:
        """The metrics of the school now."""
        store, config = self.flock.store, self.flock.config
        fish = store.species == self.flock.species.index("fish")
        pos, vel = store.positions[fish], store.velocities[fish]
        wrap = (config.width, config.height) if config.wraps else None
        radius = self.flock.species["fish"].perception_radius
        outside = (pos < 0) | (pos > (config.width, config.height))
        inside = inside_obstacle(obstacle_field(self.flock), pos) if len(pos) else np.zeros(0)
        nn = mean_nn_distance(pos, wrap) if len(pos) > 1 else math.nan
        return StatsRecord(
            t=round(self.time, 3), fish=len(pos), polarization=polarization(vel),
            milling=milling(pos, vel) if len(pos) else 0.0,
            nn_distance=None if math.isnan(nn) else nn,
            groups=group_count(pos, radius, wrap) if len(pos) else 0,
            fish_eaten=self.fish_eaten, food_eaten=self.food_eaten,
            outside=int(np.count_nonzero(outside.any(axis=1))),
            inside_obstacles=int(np.count_nonzero(inside)),
        )  # fmt: skip

    # --- internals -----------------------------------------------------------------------
    def _move_leader(self, dt: float) -> None:
        if self.leader is None:
            return
        level = self.level
        target = patrol_point(self.time, level.width, level.height) if self.autopilot else (
            self.target)  # fmt: skip
        swim_towards(self.leader, target, dt)
        self._keep_leader_in_the_tank()
        with in_world(self.world):
            esper.component_for_entity(self._leader_entity, Position).xy = (
                self.leader.x, self.leader.y)  # fmt: skip
            esper.component_for_entity(self._leader_entity, Velocity).xy = self.leader.velocity

    def _keep_leader_in_the_tank(self) -> None:
        """The leader swims round rocks (pushed out of them) and stays in the tank."""
        leader, level = self.leader, self.level
        assert leader is not None
        if level.boundary == "wrap":
            leader.x %= level.width
            leader.y %= level.height
        else:
            leader.x = min(max(leader.x, 0.0), level.width)
            leader.y = min(max(leader.y, 0.0), level.height)
        field = obstacle_field(self.flock)
        if len(field) and inside_obstacle(field, [(leader.x, leader.y)])[0]:
            nearest = surface(field, [(leader.x, leader.y)])
            leader.x, leader.y = nearest.points[0] + nearest.normals[0] * 0.5

    def _check_goal(self) -> None:
        goal = self.level.goal
        if self.fish < goal.min_fish:
            self.status = "lost"
        elif self.food_eaten >= goal.food_to_eat:
            self.status = "won"
        elif goal.time_limit and self.time >= goal.time_limit:
            self.status = "lost"

    def _on_bite(self, food: int, boid: int, bites_left: int) -> None:
        self.food_eaten += 1

    def _on_catch(self, boid: int, hunter: int, x: float, y: float) -> None:
        self.fish_eaten += 1  # only fish are prey here


def _spread(fish: int | None, level: Level) -> list[int]:
    """Fish per spawn point: the level's counts, or `fish` shared out in their proportions."""
    counts = [spawn.count for spawn in level.spawns]
    if fish is None or not counts:
        return counts
    total = sum(counts) or 1
    shares = [fish * count // total for count in counts]
    shares[0] += fish - sum(shares)
    return shares
