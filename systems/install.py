"""install(): put shoal's processors into an esper world, in order (a plugin, Bevy-style)."""

from collections.abc import Iterable

import esper

from shoal.components import Species
from shoal.components import arguments as check
from shoal.systems.collision.system import CollisionSystem
from shoal.systems.core.config import FlockConfig
from shoal.systems.core.ecs import in_world
from shoal.systems.core.flock import Flock
from shoal.systems.core.flock_arguments import checked_species
from shoal.systems.core.processor import FlockProcessor
from shoal.systems.lifecycle.system import LifecycleSystem
from shoal.systems.motion.system import MotionSystem
from shoal.systems.neighbours.system import NeighbourSystem
from shoal.systems.obstacles.system import ObstacleSystem
from shoal.systems.seeking.system import SeekingSystem
from shoal.systems.steering.system import SteeringSystem

# Stage priorities: esper runs higher priorities first. The gaps leave room for a host's own
# processors: e.g. priority 550 runs after steering and before motion.
NEIGHBOURS_PRIORITY = 700
"""Priority of NeighbourSystem (stage 1; esper runs higher priorities first)."""
STEERING_PRIORITY = 600
"""Priority of SteeringSystem: flocking, avoid / flee / chase between boids."""
SEEKING_PRIORITY = 500
"""Priority of SeekingSystem: leaders, food, attractors, predator entities, wander."""
OBSTACLES_PRIORITY = 400
"""Priority of ObstacleSystem: look-ahead obstacle avoidance."""
MOTION_PRIORITY = 300
"""Priority of MotionSystem: limits, integration, world boundary."""
COLLISION_PRIORITY = 250
"""Priority of CollisionSystem: on the moved positions, no boid ends inside an obstacle."""
LIFECYCLE_PRIORITY = 200
"""Priority of LifecycleSystem: catches, bites, eaten food."""
RENDER_PRIORITY = 100
"""Priority for RenderSystem (added by the host: it needs arcade)."""

STAGES: tuple[tuple[type[FlockProcessor], int], ...] = (
    (NeighbourSystem, NEIGHBOURS_PRIORITY),
    (SteeringSystem, STEERING_PRIORITY),
    (SeekingSystem, SEEKING_PRIORITY),
    (ObstacleSystem, OBSTACLES_PRIORITY),
    (MotionSystem, MOTION_PRIORITY),
    (CollisionSystem, COLLISION_PRIORITY),
    (LifecycleSystem, LIFECYCLE_PRIORITY),
)
"""Every processor that `install` adds, with its priority."""


def install(
    config: FlockConfig | None = None,
    species: Iterable[Species] = (),
    *,
    world: str | None = None,
) -> Flock:
    """Create a flock and register its processors in an esper world.

    Args:
        config: the world's size, boundary mode, fixed dt and seed (defaults: `FlockConfig()`).
        species: species to register now (more can be added with `Flock.add_species`).
        world: None installs into the host's *current* esper world: the host's
            `esper.process(dt)` then steps the flock with its own processors. A name installs
            into a world of shoal's own (created if needed; the current world stays current):
            step it with `flock.step()`.

    Returns:
        The `Flock`: spawn, query and tune boids through it.

    Raises:
        ValueError: an argument is not what it should be (the message names it).
        RuntimeError: shoal is already installed in that world (esper keeps one processor
            per class per world; use `uninstall` first).
    """
    config = FlockConfig() if config is None else config
    check.instance("install", "config", config, FlockConfig)
    name = esper.current_world if world is None else world
    if not isinstance(name, str) or not name:
        check.fail("install", "world", world, "must be a non-empty string (or None)")
    flock = Flock(config, checked_species("install", species), name)
    with in_world(name):
        if esper.get_processor(NeighbourSystem) is not None:
            raise RuntimeError(f"shoal is already installed in esper world {name!r}")
        for system, priority in STAGES:
            esper.add_processor(system(flock), priority)
    return flock


def uninstall(flock: Flock) -> None:
    """Remove a flock's processors and boids from its world."""
    check.instance("uninstall", "flock", flock, Flock)
    flock.despawn(flock.entities.copy())
    with in_world(flock.world):
        for system, _ in STAGES:
            esper.remove_processor(system)
