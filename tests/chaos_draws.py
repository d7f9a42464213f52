"""What the chaos test draws (hypothesis strategies): worlds, species with every parameter
anywhere in its valid range, obstacle shapes, and the operations a game may do between two
steps (see test_chaos.py)."""

import dataclasses
import math
from typing import Any

import numpy as np
import numpy.typing as npt
from hypothesis import strategies as st

from shoal.components import (
    ACCELERATIONS,
    COHESION_PULLS,
    FALLOFFS,
    FORCE_CAPS,
    LARGEST,
    LEADER_PULLS,
    NEIGHBOUR_LIMIT,
    SEPARATION_COMBINES,
    STEERING_STYLES,
    WALL_STYLES,
    Circle,
    Polygon,
    Rect,
    Shape,
    Species,
)
from shoal.systems import (
    MAX_DT,
    MIN_DT,
    RELATIONS,
    FlockConfig,
)
from shoal.systems.core.config import UPDATES

NAMES = ("a", "b", "c")
Op = tuple[Any, ...]
Points = npt.NDArray[np.float64]

# --- scenes -------------------------------------------------------------------------------
# Valid range of each number field of Species (see components/species.py), by kind.
LENGTHS = (
    "follow_distance",
    "leader_clearance",
    "food_range",
    "fear_radius",
    "catch_radius",
    "rejoin_radius",
    "personal_space",
)
POSITIVE = ("look_ahead", "leader_range", "alarm_speed")
RATES = (
    "catch_cooldown",
    "wander_rate",
    "cruise_rate",
    "burst_time",
    "heading_noise",
    "rejoin_weight",
)
WEIGHTS = (
    "separation_weight",
    "alignment_weight",
    "cohesion_weight",
    "obstacle_weight",
    "leader_weight",
    "food_weight",
    "flee_weight",
    "alarm_weight",
    "chase_weight",
    "wander_weight",
)
TURNS = ("separate_turn", "align_turn", "cohere_turn")
TUNABLE = tuple(f.name for f in dataclasses.fields(Species) if f.name != "name")


def spread(low: float, high: float) -> st.SearchStrategy[float]:
    """Floats in [low, high], with the ends and the everyday range well represented."""
    everyday = st.floats(max(low, min(high, -10.0)), min(high, max(low, 200.0)))
    return st.one_of(st.sampled_from([low, high]), everyday, st.floats(low, high))


def limit() -> st.SearchStrategy[float]:
    """A force or turn-rate limit: anywhere in (0, LARGEST], or no limit at all."""
    return st.one_of(spread(1e-3, LARGEST), st.just(math.inf))


@st.composite
def species_values(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """Every Species parameter, each anywhere in its valid range."""
    perception = draw(spread(1e-3, LARGEST))
    max_speed = draw(spread(1e-3, LARGEST))
    values: dict[str, Any] = {
        "name": name,
        "perception_radius": perception,
        "separation_radius": draw(spread(0.0, perception)),
        "fov_degrees": draw(spread(0.0, 360.0)),
        "max_speed": max_speed,
        "min_speed": draw(spread(0.0, max_speed)),
        "max_force": draw(limit()),
        "max_turn_rate": draw(limit()),
        "max_neighbours": draw(st.one_of(st.integers(0, 8), st.just(NEIGHBOUR_LIMIT))),
        "separation_falloff": draw(st.sampled_from(FALLOFFS)),
        "steering": draw(st.sampled_from(STEERING_STYLES)),
        "alignment_radius": draw(st.one_of(spread(0.0, perception), st.just(math.inf))),
        "cruise_speed": draw(spread(0.0, max_speed)),
        "burst_factor": draw(spread(1.0, 10.0)),
        "separation_combine": draw(st.sampled_from(SEPARATION_COMBINES)),
        "walls": draw(st.sampled_from(WALL_STYLES)),
        "cohesion_pull": draw(st.sampled_from(COHESION_PULLS)),
        "leader_pull": draw(st.sampled_from(LEADER_PULLS)),
        "force_cap": draw(st.sampled_from(FORCE_CAPS)),
        "acceleration": draw(st.sampled_from(ACCELERATIONS)),
        "rheotaxis": draw(spread(0.0, 1.0)),
    }
    values.update({f: draw(spread(0.0, LARGEST)) for f in RATES})
    values.update({f: draw(spread(-LARGEST, LARGEST)) for f in WEIGHTS})
    values.update({f: draw(spread(0.0, LARGEST)) for f in LENGTHS})
    values.update({f: draw(spread(1e-3, LARGEST)) for f in POSITIVE})
    values.update({f: draw(spread(0.0, LARGEST)) for f in TURNS})
    return values


@st.composite
def worlds(draw: st.DrawFn) -> FlockConfig:
    size = st.one_of(st.floats(20, 3000), spread(1e-3, LARGEST))
    width, height = draw(size), draw(size)
    return FlockConfig(
        width=width,
        height=height,
        boundary=draw(st.sampled_from(["contain", "bounce", "wrap"])),
        margin=draw(st.floats(0, 0.49 * min(width, height))),
        wall_weight=draw(spread(0.0, LARGEST)),
        dt=draw(st.floats(MIN_DT, MAX_DT)),
        seed=draw(st.integers(0, 2**32)),
        update=draw(st.sampled_from(UPDATES)),
    )


def unit() -> st.SearchStrategy[float]:
    return st.floats(0, 1)


@st.composite
def shapes(draw: st.DrawFn) -> tuple[str, float, float, float, float, float]:
    """An obstacle as fractions of the world: kind, centre, two sizes, angle."""
    kind = draw(st.sampled_from(["circle", "rect", "star"]))
    return (
        kind,
        draw(unit()),
        draw(unit()),
        draw(st.floats(0.01, 0.2)),
        draw(st.floats(0.01, 0.2)),
        draw(st.floats(-360, 360)),
    )


def make_shape(
    spec: tuple[str, float, float, float, float, float], config: FlockConfig
) -> Shape | None:
    """The obstacle `spec` in a world of `config`'s size (no more than a fifth of a side);
    None in a world too small for obstacles of a pixel or more."""
    kind, fx, fy, fa, fb, angle = spec
    w, h = config.width, config.height
    x, y, a, b = fx * w, fy * h, fa * min(w, h), fb * min(w, h)
    if min(a, b) < 1.0:
        return None
    if kind == "circle":
        return Circle(x, y, a)
    if kind == "rect":
        return Rect(x, y, a, b, angle)
    # A five-pointed star: concave, simple, of outer radius a and inner radius a * 0.4.
    turns = np.radians(angle) + np.arange(10) * math.pi / 5
    radii = np.where(np.arange(10) % 2 == 0, a, 0.4 * a)
    return Polygon(np.column_stack((x + radii * np.cos(turns), y + radii * np.sin(turns))))


# --- operations ---------------------------------------------------------------------------
def steps() -> st.SearchStrategy[Op]:
    dt = st.one_of(st.sampled_from([0.0, MAX_DT]), st.floats(0.0, MAX_DT))
    return st.tuples(st.just("step"), dt)


def spawns(most: int = 40, least: int = 0) -> st.SearchStrategy[Op]:
    where = st.sampled_from(["random", "stacked", "edge", "in_obstacle"])
    return st.tuples(
        st.just("spawn"), st.integers(0, len(NAMES) - 1), where, st.integers(least, most), unit()
    )


def churn() -> st.SearchStrategy[Op]:
    """Every operation but steps and spawns: what a game may do between two steps."""
    pick = st.tuples(unit(), unit())
    return st.one_of(
        st.tuples(st.just("despawn"), unit()),
        st.tuples(st.just("esper_delete"), unit()),
        st.tuples(
            st.just("esper_create"), st.integers(0, len(NAMES) - 1), pick, st.floats(-300, 300)
        ),
        st.tuples(st.just("teleport"), unit(), st.floats(-0.2, 1.2), st.floats(-0.2, 1.2)),
        st.tuples(st.just("food"), pick, st.integers(1, 4), st.booleans()),
        st.tuples(st.just("predator"), pick, st.floats(0, 100), st.booleans()),
        st.tuples(st.just("leader"), pick, st.booleans()),
        st.tuples(st.just("attractor"), pick, st.booleans()),
        st.tuples(st.just("remove_agent"), unit()),
        st.tuples(st.just("obstacle"), shapes()),
        st.tuples(st.just("remove_obstacle"), unit()),
        st.tuples(st.just("current"), spread(-LARGEST, LARGEST), spread(-LARGEST, LARGEST)),
        st.tuples(
            st.just("tune"),
            st.integers(0, len(NAMES) - 1),
            species_values("any"),
            st.lists(st.sampled_from(TUNABLE), min_size=1, max_size=2),
        ),
        st.tuples(
            st.just("relate"),
            st.integers(0, len(NAMES) - 1),
            st.integers(0, len(NAMES) - 1),
            st.sampled_from(RELATIONS),
        ),
        st.tuples(st.just("frame"), unit()),
        st.tuples(st.just("add_species"), species_values("new")),
    )


def operations(most: int = 40, rounds: int = 40, first: int = 0) -> st.SearchStrategy[list[Op]]:
    """A spawn of at least `first` boids and maybe more to start with, then rounds of up to
    three changes and a step."""
    start = st.tuples(spawns(first + most, first), st.lists(spawns(most), max_size=2)).map(
        lambda parts: [parts[0], *parts[1]]
    )
    one_round = st.tuples(st.lists(st.one_of(spawns(most), churn()), max_size=3), steps())
    rounds_ = st.lists(one_round, min_size=min(10, rounds), max_size=rounds)
    return st.tuples(start, rounds_).map(
        lambda parts: parts[0] + [op for changes, step in parts[1] for op in [*changes, step]]
    )
