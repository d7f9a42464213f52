"""Hostile input to the components: Position and Velocity, the agents (Boid, Leader, Food,
Attractor, Predator), obstacle shapes and Species (see tests/hostile.py)."""

import dataclasses
import itertools
from functools import partial

from shoal.components import (
    SPECIES_PARAMETERS,
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

from hostile import (
    INF,
    NAN,
    NOT_FINITE,
    NOT_NUMBERS,
    Case,
    case,
    circle_points,
    component_of,
    keyword,
    labelled,
    refusal_test,
    set_to,
    sweep,
    vector,
)


def component_cases() -> list[Case]:
    cases: list[Case] = []
    for kind in (Position, Velocity):
        name = kind.__name__
        cases += sweep(name, vector(kind, "x"), rf"{name}: x = ", NOT_NUMBERS)
        cases += sweep(name, vector(kind, "y"), rf"{name}: y = ", NOT_FINITE)
        on_boid, values = component_of(kind, "boid"), {**NOT_NUMBERS, **NOT_FINITE}
        cases += sweep("Position.x", set_to("x", on_boid), rf"{name}: x = ", labelled(name, values))
    on_food, on_boid = component_of(Position, "food"), component_of(Position, "boid")
    plain = {"NaN on a plain entity": NAN, "a str on a plain entity": "a"}
    cases += sweep("Position.x", set_to("x", on_food), r"Position: x = ", plain)
    cases += sweep(
        "Position.y",
        set_to("y", on_boid),
        r"Position: y = ",
        {"NaN": NAN, "a str": "a", "-inf": -INF},
    )
    cases += sweep(
        "Position.xy",
        set_to("xy", on_boid),
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
        set_to("xy", component_of(Velocity, "boid")),
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
        keyword(Food, "bites"),
        r"Food: bites = ",
        {"zero": 0, "a float": 2.5, "a bool": True, "a str": "3"},
    )
    cases += sweep(
        "Food",
        keyword(Food, "radius"),
        r"Food: radius = ",
        labelled("radius", {"NaN": NAN, "negative": -1.0, "zero": 0.0, "inf": INF}),
    )
    cases += sweep("Food", keyword(Food, "species"), r"Food: species = ", {"a list": ["a"]})
    cases += sweep(
        "Attractor",
        keyword(Attractor, "radius"),
        r"Attractor: radius = ",
        {"zero": 0.0, "NaN": NAN},
    )
    cases += sweep(
        "Attractor",
        keyword(Attractor, "dead_radius"),
        r"Attractor: dead_radius = ",
        {"beyond radius": 300.0, "negative": -1.0},
    )
    cases += sweep(
        "Attractor",
        keyword(Attractor, "weight"),
        r"Attractor: weight = ",
        labelled("weight", {"negative": -1.0, "NaN": NAN, "a str": "x"}),
    )
    cases += sweep(
        "Attractor",
        keyword(Attractor, "arrive"),
        r"Attractor: arrive = ",
        labelled("arrive", {"a str": "no", "a number": 1, "None": None}),
    )
    cases += sweep("Predator", keyword(Predator, "prey"), r"Predator: prey = ", {"a str": "a"})
    cases += sweep(
        "Predator",
        keyword(Predator, "catch_radius"),
        r"Predator: catch_radius = ",
        {"negative": -1.0, "NaN": NAN},
    )
    cases += sweep(
        "Predator", keyword(Predator, "cooldown"), r"Predator: cooldown = ", {"inf": INF}
    )
    cases += sweep(
        "Predator",
        keyword(Predator, "resting"),
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
        labelled("radius", {"zero": 0.0, "negative": -1.0, "inf": INF, "None": None}),
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
            "1001 vertices": circle_points(1001),
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
        # A limit that may be infinite (max_force, alignment_radius, ...) refuses -inf.
        infinite = SPECIES_PARAMETERS[field.name].infinite
        bad |= {"-inf": -INF} if infinite else {"inf": INF}
        match = rf"Species 'a': {field.name} = "
        cases += sweep(
            "Species",
            keyword(partial(Species, "a"), field.name),
            match,
            labelled(field.name, bad),
        )
    cases += sweep(
        "Species",
        lambda s, v: Species(v),
        r"Species: name = ",
        labelled("name", {"a number": 5, "empty": "", "None": None}),
    )
    cases += sweep(
        "Species",
        keyword(partial(Species, "a"), "max_neighbours"),
        r"Species 'a': max_neighbours = ",
        labelled("max_neighbours", {"a float": 2.5, "a bool": True, "negative": -1}),
    )
    cases += sweep(
        "Species",
        keyword(partial(Species, "a"), "steering"),
        r"Species 'a': steering = ",
        {"steering unknown": "boids", "steering None": None},
    )
    cases += sweep(
        "Species",
        keyword(partial(Species, "a"), "separation_falloff"),
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


CASES: list[Case] = [
    *component_cases(),
    *agent_cases(),
    *shape_cases(),
    *species_cases(),
]


test_a_hostile_call_is_refused_and_changes_nothing = refusal_test(CASES)
