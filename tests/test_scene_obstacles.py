"""Obstacles from an arcade scene: a host's wall SpriteList, or a Tiled layer, in one call."""

import importlib.resources
import math
from importlib.abc import Traversable

import arcade
import esper
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
from shoal.systems.flock.ecs import entities_with
from shoal.systems.obstacles import field as field_module
from shoal.systems.obstacles.from_scene import _join, _lattice_merged, _tile_boxes

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


# --- tile maps: read in bulk, merged on a grid ------------------------------------------
SQUARE = ":resources:images/tiles/grassCenter.png"  # 128 px, its hit box the whole square


def tile_sprites(
    taken: np.ndarray, tile: float, origin: tuple[float, float], kinds: list[int]
) -> list[arcade.BasicSprite]:
    """A sprite on each taken cell (row, column) of a tile map whose cell (0, 0) has its
    lower left corner at `origin`, of kind `kinds[k % len(kinds)]`: 0 a `BasicSprite` of a
    texture (arcade's plain hit box), 1 a `SpriteSolidColor`, 2 a `Sprite` (a rotatable hit
    box), 3 a `Sprite` mirrored by a negative scale."""
    texture = arcade.load_texture(SQUARE)
    scale = tile / texture.width
    sprites: list[arcade.BasicSprite] = []
    for k, (row, column) in enumerate(zip(*np.nonzero(taken), strict=True)):
        kind = kinds[k % len(kinds)]
        sprite: arcade.BasicSprite
        if kind == 0:
            sprite = arcade.BasicSprite(texture, scale=scale)
        elif kind == 1:
            sprite = arcade.SpriteSolidColor(TILE, TILE)
            sprite.scale = tile / TILE
        else:
            sprite = arcade.Sprite(texture, scale=(-scale if kind == 3 else scale, scale))
        sprite.position = (origin[0] + (column + 0.5) * tile, origin[1] + (row + 0.5) * tile)
        sprites.append(sprite)
    return sprites


def covered(
    rects: list[Rect], tile: float, origin: tuple[float, float], shape: tuple[int, int]
) -> np.ndarray:
    """How many of `rects` cover each cell of the tile map (each must lie on its lines)."""
    count = np.zeros(shape, np.int64)
    for rect in rects:
        assert rect.angle_degrees == 0.0
        sides = np.array(
            [rect.x - rect.width / 2 - origin[0], rect.x + rect.width / 2 - origin[0],
             rect.y - rect.height / 2 - origin[1], rect.y + rect.height / 2 - origin[1]]
        ) / tile  # fmt: skip
        lines = np.round(sides).astype(np.int64)
        assert np.allclose(sides, lines, atol=1e-6)
        count[lines[2] : lines[3], lines[0] : lines[1]] += 1
    return count


TILE_MAPS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.fuzz
@pytest.mark.slow
@TILE_MAPS
@given(
    rows=st.integers(1, 9),
    columns=st.integers(1, 12),
    fill=st.floats(0.1, 1.0),
    seed=st.integers(0, 2**32 - 1),
    tile=st.sampled_from([32.0, 16.5, 0.5, 7.3, 64.0]),
    origin=st.sampled_from([(0.0, 0.0), (-1000.5, 333.25), (123456.7, -98765.4)]),
    kinds=st.lists(st.integers(0, 3), min_size=1, max_size=4),
)
def test_a_tile_map_merges_into_rectangles_that_cover_exactly_its_tiles(
    window: arcade.Window,
    rows: int,
    columns: int,
    fill: float,
    seed: int,
    tile: float,
    origin: tuple[float, float],
    kinds: list[int],
) -> None:
    """Each tile covered by exactly one rectangle and nothing else covered (the union is
    the tiles', no overlap), the very rectangles that the hit boxes give one by one as
    polygons, and that joining the boxes one by one gives."""
    taken = np.random.default_rng(seed).random((rows, columns)) < fill
    sprites = tile_sprites(taken, tile, origin, kinds)
    shapes = obstacle_shapes(sprites)
    assert all(isinstance(shape, Rect) for shape in shapes)
    rects = [shape for shape in shapes if isinstance(shape, Rect)]
    assert np.array_equal(covered(rects, tile, origin, taken.shape), taken.astype(np.int64))
    one_by_one = [Polygon(sprite.hit_box.get_adjusted_points()) for sprite in sprites]
    assert obstacle_shapes(one_by_one) == shapes
    read, boxes = _tile_boxes(list(sprites))
    assert np.array_equal(read, np.arange(len(sprites)))
    joined = _join(_join([tuple(box) for box in boxes.tolist()], along_x=True), along_x=False)
    merged = _lattice_merged(boxes)
    assert merged is not None and np.array_equal(merged, np.array(joined).reshape(-1, 4))


def test_tiles_off_a_lattice_and_odd_sprites_take_the_general_path(window: arcade.Window) -> None:
    """Overlapping tiles, a turned sprite, a shape and a tile of zero scale: read one by
    one, as before (the tile of zero scale is refused, naming its index)."""
    tiles = tile_sprites(np.ones((2, 3), np.bool_), TILE, (0.0, 0.0), [0, 1])
    shifted = tile_sprites(np.ones((1, 1), np.bool_), TILE, (10.0, 5.0), [0])  # overlaps
    turned = arcade.SpriteSolidColor(40, 20, 300, 300)
    turned.angle = 30
    shapes = obstacle_shapes([*tiles, *shifted, turned, Circle(500, 500, 10)])
    assert [type(shape) for shape in shapes] == [Polygon, Circle, Rect, Rect]
    count = covered([s for s in shapes if isinstance(s, Rect)], 1.0, (0.0, 0.0), (80, 100))
    expected = np.zeros((80, 100), np.int64)
    expected[0:64, 0:96] += 1
    expected[5:37, 10:42] += 1
    assert np.array_equal(np.minimum(count, 1), np.minimum(expected, 1))
    flat = tile_sprites(np.ones((1, 1), np.bool_), TILE, (0.0, 0.0), [0])[0]
    flat.scale = 0.0
    with pytest.raises(ValueError, match=r"obstacle_shapes: items\[6\]: Polygon: points = "):
        obstacle_shapes([*tiles, flat])


def test_the_step_after_add_obstacles_compiles_nothing(
    window: arcade.Window, monkeypatch: pytest.MonkeyPatch
) -> None:
    """add_obstacles and remove_obstacles compile the field themselves (a tile map's walls
    take a tenth of a second): the steps after them find it up to date."""
    flock = install(FlockConfig(600, 600), [Species("fish")])
    flock.scatter("fish", 20)
    taken = np.zeros((18, 18), np.bool_)
    taken[::3, 2:-2] = True
    entities = add_obstacles(flock, tile_sprites(taken, TILE, (12.0, 12.0), [0, 1, 2]))
    assert len(obstacle_field(flock)) == len(entities) == 6

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled in a step")

    with monkeypatch.context() as patch:
        patch.setattr(field_module, "compile_field", refused)
        flock.step()
    remove_obstacles(flock, entities[:2])
    with monkeypatch.context() as patch:
        patch.setattr(field_module, "compile_field", refused)
        flock.step()
        assert len(obstacle_field(flock)) == 4
    assert not inside_obstacle(obstacle_field(flock), flock.positions).any()


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
