"""Hostile input to the step: events, step lengths, the stages' processors and the
neighbour lists (see tests/hostile.py)."""

import operator
from typing import Any

import esper
import numpy as np

from shoal.systems import (
    BOID_EATEN,
    STAGES,
    CollisionSystem,
    LifecycleSystem,
    MotionSystem,
    Neighbours,
    NeighbourSystem,
    ObstacleSystem,
    SeekingSystem,
    SteeringSystem,
    Step,
)
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.render import RenderSystem

from hostile import (
    INF,
    NAN,
    Call,
    Case,
    call_with,
    case,
    labelled,
    on_event,
    process_of,
    refusal_test,
    run_of,
    sweep,
)


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


def event_and_step_cases() -> list[Case]:
    cases = sweep(
        "Flock.set_handler",
        lambda s, v: s.flock.set_handler(v, on_event),
        r"set_handler: event = ",
        labelled("event", {"unknown": "shoal_boid_eatn", "a number": 5, "None": None}),
    )
    cases += sweep(
        "Flock.set_handler",
        lambda s, v: s.flock.set_handler(BOID_EATEN, v),
        r"set_handler: handler = ",
        labelled(
            "handler",
            {"a number": 5, "None": None, "without weak references": operator.itemgetter(1)},
        ),
    )
    cases += sweep(
        "Flock.remove_handler",
        lambda s, v: s.flock.remove_handler(v, on_event),
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
            process_of(stage),
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
            run_of(stage),
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
            call_with(stage),
            rf"{name}: flock = ",
            {"flock a str": "x", "flock None": None},
        )
    cases += sweep(
        "ObstacleSystem",
        lambda s, v: ObstacleSystem(s.flock, v),
        r"ObstacleSystem: margin = ",
        labelled("margin", {"negative": -1.0, "NaN": NAN, "a str": "m", "inf": INF}),
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


CASES: list[Case] = [
    *event_and_step_cases(),
    *stage_cases(),
    *neighbours_cases(),
]


test_a_hostile_call_is_refused_and_changes_nothing = refusal_test(CASES)
