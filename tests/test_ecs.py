"""shoal's reads of esper's internals (`shoal.systems.core.ecs`): every change of a world's
entities or components is seen by `unchanged`, whatever queries came in between, and a
world context is entered and left as it should be."""

from collections.abc import Callable, Iterator

import esper
import pytest

from shoal.components import Food, Position
from shoal.systems.core.ecs import in_world, mark_world, unchanged

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
