"""Obstacle geometry: shapes validate and normalise; inside, distance, surface and first
hit match brute force for any shape (concave included); a flock's obstacle field follows its
entities."""

import math
import re
from collections.abc import Callable

import esper
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shoal.components import Circle, Obstacle, Polygon, Rect, Shape, Species
from shoal.systems import (
    COLLISION_PRIORITY,
    MOTION_PRIORITY,
    OBSTACLES_PRIORITY,
    STAGES,
    STEERING_PRIORITY,
    CollisionSystem,
    FlockConfig,
    ObstacleSystem,
    compile_field,
    inside_obstacle,
    install,
    obstacle_field,
    refresh_obstacles,
)
from shoal.systems.obstacles.field import first_hit, surface

from obstacle_shapes import (
    CUP,
    H,
    Points,
    W,
    add_obstacles,
    brute_distance,
    brute_inside,
    cup,
    distances_to,
    in_box,
    inside_many,
    outline,
    shapes,
)


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


@pytest.mark.slow
@pytest.mark.fuzz
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.fuzz
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
