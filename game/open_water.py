"""Keeping the sharks in open water: a host processor that pushes them off the rocks.

The obstacle stage keeps every boid out of the rocks, but a shark chasing fish into a
crevice still presses against the rock, its long body drawn over it. This processor adds a
push away from the nearest rock to each shark inside a clearance band round the rocks,
growing as the shark goes deeper into the band. Sharks are few (a handful a level), so one
exact surface query a step for them costs microseconds.
"""

from typing import Any

import esper
import numpy as np

from shoal.systems import Flock, obstacle_field
from shoal.systems.obstacles.field import surface

CLEARANCE = 60.0
"""px: a shark this close to a rock's surface is pushed away from it (about half its length)."""
PUSH = 1500.0
"""px/s²: the push at the rock's surface (more than a shark's steering force, so it wins)."""


class OpenWaterSystem(esper.Processor):
    """Pushes the boids of one species away from rocks closer than `clearance` (px)."""

    def __init__(self, flock: Flock, species: str, clearance: float = CLEARANCE,
                 push: float = PUSH) -> None:  # fmt: skip
        self.flock = flock
        self.species = flock.species.index(species)
        self.clearance = clearance
        self.push = push

    def process(self, *args: Any) -> None:
        """Add this step's push to the accelerations (before the obstacle stage)."""
        field = obstacle_field(self.flock)
        store = self.flock.store
        rows = np.flatnonzero(store.species == self.species)
        if not len(field) or not len(rows):
            return
        near = surface(field, store.positions[rows])
        depth = 1.0 - near.distance / self.clearance  # 0 at the band's edge, 1 at the surface
        pushed = depth > 0.0
        store.accelerations[rows[pushed]] += (
            near.normals[pushed] * (self.push * np.minimum(depth[pushed], 2.0))[:, None]
        )
