"""The no-tunnelling promise, for any shape: no boid ever ends a step inside an obstacle or
outside the tank, and none passes through one.

Hypothesis generates the shapes the issue found leaky and others like them: big circles
(covering all but the tank's corners) and small ones, concave cups and many-armed stars, a
tank tiled with small rock squares but for a few holes, closed boxes with walls 1 px thin
(or thinner) holding boids, and obstacles dropped on top of boids mid-run; at speeds up to
100,000 px/s and any dt the API accepts (up to 0.25 s), in all three boundary modes.
"""

import math

import esper
import numpy as np
import numpy.typing as npt
import pytest
from clear import assert_clear
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shoal.components import Circle, Obstacle, Polygon, Rect, Shape, Species
from shoal.systems import (
    MAX_DT,
    Flock,
    FlockConfig,
    add_obstacles,
    inside_obstacle,
    install,
    obstacle_field,
    refresh_obstacles,
)

from worlds import scratch_world

pytestmark = pytest.mark.fuzz

Points = npt.NDArray[np.float64]
W, H = 400.0, 300.0
BOUNDARIES = st.sampled_from(["contain", "bounce", "wrap"])
DTS = st.floats(1e-4, MAX_DT)
# Most examples at game speeds, some far beyond (a boid crossing the tank in one step).
SPEEDS = st.one_of(st.floats(20.0, 600.0), st.floats(600.0, 1e5))


# --- shapes -------------------------------------------------------------------------------
@st.composite
def circles(draw: st.DrawFn) -> Circle:
    """A circle: tiny, ordinary, or big enough to cover all but the tank's corners."""
    radius = draw(st.one_of(st.floats(0.5, 5.0), st.floats(5.0, 80.0), st.floats(150.0, 260.0)))
    return Circle(draw(st.floats(0, W)), draw(st.floats(0, H)), radius)


@st.composite
def stars(draw: st.DrawFn) -> Polygon:
    """A star of 3 to 12 arms, thin or fat, up to most of the tank across, turned."""
    arms = draw(st.integers(3, 12))
    outer = draw(st.floats(10.0, 160.0))
    inner = outer * draw(st.floats(0.05, 0.6))
    turn = draw(st.floats(0.0, 2 * math.pi))
    x, y = draw(st.floats(0, W)), draw(st.floats(0, H))
    angles = turn + np.arange(2 * arms) * math.pi / arms
    radii = np.where(np.arange(2 * arms) % 2 == 0, outer, inner)
    return Polygon(np.column_stack((x + radii * np.cos(angles), y + radii * np.sin(angles))))


@st.composite
def cups(draw: st.DrawFn) -> Polygon:
    """A U (concave), its walls from a fifth to almost half its width, turned."""
    size = draw(st.floats(8.0, 200.0))
    wall = draw(st.floats(0.2, 0.45))
    angle = draw(st.floats(0.0, 2 * math.pi))
    x, y = draw(st.floats(0, W)), draw(st.floats(0, H))
    a, b = size * wall, size * (1 - wall)
    local = [(0, 0), (size, 0), (size, size), (b, size), (b, a), (a, a), (a, size), (0, size)]
    c, s = math.cos(angle), math.sin(angle)
    h = size / 2
    return Polygon([(x + (u - h) * c - (v - h) * s, y + (u - h) * s + (v - h) * c)
                    for u, v in local])  # fmt: skip


def shapes() -> st.SearchStrategy[Shape]:
    return st.one_of(circles(), stars(), cups())


@st.composite
def tiled_tank(draw: st.DrawFn) -> list[Shape]:
    """The whole tank tiled with squares side by side (shared edges), but for a few holes."""
    side = draw(st.sampled_from([6.0, 8.0, 10.0, 16.0]))
    nx, ny = int(W // side), int(H // side)
    holes = draw(st.lists(st.tuples(st.integers(0, nx - 1), st.integers(0, ny - 1)),
                          min_size=1, max_size=4))  # fmt: skip
    return [
        Rect((i + 0.5) * side, (j + 0.5) * side, side, side)
        for i in range(nx)
        for j in range(ny)
        if (i, j) not in holes
    ]


def box_walls(x0: float, y0: float, x1: float, y1: float, thickness: float) -> list[Shape]:
    """A closed box: four walls `thickness` thin along the rectangle x0, y0 → x1, y1."""
    w, h = x1 - x0, y1 - y0
    return [
        Rect((x0 + x1) / 2, y0, w + thickness, thickness),
        Rect((x0 + x1) / 2, y1, w + thickness, thickness),
        Rect(x0, (y0 + y1) / 2, thickness, h + thickness),
        Rect(x1, (y0 + y1) / 2, thickness, h + thickness),
    ]


# --- running ------------------------------------------------------------------------------
def flock_for(boundary: str, dt: float, speed: float, seed: int, reckless: bool) -> Flock:
    config = FlockConfig(width=W, height=H, boundary=boundary, margin=20, dt=dt, seed=seed)
    species = Species(
        "s", min_speed=speed / 2, max_speed=speed, obstacle_weight=0.0 if reckless else 3.0
    )
    return install(config, [species])


def inside_and_on(shape: Shape, rng: np.random.Generator, count: int) -> Points:
    """Points in the shape's box (some inside it), its vertices and its centre."""
    if isinstance(shape, Circle):
        angle = rng.uniform(0, 2 * math.pi, count)
        r = shape.radius * np.sqrt(rng.uniform(0, 1, count))
        ring = np.column_stack((shape.x + r * np.cos(angle), shape.y + r * np.sin(angle)))
        return np.vstack((ring, [(shape.x, shape.y)]))
    corners = np.array(shape.corners() if isinstance(shape, Rect) else shape.points)
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    return np.vstack((corners, rng.uniform(lo, hi, (count, 2))))


def in_world(points: Points, boundary: str) -> Points:
    top = (W - 1e-6, H - 1e-6) if boundary == "wrap" else (W, H)
    return points.clip(0.0, top)


def has_room(flock: Flock) -> bool:
    """Whether some point of a 1 px lattice over the world lies outside every obstacle.

    Generated circles can cover the whole tank between them; there the promise cannot hold
    (the collision stage leaves a boid where it is when nothing in the world is free), so
    such scenes are not examples of it.
    """
    xs, ys = np.meshgrid(np.arange(0.5, W, 1.0), np.arange(0.5, H, 1.0))
    lattice = np.column_stack((xs.ravel(), ys.ravel()))
    return not inside_obstacle(obstacle_field(flock), lattice).all()


def run_clear(flock: Flock, steps: int) -> None:
    field = obstacle_field(flock)
    for _ in range(steps):
        flock.step()
        assert_clear(flock, field)


# --- properties ---------------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    scene=st.lists(shapes(), min_size=1, max_size=6),
    boundary=BOUNDARIES, dt=DTS, speed=SPEEDS, seed=st.integers(0, 10_000), reckless=st.booleans(),
)  # fmt: skip
def test_circles_stars_and_cups_never_hold_a_boid(
    scene: list[Shape], boundary: str, dt: float, speed: float, seed: int, reckless: bool
) -> None:
    with scratch_world():
        flock = flock_for(boundary, dt, speed, seed, reckless)
        add_obstacles(flock, scene, merge=False)
        assume(has_room(flock))
        rng = np.random.default_rng(seed)
        flock.scatter("s", 30)
        flock.spawn("s", in_world(np.vstack([inside_and_on(s, rng, 8) for s in scene]), boundary))
        run_clear(flock, 5)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(tiles=tiled_tank(), boundary=BOUNDARIES, dt=DTS, speed=SPEEDS, seed=st.integers(0, 10_000))
def test_a_tank_tiled_with_rock_holds_no_boid(
    tiles: list[Shape], boundary: str, dt: float, speed: float, seed: int
) -> None:
    """Boids spawned anywhere in a tank of rock squares end in its holes, and stay there."""
    with scratch_world():
        flock = flock_for(boundary, dt, speed, seed, reckless=seed % 2 == 0)
        add_obstacles(flock, tiles, merge=seed % 3 == 0)  # as tiles, and merged into strips
        flock.spawn("s", np.random.default_rng(seed).uniform((0, 0), (W - 1, H - 1), (60, 2)))
        run_clear(flock, 4)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    thickness=st.one_of(st.just(1.0), st.floats(0.05, 3.0)),
    box=st.tuples(st.floats(20, 150), st.floats(20, 120), st.floats(60, 220), st.floats(40, 160)),
    boundary=BOUNDARIES, dt=DTS, speed=SPEEDS, seed=st.integers(0, 10_000), reckless=st.booleans(),
)  # fmt: skip
def test_a_closed_box_of_thin_walls_keeps_its_boids_in(
    thickness: float,
    box: tuple[float, float, float, float],
    boundary: str,
    dt: float,
    speed: float,
    seed: int,
    reckless: bool,
) -> None:
    """However thin the walls and fast the boids, none leaves the box or ends in a wall."""
    x0, y0, w, h = box
    x1, y1 = min(x0 + w, W - 10), min(y0 + h, H - 10)
    with scratch_world():
        flock = flock_for(boundary, dt, speed, seed, reckless)
        add_obstacles(flock, box_walls(x0, y0, x1, y1, thickness))
        pad = thickness / 2 + 0.5
        inside = np.random.default_rng(seed).uniform((x0 + pad, y0 + pad), (x1 - pad, y1 - pad),
                                                     (40, 2))  # fmt: skip
        flock.spawn("s", inside)
        field = obstacle_field(flock)
        for _ in range(8):
            flock.step()
            assert_clear(flock, field)
            pos = flock.positions
            escaped = (pos[:, 0] < x0) | (pos[:, 0] > x1) | (pos[:, 1] < y0) | (pos[:, 1] > y1)
            assert not escaped.any(), f"{escaped.sum()} boids left the box, e.g. {pos[escaped][:3]}"


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    before=st.lists(shapes(), max_size=3),
    dropped=st.lists(shapes(), min_size=1, max_size=4),
    boundary=BOUNDARIES, dt=DTS, speed=SPEEDS, seed=st.integers(0, 10_000),
)  # fmt: skip
def test_obstacles_dropped_on_boids_leave_none_inside(
    before: list[Shape], dropped: list[Shape], boundary: str, dt: float, speed: float, seed: int
) -> None:
    """Obstacles added mid-run on top of boids: the next step puts every boid outside."""
    with scratch_world():
        flock = flock_for(boundary, dt, speed, seed, reckless=False)
        add_obstacles(flock, before, merge=False)
        flock.scatter("s", 80)
        run_clear(flock, 2)
        add_obstacles(flock, dropped, merge=False)
        assume(has_room(flock))
        rng = np.random.default_rng(seed)
        flock.spawn("s", in_world(np.vstack([inside_and_on(s, rng, 6) for s in dropped]), boundary))
        run_clear(flock, 3)


def test_a_torus_covered_but_for_a_corner_holds_no_boid() -> None:
    """Found by the property above: a circle covers a torus but for a sliver at its corner
    (x > 393.8, y < 8). Fast boids there wrapped into the circle, and the push-out looked
    for room along the left and bottom edges only (on a torus the right and top edges are
    those), so it found none and left them inside."""
    dropped = [Circle(0.0, 0.0, 1.0), Circle(0.0, 62.0, 1.0), Circle(192.0, 164.0, 260.0)]
    with scratch_world():
        flock = flock_for("wrap", MAX_DT, 600.0, 77, reckless=False)
        flock.scatter("s", 80)
        run_clear(flock, 2)
        add_obstacles(flock, dropped, merge=False)
        rng = np.random.default_rng(77)
        flock.spawn("s", in_world(np.vstack([inside_and_on(s, rng, 6) for s in dropped]), "wrap"))
        run_clear(flock, 3)


def test_replaced_obstacle_component_counts_after_refresh() -> None:
    """A shape swapped on an existing entity (then `refresh_obstacles`) holds no boid either."""
    flock = install(FlockConfig(width=W, height=H, seed=4), [Species("s")])
    entity = esper.create_entity(Obstacle(Circle(100, 100, 10)))
    flock.scatter("s", 200)
    run_clear(flock, 2)
    esper.add_component(entity, Obstacle(Circle(200, 150, 230)))  # all but the corners
    refresh_obstacles(flock)
    run_clear(flock, 3)
    assert len(flock) == 200
