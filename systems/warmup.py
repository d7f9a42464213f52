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
from shoal.systems.config import FlockConfig
from shoal.systems.ecs import in_world
from shoal.systems.flock import Flock
from shoal.systems.install import install


def warm_up() -> float:
    """Run every stage once on a tiny flock in a throw-away esper world; return the seconds.

    The first run after installing shoal compiles its numba kernels (about half a minute on
    a 2-core machine); later runs load them from the cache in well under a second. Call this behind
    a loading message so that the first frame of the game does not stall. The current esper
    world is left as it was.
    """
    start = time.perf_counter()
    for boundary in ("contain", "wrap"):
        world = f"shoal-warm-up-{uuid.uuid4().hex}"
        config = FlockConfig(width=200, height=200, boundary=boundary)
        flock = install(config, [Species("a"), Species("b")], world=world)
        try:
            _populate(flock)
            flock.step()
            flock.query(100.0, 100.0, 50.0)
        finally:
            esper.delete_world(world)
    return time.perf_counter() - start


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
        esper.create_entity(Position(150.0, 60.0), Predator())
