"""The few places where shoal needs more from esper 3 than its public functions give."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import esper

_NO_ENTITIES: frozenset[int] = frozenset()


@contextmanager
def in_world(name: str) -> Iterator[None]:
    """Run a block in esper world `name`, then switch back to the caller's world."""
    previous = esper.current_world
    if previous == name:
        yield
        return
    esper.switch_world(name)
    try:
        yield
    finally:
        esper.switch_world(previous)


def entities_with(component_type: type[Any]) -> set[int] | frozenset[int]:
    """The live set of entities of the current world that have `component_type`.

    esper keeps this set per world (`esper._components`); reading it is O(1), whereas
    `esper.get_component` builds a list of one tuple per entity whenever anything changed.
    Do not modify the returned set.
    """
    components: dict[type[Any], set[int]] = esper._components
    return components.get(component_type, _NO_ENTITIES)
