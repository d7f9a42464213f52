"""Boids sense food, stop short of it, bite it (one event per bite) and finish it."""

from collections.abc import Iterator
from typing import Any

import esper
import numpy as np
import pytest

from shoal.components import Attractor, Food, Position, Species, Velocity
from shoal.systems import FOOD_BITTEN, FOOD_EATEN, Flock, FlockConfig, install


class Log:
    """Collects events (esper keeps handlers as weak references: keep this object alive)."""

    def __init__(self) -> None:
        self.bites: list[tuple[int, int, int]] = []
        self.eaten: list[int] = []

    def bitten(self, food: int, boid: int, left: int) -> None:
        self.bites.append((food, boid, left))

    def finished(self, food: int) -> None:
        self.eaten.append(food)


@pytest.fixture
def log() -> Iterator[Log]:
    events = Log()
    esper.set_handler(FOOD_BITTEN, events.bitten)
    esper.set_handler(FOOD_EATEN, events.finished)
    yield events
    esper.remove_handler(FOOD_BITTEN, events.bitten)
    esper.remove_handler(FOOD_EATEN, events.finished)


def school(seed: int = 1, **changes: Any) -> Flock:
    flock = install(FlockConfig(width=800, height=600, seed=seed), [Species("fish", **changes)])
    flock.scatter("fish", 30, centre=(200, 300), radius=60)
    return flock


@pytest.mark.slow
def test_each_bite_fires_once_and_the_last_removes_the_food(log: Log) -> None:
    flock = school()
    food = esper.create_entity(Position(330, 300), Food(bites=5, radius=6))
    for _ in range(900):
        flock.step()
    assert [left for _, _, left in log.bites] == [4, 3, 2, 1, 0]
    assert {f for f, _, _ in log.bites} == {food}
    assert set(flock.entities.tolist()) >= {b for _, b, _ in log.bites}
    assert log.eaten == [food]
    assert not esper.entity_exists(food)


@pytest.mark.slow
def test_food_out_of_range_is_not_sensed(log: Log) -> None:
    flock = school(food_range=50, leader_weight=0)
    esper.create_entity(Position(700, 500), Food())
    for _ in range(300):
        flock.step()
    assert log.bites == []


@pytest.mark.slow
def test_sinking_food_moves_and_settles_on_the_floor() -> None:
    flock = school()
    pellet = esper.create_entity(Position(600, 500), Velocity(0, -40), Food(radius=5))
    for _ in range(60):
        flock.step()
    assert esper.component_for_entity(pellet, Position).y == pytest.approx(460, abs=1)
    for _ in range(900):
        flock.step()
    if esper.entity_exists(pellet):
        assert esper.component_for_entity(pellet, Position).y == pytest.approx(5)


@pytest.mark.slow
def test_attractor_draws_boids_but_they_stop_short() -> None:
    flock = school(min_speed=20, separation_weight=1.0)
    esper.create_entity(Position(500, 300), Attractor(radius=500, dead_radius=60, weight=2.0))
    for _ in range(1200):
        flock.step()
    distance = np.linalg.norm(flock.positions - (500, 300), axis=1)
    assert np.median(distance) < 150  # drawn in from ~300 px away
    assert np.mean(distance < 30) < 0.2  # but they keep off its centre
    assert len(flock) == 30  # and nobody ate it


def test_bad_food_is_refused() -> None:
    with pytest.raises(ValueError, match="bites"):
        Food(bites=0)
    with pytest.raises(ValueError, match="radius"):
        Food(radius=float("nan"))
    with pytest.raises(ValueError, match="dead_radius"):
        Attractor(radius=10, dead_radius=20)
