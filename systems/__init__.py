"""shoal's systems: the flock store, its processors, the install call and metrics.

Quick use::

    import esper
    from shoal.components import Species
    from shoal.systems import FlockConfig, install

    flock = install(FlockConfig(width=800, height=600), [Species("fish")])
    flock.scatter("fish", 500)
    esper.process(1 / 60)          # in arcade: from on_fixed_update(delta_time)
"""

from shoal.systems.collision.system import CollisionSystem

# Where numba caches shoal's kernels: registered on import, for every kernel of shoal's
# modules, those imported before it too (the order of these imports does not matter).
from shoal.systems.core import kernel_cache  # noqa: F401
from shoal.systems.core.config import MAX_BOIDS, MAX_DT, MIN_DT, FlockConfig
from shoal.systems.core.events import (
    BOID_EATEN,
    BOIDS_SPAWNED,
    FOOD_BITTEN,
    FOOD_EATEN,
    LEADER_LOST,
    PREY_CAUGHT,
)
from shoal.systems.core.species_table import RELATIONS
from shoal.systems.core.step import Neighbours, Step
from shoal.systems.core.threads import set_threads, threads
from shoal.systems.flock.flock import Flock
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
    installed_flock,
    uninstall,
)
from shoal.systems.lifecycle.system import LifecycleSystem
from shoal.systems.motion.system import MotionSystem
from shoal.systems.neighbours.system import NeighbourSystem
from shoal.systems.obstacles.field import (
    ObstacleField,
    compile_field,
    inside_obstacle,
    obstacle_field,
    refresh_obstacles,
)
from shoal.systems.obstacles.from_scene import add_obstacles, obstacle_shapes, remove_obstacles
from shoal.systems.obstacles.navigation import NavigationWarning, Navigator, Way, navigator
from shoal.systems.obstacles.system import ObstacleSystem
from shoal.systems.saving import (
    SaveError,
    load,
    read_snapshot,
    restore,
    save,
    snapshot,
    write_snapshot,
)
from shoal.systems.seeking.system import SeekingSystem
from shoal.systems.steering.system import SteeringSystem
from shoal.systems.warmup import Preparation, prepare, warm_up

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
    "PREY_CAUGHT",
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
    "NavigationWarning",
    "Navigator",
    "NeighbourSystem",
    "Neighbours",
    "ObstacleField",
    "ObstacleSystem",
    "Preparation",
    "SaveError",
    "SeekingSystem",
    "SteeringSystem",
    "Step",
    "Way",
    "add_obstacles",
    "compile_field",
    "inside_obstacle",
    "install",
    "installed_flock",
    "load",
    "navigator",
    "obstacle_field",
    "obstacle_shapes",
    "prepare",
    "read_snapshot",
    "refresh_obstacles",
    "remove_obstacles",
    "restore",
    "save",
    "set_threads",
    "snapshot",
    "threads",
    "uninstall",
    "warm_up",
    "write_snapshot",
]
