"""The few places where shoal needs more from esper 3 than its public functions give.

esper (pinned to 3.x) keeps each world as module globals that `switch_world` swaps in and
out of `esper._context_map`. These facts about them let a flock stay consistent with
whatever game code does through esper itself:

- a world's entity database (`_entities`) is one dict for the world's whole life: a world
  deleted (`delete_world`) and made again under the same name has another one;
- `clear_database` replaces the world's id counter (`_entity_count`), so ids start again at
  1 and a new entity may get the id of an old boid;
- each entity's components are one dict in `_entities`, which `add_component` and
  `remove_component` change in place (`d[type] = component`, `d.pop(type)`);
- every change of a world's entities or components (`create_entity`, `delete_entity` once
  done, `add_component`, `remove_component`, `clear_database`) marks its query cache dirty
  (`_cache_dirty`), and the next query empties the cache (`_get_component_cache`);
- the entities that have a component type are one set in `_components`, which esper
  changes only with `add` (also when a component is replaced) and `discard`, and drops
  with its last entity (`clear_database` replaces the whole dict).
"""

from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from contextlib import AbstractContextManager
from typing import Any, Self

import esper

_NO_ENTITIES: frozenset[int] = frozenset()

# Positions in the tuple that esper keeps for each world in `_context_map`.
_COUNTER, _DATABASE = 0, 2

Identity = tuple[dict[int, dict[type[Any], Any]], object]
"""A world's entity database and id counter: which world it is, and since when."""


def in_world(name: str) -> AbstractContextManager[None]:
    """Run a block in esper world `name`, then switch back to the caller's world."""
    return _InWorld(name)


class _InWorld:
    """`in_world`'s context manager: a class, since a generator's (`contextlib`) costs
    ~1.9 µs a use against ~0.4, and a small flock's step uses several."""

    __slots__ = ("_name", "_previous")

    def __init__(self, name: str) -> None:
        self._name = self._previous = name

    def __enter__(self) -> None:
        self._previous = esper.current_world
        if self._previous != self._name:
            esper.switch_world(self._name)

    def __exit__(self, *exc: object) -> None:
        if self._previous != self._name:
            esper.switch_world(self._previous)


def entities_with(component_type: type[Any]) -> set[int] | frozenset[int]:
    """The live set of entities of the current world that have `component_type`.

    esper keeps this set per world (`esper._components`); reading it is O(1), whereas
    `esper.get_component` builds a list of one tuple per entity whenever anything changed.
    Do not modify the returned set.
    """
    components: dict[type[Any], set[int]] = esper._components
    return components.get(component_type, _NO_ENTITIES)


def any_entities_with(component_types: frozenset[type[Any]]) -> bool:
    """Whether some entity of the current world has one of `component_types`.

    One set operation on the keys of `esper._components` (esper drops a type's set with its
    last entity): the stages ask it each step for the kinds of agent, where a call of
    `entities_with` for each kind cost ~0.1 µs more apiece.
    """
    return not component_types.isdisjoint(esper._components)


class Counted(set[int]):
    """esper's set of the entities that have one component type, counting its changes (see
    `counted`)."""

    __slots__ = ("changes",)

    def __init__(self, entities: set[int] | frozenset[int] = _NO_ENTITIES) -> None:
        super().__init__(entities)
        self.changes = 0

    # esper 3 changes the set only through add and discard; the others are counted too, so
    # that no change goes unseen whoever makes it.
    def add(self, entity: int) -> None:
        """Add `entity` (esper's `create_entity`, `add_component`), counting a change."""
        self.changes += 1
        super().add(entity)

    def discard(self, entity: object) -> None:
        """Remove `entity` if there (esper's deletions), counting a change."""
        self.changes += 1
        super().discard(entity)

    def remove(self, entity: int) -> None:
        """Remove `entity` (KeyError if absent), counting a change."""
        self.changes += 1
        super().remove(entity)

    def pop(self) -> int:
        """Remove and return any entity, counting a change."""
        self.changes += 1
        return super().pop()

    def clear(self) -> None:
        """Remove every entity, counting a change."""
        self.changes += 1
        super().clear()

    def update(self, *others: Iterable[int]) -> None:
        """Add the entities of `others`, counting a change."""
        self.changes += 1
        super().update(*others)

    def difference_update(self, *others: Iterable[Any]) -> None:
        """Remove the entities of `others`, counting a change."""
        self.changes += 1
        super().difference_update(*others)

    def intersection_update(self, *others: Iterable[Any]) -> None:
        """Keep only the entities also in `others`, counting a change."""
        self.changes += 1
        super().intersection_update(*others)

    def symmetric_difference_update(self, other: Iterable[int]) -> None:
        """Toggle the entities of `other`, counting a change."""
        self.changes += 1
        super().symmetric_difference_update(other)

    def __ior__(self, other: AbstractSet[int]) -> Self:  # type: ignore[override,misc]
        self.changes += 1
        return super().__ior__(other)

    def __iand__(self, other: AbstractSet[object]) -> Self:
        self.changes += 1
        return super().__iand__(other)

    def __isub__(self, other: AbstractSet[object]) -> Self:
        self.changes += 1
        return super().__isub__(other)

    def __ixor__(self, other: AbstractSet[int]) -> Self:  # type: ignore[override,misc]
        self.changes += 1
        return super().__ixor__(other)


def counted(component_type: type[Any]) -> Counted | None:
    """The live set of entities of the current world that have `component_type`, as a
    `Counted` (None when none has): O(1).

    While it is the very same object with the same `changes`, no entity gained, lost or
    replaced a component of that type: esper's `add_component` adds to the set whether the
    type was there or not, and deletions discard from it. esper drops the set with its last
    entity, and `clear_database` drops them all, so a world emptied or cleared meanwhile
    hands back another object (or None). Comparing the set itself was O(n): a cave map's
    13,000 obstacles cost 40 µs each time the obstacle field was asked for, three times a
    step.

    The first call for a type replaces esper's plain set with a `Counted` copy, so a set
    that `entities_with` returned before no longer follows the world. Do not modify it.
    """
    components: dict[type[Any], set[int]] = esper._components
    found = components.get(component_type)
    if found is None or type(found) is Counted:
        return found
    # A plain set, from esper: replaced by a copy that counts (once per set esper makes).
    mine = components[component_type] = Counted(found)
    return mine


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
    never compare equal. This compares what each stored reference resolves to. The set is
    replaced, not changed in place: a handler may be removed (by `uninstall`, say) while
    esper's `dispatch_event` iterates over that set.
    """
    found = esper.event_registry.get(event)
    if not found:
        return
    kept = {reference for reference in found if reference() != handler}
    if kept:
        esper.event_registry[event] = kept
    else:
        del esper.event_registry[event]


def world_identity(name: str) -> Identity | None:
    """The entity database and id counter of world `name`, or None if there is no such world.

    Unlike `esper.switch_world`, this never creates the world.
    """
    if esper.current_world == name:
        return esper._entities, esper._entity_count
    saved = esper._context_map.get(name)
    if saved is None:
        return None
    database: Any = saved[_DATABASE]
    return database, saved[_COUNTER]


def id_counter() -> object:
    """The current world's id counter (`esper.clear_database` replaces it)."""
    return esper._entity_count


def components_of(entity: int) -> dict[type[Any], Any] | None:
    """The component dict of `entity` in the current world (None if it does not exist)."""
    database: dict[int, dict[type[Any], Any]] = esper._entities
    return database.get(entity)


class _Mark:
    """The component type under which `mark_world` leaves its mark in esper's query cache
    (no entity ever has one)."""


def mark_world() -> object:
    """A mark of the current world as it is now, for `unchanged`: the empty result of a
    query that esper keeps in its cache until the world's entities or components change."""
    return esper.get_component(_Mark)


def unchanged(mark: object) -> bool:
    """Whether no entity or component of the current world was created, deleted, added or
    removed since `mark_world` returned `mark`: O(1), where comparing esper's set of 10,000
    boids with the flock's took 0.14 ms a step (100,000: 1.4 ms). False whenever unsure (an
    esper without this cache)."""
    cache: dict[type[Any], Any] = getattr(esper, "_get_component_cache", {})
    return not getattr(esper, "_cache_dirty", True) and cache.get(_Mark) is mark


Listener = Callable[[int, type[Any], Any, bool], None]
"""Told (entity, component type, new component or None when removed, replaced) before
esper changes a watched component of a watched entity; it may raise to refuse a
replacement."""


class _Watched(dict[type[Any], Any]):
    """An entity's component dict that tells listeners when some of its types change."""

    __slots__ = ("_entity", "_listeners")

    def __init__(self, entity: int, components: dict[type[Any], Any]) -> None:
        super().__init__(components)
        self._entity = entity
        self._listeners: list[tuple[frozenset[type[Any]], Listener]] = []

    def _tell(self, key: type[Any], value: Any, replaced: bool) -> None:
        for types, listener in self._listeners:
            if key in types:
                listener(self._entity, key, value, replaced)

    def __setitem__(self, key: type[Any], value: Any) -> None:
        self._tell(key, value, key in self)
        super().__setitem__(key, value)

    def __delitem__(self, key: type[Any]) -> None:
        self._tell(key, None, False)
        super().__delitem__(key)

    def pop(self, key: type[Any], *default: Any) -> Any:
        """Remove `key` (esper's `remove_component`), telling the listeners first."""
        if key in self:
            self._tell(key, None, False)
        return super().pop(key, *default)


def watch(entity: int, types: frozenset[type[Any]], listener: Listener) -> None:
    """Have `listener` told whenever esper replaces or removes a component of one of `types`
    on `entity` of the current world (`add_component`, `remove_component`).

    The listener may raise to refuse a replacement (the component type was already there),
    and nothing changes; it must not raise for a new type or a removal, which esper has
    half done by then. Watching again with the same types and listener changes nothing.
    """
    database: dict[int, dict[type[Any], Any]] = esper._entities
    components = database[entity]
    if not isinstance(components, _Watched):
        components = database[entity] = _Watched(entity, components)
    if (types, listener) not in components._listeners:
        components._listeners.append((types, listener))
