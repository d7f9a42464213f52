"""The obstacle stage: chasing and fleeing round obstacles, and look-ahead avoidance."""

from typing import TYPE_CHECKING

from shoal.components import arguments as check
from shoal.systems.core.step import Step
from shoal.systems.core.threads import LIGHT_NATIVE_MIN_ROWS, run_chunks
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.obstacles.avoid_kernel import avoid, avoid_chunks
from shoal.systems.obstacles.field import no_obstacles, obstacle_field
from shoal.systems.obstacles.goals import reaim_goals
from shoal.systems.obstacles.navigation import navigator
from shoal.systems.obstacles.room import free_room

if TYPE_CHECKING:
    from shoal.systems.flock.flock import Flock

BODY_MARGIN = 8.0
"""Default clearance a boid keeps from obstacles (px): about half a default fish's height."""


class ObstacleSystem(FlockProcessor):
    """Stage 4: chase and flee round obstacles; add each boid's obstacle avoidance.

    First, navigation: a chase or a flight (recorded by the steering and seeking stages in
    `Step.goals`) whose straight way is blocked is turned along the way round
    (`shoal.systems.obstacles.goals`); leaders, food and attractors are already sought
    round obstacles by the seeking stage, from the same flock's `Navigator`.

    A boid looks `look_ahead` seconds of travel ahead (species parameter) plus its body
    margin; if a disc of the margin swept along that path would touch an obstacle, it steers
    sideways away from the surface, harder the nearer the contact (Reynolds' obstacle
    avoidance: a smooth turn, never a bounce). The steering is at most the species'
    `max_force` (if unlimited: max_speed² / look-ahead distance) and is weighted by
    `obstacle_weight`. Obstacles are entities with an `Obstacle` component in the flock's
    world (see `shoal.systems.obstacles.field`).

    Args:
        flock: the flock to steer.
        margin: the clearance each boid tries to keep from obstacles (px, >= 0).
    """

    def __init__(self, flock: "Flock", margin: float = BODY_MARGIN) -> None:
        super().__init__(flock)
        self.margin = check.number("ObstacleSystem", "margin", margin, low=0.0)
        # Core may not import this stage: the stage tells the flock where free room is, so
        # that `Flock.scatter` places no boid inside an obstacle or behind a wall.
        flock.free_space = free_room

    def run(self, step: Step) -> None:
        """Adds to the store's accelerations (from positions, velocities, `step.goals` and
        `step.targets`)."""
        flock = self.flock
        store = flock.store
        if len(store) == 0 or no_obstacles(flock):
            return
        field = obstacle_field(flock)
        if len(field) == 0:
            return
        reaim_goals(navigator(flock), step, self.margin)
        boids = (store.positions, store.velocities, store.species, store.accelerations)
        records = (boids, flock.species.params, field.geometry, self.margin)
        run_chunks(
            avoid, len(store), *records, native=avoid_chunks, native_min_rows=LIGHT_NATIVE_MIN_ROWS
        )
