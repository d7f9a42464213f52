"""Levels of the fish tank: Tiled maps (.tmj) read into plain, validated dataclasses.

A level loads and validates without a window (nothing here imports arcade)::

    level = load_level("reef")                  # a packaged level, by name
    level = load_level("my_levels/trench.tmj")  # or any Tiled JSON map
    for name in level_names(): ...              # the packaged levels, in play order

Any problem raises `LevelError`, whose one-line message names the file and, where they
apply, the layer, object and field.

The map (Tiled 1.8+ JSON, orthogonal, finite; tile and image layers and tilesets are
ignored, never decoded):

- Map size in pixels is the tank; the map's background colour is the water.
- Map properties (all optional): ``title`` (string, default: the file name), ``order``
  (int, play order), ``boundary`` (``contain``, ``bounce`` or ``wrap``; default contain),
  ``current_x``, ``current_y`` (float, px/s², at most 1000 either way), ``fish_home``
  (int >= 0, default 0: fish to bring home; needs a ``home`` point), ``food_to_eat`` (int
  >= 0; default 0 with a home goal, else 10), ``min_fish`` (int >= 0, default 1),
  ``time_limit`` (float seconds, 0 = none), ``food_drops`` (int >= 0: pellets the player
  may drop; default: as many as the tank holds). A goal asks for fish home, food eaten or
  both.
- Object layer ``obstacles`` (optional): rectangles, ellipses and polygons, rotated or not,
  of class (type) ``rock`` or ``plant`` (none: rock).
- Object layer ``spawns`` (required): point objects of class ``spawn`` (properties
  ``count`` int, required; ``species`` string, default fish; ``radius`` float, default 60),
  at least one; ``shark``; ``food`` (``bites`` int, default 3; ``radius`` float, default 6);
  at most one ``leader`` (default: the tank centre); at most one ``home`` (``radius``
  float, default 80: a fish that swims within it is home).
- Objects may be placed from JSON object templates (.tj); what an object sets itself wins.

Unknown layer names, classes and property names are errors, so that a typo never silently
drops an obstacle or a setting. Points may not lie outside the tank or inside an obstacle.

A level file is untrusted input: whatever it holds, `load_level` returns a level the tank
can play at about the cost of the packaged ones, or raises `LevelError`, quickly and without
a big allocation. The limits are in `shoal.game.level.limits`.

The loader in parts: `reading` (files to strict JSON), `templates`, `schema` and `tree`
(checking the JSON and keeping what shoal uses), `tiled` (pytiled_parser reads the checked
object layers: arcade's own reader gets ellipses, polygon scaling and rectangle rotation
wrong), `build`, `obstacles`, `points`, `properties` (the level in world coordinates),
`messages` (one short, printable line), `model` (the dataclasses), `load` (entry points).
"""

from shoal.game.level.limits import (
    CROWD_CELL,
    MAX_BITES,
    MAX_CROWD,
    MAX_CURRENT,
    MAX_FILE_BYTES,
    MAX_FOOD,
    MAX_FOOD_DROPS,
    MAX_FOOD_TO_EAT,
    MAX_GROUP_DEPTH,
    MAX_LAYERS,
    MAX_OBJECTS,
    MAX_OBSTACLE_VERTICES,
    MAX_ORDER,
    MAX_POLYGON_POINTS,
    MAX_RADIUS,
    MAX_SPAWN_COUNT,
    MAX_TEMPLATE_BYTES,
    MAX_TEMPLATES,
    MAX_TEXT_CHARS,
    MAX_TIME_LIMIT,
    MAX_TOTAL_FISH,
    MAX_WORLD_SIZE,
    MIN_OBSTACLE_SIZE,
)
from shoal.game.level.load import level_names, load_level
from shoal.game.level.messages import MAX_MESSAGE_CHARS, LevelError
from shoal.game.level.model import (
    DEFAULT_BACKGROUND,
    ELLIPSE_VERTICES,
    OBSTACLE_KINDS,
    OBSTACLES_LAYER,
    POINT_CLASSES,
    SPAWNS_LAYER,
    FoodDrop,
    Goal,
    Home,
    Level,
    LevelObstacle,
    SpawnPoint,
)

__all__ = [
    "CROWD_CELL",
    "DEFAULT_BACKGROUND",
    "ELLIPSE_VERTICES",
    "MAX_BITES",
    "MAX_CROWD",
    "MAX_CURRENT",
    "MAX_FILE_BYTES",
    "MAX_FOOD",
    "MAX_FOOD_DROPS",
    "MAX_FOOD_TO_EAT",
    "MAX_GROUP_DEPTH",
    "MAX_LAYERS",
    "MAX_MESSAGE_CHARS",
    "MAX_OBJECTS",
    "MAX_OBSTACLE_VERTICES",
    "MAX_ORDER",
    "MAX_POLYGON_POINTS",
    "MAX_RADIUS",
    "MAX_SPAWN_COUNT",
    "MAX_TEMPLATES",
    "MAX_TEMPLATE_BYTES",
    "MAX_TEXT_CHARS",
    "MAX_TIME_LIMIT",
    "MAX_TOTAL_FISH",
    "MAX_WORLD_SIZE",
    "MIN_OBSTACLE_SIZE",
    "OBSTACLES_LAYER",
    "OBSTACLE_KINDS",
    "POINT_CLASSES",
    "SPAWNS_LAYER",
    "FoodDrop",
    "Goal",
    "Home",
    "Level",
    "LevelError",
    "LevelObstacle",
    "SpawnPoint",
    "level_names",
    "load_level",
]
