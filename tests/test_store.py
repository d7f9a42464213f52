"""The store stays dense and consistent with the esper world under any churn."""

import esper
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shoal.components import Boid, Position, Species, Velocity
from shoal.systems import Flock, FlockConfig, install

from worlds import scratch_world

SPECIES = [Species("a"), Species("b", perception_radius=30, separation_radius=10)]


def assert_consistent(flock: Flock) -> None:
    """Store maps agree; its entities are exactly the world's Boid entities; views read rows."""
    flock.store.check()
    boids = {e for e, _ in esper.get_component(Boid)}
    assert set(flock.entities.tolist()) == boids
    for row, entity in enumerate(flock.entities.tolist()):
        pos = esper.component_for_entity(entity, Position)
        vel = esper.component_for_entity(entity, Velocity)
        assert pos.xy == tuple(flock.positions[row])
        assert vel.xy == tuple(flock.velocities[row])
        species = esper.component_for_entity(entity, Boid).species
        assert flock.species.index(species) == flock.store.species[row]


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ["spawn", "despawn", "esper_delete", "esper_create", "step", "write", "reorder"]
        ),
        st.integers(0, 40),
    ),
    max_size=25,
)


@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(actions=ACTIONS, seed=st.integers(0, 1000))
def test_churn_keeps_store_consistent(actions: list[tuple[str, int]], seed: int) -> None:
    with scratch_world():
        rng = np.random.default_rng(seed)
        flock = install(FlockConfig(width=300, height=200, seed=seed), SPECIES)
        for action, count in actions:
            entities = flock.entities.tolist()
            if action == "spawn":
                flock.spawn(str(rng.choice(["a", "b"])), rng.uniform(0, 200, (count, 2)))
            elif action == "despawn" and entities:
                flock.despawn(rng.choice(entities, min(count, len(entities)), replace=False))
            elif action == "esper_delete" and entities:
                for e in rng.choice(entities, min(count, len(entities)), replace=False):
                    esper.delete_entity(int(e))
            elif action == "esper_create":
                for _ in range(count % 5):
                    esper.create_entity(
                        Position(*rng.uniform(0, 200, 2)),
                        Velocity(*rng.normal(0, 20, 2)),
                        Boid("b"),
                    )
            elif action == "reorder":
                flock.store.reorder(rng.permutation(len(flock.store)))
            elif action == "write" and entities:
                e = int(rng.choice(entities))
                esper.component_for_entity(e, Position).xy = (12.5, 34.0)
                assert flock.positions[flock.store.row(e)].tolist() == [12.5, 34.0]
            flock.step()
            assert_consistent(flock)


def test_position_is_a_live_view() -> None:
    flock = install(FlockConfig(), SPECIES)
    (entity,) = flock.spawn("a", [[100.0, 100.0]], [[50.0, 0.0]])
    pos = esper.component_for_entity(entity, Position)
    assert pos.xy == (100.0, 100.0)
    flock.step()
    assert pos.x > 100.0  # it swam
    pos.x = 400.0
    assert flock.positions[0, 0] == 400.0
    last = pos.xy
    flock.despawn(entity)
    assert pos.xy == last  # the last value is kept after deletion
    assert not pos.bound
    flock.step()
    assert not esper.entity_exists(entity)


def test_reorder_moves_every_column_with_its_boid() -> None:
    flock = install(FlockConfig(seed=3), SPECIES)
    flock.scatter("a", 40)
    flock.scatter("b", 20)
    flock.step()
    store = flock.store
    store.alarm[:] = np.arange(len(store)) / 100.0  # a column no step has written yet
    before = {
        int(entity): {name: column[row].copy() for name, column in store._views.items()}
        for row, entity in enumerate(store.entities)
    }
    positions, layout = store.positions, store.layout
    order = np.random.default_rng(5).permutation(len(store))
    store.reorder(order)
    assert store.layout == layout + 1
    assert np.array_equal(store.entities, [list(before)[i] for i in order])
    for entity, values in before.items():
        row = store.row(entity)
        for name, value in values.items():
            assert np.array_equal(store._views[name][row], value), (entity, name)
        assert esper.component_for_entity(entity, Position).xy == tuple(
            value for value in values["position"]
        )
    assert positions is store.positions or np.shares_memory(positions, store.positions)
    assert np.array_equal(
        positions, store.positions
    )  # a view kept from before reads the moved rows
    assert_consistent(flock)


@pytest.mark.parametrize(
    "order",
    [[0, 1], [0, 1, 1], [0, 1, 3], [-1, 0, 1], [0.0, 1.0, 2.0], [[0, 1, 2]], "012", None],
)
def test_reorder_refuses_anything_but_a_permutation(order: object) -> None:
    flock = install(FlockConfig(), SPECIES)
    flock.spawn("a", [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    entities, layout = flock.entities.copy(), flock.store.layout
    with pytest.raises(ValueError, match=r"FlockStore\.reorder: order must be a permutation of 3"):
        flock.store.reorder(order)  # type: ignore[arg-type]
    assert np.array_equal(flock.entities, entities) and flock.store.layout == layout


def test_bad_spawns_are_refused_with_clear_errors() -> None:
    flock = install(FlockConfig(), SPECIES)
    with pytest.raises(ValueError, match="unknown species 'shark'"):
        flock.spawn("shark", [[0, 0]])
    with pytest.raises(ValueError, match=r"positions: expected shape \(n, 2\)"):
        flock.spawn("a", [1, 2, 3])
    with pytest.raises(ValueError, match="positions: values must be finite"):
        flock.spawn("a", [[np.nan, 0]])
    with pytest.raises(ValueError, match="count = -3"):
        flock.scatter("a", -3)
    with pytest.raises(ValueError, match="exceed the limit"):
        flock.scatter("a", 10**9)
    with pytest.raises(KeyError):
        flock.despawn(12345)
    with pytest.raises(ValueError, match="must be finite"):
        (e,) = flock.spawn("a", [[1, 1]])
        esper.component_for_entity(e, Velocity).x = float("inf")
    assert len(flock) == 1


def test_adopting_a_boid_without_position_names_the_entity() -> None:
    flock = install(FlockConfig(), SPECIES)
    entity = esper.create_entity(Boid("a"))
    with pytest.raises(ValueError, match=f"entity {entity} has a Boid"):
        flock.step()
