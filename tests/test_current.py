"""The world's current (`Flock.current`): it pushes every boid, less the share its species
swims against (`Species.rheotaxis`); the game's levels set it."""

from collections.abc import Iterator

import esper
import numpy as np
import pytest

from shoal.components import Species
from shoal.game.level import load_level
from shoal.game.presets import preset
from shoal.game.tank import FISH, Tank
from shoal.systems import Flock, FlockConfig, install


@pytest.fixture
def flock() -> Iterator[Flock]:
    shares = {"carried": 0.0, "holding": 1.0, "quarter": 0.25}
    # No speed limit in the way of the push.
    species = [Species(n, min_speed=0.0, max_speed=1e3, rheotaxis=r) for n, r in shares.items()]
    flock = install(FlockConfig(width=3000, height=3000, seed=1), species, world="current")
    for name, x in (("carried", 500.0), ("holding", 1500.0), ("quarter", 2500.0)):
        flock.spawn(name, [(x, 1500.0)], [(0.0, 0.0)])  # far apart: no flocking between them
    yield flock
    esper.delete_world("current")


def test_still_water_pushes_nothing(flock: Flock) -> None:
    assert flock.current == (0.0, 0.0)
    for _ in range(60):
        flock.step(1 / 60)
    assert np.array_equal(flock.velocities, np.zeros((3, 2)))


def test_each_boid_feels_the_share_of_the_current_it_does_not_swim_against(flock: Flock) -> None:
    flock.current = (20, -10)  # px/s²: after one second, 20 and -10 px/s
    assert flock.current == (20.0, -10.0)
    for _ in range(60):
        flock.step(1 / 60)
    expected = np.array([[20.0, -10.0], [0.0, 0.0], [15.0, -7.5]])
    assert np.allclose(flock.velocities, expected, atol=1e-9), flock.velocities
    assert flock.positions[1].tolist() == [1500.0, 1500.0]  # holding its station


def test_the_current_can_change_while_the_flock_swims(flock: Flock) -> None:
    flock.current = (30.0, 0.0)
    for _ in range(30):
        flock.step(1 / 60)
    flock.current = (0.0, 0.0)
    for _ in range(30):
        flock.step(1 / 60)
    assert np.allclose(flock.velocities[0], [15.0, 0.0], atol=1e-9)  # half a second of it


def test_a_level_sets_its_current_and_the_mill_swims_against_most_of_it() -> None:
    level = load_level("open_water")
    assert level.current == (15.0, 0.0)
    tank = Tank(level, seed=0, fish=10, species=preset("mill").species(FISH))
    try:
        assert tank.flock.current == level.current
        assert tank.flock.species["fish"].rheotaxis == 0.75
        assert FISH.rheotaxis == 0.0  # the game's other fish are carried by it
    finally:
        tank.close()
