"""Benchmark scenery: seeded mixed obstacles, and the full scene of `flock.py --full`.

Use: ``add_benchmark_obstacles(flock, 200, seed=1)`` or ``LeaderScene(flock, seed=1)`` after
`benchmarks/flock.py`'s `build`. Boids that start inside an obstacle are pushed out at the
first step.
"""

import math

import esper
import numpy as np

from shoal.components import (
    Circle,
    Food,
    Leader,
    Obstacle,
    Polygon,
    Position,
    Rect,
    Shape,
    Species,
    Velocity,
)
from shoal.systems import Flock
from shoal.systems.flock.ecs import in_world

# Together the obstacles cover about this share of the world (before overlaps), however many.
COVERAGE = 0.12
# A mean obstacle is about this wide (px) when the world has room for it.
MEAN_SIZE = 90.0

_U = ((0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3))  # a cup, 3 × 3
_L = ((0, 0), (3, 0), (3, 1), (1, 1), (1, 3), (0, 3))


def add_benchmark_obstacles(flock: Flock, count: int, seed: int) -> list[int]:
    """Add `count` seeded obstacles to the flock's world; return their entities.

    In turn: circles, rotated rectangles, U-shaped cups, L shapes and stars (the last three
    concave), at random places and angles, sized so that they cover about `COVERAGE` of
    the world.
    """
    rng = np.random.default_rng(seed)
    width, height = flock.config.width, flock.config.height
    size = min(MEAN_SIZE, math.sqrt(COVERAGE * width * height / max(count, 1)))
    makers = (_circle, _rect, _cup, _ell, _star)
    shapes = [makers[k % len(makers)](rng, width, height, size) for k in range(count)]
    with in_world(flock.world):
        return [int(esper.create_entity(Obstacle(shape))) for shape in shapes]


def _place(rng: np.random.Generator, width: float, height: float) -> tuple[float, float]:
    return float(rng.uniform(0, width)), float(rng.uniform(0, height))


def _circle(rng: np.random.Generator, width: float, height: float, size: float) -> Shape:
    x, y = _place(rng, width, height)
    return Circle(x, y, float(rng.uniform(0.3, 0.7)) * size)


def _rect(rng: np.random.Generator, width: float, height: float, size: float) -> Shape:
    x, y = _place(rng, width, height)
    w, h = rng.uniform(0.6, 1.6) * size, rng.uniform(0.15, 0.5) * size
    return Rect(x, y, float(w), float(h), float(rng.uniform(0, 180)))


def _posed(
    rng: np.random.Generator, width: float, height: float, points: np.ndarray, scale: float
) -> Shape:
    """`points` centred, scaled, turned by a random angle and put at a random place."""
    x, y = _place(rng, width, height)
    angle = rng.uniform(0, 2 * math.pi)
    turn = np.array([[math.cos(angle), math.sin(angle)], [-math.sin(angle), math.cos(angle)]])
    local = (points - points.mean(axis=0)) * scale
    return Polygon(local @ turn + (x, y))


def _cup(rng: np.random.Generator, width: float, height: float, size: float) -> Shape:
    return _posed(rng, width, height, np.array(_U, float), rng.uniform(0.35, 0.6) * size)


def _ell(rng: np.random.Generator, width: float, height: float, size: float) -> Shape:
    return _posed(rng, width, height, np.array(_L, float), rng.uniform(0.3, 0.5) * size)


def _star(rng: np.random.Generator, width: float, height: float, size: float) -> Shape:
    tips = int(rng.integers(5, 8))
    angles = np.arange(2 * tips) * math.pi / tips
    radii = np.where(np.arange(2 * tips) % 2 == 0, 1.0, 0.45)
    points = np.column_stack((radii * np.cos(angles), radii * np.sin(angles)))
    return _posed(rng, width, height, points, rng.uniform(0.35, 0.6) * size)


FOOD_ITEMS = 20
SHARKS = 2
OBSTACLES = 200
SHARK = Species(
    "shark", min_speed=60, max_speed=140, max_force=400, perception_radius=120,
    separation_radius=30, catch_radius=10, catch_cooldown=3.0,
)  # fmt: skip


class LeaderScene:
    """The `--full` benchmark scene: a leader swimming a circle, food, sharks and obstacles.

    Call `move_leader()` before each step: the leader is the host's entity, moved by the host.
    """

    def __init__(self, flock: Flock, seed: int) -> None:
        self.flock = flock
        self.time = 0.0
        width, height = flock.config.width, flock.config.height
        self.centre = (width / 2, height / 2)
        self.radius = 0.3 * min(width, height)
        rng = np.random.default_rng(seed)
        flock.add_species(SHARK)
        flock.relate("shark", "fish", "chase")
        flock.relate("fish", "shark", "flee")
        flock.scatter("shark", SHARKS)
        with in_world(flock.world):
            self.leader = esper.create_entity(Position(*self.centre), Velocity(), Leader(("fish",)))
            for x, y in rng.uniform((0, 0), (width, height), (FOOD_ITEMS, 2)):
                # Plenty of bites, so that the scene stays the same while it is timed.
                esper.create_entity(Position(x, y), Food(bites=10**9, radius=6))
        add_benchmark_obstacles(flock, OBSTACLES, seed)

    def move_leader(self, dt: float) -> None:
        """Swim the leader along its circle at 60 px/s."""
        self.time += dt
        angle = self.time * 60.0 / self.radius
        cx, cy = self.centre
        with in_world(self.flock.world):
            position = esper.component_for_entity(self.leader, Position)
            velocity = esper.component_for_entity(self.leader, Velocity)
        position.xy = (cx + self.radius * math.cos(angle), cy + self.radius * math.sin(angle))
        velocity.xy = (-60.0 * math.sin(angle), 60.0 * math.cos(angle))
