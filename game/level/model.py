"""What a level is: plain, frozen dataclasses in world coordinates, and the words of the
format (layer names, object classes)."""

from dataclasses import dataclass
from pathlib import Path

from shoal.components.obstacle import Circle, Polygon, Rect

OBSTACLES_LAYER = "obstacles"
"""Name of the object layer of obstacles (optional)."""
SPAWNS_LAYER = "spawns"
"""Name of the object layer of points (required)."""
OBSTACLE_KINDS = ("rock", "plant")
"""Classes of obstacle objects; an obstacle without a class is a rock."""
POINT_CLASSES = ("spawn", "shark", "food", "leader", "home")
"""Classes of the point objects in the spawns layer."""
ELLIPSE_VERTICES = 32
"""Vertices of the polygon that stands in for a non-circular ellipse."""
DEFAULT_BACKGROUND = (16, 44, 78)
"""Water colour of a map without a background colour: a dark blue."""


@dataclass(frozen=True, slots=True)
class LevelObstacle:
    """An obstacle of a level.

    Attributes:
        shape: the shape, world coordinates.
        kind: "rock" or "plant" (for drawing).
    """

    shape: Circle | Rect | Polygon
    kind: str


@dataclass(frozen=True, slots=True)
class SpawnPoint:
    """Where a school starts.

    Attributes:
        x: centre x, px.
        y: centre y, px.
        species: name of the species (not checked here; printable, short).
        count: number of boids (1 .. `MAX_SPAWN_COUNT`).
        radius: they start scattered within this radius, px.
    """

    x: float
    y: float
    species: str
    count: int
    radius: float


@dataclass(frozen=True, slots=True)
class FoodDrop:
    """Food placed at the start.

    Attributes:
        x: centre x, px.
        y: centre y, px.
        bites: bites it lasts (1 .. `MAX_BITES`).
        radius: its size, px.
    """

    x: float
    y: float
    bites: int
    radius: float


@dataclass(frozen=True, slots=True)
class Home:
    """Where the player brings the school: a fish that swims into this disc is home (safe).

    Attributes:
        x: centre x, px.
        y: centre y, px.
        radius: px.
    """

    x: float
    y: float
    radius: float


@dataclass(frozen=True, slots=True)
class Goal:
    """What wins and loses a level.

    Win: before `time_limit` seconds, `fish_home` fish have reached the level's home and the
    school has eaten `food_to_eat` bites (each part counts only when above 0). Lose: fewer
    than `min_fish` fish left (home or swimming), too few left to bring `fish_home` home,
    or the time runs out.

    Attributes:
        food_to_eat: bites to eat (0 .. `MAX_FOOD_TO_EAT`; 0: no food goal).
        min_fish: fish that must stay alive (>= 0).
        time_limit: seconds (0: no limit; at most `MAX_TIME_LIMIT`).
        fish_home: fish to bring home (0: no home goal).
    """

    food_to_eat: int
    min_fish: int
    time_limit: float
    fish_home: int = 0


@dataclass(frozen=True, slots=True)
class Level:
    """A level, in world coordinates (y up, origin bottom-left, px).

    Attributes:
        name: file name without its suffix ("reef").
        title: shown to the player ("Coral Reef"): printable, short.
        path: the file it was read from.
        order: play order of the packaged levels.
        width: tank width (the map's width in pixels).
        height: tank height.
        background: water colour, RGB.
        boundary: "contain", "bounce" or "wrap".
        current: steady acceleration of the water, px/s².
        obstacles: rocks and plants.
        spawns: where the schools start.
        sharks: shark start positions.
        food: food placed at the start.
        leader: the player's leader fish start.
        goal: what wins and loses.
        home: where the school is brought (None: the level has no home).
        food_drops: pellets the player may drop (None: as many as the tank holds).
    """

    name: str
    title: str
    path: Path
    order: int
    width: float
    height: float
    background: tuple[int, int, int]
    boundary: str
    current: tuple[float, float]
    obstacles: tuple[LevelObstacle, ...]
    spawns: tuple[SpawnPoint, ...]
    sharks: tuple[tuple[float, float], ...]
    food: tuple[FoodDrop, ...]
    leader: tuple[float, float]
    goal: Goal
    home: Home | None = None
    food_drops: int | None = None
