"""The hard guarantee, as one assertion shared by the obstacle and the chaos tests."""

import numpy as np

from shoal.systems import Flock, ObstacleField, inside_obstacle


def assert_clear(flock: Flock, field: ObstacleField) -> None:
    """No boid inside an obstacle, every number finite, every boid in the world."""
    pos, vel = flock.positions, flock.velocities
    assert np.all(np.isfinite(pos)) and np.all(np.isfinite(vel))
    stuck = inside_obstacle(field, pos)
    assert not stuck.any(), f"{stuck.sum()} boids inside, e.g. {pos[stuck][:3]}"
    if flock.config.boundary == "wrap":
        assert np.all((pos >= 0) & (pos < (flock.config.width, flock.config.height)))
    else:
        assert np.all((pos >= 0) & (pos <= (flock.config.width, flock.config.height)))
