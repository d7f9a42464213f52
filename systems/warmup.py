"""warm_up(): compile (or load from numba's cache) every kernel before the game needs them."""

import time
import uuid

import esper

from shoal.components import Species
from shoal.systems.config import FlockConfig
from shoal.systems.install import install


def warm_up() -> float:
    """Run every stage once on a tiny flock in a throw-away esper world; return the seconds.

    The first run after installing shoal compiles its numba kernels (about 15 s on a 2-core
    machine); later runs load them from the cache in well under a second. Call this behind
    a loading message so that the first frame of the game does not stall. The current esper
    world is left as it was.
    """
    start = time.perf_counter()
    for boundary in ("contain", "wrap"):
        world = f"shoal-warm-up-{uuid.uuid4().hex}"
        config = FlockConfig(width=200, height=200, boundary=boundary)
        flock = install(config, [Species("a")], world=world)
        try:
            flock.scatter("a", 8)
            flock.step()
            flock.query(100.0, 100.0, 50.0)
        finally:
            esper.delete_world(world)
    return time.perf_counter() - start
