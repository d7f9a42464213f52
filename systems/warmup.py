"""warm_up(): compile (or load from numba's cache) every kernel before the game needs them."""

import time
import uuid

import esper

from shoal.components import (
    Attractor,
    Circle,
    Food,
    Leader,
    Obstacle,
    Position,
    Predator,
    Species,
    Velocity,
)
from shoal.systems.core.config import FlockConfig
from shoal.systems.core.ecs import in_world
from shoal.systems.core.flock import Flock
from shoal.systems.install import install
from shoal.systems.metrics import group_count, mean_nn_distance, milling, polarization
from shoal.systems.obstacles.field import first_hit, inside_obstacle, obstacle_field, surface
from shoal.systems.steering.explain import rule_terms


def warm_up() -> float:
    """Run every stage, query and metric once on a tiny flock in a throw-away esper world;
    return the seconds.

    The first run after installing shoal compiles its numba kernels (about a minute on
    a 2-core machine); later runs load them from the cache in well under a second. Call this behind
    a loading message so that the first frame of the game does not stall. The current esper
    world is left as it was.
    """
    start = time.perf_counter()
    for boundary in ("contain", "wrap"):
        world = f"shoal-warm-up-{uuid.uuid4().hex}"
        config = FlockConfig(width=200, height=200, boundary=boundary)
        # The hunters catch nothing (catch radius 0), so that no row changes before the
        # explanations below; the kernels are the same whatever the radius.
        flock = install(config, [Species("a"), Species("b", catch_radius=0.0)], world=world)
        try:
            _populate(flock)
            flock.step()
            _measure(flock)
        finally:
            esper.delete_world(world)
    return time.perf_counter() - start


def _measure(flock: Flock) -> None:
    """The queries, metrics and explanations a game calls (the debug overlay's too), so that
    their kernels are ready as well."""
    wrap = (flock.config.width, flock.config.height) if flock.config.wraps else None
    positions, velocities = flock.positions, flock.velocities
    flock.query(100.0, 100.0, 50.0)
    flock.neighbours_of(int(flock.entities[0]))
    rule_terms(flock, 0)
    polarization(velocities)
    milling(positions, velocities)
    mean_nn_distance(positions, wrap)
    group_count(positions, 50.0, wrap)
    field = obstacle_field(flock)
    inside_obstacle(field, positions)
    surface(field, positions)
    first_hit(field, positions, positions + 10.0)


def _populate(flock: Flock) -> None:
    """Boids, relations and one agent of each kind, so that every kernel runs once."""
    flock.relate("a", "b", "flee")
    flock.relate("b", "a", "chase")
    flock.scatter("a", 8)
    flock.scatter("b", 2)
    with in_world(flock.world):
        esper.create_entity(Obstacle(Circle(100.0, 100.0, 20.0)))
        esper.create_entity(Position(50.0, 50.0), Velocity(10.0, 0.0), Leader())
        esper.create_entity(Position(150.0, 150.0), Food())
        esper.create_entity(Position(60.0, 150.0), Attractor())
        esper.create_entity(Position(150.0, 60.0), Predator(catch_radius=0.0))
