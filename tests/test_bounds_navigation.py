"""Navigation in worlds that do not start at (0, 0): the flow fields cover the world where it
is, so a scene moved by SHIFT (with its world) steps as at the origin, moved, and every
navigator query answers the same, moved.

The scenes are compared position by position after CHECK seconds, while the boids go round
the wall: a moved world differs from the world at the origin only by rounding (positions
about 1000 px from 0 carry 1e-13 px less precision), which a school, like any chaotic
system, amplifies: measured (leader scene) 1e-10 to 1e-9 px after 4 s, up to 4e-6 px after
10 s; with navigation off, where boids press against the wall, a rounding flips which way
one is pushed and the two worlds part by 0.2 px after 5 s, 65 px after 8 s. So the end of
a scene is compared by its outcome.
"""

from collections.abc import Callable

import arcade
import esper
import numpy as np
import pytest

import shoal
from shoal import (
    BOID_EATEN,
    FOOD_BITTEN,
    Attractor,
    Flock,
    FlockConfig,
    Food,
    Leader,
    Obstacle,
    Polygon,
    Position,
    Predator,
    Rect,
    Species,
    Velocity,
    add_obstacles,
)
from shoal.systems import navigator, obstacle_shapes, remove_obstacles

DT = 1 / 60
CHECK = 4.0
"""Seconds after which positions are compared."""
SHIFT = (-1000.0, -700.0)
AT_ZERO = (0.0, 0.0)
WALL = (400.0, 300.0, 20.0, 400.0)  # x 390-410, y 100-500: between the fish and their goal

Scene = Callable[[tuple[float, float], str], tuple[np.ndarray, float]]
"""(origin, boundary) -> positions after CHECK seconds, the scene's outcome."""


def moved(points: object, origin: tuple[float, float]) -> np.ndarray:
    return np.asarray(points, float) + origin


def point(xy: object, origin: tuple[float, float]) -> tuple[float, float]:
    x, y = moved(xy, origin)
    return float(x), float(y)


def world(origin: tuple[float, float], species: list[Species], boundary: str = "contain",
          size: tuple[float, float] = (800.0, 600.0)) -> Flock:  # fmt: skip
    config = FlockConfig(*size, boundary=boundary, seed=5, left=origin[0], bottom=origin[1])
    return shoal.install(config, species)


def wall(flock: Flock, origin: tuple[float, float], x: float, y: float, w: float, h: float
         ) -> None:  # fmt: skip
    flock.create_entity(Obstacle(Rect(x + origin[0], y + origin[1], w, h)))


def play(
    flock: Flock,
    seconds: float,
    origin: tuple[float, float],
    each_step: Callable[[], None] = lambda: None,
) -> tuple[np.ndarray, np.ndarray]:
    """Step the flock; its positions measured from its world's corner after CHECK seconds
    and at the end."""
    early = flock.positions - origin
    for step in range(round(seconds / DT)):
        each_step()
        flock.step(DT)
        if step + 1 == round(CHECK / DT):
            early = flock.positions - origin
    return early, flock.positions - origin


# --- scenes: a goal behind a wall ---------------------------------------------------------
def leader_behind_a_wall(origin: tuple[float, float], boundary: str) -> tuple[np.ndarray, float]:
    """Share of 40 followers within 150 px of their leader after 10 s."""
    flock = world(origin, [Species("fish")], boundary)
    wall(flock, origin, *WALL)
    flock.create_entity(Position(*moved((550, 300), origin)), Velocity(0, 0), Leader())
    flock.spawn("fish", moved(np.random.default_rng(1).uniform((200, 250), (300, 350), (40, 2)),
                              origin))  # fmt: skip
    early, positions = play(flock, 10.0, origin)
    shoal.uninstall(flock)
    return early, float((np.hypot(*(positions - (550, 300)).T) < 150).mean())


def food_behind_a_wall(origin: tuple[float, float], boundary: str) -> tuple[np.ndarray, float]:
    """How many of 3 fish bit the food behind the wall within 12 s."""
    flock = world(origin, [Species("fish", food_range=400)], boundary)
    wall(flock, origin, *WALL)
    flock.create_entity(Position(*moved((480, 300), origin)), Food(bites=1000, radius=6))
    bitten: set[int] = set()

    def on_bite(food: int, boid: int, left: int) -> None:
        bitten.add(boid)

    flock.set_handler(FOOD_BITTEN, on_bite)
    flock.spawn("fish", moved([(300, 300), (310, 280), (290, 320)], origin), [(0, 30)] * 3)
    early, _ = play(flock, 12.0, origin)
    shoal.uninstall(flock)
    return early, float(len(bitten))


def predator_at_a_wall(origin: tuple[float, float], boundary: str) -> tuple[np.ndarray, float]:
    """Fish between a host's Predator walking in and a long wall: their mean distance from
    it after 4 s (they flee along the wall and round its end)."""
    # No bodies: they press the fish onto the wall's surface, where a boid a rounding error
    # (1e-13 px) inside is pushed out and loses its inward speed and one outside is not: a
    # moved world then drifts 0.04 px from the origin's in a step, 18 px in 4 s.
    fish = Species("fish", fear_radius=200, perception_radius=200, fov_degrees=360,
                   personal_space=0)  # fmt: skip
    flock = world(origin, [fish], boundary, size=(900.0, 600.0))
    wall(flock, origin, 500, 250, 20, 420)  # y 40-460
    hunter = flock.create_entity(Position(*moved((300, 250), origin)), Velocity(30, 0), Predator())
    flock.spawn("fish", moved(np.random.default_rng(4).uniform((420, 200), (470, 300), (20, 2)),
                              origin))  # fmt: skip

    def walk() -> None:  # the host walks its predator towards the wall
        with flock.in_world():
            where = esper.component_for_entity(hunter, Position)
            where.xy = (min(where.x + 0.5, 470.0 + origin[0]), where.y)

    early, positions = play(flock, 4.0, origin, walk)
    with flock.in_world():
        at = np.asarray(esper.component_for_entity(hunter, Position).xy) - origin
    shoal.uninstall(flock)
    return early, float(np.hypot(*(positions - at).T).mean())


def prey_behind_a_wall(origin: tuple[float, float], boundary: str) -> tuple[np.ndarray, float]:
    """Whether a shark that chases a bait behind a wall caught it within 15 s."""
    species = [Species("bait", min_speed=0, max_speed=1, perception_radius=300),
               Species("shark", perception_radius=300, min_speed=20, max_speed=120)]  # fmt: skip
    flock = world(origin, species, boundary)
    flock.relate("shark", "bait", "chase")
    wall(flock, origin, 400, 300, 20, 300)
    flock.spawn("bait", moved([(500, 300)], origin), [(0.0, 0.0)])
    flock.spawn("shark", moved([(300, 300)], origin), [(50.0, 0.0)])
    caught: list[int] = []

    def on_catch(boid: int, hunter: int, x: float, y: float) -> None:
        caught.append(boid)

    flock.set_handler(BOID_EATEN, on_catch)
    early, _ = play(flock, 15.0, origin)
    shoal.uninstall(flock)
    return early, float(len(caught))


def attractor_behind_a_wall(origin: tuple[float, float], boundary: str) -> tuple[np.ndarray, float]:
    """How far a fish drawn by an Attractor behind the wall ends from it after 12 s."""
    flock = world(origin, [Species("fish", leader_weight=0.0)], boundary)
    wall(flock, origin, *WALL)
    flock.create_entity(Position(*moved((500, 300), origin)), Attractor(radius=400, dead_radius=30))
    flock.spawn("fish", moved([(300, 300)], origin), [(0.0, 20.0)])
    early, positions = play(flock, 12.0, origin)
    shoal.uninstall(flock)
    return early, float(np.hypot(*(positions[0] - (500, 300))))


# What each scene reaches at the origin (its goal is found round the wall: see
# tests/test_navigation.py for the same scenes without navigation, which fall short).
SCENES: dict[str, tuple[Scene, Callable[[float], bool]]] = {
    "leader": (leader_behind_a_wall, lambda near: near > 0.9),
    "food": (food_behind_a_wall, lambda bites: bites == 3),
    "predator": (predator_at_a_wall, lambda distance: distance > 150),
    "prey": (prey_behind_a_wall, lambda caught: caught == 1),
    "attractor": (attractor_behind_a_wall, lambda distance: distance < 80),
}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "boundary"),
    [
        ("leader", "contain"),
        ("leader", "wrap"),
        ("food", "bounce"),
        ("predator", "contain"),
        ("prey", "contain"),
        ("attractor", "wrap"),
    ],
)
def test_a_moved_world_navigates_as_at_the_origin(name: str, boundary: str) -> None:
    scene, reached = SCENES[name]
    at_zero, outcome = scene(AT_ZERO, boundary)
    elsewhere, outcome_moved = scene(SHIFT, boundary)
    assert reached(outcome), (name, outcome)  # the scene needs the way round the wall
    assert reached(outcome_moved), (name, outcome_moved)
    assert np.abs(at_zero - elsewhere).max() < 1e-6  # only rounding differs


# --- the navigator's queries ---------------------------------------------------------------
def walled(origin: tuple[float, float]) -> Flock:
    flock = world(origin, [Species("fish")])
    wall(flock, origin, *WALL)
    return flock


def test_the_navigator_answers_in_a_moved_world_as_at_the_origin() -> None:
    """way_to, waypoint, the fields (seek and flee) and the raster: the same, moved."""
    points = np.array([(250.0, 380.0), (250.0, 220.0), (650.0, 300.0), (20.0, 590.0)])
    target, threat = (550.0, 300.0), (330.0, 460.0)
    answers = []
    for origin in (AT_ZERO, SHIFT):
        flock = walled(origin)
        nav = navigator(flock)
        goal, start, danger = (point(xy, origin) for xy in (target, points[0], threat))
        way = nav.way_to(goal, moved(points, origin), radius=4.0)
        waypoint = nav.waypoint(goal, start, 60.0)
        seek = nav.seek_slot(*goal)
        flee = nav.flee_slot(*danger, 300.0)
        sampled = nav.sample(np.array([seek, seek, flee, flee]), moved(points, origin))
        slots = nav.seek_slots(moved([target], origin), np.array([np.inf]))
        grid = nav.grid
        answers.append({
            "around": way.around, "directions": way.directions, "distances": way.distances,
            "waypoint": np.array(waypoint) - (*origin, 0.0),
            "seek field": nav.pool[seek].copy(), "flee field": nav.pool[flee].copy(),
            "sampled": np.column_stack(sampled), "same slot": slots[0] == seek,
            "blocked": grid.blocked.copy(), "origin": np.array(grid.origin) - origin,
            "cell": grid.cell_of(*point(points[3], origin)),
            "cells": grid.cells_of(moved(points, origin)),
        })  # fmt: skip
        shoal.uninstall(flock)
    at_zero, elsewhere = answers
    assert at_zero["around"].tolist() == [True, True, False, True]  # the wall is in the way
    assert at_zero["blocked"].any() and at_zero["waypoint"][1] > 300  # round the top end
    for key, value in at_zero.items():
        assert np.allclose(value, elsewhere[key], rtol=1e-6, atol=1e-6), key


# --- a host's walls ------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_hosts_wall_sprites_in_a_moved_world_are_navigated_round() -> None:
    """add_obstacles from a SpriteList of wall tiles below (0, 0), as in arcade's scrolling
    example: the followers come round the wall as they do with the same walls at the origin."""

    def followers(origin: tuple[float, float]) -> tuple[np.ndarray, float]:
        flock = world(origin, [Species("fish")])
        tiles: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        for y in range(116, 500, 32):  # a wall of 12 tiles, x 384-416, y 100-484
            tiles.append(arcade.SpriteSolidColor(32, 32, 400 + origin[0], y + origin[1]))
        walls = add_obstacles(flock, tiles)
        assert len(walls) == 1  # merged into one rectangle
        flock.create_entity(Position(*moved((550, 300), origin)), Velocity(0, 0), Leader())
        start = np.random.default_rng(2).uniform((200, 250), (300, 350), (30, 2))
        flock.spawn("fish", moved(start, origin))
        early, positions = play(flock, 10.0, origin)
        remove_obstacles(flock, walls)  # the host's: uninstall leaves them
        shoal.uninstall(flock)
        return early, float((np.hypot(*(positions - (550, 300)).T) < 150).mean())

    at_zero, near = followers(AT_ZERO)
    elsewhere, near_moved = followers(SHIFT)
    assert near > 0.9 and near_moved > 0.9
    assert np.abs(at_zero - elsewhere).max() < 1e-6


def outline(shape: object) -> np.ndarray:
    """A tile's wall as points (tiles give rectangles, or polygons where their hit box is
    not a box)."""
    assert isinstance(shape, Rect | Polygon)
    return np.array(shape.corners() if isinstance(shape, Rect) else shape.points)


def test_a_tiled_layer_loaded_with_an_offset_gives_its_walls_where_they_are() -> None:
    """A tile map loaded with an offset (its level moved below (0, 0)): the layer's walls are
    those of the map at the origin, moved, and they lie in the world from_bounds gives."""

    def walls(at: tuple[float, float]) -> list[np.ndarray]:
        tile_map = arcade.load_tilemap(
            ":resources:tiled_maps/map.json", scaling=0.5, offset=arcade.Vec2(*at)
        )
        outlines = [outline(shape) for shape in obstacle_shapes(tile_map.sprite_lists["Platforms"])]
        left, right, bottom, top = FlockConfig.from_bounds(tile_map).bounds
        for points in outlines:
            assert np.all((points >= (left, bottom)) & (points <= (right, top)))
        return sorted((points - at for points in outlines), key=lambda o: tuple(o.min(axis=0)))

    at_zero, elsewhere = walls(AT_ZERO), walls(SHIFT)
    assert len(at_zero) == len(elsewhere) > 5
    for here, there in zip(at_zero, elsewhere, strict=True):
        assert np.allclose(here, there)
