"""Followers settle behind their leader, clear its path, and switch when it changes; or,
with a spring pull, are drawn by their distance from it."""

import math
from typing import Any

import esper
import numpy as np
import pytest

from shoal.components import Leader, Position, Species, Velocity
from shoal.systems import LEADER_LOST, Flock, FlockConfig, install

SPEED = 50.0


def scene(seed: int = 1) -> tuple[Flock, int]:
    flock = install(FlockConfig(width=1200, height=900, seed=seed), [Species("fish")])
    flock.scatter("fish", 40, centre=(300, 450), radius=120)
    leader = esper.create_entity(Position(400, 450), Velocity(SPEED, 0), Leader(("fish",)))
    return flock, leader


def swim(flock: Flock, leader: int, steps: int, heading: tuple[float, float]) -> None:
    pos = esper.component_for_entity(leader, Position)
    vel = esper.component_for_entity(leader, Velocity)
    vel.xy = (SPEED * heading[0], SPEED * heading[1])
    for _ in range(steps):
        pos.xy = (pos.x + vel.x / 60, pos.y + vel.y / 60)
        flock.step()


@pytest.mark.slow
def test_followers_end_near_and_behind_the_leader() -> None:
    flock, leader = scene()
    swim(flock, leader, 600, (1.0, 0.0))  # 10 s to the right
    swim(flock, leader, 600, (0.0, -1.0))  # then 10 s down
    offset = flock.positions - esper.component_for_entity(leader, Position).xy
    distance = np.linalg.norm(offset, axis=1)
    behind = offset[:, 1] > 0  # the leader now swims towards -y
    range_ = flock.species["fish"].leader_range
    assert np.all(distance < range_)
    assert np.mean(behind) >= 0.9
    assert np.median(distance) < 3 * flock.species["fish"].follow_distance


def test_followers_clear_the_leaders_path() -> None:
    # Park a school ahead of a leader that swims straight at it.
    sp = Species("fish", alignment_weight=0.0, cohesion_weight=0.0, min_speed=0)
    flock = install(FlockConfig(width=1200, height=900, seed=2), [sp])
    flock.scatter("fish", 30, centre=(600, 450), radius=25)
    leader = esper.create_entity(Position(450, 450), Velocity(SPEED, 0), Leader())
    swim(flock, leader, 120, (1.0, 0.0))
    lateral = np.abs(flock.positions[:, 1] - 450)
    ahead = flock.positions[:, 0] > esper.component_for_entity(leader, Position).x
    lane = flock.species["fish"].leader_clearance
    assert not np.any(ahead & (lateral < lane * 0.5))


@pytest.mark.parametrize(("distance", "factor"), [(50.0, 1.0), (100.0, 1.0), (200.0, 2.0)])
def test_a_spring_pull_grows_with_the_distance_and_doubles_out_of_range(
    distance: float, factor: float
) -> None:
    # Post 002: a rule towards the leader by the offset, and one more beyond the range.
    sp = Species(
        "fish", steering="accumulate", leader_pull="spring", leader_weight=3.0,
        leader_range=150.0, min_speed=0.0, max_speed=1e4, max_force=math.inf,
    )  # fmt: skip
    flock = install(FlockConfig(width=2000, height=2000, dt=1 / 60), [sp])
    flock.spawn("fish", np.array([[1000.0 - distance, 1000.0]]), np.zeros((1, 2)))
    esper.create_entity(Position(1000, 1000), Velocity(SPEED, 0), Leader())
    flock.step()
    pull = 3.0 * distance * factor / 60
    assert flock.velocities[0] == pytest.approx((pull, 0.0), rel=1e-9, abs=1e-12)


@pytest.mark.slow
def test_switching_and_losing_the_leader() -> None:
    flock, first = scene(3)
    lost: list[int] = []

    def on_lost(entity: int, log: list[int] = lost) -> None:
        log.append(entity)

    esper.set_handler(LEADER_LOST, on_lost)
    swim(flock, first, 300, (1.0, 0.0))
    second = esper.create_entity(Position(1000, 200), Velocity(0, 0), Leader(("fish",)))
    esper.remove_component(first, Leader)
    for _ in range(900):
        flock.step()
    assert lost == [first]
    near_second = np.linalg.norm(flock.positions - (1000, 200), axis=1)
    assert np.median(near_second) < 150
    esper.delete_entity(second)
    flock.step()
    assert lost == [first, second]
    esper.remove_handler(LEADER_LOST, on_lost)


@pytest.mark.slow
def test_leader_weight_zero_ignores_leaders() -> None:
    flock = install(FlockConfig(width=1200, height=900, seed=4), [Species("fish", leader_weight=0)])
    flock.scatter("fish", 40, centre=(300, 450), radius=100)
    esper.create_entity(Position(1100, 800), Leader())
    for _ in range(600):
        flock.step()
    distance: Any = np.linalg.norm(flock.positions - (1100, 800), axis=1)
    assert np.median(distance) > 300
