"""install(): put shoal's processors into an esper world, in order (a plugin, Bevy-style)."""

from collections.abc import Iterable

import esper

from shoal.components import Boid, Position, Species
from shoal.components import arguments as check
from shoal.systems.collision.system import CollisionSystem
from shoal.systems.core.config import FlockConfig
from shoal.systems.core.ecs import entities_with, in_world, processors
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
        RuntimeError: another flock is installed in that world: one of its stages or boids
            is there (esper keeps one processor per class per world; `uninstall` it first).
    """
    config = FlockConfig() if config is None else config
    check.instance("install", "config", config, FlockConfig)
    name = esper.current_world if world is None else world
    if not isinstance(name, str) or not name:
        check.fail("install", "world", world, "must be a non-empty string (or None)")
    species = checked_species("install", species)
    with in_world(name):
        _refuse_another_flock(name)
        flock = Flock(config, species, name)
        for system, priority in STAGES:
            esper.add_processor(system(flock), priority)
    return flock


def uninstall(flock: Flock) -> None:
    """Remove a flock's boids and processors from its world (its stages, and any other
    processor of it, such as a `RenderSystem` the host added); its calls that change the
    world raise RuntimeError from then on. Uninstalling twice, or after the world was
    deleted, does nothing more (and never makes the world again)."""
    check.instance("uninstall", "flock", flock, Flock)
    members = flock._members
    try:
        members.check("uninstall")
    except RuntimeError:  # already uninstalled, or the world is gone with everything in it
        members.uninstalled = True
        return
    members.drop_gone()  # deleted through esper since the last step: not to despawn again
    flock.despawn(flock.entities.copy())
    members.uninstalled = True
    with in_world(flock.world):
        for stage in processors():
            if isinstance(stage, FlockProcessor) and stage.flock is flock:
                esper.remove_processor(type(stage))  # never another flock's, installed since


def _refuse_another_flock(world: str) -> None:
    """RuntimeError if the current world holds a stage or a boid of another flock."""
    if any(esper.get_processor(system) is not None for system, _ in STAGES):
        raise RuntimeError(
            f"install: world = {check.shown(world)}: shoal is already installed there "
            "(uninstall that flock first, or install into another world)"
        )
    for entity in entities_with(Boid):
        position = esper.try_component(entity, Position)
        if position is not None and position.bound:
            raise RuntimeError(
                f"install: world = {check.shown(world)} still holds boids of another flock "
                f"(entity {entity}); uninstall that flock first"
            )
