"""Hostile input to the flock: FlockConfig, install and uninstall, species calls (tune,
relate, add_species), spawning and the calls on entities (see tests/hostile.py)."""

import itertools

import numpy as np

from shoal.components import Species
from shoal.systems import MAX_BOIDS, Flock, FlockConfig, install, uninstall

from hostile import (
    INF,
    NAN,
    NOT_FINITE,
    NOT_NUMBERS,
    Case,
    Scene,
    case,
    keyword,
    labelled,
    refusal_test,
    sweep,
)


def config_cases() -> list[Case]:
    cases: list[Case] = []
    for name in ("width", "height", "margin", "wall_weight", "dt"):
        bad = {"a str": "800", "a bool": True, "NaN": NAN, "inf": INF}
        cases += sweep(
            "FlockConfig",
            keyword(FlockConfig, name),
            rf"FlockConfig: {name}",
            labelled(name, bad),
        )
    cases += sweep(
        "FlockConfig",
        keyword(FlockConfig, "width"),
        r"FlockConfig: width",
        {"width zero": 0, "width negative": -5},
    )
    cases += sweep(
        "FlockConfig",
        keyword(FlockConfig, "boundary"),
        r"FlockConfig: boundary = ",
        {"boundary unknown": "torus", "boundary None": None},
    )
    cases += sweep(
        "FlockConfig",
        keyword(FlockConfig, "margin"),
        r"FlockConfig: margin = ",
        {"margin negative": -1, "margin past the middle": 400},
    )
    cases += sweep(
        "FlockConfig",
        keyword(FlockConfig, "dt"),
        r"FlockConfig: dt = ",
        {"dt zero": 0, "dt too long": 0.5},
    )
    cases += sweep(
        "FlockConfig",
        keyword(FlockConfig, "seed"),
        r"FlockConfig: seed = ",
        labelled("seed", {"negative": -1, "a float": 1.5, "a bool": True}),
    )
    cases += sweep(
        "FlockConfig",
        keyword(FlockConfig, "wall_weight"),
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
        labelled("name", {"a list": ["a"], "unknown": "zz", "None": None}),
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
        labelled("observer", {"a list": ["a"], "unknown": "zz", "None": None}),
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
        labelled("relation", {"unknown": "eat", "a list": ["flee"], "None": None}),
    )
    return cases


def spawn_cases() -> list[Case]:
    cases = sweep(
        "Flock.spawn",
        lambda s, v: s.flock.spawn(v, [[10.0, 10.0]]),
        r"spawn: species",
        labelled("species", {"a list": ["a"], "unknown": "zz", "None": None, "a number": 5}),
    )
    cases += sweep(
        "Flock.spawn",
        lambda s, v: s.flock.spawn("a", v),
        r"spawn: positions",
        labelled(
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
        labelled(
            "velocities", {"too few": [[1.0, 0.0]], "NaN": [[NAN, 0.0], [1.0, 0.0]], "a str": "v"}
        ),
    )
    cases += sweep(
        "Flock.scatter",
        lambda s, v: s.flock.scatter("a", v),
        r"scatter: count",
        labelled(
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
        labelled("centre", {"a str": "ab", "NaN": (NAN, 0.0), "three numbers": (1.0, 1.0, 1.0)}),
    )
    cases += sweep(
        "Flock.scatter",
        lambda s, v: s.flock.scatter("a", 3, (10.0, 10.0), v),
        r"scatter: radius = ",
        labelled("radius", {"a str": "x", "negative": -1.0, "NaN": NAN, "inf": INF}),
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
        labelled("radius", {"negative": -1.0, "NaN": NAN, "a str": "r", "inf": INF}),
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


def current_cases() -> list[Case]:
    def set_current(scene: Scene, value: object) -> None:
        scene.flock.current = value  # type: ignore[assignment]

    return sweep(
        "Flock.current",
        set_current,
        r"Flock: current = ",
        {
            **NOT_NUMBERS,
            **NOT_FINITE,
            "three numbers": (1.0, 2.0, 3.0),
            "NaN in y": (0.0, NAN),
            "inf in x": (INF, 0.0),
            "a str pair": ("1", "2"),
            "over 1e6": (0.0, -2e6),
        },
    )


CASES: list[Case] = [
    *config_cases(),
    *install_cases(),
    *species_call_cases(),
    *spawn_cases(),
    *entity_cases(),
    *current_cases(),
]


test_a_hostile_call_is_refused_and_changes_nothing = refusal_test(CASES)
