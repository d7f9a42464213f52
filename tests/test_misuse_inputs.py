"""What the second hardening round found in the values and calls a game hands a flock, one
test each (issue 19): queries of any radius, coordinates far beyond any world, food and
predators changed to nonsense, thousands of pellets, event handlers that change the flock
in the middle of its step. The flock and its esper world: `tests/test_misuse_findings.py`.

Each case once corrupted the flock silently, crashed deep inside, or cost far too much; the
comment says what happened before.
"""

import math
from typing import Any

import esper
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shoal.components import (
    MAX_COORDINATE,
    Circle,
    Food,
    Polygon,
    Position,
    Predator,
    Rect,
    Species,
)
from shoal.systems import (
    Flock,
    FlockConfig,
    install,
    uninstall,
)
from shoal.systems.core.grid import build_grid
from shoal.systems.lifecycle import system as lifecycle_system
from shoal.systems.lifecycle.kernel import reached_by
from shoal.systems.lifecycle.system import maybe_reached

from misuse_checks import assert_agrees, flock_of, one_line


# --- queries and coordinates --------------------------------------------------------------------
@pytest.mark.parametrize("boundary", ["contain", "wrap"])
@pytest.mark.parametrize("radius", [1e21, 1e300, 5e6])
def test_a_huge_query_radius_finds_everyone(boundary: str, radius: float) -> None:
    """Before: 0 boids for 1e21 (the cell count overflowed the kernel's integers)."""
    flock = flock_of(30, boundary=boundary)
    flock.step()
    assert len(flock.query(200, 150, radius)) == 30
    assert len(flock.query(-5e6, 3e6, radius)) == (30 if radius > 1e7 or boundary == "wrap" else 0)


def test_a_query_far_away_finds_nobody_in_a_walled_world() -> None:
    flock = flock_of(30)
    flock.step()
    assert len(flock.query(1e300, 1e300, 1e299)) == 0
    assert len(flock.query(-1e30, 0, 10)) == 0


@pytest.mark.parametrize("value", [1.5e7, -1e300, math.inf, math.nan])
def test_a_position_far_beyond_any_world_is_refused(value: float) -> None:
    """Before: accepted; a boid written to -1e300 in a torus stayed off the torus."""
    flock = flock_of(5, boundary="wrap")
    position = esper.component_for_entity(int(flock.entities[0]), Position)
    with pytest.raises(ValueError, match="Position: xy"):
        position.xy = (value, 10.0)
    with pytest.raises(ValueError, match="Position: x"):
        Position(value, 0.0)
    with pytest.raises(ValueError, match="spawn: positions"):
        flock.spawn("a", [(value, 1.0)])
    position.xy = (-MAX_COORDINATE, MAX_COORDINATE)  # the limit itself is fine
    flock.step()
    x, y = flock.positions[0]
    assert 0 <= x < 400 and 0 <= y < 300


@pytest.mark.parametrize(
    "make",
    [
        lambda: Circle(0, 0, 1e300),
        lambda: Circle(1e300, 0, 1),
        lambda: Rect(200, 150, 1e200, 1e200, 33),
        lambda: Polygon([(0, 0), (1e8, 0), (0, 1e8)]),
    ],
)
def test_a_shape_far_beyond_any_world_is_refused_at_once(make: Any) -> None:
    """Before: a circle of radius 1e300 was taken, and every step then failed with a
    confusing 'ObstacleField: geometry ... is not as compile_field makes it'."""
    with pytest.raises(ValueError, match=r"must lie within ±1e\+07"):
        make()


@pytest.mark.parametrize(
    ("component", "field", "value"),
    [
        (Food(), "bites", "x"),
        (Food(), "bites", -3),
        (Food(), "radius", math.nan),
        (Food(), "radius", 1e300),
        (Food(), "species", "ab"),
        (Predator(), "resting", "x"),
        (Predator(), "catch_radius", math.nan),
        (Predator(), "prey", ["a"]),
    ],
)
def test_a_food_or_predator_changed_to_nonsense_is_refused(component: Any, field: str,
                                                           value: object) -> None:  # fmt: skip
    """Before: taken, and a later step failed deep inside (TypeError, 'cannot convert float
    NaN to integer')."""
    before = getattr(component, field)
    with pytest.raises(ValueError) as raised:
        setattr(component, field, value)
    one_line(raised, f"{type(component).__name__}: {field} = ")
    assert getattr(component, field) == before


def test_food_set_to_no_bites_is_eaten_up_at_the_next_step() -> None:
    flock = flock_of(5)
    food = esper.create_entity(Position(20.0, 20.0), Food(bites=5))
    esper.component_for_entity(food, Food).bites = 0
    flock.step()
    flock.step()
    assert not esper.entity_exists(food)


# --- food in thousands ---------------------------------------------------------------------------
@pytest.mark.fuzz
@pytest.mark.slow
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(
    wrap=st.booleans(),
    boids=st.lists(st.tuples(st.floats(0, 399.9), st.floats(0, 299.9)), min_size=1, max_size=30),
    food=st.lists(st.tuples(st.floats(-50, 450), st.floats(-50, 350)), min_size=1, max_size=30),
    reach=st.floats(0, 200),
    perception=st.floats(1, 300),
)
def test_pellets_skipped_for_bites_have_no_boid_in_reach(
    wrap: bool, boids: list[tuple[float, float]], food: list[tuple[float, float]],
    reach: float, perception: float,
) -> None:  # fmt: skip
    """`maybe_reached` may say yes where no boid is, never no where one is."""
    positions, points = np.array(boids), np.array(food)
    grid = build_grid(positions, perception, wrap, 400.0, 300.0)
    near = maybe_reached(grid, points, np.full(len(points), reach))
    d = points[:, None, :] - positions[None, :, :]
    if wrap:
        d -= np.array([400.0, 300.0]) * np.floor(d / np.array([400.0, 300.0]) + 0.5)
    reached = (np.hypot(d[..., 0], d[..., 1]) <= reach).any(axis=1)
    assert not (reached & ~near).any()


@pytest.mark.parametrize("wrap", [False, True])
def test_a_pellet_with_no_number_for_a_reach_is_asked_not_looked_up(wrap: bool) -> None:
    # A NaN or infinite reach cannot be counted in cells (an index from a NaN reads
    # anywhere): such a pellet is said to be near, and its grid query answers.
    grid = build_grid(np.array([[10.0, 10.0], [50.0, 60.0]]), 20.0, wrap, 100.0, 100.0)
    points = np.array([[70.0, 30.0], [70.0, 30.0], [math.nan, 5.0], [70.0, 30.0]])
    reach = np.array([1.0, math.nan, 1.0, math.inf])
    assert maybe_reached(grid, points, reach).tolist() == [False, True, True, True]


@pytest.mark.slow
def test_thousands_of_pellets_away_from_the_school_cost_no_query_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: a grid query per pellet per step: 5,000 pellets cost ~60 ms a step."""
    flock = install(FlockConfig(1280, 720, seed=0), [Species("fish")])
    flock.scatter("fish", 200, (200, 200), 60)
    rng = np.random.default_rng(0)
    for x, y in rng.uniform((700, 400), (1270, 710), (5000, 2)):
        esper.create_entity(Position(x, y), Food(bites=10**6, radius=5))
    esper.create_entity(Position(200, 200), Food(bites=10**6, radius=5))  # amid the school
    asked: list[int] = []

    def counting(*args: Any) -> Any:  # the pellets given bites left are looked up
        asked.append(int(np.count_nonzero(args[3])))
        return reached_by(*args)

    monkeypatch.setattr(lifecycle_system, "reached_by", counting)
    flock.step()
    assert len(asked) == 1 and 1 <= asked[0] <= 10


# --- handlers that change the flock while it steps -------------------------------------------
class Meddler:
    """An event handler that changes the flock from inside its step."""

    def __init__(self, flock: Flock, what: str) -> None:
        self.flock, self.what, self.calls = flock, what, 0

    def on_event(self, *args: Any) -> None:
        self.calls += 1
        flock = self.flock
        if self.what == "tune":
            flock.tune("a", perception_radius=300.0, max_speed=10.0, min_speed=5.0)
        elif self.what == "despawn":
            flock.despawn(flock.entities[: len(flock) // 2].copy())
        elif self.what == "spawn" and len(flock) < 200:  # each bite would add ten
            flock.scatter("a", 10)
        elif self.what == "step" and self.calls == 1:
            flock.step()  # a step inside a step (once: each step fires more events)
        elif self.what == "uninstall":
            uninstall(flock)


@pytest.mark.parametrize("event", ["shoal_boid_eaten", "shoal_food_bitten"])
@pytest.mark.parametrize("what", ["tune", "despawn", "spawn", "step", "uninstall"])
def test_a_handler_that_changes_the_flock_mid_step(event: str, what: str) -> None:
    flock = install(FlockConfig(400, 300, seed=1), [Species("a", catch_radius=3.0)])
    flock.scatter("a", 60, (200, 150), 40)
    esper.create_entity(Position(200, 150), Predator(catch_radius=50, cooldown=0.1))
    esper.create_entity(Position(200, 150), Food(bites=1000, radius=40))
    meddler = Meddler(flock, what)
    flock.set_handler(event, meddler.on_event)
    for _ in range(20):
        if what == "uninstall" and meddler.calls:
            with pytest.raises(RuntimeError, match="uninstalled"):
                flock.step()
            esper.process(1 / 60)  # the world goes on without it
            return
        flock.step()
        assert_agrees(flock)
        assert np.isfinite(flock.positions).all()
    assert meddler.calls > 0
