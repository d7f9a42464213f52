"""The limits of a level file.

A level file is untrusted input. These bounds keep a load quick and small whatever the file
holds, and keep the level playable at about the cost of the packaged ones (a few hundred
objects, fewer than 200 fish). The figures quoted were measured with
``benchmarks/level_cost.py`` (one core; the game's step has 16.7 ms at 60 steps a second).
"""

# --- reading: bounded time and memory ------------------------------------------------------
MAX_FILE_BYTES = 1024 * 1024
"""Largest level file read, bytes: a real level is a few kB. JSON grows about 25-fold in
memory at worst (a file of ``{},{},…``), so a load never holds more than ~30 MB."""
MAX_TEMPLATE_BYTES = 64 * 1024
"""Largest object template file (.tj) read, bytes: a template is one object."""
MAX_TEMPLATES = 64
"""Most different template files one map may name; each is read once, however many objects
use it (a small map that used one big template 5,000 times read it 5,000 times)."""
MAX_LAYERS = 256
"""Most layers of a map, group layers and their sublayers included."""
MAX_GROUP_DEPTH = 16
"""Deepest nesting of group layers (each level costs stack in every reader)."""
MAX_OBJECTS = 5000
"""Most objects in one map."""
MAX_POLYGON_POINTS = 256
"""Most vertices of one polygon (validating a polygon costs vertices²)."""
MAX_OBSTACLE_VERTICES = 2048
"""Most vertices of all obstacles together (a rectangle or circle counts 4), and of all the
polygons of a map, templates expanded: keeps the polygon checks and the point-in-obstacle
checks of a load well under a second."""

# --- the tank: bounded cost of a step --------------------------------------------------------
MAX_WORLD_SIZE = 16384
"""Largest tank side, px: the flock's grids grow with the tank."""
MAX_SPAWN_COUNT = 500
"""Most fish one spawn point may make."""
MAX_TOTAL_FISH = 500
"""Most boids a level may start with, fish and sharks together. A school packs tighter as
it follows the leader, so a step costs more the longer it plays: on one core, 180 fish (the
largest packaged level) settle near 0.8 ms a step, 500 reach 3.5 ms after 30 s, 1,000 went
from 3.4 to 49 ms and 1,500 from 5 to 112 ms (``--fish`` still asks for more on purpose)."""
MAX_FOOD = 50
"""Most food points of a level. The game gathers food entity by entity every step (~15 µs
each) and every fish weighs every pellet: 5,000 cost 80-100 ms a step; with 500 boids, 50
add ~1 ms and 100 ~2.5 ms. The packaged levels have 4 to 7 (and the player drops more)."""
MAX_RADIUS = MAX_WORLD_SIZE
"""Largest radius of a spawn or food point, px (squared in the flock: keep it finite)."""
MIN_OBSTACLE_SIZE = 1.0
"""Thinnest rectangle or ellipse, px: a thinner one rounds to a line with no normal."""
CROWD_CELL = 50.0
"""Side of the squares in which the start crowd is counted, px (a fish's default
perception radius)."""
MAX_CROWD = 100
"""Most fish and sharks that may start in one `CROWD_CELL` square: the flock's neighbour
lists grow with the square of a crowd (20,000 fish on one corner took gigabytes and
seconds a step)."""
MAX_CURRENT = 1000.0
"""Strongest water current, px/s², either way on each axis: six times what a fish can
swim against, and small enough that a step's speeds stay finite."""

# --- numbers and words the game shows --------------------------------------------------------
MAX_BITES = 1000
"""Most bites one food point lasts."""
MAX_FOOD_TO_EAT = 100_000
"""Most bites a goal may ask for (the HUD shows the number)."""
MAX_FOOD_DROPS = 100_000
"""Most pellets a level may let the player drop (the HUD shows the number left)."""
MAX_TIME_LIMIT = 24 * 3600.0
"""Longest time limit, s (the HUD shows the seconds left)."""
MAX_ORDER = 1_000_000
"""Largest play order, either way."""
MAX_TEXT_CHARS = 60
"""Longest title or species name: the title is shown on the HUD and printed on the
terminal; either must be printable (no control characters, no escape sequences)."""
