"""FlockStore: the boids' numbers as a struct of arrays, one dense row per boid."""

import operator
from collections.abc import Mapping
from types import MappingProxyType
from typing import TypeVar

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
_T = TypeVar("_T", bound=np.generic)


# Every per-boid column: name -> (shape of one row, dtype, value of an empty row).
_COLUMNS: dict[str, tuple[tuple[int, ...], type[np.generic], float]] = {
    "position": ((2,), np.float64, 0.0),
    "velocity": ((2,), np.float64, 0.0),
    "acceleration": ((2,), np.float64, 0.0),
    "kept": ((2,), np.float64, 0.0),  # the acceleration a boid keeps (`ACCELERATIONS`: kept)
    "species": ((), np.int64, 0),
    "entity": ((), np.int64, -1),
    "alarm": ((), np.float64, 0.0),  # 1: flees a predator it sees; less: alarmed by others
    "alarm_age": ((), np.float64, 0.0),  # seconds since its alarm level last rose
    "burst": ((), np.float64, 0.0),  # > 0: seconds of burst left; < 0: spent until calm
    "cooldown": ((), np.float64, 0.0),  # seconds until it may eat or catch again
    "wander": ((), np.float64, 0.0),  # angle of its wander target off its heading (rad)
    "wander_drift": ((), np.float64, 0.0),  # how fast that angle drifts (rad/s)
}


COLUMNS: Mapping[str, tuple[tuple[int, ...], type[np.generic], float]] = MappingProxyType(_COLUMNS)
"""Every per-boid column, read-only: name -> (shape of one row, dtype, value of an empty row)
(what a saved flock holds of each boid: `shoal.systems.saving`)."""


def _column(name: str, doc: str) -> property:
    """A read-only property of `FlockStore`: the live view of column `name`, read by a C
    getter (`operator.attrgetter`) from the attribute `_refresh_views` sets."""
    return property(operator.attrgetter(f"_live_{name}"), doc=doc)


_DENSE_SPAN = 8
"""`index_in` looks values up in a table while they span at most this many per known one."""


class FlockStore:
    """Dense rows of every boid's numbers (position, velocity, ...), keyed by entity.

    Rows are kept dense by swap-remove: deleting row i moves the last row into i. The maps
    `entity -> row` (dict) and `row -> entity` (array) are updated together and are always
    consistent. Rows also move when `reorder` sorts them (a large flock does, every
    `SORT_EVERY` steps): a row number means a boid only until the store's `layout` changes.
    Views returned by `positions` etc. stay views of the live rows until the next add or
    remove.
    """

    def __init__(self, capacity: int = 256) -> None:
        self._n = 0
        self._columns: dict[str, npt.NDArray[np.generic]] = {
            name: np.full((capacity, *shape), empty, dtype=dtype)
            for name, (shape, dtype, empty) in _COLUMNS.items()
        }
        self._row_of: dict[int, int] = {}
        self._views: dict[str, npt.NDArray[np.generic]] = {}
        self._refresh_views()
        # Bumped on every change of the positions (step, write, add, remove) so that
        # lazily built structures (the grid) know when they are stale.
        self.version = 0
        # Bumped when rows are added, removed or reordered: row numbers kept from before are
        # stale.
        self.layout = 0
        # Bumped when the flock's esper world was cleared (esper.clear_database): entity ids
        # start again, so an entity kept from before may now name another boid.
        self.epoch = 0

    # --- sizes and views ---------------------------------------------------------------
    def __len__(self) -> int:
        return self._n

    def __contains__(self, entity: object) -> bool:
        return entity in self._row_of

    def _refresh_views(self) -> None:
        """Slice each column to the live rows once per add or remove, not at every read: the
        stages read some 30 columns a step (a slice costs ~0.3 µs)."""
        self._views = {name: column[: self._n] for name, column in self._columns.items()}
        for name, view in self._views.items():
            setattr(self, f"_live_{name}", view)  # what the columns' properties read

    # Each column is a property whose getter is C (`_column`): a property in Python cost a
    # call, ~0.1 µs a read within a step: 2.3 µs of a 100-boid step's 65 (measured in turn).
    positions: FloatArray = _column(  # type: ignore[assignment]
        "position", "Live (n, 2) view of the positions."
    )
    velocities: FloatArray = _column(  # type: ignore[assignment]
        "velocity", "Live (n, 2) view of the velocities."
    )
    accelerations: FloatArray = _column(  # type: ignore[assignment]
        "acceleration", "Live (n, 2) view of this step's steering accelerations."
    )
    kept: FloatArray = _column(  # type: ignore[assignment]
        "kept",
        "Live (n, 2) view: the acceleration each boid of a species that keeps it "
        "(`ACCELERATIONS`) moved under last step, which this step's steering adds to.",
    )
    species: IntArray = _column(  # type: ignore[assignment]
        "species", "Live (n,) view of the species index of each row."
    )
    entities: IntArray = _column(  # type: ignore[assignment]
        "entity", "Live (n,) view of the entity of each row."
    )
    alarm: FloatArray = _column(  # type: ignore[assignment]
        "alarm",
        "Live (n,) alarm level: 1 flees a predator it sees, less is alarm spread by others.",
    )
    alarm_age: FloatArray = _column(  # type: ignore[assignment]
        "alarm_age",
        "Live (n,) seconds since each boid's alarm level last rose: its alarm has spread "
        "alarm_speed × this far from it.",
    )
    burst: FloatArray = _column(  # type: ignore[assignment]
        "burst",
        "Live (n,) burst state: > 0 seconds of burst left, < 0 spent (until calm), 0 none.",
    )
    cooldown: FloatArray = _column(  # type: ignore[assignment]
        "cooldown", "Live (n,) seconds until each boid may eat or catch again."
    )
    wander: FloatArray = _column(  # type: ignore[assignment]
        "wander", "Live (n,) wander angle of each boid (radians off its heading)."
    )
    wander_drift: FloatArray = _column(  # type: ignore[assignment]
        "wander_drift", "Live (n,) rate at which each boid's wander angle drifts (rad/s)."
    )

    def column(self, name: str) -> npt.NDArray[np.generic]:
        """The live view of column `name` (one of `COLUMNS`); KeyError if there is none."""
        return self._views[name]

    def row(self, entity: int) -> int:
        """The row of `entity`; KeyError if it is not in the store."""
        return self._row_of[entity]

    def rows(self, entities: IntArray) -> IntArray:
        """Rows of several entities (KeyError for any unknown)."""
        return np.fromiter((self._row_of[int(e)] for e in entities), np.int64, len(entities))

    # --- the VectorStore protocol used by Position / Velocity --------------------------
    def read_vector(self, column: str, entity: int) -> tuple[float, float]:
        """Return one entity's (x, y) in `column` ("position" or "velocity")."""
        row = self._row_of[entity]
        array = self._columns[column]
        return (float(array[row, 0]), float(array[row, 1]))

    def write_vector(self, column: str, entity: int, x: float, y: float) -> None:
        """Set one entity's (x, y) in `column`. Values must be finite."""
        if not (np.isfinite(x) and np.isfinite(y)):
            raise ValueError(f"{column} of entity {entity} must be finite, got ({x}, {y})")
        self._columns[column][self._row_of[entity]] = (x, y)
        self.version += 1

    # --- add / remove ------------------------------------------------------------------
    def add(
        self, entities: IntArray, species: IntArray, positions: FloatArray, velocities: FloatArray
    ) -> None:
        """Append rows for new entities (their other columns start empty)."""
        count = len(entities)
        self._reserve(self._n + count)
        rows = slice(self._n, self._n + count)
        for name, (_, _, empty) in _COLUMNS.items():
            self._columns[name][rows] = empty
        self._columns["position"][rows] = positions
        self._columns["velocity"][rows] = velocities
        self._columns["species"][rows] = species
        self._columns["entity"][rows] = entities
        self._row_of.update(zip(entities.tolist(), range(self._n, self._n + count), strict=True))
        self._n += count
        self._refresh_views()
        self.version += 1
        self.layout += 1

    def remove(self, entities: IntArray) -> None:
        """Remove the rows of `entities` (each must be present), keeping rows dense."""
        entity_column = self._columns["entity"]
        for entity in entities.tolist():
            row = self._row_of.pop(entity)
            last = self._n - 1
            if row != last:
                for array in self._columns.values():
                    array[row] = array[last]
                self._row_of[int(entity_column[row])] = row
            entity_column[last] = -1
            self._n = last
        self._refresh_views()
        self.version += 1
        self.layout += 1

    def reorder(self, order: IntArray) -> None:
        """Move the rows so that row i holds what row `order[i]` held (`order`: a
        permutation of the rows). Every column moves in place: views stay views."""
        n = self._n
        order = np.asarray(order)
        if not _is_permutation(order, n):
            raise ValueError(f"FlockStore.reorder: order must be a permutation of {n} rows")
        scratch = np.empty(2 * n)  # the widest column's (n, 2) floats
        for column in self._columns.values():
            live = column[:n]
            moved = scratch[: live.size].view(live.dtype).reshape(live.shape)
            np.take(live, order, axis=0, out=moved)
            live[...] = moved
        self._row_of = dict(zip(self._columns["entity"][:n].tolist(), range(n), strict=True))
        self.version += 1
        self.layout += 1

    def _reserve(self, needed: int) -> None:
        capacity = len(self._columns["entity"])
        if needed <= capacity:
            return
        new_capacity = max(needed, 2 * capacity)
        for name, (_, _, empty) in _COLUMNS.items():
            self._columns[name] = _grown(self._columns[name], new_capacity, empty)

    def check(self) -> None:
        """Raise AssertionError if the entity <-> row maps disagree (used by tests)."""
        entity_column = self._columns["entity"]
        assert len(self._row_of) == self._n, "map size differs from row count"
        for entity, row in self._row_of.items():
            assert entity_column[row] == entity, f"row {row} holds {entity_column[row]}"
        assert np.all(entity_column[self._n :] == -1), "stale entity past the last row"


def index_in(known: IntArray, wanted: IntArray) -> tuple[npt.NDArray[np.intp], BoolArray]:
    """For each of `wanted`, its index in `known` (any where absent) and whether it is there.

    `known` must not be empty and hold each value once (entities: a vectorised look-up, for
    thousands of rows at a time where a dict costs ~0.1 µs each)."""
    if len(wanted) == 0:
        return np.zeros(0, np.intp), np.zeros(0, bool)
    low = min(int(known.min()), int(wanted.min()))
    span = max(int(known.max()), int(wanted.max())) - low + 1
    if low >= 0 and span <= _DENSE_SPAN * len(known) + 1024:
        # Entity ids are small and dense: a table indexed by value, O(n) (at 100,000 rows
        # ~2 ms, against ~35 for argsort and searchsorted, measured side by side).
        table = np.zeros(span, np.intp)
        table[known - low] = np.arange(len(known))
        source = table[wanted - low]
    else:
        order = np.argsort(known, kind="stable")
        source = order[np.minimum(np.searchsorted(known[order], wanted), len(known) - 1)]
    return source, known[source] == wanted


def _is_permutation(order: npt.NDArray[np.generic], n: int) -> bool:
    """True when `order` holds each of 0 .. n-1 once (bincount: ~10× cheaper than sorting)."""
    if order.shape != (n,) or not np.issubdtype(order.dtype, np.integer):
        return False
    if n == 0:
        return True
    if int(order.min()) < 0 or int(order.max()) >= n:
        return False
    return bool(np.all(np.bincount(order, minlength=n) == 1))


def _grown(array: npt.NDArray[_T], capacity: int, fill: float) -> npt.NDArray[_T]:
    grown = np.full((capacity, *array.shape[1:]), fill, dtype=array.dtype)
    grown[: len(array)] = array
    return grown
