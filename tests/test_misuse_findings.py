"""What the second hardening round found misusing the API and esper on a flock and its
world, one test each (issue 19): `neighbours_of` after rows changed, a cleared database, a
deleted world, an uninstalled flock, `despawn`, and esper's own calls replacing or removing a
boid's components. Values and calls from outside (queries, coordinates, food, handlers):
`tests/test_misuse_inputs.py`.

Each case once corrupted the flock silently, crashed deep inside, or ignored what the game
did; the comment says what happened before. The promise: every call does the right thing or
raises one clear line and changes nothing; esper's own calls on shoal's entities keep the
flock consistent (see `shoal.systems.flock.members`).
"""

from collections.abc import Callable
from typing import Any

import arcade
import esper
import numpy as np
import pytest

from shoal.components import (
    Boid,
    Circle,
    Obstacle,
    Position,
    Predator,
    Species,
    Velocity,
)
from shoal.systems import (
    RENDER_PRIORITY,
    FlockConfig,
    NeighbourSystem,
    install,
    obstacle_field,
    uninstall,
)
from shoal.systems.flock.ecs import entities_with
from shoal.systems.render import RenderSystem

from misuse_checks import assert_agrees, flock_of, one_line


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
