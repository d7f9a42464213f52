"""Every check of a snapshot before anything is restored: a save file is untrusted input.

`plan(snapshot, flock, source)` reads a snapshot (from a file: `save_file.py`, or a host's
value) into a `Plan` of checked values, or raises `SaveError` with one line naming `source`
and what is wrong. It changes nothing: `restore` applies a plan only once it is whole.
"""

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from shoal.components import Species
from shoal.components.parameters import LARGEST, MAX_COORDINATE
from shoal.systems.core.config import MAX_BOIDS, MAX_DT, FlockConfig
from shoal.systems.core.species_table import RELATIONS
from shoal.systems.core.store import COLUMNS
from shoal.systems.flock.flock import Flock
from shoal.systems.obstacles.nav_state import NAV_KEYS, NavState, check_nav_state
from shoal.systems.saving.errors import SaveError
from shoal.systems.saving.snapshot import (
    CONFIG_FIELDS,
    FORMAT,
    SPECIES_FIELDS,
    TEXT_FIELDS,
    VERSION,
    Snapshot,
)

_INT_FIELDS = frozenset(f.name for f in dataclasses.fields(Species) if f.type in (int, "int"))

# Each key's kind of values (numpy dtype kinds: f float, i int, u unsigned, b bool, U text)
# and shape (-1: any length, "n": the boids, "k": the species, "t": the tied, "m": fields).
_FIXED: dict[str, tuple[str, tuple[Any, ...]]] = {
    "format": ("U", ()),
    "version": ("i", ()),
    "rng.state": ("u", (4,)),
    "rng.buffer": ("i", (2,)),
    "step.number": ("i", ()),
    "step.dt": ("f", ()),
    "step.steps": ("i", ()),
    "step.current": ("f", (2,)),
    "clock.on": ("b", ()),
    "clock.owed": ("f", ()),
    "clock.dropped": ("f", ()),
    "clock.paused": ("b", ()),
    "ties.entity": ("i", ("t",)),
    "ties.position": ("f", ("t", 2)),
    "ties.velocity": ("f", ("t", 2)),
    "ties.fresh": ("b", ("t",)),
    "species.relations": ("i", ("k", "k")),
}
_NAV: dict[str, tuple[str, tuple[Any, ...]]] = {
    "nav.settings": ("f", (4,)),
    "nav.grid": ("i", (2,)),
    "nav.enabled": ("b", ()),
    "nav.pool": ("i", ()),
    "nav.free": ("i", (-1,)),
    "nav.until": ("i", (-1,)),
    **{f"nav.{key}": ("i", (-1,)) for key in ("kind", "cell", "slot", "used", "built")},
    **{f"nav.{key}": ("f", (-1,)) for key in ("reach", "x", "y")},
    "nav.complete": ("b", (-1,)),
    "nav.until_count": ("i", (-1,)),
}
assert set(_NAV) == {f"nav.{key}" for key in NAV_KEYS}


Fail = Callable[[str], NoReturn]
"""Raises the SaveError of a check (the source, then why)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A snapshot read and checked: what `restore` puts into the flock."""

    columns: dict[str, npt.NDArray[Any]]
    species: list[Species]
    relations: npt.NDArray[np.int64]
    rng: dict[str, Any]
    number: int
    dt: float
    steps: int
    current: tuple[float, float]
    clock: tuple[bool, float, float, bool]  # on, owed, dropped, paused
    ties: dict[str, npt.NDArray[Any]]
    nav: NavState


def plan(snapshot: object, flock: Flock, source: str) -> Plan:
    """`snapshot` checked against `flock` (see the module docstring).

    Raises:
        SaveError: one line, starting with `source`, saying what is wrong.
    """

    def fail(why: str) -> NoReturn:
        raise SaveError(f"{source}: {why}")

    if not isinstance(snapshot, Mapping):
        fail(f"not a saved flock (a {type(snapshot).__name__}, not a mapping of arrays)")
    saved: Snapshot = {key: value for key, value in snapshot.items()}
    _check_header(saved, fail)
    _check_keys(saved, fail)
    config = _config(saved, fail)
    if config != flock.config:
        differs = [n for n in CONFIG_FIELDS if getattr(config, n) != getattr(flock.config, n)]
        fail(f"saved for another world: config {', '.join(differs)} differ from this flock's")
    species = _species(saved, fail)
    k, n = len(species), len(saved["boids.entity"])
    t = len(saved["ties.entity"])
    for key, (kind, shape) in {**_FIXED, **_columns_spec()}.items():
        _check_array(key, saved[key], kind, shape, {"n": n, "k": k, "t": t}, fail)
    nav = {key[4:]: value for key, value in saved.items() if key.startswith("nav.")}
    for key, (kind, shape) in _NAV.items() if nav else ():
        _check_array(key, saved[key], kind, shape, {}, fail)
    _check_numbers(saved, fail)
    relations = saved["species.relations"].astype(np.int64)
    if np.any((relations < 0) | (relations >= len(RELATIONS))):
        fail(f"species.relations: values must be indices into {RELATIONS}")
    _check_boids(saved, k, fail)
    if t != len(flock.ties):
        fail(f"{t} tied sprites were saved, this flock has {len(flock.ties)}: tie them first")
    why = check_nav_state(nav)
    if why is not None:
        fail(why)
    return Plan(
        {name: saved[f"boids.{name}"].astype(COLUMNS[name][1]) for name in COLUMNS},
        species, relations, _rng(saved, fail), int(saved["step.number"]),
        float(saved["step.dt"]), int(saved["step.steps"]),
        (float(saved["step.current"][0]), float(saved["step.current"][1])),
        (bool(saved["clock.on"]), float(saved["clock.owed"]), float(saved["clock.dropped"]),
         bool(saved["clock.paused"])),
        {key[5:]: value for key, value in saved.items() if key.startswith("ties.")}, nav,
    )  # fmt: skip


def expected_keys(saved: Mapping[str, object]) -> set[str]:
    """Every key a snapshot of this version holds (the navigation's only if it has one)."""
    keys = set(_FIXED) | {f"config.{n}" for n in CONFIG_FIELDS}
    keys |= {f"species.{n}" for n in SPECIES_FIELDS} | {f"boids.{n}" for n in COLUMNS}
    if any(key.startswith("nav.") for key in saved):
        keys |= set(_NAV)
    return keys


def _check_header(saved: Snapshot, fail: Fail) -> None:
    kind = saved.get("format")
    if not isinstance(kind, np.ndarray) or kind.shape != () or str(kind) != FORMAT:
        fail(f"not a saved flock (no format {FORMAT!r})")
    version = saved.get("version")
    if not isinstance(version, np.ndarray) or version.shape != () or version.dtype.kind != "i":
        fail("not a saved flock (no version number)")
    if int(version) != VERSION:
        fail(f"saved by another version of shoal (format {int(version)}; this one reads {VERSION})")


def _check_keys(saved: Snapshot, fail: Fail) -> None:
    expected = expected_keys(saved)
    missing = sorted(expected - set(saved))
    if missing:
        fail(f"missing {', '.join(missing[:3])}{' ...' if len(missing) > 3 else ''}")
    unknown = sorted(set(saved) - expected)
    if unknown:
        fail(f"unknown entries {', '.join(unknown[:3])} (another version of shoal?)")
    for key, value in saved.items():
        if not isinstance(value, np.ndarray) or value.dtype.kind not in "fiubU":
            fail(f"{key}: must be an array of numbers, bools or text")


def _columns_spec() -> dict[str, tuple[str, tuple[Any, ...]]]:
    return {
        f"boids.{name}": ("i" if np.dtype(dtype).kind == "i" else "f", ("n", *shape))
        for name, (shape, dtype, _) in COLUMNS.items()
    }


def _check_array(key: str, value: npt.NDArray[Any], kind: str, shape: tuple[Any, ...],
                 sizes: dict[str, int], fail: Fail) -> None:  # fmt: skip
    if value.dtype.kind != kind and not (kind == "f" and value.dtype.kind == "i"):
        fail(f"{key}: holds {value.dtype} values, not {_KIND_NAMES[kind]}")
    wanted = tuple(sizes.get(d, d) if isinstance(d, str) else d for d in shape)
    if len(value.shape) != len(wanted) or any(
        w != -1 and w != s for w, s in zip(wanted, value.shape, strict=True)
    ):
        fail(f"{key}: shape {value.shape}, expected {wanted}")


_KIND_NAMES = {"f": "numbers", "i": "integers", "u": "unsigned integers", "b": "bools", "U": "text"}


_BOUNDS = {
    "boids.position": MAX_COORDINATE,
    "boids.velocity": MAX_COORDINATE,
    "ties.position": MAX_COORDINATE,
    "ties.velocity": MAX_COORDINATE,
    "step.current": LARGEST,
}
"""The largest magnitude of the values a flock checks when they are set (a `Position`, a
`Velocity`, `Flock.current`)."""


def _check_numbers(saved: Snapshot, fail: Fail) -> None:
    """No NaN anywhere, no infinity but where a parameter takes one (species, nav reach),
    nothing past what a flock takes where it checks (`_BOUNDS`)."""
    for key, value in saved.items():
        if value.dtype.kind != "f" or key.startswith("species.") or key == "nav.reach":
            continue
        if not np.all(np.isfinite(value)):
            fail(f"{key}: holds NaN or infinite values")
        most = _BOUNDS.get(key, math.inf)
        if value.size and float(np.abs(value).max()) > most:
            fail(f"{key}: holds values beyond ±{most:g}")


def _config(saved: Snapshot, fail: Fail) -> FlockConfig:
    values: dict[str, Any] = {}
    for name in CONFIG_FIELDS:
        value = saved[f"config.{name}"]
        if value.shape != ():
            fail(f"config.{name}: must be one value")
        values[name] = value.item()
    try:
        return FlockConfig(**values)
    except (ValueError, TypeError) as error:
        fail(str(error))


def _species(saved: Snapshot, fail: Fail) -> list[Species]:
    names = saved["species.name"]
    if names.ndim != 1 or names.dtype.kind != "U":
        fail("species.name: must be a list of names")
    k = len(names)
    fields: dict[str, list[Any]] = {}
    for name in SPECIES_FIELDS:
        value = saved[f"species.{name}"]
        text = name in TEXT_FIELDS
        if value.shape != (k,) or (value.dtype.kind == "U") != text:
            fail(f"species.{name}: must be {k} {'names' if text else 'numbers'}")
        if not text and value.dtype.kind not in "fi":
            fail(f"species.{name}: must be {k} numbers")
        fields[name] = value.tolist()
    species = []
    for j in range(k):
        kwargs = {name: values[j] for name, values in fields.items()}
        for name in _INT_FIELDS:
            number = kwargs[name]
            if number != number or number != int(min(max(number, -LARGEST), LARGEST)):
                fail(f"species {kwargs['name']!r}: {name} = {number!r} must be an integer")
            kwargs[name] = int(number)
        try:
            species.append(Species(**kwargs))
        except (ValueError, TypeError) as error:
            fail(f"species {kwargs['name']!r}: {error}")
    if len(set(fields["name"])) != k:
        fail("species.name: a species is named twice")
    return species


def _check_boids(saved: Snapshot, k: int, fail: Fail) -> None:
    n = len(saved["boids.entity"])
    if n > MAX_BOIDS:
        fail(f"{n} boids, more than the limit of {MAX_BOIDS}")
    species = saved["boids.species"]
    if n and (species.min() < 0 or species.max() >= k):
        fail(f"boids.species: a boid of an unknown species (there are {k})")
    entities = saved["boids.entity"]
    if n and (entities.min() < 0 or len(np.unique(entities)) != n):
        fail("boids.entity: entities must be distinct and >= 0")
    for name, low, high in (("alarm", 0.0, 1.0), ("cooldown", 0.0, LARGEST),
                            ("alarm_age", 0.0, LARGEST)):  # fmt: skip
        column = saved[f"boids.{name}"]
        if n and (column.min() < low or column.max() > high):
            fail(f"boids.{name}: values must be in [{low:g}, {high:g}]")
    ties = saved["ties.entity"]
    if len(ties) and (ties.min() < 0 or len(np.unique(ties)) != len(ties)):
        fail("ties.entity: entities must be distinct and >= 0")
    for key, low, high in (("step.number", 0, 1 << 62), ("step.steps", 0, 1 << 62)):
        if not low <= int(saved[key]) <= high:
            fail(f"{key}: must be an integer >= 0")
    if not 0.0 <= float(saved["step.dt"]) <= MAX_DT:
        fail(f"step.dt: must be in [0, {MAX_DT}] s")
    if not (0.0 <= float(saved["clock.owed"]) <= MAX_DT and float(saved["clock.dropped"]) >= 0):
        fail("clock.owed, clock.dropped: must be seconds >= 0 (owed at most a step)")


def _rng(saved: Snapshot, fail: Fail) -> dict[str, Any]:
    high, low, inc_high, inc_low = (int(v) for v in saved["rng.state"].tolist())
    has_uint32, uinteger = (int(v) for v in saved["rng.buffer"].tolist())
    if has_uint32 not in (0, 1) or not 0 <= uinteger < 1 << 32:
        fail("rng.buffer: must be (0 or 1, an unsigned 32-bit integer)")
    inc = (inc_high << 64) | inc_low
    if inc % 2 == 0:
        fail("rng.state: not the state of a PCG64 generator (its increment must be odd)")
    return {
        "bit_generator": "PCG64",
        "state": {"state": (high << 64) | low, "inc": inc},
        "has_uint32": has_uint32,
        "uinteger": uinteger,
    }
