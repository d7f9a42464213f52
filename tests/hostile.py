"""Hostile input, the machinery: the scene every case runs in, the table of cases and the
check that a refused call changes nothing (the cases are in tests/test_hostile_*.py).

A case is one call of a public callable with a wrong type, NaN, an infinity, a negative or
out-of-range value, a wrong shape, an unknown species or entity or a huge count, and the
error it must raise: its type, and a fragment of the message that names the function (or
class) and the argument. The convention (see `shoal.components.arguments`): ValueError for
a bad argument, KeyError for an entity that is not a boid of the flock.

Each case runs on a fresh scene (a flock of two species, food, an obstacle, a render stage
and a debug overlay); after the refused call the flock, its world and its render stage are
exactly as before, and the flock still steps.
"""

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

os.environ["ARCADE_HEADLESS"] = "1"  # before arcade is imported anywhere

import arcade
import esper
import numpy as np
import pytest

from shoal.components import Circle, Food, Obstacle, Position, Species, Velocity
from shoal.systems import (
    RENDER_PRIORITY,
    STAGES,
    Flock,
    FlockConfig,
    ObstacleField,
    install,
    obstacle_field,
)
from shoal.systems.flock.ecs import entities_with
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.render import RenderSystem
from shoal.systems.render.debug_overlay import DebugOverlay

NAN, INF = math.nan, math.inf
NOT_NUMBERS: dict[str, object] = {"a str": "3", "None": None, "a list": [1.0], "a bool": True}
NOT_FINITE: dict[str, object] = {"NaN": NAN, "inf": INF, "-inf": -INF}


# --- the scene every case runs in ----------------------------------------------------------
@dataclass
class Scene:
    """A small running flock with everything a hostile call could reach."""

    flock: Flock
    render: RenderSystem
    overlay: DebugOverlay
    boid: int  # a live boid of species "a"
    food: int  # an entity with a Position that is not a boid
    field: ObstacleField


def make_scene() -> Scene:
    flock = install(FlockConfig(width=400, height=300), [Species("a"), Species("b")])
    flock.scatter("a", 30)
    flock.scatter("b", 4)
    food = esper.create_entity(Position(50.0, 50.0), Food())
    esper.create_entity(Obstacle(Circle(200.0, 150.0, 20.0)))
    stage = RenderSystem(flock)
    esper.add_processor(stage, RENDER_PRIORITY)
    flock.step()
    overlay = DebugOverlay(flock, stage)
    overlay.select(int(flock.entities[0]))
    return Scene(flock, stage, overlay, int(flock.entities[0]), food, obstacle_field(flock))


def snapshot(scene: Scene) -> dict[str, object]:
    """Everything a refused call must leave as it was."""
    flock, stage = scene.flock, scene.render
    return {
        "rows": (flock.entities.tolist(), flock.store.species.tolist()),
        "motion": (flock.positions.tolist(), flock.velocities.tolist()),
        "species": (flock.species.names, flock.species.params.tolist()),
        "relations": flock.species.relations.tolist(),
        "rng": repr(flock.rng.bit_generator.state),
        "neighbours": id(flock.neighbours),
        "world": {kind.__name__: sorted(entities_with(kind)) for kind in (Position, Obstacle)},
        "handlers": {name: len(refs) for name, refs in esper.event_registry.items()},
        "stages": [esper.get_processor(cls) for cls, _ in STAGES],
        "render": (stage.steps, id(stage.last_frame), len(stage.sprites), dict(stage.looks)),
        "overlay": (scene.overlay.selected, dict(scene.overlay.layers)),
        "food": esper.component_for_entity(scene.food, Position).xy,
    }


# --- the table -----------------------------------------------------------------------------
Call = Callable[[Scene], object]


@dataclass(frozen=True)
class Case:
    """One hostile call of public callable `covers` and the error it must raise."""

    covers: str
    what: str
    call: Call
    error: type[Exception]
    match: str  # a regex: names the function or class, then the argument


def case(
    covers: str, what: str, call: Call, match: str, error: type[Exception] = ValueError
) -> Case:
    return Case(covers, f"{covers}: {what}", call, error, match)


def sweep(
    covers: str, call: Callable[[Scene, Any], object], match: str, values: Mapping[str, object]
) -> list[Case]:
    """One ValueError case per value: `call(scene, value)` must be refused."""
    return [case(covers, what, _with(call, value), match) for what, value in values.items()]


def _with(call: Callable[[Scene, Any], object], value: object) -> Call:
    return lambda scene: call(scene, value)


Hostile = Callable[[Scene, Any], object]  # called with the scene and one hostile value


def set_to(attribute: str, get: Callable[[Scene], object]) -> Hostile:
    """Set `attribute` of `get(scene)` to the value."""
    return lambda scene, value: setattr(get(scene), attribute, value)


def keyword(make: Callable[..., object], name: str, flock: bool = False) -> Hostile:
    """Call `make(name=value)` (with the scene's flock first if `flock`)."""
    if flock:
        return lambda scene, value: make(scene.flock, **{name: value})
    return lambda scene, value: make(**{name: value})


def labelled(prefix: str, values: Mapping[str, object]) -> dict[str, object]:
    return {f"{prefix} {what}": value for what, value in values.items()}


def component_of(kind: type[Any], entity: str) -> Callable[[Scene], object]:
    return lambda scene: esper.component_for_entity(getattr(scene, entity), kind)


def process_of(stage: type[Any]) -> Hostile:
    """Call the `process` of the scene's `stage` directly, as esper would."""

    def call(scene: Scene, dt: object) -> object:
        processor = esper.get_processor(stage)
        assert processor is not None
        processor.process(dt)
        return None

    return call


def run_of(stage: type[Any]) -> Hostile:
    """Call the `run` of the scene's `stage` directly with the value as its step."""

    def call(scene: Scene, step: object) -> object:
        processor = esper.get_processor(stage) or scene.render
        assert isinstance(processor, FlockProcessor)
        processor.run(step)  # type: ignore[arg-type]
        return None

    return call


def call_with(make: Callable[[Any], object]) -> Hostile:
    """Call `make(value)`."""
    return lambda scene, value: make(value)


def vector(kind: type[Position | Velocity], axis: str) -> Hostile:
    """Create a `kind` with the value as its `axis` coordinate (the other one 1.0)."""
    return lambda scene, value: kind(value, 1.0) if axis == "x" else kind(1.0, value)


def circle_points(count: int) -> list[tuple[float, float]]:
    angles = np.linspace(0.0, 2 * math.pi, count, endpoint=False)
    return [(100 * math.cos(a), 100 * math.sin(a)) for a in angles]


def on_event(*args: object) -> None:
    """A handler that lives as long as the tests (esper keeps weak references)."""


def assert_refused(hostile: Case) -> None:
    """Run `hostile` on a fresh scene: refused with one short line, nothing changed, and
    the flock still steps."""
    scene = make_scene()
    before = snapshot(scene)
    with pytest.raises(hostile.error, match=hostile.match) as refused:
        hostile.call(scene)
    message = str(refused.value.args[0]) if refused.value.args else ""
    assert "\n" not in message and len(message) < 400, f"not one short line: {message!r}"
    assert snapshot(scene) == before, "the refused call changed the flock or its world"
    count = len(scene.flock)
    scene.flock.step()
    assert len(scene.flock) == count
    assert np.isfinite(scene.flock.positions).all() and np.isfinite(scene.flock.velocities).all()


def refusal_test(cases: list[Case]) -> Callable[..., None]:
    """The test of a table of cases (one test per case): `assert_refused`. A module binds it to
    a name starting with ``test_``, so that pytest collects it there."""

    @pytest.mark.parametrize("hostile", cases, ids=[c.what for c in cases])
    def test(hostile: Case, window: arcade.Window) -> None:
        assert_refused(hostile)

    return test
