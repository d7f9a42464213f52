"""The collision stage: the hard guarantee that no boid ends a step inside an obstacle."""

import numpy as np

from shoal.components.species import BOUNDARY_MODES
from shoal.systems.collision.kernel import push_out, push_out_chunks
from shoal.systems.core.step import Step
from shoal.systems.core.threads import LIGHT_NATIVE_MIN_ROWS, run_chunks
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.obstacles.field import no_obstacles, obstacle_field


class CollisionSystem(FlockProcessor):
    """Stage 5b (after motion): stop every boid whose move entered an obstacle, and push
    every boid that is inside an obstacle back out.

    A boid whose move this step (from where it was when the step began to where it is now)
    entered an obstacle stops a hair before it, whatever the speed and dt: a wall thinner
    than one step is met, not jumped; the rest of its move slides along the surface (up to
    the next surface), so that a boid pressed on a wall still swims along it. A boid inside
    (or on the edge of) an obstacle goes to the nearest point just outside it (outside every
    obstacle, and inside the world: clamped to the tank in ``contain`` and ``bounce``,
    wrapped in ``wrap``), and loses the part of its velocity that points into the surface;
    its speed is kept within the species' [min_speed, max_speed] by turning it, not slowing
    it. In a concave corner (a plant standing on the floor), where the way along either face
    leads into the other, it turns along the face that leads out. Boids spawned inside an
    obstacle come out at their first step. Only a world with no free room at all can leave a
    boid inside.

    Attributes:
        pushed: how many boids the last step pushed out (obstacle avoidance keeps this near 0).
    """

    pushed: int = 0

    def run(self, step: Step) -> None:
        """Moves the boids that entered an obstacle this step, or ended inside one, out of
        it (reads `step.start`)."""
        flock = self.flock
        store, config = flock.store, flock.config
        self.pushed = 0
        if len(store) == 0 or no_obstacles(flock):
            return
        field = obstacle_field(flock)
        if len(field) == 0:
            return
        free = field.free if field.free is not None else np.zeros((0, 2))
        start = step.start if step.layout == store.layout else np.zeros((0, 2))
        boids = (store.positions, store.velocities, store.species)
        boundary = BOUNDARY_MODES.index(config.boundary)
        left, bottom = float(config.left), float(config.bottom)
        world = (boundary, float(config.width), float(config.height), left, bottom)
        records = (boids, flock.species.params, field.geometry, free, start, world)
        n = len(store)
        moved = run_chunks(
            push_out, n, *records, native=push_out_chunks, native_min_rows=LIGHT_NATIVE_MIN_ROWS
        )
        self.pushed = sum(moved)
        if self.pushed:
            store.version += 1
