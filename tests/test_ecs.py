"""shoal's reads of esper's internals (`shoal.systems.flock.ecs`): every change of a world's
entities or components is seen by `unchanged`, every change of the entities of one component
type by `counted`, whatever queries came in between, and a world context is entered and left
as it should be."""

from collections.abc import Callable, Iterator

import esper
import pytest

from shoal.components import Food, Position
from shoal.systems.flock.ecs import Counted, counted, in_world, mark_world, unchanged

WORLD = "ecs-test"


@pytest.fixture
def world() -> Iterator[int]:
    """A world of its own holding one entity; the default world current around it."""
    with in_world(WORLD):
        entity = esper.create_entity(Position(1.0, 2.0))
    yield entity
    esper.delete_world(WORLD)


def _delete_later(entity: int) -> None:
    esper.delete_entity(entity)  # deferred: done at the next process
    esper.process()


CHANGES: dict[str, Callable[[int], object]] = {
    "create_entity": lambda e: esper.create_entity(Food()),
    "add_component": lambda e: esper.add_component(e, Food()),
    "replace a component": lambda e: esper.add_component(e, Position(5.0, 5.0)),
    "remove_component": lambda e: esper.remove_component(e, Position),
    "delete_entity, immediate": lambda e: esper.delete_entity(e, immediate=True),
    "delete_entity, deferred": _delete_later,
    "clear_database": lambda e: esper.clear_database(),
}


@pytest.mark.parametrize("change", CHANGES)
@pytest.mark.parametrize("query_after", [False, True])
def test_every_change_of_the_world_is_seen(world: int, change: str, query_after: bool) -> None:
    with in_world(WORLD):
        mark = mark_world()
        esper.get_component(Position)  # other queries leave the mark alone
        assert unchanged(mark)
        CHANGES[change](world)
        if query_after:  # a query empties esper's dirty cache: the mark goes with it
            esper.get_component(Position)
        assert not unchanged(mark)


def test_a_mark_is_of_its_own_world(world: int) -> None:
    with in_world(WORLD):
        mark = mark_world()
    assert not unchanged(mark)  # read in another world
    with in_world(WORLD):
        assert unchanged(mark)


def test_in_world_switches_and_switches_back_even_on_an_error(world: int) -> None:
    before = esper.current_world
    with in_world(WORLD):
        assert esper.current_world == WORLD
        with in_world(WORLD):  # already there: stays
            assert esper.current_world == WORLD
        assert esper.current_world == WORLD
    assert esper.current_world == before
    with pytest.raises(KeyError), in_world(WORLD):
        raise KeyError("raised in the block")
    assert esper.current_world == before


# Changes of the entities that have a Position (the fixture's entity has one).
POSITION_CHANGES: dict[str, Callable[[int], object]] = {
    "create_entity": lambda e: esper.create_entity(Position(3.0, 3.0)),
    "add_component": lambda e: esper.add_component(esper.create_entity(Food()), Position(0, 0)),
    "replace a component": lambda e: esper.add_component(e, Position(5.0, 5.0)),
    "remove_component": lambda e: esper.remove_component(e, Position),
    "delete_entity, immediate": lambda e: esper.delete_entity(e, immediate=True),
    "delete_entity, deferred": _delete_later,
    "clear_database": lambda e: esper.clear_database(),
    "one deleted, one added": lambda e: _swap(e),
}


def _swap(entity: int) -> None:
    """One entity with a Position deleted, another given one: as many as before."""
    esper.delete_entity(entity, immediate=True)
    esper.add_component(esper.create_entity(Food()), Position(1.0, 2.0))


def _same(before: Counted | None, changes: int) -> bool:
    now = counted(Position)
    return now is before and (now is None or now.changes == changes)


@pytest.mark.parametrize("change", POSITION_CHANGES)
def test_every_change_of_a_component_types_entities_is_counted(world: int, change: str) -> None:
    with in_world(WORLD):
        members = counted(Position)
        assert members is not None and members == {world}
        changes = members.changes
        esper.create_entity(Food())  # other types leave it alone
        esper.get_component(Position)
        assert _same(members, changes)
        POSITION_CHANGES[change](world)
        esper.get_component(Position)
        assert not _same(members, changes)


def test_counted_follows_esper_and_is_of_its_own_world(world: int) -> None:
    with in_world(WORLD):
        members = counted(Position)
        assert counted(Position) is members and counted(Food) is None
        other = esper.create_entity(Position(0.0, 0.0))
        assert {e for e, _ in esper.get_component(Position)} == {world, other} == members
    assert counted(Position) is not members
