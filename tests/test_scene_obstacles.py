"""Obstacles from an arcade scene: a host's wall SpriteList, or a Tiled layer, in one call."""

import importlib.resources
import math
from importlib.abc import Traversable

import arcade
import esper
import numpy as np
import pytest

from shoal.components import Circle, Obstacle, Polygon, Rect, Species
from shoal.game.level import load_level
from shoal.systems import (
    FlockConfig,
    add_obstacles,
    inside_obstacle,
    install,
    navigator,
    obstacle_field,
    obstacle_shapes,
    remove_obstacles,
)
from shoal.systems.core.ecs import entities_with

TILE = 32


def wall_tiles(x: float, bottom: float, count: int) -> list[arcade.SpriteSolidColor]:
    """A column of `count` square wall sprites standing on `bottom`."""
    return [
        arcade.SpriteSolidColor(TILE, TILE, x, bottom + (k + 0.5) * TILE, arcade.color.GRAY)
        for k in range(count)
    ]


def test_a_column_of_wall_sprites_becomes_one_rectangle() -> None:
    walls: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    walls.extend(wall_tiles(200, 0, 10))
    shapes = obstacle_shapes(walls)
    assert len(shapes) == 1 and isinstance(shapes[0], Rect)
    rect = shapes[0]
    assert (rect.x, rect.y, rect.width, rect.height) == pytest.approx((200, 160, 32, 320))
    assert len(obstacle_shapes(walls, merge=False)) == 10


def test_a_grid_of_tiles_merges_into_rows_then_blocks() -> None:
    tiles = [arcade.SpriteSolidColor(TILE, TILE, (i + 0.5) * TILE, (j + 0.5) * TILE)
             for i in range(6) for j in range(4)]  # fmt: skip
    (rect,) = obstacle_shapes(tiles)
    assert isinstance(rect, Rect)
    assert (rect.width, rect.height) == pytest.approx((6 * TILE, 4 * TILE))


def test_rotated_and_shaped_sprites_keep_their_hit_boxes() -> None:
    turned = arcade.SpriteSolidColor(80, 20, 300, 300)
    turned.angle = 30
    shapes = obstacle_shapes([turned])
    assert isinstance(shapes[0], Polygon)
    expected = np.array(turned.hit_box.get_adjusted_points())
    assert np.allclose(np.array(shapes[0].points), expected)
    # a point inside the turned sprite, not in its unturned box
    c, s = math.cos(math.radians(-30)), math.sin(math.radians(-30))
    inside = (300 + 35 * c, 300 + 35 * s)
    field = obstacle_field(install(FlockConfig(600, 600), [Species("fish")]))
    assert len(field) == 0
    flock = install(FlockConfig(600, 600), [Species("fish")], world="turned")
    add_obstacles(flock, [turned])
    assert inside_obstacle(obstacle_field(flock), [inside])[0]


def test_tiled_objects_read_by_arcade_become_obstacles() -> None:
    """arcade's reading of a level's object layer: its polygons (the three kelp plants)
    are the ones the game's own loader reads (arcade turns ellipses into 8-point polygons of
    its own, which are not compared)."""
    tile_map = arcade.load_tilemap(str(_level_file("reef")))
    objects = tile_map.object_lists["obstacles"]
    flock = install(FlockConfig(1280, 704), [Species("fish")])
    entities = add_obstacles(flock, objects)
    assert len(entities) == len(objects) == 8
    ours = [o.shape for o in load_level("reef").obstacles if isinstance(o.shape, Polygon)]
    plants = [obstacle_shapes([o])[0] for o in objects if o.type == "plant" and len(o.shape) > 8]
    assert len(plants) == 3
    for plant in plants:
        assert isinstance(plant, Polygon)
        assert any(
            len(plant.points) == len(shape.points)
            and np.allclose(np.array(plant.points), np.array(shape.points))
            for shape in ours
        )


def test_bad_items_are_refused_naming_them() -> None:
    with pytest.raises(ValueError, match=r"obstacle_shapes: items\[1\] = 'wall' must be a sprite"):
        obstacle_shapes([Circle(1, 1, 1), "wall"])
    flat = arcade.SpriteSolidColor(10, 10, 5, 5)
    flat.hit_box = arcade.hitbox.HitBox([(0, 0), (1, 1), (2, 2)], position=(5, 5))
    with pytest.raises(ValueError, match=r"obstacle_shapes: items\[0\]: Polygon: points = "):
        obstacle_shapes([flat])
    with pytest.raises(ValueError, match=r"obstacle_shapes: items = 3 must be an iterable"):
        obstacle_shapes(3)  # type: ignore[arg-type]
    flock = install(FlockConfig(600, 600), [Species("fish")])
    with pytest.raises(ValueError, match=r"remove_obstacles: entities = "):
        remove_obstacles(flock, [12345])


def test_walls_added_and_removed_in_one_call_each() -> None:
    flock = install(FlockConfig(600, 600), [Species("fish")])
    walls = wall_tiles(300, 0, 12)
    entities = add_obstacles(flock, walls)
    with flock.in_world():
        assert entities_with(Obstacle) == set(entities)
    flock.scatter("fish", 50)
    flock.step()
    assert not inside_obstacle(obstacle_field(flock), flock.positions).any()
    remove_obstacles(flock, entities)
    with flock.in_world():
        assert not entities_with(Obstacle)
    flock.step()
    assert len(obstacle_field(flock)) == 0 and not navigator(flock).active


def _level_file(name: str) -> Traversable:
    return importlib.resources.files("shoal.levels") / f"{name}.tmj"


@pytest.mark.slow
def test_boids_follow_their_leader_past_a_wall_of_sprites() -> None:
    """A host's wall of tiles between a school and its leader: the school comes round."""
    flock = install(FlockConfig(800, 600, seed=3), [Species("fish")])
    add_obstacles(flock, wall_tiles(400, 80, 14))  # y 80-528
    from shoal.components import Leader, Position, Velocity

    with flock.in_world():
        esper.create_entity(Position(600, 300), Velocity(0, 0), Leader())
    flock.spawn("fish", np.random.default_rng(1).uniform((150, 250), (300, 350), (30, 2)))
    for _ in range(600):
        flock.step(1 / 60)
    assert np.mean(np.hypot(*(flock.positions - (600, 300)).T) < 150) > 0.9
