"""Helpers the misuse findings share (`tests/test_misuse_findings.py`,
`tests/test_misuse_inputs.py`): a small flock, the store-and-esper agreement check, and the
one-line error check."""

from typing import Any

import esper
import pytest

from shoal.components import Boid, Position, Species, Velocity
from shoal.systems import Flock, FlockConfig, install
from shoal.systems.flock.ecs import entities_with


def flock_of(count: int = 30, **config: Any) -> Flock:
    flock = install(FlockConfig(400, 300, seed=1, **config), [Species("a"), Species("b")])
    flock.scatter("a", count)
    return flock


def assert_agrees(flock: Flock) -> None:
    """The store, esper's boids and their bound Position / Velocity agree."""
    flock.store.check()
    with flock.in_world():
        assert entities_with(Boid) == set(flock.entities.tolist())
        for row, entity in enumerate(flock.entities.tolist()):
            position = esper.component_for_entity(entity, Position)
            velocity = esper.component_for_entity(entity, Velocity)
            assert position.bound and position.xy == tuple(flock.positions[row])
            assert velocity.bound and velocity.xy == tuple(flock.velocities[row])


def one_line(error: pytest.ExceptionInfo[BaseException], start: str) -> str:
    text = error.value.args[0]
    assert isinstance(text, str) and text.startswith(start) and text.isprintable(), text
    assert len(text) < 300
    return text
