"""The checks of `Flock`'s arguments that are more than one `shoal.components.arguments`
call: species lists, discs, entity lists, event handlers, (n, 2) point arrays.

Each returns the argument in the form the flock keeps, or raises ValueError naming the call
and the argument, before anything changes.
"""

import weakref
from collections.abc import Iterable, Sequence
from itertools import islice

import numpy as np
import numpy.typing as npt

from shoal.components import Species
from shoal.components import arguments as check
from shoal.components.parameters import MAX_COORDINATE
from shoal.systems.core.config import MAX_BOIDS
from shoal.systems.core.events import EVENTS
from shoal.systems.core.store import FloatArray, IntArray

# Every species costs a row and a column of the relation matrix and its own kernel work.
MAX_SPECIES = 1000


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


def disc(owner: str, centre: object, radius: object) -> tuple[float, float, float]:
    """(x, y, radius) of a disc to scatter in, or a ValueError naming the argument."""
    if centre is None or radius is None:
        raise ValueError(f"{owner}: centre and radius: give both (a disc) or neither")
    x, y = check.pair(owner, "centre", centre)
    r = check.number(owner, "radius", radius, low=0.0)
    if not max(abs(x), abs(y)) + r <= MAX_COORDINATE:
        check.fail(
            owner, "radius", radius, f"around centre {centre!r} reaches past ±{MAX_COORDINATE:g}"
        )
    return x, y, r


def entity_ids(owner: str, values: object) -> IntArray:
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


def check_handler(owner: str, event: object, handler: object) -> None:
    """ValueError unless `event` is one of shoal's events and esper can hold `handler`."""
    if not isinstance(event, str) or event not in EVENTS:
        check.fail(owner, "event", event, f"must be one of shoal's events {EVENTS}")
    check.function(owner, "handler", handler)
    try:
        weakref.ref(handler)  # esper keeps handlers by weak reference
    except TypeError:
        check.fail(owner, "handler", handler, "must allow a weak reference (esper keeps one)")


def points(values: npt.ArrayLike, name: str) -> FloatArray:
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
    if not np.all(np.abs(array) <= MAX_COORDINATE):  # also refuses NaN
        raise ValueError(f"{name}: values must be finite, within ±{MAX_COORDINATE:g}")
    return array
