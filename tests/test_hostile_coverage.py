"""Hostile input, the completeness check: every public callable of `shoal.components`,
`shoal.systems` and `shoal.systems.render` (the names docs/make_api.py documents, with their
methods), `shoal.systems.metrics` and `shoal.systems.render.debug_overlay` has hostile cases in
one of tests/test_hostile_*.py (or is listed here as taking no arguments), so a new function
cannot skip its checks unnoticed. Also: numpy numbers and values at the ends of their ranges
are accepted.
"""

import importlib
import inspect
from pathlib import Path
from typing import Any

import arcade
import esper
import numpy as np
import pytest

from shoal import components, systems
from shoal.components import Polygon, Position
from shoal.systems import metrics, render
from shoal.systems.render import debug_overlay

from hostile import Case, circle_points, make_scene

HERE = Path(__file__).resolve().parent


def hostile_modules() -> list[Any]:
    """Every tests/test_hostile_*.py but this one."""
    paths = sorted(HERE.glob("test_hostile_*.py"))
    return [importlib.import_module(p.stem) for p in paths if p.stem != Path(__file__).stem]


MODULES = hostile_modules()
CASES: list[Case] = [c for module in MODULES for c in module.CASES]

# Public callables that take no arguments at all, so there is nothing hostile to pass.
# `test_every_public_callable_has_cases` checks that each really takes none.
NO_ARGUMENTS: dict[str, str] = {
    "Flock.positions": "property",
    "Flock.velocities": "property",
    "Flock.entities": "property",
    "Flock.grid": "property",
    "Flock.neighbours": "property",
    "Flock.sync": "reads the world, not the caller",
    "Flock.in_world": "a context manager of the flock's own world",
    "FlockConfig.wraps": "property",
    "Polygon.area": "property",
    "Rect.corners": "derived from validated fields",
    "Position.bound": "property",
    "Position.unbind": "keeps the current (validated) value",
    "Neighbours.counts": "property",
    "ObstacleField.bounds": "property",
    "RenderSystem.steps": "property",
    "RenderSystem.update": "reads the flock only",
    "DebugOverlay.toggle": "flips a bool",
    "DebugOverlay.draw": "reads the overlay's own (validated) state",
    "DebugOverlay.build": "reads the overlay's own (validated) state",
    "prepare": "starts warm_up on a thread of its own",
    "threads": "reads a setting",
    "Preparation.done": "property",
    "fixed_fraction": "reads arcade's clock",
    "Navigator.flock": "property",
    "Navigator.grid": "property",
    "Navigator.active": "property",
    "Navigator.obstacles": "property",
    "Navigator.forget": "drops the navigator's own fields",
}
for _module in MODULES:  # a file's own names that take no arguments (test_hostile_embedding)
    NO_ARGUMENTS.update(getattr(_module, "NO_ARGUMENTS", {}))

# Records that shoal makes and hands out; nothing in shoal reads one that a caller built.
RECORDS: dict[str, str] = {
    "DrawnFrame": "what RenderSystem.frame drew, returned to the caller",
    "Step": "made by Flock.begin_step; every stage's run refuses any other",
    "Preparation": "made by prepare(), read by the caller",
    "Way": "made by Navigator.way_to, read by the caller",
    "NavigationWarning": "a warning category shoal issues (Navigator.max_cells), never reads",
}


# --- the tests -----------------------------------------------------------------------------
def public_callables() -> dict[str, Any]:
    """Every public callable: the names make_api documents (with their classes' methods),
    and the public functions and classes of the metrics and debug overlay modules."""
    found: dict[str, Any] = {}
    for module, names in (
        (components, components.__all__),
        (systems, systems.__all__),
        (render, render.__all__),
        (metrics, metrics.__all__),
        (debug_overlay, debug_overlay.__all__),
    ):
        for name in names:
            obj = getattr(module, name)
            if inspect.isclass(obj) and getattr(obj, "_is_protocol", False):
                continue  # describes what a store offers: nothing to call
            if inspect.isfunction(obj) or inspect.isclass(obj):
                found.setdefault(name, obj)
            if inspect.isclass(obj):
                for key, member in _members(obj).items():
                    # Position and Velocity share their methods: name each once.
                    if all(member is not other for other in found.values()):
                        found.setdefault(key, member)
    return found


def _members(cls: type) -> dict[str, Any]:
    """Public methods and properties of `cls` and its shoal bases, named by the class that
    defines them (or by `cls` when that class is private)."""
    members: dict[str, Any] = {}
    for owner in cls.__mro__:
        if not owner.__module__.startswith("shoal."):
            continue
        label = cls.__name__ if owner.__name__.startswith("_") else owner.__name__
        for name, member in vars(owner).items():
            if name.startswith("_"):
                continue
            if isinstance(member, property | classmethod | staticmethod) or inspect.isfunction(
                member
            ):
                members[f"{label}.{name}"] = member
    return members


def _takes_nothing(member: Any) -> bool:
    if isinstance(member, property):
        return member.fset is None
    parameters = list(inspect.signature(member).parameters)
    return parameters in ([], ["self"], ["cls"])


def test_every_public_callable_has_cases() -> None:
    public = public_callables()
    covered = {c.covers for c in CASES}
    missing = sorted(set(public) - covered - set(NO_ARGUMENTS) - set(RECORDS))
    assert not missing, f"public callables without hostile cases: {missing}"
    unknown = sorted(covered - set(public) - {"esper.process"})
    assert not unknown, f"cases for names that are not public callables: {unknown}"
    stale = sorted(set(NO_ARGUMENTS) - set(public))
    assert not stale, f"NO_ARGUMENTS names that are gone: {stale}"
    takes = sorted(name for name in NO_ARGUMENTS if not _takes_nothing(public[name]))
    assert not takes, f"NO_ARGUMENTS names that take arguments after all: {takes}"


def test_every_callable_with_cases_has_several() -> None:
    counts: dict[str, int] = {}
    for c in CASES:
        counts[c.covers] = counts.get(c.covers, 0) + 1
    few = sorted(name for name, count in counts.items() if count < 2)
    assert not few, f"fewer than two hostile cases: {few}"
    assert len({c.what for c in CASES}) == len(CASES), "two cases share a name"


@pytest.mark.slow
def test_numpy_numbers_and_edge_values_are_accepted(window: arcade.Window) -> None:
    """The checks refuse nonsense, not numpy scalars or values at the ends of their ranges."""
    scene = make_scene()
    flock = scene.flock
    two, ten, zero, seven = np.int64(2), np.float64(10.0), np.float32(0.0), np.float32(7.0)
    assert len(flock.scatter("a", int(two), (ten, 10.0), float(zero))) == 2
    anything: Any = flock  # the annotations say int and float; numpy's scalars work too
    assert len(anything.scatter("a", two, (ten, 10.0), zero)) == 2
    flock.despawn(np.array([scene.boid, scene.boid]))  # the same boid twice: deleted once
    assert scene.boid not in flock.store
    flock.despawn(iter(flock.entities[:2].tolist()))
    assert len(anything.query(np.float32(10.0), 10, 0)) >= 0
    position: Any = esper.component_for_entity(int(flock.entities[0]), Position)
    position.xy = np.array([5.0, 6.0])
    position.x = seven
    assert position.xy == (7.0, 6.0)
    scene.render.frame(np.float64(0.0))
    scene.render.draw(1)
    flock.step(0)
    assert len(Polygon(circle_points(1000)).points) == 1000
    assert metrics.group_count([[0.0, 0.0], [1e100, 0.0]], 1e300) == 1
