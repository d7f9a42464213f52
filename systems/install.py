"""install(): put shoal's processors into an esper world, in order (a plugin, Bevy-style)."""

from collections.abc import Iterable

import esper

from shoal.components import Boid, Position, Species
from shoal.components import arguments as check
from shoal.systems.ahead import compile_rest_in_background, prime_numba
from shoal.systems.collision.system import CollisionSystem
from shoal.systems.core.config import FlockConfig
from shoal.systems.flock.ecs import entities_with, in_world, processors, remove_handler
from shoal.systems.flock.flock import Flock
from shoal.systems.flock.flock_arguments import checked_species
from shoal.systems.flock.processor import FlockProcessor
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
"""Priority of RenderSystem (added by `shoal.install(..., render=True)` or
`shoal.systems.render.add_rendering`: it needs arcade)."""

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
    replace: bool = False,
) -> Flock:
    """Create a flock and register its processors in an esper world.

    Args:
        config: the world's bounds, boundary mode, fixed dt and seed (defaults:
            `FlockConfig()`).
        species: species to register now (more can be added with `Flock.add_species`).
        world: None installs into the host's *current* esper world: the host's
            `esper.process(dt)` then steps the flock with its own processors. A name installs
            into a world of shoal's own (created if needed; the current world stays current):
            step it with `flock.step()` or `flock.update(delta_time)`.
        replace: uninstall the flock already installed in that world first (a level that
            restarts); without it, a second install there raises RuntimeError.

    Returns:
        The `Flock`: spawn, query and tune boids through it; tie sprites to it.

    Raises:
        ValueError: an argument is not what it should be (the message names it).
        RuntimeError: shoal is already installed in that world and `replace` is False
            (esper keeps one processor per class per world), or the world still holds
            boids of another flock whose stages were removed.
    """
    config = FlockConfig() if config is None else config
    check.instance("install", "config", config, FlockConfig)
    check.instance("install", "replace", replace, bool)
    name = esper.current_world if world is None else world
    if not isinstance(name, str) or not name:
        check.fail("install", "world", world, "must be a non-empty string (or None)")
    species = checked_species("install", species)
    existing = installed_flock(name)
    if existing is not None:
        if not replace:
            raise RuntimeError(
                f"install: shoal is already installed in esper world {check.shown(name)} "
                "(uninstall it first, or pass replace=True)"
            )
        uninstall(existing)
    owns_world = name not in esper.list_worlds()  # before the flock makes it
    with in_world(name):
        _refuse_stray_boids(name)
        flock = Flock(config, species, name)
        flock.owns_world = owns_world
        for system, priority in STAGES:
            esper.add_processor(system(flock), priority)
    # After a package install only the first steps' kernels are cached: the rest compile in
    # a child process now, so that none compiles on a later frame (systems/ahead.py).
    compile_rest_in_background()
    prime_numba()  # here, not in the host's first step
    return flock


def installed_flock(world: str) -> Flock | None:
    """The flock installed in esper world `world`, or None (the world is not created).

    Raises:
        ValueError: `world` is not a non-empty string.
    """
    check.text("installed_flock", "world", world)
    if world not in esper.list_worlds():
        return None
    with in_world(world):
        for processor in processors():
            if isinstance(processor, FlockProcessor):
                return processor.flock
    return None


def uninstall(flock: Flock) -> None:
    """Remove a flock and everything shoal put in its world, in one call.

    Removes every processor of the flock (its stages, its render stage, any other
    `FlockProcessor` of it), its boids, the entities of its tied sprites and those made with
    `Flock.create_entity`, and the event handlers set with `Flock.set_handler`; deletes the
    world itself if `install` created it. The host's sprites are untouched. The flock's
    calls raise RuntimeError afterwards; a second `uninstall` does nothing.
    """
    check.instance("uninstall", "flock", flock, Flock)
    try:
        flock._members.check("uninstall")
    except RuntimeError:  # already uninstalled, or the world is gone with everything in it
        flock._forget_host()
        return
    flock._members.drop_gone()  # deleted through esper since the last step: not to despawn
    flock.ties.clear()
    flock.despawn(flock.entities.copy())
    with in_world(flock.world):
        for processor in processors():
            if isinstance(processor, FlockProcessor) and processor.flock is flock:
                esper.remove_processor(type(processor))  # never another flock's
        # First the boids' entities, deferred by despawn: a created entity the host deleted
        # (deferred) must not be deleted twice.
        esper.clear_dead_entities()
        for entity in flock.created:
            if esper.entity_exists(entity):
                esper.delete_entity(entity, immediate=True)
        for event, handler in flock.handlers:
            remove_handler(event, handler)
    flock._forget_host()
    if flock.owns_world and flock.world in esper.list_worlds():
        if esper.current_world == flock.world:
            esper.switch_world("default")
        esper.delete_world(flock.world)


def _refuse_stray_boids(world: str) -> None:
    """RuntimeError if the current world still holds boids of another flock (its stages
    removed by hand: `installed_flock` no longer finds it)."""
    for entity in entities_with(Boid):
        position = esper.try_component(entity, Position)
        if position is not None and position.bound:
            raise RuntimeError(
                f"install: world = {check.shown(world)} still holds boids of another flock "
                f"(entity {entity}); uninstall that flock first"
            )
