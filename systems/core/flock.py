"""Flock: one flock's store, species and world, and the game-facing API to them."""

import math
import weakref
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from itertools import islice
from typing import Any

import esper
import numpy as np
import numpy.typing as npt

from shoal.components import Boid, Position, Species, Velocity
from shoal.components import arguments as check
from shoal.systems.core.config import MAX_BOIDS, FlockConfig, checked_dt
from shoal.systems.core.ecs import entities_with, in_world, remove_handler
from shoal.systems.core.embedding import Embedding
from shoal.systems.core.events import BOIDS_SPAWNED, EVENTS
from shoal.systems.core.grid import Grid, build_grid, query_rows
from shoal.systems.core.species_table import RELATIONS, SpeciesTable
from shoal.systems.core.step import Neighbours, Step, list_neighbours
from shoal.systems.core.store import FloatArray, FlockStore, IntArray

# Every species costs a row and a column of the relation matrix and its own kernel work.
MAX_SPECIES = 1000


class Flock(Embedding):
    """The boids of one esper world: their store, their species and the calls games use.

    Create it with `shoal.install` (or `shoal.systems.install`). All positions are in world
    units (px, y up), velocities in px per second (not per frame), times in seconds. The
    calls for a host's sprites and clock (`tie`, `update`, `draw`, ...) come from
    `shoal.systems.core.embedding`.
    """

    def __init__(self, config: FlockConfig, species: Iterable[Species], world: str) -> None:
        check.instance("Flock", "config", config, FlockConfig)
        check.text("Flock", "world", world)
        species = checked_species("Flock", species)
        self.config = config
        self.world = world
        self.store = FlockStore()
        self.species = SpeciesTable()
        self.rng = np.random.default_rng(config.seed)
        self.step_state = Step(0, 0.0, self.store.layout)
        self.steps = 0
        self._grid: Grid | None = None
        self._grid_version = -1
        self._known: set[int] = set()
        self._vectors: dict[int, tuple[Position, Velocity]] = {}
        self._markers: dict[str, Boid] = {}
        self._init_embedding()
        for s in species:
            self.add_species(s)

    def __len__(self) -> int:
        return len(self.store)

    # --- species -----------------------------------------------------------------------
    def add_species(self, species: Species) -> None:
        """Register another species (it flocks with itself and ignores the others)."""
        check.instance("add_species", "species", species, Species)
        if species.name in self.species:
            check.fail("add_species", "species", species.name, "is already registered")
        self.species.add(species)
        self._markers[species.name] = Boid(species.name)
        self._grid = None

    def tune(self, name: str, **changes: Any) -> Species:
        """Change parameters of a species; they apply from the next step.

        Raises ValueError naming the field if a value is invalid (the species is unchanged).
        """
        self._index("tune", "name", name)
        try:
            species = self.species.tune(name, **changes)
        except ValueError as error:  # the table checks every change before it applies one
            raise ValueError(f"tune: {error}") from None
        self._grid = None  # the perception radius sets the cell size
        return species

    def relate(self, observer: str, other: str, relation: str) -> None:
        """Set how species `observer` treats species `other`; applies from the next step.

        Relations: "flock", "ignore", "avoid", "flee", "chase" (see `RELATIONS`). By default
        a species flocks with itself and ignores the others. A species reacts to others
        within its perception radius.
        """
        self._index("relate", "observer", observer)
        self._index("relate", "other", other)
        if not isinstance(relation, str) or relation not in RELATIONS:
            check.fail("relate", "relation", relation, f"must be one of {RELATIONS}")
        self.species.relate(observer, other, relation)

    # --- arrays ------------------------------------------------------------------------
    @property
    def positions(self) -> FloatArray:
        """Live (n, 2) positions, one row per boid (rows change when boids are removed)."""
        return self.store.positions

    @property
    def velocities(self) -> FloatArray:
        """Live (n, 2) velocities, same rows as `positions`."""
        return self.store.velocities

    @property
    def entities(self) -> IntArray:
        """The entity of each row."""
        return self.store.entities

    # --- create and delete -------------------------------------------------------------
    def spawn(
        self,
        species: str,
        positions: npt.ArrayLike,
        velocities: npt.ArrayLike | None = None,
    ) -> IntArray:
        """Create boids of `species` at `positions` ((n, 2)); returns their entities.

        Without `velocities`, each gets a random heading (from the flock's seeded generator)
        at the middle of the species' speed range. Each boid is an esper entity with
        `Position`, `Velocity` and `Boid` components.
        """
        self._check_installed("spawn")
        index = self._index("spawn", "species", species)
        pos = _points(positions, "spawn: positions")
        count = len(pos)
        self._check_room("spawn", "positions", count)
        if velocities is None:
            vel = self._random_velocities(self.species[species], count)
        else:
            vel = _points(velocities, "spawn: velocities")
            if len(vel) != count:
                raise ValueError(f"spawn: velocities: {len(vel)} rows for {count} positions")
        with in_world(self.world):
            marker = self._markers[species]
            entities = np.fromiter(
                (esper.create_entity(Position(), Velocity(), marker) for _ in range(count)),
                np.int64,
                count,
            )
            self._adopt(entities, np.full(count, index, np.int64), pos, vel)
            if count:
                esper.dispatch_event(BOIDS_SPAWNED, entities)
        return entities

    def scatter(
        self,
        species: str,
        count: int,
        centre: tuple[float, float] | None = None,
        radius: float | None = None,
    ) -> IntArray:
        """Spawn `count` boids at random (seeded): in a disc, or anywhere in the world.

        The default area keeps clear of the `contain` margin. Give both `centre` and
        `radius`, or neither.
        """
        count = check.integer("scatter", "count", count)
        self._check_room("scatter", "count", count)
        self._index("scatter", "species", species)
        if centre is None and radius is None:
            pad = self.config.margin if self.config.boundary == "contain" else 0.0
            left, right, bottom, top = self.config.bounds
            low = (left + pad, bottom + pad)
            high = (right - pad, top - pad)
            pos = self.rng.uniform(low, high, size=(count, 2))
            return self.spawn(species, pos)
        disc = _disc("scatter", centre, radius)
        angle = self.rng.uniform(0, 2 * math.pi, count)
        dist = disc[2] * np.sqrt(self.rng.uniform(0, 1, count))
        pos = np.array(disc[:2]) + np.column_stack((dist * np.cos(angle), dist * np.sin(angle)))
        return self.spawn(species, pos)

    def despawn(self, entities: int | Iterable[int]) -> None:
        """Delete boids now: their rows go at once, their esper entities at the next process.

        Their `Position` and `Velocity` keep the last values. Unknown entities raise KeyError
        (and none is deleted); an entity given twice is deleted once.
        """
        ents = _entities("despawn", entities)
        missing = [e for e in ents.tolist() if e not in self._known]
        if missing:
            raise KeyError(f"despawn: entities {missing[:10]} are not boids of this flock")
        with in_world(self.world):
            for entity in ents.tolist():
                # Drop the marker now so that `sync` does not see a live boid until esper
                # deletes the entity at its next process().
                esper.remove_component(entity, Boid)
                esper.delete_entity(entity)
        self._forget(ents)

    def sync(self) -> None:
        """Make the store match the esper world: adopt new boid entities, drop deleted ones.

        Called by the neighbour stage each step. Game code may delete a boid with
        `esper.delete_entity` or add one with `esper.create_entity(Position(...),
        Velocity(...), Boid(name))`.
        """
        with in_world(self.world):
            alive = entities_with(Boid)
            if alive == self._known:
                return
            gone = self._known - alive
            if gone:
                self._forget(np.fromiter(gone, np.int64, len(gone)))
            new = sorted(alive - self._known)
            if new:
                self._adopt_foreign(new)

    # --- queries -----------------------------------------------------------------------
    @property
    def grid(self) -> Grid:
        """The grid of the current positions (rebuilt only when they changed)."""
        if self._grid is None or self._grid_version != self.store.version:
            self._grid = build_grid(
                self.store.positions,
                self.species.max_perception,
                self.config.wraps,
                self.config.width,
                self.config.height,
                self.config.origin,
            )
            self._grid_version = self.store.version
        return self._grid

    def query(self, x: float, y: float, radius: float, species: str | None = None) -> IntArray:
        """Entities of the boids within `radius` px of (x, y), wrap-aware, sorted by row;
        only those of `species` when it is given (ValueError for an unknown name)."""
        x = check.number("query", "x", x)
        y = check.number("query", "y", y)
        radius = check.number("query", "radius", radius, low=0.0)
        index = None if species is None else self._index("query", "species", species)
        rows = query_rows(self.grid, self.store.positions, x, y, radius)
        if index is not None:
            rows = rows[self.store.species[rows] == index]
        return self.store.entities[rows]

    @property
    def neighbours(self) -> Neighbours:
        """Who each boid saw at the start of the last step (see `Neighbours`), by the same
        vision rule the steering used; listed on first use, after each step."""
        step = self.step_state
        if step.neighbours is None:
            table = self.species
            step.neighbours = list_neighbours(step.cells, table.params, table.relations)
        return step.neighbours

    def neighbours_of(self, entity: int) -> IntArray:
        """Entities that `entity` saw at the start of the last step (KeyError: not a boid)."""
        row = self._row("neighbours_of", entity)
        if row >= len(self.neighbours):
            return np.zeros(0, np.int64)
        return self.store.entities[self.neighbours.of(row)]

    # --- the flock's esper world -------------------------------------------------------
    def in_world(self) -> AbstractContextManager[None]:
        """``with flock.in_world():`` runs a block in the flock's esper world (to create
        entities or add processors there), then switches back to the caller's world."""
        return in_world(self.world)

    def set_handler(self, event: str, handler: Callable[..., None]) -> None:
        """Listen to one of shoal's events (see `shoal.systems.core.events`) of this flock.

        esper keeps handlers per world and by weak reference: keep a bound method's object
        alive.
        """
        _check_handler("set_handler", event, handler)
        self._check_installed("set_handler")
        with in_world(self.world):
            esper.set_handler(event, handler)
        self._remember_handler(event, handler)

    def remove_handler(self, event: str, handler: Callable[..., None]) -> None:
        """Stop listening (see `set_handler`); no error if `handler` was not listening."""
        _check_handler("remove_handler", event, handler)
        with in_world(self.world):
            remove_handler(event, handler)

    # --- stepping ----------------------------------------------------------------------
    def step(self, dt: float | None = None) -> None:
        """Run one `esper.process` of the flock's world (all its processors, host's too).

        `dt` in [0, MAX_DT] seconds (0: a paused step), default `FlockConfig.dt`.
        """
        self._check_installed("step")
        with in_world(self.world):
            if dt is None:
                esper.process()
            else:
                esper.process(checked_dt(dt))

    def begin_step(self, dt: float) -> Step:
        """Begin a step of `dt` seconds (the first stage to run calls this): sync the store
        with the esper world and hand the stages a fresh `Step`."""
        dt = checked_dt(dt, "begin_step")
        self.sync()
        self.ties.refresh(dt)
        if not self._updating:
            self.clock = None  # stepped by the host (esper.process, step), not by `update`
        self.step_state = Step(self.step_state.number + 1, dt, self.store.layout)
        return self.step_state

    # --- internals ---------------------------------------------------------------------
    def _check_room(self, owner: str, argument: str, count: int) -> None:
        """Refuse, before allocating anything, a spawn that would exceed `MAX_BOIDS`."""
        if len(self.store) + count > MAX_BOIDS:
            raise ValueError(
                f"{owner}: {argument}: {count} more boids would exceed the limit of {MAX_BOIDS}"
            )

    def _index(self, owner: str, argument: str, name: object) -> int:
        """The index of species `name`, or a ValueError naming the call and the argument."""
        if not isinstance(name, str):
            check.fail(owner, argument, name, "must be a species name (a str)")
        if name not in self.species:
            known = self.species.names
            raise ValueError(f"{owner}: {argument}: unknown species {name!r}; known: {known}")
        return self.species.index(name)

    def _row(self, owner: str, entity: object) -> int:
        """The store row of boid `entity`, or a KeyError naming the call."""
        key = check.entity(owner, entity)
        if key not in self.store:
            raise KeyError(f"{owner}: entity {key} is not a boid of this flock")
        return self.store.row(key)

    def _random_velocities(self, species: Species, count: int) -> FloatArray:
        speed = 0.5 * (species.min_speed + species.max_speed)
        angle = self.rng.uniform(0, 2 * math.pi, count)
        return np.column_stack((speed * np.cos(angle), speed * np.sin(angle)))

    def _adopt(
        self, entities: IntArray, species: IntArray, pos: FloatArray, vel: FloatArray
    ) -> None:
        """Give new boid entities their rows and bind their Position and Velocity."""
        self.store.add(entities, species, pos, vel)
        for entity in entities.tolist():
            position = esper.component_for_entity(entity, Position)
            velocity = esper.component_for_entity(entity, Velocity)
            position.bind(self.store, entity)
            velocity.bind(self.store, entity)
            self._vectors[entity] = (position, velocity)
        self._known.update(entities.tolist())

    def _adopt_foreign(self, entities: list[int]) -> None:
        """Adopt boid entities that game code created with esper directly."""
        pos = np.zeros((len(entities), 2))
        vel = np.zeros((len(entities), 2))
        species = np.zeros(len(entities), np.int64)
        for k, entity in enumerate(entities):
            found = esper.try_components(entity, Position, Velocity, Boid)
            if found is None:
                raise ValueError(
                    f"entity {entity} has a Boid but not both Position and Velocity; "
                    "create boids with Flock.spawn"
                )
            position, velocity, boid = found
            if position.bound or velocity.bound:
                raise ValueError(f"entity {entity} shares a Position/Velocity with another boid")
            species[k] = self._index(f"entity {entity}", "Boid.species", boid.species)
            pos[k], vel[k] = _points([position.xy], "Position")[0], velocity.xy
        if not np.all(np.isfinite(vel)):
            raise ValueError("a Velocity of a new boid entity is not finite")
        self._adopt(np.asarray(entities, np.int64), species, pos, vel)

    def _forget(self, entities: IntArray) -> None:
        """Remove rows of deleted boids; their vectors keep their last values."""
        for entity in entities.tolist():
            for vector in self._vectors.pop(entity):
                vector.unbind()
        self.store.remove(entities)
        self._known.difference_update(entities.tolist())


def checked_species(owner: str, species: object) -> tuple[Species, ...]:
    """`species` as a tuple of `Species` with unique names, or a ValueError naming `owner`."""
    if isinstance(species, str | Species) or not isinstance(species, Iterable):
        check.fail(owner, "species", species, "must be an iterable of Species")
    result = tuple(islice(species, MAX_SPECIES + 1))
    if len(result) > MAX_SPECIES:
        check.fail(owner, "species", species, f"must hold at most {MAX_SPECIES} species")
    for k, item in enumerate(result):
        check.instance(owner, f"species[{k}]", item, Species)
        if item.name in (s.name for s in result[:k]):
            check.fail(owner, f"species[{k}]", item.name, "is a second species of that name")
    return result


def _disc(owner: str, centre: object, radius: object) -> tuple[float, float, float]:
    """(x, y, radius) of a disc to scatter in, or a ValueError naming the argument."""
    if centre is None or radius is None:
        raise ValueError(f"{owner}: centre and radius: give both (a disc) or neither")
    x, y = check.pair(owner, "centre", centre)
    r = check.number(owner, "radius", radius, low=0.0)
    if not math.isfinite(max(abs(x), abs(y)) + r):
        check.fail(owner, "radius", radius, f"around centre {centre!r} overflows")
    return x, y, r


def _entities(owner: str, values: object) -> IntArray:
    """One entity or several as unique int64 ids (sorted), or a ValueError naming `owner`.

    More than `MAX_BOIDS` of them are refused before they are read (an endless generator).
    """
    if isinstance(values, int | np.integer) and not isinstance(values, bool):
        return np.array([int(values)], np.int64)
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        check.fail(owner, "entities", values, "must be an entity or an iterable of entities")
    if not isinstance(values, np.ndarray | Sequence):  # a set, a generator: read it once
        values = list(islice(values, MAX_BOIDS + 1))
    if len(values) > MAX_BOIDS:
        check.fail(owner, "entities", values, f"must be at most {MAX_BOIDS} entities")
    try:
        array = np.atleast_1d(np.asarray(values))
    except ValueError:  # ragged nesting
        array = np.zeros((1, 1))
    if array.size and (array.ndim != 1 or array.dtype.kind not in "iu"):
        check.fail(owner, "entities", values, "must be integers (entity ids), in one dimension")
    return np.unique(array.astype(np.int64))


def _check_handler(owner: str, event: object, handler: object) -> None:
    """ValueError unless `event` is one of shoal's events and esper can hold `handler`."""
    if not isinstance(event, str) or event not in EVENTS:
        check.fail(owner, "event", event, f"must be one of shoal's events {EVENTS}")
    check.function(owner, "handler", handler)
    try:
        weakref.ref(handler)  # esper keeps handlers by weak reference
    except TypeError:
        check.fail(owner, "handler", handler, "must allow a weak reference (esper keeps one)")


def _points(values: npt.ArrayLike, name: str) -> FloatArray:
    """`values` as a finite (n, 2) float array, or a ValueError naming `name`."""
    rows = getattr(values, "shape", (0,))
    if isinstance(rows, tuple) and rows and isinstance(rows[0], int) and rows[0] > MAX_BOIDS:
        # A broadcast view can claim 10**12 rows without holding them: refuse the copy.
        raise ValueError(f"{name}: {rows[0]} rows exceed the limit of {MAX_BOIDS} boids")
    try:
        array = np.array(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name}: not an array of numbers ({error})") from None
    if array.size == 0:
        return np.zeros((0, 2))
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"{name}: expected shape (n, 2), got {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name}: values must be finite")
    return array
