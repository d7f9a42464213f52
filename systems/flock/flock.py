"""Flock: one flock's store, species and world, and the game-facing API to them.

Over 400 lines: `Flock` is the one class a game calls, and a class is one file; its argument
checks are in `flock_arguments.py`, the host's other calls in `embedding.py`, where
`scatter` puts boids in `placing.py`.
"""

import math
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import Any

import esper
import numpy as np
import numpy.typing as npt

from shoal.components import Boid, Position, Species, Velocity
from shoal.components import arguments as check
from shoal.components.parameters import LARGEST
from shoal.systems.core.config import MAX_BOIDS, FlockConfig, checked_dt
from shoal.systems.core.events import BOIDS_SPAWNED
from shoal.systems.core.grid import Grid, build_grid, query_rows
from shoal.systems.core.species_table import RELATIONS, SpeciesTable
from shoal.systems.core.step import Neighbours, Step, list_neighbours
from shoal.systems.core.store import FloatArray, FlockStore, IntArray
from shoal.systems.flock.ecs import in_world, remove_handler
from shoal.systems.flock.embedding import Embedding
from shoal.systems.flock.flock_arguments import (
    check_handler,
    checked_species,
    disc,
    entity_ids,
    points,
)
from shoal.systems.flock.members import Members
from shoal.systems.flock.placing import Area, Room, place

FreeSpace = Callable[["Flock", Area, int], Room | None]
"""What `Flock.free_space` holds: (flock, area, count) → the room in the area for `count`
boids, or None when nothing in the flock's world narrows the area (no obstacles), or it
leaves no room at all (here, not in `placing`, which then need not import the flock)."""
SORT_EVERY = 64
"""Steps between two sorts of the store's rows into grid-cell order (`Flock._sort_rows`)."""
SORT_MIN_ROWS = 4096
"""The fewest boids whose rows the flock sorts: below, the rows fit the caches as they are
(measured at 2,000 boids: 0.64 → 0.63 ms a step, against 3.8 → 3.1 at 10,000)."""


class Flock(Embedding):
    """The boids of one esper world: their store, their species and the calls games use.

    Create it with `shoal.install` (or `shoal.systems.install`). All positions are in world
    units (px, y up), velocities in px per second (not per frame), times in seconds. The
    calls for a host's sprites and clock (`tie`, `update`, `draw`, ...) come from
    `shoal.systems.flock.embedding`.
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
        self._members = Members(self.store, self.species, world)
        # The entity of each row when the current step began: the rows its neighbour lists
        # refer to (boids may come and go before the next step).
        self._step_entities: IntArray = np.zeros(0, np.int64)
        self._markers: dict[str, Boid] = {}
        self._current = (0.0, 0.0)
        self.free_space: FreeSpace | None = None
        """Narrows where `scatter` places boids to the room outside obstacles (set by the
        obstacle stage: `shoal.systems.obstacles.room.free_room`); None: anywhere."""
        self._init_embedding()
        for s in species:
            self.add_species(s)

    def __len__(self) -> int:
        return len(self.store)

    # --- species -----------------------------------------------------------------------
    def add_species(self, species: Species) -> None:
        """Register another species (it flocks with itself and ignores the others).

        Raises:
            ValueError: `species` is not a `Species`, or its name is already registered.
        """
        check.instance("add_species", "species", species, Species)
        if species.name in self.species:
            check.fail("add_species", "species", species.name, "is already registered")
        self.species.add(species)
        self._markers[species.name] = Boid(species.name)
        self._grid = None

    def tune(self, name: str, **changes: Any) -> Species:
        """Change parameters of a species; they apply from the next step.

        Raises:
            ValueError: an unknown species, or an unknown field or an invalid value (the
                message names it; the species is unchanged).
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

        Raises:
            ValueError: an unknown species, or a relation not in `RELATIONS`.
        """
        self._index("relate", "observer", observer)
        self._index("relate", "other", other)
        if not isinstance(relation, str) or relation not in RELATIONS:
            check.fail("relate", "relation", relation, f"must be one of {RELATIONS}")
        self.species.relate(observer, other, relation)

    # --- the water ---------------------------------------------------------------------
    @property
    def current(self) -> tuple[float, float]:
        """The world's steady current (or wind), px/s² (default (0, 0): still water).

        The seeking stage adds it to every boid's acceleration, less the share its species
        swims against (`Species.rheotaxis`). Set it at any time (a level's current, a gust).

        Raises:
            ValueError: on setting, the value is not a pair of numbers within ±1e6.
        """
        return self._current

    @current.setter
    def current(self, value: tuple[float, float]) -> None:
        x, y = check.pair("Flock", "current", value)
        if max(abs(x), abs(y)) > LARGEST:
            check.fail("Flock", "current", value, f"must be within ±{LARGEST:g} on each axis")
        self._current = (x, y)

    # --- arrays ------------------------------------------------------------------------
    @property
    def positions(self) -> FloatArray:
        """Live (n, 2) positions, one row per boid. Rows change when boids are removed and,
        in a flock of `SORT_MIN_ROWS` boids or more, every `SORT_EVERY` steps (sorted by
        place, for speed): to follow a boid from step to step, key by `entities`."""
        return self.store.positions

    @property
    def velocities(self) -> FloatArray:
        """Live (n, 2) velocities, same rows as `positions`."""
        return self.store.velocities

    @property
    def entities(self) -> IntArray:
        """The entity of each row (the boid a row holds now: see `positions`)."""
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

        Raises:
            ValueError: an unknown species; positions or velocities not (n, 2) numbers
                within ±`MAX_COORDINATE`, or not as many; more than `MAX_BOIDS` in all.
            RuntimeError: the flock was uninstalled, or its world deleted.
        """
        index = self._index("spawn", "species", species)
        pos = points(positions, "spawn: positions")
        count = len(pos)
        if velocities is not None:
            vel = points(velocities, "spawn: velocities")
            if len(vel) != count:
                raise ValueError(f"spawn: velocities: {len(vel)} rows for {count} positions")
        self._members.check("spawn")
        self._check_room("spawn", "positions", count)
        if velocities is None:  # drawn last: a refused spawn leaves the generator as it was
            vel = self._random_velocities(self.species[species], count)
        with in_world(self.world):
            marker = self._markers[species]
            entities = np.fromiter(
                (esper.create_entity(Position(), Velocity(), marker) for _ in range(count)),
                np.int64,
                count,
            )
            self._members.adopt(entities, np.full(count, index, np.int64), pos, vel)
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

        Give both `centre` and `radius`, or neither. Without them the area is the world less
        its `contain` margin.

        With the obstacle stage (`install` adds it) boids go only into free room: outside
        every obstacle, 4 px clear of it where the room allows (`SCATTER_CLEARANCE`), and in a
        disc only where its centre reaches without crossing an obstacle (not behind a wall,
        not in a closed pocket, not past a world edge that does not wrap; for a centre
        inside an obstacle, the disc's largest room). A boid whose draw lands outside that
        room is drawn again in a part of the room of its own, not stacked on a wall's face
        (`shoal.systems.flock.placing`); without obstacles the draws are uniform, as they
        always were. Obstacles added after the scatter are not looked at: add the walls
        first. A disc that obstacles fill entirely is taken as if they were not there (the
        collision stage then pushes the boids out).

        Raises:
            ValueError: `count` is not an integer >= 0, an unknown species, only one of
                `centre` and `radius`, a disc past ±`MAX_COORDINATE`, or too many boids.
            RuntimeError: the flock was uninstalled, or its world deleted.
        """
        count = check.integer("scatter", "count", count)
        self._index("scatter", "species", species)
        area = None if centre is None and radius is None else disc("scatter", centre, radius)
        self._members.check("scatter")
        self._check_room("scatter", "count", count)
        # Checked before drawing: a refused scatter leaves the generator as it was.
        edge = None if self.config.wraps else self.config.bounds
        where = self._world_area() if area is None else Area.disc(*area, within=edge)
        room = None
        if self.free_space is not None and count and where.size > 0.0:
            room = self.free_space(self, where, count)
        return self.spawn(species, place(self.rng, where, count, room))

    def despawn(self, entities: int | Iterable[int]) -> None:
        """Delete boids now: their rows go at once, their esper entities at the next process.

        Their `Position` and `Velocity` keep the last values. An entity given twice is
        deleted once.

        Raises:
            ValueError: `entities` is not an entity or an iterable of entities.
            KeyError: one is not a boid of the flock (never was, or already deleted, also
                through esper): none is deleted.
            RuntimeError: the flock was uninstalled, or its world deleted.
        """
        ents = entity_ids("despawn", entities)
        self._members.check("despawn")
        with in_world(self.world):
            missing = [e for e in ents.tolist() if not self._members.is_boid(e)]
            if missing:
                raise KeyError(f"despawn: entities {missing[:10]} are not boids of this flock")
            for entity in ents.tolist():
                # Drop the marker now so that `sync` does not see a live boid until esper
                # deletes the entity at its next process().
                esper.remove_component(entity, Boid)
                esper.delete_entity(entity)
        self._members.forget(ents.tolist())

    def sync(self) -> None:
        """Make the store match the esper world: adopt new boid entities, drop deleted ones.

        Called when each step begins. Game code may delete a boid with
        `esper.delete_entity` or add one with `esper.create_entity(Position(...),
        Velocity(...), Boid(name))`, replace a boid's components with `esper.add_component`
        or clear the world: see `shoal.systems.flock.members` for what each does.

        Raises:
            ValueError: an entity cannot be a boid (say a `Boid` without a `Velocity`):
                the message names it; nothing changed.
            RuntimeError: the flock was uninstalled, or its world deleted.
        """
        self._members.sync("sync")

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
        only those of `species` when it is given.

        Raises:
            ValueError: x, y or radius is not a finite number (radius >= 0), or an unknown
                species.
            RuntimeError: the flock's world was deleted.
        """
        x = check.number("query", "x", x)
        y = check.number("query", "y", y)
        radius = check.number("query", "radius", radius, low=0.0)
        index = None if species is None else self._index("query", "species", species)
        self._members.check("query", installed=False)
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
        """Entities that `entity` saw at the start of the last step and that are still boids
        (KeyError: not a boid; none for a boid newer than that step)."""
        row = self._row("neighbours_of", entity)
        self._members.check("neighbours_of", installed=False)
        neighbours = self.neighbours
        if self.step_state.layout == self.store.layout and len(neighbours) == len(self.store):
            return self.store.entities[neighbours.of(row)]
        # Boids came or went since the step began: its rows are those of `_step_entities`.
        key = int(entity)
        then = np.flatnonzero(self._step_entities == key)
        if key in self._members.joined or not len(then) or then[0] >= len(neighbours):
            return np.zeros(0, np.int64)
        seen = self._step_entities[neighbours.of(int(then[0]))]
        still = [e in self.store and e not in self._members.joined for e in seen.tolist()]
        return seen[np.array(still, bool)] if len(seen) else seen

    # --- the flock's esper world -------------------------------------------------------
    def in_world(self) -> AbstractContextManager[None]:
        """``with flock.in_world():`` runs a block in the flock's esper world (to create
        entities or add processors there), then switches back to the caller's world.

        RuntimeError if the world was deleted (the flock never makes it again)."""
        self._members.check("in_world", installed=False)
        return in_world(self.world)

    def set_handler(self, event: str, handler: Callable[..., None]) -> None:
        """Listen to one of shoal's events (see `shoal.systems.core.events`) of this flock.

        esper keeps handlers per world and by weak reference: keep a bound method's object
        alive.

        Raises:
            ValueError: `event` is not one of shoal's events, or `handler` is not a callable
                that esper can hold by weak reference.
            RuntimeError: the flock was uninstalled, or its world deleted.
        """
        check_handler("set_handler", event, handler)
        self._check_installed("set_handler")  # uninstall removes the flock's handlers
        with in_world(self.world):
            esper.set_handler(event, handler)
        self._remember_handler(event, handler)

    def remove_handler(self, event: str, handler: Callable[..., None]) -> None:
        """Stop listening (see `set_handler`); no error if `handler` was not listening."""
        check_handler("remove_handler", event, handler)
        self._members.check("remove_handler", installed=False)
        with in_world(self.world):
            remove_handler(event, handler)

    # --- stepping ----------------------------------------------------------------------
    def step(self, dt: float | None = None) -> None:
        """Run one `esper.process` of the flock's world (all its processors, host's too).

        `dt` in [0, MAX_DT] seconds (0: a paused step), default `FlockConfig.dt`.

        Raises:
            ValueError: `dt` is not a number in [0, MAX_DT]; or an entity of the world
                cannot be a boid (see `sync`).
            RuntimeError: the flock was uninstalled, or its world deleted.
        """
        self._members.check("step")
        with in_world(self.world):
            if dt is None:
                esper.process()
            else:
                esper.process(checked_dt(dt))

    def begin_step(self, dt: float) -> Step:
        """Begin a step of `dt` seconds (the first stage to run calls this): sync the store
        with the esper world and hand the stages a fresh `Step`."""
        return self._begin_step(checked_dt(dt, "begin_step"))

    def _begin_step(self, dt: float) -> Step:
        """`begin_step` for a `dt` already checked (the stages check it once)."""
        self._members.sync("begin_step")
        self.ties.refresh(dt)
        if not self._updating:
            self.clock = None  # stepped by the host (esper.process, step), not by `update`
        self._sort_rows()
        number = self.step_state.number + 1
        store = self.store
        self.step_state = Step(
            number, dt, store.layout, start=store.positions.copy(), start_alarm=store.alarm.copy()
        )
        self._step_entities = store.entities.copy()
        self._members.joined.clear()
        return self.step_state

    # --- internals ---------------------------------------------------------------------
    def _sort_rows(self) -> None:
        """Every `SORT_EVERY` steps, put the rows of a flock of `SORT_MIN_ROWS` boids or more
        in the last step's grid-cell order (`due_order`)."""
        order = self.due_order()
        if order is not None:
            self.store.reorder(order)

    def due_order(self) -> IntArray | None:
        """The order the next step will sort the rows into (see `_sort_rows`), or None when
        it sorts none: every `SORT_EVERY` steps, a flock of `SORT_MIN_ROWS` boids or more
        takes the last step's grid-cell order (not a flock that updates in place: its rows
        are the order its boids update in, and in cell order that would sweep across the
        world). A saved flock is saved in this order (`shoal.systems.saving`).

        The stages read and write every boid's row and its neighbours' in cell order; with
        the rows in the order boids were added that is a jump in memory each time, and at
        100,000 boids the step waits on memory (measured: 33 → 26-27 ms a step once sorted).
        Boids stay near their cell for many steps, so an occasional sort keeps most of it.
        """
        last = self.step_state
        if (
            len(self.store) < SORT_MIN_ROWS
            or self.config.update != "simultaneous"  # in place, rows are the update order
            or last.number == 0
            or last.number % SORT_EVERY
            or last.layout != self.store.layout
            or len(last.cells.row) != len(self.store)
        ):
            return None
        return last.cells.row

    def _world_area(self) -> Area:
        """The world, less the `contain` margin: where `scatter` places without a disc."""
        pad = self.config.margin if self.config.boundary == "contain" else 0.0
        left, right, bottom, top = self.config.bounds
        return Area((left + pad, bottom + pad), (right - pad, top - pad))

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
