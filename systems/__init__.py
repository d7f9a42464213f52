"""shoal's systems: the flock store, its processors, the install call and metrics.

Quick use::

    import esper
    from shoal.components import Species
    from shoal.systems import FlockConfig, install

    flock = install(FlockConfig(width=800, height=600), [Species("fish")])
    flock.scatter("fish", 500)
    esper.process(1 / 60)          # in arcade: from on_fixed_update(delta_time)
"""

from shoal.systems.collision import CollisionSystem
from shoal.systems.config import MAX_DT, MIN_DT, FlockConfig
from shoal.systems.events import BOID_EATEN, BOIDS_SPAWNED, FOOD_BITTEN, FOOD_EATEN, LEADER_LOST
from shoal.systems.flock import MAX_BOIDS, Flock
from shoal.systems.install import (
    COLLISION_PRIORITY,
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
from shoal.systems.lifecycle import LifecycleSystem
from shoal.systems.motion import MotionSystem
from shoal.systems.neighbours import Neighbours, NeighbourSystem
from shoal.systems.obstacle_field import (
    ObstacleField,
    compile_field,
    inside_obstacle,
    obstacle_field,
    refresh_obstacles,
)
from shoal.systems.obstacles import ObstacleSystem
from shoal.systems.seeking import SeekingSystem
from shoal.systems.species_table import RELATIONS
from shoal.systems.steering import SteeringSystem
from shoal.systems.warmup import warm_up

__all__ = [
    "BOIDS_SPAWNED",
    "BOID_EATEN",
    "COLLISION_PRIORITY",
    "FOOD_BITTEN",
    "FOOD_EATEN",
    "LEADER_LOST",
    "LIFECYCLE_PRIORITY",
    "MAX_BOIDS",
    "MAX_DT",
    "MIN_DT",
    "MOTION_PRIORITY",
    "NEIGHBOURS_PRIORITY",
    "OBSTACLES_PRIORITY",
    "RELATIONS",
    "RENDER_PRIORITY",
    "SEEKING_PRIORITY",
    "STAGES",
    "STEERING_PRIORITY",
    "CollisionSystem",
    "Flock",
    "FlockConfig",
    "LifecycleSystem",
    "MotionSystem",
    "NeighbourSystem",
    "Neighbours",
    "ObstacleField",
    "ObstacleSystem",
    "SeekingSystem",
    "SteeringSystem",
    "compile_field",
    "inside_obstacle",
    "install",
    "obstacle_field",
    "refresh_obstacles",
    "uninstall",
    "warm_up",
]
