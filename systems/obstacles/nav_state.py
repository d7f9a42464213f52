"""A navigator's cache as plain arrays, and the cache rebuilt from them (a saved flock).

A `Navigator` reuses a field built for where its target was a moment ago (`REUSE_CELLS`), so
which field a boid follows depends on where each cached field was built, and when: a flock
that continues exactly after a save must find the same fields. They are not saved (a field is
up to megabytes); what each was built from is (its key, spot, reach and cells), and each is
built again, bit for bit, on the raster of the obstacles of the restored world.

A navigator in a window (a world too large to rasterize whole) is not saved: its window
depends on where the flock went; a restored one starts with an empty cache.
"""

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from shoal.systems.flock.flock import Flock
from shoal.systems.obstacles.nav_grid import build_flee, build_seek
from shoal.systems.obstacles.navigation import (
    MAX_FIELDS,
    MIN_CELLS,
    Navigator,
    _Entry,
    _navigators,
    navigator,
)

KINDS = ("seek", "flee")
"""The kinds of field, as saved (an index into this)."""

NavState = dict[str, npt.NDArray[Any]]
"""The arrays of a navigator's cache (see `nav_state`); empty: none to restore."""

NAV_KEYS = (
    "settings", "grid", "enabled", "pool", "free", "kind", "cell", "reach", "slot", "used",
    "complete", "x", "y", "built", "until_count", "until",
)  # fmt: skip
"""The keys of a `NavState` that holds a cache."""


def nav_state(flock: Flock) -> NavState:
    """The cache of the flock's navigator as arrays (empty: no navigator, or a window)."""
    nav = _navigators.get(flock)
    grid = None if nav is None else nav._grid
    if nav is None or grid is None or grid.window:
        return {}
    entries = list(nav._entries.items())
    until = [entry.until for _, entry in entries]
    return {
        "settings": np.array([nav.cell, nav.clearance, nav.max_cells, nav.margin], np.float64),
        "grid": np.array([grid.nx, grid.ny], np.int64),
        "enabled": np.array(nav.enabled),
        "pool": np.array(len(nav.pool), np.int64),
        "free": np.array(nav._free, np.int64),
        "kind": np.array([KINDS.index(kind) for (kind, _, _), _ in entries], np.int64),
        "cell": np.array([cell for (_, cell, _), _ in entries], np.int64),
        "reach": np.array([reach for (_, _, reach), _ in entries], np.float64),
        "slot": np.array([entry.slot for _, entry in entries], np.int64),
        "used": np.array([entry.used for _, entry in entries], np.int64),
        "complete": np.array([entry.complete for _, entry in entries], np.bool_),
        "x": np.array([entry.x for _, entry in entries], np.float64),
        "y": np.array([entry.y for _, entry in entries], np.float64),
        "built": np.array([entry.built for _, entry in entries], np.int64),
        "until_count": np.array([len(u) for u in until], np.int64),
        "until": np.concatenate([np.zeros(0, np.int64), *until]).astype(np.int64),
    }


def check_nav_state(state: NavState) -> str | None:
    """What is wrong with a saved cache (its arrays have the right dtypes), or None."""
    if not state:
        return None
    m = len(state["kind"])
    if any(len(state[key]) != m for key in NAV_KEYS[5:15]):
        return "the navigation cache's arrays differ in length"
    pool = int(state["pool"])
    if not 0 <= pool <= MAX_FIELDS:
        return f"the navigation cache holds {pool} fields (at most {MAX_FIELDS})"
    cell, clearance, max_cells, margin = state["settings"].tolist()
    if not (
        cell > 0 and clearance >= 0 and margin > 0 and math.isfinite(cell + clearance + margin)
    ):
        return "the navigator's settings are out of range"
    if not (max_cells == int(max_cells) and MIN_CELLS <= max_cells <= 1 << 40):  # NaN too
        return "the navigator's max_cells is out of range"
    slots = np.concatenate([state["slot"], state["free"]]).astype(np.int64)
    if len(np.unique(slots)) != len(slots) or (
        len(slots) and not 0 <= slots.min() <= slots.max() < pool
    ):
        return "the navigation cache's slots are not distinct slots of its pool"
    if np.any((state["kind"] < 0) | (state["kind"] >= len(KINDS))):
        return "the navigation cache holds a field of an unknown kind"
    nx, ny = state["grid"].tolist()
    cells = nx * ny
    if not (nx > 0 and ny > 0 and cells <= 1 << 26):
        return "the navigation grid's size is out of range"
    if np.any((state["cell"] < 0) | (state["cell"] >= cells)):
        return "the navigation cache names a cell outside its grid"
    until = state["until"]
    if int(state["until_count"].sum()) != len(until) or np.any(state["until_count"] < 0):
        return "the navigation cache's cell lists do not add up"
    if len(until) and (until.min() < 0 or until.max() >= cells):
        return "the navigation cache names a cell outside its grid"
    if not (np.all(np.isfinite(state["x"])) and np.all(np.isfinite(state["y"]))):
        return "the navigation cache holds a spot that is not a finite number"
    if np.any(np.isnan(state["reach"])) or np.any(state["reach"] <= 0):
        return "the navigation cache holds a reach that is not > 0"
    return None


def resume_nav(flock: Flock, state: NavState) -> None:
    """Make the flock's navigator hold the saved cache: its settings, and each field built
    again where it was built, in the same slot (nothing when `state` is empty, or when the
    obstacles of the flock's world now rasterize to another grid: then the cache starts
    empty, as after any change of the obstacles)."""
    if not state:
        return
    cell, clearance, max_cells, margin = state["settings"].tolist()
    nav = navigator(flock)
    if (nav.cell, nav.clearance, nav.max_cells, nav.margin) != (cell, clearance, max_cells, margin):
        nav = Navigator(flock, cell=cell, clearance=clearance, max_cells=int(max_cells),
                        margin=margin)  # fmt: skip
    nav.enabled = bool(state["enabled"])
    grid = nav.grid
    if grid.window or [grid.nx, grid.ny] != state["grid"].tolist():
        return
    nav.pool = np.zeros((int(state["pool"]), grid.ny, grid.nx, 4), np.float32)
    nav._free = state["free"].tolist()
    nav._entries.clear()
    stops = np.split(state["until"], np.cumsum(state["until_count"])[:-1])
    for k in range(len(state["kind"])):
        kind, slot = KINDS[int(state["kind"][k])], int(state["slot"][k])
        x, y, reach = float(state["x"][k]), float(state["y"][k]), float(state["reach"][k])
        until = stops[k].astype(np.int64)
        if kind == "seek":
            build_seek(grid, nav.pool[slot], x, y, reach, until)
        else:
            build_flee(grid, nav.pool[slot], x, y, reach)
        entry = _Entry(slot, int(state["used"][k]), bool(state["complete"][k]), until, x, y,
                       int(state["built"][k]))  # fmt: skip
        nav._entries[(kind, int(state["cell"][k]), reach)] = entry
