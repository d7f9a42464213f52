"""Big-map scenes, as a user of arcade's own examples meets them.

- A cave: arcade's `procedural_caves_cellular.py` map (450 × 400 tiles of 32 px, a
  14,400 × 12,800 px world, about 75,000 wall sprites), made by the same cellular automaton
  (the same rules, vectorised and seeded), its walls a real `arcade.SpriteList` of
  `BasicSprite`s handed to `add_obstacles`. A player walks a route of `ROUTE_SECONDS` through
  the largest cave at arcade's speed (5 px a frame), followers tied to it as `Leader`.
- Columns: arcade's `line_of_sight.py` walls (ten columns of tiles, 200 px apart, a fifth of
  the tiles missing), a swarm hunting the player tied as `Prey`; the player walks behind
  the columns and waits there.

Used by `benchmarks/big_map.py` (which prints the figures) and the tests.
"""

from collections import deque
from dataclasses import dataclass
from typing import Any

import arcade
import numpy as np
import numpy.typing as npt

from shoal.components import Leader, Prey, Species
from shoal.systems import Flock, FlockConfig, add_obstacles, install

Tiles = npt.NDArray[np.int8]
Points = npt.NDArray[np.float64]

# arcade's procedural_caves_cellular.py
TILE = 32.0
GRID_WIDTH, GRID_HEIGHT = 450, 400
CHANCE_TO_START_ALIVE = 0.4
DEATH_LIMIT, BIRTH_LIMIT = 3, 4
NUMBER_OF_STEPS = 4
PLAYER_SPEED = 300.0
"""px/s: arcade's MOVEMENT_SPEED of 5 px a frame at 60 frames a second."""
ROUTE_SECONDS = 35.0
DT = 1.0 / 60.0
FOLLOWER = Species(
    "fly", max_speed=500, min_speed=0, max_force=2000, max_turn_rate=720, leader_weight=8,
    separation_weight=3,
)  # fmt: skip
"""The follower docs/embedding.md gives for a fast player."""
HUNTER = Species(
    "fly", max_speed=500, min_speed=0, max_force=2000, max_turn_rate=720, chase_weight=8,
    separation_weight=3, catch_cooldown=0,
)  # fmt: skip
"""A hunter: the same fly, chasing its prey instead of following a leader, and stinging
again at once (a resting hunter flies on for `catch_cooldown` s: with the default 1.5 s,
a third of the swarm is always resting several hundred px away, walls or not)."""


def cave_grid(seed: int, width: int = GRID_WIDTH, height: int = GRID_HEIGHT) -> Tiles:
    """(height, width) of 1 (wall) and 0 (open): arcade's cellular automaton, seeded."""
    rng = np.random.default_rng(seed)
    grid = (rng.random((height, width)) <= CHANCE_TO_START_ALIVE).astype(np.int8)
    for _ in range(NUMBER_OF_STEPS):
        padded = np.pad(grid, 1, constant_values=1)  # edges count as alive
        alive = sum(
            padded[1 + dy : 1 + dy + height, 1 + dx : 1 + dx + width]
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
            if dx or dy
        )
        grid = np.where(grid == 1, alive >= DEATH_LIMIT, alive > BIRTH_LIMIT).astype(np.int8)
    return grid


def wall_sprites(grid: Tiles, tile: float = TILE) -> "arcade.SpriteList[arcade.BasicSprite]":
    """One `BasicSprite` per wall tile, as arcade's example makes them."""
    texture = arcade.load_texture(":resources:images/tiles/grassCenter.png")
    walls: arcade.SpriteList[arcade.BasicSprite] = arcade.SpriteList(use_spatial_hash=True)
    scale = tile / texture.width
    for row, column in zip(*np.nonzero(grid), strict=True):
        wall = arcade.BasicSprite(texture, scale=scale)
        wall.center_x = column * tile + tile / 2
        wall.center_y = row * tile + tile / 2
        walls.append(wall)
    return walls


def largest_cave(grid: Tiles) -> npt.NDArray[np.bool_]:
    """Bool mask of the largest 4-connected region of open tiles."""
    label = np.full(grid.shape, -1, np.int64)
    best, best_size = -1, 0
    for mark, start in enumerate(zip(*np.nonzero(grid == 0), strict=True)):
        if label[start] >= 0:
            continue
        size = _flood(grid, label, start, mark)
        if size > best_size:
            best, best_size = mark, size
    mask: npt.NDArray[np.bool_] = label == best
    return mask


def _flood(grid: Tiles, label: npt.NDArray[np.int64], start: tuple[int, int], mark: int) -> int:
    queue, size = deque([start]), 0
    label[start] = mark
    while queue:
        r, c = queue.popleft()
        size += 1
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            inside = 0 <= nr < grid.shape[0] and 0 <= nc < grid.shape[1]
            if inside and grid[nr, nc] == 0 and label[nr, nc] < 0:
                label[nr, nc] = mark
                queue.append((nr, nc))
    return size


def route(grid: Tiles, seed: int, length: float, tile: float = TILE) -> Points:
    """(k, 2) tile centres of a walk of about `length` px through the largest cave: from a
    random tile, legs along the shortest way to tiles far along it, until that long."""
    walkable = largest_cave(grid)
    free = np.argwhere(walkable)
    rng = np.random.default_rng(seed)
    row, column = free[rng.integers(len(free))]
    path = [(int(row), int(column))]
    want = int(length / tile)
    while len(path) <= want:
        leg = _leg(walkable, path[-1], want + 1 - len(path), rng)
        if len(leg) < 2:
            break
        path.extend(leg[1:])
    cells = np.array(path[: want + 1], float)
    return np.column_stack(((cells[:, 1] + 0.5) * tile, (cells[:, 0] + 0.5) * tile))


def _leg(
    walkable: npt.NDArray[np.bool_], start: tuple[int, int], want: int, rng: np.random.Generator
) -> list[tuple[int, int]]:
    """The shortest way from `start` to a random tile `want` tiles away (or the farthest)."""
    parent = {start: start}
    steps = {start: 0}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        if steps[(r, c)] >= want:
            continue
        for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            inside = 0 <= nxt[0] < walkable.shape[0] and 0 <= nxt[1] < walkable.shape[1]
            if inside and nxt not in parent and walkable[nxt]:
                parent[nxt], steps[nxt] = (r, c), steps[(r, c)] + 1
                queue.append(nxt)
    farthest = max(steps.values())
    ends = [cell for cell, k in steps.items() if k == farthest]
    end = ends[rng.integers(len(ends))]
    way = [end]
    while way[-1] != start:
        way.append(parent[way[-1]])
    return way[::-1]


def walk(points: Points, speed: float, dt: float = DT) -> Points:
    """Positions every `dt` of a walk along the polyline `points` at `speed` px/s."""
    legs = np.hypot(*np.diff(points, axis=0).T)
    along = np.concatenate(([0.0], np.cumsum(legs)))
    times = np.arange(0.0, along[-1] / speed + dt, dt)
    at = np.minimum(times * speed, along[-1])
    return np.column_stack((np.interp(at, along, points[:, 0]), np.interp(at, along, points[:, 1])))


@dataclass
class MapScene:
    """A flock in a big map: the walls, the player sprite it is tied to, its path."""

    flock: Flock
    walls: "arcade.SpriteList[Any]"
    player: arcade.Sprite
    path: Points
    """The player's position at every step of its walk."""
    blocked: Tiles
    """The map's tiles, (rows, columns), 1 for a wall (the cave), for checks."""


def cave_scene(seed: int, followers: int = 100, world: str = "cave") -> MapScene:
    """The cave with `followers` tied to a player at the start of a `ROUTE_SECONDS` walk."""
    grid = cave_grid(seed)
    walls = wall_sprites(grid)
    path = walk(route(grid, seed, PLAYER_SPEED * ROUTE_SECONDS), PLAYER_SPEED)
    flock = install(
        FlockConfig.from_bounds((0, GRID_WIDTH * TILE, 0, GRID_HEIGHT * TILE), seed=seed),
        [FOLLOWER],
        world=world,
        replace=True,
    )
    add_obstacles(flock, walls)
    player = arcade.Sprite(":resources:images/animated_characters/female_person/"
                           "femalePerson_idle.png", scale=0.25)  # fmt: skip
    player.position = tuple(path[0])
    flock.scatter("fly", followers, centre=player.position, radius=60)
    flock.tie(player, Leader())
    return MapScene(flock, walls, player, path, grid)


# arcade's line_of_sight.py
COLUMN_SPACING = 200.0
COLUMN_TILE = 64.0
COLUMN_BOUNDS = (-200.0, 2400.0, -200.0, 900.0)
"""The hunters' world round the columns."""


def column_grid(seed: int) -> Tiles:
    """(10 columns, 10 rows) of 1 where line_of_sight.py puts a tile (it leaves out a fifth,
    at random: seeded here)."""
    rng = np.random.default_rng(seed)
    keep: Tiles = (rng.integers(0, 100, (10, 10)) > 20).astype(np.int8)
    return keep


def column_sprites(keep: Tiles) -> "arcade.SpriteList[arcade.Sprite]":
    """The wall tiles of line_of_sight.py: column c at x = (c + 1) · 200, row r at
    y = (r + 1) · 64."""
    walls: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList(use_spatial_hash=True)
    for column in range(keep.shape[0]):
        for row in range(keep.shape[1]):
            if keep[column, row]:
                wall = arcade.Sprite(":resources:images/tiles/grassCenter.png", scale=0.5)
                wall.center_x = (column + 1) * COLUMN_SPACING
                wall.center_y = (row + 1) * COLUMN_TILE
                walls.append(wall)
    return walls


def hunt_scene(
    seed: int, hunters: int = 50, world: str = "hunt", species: Species = HUNTER
) -> MapScene:
    """`hunters` flies between the columns, hunting the player tied as `Prey`; its walk:
    from above the flies, left over the columns and down behind the first one, where it
    waits (path: its position every step)."""
    walls = column_sprites(column_grid(seed))
    flock = install(
        FlockConfig.from_bounds(COLUMN_BOUNDS, seed=seed), [species], world=world, replace=True
    )
    add_obstacles(flock, walls)
    player = arcade.Sprite(":resources:images/animated_characters/female_person/"
                           "femalePerson_idle.png", scale=0.5)  # fmt: skip
    stops = np.array([(1300.0, 780.0), (100.0, 780.0), (100.0, 350.0)])
    path = walk(stops, PLAYER_SPEED)
    player.position = tuple(path[0])
    flock.scatter("fly", hunters, centre=(1300.0, 400.0), radius=80)
    flock.tie(player, Prey())
    return MapScene(flock, walls, player, path, np.zeros((0, 0), np.int8))
