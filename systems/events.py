"""Moved to `shoal.systems.core.events`; this alias keeps older imports working."""

from shoal.systems.core.events import (
    BOID_EATEN,
    BOIDS_SPAWNED,
    EVENTS,
    FOOD_BITTEN,
    FOOD_EATEN,
    LEADER_LOST,
)

__all__ = ["BOIDS_SPAWNED", "BOID_EATEN", "EVENTS", "FOOD_BITTEN", "FOOD_EATEN", "LEADER_LOST"]
