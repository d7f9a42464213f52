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
    Attractor,
    Boid,
    Circle,
    Food,
    Leader,
    Obstacle,
    Position,
    Predator,
    Rect,
    Shape,
    Species,
    Velocity,
)
from shoal.systems import (
    RENDER_PRIORITY,
    Flock,
    FlockConfig,
    install,
    obstacle_field,
)
from shoal.systems.core.threads import PARALLEL_MIN_BOIDS
from shoal.systems.flock.ecs import entities_with
from shoal.systems.render import RenderSystem

from chaos_draws import (
    NAMES,
    Op,
    Points,
    churn,
    make_shape,
    operations,
    shapes,
    spawns,
    species_values,
    steps,
    worlds,
)
from worlds import scratch_world


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

    def do_attractor(self, where: tuple[float, float], arrive: bool) -> None:
        attractor = Attractor(arrive=arrive)
        self.agents.append(esper.create_entity(Position(*self.at(*where)), attractor))

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

    def do_current(self, x: float, y: float) -> None:
        self.flock.current = (x, y)

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
    # A boid in a burst (a flash expansion from a scare; burst state not 0: running, or
    # spent in this step) may reach max_speed × burst_factor, the others max_speed.
    factor = np.array([table[n].burst_factor for n in table.names])[flock.store.species]
    high = np.where(flock.store.burst != 0.0, high * factor, high)
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


@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(**SCENE, ops=operations())
def test_random_scenes_under_churn_stay_sound(
    config: FlockConfig, species: tuple[dict[str, Any], ...], obstacles: list[Any], ops: list[Op]
) -> None:
    play(config, species, obstacles, ops)


# The crowds step simultaneously: a flock that updates in place steers on one thread, one
# boid after the other (the scenes above cover it). In place, thousands of boids stacked on
# one spot that each move across the world in a step make every later boid's search walk the
# whole grid: one such example cost 117 s (15 s a step).
CROWD = SCENE | {
    "config": worlds().map(lambda config: dataclasses.replace(config, update="simultaneous"))
}


@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(**CROWD, ops=operations(most=2000, rounds=8, first=PARALLEL_MIN_BOIDS))
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


@pytest.mark.slow
@pytest.mark.fuzz
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


@pytest.mark.fuzz
def test_species_values_reach_every_parameter() -> None:
    names = {f.name for f in dataclasses.fields(Species)}
    found: list[set[str]] = []

    @settings(max_examples=1, derandomize=True, database=None)
    @given(values=species_values("a"))
    def collect(values: dict[str, Any]) -> None:
        found.append(set(values))

    collect()
    assert found == [names]
