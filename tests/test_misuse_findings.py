"""What the second hardening round found misusing the API and esper, one test each (issue 19).

Each case once corrupted the flock silently, crashed deep inside, or ignored what the game
did; the comment says what happened before. The promise: every call does the right thing or
raises one clear line and changes nothing; esper's own calls on shoal's entities keep the
flock consistent (see `shoal.systems.core.members`).
"""

import math
from collections.abc import Callable
from typing import Any

import arcade
import esper
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shoal.components import (
    MAX_COORDINATE,
    Boid,
    Circle,
    Food,
    Obstacle,
    Polygon,
    Position,
    Predator,
    Rect,
    Species,
    Velocity,
)
from shoal.systems import (
    RENDER_PRIORITY,
    Flock,
    FlockConfig,
    LifecycleSystem,
    NeighbourSystem,
    install,
    obstacle_field,
    uninstall,
)
from shoal.systems.core.ecs import entities_with
from shoal.systems.core.grid import build_grid
from shoal.systems.lifecycle.system import maybe_reached
from shoal.systems.render import RenderSystem


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


# --- neighbours_of ------------------------------------------------------------------------------
def test_neighbours_of_after_a_despawn_lists_only_boids() -> None:
    """Before: IndexError, or other boids' neighbours (rows had moved)."""
    flock = flock_of(60)
    flock.scatter("a", 40, (200, 150), 10)  # a crowd: everyone has neighbours
    flock.step()
    before = {e: set(flock.neighbours_of(e).tolist()) for e in flock.entities.tolist()}
    gone = flock.entities[:30].copy()
    flock.despawn(gone)
    alive = set(flock.entities.tolist())
    for entity in flock.entities.tolist():
        assert set(flock.neighbours_of(entity).tolist()) == before[entity] & alive
    assert sum(len(before[e] & alive) for e in alive) > 0  # the check saw neighbours


def test_neighbours_of_a_newer_boid_is_empty() -> None:
    flock = flock_of(20)
    flock.step()
    new = int(flock.spawn("a", [(200.0, 150.0)])[0])
    assert len(flock.neighbours_of(new)) == 0


def test_neighbours_of_after_a_catch_in_the_step() -> None:
    """Before: IndexError when a predator ate a boid during the step."""
    flock = install(FlockConfig(400, 300, seed=1), [Species("a", catch_radius=0.0)])
    flock.scatter("a", 80, (200, 150), 30)
    esper.create_entity(Position(200, 150), Predator(catch_radius=60, cooldown=0.0))
    flock.step()
    assert len(flock) == 79
    alive = set(flock.entities.tolist())
    assert all(set(flock.neighbours_of(e).tolist()) <= alive for e in alive)


# --- a cleared database -------------------------------------------------------------------------
def test_spawning_after_clear_database_before_a_step() -> None:
    """Before: the new boids took the ids of old rows: AssertionError in store.check."""
    flock = flock_of(30)
    flock.step()
    esper.clear_database()
    flock.scatter("a", 5)
    assert len(flock) == 5
    assert_agrees(flock)
    flock.step()
    assert_agrees(flock)


def test_boids_created_after_clear_database_take_over_old_ids() -> None:
    """Before: entities 1..10 were taken for the old boids 1..10: their new Position
    components were never bound (stale)."""
    flock = flock_of(10)
    flock.step()
    esper.clear_database()
    made = [esper.create_entity(Position(5.0 + k, 5.0), Velocity(1, 0), Boid("b"))
            for k in range(10)]  # fmt: skip
    assert made == list(range(1, 11))
    flock.step(0.0)
    assert_agrees(flock)
    assert set(flock.store.species.tolist()) == {1}


def test_obstacles_created_after_clear_database_with_old_ids() -> None:
    """Before: the field kept the old obstacle (same entity ids, so the set looked equal)."""
    flock = install(FlockConfig(400, 300, seed=1), [Species("a")])
    first = esper.create_entity(Obstacle(Circle(100, 100, 30)))
    flock.scatter("a", 10)
    flock.step()
    esper.clear_database()
    assert esper.create_entity(Obstacle(Circle(300, 200, 20))) == first
    flock.scatter("a", 10)
    flock.step()
    assert obstacle_field(flock).shapes == (Circle(300, 200, 20),)


def test_sprites_start_again_after_clear_database(window: arcade.Window) -> None:
    """Before: a new boid with an old id kept the old boid's sprite (another species)."""
    flock = flock_of(5)
    render = RenderSystem(flock)
    esper.add_processor(render, RENDER_PRIORITY)
    flock.step()
    esper.clear_database()
    flock.scatter("b", 5)
    flock.step()
    tint = render.look_of(1).tint
    for entity in flock.entities.tolist():
        assert tuple(render.feed.sprite_of(entity).color)[:3] == tint


# --- a deleted world, an uninstalled flock ------------------------------------------------------
def test_a_flock_whose_world_was_deleted_refuses_and_never_makes_it_again() -> None:
    """Before: every call made the world again, empty, and stepping it did nothing."""
    flock = install(FlockConfig(), [Species("a")], world="doomed")
    flock.scatter("a", 10)
    esper.delete_world("doomed")
    calls: dict[str, Callable[[], object]] = {
        "step": flock.step,
        "spawn": lambda: flock.spawn("a", [(1.0, 1.0)]),
        "scatter": lambda: flock.scatter("a", 3),
        "despawn": lambda: flock.despawn(flock.entities),
        "sync": flock.sync,
        "query": lambda: flock.query(1, 1, 10),
        "neighbours_of": lambda: flock.neighbours_of(int(flock.entities[0])),
        "in_world": flock.in_world,
        "set_handler": lambda: flock.set_handler("shoal_boid_eaten", print),
        "obstacle_field": lambda: obstacle_field(flock),
    }
    for owner, call in calls.items():
        with pytest.raises(RuntimeError) as raised:
            call()
        assert "delete_world" in one_line(raised, f"{owner}:")
    uninstall(flock)  # cleaning up afterwards is fine
    assert "doomed" not in esper.list_worlds()


def test_an_uninstalled_flock_refuses_to_spawn_and_changes_nothing(
    window: arcade.Window,
) -> None:
    """Before: it took the spawn, and every later esper.process raised KeyError (or, with
    its render stage left behind, RuntimeError)."""
    flock = flock_of(10)
    esper.add_processor(RenderSystem(flock), RENDER_PRIORITY)
    uninstall(flock)
    assert esper.get_processor(RenderSystem) is None
    calls: dict[str, Callable[[], object]] = {
        "spawn": lambda: flock.spawn("a", [(10.0, 10.0)]),
        "scatter": lambda: flock.scatter("a", 4),
        "step": flock.step,
        "despawn": lambda: flock.despawn([]),
    }
    for owner, call in calls.items():
        with pytest.raises(RuntimeError) as raised:
            call()
        assert "uninstalled" in one_line(raised, f"{owner}:")
    assert len(flock) == 0 and not entities_with(Boid)
    esper.process(1 / 60)  # the world steps on without it
    uninstall(flock)  # a second uninstall does nothing more


def test_uninstalling_an_old_flock_leaves_the_new_one_alone() -> None:
    """Before: uninstall removed every stage of the world by class: the new flock's too."""
    old = flock_of(5)
    uninstall(old)
    new = flock_of(5)
    uninstall(old)
    assert esper.get_processor(NeighbourSystem) is not None
    new.step()
    assert new.step_state.number == 1


def test_install_refuses_a_world_that_still_holds_another_flock() -> None:
    """Before: with its neighbour stage removed, a second install went through and the new
    flock took the first one's boids (then failed every step)."""
    flock_of(5)
    esper.remove_processor(NeighbourSystem)
    with pytest.raises(RuntimeError) as raised:
        install(FlockConfig(), [Species("a")])
    one_line(raised, "install:")
    for system in list(esper._processors_dict):
        esper.remove_processor(system)  # every stage gone, the boids still there
    with pytest.raises(RuntimeError, match="still holds boids of another flock"):
        install(FlockConfig(), [Species("a")])


# --- despawn -------------------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["never a boid", "deleted at once", "lost its Boid"])
def test_despawn_with_one_bad_entity_deletes_nothing(how: str) -> None:
    """Before: a bare KeyError from esper after the good ones had lost their Boid."""
    flock = flock_of(5)
    good, bad = (int(e) for e in flock.entities[:2])
    if how == "never a boid":
        bad = 10**6
    elif how == "deleted at once":
        esper.delete_entity(bad, immediate=True)
    else:
        esper.remove_component(bad, Boid)
    with pytest.raises(KeyError) as raised:
        flock.despawn([good, bad])
    assert str(bad) in one_line(raised, "despawn:")
    assert good in flock.store and esper.has_component(good, Boid)
    flock.step()
    assert_agrees(flock)


# --- esper.add_component / remove_component on a boid --------------------------------------------
def test_a_replaced_position_and_velocity_are_honoured() -> None:
    """Before: ignored: the store kept the old row, the new components stayed unbound."""
    flock = flock_of(10)
    flock.step()
    entity = int(flock.entities[0])
    old = esper.component_for_entity(entity, Position)
    esper.add_component(entity, Position(333.0, 222.0))
    esper.add_component(entity, Velocity(0.0, 40.0))
    flock.step(0.0)
    row = flock.store.row(entity)
    assert tuple(flock.positions[row]) == (333.0, 222.0)
    assert tuple(flock.velocities[row]) == (0.0, 40.0)
    assert not old.bound  # the old one keeps its last value
    assert_agrees(flock)


def test_a_replaced_boid_marker_changes_the_species() -> None:
    """Before: ignored."""
    flock = flock_of(10)
    entity = int(flock.entities[0])
    esper.add_component(entity, Boid("b"))
    flock.step(0.0)
    assert flock.store.species[flock.store.row(entity)] == flock.species.index("b")


@pytest.mark.parametrize(
    ("kind", "component", "why"),
    [
        (Boid, Boid("shark"), "not a species of the flock"),
        (Boid, Position(1.0, 1.0), "is not a Boid"),
        (Position, Velocity(1.0, 1.0), "is not a Position"),
        (Position, "the other boid's", "already another boid's"),
    ],
)
def test_a_bad_replacement_is_refused_by_add_component(kind: type, component: Any,
                                                       why: str) -> None:  # fmt: skip
    """Before: taken silently (an unknown species, a shared Position, a wrong type)."""
    flock = flock_of(10)
    entity, other = (int(e) for e in flock.entities[:2])
    if component == "the other boid's":
        component = esper.component_for_entity(other, Position)
    before: tuple[Any, ...] = esper.components_for_entity(entity)
    with pytest.raises(ValueError) as raised:
        esper.add_component(entity, component, type_alias=kind)
    assert why in one_line(raised, f"add_component: entity {entity}:")
    assert esper.components_for_entity(entity) == before
    flock.step()
    assert_agrees(flock)


@pytest.mark.parametrize("kind", [Position, Velocity])
def test_a_boid_that_loses_its_position_or_velocity_leaves_the_flock(kind: type) -> None:
    """Before: its row stayed and was simulated, with no Position for the game to read."""
    flock = flock_of(5)
    entity = int(flock.entities[0])
    esper.remove_component(entity, kind)
    flock.step()
    assert entity not in flock.store and not esper.has_component(entity, Boid)
    assert_agrees(flock)


@pytest.mark.parametrize(
    ("parts", "why"),
    [
        ("twins", "share one Position"),
        ("another boid's", "already another boid's"),
        ("no velocity", "has a Boid but no Velocity"),
        ("unknown species", "not a species of the flock"),
    ],
)
def test_a_boid_created_with_esper_that_cannot_be_one_is_named(parts: str, why: str) -> None:
    """Before: two new boids sharing one Position were both taken (one read the other's
    row). The step refuses, naming the entity, until it is gone."""
    flock = flock_of(3)
    shared = Position(10.0, 10.0)
    if parts == "twins":
        bad = [esper.create_entity(shared, Velocity(1, 0), Boid("a")) for _ in range(2)]
    elif parts == "another boid's":
        taken = esper.component_for_entity(int(flock.entities[0]), Position)
        bad = [esper.create_entity(taken, Velocity(1, 0), Boid("a"))]
    elif parts == "no velocity":
        bad = [esper.create_entity(shared, Boid("a"))]
    else:
        bad = [esper.create_entity(shared, Velocity(1, 0), Boid("zz"))]
    for _ in range(2):  # and again: it is still there
        with pytest.raises(ValueError) as raised:
            flock.step()
        assert why in one_line(raised, "begin_step: entit")
    for entity in bad:
        esper.delete_entity(entity, immediate=True)
    flock.step()
    assert_agrees(flock)


def test_a_host_processor_that_changes_rows_between_stages() -> None:
    """A host's processor between the neighbour and steering stages despawns and spawns as
    many: the neighbour lists name old rows, so steering skips that step (before: it
    steered each boid by another's neighbours)."""
    flock = flock_of(40)
    seen: list[np.ndarray] = []

    class Churn(esper.Processor):
        def process(self, *args: Any) -> None:
            flock.despawn(flock.entities[:5].copy())
            flock.scatter("a", 5)

    class Watch(esper.Processor):
        def process(self, *args: Any) -> None:
            seen.append(flock.store.accelerations.copy())

    esper.add_processor(Churn(), 650)
    esper.add_processor(Watch(), 550)
    flock.step()
    assert not seen[0].any()
    assert_agrees(flock)


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
    original = LifecycleSystem._reachable

    def counting(self: LifecycleSystem, *args: Any) -> Any:
        asked.append(1)
        return original(self, *args)

    monkeypatch.setattr(LifecycleSystem, "_reachable", counting)
    flock.step()
    assert 1 <= len(asked) <= 10


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
