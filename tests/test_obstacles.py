"""Obstacles: shapes validate, geometry matches brute force, boids go round and never end in."""

import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

import esper
import numba
import numpy as np
import numpy.typing as npt
import pytest
from clear import assert_clear
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shoal.components import Circle, Obstacle, Polygon, Rect, Shape, Species
from shoal.systems import (
    COLLISION_PRIORITY,
    MOTION_PRIORITY,
    OBSTACLES_PRIORITY,
    STAGES,
    STEERING_PRIORITY,
    CollisionSystem,
    Flock,
    FlockConfig,
    MotionSystem,
    ObstacleSystem,
    compile_field,
    inside_obstacle,
    install,
    obstacle_field,
    refresh_obstacles,
)
from shoal.systems.collision.kernel import SKIN
from shoal.systems.core.processor import FlockProcessor
from shoal.systems.obstacles.field import first_hit, surface

from worlds import scratch_world

Points = npt.NDArray[np.float64]
W, H = 400.0, 300.0
CUP = ((0, 0), (90, 0), (90, 90), (60, 90), (60, 30), (30, 30), (30, 90), (0, 90))


# --- shapes and brute-force references -------------------------------------------------
def cup(x: float, y: float, size: float, angle: float, wall: float = 1 / 3) -> Polygon:
    """A U (concave), `size` wide, its notch `1 - 2·wall` of that, turned by `angle` rad."""
    a, b = size * wall, size * (1 - wall)
    local = [(0, 0), (size, 0), (size, size), (b, size), (b, a), (a, a), (a, size), (0, size)]
    c, s = math.cos(angle), math.sin(angle)
    h = size / 2
    return Polygon(
        [(x + (u - h) * c - (v - h) * s, y + (u - h) * s + (v - h) * c) for u, v in local]
    )


def outline(shape: Shape) -> Points:
    """The polygon's vertices (rectangles by their own analytic corners)."""
    if isinstance(shape, Rect):
        c, s = (
            math.cos(math.radians(shape.angle_degrees)),
            math.sin(math.radians(shape.angle_degrees)),
        )
        hw, hh = shape.width / 2, shape.height / 2
        return np.array(
            [
                (shape.x + u * c - v * s, shape.y + u * s + v * c)
                for u, v in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))
            ]
        )
    assert isinstance(shape, Polygon)
    return np.array(shape.points)


def brute_distance(shape: Shape, p: Points) -> float:
    """Unsigned distance from p to the shape's boundary."""
    if isinstance(shape, Circle):
        return abs(math.hypot(p[0] - shape.x, p[1] - shape.y) - shape.radius)
    a = outline(shape)
    e = np.roll(a, -1, axis=0) - a
    t = np.clip(np.einsum("ij,ij->i", p - a, e) / np.einsum("ij,ij->i", e, e), 0.0, 1.0)
    return float(np.hypot(*(p - (a + t[:, None] * e)).T).min())


def in_box(shape: Shape, p: Points) -> bool:
    """p lies within the shape's bounding box."""
    if isinstance(shape, Circle):
        return bool(abs(p[0] - shape.x) <= shape.radius and abs(p[1] - shape.y) <= shape.radius)
    ring = outline(shape)
    return bool(np.all(p >= ring.min(axis=0)) and np.all(p <= ring.max(axis=0)))


def brute_inside(shape: Shape, p: Points) -> bool:
    """Inside or on the boundary (see `inside_many`)."""
    return bool(inside_many(shape, np.asarray(p, float)[None, :])[0])


def inside_many(shape: Shape, points: Points) -> npt.NDArray[np.bool_]:
    """Inside or on the boundary: analytic for circles and rectangles, even-odd rule else."""
    x, y = points[:, 0], points[:, 1]
    if isinstance(shape, Circle):
        result: npt.NDArray[np.bool_] = (x - shape.x) ** 2 + (y - shape.y) ** 2 <= shape.radius**2
        return result
    if isinstance(shape, Rect):
        angle = math.radians(shape.angle_degrees)
        c, s = math.cos(angle), math.sin(angle)
        u, v = (x - shape.x) * c + (y - shape.y) * s, -(x - shape.x) * s + (y - shape.y) * c
        result = (np.abs(u) <= shape.width / 2) & (np.abs(v) <= shape.height / 2)
        return result
    ring = outline(shape)
    inside = np.zeros(len(points), np.bool_)
    for (ax, ay), (bx, by) in zip(ring, np.roll(ring, -1, axis=0), strict=True):
        with np.errstate(divide="ignore", invalid="ignore"):
            crosses = ((ay > y) != (by > y)) & (x < ax + (bx - ax) * (y - ay) / (by - ay))
        inside ^= crosses
    result = inside | (distances_to(shape, points) == 0.0)
    return result


def distances_to(shape: Shape, points: Points) -> Points:
    """Unsigned distance from each point to the shape's boundary."""
    if isinstance(shape, Circle):
        return np.abs(np.hypot(points[:, 0] - shape.x, points[:, 1] - shape.y) - shape.radius)
    a = outline(shape)[None, :, :]
    e = np.roll(a, -1, axis=1) - a
    rel = points[:, None, :] - a
    t = np.clip((rel * e).sum(axis=2) / (e * e).sum(axis=2), 0.0, 1.0)
    gap = rel - t[:, :, None] * e
    result: Points = np.hypot(gap[:, :, 0], gap[:, :, 1]).min(axis=1)
    return result


@st.composite
def star(draw: st.DrawFn, size: float = 60.0) -> Polygon:
    """A star-shaped polygon (often concave) round a random centre."""
    n = draw(st.integers(3, 10))
    angles = np.sort(draw(st.lists(st.floats(0, 2 * math.pi), min_size=n, max_size=n)))
    assume(np.all(np.diff(np.append(angles, angles[0] + 2 * math.pi)) > 0.1))
    radii = np.array(draw(st.lists(st.floats(0.25, 1.0), min_size=n, max_size=n))) * size
    x, y = draw(st.floats(0, W)), draw(st.floats(0, H))
    try:
        return Polygon(np.column_stack((x + radii * np.cos(angles), y + radii * np.sin(angles))))
    except ValueError:
        assume(False)
        raise


@st.composite
def shapes(draw: st.DrawFn, size: float = 60.0) -> Shape:
    """Any obstacle shape, up to about `size` across, somewhere in the W × H world."""
    x, y = draw(st.floats(0, W)), draw(st.floats(0, H))
    kind = draw(st.sampled_from(["circle", "rect", "cup", "star"]))
    if kind == "circle":
        return Circle(x, y, draw(st.floats(2, size / 2)))
    if kind == "rect":
        return Rect(
            x, y, draw(st.floats(2, size)), draw(st.floats(2, size)), draw(st.floats(-360, 360))
        )
    if kind == "cup":
        return cup(x, y, draw(st.floats(6, size)), draw(st.floats(0, 2 * math.pi)))
    return draw(star(size))


# --- flocks ------------------------------------------------------------------------------
def add_obstacles(shapes_: list[Shape]) -> list[int]:
    """Put each shape on an entity of the current world."""
    return [esper.create_entity(Obstacle(shape)) for shape in shapes_]


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
    before = numba.get_num_threads()
    with suppress(ValueError):  # a machine with fewer cores keeps what it has
        numba.set_num_threads(count)
    try:
        yield
    finally:
        numba.set_num_threads(before)


# --- shape validation --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: Circle(math.nan, 0, 1), "x"),
        (lambda: Circle(0, math.inf, 1), "y"),
        (lambda: Circle(0, 0, 0), "radius"),
        (lambda: Circle(0, 0, -2), "radius"),
        (lambda: Circle(0, 0, "3"), "radius"),  # type: ignore[arg-type]
        (lambda: Rect(0, 0, 0, 1), "width"),
        (lambda: Rect(0, 0, 1, -1), "height"),
        (lambda: Rect(0, 0, 1, 1, math.nan), "angle_degrees"),
        (lambda: Rect(math.inf, 0, 1, 1), "x"),
        (lambda: Polygon([(0, 0), (1, 0)]), "points"),
        (lambda: Polygon([(0, 0), (1, 0), (2, 0)]), "points"),  # zero area
        (lambda: Polygon([(0, 0), (2, 2), (2, 0), (0, 2)]), "points"),  # bow tie
        (lambda: Polygon([(0, 0), (4, 0), (4, 4), (2, 0), (0, 4)]), "points"),  # touches itself
        (lambda: Polygon([(0, 0), (1, 0), (1, 0), (0, 1)]), "points"),  # repeated vertex
        (lambda: Polygon([(0, 0), (2, 0), (1, 0), (0, 1)]), "points"),  # folds back
        (lambda: Polygon([(0, 0), (1, math.nan), (0, 1)]), "points[1]"),
        (lambda: Polygon([(0, 0), (1, 0, 2), (0, 1)]), "points[1]"),
        (lambda: Polygon(5), "points"),  # type: ignore[arg-type]
        (lambda: Obstacle("circle"), "shape"),  # type: ignore[arg-type]
    ],
)
def test_invalid_shapes_raise_naming_the_field(make: Callable[[], object], field: str) -> None:
    with pytest.raises(ValueError, match=rf"\b{re.escape(field)} ="):
        make()


def test_valid_shapes_normalise() -> None:
    square = Polygon(np.array([[0, 0], [0, 1], [1, 1], [1, 0]]))  # clockwise, numpy
    assert square.points == ((0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 0.0))
    assert square.area == -1.0
    assert Polygon(CUP).area == 90 * 90 - 30 * 60
    assert Rect(0, 0, 2, 4, 90).corners()[0] == pytest.approx((2.0, -1.0))
    assert Obstacle(Circle(1, 2, 3)).shape == Circle(1.0, 2.0, 3.0)


# --- geometry against brute force ----------------------------------------------------------
def test_concave_polygon_inside_including_edges_and_vertices() -> None:
    field = compile_field([Polygon(CUP)])
    on_boundary = [*CUP, (45, 0), (90, 45), (75, 90), (60, 60), (45, 30), (30, 60), (0, 45)]
    inside = [(15, 45), (75, 45), (45, 15), (60.5, 89.5), (1e-9, 1e-9)]
    outside = [(45, 60), (45, 30.000001), (45, 90), (-1e-9, 45), (90.000001, 10), (30.5, 89)]
    result = inside_obstacle(field, on_boundary + inside + outside)
    expected = [True] * (len(on_boundary) + len(inside)) + [False] * len(outside)
    assert result.tolist() == expected
    dist = surface(field, on_boundary).distance
    assert np.all(dist == 0.0)


def test_surface_of_the_cup_notch() -> None:
    field = compile_field([Polygon(CUP)])
    got = surface(field, [(45, 60), (10, 45), (45, -10), (100, 100)])
    assert got.distance == pytest.approx([15, -10, 10, math.hypot(10, 10)])
    assert got.points == pytest.approx(np.array([(60, 60), (0, 45), (45, 0), (90, 90)]))
    assert got.normals == pytest.approx(np.array([(-1, 0), (-1, 0), (0, -1), (0.5**0.5, 0.5**0.5)]))


@settings(max_examples=60, deadline=None)
@given(shape=shapes(), seed=st.integers(0, 10_000))
def test_inside_and_distance_match_brute_force(shape: Shape, seed: int) -> None:
    field = compile_field([shape])
    rng = np.random.default_rng(seed)
    lo, hi = field.bounds[0, :2] - 10, field.bounds[0, 2:] + 10
    points = rng.uniform(lo, hi, (200, 2))
    if not isinstance(shape, Circle):  # the vertices and edge midpoints themselves
        ring = outline(shape)
        points = np.vstack((points, ring, (ring + np.roll(ring, -1, axis=0)) / 2))
    got_inside = inside_obstacle(field, points)
    got = surface(field, points)
    for k, p in enumerate(points):
        distance = brute_distance(shape, p)
        assert abs(got.distance[k]) == pytest.approx(distance, abs=1e-9)
        assert (got.distance[k] <= 0) == got_inside[k]
        if distance > 1e-7:  # rounding may put a point on an edge either side
            assert got_inside[k] == brute_inside(shape, p), (p, distance)
        assert np.hypot(*got.normals[k]) == pytest.approx(1.0)
        assert brute_distance(shape, got.points[k]) == pytest.approx(0.0, abs=1e-9)


def test_rotated_rectangle_inside_matches_its_frame() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        x, y, w, h = rng.uniform(0, 100, 2).tolist() + rng.uniform(1, 50, 2).tolist()
        rect = Rect(x, y, w, h, rng.uniform(-720, 720))
        points = rng.uniform(-60, 160, (500, 2))
        got = inside_obstacle(compile_field([rect]), points)
        for p, g in zip(points, got, strict=True):
            if brute_distance(rect, p) > 1e-9:
                assert g == brute_inside(rect, p)


def test_circle_distances_are_analytic() -> None:
    field = compile_field([Circle(10, 20, 5)])
    got = surface(field, [(10, 20), (13, 24), (10, 40), (10, 25)])
    assert got.distance == pytest.approx([-5, 0, 15, 0])
    assert got.normals[2] == pytest.approx([0, 1])
    assert inside_obstacle(field, [(13, 24), (13, 24.0001)]).tolist() == [True, False]


def test_many_obstacles_grid_matches_every_obstacle() -> None:
    rng = np.random.default_rng(5)
    shapes_: list[Shape] = []
    for k in range(120):
        x, y = rng.uniform(0, 1000, 2)
        if k % 3 == 0:
            shapes_.append(Circle(x, y, rng.uniform(3, 40)))
        elif k % 3 == 1:
            shapes_.append(Rect(x, y, rng.uniform(3, 80), rng.uniform(3, 80), rng.uniform(0, 360)))
        else:
            shapes_.append(cup(x, y, rng.uniform(10, 90), rng.uniform(0, 6.3)))
    field = compile_field(shapes_)
    points = rng.uniform(-50, 1050, (3000, 2))
    expected = [any(in_box(s, p) and brute_inside(s, p) for s in shapes_) for p in points]
    assert inside_obstacle(field, points).tolist() == expected
    dist = surface(field, points[:100]).distance
    for p, d, inside in zip(points[:100], dist, expected, strict=False):
        if not inside:
            assert d == pytest.approx(min(brute_distance(s, p) for s in shapes_))


def brute_first_contact(shape: Shape, start: Points, end: Points, radius: float) -> float:
    """Distance along start → end to the first point within `radius` of the shape (or in
    it), by sampling and bisection; inf if none."""
    length = float(np.hypot(*(end - start)))
    direction = (end - start) / length

    def touching(ts: Points) -> npt.NDArray[np.bool_]:
        points = start + ts[:, None] * direction
        result: npt.NDArray[np.bool_] = inside_many(shape, points) | (
            distances_to(shape, points) <= radius
        )
        return result

    ts = np.linspace(0, length, 2001)
    hits = np.flatnonzero(touching(ts))
    if len(hits) == 0:
        return math.inf
    hi = float(ts[hits[0]])
    lo = max(hi - length / 2000, 0.0)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if touching(np.array([mid]))[0] else (mid, hi)
    return hi


@settings(max_examples=60, deadline=None)
@given(shape=shapes(), radius=st.sampled_from([0.0, 3.0, 10.0]), seed=st.integers(0, 10_000))
def test_first_hit_matches_brute_force(shape: Shape, radius: float, seed: int) -> None:
    field = compile_field([shape])
    rng = np.random.default_rng(seed)
    lo, hi = field.bounds[0, :2] - 40, field.bounds[0, 2:] + 40
    starts, ends = rng.uniform(lo, hi, (8, 2)), rng.uniform(lo, hi, (8, 2))
    hit = first_hit(field, starts, ends, radius)
    for k in range(len(starts)):
        clearance = brute_distance(shape, starts[k])
        # Contacts from outside only, and not for a path that grazes within sampling error.
        if brute_inside(shape, starts[k]) or clearance <= radius + 1e-6:
            continue
        expected = brute_first_contact(shape, starts[k], ends[k], radius)
        if math.isinf(expected):
            assert math.isinf(hit.distance[k]) or hit.distance[k] <= np.hypot(
                *(ends[k] - starts[k])
            )
            continue  # a tangent contact can fall between samples
        length = float(np.hypot(*(ends[k] - starts[k])))
        assert hit.distance[k] == pytest.approx(expected, abs=length / 2000 + 1e-6)
        assert hit.obstacle[k] == 0


def test_first_hit_through_the_cup() -> None:
    field = compile_field([Polygon(CUP)])
    hit = first_hit(
        field,
        [(45, 200), (45, 60), (-50, 10), (45, 60)],
        [(45, -10), (45, -10), (200, 10), (45, 200)],
        5.0,
    )
    assert hit.distance[:3] == pytest.approx([165, 25, 45])
    assert hit.normals[:3] == pytest.approx(np.array([(0, 1), (0, 1), (-1, 0)]))
    assert hit.obstacle.tolist() == [0, 0, 0, -1]  # out of the notch: nothing in the way
    with pytest.raises(ValueError, match="radius"):
        first_hit(field, [(0, 0)], [(1, 1)], -1.0)


def test_empty_field_answers_nothing_inside() -> None:
    field = compile_field([])
    assert inside_obstacle(field, [(1, 2), (3, 4)]).tolist() == [False, False]
    assert np.all(np.isinf(surface(field, [(1, 2)]).distance))
    assert first_hit(field, [(0, 0)], [(5, 5)]).obstacle.tolist() == [-1]


# --- the field of a flock --------------------------------------------------------------------
def test_field_follows_the_obstacle_entities() -> None:
    flock = install(FlockConfig(width=W, height=H), [Species("fish")])
    empty = obstacle_field(flock)
    assert len(empty) == 0 and obstacle_field(flock) is empty
    first, second = add_obstacles([Circle(50, 50, 10), Rect(200, 100, 40, 20)])
    field = obstacle_field(flock)
    assert len(field) == 2 and field.entities.tolist() == [first, second]
    assert obstacle_field(flock) is field  # unchanged set: no rebuild
    esper.delete_entity(first, immediate=True)
    assert obstacle_field(flock).entities.tolist() == [second]
    esper.add_component(second, Obstacle(Circle(0, 0, 1)))  # replaced in place: noticed
    replaced = obstacle_field(flock)
    assert replaced.shapes == (Circle(0, 0, 1),) and obstacle_field(flock) is replaced
    assert refresh_obstacles(flock).shapes == (Circle(0, 0, 1),)
    esper.clear_database()  # ids start again at 1: a new obstacle may take an old id
    again = esper.create_entity(Obstacle(Circle(9, 9, 2)))
    assert again == first and obstacle_field(flock).shapes == (Circle(9, 9, 2),)


def test_stages_are_installed_in_order() -> None:
    order = [priority for _, priority in STAGES]
    assert order == sorted(order, reverse=True)
    assert (ObstacleSystem, OBSTACLES_PRIORITY) in STAGES
    assert (CollisionSystem, COLLISION_PRIORITY) in STAGES
    assert STEERING_PRIORITY > OBSTACLES_PRIORITY > MOTION_PRIORITY > COLLISION_PRIORITY
    with pytest.raises(ValueError, match="margin"):
        ObstacleSystem(install(FlockConfig(), [Species("a")]), margin=-1.0)


# --- avoidance ----------------------------------------------------------------------------------
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
