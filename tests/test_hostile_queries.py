"""Hostile input to the queries: the obstacle field and the metrics (see tests/hostile.py)."""

from collections.abc import Callable
from typing import Any

import numpy as np

from shoal.components import Circle
from shoal.systems import (
    FlockConfig,
    ObstacleField,
    Preparation,
    compile_field,
    inside_obstacle,
    metrics,
    obstacle_field,
    refresh_obstacles,
    set_threads,
    warm_up,
)

from hostile import INF, NAN, Call, Case, Scene, case, labelled, refusal_test, sweep


def _with_geometry(k: int, change: Callable[[Any], Any]) -> Call:
    """An ObstacleField of the scene's shapes with array k of its geometry changed."""

    def call(scene: Scene) -> object:
        geometry: list[Any] = list(scene.field.geometry)
        geometry[k] = change(geometry[k])
        return ObstacleField(scene.field.shapes, scene.field.entities, tuple(geometry))

    return call


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
        labelled(
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
        labelled(
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
        labelled(
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
    return cases + motion_cases()


def motion_cases() -> list[Case]:
    """The natural-motion measures: share_at_limit, turn_reversals, sprite_overlap."""
    cases = sweep(
        "share_at_limit",
        lambda s, v: metrics.share_at_limit(v, 1.0, 2.0),
        r"share_at_limit: velocities = ",
        {"velocities NaN": [[NAN, 0.0]]},
    )
    cases += sweep(
        "share_at_limit",
        lambda s, v: metrics.share_at_limit([[1.0, 0.0]], 1.0, v),
        r"share_at_limit: max_speed = ",
        {"max below min": 0.5, "max NaN": NAN, "max a str": "2"},
    )
    cases += sweep(
        "share_at_limit",
        lambda s, v: metrics.share_at_limit([[1.0, 0.0]], v, 2.0),
        r"share_at_limit: min_speed = ",
        {"min negative": -1.0, "min inf": INF},
    )
    cases += sweep(
        "turn_reversals",
        lambda s, v: metrics.turn_reversals([[0.0], [0.1]], v),
        r"turn_reversals: dt = ",
        {"dt zero": 0.0, "dt NaN": NAN, "dt a str": "0.1"},
    )
    cases += sweep(
        "turn_reversals",
        lambda s, v: metrics.turn_reversals(v, 0.1),
        r"turn_reversals: headings = ",
        {"headings NaN": [[NAN], [0.0]], "headings of str": [["a"], ["b"]], "flat": [0.1, 0.2]},
    )
    cases += sweep(
        "sprite_overlap",
        lambda s, v: metrics.sprite_overlap([[0.0, 0.0], [1.0, 0.0]], [[1.0, 0.0]] * 2, v),
        r"sprite_overlap: size = ",
        {"size zero": (0.0, 4.0), "size NaN": (NAN, 4.0), "size one number": (4.0,)},
    )
    cases += sweep(
        "sprite_overlap",
        lambda s, v: metrics.sprite_overlap([[0.0, 0.0], [1.0, 0.0]], v, (8.0, 4.0)),
        r"sprite_overlap: velocities = ",
        {"velocities one row short": [[1.0, 0.0]], "velocities inf": [[INF, 0.0]] * 2},
    )
    return cases


def preparation_cases() -> list[Case]:
    """warm_up's progress callback and Preparation.wait's timeout."""
    cases = sweep(
        "warm_up",
        lambda s, v: warm_up(progress=v),
        r"warm_up: progress = ",
        {"a number": 3, "a str": "bar"},
    )
    cases += sweep(
        "Preparation.wait",
        lambda s, v: Preparation().wait(v),
        r"Preparation.wait: timeout = ",
        {"negative": -1.0, "NaN": NAN, "a str": "1"},
    )
    return cases


def threads_cases() -> list[Case]:
    """set_threads' count (a refused one leaves the count as it was)."""
    return sweep(
        "set_threads",
        lambda s, v: set_threads(v),
        r"set_threads: count = ",
        {"zero": 0, "negative": -2, "a float": 2.5, "a str": "2", "NaN": NAN, "None": None,
         "too many": 10**6, "a bool": True},
    )  # fmt: skip


CASES: list[Case] = [
    *field_cases(),
    *metrics_cases(),
    *preparation_cases(),
    *threads_cases(),
]


test_a_hostile_call_is_refused_and_changes_nothing = refusal_test(CASES)
