"""The steering stage: separation, alignment and cohesion become accelerations."""

from typing import Any

from shoal.systems.processor import FlockProcessor
from shoal.systems.steering_kernel import steer


class SteeringSystem(FlockProcessor):
    """Stage 2: write each boid's flocking acceleration into the store."""

    def process(self, *args: Any, **kwargs: Any) -> None:
        """Steer every boid from the neighbours found this step."""
        flock = self.flock
        store, nb, table = flock.store, flock.neighbours, flock.species
        if len(store) == 0 or len(nb) != len(store):
            return
        steer(
            nb.slot_velocities,
            nb.slot_species,
            nb.order,
            table.params,
            table.relations,
            nb.start,
            nb.stop,
            nb.slots,
            nb.dx,
            nb.dy,
            nb.dist,
            self.step_length(args),
            store.accelerations,
        )
