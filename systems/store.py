"""FlockStore: the boids' numbers as a struct of arrays, one dense row per boid."""

from typing import TypeVar

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
_T = TypeVar("_T", bound=np.generic)


class FlockStore:
    """Dense rows of positions, velocities, accelerations and species, keyed by entity.

    Rows are kept dense by swap-remove: deleting row i moves the last row into i. The maps
    `entity -> row` (dict) and `row -> entity` (array) are updated together and are always
    consistent. Views returned by `positions` etc. are only valid until the next add/remove.
    """

    def __init__(self, capacity: int = 256) -> None:
        self._n = 0
        self._pos: FloatArray = np.zeros((capacity, 2))
        self._vel: FloatArray = np.zeros((capacity, 2))
        self._acc: FloatArray = np.zeros((capacity, 2))
        self._species: IntArray = np.zeros(capacity, dtype=np.int64)
        self._entity: IntArray = np.full(capacity, -1, dtype=np.int64)
        self._row_of: dict[int, int] = {}
        # Bumped on every change of the positions (step, write, add, remove) so that
        # lazily built structures (the grid) know when they are stale.
        self.version = 0

    # --- sizes and views ---------------------------------------------------------------
    def __len__(self) -> int:
        return self._n

    def __contains__(self, entity: object) -> bool:
        return entity in self._row_of

    @property
    def positions(self) -> FloatArray:
        """Live (n, 2) view of the positions."""
        return self._pos[: self._n]

    @property
    def velocities(self) -> FloatArray:
        """Live (n, 2) view of the velocities."""
        return self._vel[: self._n]

    @property
    def accelerations(self) -> FloatArray:
        """Live (n, 2) view of this step's steering accelerations."""
        return self._acc[: self._n]

    @property
    def species(self) -> IntArray:
        """Live (n,) view of the species index of each row."""
        return self._species[: self._n]

    @property
    def entities(self) -> IntArray:
        """Live (n,) view of the entity of each row."""
        return self._entity[: self._n]

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
        array = self._pos if column == "position" else self._vel
        return (float(array[row, 0]), float(array[row, 1]))

    def write_vector(self, column: str, entity: int, x: float, y: float) -> None:
        """Set one entity's (x, y) in `column`. Values must be finite."""
        if not (np.isfinite(x) and np.isfinite(y)):
            raise ValueError(f"{column} of entity {entity} must be finite, got ({x}, {y})")
        row = self._row_of[entity]
        array = self._pos if column == "position" else self._vel
        array[row] = (x, y)
        self.version += 1

    # --- add / remove ------------------------------------------------------------------
    def add(
        self, entities: IntArray, species: IntArray, positions: FloatArray, velocities: FloatArray
    ) -> None:
        """Append rows for new entities."""
        count = len(entities)
        self._reserve(self._n + count)
        rows = slice(self._n, self._n + count)
        self._pos[rows] = positions
        self._vel[rows] = velocities
        self._acc[rows] = 0.0
        self._species[rows] = species
        self._entity[rows] = entities
        self._row_of.update(zip(entities.tolist(), range(self._n, self._n + count), strict=True))
        self._n += count
        self.version += 1

    def remove(self, entities: IntArray) -> None:
        """Remove the rows of `entities` (each must be present), keeping rows dense."""
        for entity in entities.tolist():
            row = self._row_of.pop(entity)
            last = self._n - 1
            if row != last:
                for array in (self._pos, self._vel, self._acc, self._species, self._entity):
                    array[row] = array[last]
                self._row_of[int(self._entity[row])] = row
            self._entity[last] = -1
            self._n = last
        self.version += 1

    def _reserve(self, needed: int) -> None:
        capacity = len(self._entity)
        if needed <= capacity:
            return
        new_capacity = max(needed, 2 * capacity)
        self._pos = _grown(self._pos, new_capacity)
        self._vel = _grown(self._vel, new_capacity)
        self._acc = _grown(self._acc, new_capacity)
        self._species = _grown(self._species, new_capacity)
        self._entity = _grown(self._entity, new_capacity, fill=-1)

    def check(self) -> None:
        """Raise AssertionError if the entity <-> row maps disagree (used by tests)."""
        assert len(self._row_of) == self._n, "map size differs from row count"
        for entity, row in self._row_of.items():
            assert self._entity[row] == entity, f"row {row} holds {self._entity[row]}"
        assert np.all(self._entity[self._n :] == -1), "stale entity past the last row"


def _grown(array: npt.NDArray[_T], capacity: int, fill: int = 0) -> npt.NDArray[_T]:
    grown = np.full((capacity, *array.shape[1:]), fill, dtype=array.dtype)
    grown[: len(array)] = array
    return grown
