"""Wander: smooth seeded noise makes an idle boid meander, reproducibly."""

import esper
import numpy as np
import pytest

from shoal.components import Species
from shoal.systems import BOIDS_SPAWNED, FlockConfig, install


def path(world: str, seed: int, weight: float) -> np.ndarray:
    sp = Species("fish", wander_weight=weight, wander_rate=2.0)
    flock = install(FlockConfig(width=2000, height=2000, boundary="wrap", seed=seed), [sp],
                    world=world)  # fmt: skip
    flock.spawn("fish", [[1000.0, 1000.0]], [[60.0, 0.0]])
    headings = []
    for _ in range(600):
        flock.step()
        headings.append(np.arctan2(flock.velocities[0, 1], flock.velocities[0, 0]))
    esper.delete_world(world)
    return np.unwrap(np.array(headings))


@pytest.mark.slow
def test_wander_meanders_smoothly_and_reproducibly() -> None:
    still = path("wander-a", 1, 0.0)
    wander = path("wander-b", 1, 0.6)
    assert np.ptp(still) == 0.0  # no wander: straight on
    assert np.ptp(wander) > 0.5  # wander: it turns this way and that
    assert np.abs(np.diff(wander)).max() < 0.1  # smoothly: no jumps between steps
    assert np.array_equal(wander, path("wander-c", 1, 0.6))
    assert not np.array_equal(wander, path("wander-d", 2, 0.6))


def test_spawning_fires_an_event() -> None:
    seen: list[np.ndarray] = []

    def spawned(entities: np.ndarray, log: list[np.ndarray] = seen) -> None:
        log.append(entities)

    esper.set_handler(BOIDS_SPAWNED, spawned)
    flock = install(FlockConfig(), [Species("fish")])
    entities = flock.scatter("fish", 7)
    flock.scatter("fish", 0)
    assert len(seen) == 1 and np.array_equal(seen[0], entities)
    esper.remove_handler(BOIDS_SPAWNED, spawned)
