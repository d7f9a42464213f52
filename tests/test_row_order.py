"""A flock of SORT_MIN_ROWS boids or more sorts its rows into grid-cell order every SORT_EVERY
steps; everything keyed by entity (components, neighbours, queries) reads the same boids
before and after. The small flocks here sort as a large one would (SORT_MIN_ROWS set to 0)."""

import esper
import numpy as np
import pytest

from shoal.components import Position, Species, Velocity
from shoal.systems import Flock, FlockConfig, install
from shoal.systems.flock import flock as flock_module
from shoal.systems.flock.flock import SORT_EVERY

from worlds import scratch_world


@pytest.fixture(autouse=True)
def sort_any_flock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(flock_module, "SORT_MIN_ROWS", 0)


def school(seed: int = 4, fish: int = 300, update: str = "simultaneous") -> Flock:
    """`fish` scattered over a torus much larger than their vision: many cells."""
    config = FlockConfig(width=2000, height=1500, boundary="wrap", seed=seed, update=update)
    flock = install(config, [Species("fish")])
    flock.scatter("fish", fish)
    return flock


def steps(flock: Flock, count: int) -> None:
    for _ in range(count):
        flock.step(1 / 60)


def test_rows_take_the_last_steps_cell_order_every_sort_every_steps() -> None:
    flock = school()
    steps(flock, SORT_EVERY - 1)
    unsorted = flock.entities.copy()
    steps(flock, 1)  # step SORT_EVERY: its rows are still those the boids were added in
    assert np.array_equal(flock.entities, unsorted)
    cell_order = flock.step_state.cells.row.copy()
    layout = flock.store.layout
    steps(flock, 1)  # the next step begins with the sort
    assert np.array_equal(flock.entities, unsorted[cell_order])
    assert flock.store.layout == layout + 1
    assert flock.step_state.layout == flock.store.layout  # the step's rows are the new ones
    # Cell order is row order now, but for the boids that changed cells in the last step.
    in_order = np.diff(flock.step_state.cells.row) == 1
    assert in_order.mean() > 0.9, in_order.mean()
    later = flock.entities.copy()
    steps(flock, SORT_EVERY - 1)
    assert np.array_equal(flock.entities, later)  # not again before SORT_EVERY more steps


def test_only_large_flocks_that_update_simultaneously_sort(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(flock_module, "SORT_MIN_ROWS", 300)
    for fish, update, sorts in [
        (299, "simultaneous", False),
        (300, "simultaneous", True),
        (300, "sequential", False),  # its rows are the order its boids update in
    ]:
        with scratch_world():
            flock = school(fish=fish, update=update)
            steps(flock, SORT_EVERY)
            entities = flock.entities.copy()
            steps(flock, 1)
            assert np.array_equal(flock.entities, entities) != sorts, (fish, update)


def test_no_sort_when_boids_came_or_went_since_the_last_step() -> None:
    flock = school()
    steps(flock, SORT_EVERY)
    flock.despawn(int(flock.entities[0]))  # swap-remove: the last row moves into row 0
    entities = flock.entities.copy()
    steps(flock, 1)  # the last step's cells name rows that no longer exist
    assert np.array_equal(flock.entities, entities)


def test_a_sort_changes_what_no_boid_sees_and_its_motion_only_in_the_last_bits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Twin flocks from one seed, one never sorted: after the step that begins with the
    sort, every entity saw the same boids and swam to the same place (to rounding: sums
    over neighbours run in another order)."""
    flock = school()
    steps(flock, SORT_EVERY + 1)
    monkeypatch.setattr(flock_module, "SORT_EVERY", 10**9)
    with scratch_world():
        twin = school()
        steps(twin, SORT_EVERY + 1)
        assert not np.array_equal(flock.entities, twin.entities)
        for entity in twin.entities.tolist():
            seen = np.sort(flock.neighbours_of(entity))
            assert np.array_equal(seen, np.sort(twin.neighbours_of(entity))), entity
            here = flock.positions[flock.store.row(entity)]
            there = twin.positions[twin.store.row(entity)]
            np.testing.assert_allclose(here, there, rtol=0, atol=1e-9)


def test_entity_keyed_reads_follow_their_boids_through_a_sort() -> None:
    flock = school()
    steps(flock, SORT_EVERY)
    entities = flock.entities[:40].tolist()
    positions = [esper.component_for_entity(e, Position) for e in entities]
    velocities = [esper.component_for_entity(e, Velocity) for e in entities]
    steps(flock, 1)  # sorts, then moves every boid
    assert not np.array_equal(flock.entities[:40], entities)
    for entity, position, velocity in zip(entities, positions, velocities, strict=True):
        row = flock.store.row(entity)
        assert position.xy == tuple(flock.positions[row].tolist())
        assert velocity.xy == tuple(flock.velocities[row].tolist())
        assert entity in flock.query(*position.xy, 0.5)
    flock.store.check()
