"""Hunters catch prey; prey flee with prediction; alarm spreads; fleeing saves lives."""

import esper
import numpy as np
import pytest

from shoal.components import Position, Predator, Species, Velocity
from shoal.systems import BOID_EATEN, FlockConfig, install
from shoal.systems.lifecycle.kernel import cool_down

FISH = Species("fish")
SHARK = Species("shark", min_speed=60, max_speed=140, max_force=400, perception_radius=120,
                separation_radius=30, catch_radius=10, catch_cooldown=3.0)  # fmt: skip


class Catches:
    def __init__(self) -> None:
        self.events: list[tuple[int, int, float, float]] = []

    def __call__(self, boid: int, hunter: int, x: float, y: float) -> None:
        self.events.append((boid, hunter, x, y))


def hunt(flee: bool, seed: int, seconds: float = 40) -> int:
    """A shark boid hunting a school of 60; returns how many fish it caught."""
    world = f"hunt-{flee}-{seed}"
    flock = install(FlockConfig(width=900, height=700, seed=seed), [FISH, SHARK], world=world)
    flock.relate("shark", "fish", "chase")
    flock.relate("fish", "shark", "flee" if flee else "ignore")
    flock.scatter("fish", 60, centre=(450, 350), radius=120)
    flock.spawn("shark", [[100.0, 100.0]])
    for _ in range(int(seconds * 60)):
        flock.step()
    caught = 60 - int(np.sum(flock.store.species == 0))
    esper.delete_world(world)
    return caught


def test_a_shark_catches_a_lone_fish() -> None:
    catches = Catches()
    esper.set_handler(BOID_EATEN, catches)
    flock = install(FlockConfig(width=900, height=700, seed=1), [FISH, SHARK])
    flock.relate("shark", "fish", "chase")
    (fish,) = flock.spawn("fish", [[600.0, 350.0]], [[40.0, 0.0]])
    (shark,) = flock.spawn("shark", [[520.0, 350.0]], [[100.0, 0.0]])  # it sees the fish
    for _ in range(600):
        flock.step()
        if catches.events:
            break
    assert [(b, h) for b, h, _, _ in catches.events] == [(fish, shark)]
    assert fish not in flock.entities
    assert flock.store.cooldown[flock.store.row(shark)] > 0  # resting after the meal
    esper.remove_handler(BOID_EATEN, catches)


@pytest.mark.slow
def test_a_fleeing_school_loses_fewer_fish() -> None:
    fled = sum(hunt(True, seed) for seed in (1, 2, 3))
    stood = sum(hunt(False, seed) for seed in (1, 2, 3))
    assert stood > 0
    assert fled < stood


def test_prey_flee_a_predator_entity_and_it_catches_with_a_cooldown() -> None:
    catches = Catches()
    esper.set_handler(BOID_EATEN, catches)
    flock = install(FlockConfig(width=900, height=700, seed=5), [FISH])
    flock.scatter("fish", 40, centre=(450, 350), radius=80)
    shark = esper.create_entity(
        Position(450, 350), Velocity(0, 0), Predator(("fish",), catch_radius=400, cooldown=1.0)
    )
    flock.step()
    assert len(catches.events) == 1  # it caught the nearest at once
    assert np.all(flock.store.alarm == 1.0)  # every fish is in fear range and flees
    for _ in range(30):
        flock.step()
    assert len(catches.events) == 1  # resting
    for _ in range(40):
        flock.step()
    assert len(catches.events) == 2
    assert all(hunter == shark for _, hunter, _, _ in catches.events)
    esper.remove_handler(BOID_EATEN, catches)


def alarm_arrivals(dt: float) -> np.ndarray:
    """When (s) each fish of a line 30 px apart first becomes alarmed, a predator scaring
    only the first, stepping by `dt`. The fish keep their line (no flight, no alarm pull)."""
    sp = Species("fish", fear_radius=40, perception_radius=50, fov_degrees=360, flee_weight=0,
                 alarm_weight=0)  # fmt: skip
    world = f"alarm-{1 / dt:.0f}"
    flock = install(FlockConfig(width=900, height=700, seed=6, boundary="wrap"), [sp],
                    world=world)  # fmt: skip
    xs = np.arange(10) * 30.0 + 300
    flock.spawn("fish", np.column_stack((xs, np.full(10, 350.0))), np.tile([0.0, 40.0], (10, 1)))
    with flock.in_world():
        esper.create_entity(Position(270, 350), Predator(catch_radius=0))
    flock.step(dt)
    assert flock.store.alarm[0] == 1.0 and np.all(flock.store.alarm[1:] == 0)
    arrivals = np.full(10, np.nan)
    arrivals[0] = dt
    for k in range(2, round(1.0 / dt)):
        flock.step(dt)
        arrivals[np.isnan(arrivals) & (flock.store.alarm > 0)] = k * dt
    esper.delete_world(world)
    return arrivals


@pytest.mark.parametrize("dt", [1 / 30, 1 / 60, 1 / 120])
def test_alarm_spreads_at_the_alarm_speed_whatever_the_step(dt: float) -> None:
    # 600 px/s (the default alarm speed) down a line 30 px apart: 0.05 s a fish, in seconds
    # and not in steps (it spread one fish a step before, twice as fast at 120 Hz as at 60).
    arrivals = alarm_arrivals(dt)
    expected = arrivals[0] + np.arange(10) * 30.0 / Species("x").alarm_speed
    # Seen at the end of the step it arrives in (a front due on a step's end, within rounding).
    assert np.all(np.abs(arrivals - expected) <= dt + 1e-9), arrivals


@pytest.mark.slow
def test_changing_a_relation_changes_the_outcome() -> None:
    def min_gap(relation: str) -> float:
        world = f"relation-{relation}"
        flock = install(FlockConfig(width=600, height=600, seed=7), [FISH, Species("eel")],
                        world=world)  # fmt: skip
        flock.relate("fish", "eel", relation)
        flock.scatter("fish", 50, centre=(300, 300), radius=80)
        flock.scatter("eel", 50, centre=(300, 300), radius=80)
        gaps = []
        for _ in range(300):
            flock.step()
            fish = flock.positions[flock.store.species == 0]
            eels = flock.positions[flock.store.species == 1]
            gaps.append(np.linalg.norm(fish[:, None] - eels[None], axis=2).min(axis=1).mean())
        esper.delete_world(world)
        return float(np.mean(gaps[-100:]))

    # Measured (seeds 7, 1, 2, 3): 88-131 px against 62-91. Species that ignore each other
    # drift apart as two schools of their own over 5 s: the gap grows either way.
    assert min_gap("avoid") > 1.3 * min_gap("ignore")


def test_a_rest_counts_down_to_zero_and_no_further() -> None:
    cooldown = np.array([0.0, 0.01, 1.0, 2.5])
    cool_down(cooldown, 1 / 60)
    assert cooldown.tolist() == [0.0, 0.0, 1.0 - 1 / 60, 2.5 - 1 / 60]
    cool_down(cooldown, 0.0)  # a paused step rests no less
    assert cooldown.tolist() == [0.0, 0.0, 1.0 - 1 / 60, 2.5 - 1 / 60]
