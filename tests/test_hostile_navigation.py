"""Hostile input to navigation: the navigator and its fields, obstacles from a host's scene,
a step's goal terms and the groups metric (see tests/hostile.py)."""

from collections.abc import Callable
from typing import Any

import numpy as np

from shoal.components import Circle
from shoal.systems import (
    Navigator,
    add_obstacles,
    metrics,
    navigator,
    obstacle_shapes,
    remove_obstacles,
)

from hostile import INF, NAN, Case, Scene, case, labelled, refusal_test, sweep

POINTS: dict[str, object] = {
    "points NaN": [[NAN, 1.0]],
    "points a str": "ab",
    "points of three columns": [[1.0, 2.0, 3.0]],
}


def _nav(scene: Scene) -> Navigator:
    return navigator(scene.flock)


def navigator_cases() -> list[Case]:
    cases = sweep(
        "navigator", lambda s, v: navigator(v), r"navigator: flock = ", {"a str": "x", "None": None}
    )
    cases += sweep(
        "Navigator", lambda s, v: Navigator(v), r"Navigator: flock = ", {"flock a str": "x"}
    )
    cases += sweep(
        "Navigator",
        lambda s, v: Navigator(s.flock, cell=v),
        r"Navigator: cell = ",
        labelled("cell", {"zero": 0.0, "negative": -1.0, "NaN": NAN, "a str": "8"}),
    )
    cases += sweep(
        "Navigator",
        lambda s, v: Navigator(s.flock, clearance=v),
        r"Navigator: clearance = ",
        labelled("clearance", {"negative": -1.0, "inf": INF}),
    )
    cases += sweep(
        "Navigator",
        lambda s, v: Navigator(s.flock, max_cells=v),
        r"Navigator: max_cells = ",
        labelled("max_cells", {"too few": 100, "a float": 5000.0, "negative": -1, "True": True}),
    )
    cases += sweep(
        "Navigator",
        lambda s, v: Navigator(s.flock, margin=v),
        r"Navigator: margin = ",
        labelled("margin", {"zero": 0.0, "NaN": NAN, "inf": INF, "a str": "5"}),
    )
    for name, values in (
        ("cell", {"zero": 0.0, "NaN": NAN, "None": None}),
        ("clearance", {"negative": -1.0, "inf": INF}),
        ("max_cells", {"too few": 100, "a float": 5000.0}),
        ("margin", {"negative": -3.0, "NaN": NAN}),
    ):
        cases += sweep(
            f"Navigator.{name}", _setting(name), rf"Navigator: {name} = ", labelled(name, values)
        )
    return cases


def _setting(name: str) -> Callable[[Scene, Any], object]:
    """A call that sets the scene's navigator's setting `name` to its value."""
    return lambda scene, value: setattr(_nav(scene), name, value)


def field_cases() -> list[Case]:
    """The fields: built towards a target, from a threat, and read."""
    cases = sweep(
        "Navigator.seek_slot",
        lambda s, v: _nav(s).seek_slot(v, 10.0),
        r"seek_slot: x = ",
        labelled("x", {"NaN": NAN, "a str": "1", "inf": INF}),
    )
    cases += sweep(
        "Navigator.seek_slot",
        lambda s, v: _nav(s).seek_slot(10.0, 10.0, v),
        r"seek_slot: limit = ",
        labelled("limit", {"zero": 0.0, "negative": -5.0, "NaN": NAN}),
    )
    cases += sweep(
        "Navigator.seek_slot",
        lambda s, v: _nav(s).seek_slot(10.0, 10.0, until=v),
        r"seek_slot: until = ",
        labelled(
            "until",
            {"past the grid": np.array([10**9]), "floats": np.array([0.5]), "a str": "0"},
        ),
    )
    cases += sweep(
        "Navigator.flee_slot",
        lambda s, v: _nav(s).flee_slot(10.0, v, 50.0),
        r"flee_slot: y = ",
        labelled("y", {"NaN": NAN, "None": None}),
    )
    cases += sweep(
        "Navigator.flee_slot",
        lambda s, v: _nav(s).flee_slot(10.0, 10.0, v),
        r"flee_slot: radius = ",
        labelled("radius", {"zero": 0.0, "inf": INF, "NaN": NAN}),
    )
    cases += sweep(
        "Navigator.seek_slots",
        lambda s, v: _nav(s).seek_slots(v, np.array([100.0])),
        r"seek_slots: targets = ",
        labelled("targets", {"NaN": np.array([[NAN, 1.0]]), "flat": np.zeros(3)}),
    )
    cases += sweep(
        "Navigator.seek_slots",
        lambda s, v: _nav(s).seek_slots(np.array([[10.0, 10.0]]), v),
        r"seek_slots: limits = ",
        labelled("limits", {"one too many": np.ones(2), "zero": np.zeros(1), "NaN": [NAN]}),
    )
    cases += sweep(
        "Navigator.sample",
        lambda s, v: _nav(s).sample(v, np.array([[10.0, 10.0]])),
        r"sample: slots = ",
        labelled(
            "slots",
            {
                "past the pool": np.array([5]),
                "below -1": np.array([-2]),
                "floats": np.array([0.0]),
                "one too many": np.array([-1, -1]),
                "a str": "0",
            },
        ),
    )
    cases += sweep(
        "Navigator.sample",
        lambda s, v: _nav(s).sample(np.array([-1]), v),
        r"sample: points = ",
        POINTS,
    )
    return cases


def way_cases() -> list[Case]:
    """The ways: per point towards a target, and a waypoint along one."""
    cases = sweep(
        "Navigator.way_to",
        lambda s, v: _nav(s).way_to(v, [(10.0, 10.0)]),
        r"way_to: target = ",
        labelled("target", {"NaN": (NAN, 1.0), "a str": "ab", "one number": (1.0,)}),
    )
    cases += sweep(
        "Navigator.way_to", lambda s, v: _nav(s).way_to((1.0, 1.0), v), r"way_to: points = ", POINTS
    )
    cases += sweep(
        "Navigator.way_to",
        lambda s, v: _nav(s).way_to((1.0, 1.0), [(10.0, 10.0)], v),
        r"way_to: radius = ",
        labelled("radius", {"negative": -1.0, "NaN": NAN}),
    )
    cases += sweep(
        "Navigator.waypoint",
        lambda s, v: _nav(s).waypoint(v, (10.0, 10.0), 20.0),
        r"waypoint: target = ",
        labelled("target", {"inf": (INF, 1.0), "None": None}),
    )
    cases += sweep(
        "Navigator.waypoint",
        lambda s, v: _nav(s).waypoint((1.0, 1.0), v, 20.0),
        r"waypoint: point = ",
        labelled("point", {"NaN": (1.0, NAN), "a str": "xy"}),
    )
    cases += sweep(
        "Navigator.waypoint",
        lambda s, v: _nav(s).waypoint((1.0, 1.0), (10.0, 10.0), v),
        r"waypoint: ahead = ",
        labelled("ahead", {"negative": -1.0, "NaN": NAN}),
    )
    cases += sweep(
        "Navigator.waypoint",
        lambda s, v: _nav(s).waypoint((1.0, 1.0), (10.0, 10.0), 20.0, v),
        r"waypoint: radius = ",
        labelled("radius", {"negative": -1.0, "a str": "2"}),
    )
    return cases


def _remove_obstacle_then(scene: Scene, bad: object) -> None:
    """Remove the scene's obstacle and `bad` in one call: refused, so neither goes."""
    entities: list[Any] = [int(scene.field.entities[0]), bad]
    remove_obstacles(scene.flock, entities)


def scene_cases() -> list[Case]:
    """Obstacles from a host's scene."""
    items: dict[str, Any] = {
        "items a number": 3,
        "items a str": "walls",
        "a str among the items": [Circle(10.0, 10.0, 5.0), "wall"],
        "an item of two points": [type("Tiled", (), {"shape": [(0.0, 0.0), (1.0, 1.0)]})()],
    }
    cases = sweep(
        "add_obstacles", lambda s, v: add_obstacles(s.flock, v), r"add_obstacles: items", items
    )
    cases += sweep(
        "add_obstacles",
        lambda s, v: add_obstacles(v, [Circle(10.0, 10.0, 5.0)]),
        r"add_obstacles: flock = ",
        {"flock a str": "flock"},
    )
    cases += sweep(
        "add_obstacles",
        lambda s, v: add_obstacles(s.flock, [Circle(10.0, 10.0, 5.0)], v),
        r"add_obstacles: merge = ",
        labelled("merge", {"a str": "yes", "None": None}),
    )
    cases += sweep(
        "obstacle_shapes", lambda s, v: obstacle_shapes(v), r"obstacle_shapes: items", items
    )
    cases += sweep(
        "obstacle_shapes",
        lambda s, v: obstacle_shapes([], v),
        r"obstacle_shapes: merge = ",
        labelled("merge", {"one": 1}),
    )
    cases += sweep(
        "remove_obstacles",
        lambda s, v: remove_obstacles(s.flock, v),
        r"remove_obstacles: entities = ",
        {
            "entities a number": 3,
            "an unknown entity": [12345],
            "None among them": [None],
            "a str among them": ["1"],
        },
    )
    cases += sweep(
        "remove_obstacles",
        _remove_obstacle_then,
        r"remove_obstacles: entities = ",
        {"the obstacle and an unknown entity": 12345, "the obstacle and a float": 1.5},
    )
    cases += [
        case(
            "remove_obstacles",
            "a boid, not an obstacle",
            lambda s: remove_obstacles(s.flock, [s.boid]),
            r"remove_obstacles: entities = \d+ is not an obstacle",
        ),
        case(
            "remove_obstacles",
            "flock None",
            lambda s: remove_obstacles(None, []),  # type: ignore[arg-type]
            r"remove_obstacles: flock = ",
        ),
    ]
    return cases


def step_and_metric_cases() -> list[Case]:
    """A step's goal terms, and which group each boid is in."""
    cases = sweep(
        "Step.goals_for",
        lambda s, v: s.flock.step_state.goals_for(v),
        r"Step.goals_for: n = ",
        labelled("n", {"negative": -1, "a float": 1.5, "a str": "3", "beyond MAX_BOIDS": 10**9}),
    )
    cases += sweep(
        "groups",
        lambda s, v: metrics.groups(v, 5.0),
        r"groups: positions = ",
        {"positions NaN": [[NAN, 0.0]], "positions a str": "x"},
    )
    cases += sweep(
        "groups",
        lambda s, v: metrics.groups([[0.0, 0.0]], v),
        r"groups: radius = ",
        labelled("radius", {"zero": 0.0, "NaN": NAN}),
    )
    cases += sweep(
        "groups",
        lambda s, v: metrics.groups([[0.0, 0.0]], 5.0, v),
        r"groups: wrap_size = ",
        {"wrap_size with a zero side": (10.0, 0.0)},
    )
    return cases


CASES: list[Case] = [
    *navigator_cases(),
    *field_cases(),
    *way_cases(),
    *scene_cases(),
    *step_and_metric_cases(),
]


test_a_hostile_call_is_refused_and_changes_nothing = refusal_test(CASES)
