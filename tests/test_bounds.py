"""Worlds that do not start at (0, 0): a scrolling level, a tile map. The flock behaves
exactly as in the same world at the origin, moved; every boundary mode keeps it inside."""

from dataclasses import replace

import arcade
import esper
import numpy as np
import pytest
import pytiled_parser

import shoal
from shoal import Attractor, Circle, FlockConfig, Food, Obstacle, Position, Species, Velocity

DT = 1 / 60
LEFT, BOTTOM = -700.0, 1200.0
FISH = Species("fish")
"""Soft: the push is continuous at the separation radius, where inverse jumps by a whole unit,
so that the rounding a moved world differs by (1e-10 px) cannot grow into a different
flock (it did, by 0.016 px in a step, once bodies changed the trajectories)."""


def test_bounds_from_edges_a_rectangle_and_tile_maps() -> None:
    config = FlockConfig.from_bounds((-100, 700, 50, 650), seed=3)
    assert (config.width, config.height, config.origin, config.seed) == (800, 600, (-100, 50), 3)
    assert config.bounds == (-100, 700, 50, 650)
    assert FlockConfig.from_bounds(arcade.LRBT(10, 300, 30, 250)).bounds == (10, 300, 30, 250)
    tile_map = arcade.load_tilemap(":resources:tiled_maps/map.json", scaling=0.5)
    assert FlockConfig.from_bounds(tile_map).bounds == (0, 50 * 64, 0, 7 * 64)
    offset = arcade.Vec2(-1000, -700)
    moved = arcade.load_tilemap(":resources:tiled_maps/map.json", scaling=0.5, offset=offset)
    assert FlockConfig.from_bounds(moved).bounds == (-1000, 2200, -700, -252)
    tiles = moved.sprite_lists["Platforms"]  # where its tiles are
    assert min(t.left for t in tiles) == -1000 and max(t.right for t in tiles) == 2200
    assert min(t.bottom for t in tiles) == -700 and max(t.top for t in tiles) == -252
    path = arcade.resources.resolve(":resources:tiled_maps/map.json")
    raw = pytiled_parser.parse_map(path)
    assert FlockConfig.from_bounds(raw).bounds == (0, 50 * 128, 0, 7 * 128)


@pytest.mark.parametrize(
    ("bounds", "settings", "message"),
    [
        ((0, 0, 0, 10), {}, r"right > left and top > bottom"),
        ((0, 10, 5, 1), {}, r"right > left and top > bottom"),
        ((0, 10, 0, float("nan")), {}, r"must be finite numbers"),
        ((0, "10", 0, 10), {}, r"must be finite numbers"),
        ("big", {}, r"bounds = 'big' must be \(left, right, bottom, top\)"),
        ((0, 10, 0, 10), {"width": 5}, r"width comes from the bounds"),
        ((0, 100, 0, 100), {"margin": 60}, r"margin = 60 must be in"),
    ],
)
def test_bad_bounds_are_refused(bounds: object, settings: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FlockConfig.from_bounds(bounds, **settings)


def trail(config: FlockConfig, start: np.ndarray, steps: int = 240) -> np.ndarray:
    flock = shoal.install(config, [FISH])
    flock.create_entity(Obstacle(Circle(config.left + 300, config.bottom + 200, 40)))
    flock.spawn("fish", start + config.origin, np.tile([(90.0, 20.0)], (len(start), 1)))
    for _ in range(steps):
        flock.step(DT)
    positions = flock.positions - config.origin
    shoal.uninstall(flock)
    return positions


@pytest.mark.slow
@pytest.mark.parametrize("boundary", ["contain", "bounce", "wrap"])
def test_a_moved_world_is_the_same_world(boundary: str) -> None:
    start = np.random.default_rng(1).uniform((20, 20), (580, 380), size=(60, 2))
    start[:5] = [(300, 200), (310, 190), (290, 215), (320, 200), (300, 230)]  # in the rock
    at_zero = trail(FlockConfig(600, 400, boundary=boundary, seed=2), start)
    moved = FlockConfig(600, 400, boundary=boundary, seed=2, left=LEFT, bottom=BOTTOM)
    elsewhere = trail(moved, start)
    # Only rounding differs (positions are shifted to the kernels' origin and back).
    assert np.allclose(at_zero, elsewhere, atol=1e-6)
    assert np.all((elsewhere >= 0) & (elsewhere <= (600, 400)))
    assert np.all(np.hypot(*(elsewhere - (300, 200)).T) >= 40)  # pushed out of the rock


@pytest.mark.slow
def test_scatter_food_and_drawing_use_the_world_where_it_is(window: arcade.Window) -> None:
    config = FlockConfig(600, 400, boundary="wrap", left=LEFT, bottom=BOTTOM)
    flock = shoal.install(config, [FISH], render=True)
    flock.scatter("fish", 200)
    inside = (flock.positions >= (LEFT, BOTTOM)) & (flock.positions <= (LEFT + 600, BOTTOM + 400))
    assert inside.all()
    for _ in range(60):
        flock.step(DT)
        drawn = flock.renderer.frame(0.5).positions  # type: ignore[union-attr]
        assert np.all((drawn >= (LEFT, BOTTOM)) & (drawn < (LEFT + 600, BOTTOM + 400)))
    shoal.uninstall(flock)
    walled = shoal.install(FlockConfig(600, 400, left=LEFT, bottom=BOTTOM), [FISH])
    pellet = walled.create_entity(Position(LEFT + 100, BOTTOM + 30), Velocity(0, -60), Food())
    for _ in range(60):
        walled.step(DT)
    with walled.in_world():
        assert esper.component_for_entity(pellet, Position).xy == (LEFT + 100, BOTTOM + 6)


@pytest.mark.slow
@pytest.mark.parametrize("update", ["simultaneous", "sequential"])
@pytest.mark.parametrize("attractor", [False, True])
def test_a_moved_world_is_the_same_world_for_wall_neighbours_and_dead_radii(
    update: str, attractor: bool
) -> None:
    # Walls counted as neighbours (steering), an in-place update (which moves each boid in
    # the steering stage) and an attractor's dead radius (motion) all read absolute places.
    species = replace(FISH, walls="neighbours", separation_combine="mean", separation_radius=40)
    start = np.random.default_rng(3).uniform((20, 20), (580, 380), size=(40, 2))

    def run(config: FlockConfig) -> np.ndarray:
        flock = shoal.install(config, [species])
        if attractor:
            where = Position(config.left + 400, config.bottom + 200)
            flock.create_entity(where, Attractor(radius=300, dead_radius=60))
        flock.spawn("fish", start + config.origin, np.tile([(90.0, 20.0)], (len(start), 1)))
        for _ in range(240):
            flock.step(DT)
        positions = flock.positions - config.origin
        shoal.uninstall(flock)
        return positions

    at_zero = run(FlockConfig(600, 400, seed=2, update=update))
    elsewhere = run(FlockConfig(600, 400, seed=2, left=LEFT, bottom=BOTTOM, update=update))
    if not attractor:
        assert np.allclose(at_zero, elsewhere, atol=1e-6)
    else:
        # A boid put back on the dead radius sits on the seeking stage's edge (pulled just
        # outside, not just inside): rounding of the shift decides, and the runs part (by
        # 0.04 px the next step); both keep every boid out of the dead radius.
        for positions in (at_zero, elsewhere):
            assert np.all(np.hypot(*(positions - (400, 200)).T) >= 60 - 1e-9)
