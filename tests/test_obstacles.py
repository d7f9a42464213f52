"""Obstacles in a flock: boids go round them and never end a step inside one (the geometry:
test_obstacle_geometry.py)."""

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import esper
import numpy as np
import pytest
from clear import assert_clear
from hypothesis import given, settings
from hypothesis import strategies as st

from shoal.components import Circle, Polygon, Rect, Shape, Species
from shoal.systems import (
    STAGES,
    STEERING_PRIORITY,
    CollisionSystem,
    Flock,
    FlockConfig,
    MotionSystem,
    ObstacleSystem,
    inside_obstacle,
    install,
    obstacle_field,
)
from shoal.systems.collision.kernel import SKIN
from shoal.systems.core.threads import set_threads
from shoal.systems.core.threads import threads as shoal_threads
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.obstacles.field import surface

from obstacle_shapes import (
    CUP,
    H,
    Points,
    W,
    add_obstacles,
    brute_inside,
    cup,
    outline,
    shapes,
)
from worlds import scratch_world


# --- flocks ------------------------------------------------------------------------------
def remove_stages(*keep: type[FlockProcessor]) -> None:
    """Remove every installed stage of the current world but `keep`."""
    for system, _ in STAGES:
        if system not in keep:
            esper.remove_processor(system)


class Jitter(FlockProcessor):
    """Random accelerations in place of flocking: boids blunder about and into things."""

    def __init__(self, flock: Flock, strength: float, seed: int) -> None:
        super().__init__(flock)
        self.strength = strength
        self.rng = np.random.default_rng(seed)

    def process(self, *args: Any, **kwargs: Any) -> None:
        acc = self.flock.store.accelerations
        acc[:] = self.rng.normal(0.0, self.strength, acc.shape)


@contextmanager
def threads(count: int) -> Iterator[None]:
    """Run numba's parallel kernels on `count` threads inside the block."""
    before = shoal_threads()
    set_threads(count)
    try:
        yield
    finally:
        set_threads(before)


# --- avoidance ----------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("offset", [0.0, 4.0, 25.0])
@pytest.mark.parametrize("max_force", [160.0, math.inf])
def test_boid_heading_at_a_circle_goes_round_without_touching(
    offset: float, max_force: float
) -> None:
    species = Species("fish", max_force=max_force)
    flock = install(FlockConfig(width=800, height=600, seed=1), [species])
    esper.remove_processor(CollisionSystem)  # only avoidance keeps it out
    add_obstacles([Circle(400, 300 + offset, 40)])
    flock.spawn("fish", [(150, 300)], [(110, 0)])
    field = obstacle_field(flock)
    closest, headings, xs = math.inf, [], []
    with threads(1):  # one boid: starting threads would cost more than the work
        for _ in range(240):
            flock.step(1 / 60)
            closest = min(closest, float(surface(field, flock.positions).distance[0]))
            headings.append(math.atan2(flock.velocities[0, 1], flock.velocities[0, 0]))
            xs.append(flock.positions[0, 0])
    assert closest > 0.5 * 8.0  # it kept most of its body margin
    assert max(xs) > 400 + 40  # it went past, not back
    turns = np.abs(np.diff(np.unwrap(headings)))
    assert turns.max() <= math.radians(species.max_turn_rate) / 60 + 1e-9  # smooth: no bounce
    assert np.all(np.abs(headings[:120]) < math.pi / 2)  # never turned back towards the start


def test_avoidance_adds_to_the_steering() -> None:
    flock = install(FlockConfig(width=W, height=H, seed=4), [Species("fish")])
    add_obstacles([Circle(200, 150, 40), cup(100, 100, 60, 0.3)])
    flock.scatter("fish", 200)
    flock.step()
    for system in STAGES[:2]:  # neighbours, steering: this step's flocking accelerations
        stage = esper.get_processor(system[0])
        assert stage is not None
        stage.process(1 / 60)
    steering = flock.store.accelerations.copy()
    stage = esper.get_processor(ObstacleSystem)
    assert stage is not None
    stage.process(1 / 60)
    added = flock.store.accelerations - steering
    assert np.any(added != 0)
    species = flock.species["fish"]
    assert np.all(np.hypot(*added.T) <= species.obstacle_weight * species.max_force * (1 + 1e-9))


# --- the hard guarantee ------------------------------------------------------------------
def crowded_shapes(
    rng: np.random.Generator, count: int, width: float, height: float
) -> list[Shape]:
    """Mixed obstacles, a third of them U-shaped cups, some on the tank edge."""
    result: list[Shape] = []
    for k in range(count):
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        if k % 3 == 0:
            result.append(cup(x, y, rng.uniform(30, 80), rng.uniform(0, 2 * math.pi)))
        elif k % 3 == 1:
            result.append(Rect(x, y, rng.uniform(10, 90), rng.uniform(6, 40), rng.uniform(0, 180)))
        else:
            result.append(Circle(x, y, rng.uniform(5, 35)))
    return result


@pytest.mark.slow
def test_no_boid_inside_over_ten_thousand_crowded_steps() -> None:
    """300 boids (half of them ignore obstacles), 30 obstacles, dt 0.1 to 0.25."""
    config = FlockConfig(width=900, height=600, boundary="contain", margin=30, seed=7)
    careful = Species("careful", min_speed=60, max_speed=160)
    reckless = Species("reckless", min_speed=160, max_speed=160, obstacle_weight=0.0)
    flock = install(config, [careful, reckless])
    remove_stages(ObstacleSystem, MotionSystem, CollisionSystem)
    esper.add_processor(Jitter(flock, 400.0, seed=7), STEERING_PRIORITY)
    rng = np.random.default_rng(7)
    add_obstacles(crowded_shapes(rng, 30, config.width, config.height))
    flock.scatter("careful", 150)
    flock.scatter("reckless", 150)
    field = obstacle_field(flock)
    pushed = 0
    collision = esper.get_processor(CollisionSystem)
    assert isinstance(collision, CollisionSystem)
    with threads(1):  # 10,000 short steps: thread start-up would dominate
        for step in range(10_000):
            flock.step(0.1 if step % 2 else 0.25)
            assert_clear(flock, field)
            pushed += collision.pushed
    assert pushed > 1000  # the reckless ones really did run into things


@pytest.mark.slow
@pytest.mark.parametrize("boundary", ["contain", "bounce", "wrap"])
def test_full_pipeline_keeps_boids_out_at_large_dt(boundary: str) -> None:
    config = FlockConfig(width=900, height=600, boundary=boundary, dt=0.25, seed=3)
    flock = install(config, [Species("fish", min_speed=110)])
    add_obstacles(crowded_shapes(np.random.default_rng(3), 30, config.width, config.height))
    flock.scatter("fish", 300)
    field = obstacle_field(flock)
    for _ in range(150):
        flock.step()
        assert_clear(flock, field)


def spawn_points(shapes_: list[Shape], rng: np.random.Generator, per_shape: int) -> Points:
    """Points in, on the vertices and edges of, and at the centre of every shape."""
    points: list[Points] = []
    for shape in shapes_:
        if isinstance(shape, Circle):
            angle = rng.uniform(0, 2 * math.pi, per_shape)
            r = shape.radius * np.sqrt(rng.uniform(0, 1, per_shape))
            points.append(
                np.column_stack((shape.x + r * np.cos(angle), shape.y + r * np.sin(angle)))
            )
            points.append(np.array([(shape.x, shape.y), (shape.x + shape.radius, shape.y)]))
            continue
        ring = outline(shape)
        t = rng.uniform(0, 1, (len(ring), 1))
        points.append(ring)
        points.append(ring + t * (np.roll(ring, -1, axis=0) - ring))
        lo, hi = ring.min(axis=0), ring.max(axis=0)
        inside = [p for p in rng.uniform(lo, hi, (4 * per_shape, 2)) if brute_inside(shape, p)]
        points.append(np.array(inside[:per_shape]).reshape(-1, 2))
    return np.vstack(points)


@pytest.mark.parametrize("boundary", ["contain", "bounce", "wrap"])
def test_boids_spawned_inside_or_on_edges_are_out_after_one_step(boundary: str) -> None:
    config = FlockConfig(width=W, height=H, boundary=boundary, seed=2)
    flock = install(config, [Species("fish")])
    shapes_: list[Shape] = [
        Polygon(CUP),
        cup(300, 200, 60, 0.7, wall=0.45),  # a narrow notch
        Circle(150, 150, 30),
        Rect(170, 150, 50, 20, 20),  # overlaps the circle
        Circle(185, 150, 12),  # and a third one on top
        Rect(20, 150, 100, 60),  # through the left wall
        Circle(W, H, 40),  # over the top right corner
        Rect(W / 2, 10, 60, 40, 10),  # over the bottom edge
    ]
    add_obstacles(shapes_)
    points = spawn_points(shapes_, np.random.default_rng(2), 20)
    points = points[(points >= 0).all(axis=1) & (points <= (W, H)).all(axis=1)]
    if boundary == "wrap":
        points = points[(points < (W, H)).all(axis=1)]
    field = obstacle_field(flock)
    assert inside_obstacle(field, points).mean() > 0.9  # a point between vertices may round out
    flock.spawn("fish", points)
    flock.step(1 / 60)
    assert_clear(flock, field)


def test_pushed_boid_slides_along_the_surface_at_its_speed() -> None:
    species = Species("fish", min_speed=40, max_speed=110)
    flock = install(FlockConfig(width=W, height=H, seed=1), [species])
    remove_stages(CollisionSystem)  # push out without moving first
    add_obstacles([Circle(200, 150, 40)])
    centre = np.array([200.0, 150.0])
    start = centre + np.array([(-20, 0), (0, 20), (0, -20), (15, 0), (0, 0), (-39, 0)])
    velocity = np.array([(100, 0), (100, -10), (3, 150), (0, -20), (30, 0), (-5, 1)], float)
    flock.spawn("fish", start, velocity)
    speeds = np.hypot(*velocity.T)
    collision = esper.get_processor(CollisionSystem)
    assert collision is not None
    collision.process(1 / 60)
    out = flock.positions - centre
    distance = np.hypot(*out.T)
    assert distance == pytest.approx(40 + SKIN, abs=1e-9)
    normal = out / distance[:, None]
    assert np.all(np.einsum("ij,ij->i", flock.velocities, normal) >= -1e-9)
    assert np.hypot(*flock.velocities.T) == pytest.approx(np.clip(speeds, 40, 110))


@pytest.mark.slow
def test_results_do_not_depend_on_the_thread_count() -> None:
    def run(count: int) -> Points:
        with scratch_world(), threads(count):
            config = FlockConfig(width=600, height=400, seed=9)
            flock = install(config, [Species("fish")])
            add_obstacles(crowded_shapes(np.random.default_rng(9), 20, 600, 400))
            flock.scatter("fish", 400)
            for _ in range(60):
                flock.step(0.1)
            return flock.positions.copy()

    assert np.array_equal(run(1), run(2))


# --- property: any scene, any dt, any boundary ----------------------------------------------
@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=40, deadline=None)
@given(
    shapes_=st.lists(shapes(80.0), min_size=1, max_size=8),
    boundary=st.sampled_from(["contain", "bounce", "wrap"]),
    dt=st.floats(1e-4, 0.25),
    speed=st.floats(1, 600),
    seed=st.integers(0, 1000),
    reckless=st.booleans(),
)
def test_any_scene_ends_every_step_clear(
    shapes_: list[Shape], boundary: str, dt: float, speed: float, seed: int, reckless: bool
) -> None:
    with scratch_world():
        config = FlockConfig(width=W, height=H, boundary=boundary, margin=20, dt=dt, seed=seed)
        species = Species(
            "s", min_speed=speed / 2, max_speed=speed, obstacle_weight=0.0 if reckless else 3.0
        )
        flock = install(config, [species])
        add_obstacles(shapes_)
        flock.scatter("s", 40)
        rng = np.random.default_rng(seed)
        flock.spawn("s", spawn_points(shapes_, rng, 3).clip(0, (W - 1e-6, H - 1e-6)))
        field = obstacle_field(flock)
        for _ in range(6):
            flock.step()
            assert_clear(flock, field)
            speeds = np.hypot(*flock.velocities.T)
            assert np.all(speeds <= speed * (1 + 1e-9)) and np.all(speeds >= speed / 2 * (1 - 1e-9))
