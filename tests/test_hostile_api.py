"""Hostile input: every public callable refuses bad arguments with one clear line, and a
refused call changes nothing.

`CASES` is a table: for each public callable of `shoal.components`, `shoal.systems` and
`shoal.systems.render` (the names docs/make_api.py documents, with their methods),
`shoal.systems.metrics` and `shoal.systems.render.debug_overlay`, calls with a wrong type, NaN,
infinities, negative or out-of-range values, wrong shapes, unknown species and entities and
huge counts, and the error each must raise: its type, and a fragment of the message that
names the function (or class) and the argument. The convention (see
`shoal.components.arguments`): ValueError for a bad argument, KeyError for an entity that is
not a boid of the flock.

Each case runs on a fresh scene (a flock of two species, food, an obstacle, a render stage
and a debug overlay); after the refused call the flock, its world and its render stage are
exactly as before, and the flock still steps. `test_every_public_callable_has_cases` fails
when a public callable appears that has no cases here (or is not listed as taking no
arguments), so a new function cannot skip its checks unnoticed.
"""

import dataclasses
import importlib
import inspect
import itertools
import math
import operator
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

os.environ["ARCADE_HEADLESS"] = "1"  # before arcade is imported anywhere

import arcade
import esper
import numpy as np
import pytest

from shoal import components, systems
from shoal.components import (
    Attractor,
    Boid,
    Circle,
    Food,
    Leader,
    Obstacle,
    Polygon,
    Position,
    Predator,
    Rect,
    Species,
    Velocity,
)
from shoal.systems import (
    BOID_EATEN,
    MAX_BOIDS,
    RENDER_PRIORITY,
    STAGES,
    CollisionSystem,
    Flock,
    FlockConfig,
    LifecycleSystem,
    MotionSystem,
    Neighbours,
    NeighbourSystem,
    ObstacleField,
    ObstacleSystem,
    SeekingSystem,
    SteeringSystem,
    Step,
    compile_field,
    debug_overlay,
    inside_obstacle,
    install,
    metrics,
    obstacle_field,
    refresh_obstacles,
    render,
    uninstall,
)
from shoal.systems.core.ecs import entities_with
from shoal.systems.core.processor import FlockProcessor
from shoal.systems.render import (
    RenderSystem,
    SpeciesLook,
    bird_texture,
    fish_texture,
    shark_texture,
)
from shoal.systems.render.debug_overlay import DebugOverlay, applied, circles_layer, outlines_layer

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


def _set(attribute: str, get: Callable[[Scene], object]) -> Hostile:
    """Set `attribute` of `get(scene)` to the value."""
    return lambda scene, value: setattr(get(scene), attribute, value)


def _keyword(make: Callable[..., object], name: str, flock: bool = False) -> Hostile:
    """Call `make(name=value)` (with the scene's flock first if `flock`)."""
    if flock:
        return lambda scene, value: make(scene.flock, **{name: value})
    return lambda scene, value: make(**{name: value})


def _labelled(prefix: str, values: Mapping[str, object]) -> dict[str, object]:
    return {f"{prefix} {what}": value for what, value in values.items()}


def _component(kind: type[Any], entity: str) -> Callable[[Scene], object]:
    return lambda scene: esper.component_for_entity(getattr(scene, entity), kind)


def _process(stage: type[Any]) -> Hostile:
    """Call the `process` of the scene's `stage` directly, as esper would."""

    def call(scene: Scene, dt: object) -> object:
        processor = esper.get_processor(stage)
        assert processor is not None
        processor.process(dt)
        return None

    return call


def _run(stage: type[Any]) -> Hostile:
    """Call the `run` of the scene's `stage` directly with the value as its step."""

    def call(scene: Scene, step: object) -> object:
        processor = esper.get_processor(stage) or scene.render
        assert isinstance(processor, FlockProcessor)
        processor.run(step)  # type: ignore[arg-type]
        return None

    return call


def _call(make: Callable[[Any], object]) -> Hostile:
    """Call `make(value)`."""
    return lambda scene, value: make(value)


def _vector(kind: type[Position | Velocity], axis: str) -> Hostile:
    """Create a `kind` with the value as its `axis` coordinate (the other one 1.0)."""
    return lambda scene, value: kind(value, 1.0) if axis == "x" else kind(1.0, value)


def _circle_points(count: int) -> list[tuple[float, float]]:
    angles = np.linspace(0.0, 2 * math.pi, count, endpoint=False)
    return [(100 * math.cos(a), 100 * math.sin(a)) for a in angles]


def _with_geometry(k: int, change: Callable[[Any], Any]) -> Call:
    """An ObstacleField of the scene's shapes with array k of its geometry changed."""

    def call(scene: Scene) -> object:
        geometry: list[Any] = list(scene.field.geometry)
        geometry[k] = change(geometry[k])
        return ObstacleField(scene.field.shapes, scene.field.entities, tuple(geometry))

    return call


def _neighbours(n: int, starts: int, flat: tuple[int, int], velocities: tuple[int, ...]) -> Call:
    """Neighbours.found of n rows with `starts` starts, flat[0] slots and flat[1] distances,
    and velocities of that shape."""
    ints = np.zeros(n, np.int64)
    slots, distances = np.zeros(flat[0], np.int64), np.zeros(flat[1])
    return lambda scene: Neighbours.found(
        np.arange(n),
        np.zeros(starts, np.int64),
        ints,
        (slots, distances, distances, distances),
        np.zeros(velocities),
        ints,
    )


def component_cases() -> list[Case]:
    cases: list[Case] = []
    for kind in (Position, Velocity):
        name = kind.__name__
        cases += sweep(name, _vector(kind, "x"), rf"{name}: x = ", NOT_NUMBERS)
        cases += sweep(name, _vector(kind, "y"), rf"{name}: y = ", NOT_FINITE)
        on_boid, values = _component(kind, "boid"), {**NOT_NUMBERS, **NOT_FINITE}
        cases += sweep("Position.x", _set("x", on_boid), rf"{name}: x = ", _labelled(name, values))
    on_food, on_boid = _component(Position, "food"), _component(Position, "boid")
    plain = {"NaN on a plain entity": NAN, "a str on a plain entity": "a"}
    cases += sweep("Position.x", _set("x", on_food), r"Position: x = ", plain)
    cases += sweep(
        "Position.y",
        _set("y", on_boid),
        r"Position: y = ",
        {"NaN": NAN, "a str": "a", "-inf": -INF},
    )
    cases += sweep(
        "Position.xy",
        _set("xy", on_boid),
        r"Position: xy = ",
        {
            "a str": "ab",
            "one number": (1.0,),
            "a number": 5.0,
            "three numbers": (1.0, 2.0, 3.0),
            "NaN": (NAN, 0.0),
            "inf": (0.0, INF),
            "None": None,
            "a str inside": ("a", 1.0),
        },
    )
    cases += sweep(
        "Position.xy",
        _set("xy", _component(Velocity, "boid")),
        r"Velocity: xy = ",
        {"NaN velocity": (NAN, 1.0)},
    )
    cases += [
        case(
            "Position.bind",
            "a str as store",
            lambda s: Position().bind("store", 1),  # type: ignore[arg-type]
            r"Position: entity = 1 has no row",
        ),
        case(
            "Position.bind",
            "an entity not in the store",
            lambda s: Position().bind(s.flock.store, 10**9),
            r"Position: entity = 1000000000",
        ),
    ]
    return cases


def agent_cases() -> list[Case]:
    cases = sweep(
        "Boid",
        lambda s, v: Boid(v),
        r"Boid: species = ",
        {"a number": 5, "empty": "", "None": None},
    )
    cases += sweep(
        "Leader",
        lambda s, v: Leader(v),
        r"Leader: species = ",
        {"a str": "a", "a number inside": (1,), "an empty name": ("",)},
    )
    cases += sweep(
        "Food",
        _keyword(Food, "bites"),
        r"Food: bites = ",
        {"zero": 0, "a float": 2.5, "a bool": True, "a str": "3"},
    )
    cases += sweep(
        "Food",
        _keyword(Food, "radius"),
        r"Food: radius = ",
        _labelled("radius", {"NaN": NAN, "negative": -1.0, "zero": 0.0, "inf": INF}),
    )
    cases += sweep("Food", _keyword(Food, "species"), r"Food: species = ", {"a list": ["a"]})
    cases += sweep(
        "Attractor",
        _keyword(Attractor, "radius"),
        r"Attractor: radius = ",
        {"zero": 0.0, "NaN": NAN},
    )
    cases += sweep(
        "Attractor",
        _keyword(Attractor, "dead_radius"),
        r"Attractor: dead_radius = ",
        {"beyond radius": 300.0, "negative": -1.0},
    )
    cases += sweep(
        "Attractor",
        _keyword(Attractor, "weight"),
        r"Attractor: weight = ",
        _labelled("weight", {"negative": -1.0, "NaN": NAN, "a str": "x"}),
    )
    cases += sweep("Predator", _keyword(Predator, "prey"), r"Predator: prey = ", {"a str": "a"})
    cases += sweep(
        "Predator",
        _keyword(Predator, "catch_radius"),
        r"Predator: catch_radius = ",
        {"negative": -1.0, "NaN": NAN},
    )
    cases += sweep(
        "Predator", _keyword(Predator, "cooldown"), r"Predator: cooldown = ", {"inf": INF}
    )
    cases += sweep(
        "Predator",
        _keyword(Predator, "resting"),
        r"Predator: resting = ",
        {"NaN resting": NAN, "a str resting": "x"},
    )
    cases += sweep(
        "Obstacle",
        lambda s, v: Obstacle(v),
        r"Obstacle: shape = ",
        {"a str": "circle", "None": None, "a tuple": (1, 2, 3)},
    )
    return cases


def shape_cases() -> list[Case]:
    cases = sweep(
        "Circle", lambda s, v: Circle(v, 0.0, 5.0), r"Circle: x = ", {"a str": "a", "NaN": NAN}
    )
    cases += sweep(
        "Circle",
        lambda s, v: Circle(0.0, 0.0, v),
        r"Circle: radius = ",
        _labelled("radius", {"zero": 0.0, "negative": -1.0, "inf": INF, "None": None}),
    )
    cases += sweep(
        "Rect", lambda s, v: Rect(0.0, 0.0, v, 5.0), r"Rect: width = ", {"zero": 0.0, "NaN": NAN}
    )
    cases += sweep(
        "Rect", lambda s, v: Rect(0.0, 0.0, 5.0, v), r"Rect: height = ", {"negative": -1.0}
    )
    cases += sweep(
        "Rect",
        lambda s, v: Rect(0.0, 0.0, 5.0, 5.0, v),
        r"Rect: angle_degrees = ",
        {"NaN angle": NAN},
    )
    cases += sweep(
        "Rect", lambda s, v: Rect(v, 0.0, 5.0, 5.0), r"Rect: x = ", {"inf x": INF, "a str x": "1"}
    )
    cases += sweep(
        "Polygon",
        lambda s, v: Polygon(v),
        r"Polygon: points",
        {
            "a number": 5,
            "two vertices": [(0, 0), (1, 0)],
            "a bow tie": [(0, 0), (1, 1), (1, 0), (0, 1)],
            "a NaN vertex": [(0, 0), (NAN, 0), (0, 1)],
            "a triple": [(0, 0, 0), (1, 0), (0, 1)],
            "a repeated vertex": [(0, 0), (0, 0), (1, 0), (0, 1)],
            "no area": [(0, 0), (1, 0), (2, 0)],
            "1001 vertices": _circle_points(1001),
            "an endless generator": itertools.repeat((0.0, 0.0)),
        },
    )
    return cases


def species_cases() -> list[Case]:
    """Every number of a Species refuses a str, a bool and NaN, and inf where it must be finite."""
    cases: list[Case] = []
    for field in dataclasses.fields(Species):
        if field.type not in (float, "float"):
            continue
        bad = {"a str": "3", "a bool": True, "NaN": NAN}
        bad |= {"-inf": -INF} if field.name in ("max_force", "max_turn_rate") else {"inf": INF}
        match = rf"Species 'a': {field.name} = "
        cases += sweep(
            "Species",
            _keyword(partial(Species, "a"), field.name),
            match,
            _labelled(field.name, bad),
        )
    cases += sweep(
        "Species",
        lambda s, v: Species(v),
        r"Species: name = ",
        _labelled("name", {"a number": 5, "empty": "", "None": None}),
    )
    cases += sweep(
        "Species",
        _keyword(partial(Species, "a"), "max_neighbours"),
        r"Species 'a': max_neighbours = ",
        _labelled("max_neighbours", {"a float": 2.5, "a bool": True, "negative": -1}),
    )
    cases += sweep(
        "Species",
        _keyword(partial(Species, "a"), "steering"),
        r"Species 'a': steering = ",
        {"steering unknown": "boids", "steering None": None},
    )
    cases += sweep(
        "Species",
        _keyword(partial(Species, "a"), "separation_falloff"),
        r"Species 'a': separation_falloff = ",
        {"falloff a list": ["inverse"]},
    )
    cases += [
        case(
            "Species",
            "perception_radius zero",
            lambda s: Species("a", perception_radius=0),
            r"Species 'a': perception_radius = 0",
        ),
        case(
            "Species",
            "separation beyond perception",
            lambda s: Species("a", separation_radius=60),
            r"Species 'a': separation_radius = 60",
        ),
        case(
            "Species",
            "fov_degrees 400",
            lambda s: Species("a", fov_degrees=400),
            r"Species 'a': fov_degrees = 400",
        ),
        case(
            "Species",
            "min_speed above max_speed",
            lambda s: Species("a", min_speed=200),
            r"Species 'a': min_speed = 200",
        ),
        # Python's own check of keyword arguments: a TypeError that names class and argument.
        case(
            "Species",
            "an unknown parameter",
            lambda s: Species("a", wobble=1.0),  # type: ignore[call-arg]
            r"Species.__init__\(\) got an unexpected keyword argument 'wobble'",
            TypeError,
        ),
    ]
    return cases


def config_cases() -> list[Case]:
    cases: list[Case] = []
    for name in ("width", "height", "margin", "wall_weight", "dt"):
        bad = {"a str": "800", "a bool": True, "NaN": NAN, "inf": INF}
        cases += sweep(
            "FlockConfig",
            _keyword(FlockConfig, name),
            rf"FlockConfig: {name}",
            _labelled(name, bad),
        )
    cases += sweep(
        "FlockConfig",
        _keyword(FlockConfig, "width"),
        r"FlockConfig: width",
        {"width zero": 0, "width negative": -5},
    )
    cases += sweep(
        "FlockConfig",
        _keyword(FlockConfig, "boundary"),
        r"FlockConfig: boundary = ",
        {"boundary unknown": "torus", "boundary None": None},
    )
    cases += sweep(
        "FlockConfig",
        _keyword(FlockConfig, "margin"),
        r"FlockConfig: margin = ",
        {"margin negative": -1, "margin past the middle": 400},
    )
    cases += sweep(
        "FlockConfig",
        _keyword(FlockConfig, "dt"),
        r"FlockConfig: dt = ",
        {"dt zero": 0, "dt too long": 0.5},
    )
    cases += sweep(
        "FlockConfig",
        _keyword(FlockConfig, "seed"),
        r"FlockConfig: seed = ",
        _labelled("seed", {"negative": -1, "a float": 1.5, "a bool": True}),
    )
    cases += sweep(
        "FlockConfig",
        _keyword(FlockConfig, "wall_weight"),
        r"FlockConfig: wall_weight = ",
        {"wall_weight negative": -1},
    )
    return cases


def install_cases() -> list[Case]:
    cases = sweep(
        "install",
        lambda s, v: install(v, world="other"),
        r"install: config = ",
        {"config a str": "x", "config a Species": Species("a")},
    )
    cases += sweep(
        "install",
        lambda s, v: install(None, v, world="other"),
        r"install: species",
        {
            "species a number": 3,
            "species a str": "ab",
            "species holding a number": [3],
            "species twice": [Species("a"), Species("a")],
        },
    )
    cases += sweep(
        "install",
        lambda s, v: install(None, world=v),
        r"install: world = ",
        {"world empty": "", "world a number": 5},
    )
    cases += [
        case(
            "install",
            "into a world that has shoal",
            lambda s: install(),
            r"shoal is already installed",
            RuntimeError,
        )
    ]
    cases += sweep(
        "uninstall", lambda s, v: uninstall(v), r"uninstall: flock = ", {"a str": "x", "None": None}
    )
    cases += sweep(
        "Flock", lambda s, v: Flock(v, [], "w"), r"Flock: config = ", {"config a str": "x"}
    )
    cases += sweep(
        "Flock",
        lambda s, v: Flock(FlockConfig(), [], v),
        r"Flock: world = ",
        {"world empty": "", "world None": None},
    )
    cases += sweep(
        "Flock",
        lambda s, v: Flock(FlockConfig(), v, "w"),
        r"Flock: species",
        {"species holding a number": [1]},
    )
    return cases


def species_call_cases() -> list[Case]:
    cases = sweep(
        "Flock.add_species",
        lambda s, v: s.flock.add_species(v),
        r"add_species: species = ",
        {"a number": 3, "a name": "c", "None": None, "a name already taken": Species("a")},
    )
    cases += sweep(
        "Flock.tune",
        lambda s, v: s.flock.tune(v, max_speed=90.0),
        r"tune: name",
        _labelled("name", {"a list": ["a"], "unknown": "zz", "None": None}),
    )
    cases += [
        case(
            "Flock.tune",
            "an unknown parameter",
            lambda s: s.flock.tune("a", wobble=1.0),
            r"tune: Species has no parameter 'wobble'",
        ),
        case(
            "Flock.tune",
            "max_speed a str",
            lambda s: s.flock.tune("a", max_speed="x"),
            r"tune: Species 'a': max_speed = 'x'",
        ),
        case(
            "Flock.tune",
            "max_speed NaN",
            lambda s: s.flock.tune("a", max_speed=NAN),
            r"tune: Species 'a': max_speed = nan",
        ),
        case(
            "Flock.tune",
            "perception_radius zero",
            lambda s: s.flock.tune("a", perception_radius=0.0),
            r"tune: Species 'a': perception_radius",
        ),
    ]
    cases += sweep(
        "Flock.relate",
        lambda s, v: s.flock.relate(v, "b", "flee"),
        r"relate: observer",
        _labelled("observer", {"a list": ["a"], "unknown": "zz", "None": None}),
    )
    cases += sweep(
        "Flock.relate",
        lambda s, v: s.flock.relate("a", v, "flee"),
        r"relate: other",
        {"other unknown": "zz"},
    )
    cases += sweep(
        "Flock.relate",
        lambda s, v: s.flock.relate("a", "b", v),
        r"relate: relation = ",
        _labelled("relation", {"unknown": "eat", "a list": ["flee"], "None": None}),
    )
    return cases


def spawn_cases() -> list[Case]:
    cases = sweep(
        "Flock.spawn",
        lambda s, v: s.flock.spawn(v, [[10.0, 10.0]]),
        r"spawn: species",
        _labelled("species", {"a list": ["a"], "unknown": "zz", "None": None, "a number": 5}),
    )
    cases += sweep(
        "Flock.spawn",
        lambda s, v: s.flock.spawn("a", v),
        r"spawn: positions",
        _labelled(
            "positions",
            {
                "a str": "abc",
                "None": None,
                "flat": [1.0, 2.0, 3.0],
                "NaN": [[NAN, 0.0]],
                "inf": [[0.0, INF]],
                "three columns": [[1.0, 2.0, 3.0]],
                "3-d": np.zeros((2, 2, 2)),
                "10**12 rows": np.broadcast_to(0.0, (10**12, 2)),
                "past MAX_BOIDS": np.broadcast_to(0.0, (MAX_BOIDS, 2)),
            },
        ),
    )
    cases += sweep(
        "Flock.spawn",
        lambda s, v: s.flock.spawn("a", [[1.0, 1.0], [2.0, 2.0]], v),
        r"spawn: velocities",
        _labelled(
            "velocities", {"too few": [[1.0, 0.0]], "NaN": [[NAN, 0.0], [1.0, 0.0]], "a str": "v"}
        ),
    )
    cases += sweep(
        "Flock.scatter",
        lambda s, v: s.flock.scatter("a", v),
        r"scatter: count",
        _labelled(
            "count",
            {
                "negative": -1,
                "a float": 2.5,
                "a str": "3",
                "None": None,
                "a bool": True,
                "10**12": 10**12,
            },
        ),
    )
    cases += sweep(
        "Flock.scatter",
        lambda s, v: s.flock.scatter(v, 3),
        r"scatter: species",
        {"species unknown": "zz", "species a number": 5},
    )
    cases += sweep(
        "Flock.scatter",
        lambda s, v: s.flock.scatter("a", 3, v, 5.0),
        r"scatter: centre = ",
        _labelled("centre", {"a str": "ab", "NaN": (NAN, 0.0), "three numbers": (1.0, 1.0, 1.0)}),
    )
    cases += sweep(
        "Flock.scatter",
        lambda s, v: s.flock.scatter("a", 3, (10.0, 10.0), v),
        r"scatter: radius = ",
        _labelled("radius", {"a str": "x", "negative": -1.0, "NaN": NAN, "inf": INF}),
    )
    cases += [
        case(
            "Flock.scatter",
            "centre without radius",
            lambda s: s.flock.scatter("a", 3, (1.0, 1.0)),
            r"scatter: centre and radius",
        ),
        case(
            "Flock.scatter",
            "radius without centre",
            lambda s: s.flock.scatter("a", 3, radius=5.0),
            r"scatter: centre and radius",
        ),
        case(
            "Flock.scatter",
            "a disc that overflows",
            lambda s: s.flock.scatter("a", 3, (1e308, 0.0), 1e308),
            r"scatter: radius = 1e\+308",
        ),
    ]
    return cases


def entity_cases() -> list[Case]:
    cases = sweep(
        "Flock.despawn",
        lambda s, v: s.flock.despawn(v),
        r"despawn: entities = ",
        {
            "a str": "abc",
            "None": None,
            "a float entity": [1.7],
            "nested": [[1]],
            "a bool": True,
            "a float": 3.0,
            "more than MAX_BOIDS": range(10**12),
            "an endless generator": itertools.count(),
        },
    )
    cases += [
        case(
            "Flock.despawn",
            "an unknown entity",
            lambda s: s.flock.despawn(99999),
            r"despawn: entities \[99999\]",
            KeyError,
        ),
        case(
            "Flock.despawn",
            "a boid and an unknown entity",
            lambda s: s.flock.despawn([s.boid, 99999]),
            r"despawn: entities \[99999\]",
            KeyError,
        ),
        case(
            "Flock.despawn",
            "food, not a boid",
            lambda s: s.flock.despawn(s.food),
            r"despawn: entities \[\d+\] are not boids",
            KeyError,
        ),
    ]
    cases += sweep(
        "Flock.query",
        lambda s, v: s.flock.query(v, 10.0, 5.0),
        r"query: x = ",
        {**NOT_NUMBERS, **NOT_FINITE},
    )
    cases += sweep(
        "Flock.query", lambda s, v: s.flock.query(10.0, v, 5.0), r"query: y = ", {"y NaN": NAN}
    )
    cases += sweep(
        "Flock.query",
        lambda s, v: s.flock.query(10.0, 10.0, v),
        r"query: radius = ",
        _labelled("radius", {"negative": -1.0, "NaN": NAN, "a str": "r", "inf": INF}),
    )
    cases += [
        case(
            "Flock.neighbours_of",
            "an unknown entity",
            lambda s: s.flock.neighbours_of(99999),
            r"neighbours_of: entity 99999 is not a boid",
            KeyError,
        ),
        case(
            "Flock.neighbours_of",
            "food, not a boid",
            lambda s: s.flock.neighbours_of(s.food),
            r"neighbours_of: entity \d+ is not a boid",
            KeyError,
        ),
    ]
    cases += sweep(
        "Flock.neighbours_of",
        lambda s, v: s.flock.neighbours_of(v),
        r"neighbours_of: entity = ",
        {"a str": "x", "a bool": True, "a float": 1.5, "None": None},
    )
    return cases


def _on_event(*args: object) -> None:
    """A handler that lives as long as the tests (esper keeps weak references)."""


def event_and_step_cases() -> list[Case]:
    cases = sweep(
        "Flock.set_handler",
        lambda s, v: s.flock.set_handler(v, _on_event),
        r"set_handler: event = ",
        _labelled("event", {"unknown": "shoal_boid_eatn", "a number": 5, "None": None}),
    )
    cases += sweep(
        "Flock.set_handler",
        lambda s, v: s.flock.set_handler(BOID_EATEN, v),
        r"set_handler: handler = ",
        _labelled(
            "handler",
            {"a number": 5, "None": None, "without weak references": operator.itemgetter(1)},
        ),
    )
    cases += sweep(
        "Flock.remove_handler",
        lambda s, v: s.flock.remove_handler(v, _on_event),
        r"remove_handler: event = ",
        {"an unknown event": "nope"},
    )
    cases += sweep(
        "Flock.remove_handler",
        lambda s, v: s.flock.remove_handler(BOID_EATEN, v),
        r"remove_handler: handler = ",
        {"a number": 5},
    )
    cases += sweep(
        "Flock.step",
        lambda s, v: s.flock.step(v),
        r"step: dt = ",
        {
            "a str": "x",
            "a list": [0.1],
            "a bool": True,
            "NaN": NAN,
            "negative": -0.1,
            "too long": 1.0,
            "inf": INF,
        },
    )
    for stage in (*(cls for cls, _ in STAGES), RenderSystem):
        name = stage.__name__
        cases += sweep(
            "FlockProcessor.process",
            _process(stage),
            rf"{name}.process: dt = ",
            {f"{name} dt NaN": NAN, f"{name} dt 1 s": 1.0},
        )
    cases += sweep(
        "FlockProcessor.process",
        lambda s, v: s.render.process(v),
        r"RenderSystem.process: dt = ",
        {"dt NaN": NAN, "dt -1": -1.0},
    )
    for stage in (*(cls for cls, _ in STAGES), RenderSystem):
        name = stage.__name__
        cases += sweep(
            f"{name}.run",
            _run(stage),
            rf"{name}.run: step = ",
            {"a str": "x", "None": None, "a step of its own": Step(1, 0.01, 0)},
        )
    cases += sweep(
        "FlockProcessor.run",
        lambda s, v: FlockProcessor.run(s.render, v),
        r"RenderSystem.run: step = ",
        {"base run, a str": "x", "base run, None": None},
    )
    cases += sweep(
        "Flock.begin_step",
        lambda s, v: s.flock.begin_step(v),
        r"begin_step: dt = ",
        {"a str": "x", "NaN": NAN, "negative": -0.1, "too long": 1.0},
    )
    step_length = lambda s, v: s.render.step_length(v)  # noqa: E731
    cases += sweep(
        "FlockProcessor.step_length",
        step_length,
        r"step_length: args = ",
        {"a number, not a tuple": 0.5},
    )
    cases += sweep(
        "FlockProcessor.step_length",
        step_length,
        r"RenderSystem.process: dt = ",
        {"a negative dt": (-1.0,)},
    )
    # What a host's esper.process(dt) does: the first stage refuses before anything runs.
    cases += sweep(
        "esper.process",
        lambda s, v: esper.process(v),
        r"NeighbourSystem.process: dt = ",
        {
            "dt NaN": NAN,
            "dt -1": -1,
            "dt 1 s": 1.0,
            "dt inf": INF,
        },
    )
    return cases


def stage_cases() -> list[Case]:
    cases: list[Case] = []
    for stage in (
        NeighbourSystem,
        SteeringSystem,
        SeekingSystem,
        ObstacleSystem,
        MotionSystem,
        CollisionSystem,
        LifecycleSystem,
    ):
        name = stage.__name__
        cases += sweep(
            name,
            _call(stage),
            rf"{name}: flock = ",
            {"flock a str": "x", "flock None": None},
        )
    cases += sweep(
        "ObstacleSystem",
        lambda s, v: ObstacleSystem(s.flock, v),
        r"ObstacleSystem: margin = ",
        _labelled("margin", {"negative": -1.0, "NaN": NAN, "a str": "m", "inf": INF}),
    )
    return cases


def neighbours_cases() -> list[Case]:
    cases = sweep(
        "Neighbours.none",
        lambda s, v: Neighbours.none(v),
        r"Neighbours.none: n = ",
        {"negative": -1, "10**12": 10**12, "a float": 2.5, "a str": "3"},
    )
    cases += sweep(
        "Neighbours.of",
        lambda s, v: s.flock.neighbours.of(v),
        r"Neighbours.of: row = ",
        {"past the last row": 10**6, "negative": -1, "a str": "0", "a bool": True},
    )
    ints, floats = np.zeros(2, np.int64), np.zeros(2)
    listed: Any = [0]
    cases += [
        case(
            "Neighbours",
            "a list for order",
            lambda s: Neighbours(
                listed, ints, ints, ints, floats, floats, floats, np.zeros((2, 2)), ints, ints
            ),
            r"Neighbours: order = ",
        ),
        case(
            "Neighbours",
            "dx longer than slots",
            lambda s: Neighbours(
                ints, ints, ints, ints, np.zeros(3), floats, floats, np.zeros((2, 2)), ints, ints
            ),
            r"Neighbours: dx = ",
        ),
        case(
            "Neighbours.found",
            "start shorter than order",
            _neighbours(3, 2, (0, 0), (3, 2)),
            r"Neighbours: start = ",
        ),
        case(
            "Neighbours.found",
            "velocities of the wrong shape",
            _neighbours(3, 3, (0, 0), (3,)),
            r"Neighbours: slot_velocities = ",
        ),
        case(
            "Neighbours.found",
            "fewer distances than slots",
            _neighbours(3, 3, (4, 2), (3, 2)),
            r"Neighbours: dx = ",
        ),
    ]
    return cases


def field_cases() -> list[Case]:
    cases = sweep(
        "ObstacleField",
        lambda s, v: ObstacleField(v, s.field.entities, s.field.geometry),
        r"ObstacleField: shapes",
        {
            "shapes a list": [],
            "a str among the shapes": ("x",),
        },
    )
    cases += sweep(
        "ObstacleField",
        lambda s, v: ObstacleField(s.field.shapes, v, s.field.geometry),
        r"ObstacleField: entities = ",
        {
            "entities a list": [1],
            "entities of floats": np.zeros(1),
        },
    )
    cases += [
        case(
            "ObstacleField",
            "five arrays",
            lambda s: ObstacleField(s.field.shapes, s.field.entities, s.field.geometry[:5]),  # type: ignore[arg-type]
            r"ObstacleField: geometry = ",
        ),
        case(
            "ObstacleField",
            "float cell items",
            _with_geometry(4, lambda a: a.astype(float)),
            r"ObstacleField: geometry\[4\] = ",
        ),
        case(
            "ObstacleField",
            "a cell item out of range",
            _with_geometry(4, lambda a: a + 100),
            r"ObstacleField: geometry = .* out of range",
        ),
        case(
            "ObstacleField",
            "an edge index out of range",
            _with_geometry(1, lambda a: a + 100),
            r"ObstacleField: geometry = .* out of range",
        ),
        case(
            "ObstacleField",
            "a NaN grid",
            _with_geometry(5, lambda a: np.full(5, NAN)),
            r"ObstacleField: geometry = .* out of range",
        ),
    ]
    cases += sweep(
        "compile_field",
        lambda s, v: compile_field(v),
        r"compile_field: shapes",
        {"a number": 5, "a str": "abc", "a str among shapes": [Circle(0.0, 0.0, 1.0), "x"]},
    )
    cases += sweep(
        "compile_field",
        lambda s, v: compile_field([Circle(0.0, 0.0, 1.0)], v),
        r"compile_field: entities = ",
        _labelled(
            "entities",
            {
                "of str": ["a"],
                "two for one shape": [1, 2],
                "nested": [[1]],
                "of floats": [1.5],
            },
        ),
    )
    cases += sweep(
        "inside_obstacle",
        lambda s, v: inside_obstacle(v, [[1.0, 1.0]]),
        r"inside_obstacle: field = ",
        {"field a str": "x", "field None": None},
    )
    cases += sweep(
        "inside_obstacle",
        lambda s, v: inside_obstacle(s.field, v),
        r"inside_obstacle: points = ",
        _labelled(
            "points",
            {
                "a str": "ab",
                "NaN": [[NAN, 1.0]],
                "three columns": [[1.0, 2.0, 3.0]],
                "None": None,
            },
        ),
    )
    cases += sweep(
        "obstacle_field",
        lambda s, v: obstacle_field(v),
        r"obstacle_field: flock = ",
        {"a str": "x", "None": None},
    )
    cases += sweep(
        "refresh_obstacles",
        lambda s, v: refresh_obstacles(v),
        r"refresh_obstacles: flock = ",
        {"a str": "x", "a FlockConfig": FlockConfig()},
    )
    return cases


def render_cases() -> list[Case]:
    cases = sweep(
        "RenderSystem",
        lambda s, v: RenderSystem(v),
        r"RenderSystem: flock = ",
        {"flock a str": "x"},
    )
    settings: dict[str, dict[str, object]] = {
        "looks": {
            "looks a str": "x",
            "a look that is a str": {"a": "look"},
            "a number as name": {5: SpeciesLook()},
        },
        "texture": {"texture a str": "fish.png"},
        "scale": _labelled("scale", {"zero": 0.0, "NaN": NAN, "a str": "1", "inf": INF}),
        "tints": {
            "a tint over 255": [(300, 0, 0)],
            "tints a str": "red",
            "a float tint": [(1.5, 0, 0)],
            "a tint of two": [(1, 2)],
        },
        "heading_smoothing": _labelled("smoothing", {"negative": -1.0, "NaN": NAN, "inf": INF}),
        "factory": {"factory a number": 5},
        "fast": {"fast a str": "yes"},
    }
    for name, values in settings.items():
        cases += sweep(
            "RenderSystem",
            _keyword(RenderSystem, name, flock=True),
            rf"RenderSystem: {name}",
            values,
        )
    looks: dict[str, dict[str, object]] = {
        "texture": {"texture a str": "x"},
        "scale": _labelled(
            "scale",
            {"negative": -1.0, "NaN": NAN, "inf": INF, "a str": "1", "1e9": 1e9},
        ),
        "tint": _labelled(
            "tint",
            {
                "over 255": (300, 0, 0),
                "of two": (1, 2),
                "a str": "red",
                "of floats": (1.5, 2.0, 3.0),
                "None": None,
            },
        ),
        "heading_smoothing": _labelled(
            "smoothing", {"negative": -1.0, "NaN": NAN, "inf": INF, "a str": "0"}
        ),
    }
    for name, values in looks.items():
        cases += sweep(
            "SpeciesLook", _keyword(SpeciesLook, name), rf"SpeciesLook: {name} = ", values
        )
    sizes = {
        "zero": (0, 0),
        "negative": (-1, 5),
        "a million a side": (10**6, 10**6),
        "floats": (3.5, 4.0),
        "a str": "big",
        "one number": (16,),
        "None": None,
        "a bool": (True, 4),
    }
    cases += sweep("fish_texture", lambda s, v: fish_texture(v), r"fish_texture: size = ", sizes)
    cases += sweep(
        "shark_texture",
        lambda s, v: shark_texture(v),
        r"shark_texture: size = ",
        {"too wide": (10**5, 40), "zero high": (10, 0)},
    )
    cases += sweep(
        "bird_texture",
        lambda s, v: bird_texture(v),
        r"bird_texture: size = ",
        {"too small": (2, 2), "a str inside": ("a", 1)},
    )
    return cases


def render_call_cases() -> list[Case]:
    alphas = {"NaN": NAN, "negative": -0.1, "past 1": 1.5, "a str": "1", "None": None, "inf": INF}
    cases = sweep("RenderSystem.frame", lambda s, v: s.render.frame(v), r"frame: alpha = ", alphas)
    cases += sweep(
        "RenderSystem.draw",
        lambda s, v: s.render.draw(v),
        r"draw: alpha = ",
        {"NaN": NAN, "2": 2.0, "a str": "x"},
    )
    cases += sweep(
        "RenderSystem.look_of",
        lambda s, v: s.render.look_of(v),
        r"look_of: species = ",
        {"negative": -1, "a str": "a", "a float": 1.5, "None": None},
    )
    cases += sweep(
        "RenderSystem.set_look",
        lambda s, v: s.render.set_look(v, SpeciesLook()),
        r"set_look: name = ",
        {"name a number": 5, "name empty": ""},
    )
    cases += sweep(
        "RenderSystem.set_look",
        lambda s, v: s.render.set_look("a", v),
        r"set_look: look = ",
        {"look a str": "x", "look None": None},
    )
    cases += sweep(
        "RenderSystem.advance",
        lambda s, v: s.render.advance(v),
        r"advance: dt = ",
        {"NaN": NAN, "negative": -1.0, "1 s": 1.0, "a str": "x"},
    )
    return cases


def metrics_cases() -> list[Case]:
    points = {
        "a str": "ab",
        "NaN": [[NAN, 0.0]],
        "three columns": [[1.0, 2.0, 3.0]],
        "None": None,
        "beyond 1e150": [[1e200, 0.0]],
        "flat": np.zeros(3),
    }
    cases = sweep(
        "polarization", lambda s, v: metrics.polarization(v), r"polarization: velocities = ", points
    )
    cases += sweep(
        "milling",
        lambda s, v: metrics.milling(v, [[1.0, 0.0]]),
        r"milling: positions",
        {"positions NaN": [[NAN, 0.0]], "positions one too many": [[0.0, 0.0], [1.0, 1.0]]},
    )
    cases += sweep(
        "milling",
        lambda s, v: metrics.milling([[0.0, 0.0]], v),
        r"milling: velocities = ",
        {"velocities a str": "x"},
    )
    cases += sweep(
        "mean_nn_distance",
        lambda s, v: metrics.mean_nn_distance(v),
        r"mean_nn_distance: positions = ",
        {"positions inf": [[INF, 0.0]], "positions of str": [["a", "b"]]},
    )
    cases += sweep(
        "mean_nn_distance",
        lambda s, v: metrics.mean_nn_distance([[0.0, 0.0], [1.0, 1.0]], v),
        r"mean_nn_distance: wrap_size = ",
        {
            "a zero side": (0.0, 10.0),
            "a negative side": (-1.0, 5.0),
            "a str": "ab",
            "NaN": (NAN, 1.0),
            "one number": (10.0,),
            "1e200": (1e200, 1.0),
        },
    )
    cases += sweep(
        "group_count",
        lambda s, v: metrics.group_count([[0.0, 0.0]], v),
        r"group_count: radius = ",
        _labelled(
            "radius",
            {
                "zero": 0.0,
                "negative": -1.0,
                "NaN": NAN,
                "a str": "5",
                "None": None,
                "inf": INF,
            },
        ),
    )
    cases += sweep(
        "group_count",
        lambda s, v: metrics.group_count(v, 5.0),
        r"group_count: positions = ",
        {"positions a str": "x"},
    )
    cases += sweep(
        "group_count",
        lambda s, v: metrics.group_count([[0.0, 0.0]], 5.0, v),
        r"group_count: wrap_size = ",
        {"a zero side": (10.0, 0.0)},
    )
    return cases


def overlay_cases() -> list[Case]:
    cases = sweep(
        "DebugOverlay",
        lambda s, v: DebugOverlay(v),
        r"DebugOverlay: flock = ",
        {"flock a str": "x"},
    )
    settings: dict[str, dict[str, object]] = {
        "render": {"render a str": "r"},
        "force_scale": _labelled("force_scale", {"zero": 0.0, "NaN": NAN, "a str": "1"}),
        "line_width": _labelled("line_width", {"zero": 0.0, "NaN": NAN, "negative": -1.0}),
        "show_grid": {"show_grid a str": "yes"},
        "show_legend": {"show_legend an int": 1},
    }
    for name, values in settings.items():
        cases += sweep(
            "DebugOverlay",
            _keyword(DebugOverlay, name, flock=True),
            rf"DebugOverlay: {name} = ",
            values,
        )
    cases += [
        case(
            "DebugOverlay.select",
            "an unknown entity",
            lambda s: s.overlay.select(99999),
            r"select: entity 99999 is not a boid",
            KeyError,
        ),
        case(
            "DebugOverlay.select",
            "food, not a boid",
            lambda s: s.overlay.select(s.food),
            r"select: entity \d+ is not a boid",
            KeyError,
        ),
        case(
            "DebugOverlay.forces_of",
            "an unknown entity",
            lambda s: s.overlay.forces_of(99999),
            r"forces_of: entity 99999 is not a boid",
            KeyError,
        ),
    ]
    cases += sweep(
        "DebugOverlay.select",
        lambda s, v: s.overlay.select(v),
        r"select: entity = ",
        {"a str": "a", "a float": 1.5, "a bool": True},
    )
    cases += sweep(
        "DebugOverlay.forces_of",
        lambda s, v: s.overlay.forces_of(v),
        r"forces_of: entity = ",
        {"a str": "x"},
    )
    nearest = "DebugOverlay.select_nearest"
    cases += sweep(
        nearest,
        lambda s, v: s.overlay.select_nearest(v, 10.0),
        r"select_nearest: x = ",
        {"x NaN": NAN, "x a str": "a"},
    )
    cases += sweep(
        nearest,
        lambda s, v: s.overlay.select_nearest(10.0, v),
        r"select_nearest: y = ",
        {"y inf": INF},
    )
    cases += sweep(
        nearest,
        lambda s, v: s.overlay.select_nearest(10.0, 10.0, v),
        r"select_nearest: max_distance = ",
        _labelled("max_distance", {"negative": -1.0, "NaN": NAN, "a str": "far"}),
    )
    cases += sweep(
        "DebugOverlay.add_layer",
        lambda s, v: s.overlay.add_layer(v, _on_event),
        r"add_layer: name = ",
        {"name a number": 5, "name empty": ""},
    )
    cases += sweep(
        "DebugOverlay.add_layer",
        lambda s, v: s.overlay.add_layer("x", v),
        r"add_layer: layer = ",
        {"layer a number": 5, "layer None": None},
    )
    cases += sweep(
        "DebugOverlay.remove_layer",
        lambda s, v: s.overlay.remove_layer(v),
        r"remove_layer: name = ",
        {"a number": 5, "None": None},
    )
    cases += layer_cases("circles_layer", circles_layer) + layer_cases(
        "outlines_layer", outlines_layer
    )
    force = {"separation": np.array([1.0, 0.0])}
    cases += sweep(
        "applied",
        lambda s, v: applied(v, Species("a")),
        r"applied: forces",
        {
            "forces a str": "x",
            "a list as force": {"separation": [1.0, 2.0]},
            "a force of three": {"x": np.zeros(3)},
        },
    )
    cases += sweep(
        "applied", lambda s, v: applied(force, v), r"applied: species = ", {"species a str": "fish"}
    )
    return cases


def layer_cases(name: str, make: Callable[..., object]) -> list[Case]:
    def source() -> tuple[list[tuple[float, float]], list[float]]:
        return [(0.0, 0.0)], [1.0]

    red = (255, 0, 0, 255)
    cases = sweep(
        name,
        lambda s, v: make(v, red),
        rf"{name}: source = ",
        {"source a number": 5, "source None": None},
    )
    cases += sweep(
        name,
        lambda s, v: make(source, v),
        rf"{name}: colour = ",
        {"three values": (255, 0, 0), "over 255": (300, 0, 0, 255), "a str": "red"},
    )
    cases += sweep(
        name,
        lambda s, v: make(source, red, v),
        rf"{name}: width = ",
        {"width zero": 0.0, "width NaN": NAN},
    )
    return cases


CASES: list[Case] = [
    *component_cases(),
    *agent_cases(),
    *shape_cases(),
    *species_cases(),
    *config_cases(),
    *install_cases(),
    *species_call_cases(),
    *spawn_cases(),
    *entity_cases(),
    *event_and_step_cases(),
    *stage_cases(),
    *neighbours_cases(),
    *field_cases(),
    *render_cases(),
    *render_call_cases(),
    *metrics_cases(),
    *overlay_cases(),
]

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
    "warm_up": "builds its own throw-away world",
    "fixed_fraction": "reads arcade's clock",
}

# Records that shoal makes and hands out; nothing in shoal reads one that a caller built.
RECORDS: dict[str, str] = {
    "DrawnFrame": "what RenderSystem.frame drew, returned to the caller",
    "Step": "made by Flock.begin_step; every stage's run refuses any other",
}


# --- the tests -----------------------------------------------------------------------------
@pytest.mark.parametrize("hostile", CASES, ids=[c.what for c in CASES])
def test_a_hostile_call_is_refused_and_changes_nothing(
    hostile: Case, window: arcade.Window
) -> None:
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
    more = importlib.import_module("test_hostile_embedding")  # the host calls' cases
    covered = {c.covers for c in [*CASES, *more.CASES]}
    no_arguments = {**NO_ARGUMENTS, **more.NO_ARGUMENTS}
    missing = sorted(set(public) - covered - set(no_arguments) - set(RECORDS))
    assert not missing, f"public callables without hostile cases: {missing}"
    unknown = sorted(covered - set(public) - {"esper.process"})
    assert not unknown, f"cases for names that are not public callables: {unknown}"
    stale = sorted(set(no_arguments) - set(public))
    assert not stale, f"NO_ARGUMENTS names that are gone: {stale}"
    takes = sorted(name for name in no_arguments if not _takes_nothing(public[name]))
    assert not takes, f"NO_ARGUMENTS names that take arguments after all: {takes}"


def test_every_callable_with_cases_has_several() -> None:
    counts: dict[str, int] = {}
    for c in CASES:
        counts[c.covers] = counts.get(c.covers, 0) + 1
    few = sorted(name for name, count in counts.items() if count < 2)
    assert not few, f"fewer than two hostile cases: {few}"
    assert len({c.what for c in CASES}) == len(CASES), "two cases share a name"


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
    assert len(Polygon(_circle_points(1000)).points) == 1000
    assert metrics.group_count([[0.0, 0.0], [1e100, 0.0]], 1e300) == 1
