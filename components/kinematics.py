"""Position and Velocity: 2-D vectors that are live views of the flock store when bound."""

from collections.abc import Iterator
from typing import ClassVar, Protocol

from shoal.components.arguments import fail, number, pair, shown
from shoal.components.parameters import MAX_COORDINATE


class VectorStore(Protocol):
    """What a store offers the components: read and write one entity's row of a column."""

    def read_vector(self, column: str, entity: int) -> tuple[float, float]:
        """Return the (x, y) of `entity` in `column`."""
        ...

    def write_vector(self, column: str, entity: int, x: float, y: float) -> None:
        """Set the (x, y) of `entity` in `column`."""
        ...

    def __contains__(self, entity: object) -> bool:
        """Whether `entity` has a row."""
        ...


class _StoreVector:
    """A 2-D vector that holds its own value, or reads and writes a store row once bound.

    Binding is the flock's business (`bind` / `unbind`); game code just uses `.x`, `.y`.
    On unbind (the boid was removed) the last stored value is kept, so game code can still ask
    where an eaten fish was.
    """

    __slots__ = ("_entity", "_store", "_x", "_y")
    column: ClassVar[str] = ""

    def __init__(self, x: float = 0.0, y: float = 0.0) -> None:
        if (
            type(x) is float
            and type(y) is float
            and abs(x) <= MAX_COORDINATE  # NaN is not
            and abs(y) <= MAX_COORDINATE
        ):
            self._x, self._y = x, y  # floats in range: the common case (every spawned boid)
        else:
            self._x = _coordinate(type(self).__name__, "x", x)
            self._y = _coordinate(type(self).__name__, "y", y)
        self._store: VectorStore | None = None
        self._entity = -1

    @property
    def x(self) -> float:
        """The x component."""
        return self.xy[0]

    @x.setter
    def x(self, value: float) -> None:
        self.xy = (_coordinate(type(self).__name__, "x", value), self.xy[1])

    @property
    def y(self) -> float:
        """The y component."""
        return self.xy[1]

    @y.setter
    def y(self, value: float) -> None:
        self.xy = (self.xy[0], _coordinate(type(self).__name__, "y", value))

    @property
    def xy(self) -> tuple[float, float]:
        """Both components as a tuple."""
        if self._store is None:
            return (self._x, self._y)
        return self._store.read_vector(self.column, self._entity)

    @xy.setter
    def xy(self, value: tuple[float, float]) -> None:
        # A NaN written here would spread through every neighbour's steering next step.
        x, y = pair(type(self).__name__, "xy", value)
        if not (abs(x) <= MAX_COORDINATE and abs(y) <= MAX_COORDINATE):
            fail(type(self).__name__, "xy", value, f"must lie within ±{MAX_COORDINATE:g}")
        if self._store is None:
            self._x, self._y = x, y
        else:
            self._store.write_vector(self.column, self._entity, x, y)

    @property
    def bound(self) -> bool:
        """True while this vector is a view of a flock store row."""
        return self._store is not None

    def bind(self, store: VectorStore, entity: int) -> None:
        """Make this vector a view of `entity`'s row in `store` (called by the flock)."""
        if not callable(getattr(store, "read_vector", None)) or entity not in store:
            fail(type(self).__name__, "entity", entity, f"has no row in store {shown(store)}")
        self._store, self._entity = store, entity

    def unbind(self) -> None:
        """Keep the current value and stop viewing the store (called by the flock)."""
        self._x, self._y = self.xy
        self._store, self._entity = None, -1

    def __iter__(self) -> Iterator[float]:
        return iter(self.xy)

    def __repr__(self) -> str:
        x, y = self.xy
        return f"{type(self).__name__}({x:.3f}, {y:.3f})"


def _coordinate(owner: str, name: str, value: object) -> float:
    """`value` as a float within ±MAX_COORDINATE, else ValueError naming the component and
    the coordinate."""
    if type(value) is float and abs(value) <= MAX_COORDINATE:  # the common case (NaN fails)
        return value
    return number(owner, name, value, low=-MAX_COORDINATE, high=MAX_COORDINATE)


class Position(_StoreVector):
    """Where an entity is, in world units (pixels), y up; each coordinate within
    ±MAX_COORDINATE."""

    __slots__ = ()
    column = "position"


class Velocity(_StoreVector):
    """How fast and where an entity moves, in world units (px) per second; each component
    within ±MAX_COORDINATE.

    Not per frame: an arcade sprite's `change_x` is px per update, so at 60 updates a second
    a `change_x` of 4 is 240 px/s. A sprite tied with `Flock.tie` gets its velocity from how
    far it really moved between steps.
    """

    __slots__ = ()
    column = "velocity"
