"""Boids sense food, stop short of it, bite it (one event per bite) and finish it."""

import math
from collections.abc import Iterator
from typing import Any

import esper
import numpy as np
import pytest

from shoal.components import Attractor, Food, Position, Species, Velocity
from shoal.systems import FOOD_BITTEN, FOOD_EATEN, Flock, FlockConfig, install
from shoal.systems.core.maths import slowing_before


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


def test_a_whole_number_radius_compiles_no_second_signature() -> None:
    # A game writes `Food(radius=6)` and `Attractor(dead_radius=10)`: their slowing distance
    # is computed with the float signature the warm-up compiled, not a new one on a frame.
    flock = school()
    esper.create_entity(Position(330, 300), Food(radius=6))
    esper.create_entity(Position(100, 100), Attractor(radius=200, dead_radius=10, arrive=True))
    flock.step()
    assert [str(s) for s in slowing_before.signatures] == ["(float64,)"]


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


@pytest.mark.parametrize(("arrive", "share"), [(True, 0.5), (False, 1.0)])
def test_an_attractor_draws_at_full_strength_to_its_dead_radius_unless_it_arrives(
    arrive: bool, share: float
) -> None:
    # A boid at rest 15 px short of the dead radius (10 px): arriving, it asks for half its
    # top speed there (it slows over the last 3 × 10 px); not (post 003), for all of it.
    sp = Species("fish", max_force=math.inf, food_weight=1.0, min_speed=0.0, max_speed=100.0)
    flock = install(FlockConfig(width=800, height=600, dt=1 / 60), [sp])
    flock.spawn("fish", np.array([[375.0, 300.0]]), np.zeros((1, 2)))
    esper.create_entity(Position(400, 300), Attractor(radius=100, dead_radius=10, arrive=arrive))
    flock.step()
    assert flock.velocities[0] == pytest.approx((100.0 * share / 60, 0.0), rel=1e-9, abs=1e-12)


def test_bad_food_is_refused() -> None:
    with pytest.raises(ValueError, match="bites"):
        Food(bites=0)
    with pytest.raises(ValueError, match="radius"):
        Food(radius=float("nan"))
    with pytest.raises(ValueError, match="dead_radius"):
        Attractor(radius=10, dead_radius=20)
    with pytest.raises(ValueError, match=r"^Attractor: arrive = 'no' must be True or False$"):
        Attractor(arrive="no")  # type: ignore[arg-type]
