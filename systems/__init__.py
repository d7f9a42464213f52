"""shoal's systems: the flock store, its processors, the install call and metrics.

Quick use::

    import esper
    from shoal.components import Species
    from shoal.systems import FlockConfig, install

    flock = install(FlockConfig(width=800, height=600), [Species("fish")])
    flock.scatter("fish", 500)
    esper.process(1 / 60)          # in arcade: from on_fixed_update(delta_time)
"""

from shoal.systems.config import FlockConfig
from shoal.systems.flock import MAX_BOIDS, Flock
from shoal.systems.install import (
    LIFECYCLE_PRIORITY,
    MOTION_PRIORITY,
    NEIGHBOURS_PRIORITY,
    OBSTACLES_PRIORITY,
    RENDER_PRIORITY,
    SEEKING_PRIORITY,
    STAGES,
    STEERING_PRIORITY,
    install,
    uninstall,
)
from shoal.systems.motion import MotionSystem
from shoal.systems.neighbours import Neighbours, NeighbourSystem
from shoal.systems.steering import SteeringSystem
from shoal.systems.warmup import warm_up

__all__ = [
    "LIFECYCLE_PRIORITY",
    "MAX_BOIDS",
    "MOTION_PRIORITY",
    "NEIGHBOURS_PRIORITY",
    "OBSTACLES_PRIORITY",
    "RENDER_PRIORITY",
    "SEEKING_PRIORITY",
    "STAGES",
    "STEERING_PRIORITY",
    "Flock",
    "FlockConfig",
    "MotionSystem",
    "NeighbourSystem",
    "Neighbours",
    "SteeringSystem",
    "install",
    "uninstall",
    "warm_up",
]
