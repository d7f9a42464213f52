"""Members: which esper entities are a flock's boids, kept consistent with the esper world.

A boid is an entity with a `Position`, a `Velocity` and a `Boid`; its numbers live in a
`FlockStore` row, and its Position and Velocity are bound to that row. Game code may change
boids through esper as well as through the flock; the flock honours each change at its next
sync (each step begins with one), or refuses it with one clear line:

- `delete_entity(e)`, `remove_component(e, Boid)`: the boid leaves; its vectors keep their
  last values.
- `create_entity(Position(...), Velocity(...), Boid(name))`: a new boid (ValueError at the
  step, naming the entity, if it cannot be one: no Velocity, an unknown species, a vector
  of another boid's).
- `add_component(e, Position(...))` (or a `Velocity`): the boid takes the new vector's value
  and the vector is bound to its row; the old one keeps its last value.
- `add_component(e, Boid(other))`: the boid changes species. A replacement that cannot be
  (an unknown species, another boid's vector, a wrong type) is refused by `add_component`
  itself with a ValueError, and nothing changes.
- `remove_component(e, Position)` (or `Velocity`): the boid leaves the flock and loses its
  `Boid` too.
- `clear_database()`: every boid leaves; ids start again at 1, and an entity with an old
  boid's id is a new boid.
- `delete_world(name)`: the flock's calls raise RuntimeError; it never makes the world again.

Noticing costs O(1) work per sync when nothing changed: esper tells whether anything of the
world changed since the last sync (`shoal.systems.flock.ecs.unchanged`); if something did,
esper's own set of `Boid` entities is compared with the flock's (in C). A boid's component
dict reports replacements (`shoal.systems.flock.ecs.watch`), and the world's id counter
tells a cleared database.
"""

from collections.abc import Iterable
from typing import Any

import esper
import numpy as np

from shoal.components import Boid, Position, Velocity
from shoal.components.arguments import shown
from shoal.systems.core.species_table import SpeciesTable
from shoal.systems.core.store import FloatArray, FlockStore, IntArray
from shoal.systems.flock.ecs import (
    Identity,
    components_of,
    entities_with,
    in_world,
    mark_world,
    unchanged,
    watch,
    world_identity,
)

WATCHED: frozenset[type[Any]] = frozenset({Position, Velocity, Boid})
"""The component types of a boid whose replacement or removal the flock must notice."""

_MOST_PROBLEMS_SHOWN = 1

Parts = tuple[int, Position, Velocity, Boid]
"""A boid entity and its Position, Velocity and Boid components."""


class Members:
    """The boid entities of one flock's esper world, bound to the rows of its store.

    Args:
        store: the flock's store (rows are added and removed here).
        species: the flock's species (names of `Boid` markers are checked against it).
        world: the esper world's name (made now if it does not exist).
    """

    def __init__(self, store: FlockStore, species: SpeciesTable, world: str) -> None:
        self.store, self.species, self.world = store, species, world
        self.known: set[int] = set()
        # Entities whose Position, Velocity or Boid esper replaced or removed since the
        # last sync (told by their watched component dicts).
        self.touched: set[int] = set()
        # Entities that became boids since `joined.clear()` (the flock clears it when a
        # step begins): an id in here is a boid newer than the step's neighbour lists.
        self.joined: set[int] = set()
        self.uninstalled = False
        self._vectors: dict[int, tuple[Position, Velocity]] = {}
        # The world as the last sync left it (`ecs.mark_world`): while it is unchanged, the
        # next sync has nothing to compare.
        self._mark: object = object()
        with in_world(world):  # makes the world if it does not exist yet
            identity = world_identity(world)
        assert identity is not None
        self._identity: Identity = identity

    # --- the world ----------------------------------------------------------------------
    def check(self, owner: str, *, installed: bool = True) -> None:
        """Raise RuntimeError if the flock's world was deleted (or, with `installed`, if the
        flock was uninstalled); after `esper.clear_database`, forget every boid."""
        if installed and self.uninstalled:
            raise RuntimeError(
                f"{owner}: this flock was uninstalled (shoal.uninstall); install a new one"
            )
        identity = world_identity(self.world)
        if identity is None or identity[0] is not self._identity[0]:
            raise RuntimeError(
                f"{owner}: the flock's esper world {shown(self.world)} was deleted "
                "(esper.delete_world); install a new flock"
            )
        if identity[1] is not self._identity[1]:  # esper.clear_database: every boid is gone
            self._identity = identity
            self.touched.clear()
            self.forget(sorted(self.known))
            self.store.epoch += 1

    def is_boid(self, entity: int) -> bool:
        """Whether `entity` is a boid of the flock in esper too (the world must be current)."""
        return entity in self.known and entity in entities_with(Boid)

    # --- adding and removing ------------------------------------------------------------
    def adopt(
        self, entities: IntArray, species: IntArray, pos: FloatArray, vel: FloatArray
    ) -> None:
        """Give new boid entities of the current world rows, bind their Position and
        Velocity, and watch their components."""
        self.store.add(entities, species, pos, vel)
        for entity in entities.tolist():
            components = components_of(entity)
            assert components is not None  # the caller made or found it in this world
            position, velocity = components[Position], components[Velocity]
            position.bind(self.store, entity)
            velocity.bind(self.store, entity)
            self._vectors[entity] = (position, velocity)
            watch(entity, WATCHED, self._note)
        self.known.update(entities.tolist())
        self.joined.update(entities.tolist())

    def forget(self, entities: Iterable[int]) -> None:
        """Remove the rows of boids that left; their vectors keep their last values."""
        gone = np.fromiter(entities, np.int64)
        if not len(gone):
            return
        for entity in gone.tolist():
            for vector in self._vectors.pop(entity):
                vector.unbind()
        self.store.remove(gone)
        self.known.difference_update(gone.tolist())

    def drop_gone(self) -> None:
        """Forget the boids that esper no longer has as boids (deleted, or their `Boid`
        removed) since the last sync."""
        with in_world(self.world):
            gone = self.known - entities_with(Boid)
        self.forget(sorted(gone))

    def sync(self, owner: str) -> None:
        """Make the flock match its esper world (see the module docstring)."""
        self.check(owner)
        with in_world(self.world):
            if not self.touched and unchanged(self._mark):
                return
            alive = entities_with(Boid)
            if alive != self.known or self.touched:
                gone = self.known - alive
                if gone:
                    self.forget(sorted(gone))
                if self.touched:
                    self._refresh(owner)
                new = sorted(entities_with(Boid) - self.known)
                if new:
                    self._adopt_foreign(owner, new)
            self._mark = mark_world()

    # --- what esper changed -------------------------------------------------------------
    def _note(self, entity: int, kind: type[Any], value: Any, replaced: bool) -> None:
        """A watched component of `entity` is being set to `value` (None: removed)."""
        if entity not in self.known:
            return  # despawned, its deletion pending
        if value is not None and replaced:
            problem = self._problem(entity, kind, value)
            if problem:  # refused before esper changes anything
                raise ValueError(f"add_component: entity {entity}: {problem}")
        self.touched.add(entity)

    def _problem(self, entity: int, kind: type[Any], value: Any) -> str:
        """Why `value` cannot be the `kind` component of boid `entity` ("" if it can)."""
        if not isinstance(value, kind):
            return f"{shown(value)} is not a {kind.__name__}"
        if isinstance(value, Boid):
            if value.species not in self.species:
                return (
                    f"Boid species {shown(value.species)} is not a species of the flock "
                    f"(known: {shown(self.species.names)})"
                )
            return ""
        current = self._vectors.get(entity, (None, None))
        if value.bound and value is not current[0] and value is not current[1]:
            return f"its {kind.__name__} is already another boid's (give each boid its own)"
        return ""

    def _parts(self, entity: int, problems: list[str]) -> Parts | str:
        """A boid entity's Position, Velocity and Boid (adding to `problems` why they cannot
        make a boid), or the name of the vector it lacks."""
        components = components_of(entity) or {}
        position, velocity = components.get(Position), components.get(Velocity)
        if position is None or velocity is None:
            return "Position" if position is None else "Velocity"
        boid = components[Boid]
        for kind, value in ((Position, position), (Velocity, velocity), (Boid, boid)):
            problem = self._problem(entity, kind, value)
            if problem:
                problems.append(f"entity {entity}: {problem}")
        return entity, position, velocity, boid

    def _refresh(self, owner: str) -> None:
        """Honour the replaced and removed components of the touched boids, or refuse them
        all (ValueError) and change nothing."""
        changes: list[Parts] = []
        leaving: list[int] = []
        problems: list[str] = []
        for entity in sorted(self.touched & self.known):
            components = components_of(entity)
            if components is None or Boid not in components:
                continue  # gone: forgotten by the caller
            parts = self._parts(entity, problems)
            if isinstance(parts, str):  # it lost its Position or Velocity
                leaving.append(entity)
            else:
                changes.append(parts)
        problems += _shared(changes, self._vectors)
        _refuse(owner, problems)
        for entity in leaving:
            self.forget([entity])
            esper.remove_component(entity, Boid)  # no longer a boid, for esper too
        for entity, position, velocity, boid in changes:
            self._rebind(entity, position, velocity, self.species.index(boid.species))
        self.touched.clear()
        self.store.version += 1

    def _rebind(self, entity: int, position: Position, velocity: Velocity, species: int) -> None:
        """Make `position` and `velocity` the boid's: the store takes their values."""
        row = self.store.row(entity)
        old = self._vectors[entity]
        for new, column, current in ((position, self.store.positions, old[0]),
                                     (velocity, self.store.velocities, old[1])):  # fmt: skip
            if new is not current:
                column[row] = new.xy
                current.unbind()
                new.bind(self.store, entity)
        self._vectors[entity] = (position, velocity)
        self.store.species[row] = species

    def _adopt_foreign(self, owner: str, entities: list[int]) -> None:
        """Adopt boid entities that game code created with esper directly, or refuse them
        all (ValueError naming the first) and change nothing."""
        problems: list[str] = []
        found: list[Parts] = []
        for entity in entities:
            parts = self._parts(entity, problems)
            if isinstance(parts, str):
                problems.append(
                    f"entity {entity} has a Boid but no {parts} (a boid needs Position, "
                    "Velocity and Boid; Flock.spawn makes them)"
                )
            else:
                found.append(parts)
        problems += _shared(found, {})
        _refuse(owner, problems)
        pos = np.array([p.xy for _, p, _, _ in found], np.float64).reshape(-1, 2)
        vel = np.array([v.xy for _, _, v, _ in found], np.float64).reshape(-1, 2)
        species = np.array([self.species.index(b.species) for *_, b in found], np.int64)
        self.adopt(np.array(entities, np.int64), species, pos, vel)


def _shared(boids: list[Parts], current: dict[int, tuple[Position, Velocity]]) -> list[str]:
    """Problems of new vectors given to two boids at once (one object for both)."""
    owner: dict[int, int] = {}
    problems: list[str] = []
    for entity, position, velocity, _ in boids:
        for vector in (position, velocity):
            if vector in current.get(entity, ()):
                continue
            first = owner.setdefault(id(vector), entity)
            if first != entity:
                name = type(vector).__name__
                problems.append(
                    f"entities {first} and {entity} share one {name} (give each boid its own)"
                )
    return problems


def _refuse(owner: str, problems: list[str]) -> None:
    """Raise one ValueError for `problems` (the first, and how many more), if any."""
    if not problems:
        return
    more = len(problems) - _MOST_PROBLEMS_SHOWN
    tail = f" (and {more} more)" if more > 0 else ""
    raise ValueError(f"{owner}: {problems[0]}{tail}")
