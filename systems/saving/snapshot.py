"""A flock's state as a plain value: named numpy arrays, ready for a host's save file.

`snapshot(flock)` holds everything of the flock that carries over from one step to the next:

- every boid's row of the store (`shoal.systems.core.store.COLUMNS`: position, velocity,
  species, alarm, burst, cooldown, wander, ...), in row order, with its entity as it was;
- the species (every parameter of each) and the relations between them;
- the random generator's state, the step number, the clock of `Flock.update` and the current;
- the tied sprites' last positions and velocities (in the order they were tied);
- where each cached navigation field was built (the fields themselves are built again).

Caches (the grids, the obstacle field, the navigation raster and fields, the drawing) are
rebuilt, not saved. The entities the host put in the world (obstacles, food, leaders,
predators, attractors, prey) are the host's: it saves what it needs of them and creates them
again before `restore` (see docs/embedding.md).

The value is a dict of str -> numpy array (0-d arrays for single values) of numbers, bools
and str only, so `numpy.savez` writes it without pickle (`save_file.py`).
"""

import dataclasses
from typing import Any

import numpy as np
import numpy.typing as npt

from shoal.components import Species
from shoal.components import arguments as check
from shoal.systems.core.config import FlockConfig
from shoal.systems.core.store import COLUMNS
from shoal.systems.flock.flock import Flock
from shoal.systems.obstacles.nav_state import nav_state
from shoal.systems.saving.errors import SaveError

Snapshot = dict[str, npt.NDArray[Any]]
"""A saved flock: named arrays (see the module docstring)."""

FORMAT = "shoal flock"
"""What `snapshot()["format"]` says: a saved flock."""
VERSION = 1
"""The layout of a snapshot; restore refuses any other."""

CONFIG_FIELDS = tuple(f.name for f in dataclasses.fields(FlockConfig))
SPECIES_FIELDS = tuple(f.name for f in dataclasses.fields(Species))
TEXT_FIELDS = frozenset(f.name for f in dataclasses.fields(Species) if f.type in (str, "str"))
"""The species' parameters that are names (saved as text; the others are numbers)."""
_MASK = (1 << 64) - 1


def snapshot(flock: Flock) -> Snapshot:
    """The flock's state as a plain value (see the module docstring); copies, so the flock
    can step on while the host writes it.

    Raises:
        ValueError: `flock` is not a `Flock`.
        RuntimeError: the flock was uninstalled, or its world deleted.
    """
    check.instance("snapshot", "flock", flock, Flock)
    flock._members.check("snapshot")
    saved: Snapshot = {"format": np.array(FORMAT), "version": np.array(VERSION, np.int64)}
    for name in CONFIG_FIELDS:
        saved[f"config.{name}"] = np.array(getattr(flock.config, name))
    saved.update(_boids(flock))
    saved.update(_species(flock))
    saved.update(_generator(flock.rng))
    saved.update(_clock(flock))
    saved.update(_ties(flock))
    saved.update({f"nav.{key}": value for key, value in nav_state(flock).items()})
    return saved


def _boids(flock: Flock) -> Snapshot:
    """Every column of the store, in the order the next step will hold its rows (a flock
    about to sort its rows is saved sorted, so the restored one need not)."""
    order = flock.due_order()
    store = flock.store
    saved: Snapshot = {}
    for name in COLUMNS:
        live = store.column(name)
        saved[f"boids.{name}"] = live.copy() if order is None else live[order]
    return saved


def _species(flock: Flock) -> Snapshot:
    table = flock.species
    kinds = [table[name] for name in table.names]
    saved: Snapshot = {}
    for name in SPECIES_FIELDS:
        values = [getattr(s, name) for s in kinds]
        dtype = np.str_ if name in TEXT_FIELDS else np.float64
        saved[f"species.{name}"] = np.array(values, dtype=dtype).reshape(len(kinds))
    saved["species.relations"] = table.relations.copy()
    return saved


def _generator(rng: np.random.Generator) -> Snapshot:
    """The PCG64 state: two 128-bit numbers as four 64-bit halves, and the buffered half."""
    state = rng.bit_generator.state
    if state.get("bit_generator") != "PCG64":
        raise SaveError(f"snapshot: flock.rng is {state.get('bit_generator')}, not PCG64")
    inner = state["state"]
    halves = [
        inner["state"] >> 64,
        inner["state"] & _MASK,
        inner["inc"] >> 64,
        inner["inc"] & _MASK,
    ]
    return {
        "rng.state": np.array(halves, np.uint64),
        "rng.buffer": np.array([state["has_uint32"], state["uinteger"]], np.int64),
    }


def _clock(flock: Flock) -> Snapshot:
    clock = flock.clock
    return {
        "step.number": np.array(flock.step_state.number, np.int64),
        "step.dt": np.array(flock.step_state.dt, np.float64),
        "step.steps": np.array(flock.steps, np.int64),
        "step.current": np.array(flock.current, np.float64),
        "clock.on": np.array(clock is not None),
        "clock.owed": np.array(0.0 if clock is None else clock.owed, np.float64),
        "clock.dropped": np.array(0.0 if clock is None else clock.dropped, np.float64),
        "clock.paused": np.array(clock is not None and clock.paused),
    }


def _ties(flock: Flock) -> Snapshot:
    members = flock.ties.members()
    return {
        "ties.entity": np.array([m.entity for m in members], np.int64),
        "ties.position": np.array([m.position.xy for m in members], np.float64).reshape(-1, 2),
        "ties.velocity": np.array([m.velocity.xy for m in members], np.float64).reshape(-1, 2),
        "ties.fresh": np.array([m.fresh for m in members], np.bool_),
    }
