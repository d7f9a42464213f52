"""The few places where shoal needs more from esper 3 than its public functions give."""

from collections.abc import Callable, Iterator
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


def processors() -> list[Any]:
    """The processors of the current world, in the order esper runs them (a copy).

    esper 3 finds a processor only by its class (`esper.get_processor`); to find every
    processor that belongs to a flock, whatever its class, read its list.
    """
    return list(esper._processors)


def remove_handler(event: str, handler: Callable[..., None]) -> None:
    """Stop `handler` receiving `event` in the current world; silent if it was not set.

    `esper.remove_handler` never finds a bound method in esper 3.9: it looks for a plain
    weak reference to the method, while `set_handler` stored a `WeakMethod`, and the two
    never compare equal. This compares what each stored reference resolves to.
    """
    found = esper.event_registry.get(event)
    if not found:
        return
    for reference in [r for r in found if r() == handler]:
        found.discard(reference)
    if not found:
        del esper.event_registry[event]
