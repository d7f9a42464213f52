"""Random scenes under random churn: whatever happens between steps, the flock holds.

Hypothesis draws a world (any size, boundary, margin), species with every parameter anywhere
in its valid range, obstacles, and a list of operations: steps of any dt in [0, 0.25], spawns
(inside obstacles, on top of each other, on the edge), deletions (shoal's and esper's),
food, predators, leaders, attractors, obstacles coming and going, parameter and relation
changes, host writes to a boid's Position, frames drawn between steps. After every step:
every number finite, speeds within the species' limits, no boid inside an obstacle or outside
a bounded world, and the store, the SpriteList and the esper world agree.
"""

import dataclasses
import math
from typing import Any

import arcade
import esper
import numpy as np
import numpy.typing as npt
import pytest
from clear import assert_clear
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shoal.components import (
    FALLOFFS,
    LARGEST,
    NEIGHBOUR_LIMIT,
    STEERING_STYLES,
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
    Shape,
    Species,
    Velocity,
)
from shoal.systems import (
    MAX_DT,
    MIN_DT,
    RELATIONS,
    RENDER_PRIORITY,
    Flock,
    FlockConfig,
    install,
    obstacle_field,
)
from shoal.systems.core.ecs import entities_with
from shoal.systems.core.threads import PARALLEL_MIN_BOIDS
from shoal.systems.render import RenderSystem

from worlds import scratch_world

NAMES = ("a", "b", "c")
Op = tuple[Any, ...]
Points = npt.NDArray[np.float64]

# --- scenes -------------------------------------------------------------------------------
# Valid range of each number field of Species (see components/species.py), by kind.
LENGTHS = ("follow_distance", "leader_clearance", "food_range", "fear_radius", "catch_radius")
POSITIVE = ("look_ahead", "leader_range")
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
        "catch_cooldown": draw(spread(0.0, LARGEST)),
        "wander_rate": draw(spread(0.0, LARGEST)),
    }
    values.update({f: draw(spread(-LARGEST, LARGEST)) for f in WEIGHTS})
    values.update({f: draw(spread(0.0, LARGEST)) for f in LENGTHS})
    values.update({f: draw(spread(1e-3, LARGEST)) for f in POSITIVE})
    values.update({f: draw(spread(0.0, 180.0)) for f in TURNS})
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
        st.tuples(st.just("attractor"), pick),
        st.tuples(st.just("remove_agent"), unit()),
        st.tuples(st.just("obstacle"), shapes()),
        st.tuples(st.just("remove_obstacle"), unit()),
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


class Scene:
    """A flock with its render stage, and the operations a game might do to it."""

    def __init__(self, config: FlockConfig, species: list[Species], shapes_: list[Any]) -> None:
        self.flock = install(config, species)
        self.render = RenderSystem(self.flock)
        esper.add_processor(self.render, RENDER_PRIORITY)
        self.obstacles: list[int] = []
        for spec in shapes_:
            self.do_obstacle(spec)
        self.agents: list[int] = []
        self.rng = np.random.default_rng(config.seed)
        self.refused = 0  # tunes refused as invalid (then the species must be unchanged)

    @property
    def config(self) -> FlockConfig:
        return self.flock.config

    def at(self, fx: float, fy: float) -> tuple[float, float]:
        """A point at fractions of the world (1.0 is the far edge: on it, or wrapped)."""
        return fx * self.config.width, fy * self.config.height

    def pick(self, items: list[int] | npt.NDArray[np.int64], u: float) -> int | None:
        return None if len(items) == 0 else int(items[min(int(u * len(items)), len(items) - 1)])

    def apply(self, op: Op) -> None:
        getattr(self, f"do_{op[0]}")(*op[1:])

    def do_step(self, dt: float) -> None:
        self.flock.step(dt)

    def name(self, index: int) -> str:
        """Operations name species by index; a scene may have fewer than three."""
        names = self.flock.species.names
        return names[index % len(names)]

    def do_spawn(self, index: int, where: str, count: int, u: float) -> None:
        w, h = self.config.width, self.config.height
        if where == "random":
            points = self.rng.uniform((0, 0), (w, h), (count, 2))
        elif where == "stacked":
            points = np.tile(self.at(u, 1 - u), (count, 1))
        elif where == "edge":
            corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], float)
            points = corners[self.rng.integers(0, 4, count)]
            points[:, 0] = np.where(self.rng.random(count) < 0.5, points[:, 0], u * w)
        else:
            points = self.inside_obstacles(count)
        if self.config.wraps:  # a torus spans [0, w) × [0, h): a spawn on w is refused
            points = np.minimum(points, np.nextafter((w, h), 0))
        self.flock.spawn(self.name(index), points)

    def inside_obstacles(self, count: int) -> Points:
        """Points inside the obstacles (their centres and nearby), or anywhere if none."""
        field = obstacle_field(self.flock)
        if not field.shapes:
            return self.rng.uniform((0, 0), (self.config.width, self.config.height), (count, 2))
        boxes = np.array([_box(shape) for shape in field.shapes])
        chosen = boxes[self.rng.integers(0, len(boxes), count)]
        points = self.rng.uniform(chosen[:, :2], chosen[:, 2:])
        return np.clip(points, 0, np.nextafter((self.config.width, self.config.height), 0))

    def do_despawn(self, u: float) -> None:
        entities = self.flock.entities
        if len(entities):
            count = min(int(u * len(entities)) + 1, len(entities))
            chosen = self.rng.choice(entities, count, replace=False)
            self.flock.despawn(chosen)

    def do_esper_delete(self, u: float) -> None:
        entity = self.pick(self.flock.entities, u)
        if entity is not None:
            esper.delete_entity(entity)

    def do_esper_create(self, index: int, where: tuple[float, float], speed: float) -> None:
        marker = Boid(self.name(index))
        esper.create_entity(Position(*self.at(*where)), Velocity(speed, -speed / 2), marker)

    def do_teleport(self, u: float, fx: float, fy: float) -> None:
        entity = self.pick(self.flock.entities, u)
        if entity is not None:
            esper.component_for_entity(entity, Position).xy = self.at(fx, fy)

    def do_food(self, where: tuple[float, float], bites: int, sinking: bool) -> None:
        parts: list[Any] = [Position(*self.at(*where)), Food(bites=bites)]
        if sinking:
            parts.append(Velocity(0, -40))
        self.agents.append(esper.create_entity(*parts))

    def do_predator(self, where: tuple[float, float], reach: float, moving: bool) -> None:
        parts: list[Any] = [Position(*self.at(*where)), Predator(catch_radius=reach)]
        if moving:
            parts.append(Velocity(80, 30))
        self.agents.append(esper.create_entity(*parts))

    def do_leader(self, where: tuple[float, float], only_first: bool) -> None:
        leader = Leader((self.name(0),) if only_first else ())
        self.agents.append(esper.create_entity(Position(*self.at(*where)), Velocity(60, 0), leader))

    def do_attractor(self, where: tuple[float, float]) -> None:
        self.agents.append(esper.create_entity(Position(*self.at(*where)), Attractor()))

    def do_remove_agent(self, u: float) -> None:
        alive = [e for e in self.agents if esper.entity_exists(e)]
        entity = self.pick(alive, u)
        if entity is not None:
            esper.delete_entity(entity)

    def do_obstacle(self, spec: tuple[str, float, float, float, float, float]) -> None:
        shape = make_shape(spec, self.config)
        if shape is not None:
            self.obstacles.append(esper.create_entity(Obstacle(shape)))

    def do_remove_obstacle(self, u: float) -> None:
        entity = self.pick(self.obstacles, u)
        if entity is not None:
            self.obstacles.remove(entity)
            esper.delete_entity(entity, immediate=True)

    def do_tune(self, index: int, values: dict[str, Any], fields: list[str]) -> None:
        """Change one or two parameters to values drawn from the whole valid range; a
        combination the species refuses (say min_speed above max_speed) leaves it as it was."""
        name = self.name(index)
        before = self.flock.species[name]
        changes = {f: values[f] for f in fields}
        try:
            self.flock.tune(name, **changes)
        except ValueError:
            self.refused += 1
            assert self.flock.species[name] == before

    def do_add_species(self, values: dict[str, Any]) -> None:
        names = self.flock.species.names
        self.flock.add_species(Species(**{**values, "name": f"extra{len(names)}"}))

    def do_relate(self, observer: int, other: int, relation: str) -> None:
        self.flock.relate(self.name(observer), self.name(other), relation)

    def do_frame(self, alpha: float) -> None:
        self.render.frame(alpha)


def _box(shape: Shape) -> tuple[float, float, float, float]:
    """A box around the middle of `shape`, where points are (mostly) inside it."""
    if isinstance(shape, Circle):
        r = shape.radius / 2
        return shape.x - r, shape.y - r, shape.x + r, shape.y + r
    if isinstance(shape, Rect):
        r = min(shape.width, shape.height) / 3
        return shape.x - r, shape.y - r, shape.x + r, shape.y + r
    points = np.asarray(shape.points)
    centre = points.mean(axis=0)
    r = 0.2 * float(np.abs(points - centre).max())
    return centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r


# --- what must hold after every step -------------------------------------------------------
def assert_sound(scene: Scene) -> None:
    flock = scene.flock
    assert_clear(flock, obstacle_field(flock))  # finite, in the world, out of obstacles
    assert np.all(np.isfinite(flock.store.accelerations))
    assert_speeds_within_limits(flock)
    assert_everyone_agrees(scene)


def assert_speeds_within_limits(flock: Flock) -> None:
    speed = np.hypot(*flock.velocities.T)
    table = flock.species
    low = np.array([table[n].min_speed for n in table.names])[flock.store.species]
    high = np.array([table[n].max_speed for n in table.names])[flock.store.species]
    assert np.all(speed <= high * (1 + 1e-9)), f"too fast: {speed[speed > high][:3]}"
    assert np.all(speed >= low * (1 - 1e-9)), f"too slow: {speed[speed < low][:3]}"


def assert_everyone_agrees(scene: Scene) -> None:
    """The store, esper's boid entities, their Position components and the sprites agree."""
    flock, render = scene.flock, scene.render
    flock.store.check()
    with flock.in_world():
        assert entities_with(Boid) == set(flock.entities.tolist()), "store and esper differ"
        for row, entity in enumerate(flock.entities.tolist()):
            position = esper.component_for_entity(entity, Position)
            assert position.xy == tuple(flock.positions[row]), "a Position is stale"
    frame = render.frame(1.0)
    assert len(render.sprites) == len(flock) == len(render.feed)
    np.testing.assert_array_equal(frame.entities, flock.entities)
    np.testing.assert_array_equal(frame.positions, flock.positions)
    drawn = render.feed.sprites_of(flock.entities)
    assert len({id(s) for s in drawn}) == len(flock), "sprites shared or missing"


# --- the test -------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _window(window: arcade.Window) -> None:
    """Sprites need an OpenGL context."""


SCENE = {
    "config": worlds(),
    "species": st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True).flatmap(
        lambda names: st.tuples(*(species_values(n) for n in names))
    ),
    "obstacles": st.lists(shapes(), max_size=6),
}
SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(**SCENE, ops=operations())
def test_random_scenes_under_churn_stay_sound(
    config: FlockConfig, species: tuple[dict[str, Any], ...], obstacles: list[Any], ops: list[Op]
) -> None:
    play(config, species, obstacles, ops)


@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(**SCENE, ops=operations(most=2000, rounds=8, first=PARALLEL_MIN_BOIDS))
def test_crowds_on_the_parallel_kernels_stay_sound(
    config: FlockConfig, species: tuple[dict[str, Any], ...], obstacles: list[Any], ops: list[Op]
) -> None:
    """Thousands of boids: past PARALLEL_MIN_BOIDS the kernels run on every thread."""
    play(config, species, obstacles, ops)


def play(
    config: FlockConfig, species: tuple[dict[str, Any], ...], obstacles: list[Any], ops: list[Op]
) -> None:
    """Build the scene, apply `ops`, check it after every step."""
    with scratch_world():
        scene = Scene(config, [Species(**values) for values in species], obstacles)
        for op in ops:
            scene.apply(op)
            if op[0] == "step":
                assert_sound(scene)
        scene.flock.step(0.0)  # a paused step settles any last churn
        assert_sound(scene)


def test_operations_cover_everything_a_scene_can_do() -> None:
    """Every `do_` method of Scene is reachable from the operation strategies."""
    done = {name[3:] for name in dir(Scene) if name.startswith("do_")}
    drawn: set[str] = set()

    @settings(max_examples=300, derandomize=True, database=None)
    @given(op=st.one_of(steps(), spawns(), churn()))
    def collect(op: Op) -> None:
        drawn.add(op[0])

    collect()
    assert drawn == done


def test_species_values_reach_every_parameter() -> None:
    names = {f.name for f in dataclasses.fields(Species)}
    found: list[set[str]] = []

    @settings(max_examples=1, derandomize=True, database=None)
    @given(values=species_values("a"))
    def collect(values: dict[str, Any]) -> None:
        found.append(set(values))

    collect()
    assert found == [names]
