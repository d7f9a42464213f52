"""Drawing the tank's scenery: the home, rocks and plants (batched shape lists), food and the
leader."""

import math

import arcade
import numpy as np
from arcade.earclip import earclip
from arcade.shape_list import ShapeElementList, create_ellipse_filled, create_polygon

from shoal.components import Circle, Polygon, Rect
from shoal.game.level import Home, Level
from shoal.systems.render.looks import fish_texture

ROCK = arcade.types.Color(96, 88, 80)
ROCK_EDGE = arcade.types.Color(60, 54, 50)
PLANT = arcade.types.Color(46, 130, 70)
FOOD = arcade.types.Color(235, 200, 120)
HOME = arcade.types.Color(90, 230, 200, 80)
HOME_EDGE = arcade.types.Color(255, 215, 120, 230)
LEADER_TINT = arcade.types.Color(255, 215, 60)
LEADER_SCALE = 1.4


def outline(shape: Circle | Rect | Polygon) -> list[tuple[float, float]]:
    """The shape's outline as world points (circles as 32-gons)."""
    if isinstance(shape, Circle):
        angles = np.linspace(0, 2 * math.pi, 32, endpoint=False)
        return [(shape.x + shape.radius * math.cos(a), shape.y + shape.radius * math.sin(a))
                for a in angles]  # fmt: skip
    if isinstance(shape, Rect):
        c, s = math.cos(math.radians(shape.angle_degrees)), math.sin(
            math.radians(shape.angle_degrees))  # fmt: skip
        hw, hh = shape.width / 2, shape.height / 2
        corners = ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))
        return [(shape.x + x * c - y * s, shape.y + x * s + y * c) for x, y in corners]
    return [(float(x), float(y)) for x, y in shape.points]


def scenery(level: Level) -> ShapeElementList[arcade.shape_list.Shape]:
    """One batched shape list of every rock and plant of the level (built once a level)."""
    shapes: ShapeElementList[arcade.shape_list.Shape] = ShapeElementList()
    for obstacle in level.obstacles:
        colour = PLANT if obstacle.kind == "plant" else ROCK
        shape = obstacle.shape
        if isinstance(shape, Circle):
            shapes.append(create_ellipse_filled(shape.x, shape.y, 2 * shape.radius,
                                                2 * shape.radius, colour))  # fmt: skip
        else:
            # create_polygon fills convex shapes only; plants and caves are concave.
            for triangle in earclip(outline(shape)):
                shapes.append(create_polygon(triangle, colour))
    return shapes


def draw_home(home: Home | None) -> None:
    """The level's home: a warm disc with a bright rim (two draw calls)."""
    if home is not None:
        arcade.draw_circle_filled(home.x, home.y, home.radius, HOME)
        arcade.draw_circle_outline(home.x, home.y, home.radius, HOME_EDGE, 4)


def draw_food(items: list[tuple[float, float, float]]) -> None:
    """Pellets: a few small discs (a handful of draw calls at most)."""
    for x, y, radius in items:
        arcade.draw_circle_filled(x, y, radius, FOOD)


def leader_sprite() -> arcade.Sprite:
    """The player's fish: bigger and golden, facing +x like every shoal texture."""
    sprite = arcade.Sprite(fish_texture(), scale=LEADER_SCALE)
    sprite.color = LEADER_TINT
    return sprite
