"""`Flock.scatter` (issue 40): seeded boids only in the free room of their disc (outside
every obstacle, a little clear of it, and reachable from the centre), not stacked, in a real
tile map: arcade's procedural cave, its walls a `SpriteList` of 32 px tiles; without
obstacles, the draws it always made."""

import copy
import math
import sys
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from shoal.components import Circle, Polygon, Rect, Species
from shoal.systems import Flock, FlockConfig, add_obstacles, install
from shoal.systems.obstacles.field import inside_obstacle, obstacle_field, surface
from shoal.systems.obstacles.room import SCATTER_CLEARANCE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from big_map import nearest_neighbour
from map_scenes import TILE, cave_grid, largest_cave, wall_sprites

COLUMNS, ROWS = 60, 50
"""A corner of arcade's cave (its rules, seeded): 1,920 × 1,600 px, ~1,400 wall tiles."""
FOLLOWERS, RADIUS = 100, 60.0
"""issue 40's user: 100 followers scattered round the player, radius 60."""
SPREAD = 0.3
"""The median distance from a boid to its nearest other is at least this share of
√(room / count), the side of the square each would have if the free room were shared out
evenly (uniform draws give about 0.47 of it; boids pushed out of rock onto one face of it,
as scatter once left them, a few hundredths)."""


FLY = Species("fly", max_speed=500, min_speed=0, leader_weight=8, separation_weight=3)


def cave_flock(seed: int = 1, world: str = "cave") -> tuple[Flock, np.ndarray]:
    """A flock among the walls of a small cave, and the cave's tiles (1: wall)."""
    grid = cave_grid(seed, COLUMNS, ROWS)
    bounds = (0.0, COLUMNS * TILE, 0.0, ROWS * TILE)
    flock = install(FlockConfig.from_bounds(bounds, seed=seed), [FLY], world=world, replace=True)
    add_obstacles(flock, wall_sprites(grid))
    return flock, grid


def reachable_tiles(grid: np.ndarray, centre: tuple[float, float], radius: float) -> np.ndarray:
    """Open tiles that meet the disc and that the centre's tile reaches through open tiles
    meeting the disc (4-connected): a boid on any other tile of the disc is behind a wall."""
    rows, columns = np.indices(grid.shape)
    nearest_x = np.clip(centre[0], columns * TILE, (columns + 1) * TILE)
    nearest_y = np.clip(centre[1], rows * TILE, (rows + 1) * TILE)
    meets = (np.hypot(nearest_x - centre[0], nearest_y - centre[1]) <= radius) & (grid == 0)
    start = (int(centre[1] // TILE), int(centre[0] // TILE))
    reached: np.ndarray = np.zeros_like(meets)
    reached[start] = True
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            on_map = 0 <= n[0] < grid.shape[0] and 0 <= n[1] < grid.shape[1]
            if on_map and meets[n] and not reached[n]:
                reached[n] = True
                queue.append(n)
    return reached


def behind_walls(grid: np.ndarray) -> list[tuple[float, float]]:
    """Tile centres of the largest cave whose disc holds open tiles behind a wall (a tile
    centre well inside the disc that the centre does not reach): where a uniform scatter
    would put boids on the far side of a wall."""
    rows, columns = np.indices(grid.shape)
    found = []
    for r, c in np.argwhere(largest_cave(grid)):
        centre = ((c + 0.5) * TILE, (r + 0.5) * TILE)
        behind = (grid == 0) & ~reachable_tiles(grid, centre, RADIUS)
        inner = np.hypot((columns + 0.5) * TILE - centre[0], (rows + 0.5) * TILE - centre[1])
        if (behind & (inner <= RADIUS - 4)).any():
            found.append(centre)
    return found


def free_room(flock: Flock, grid: np.ndarray, centre: tuple[float, float], radius: float) -> float:
    """The room of the disc (px²), counted on a 1 px lattice: points on tiles the centre
    reaches, at least the clearance from every wall."""
    offsets = np.arange(-radius, radius + 1.0)
    points = np.stack(np.meshgrid(offsets, offsets), -1).reshape(-1, 2)
    points = points[np.hypot(*points.T) <= radius] + centre
    rows, columns = tiles_of(points)
    on_map = (rows >= 0) & (rows < grid.shape[0]) & (columns >= 0) & (columns < grid.shape[1])
    points, rows, columns = points[on_map], rows[on_map], columns[on_map]
    reached = reachable_tiles(grid, centre, radius)[rows, columns]
    clear = surface(obstacle_field(flock), points).distance >= SCATTER_CLEARANCE
    return float((reached & clear).sum())


def min_distance(points: np.ndarray) -> float:
    """The least distance between two of `points`."""
    gaps = points[:, None, :] - points[None, :, :]
    distance = np.hypot(gaps[..., 0], gaps[..., 1])
    np.fill_diagonal(distance, np.inf)
    return float(distance.min())


def tiles_of(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, columns) of the tile under each point."""
    return (points[:, 1] // TILE).astype(int), (points[:, 0] // TILE).astype(int)


# --- in the cave ----------------------------------------------------------------------------
@pytest.mark.slow
def test_followers_scatter_only_into_the_free_room_their_player_reaches() -> None:
    """Round a player beside walls, and where the disc holds rock and pockets behind walls:
    no follower in a wall or nearer one than the clearance, none on the far side of a wall,
    none outside the disc, and spread over the room (`SPREAD`), not stacked."""
    flock, grid = cave_flock()
    field = obstacle_field(flock)
    pockets = behind_walls(grid)
    assert len(pockets) >= 3  # the cave has the places this test is about
    open_cave = np.argwhere(largest_cave(grid))[::97]
    centres = pockets[:6] + [((c + 0.5) * TILE + 9.0, (r + 0.5) * TILE) for r, c in open_cave]
    for centre in centres:
        entities = flock.scatter("fly", FOLLOWERS, centre=centre, radius=RADIUS)
        placed = flock.positions[np.isin(flock.entities, entities)]
        assert len(placed) == FOLLOWERS
        assert not inside_obstacle(field, placed).any(), centre
        rows, columns = tiles_of(placed)
        assert (grid[rows, columns] == 0).all(), centre
        assert surface(field, placed).distance.min() >= SCATTER_CLEARANCE - 1e-9, centre
        assert reachable_tiles(grid, centre, RADIUS)[rows, columns].all(), centre
        assert np.hypot(*(placed - centre).T).max() <= RADIUS, centre
        even = math.sqrt(free_room(flock, grid, centre, RADIUS) / FOLLOWERS)
        assert nearest_neighbour(placed) >= SPREAD * even, (centre, nearest_neighbour(placed), even)
        assert min_distance(placed) > 0.0, centre
        flock.despawn(entities)


def test_the_same_seed_scatters_the_same_followers() -> None:
    def positions(world: str) -> np.ndarray:
        flock, grid = cave_flock(seed=3, world=world)
        centre = behind_walls(grid)[0]
        flock.scatter("fly", FOLLOWERS, centre=centre, radius=RADIUS)
        flock.scatter("fly", 50)  # the whole cave
        return flock.positions.copy()

    first, again = positions("cave-a"), positions("cave-b")
    assert np.array_equal(first, again)


def test_the_whole_cave_form_keeps_out_of_the_rock() -> None:
    flock, grid = cave_flock()
    flock.scatter("fly", 2000)
    rows, columns = tiles_of(flock.positions)
    assert (grid[rows, columns] == 0).all()
    assert not inside_obstacle(obstacle_field(flock), flock.positions).any()


# --- shapes ---------------------------------------------------------------------------------
def shapes_flock(*shapes: Rect | Circle | Polygon, seed: int = 5) -> Flock:
    flock = install(FlockConfig(800, 600, seed=seed), [Species("fish")])
    add_obstacles(flock, list(shapes))
    return flock


def test_a_wall_thinner_than_a_cell_still_parts_the_disc() -> None:
    """A 1 px wall (a polygon sliver) through the disc: every boid on the centre's side."""
    flock = shapes_flock(Polygon([(400.0, 100.0), (401.0, 100.0), (401.0, 500.0), (400.0, 500.0)]))
    flock.scatter("fish", 300, centre=(380.0, 300.0), radius=100.0)
    assert (flock.positions[:, 0] < 400.0).all()
    assert min_distance(flock.positions) > 0.0


def test_a_centre_in_a_closed_pocket_keeps_the_boids_in_it_however_many() -> None:
    """A room of 40 × 40 px walled in on every side, 500 boids: too many to space as the
    count asks, so they sit closer, but all of them go in the pocket, none in its walls."""
    walls = [Rect(300, 270, 80, 20), Rect(300, 330, 80, 20), Rect(270, 300, 20, 80),
             Rect(330, 300, 20, 80)]  # fmt: skip
    flock = shapes_flock(*walls)
    flock.scatter("fish", 500, centre=(300.0, 300.0), radius=150.0)
    assert len(flock) == 500
    assert not inside_obstacle(obstacle_field(flock), flock.positions).any()
    assert (np.abs(flock.positions - 300.0) < 20.0).all()


def test_a_centre_inside_a_wall_scatters_into_the_larger_side() -> None:
    """A centre inside a wall reaches nowhere: the boids take the disc's largest room (the
    left side here; the right holds less of the disc), not the pocket nearest the centre."""
    flock = shapes_flock(Rect(400.0, 300.0, 20.0, 400.0))  # x 390..410
    flock.scatter("fish", 200, centre=(392.0, 300.0), radius=100.0)
    assert (flock.positions[:, 0] <= 390.0 - SCATTER_CLEARANCE).all()


def test_a_centre_inside_an_obstacle_scatters_round_it() -> None:
    flock = shapes_flock(Circle(300.0, 300.0, 30.0))
    flock.scatter("fish", 100, centre=(300.0, 300.0), radius=80.0)
    distance = np.hypot(*(flock.positions - 300.0).T)
    assert (distance >= 30.0 + SCATTER_CLEARANCE - 1e-9).all() and (distance <= 80.0).all()


def test_a_disc_that_rock_fills_places_as_without_obstacles() -> None:
    """No free room at all: the boids still come (the collision stage pushes them out)."""
    flock = shapes_flock(Rect(300, 300, 200, 200))
    flock.scatter("fish", 20, centre=(300.0, 300.0), radius=50.0)
    assert len(flock) == 20 and (np.hypot(*(flock.positions - 300.0).T) <= 50.0).all()


# --- open water -----------------------------------------------------------------------------
@pytest.mark.parametrize("boundary", ["contain", "bounce", "wrap"])
@pytest.mark.parametrize("disc", [True, False])
def test_without_obstacles_scatter_draws_what_it_always_drew(boundary: str, disc: bool) -> None:
    """The draws of earlier releases, from the same generator: a flock without obstacles
    (every seeded scene, test and benchmark made before obstacles narrowed scatter) starts
    where it always started."""
    config = FlockConfig(800, 600, boundary=boundary, margin=50, seed=2)
    flock = install(config, [Species("fish")])
    rng = copy.deepcopy(flock.rng)
    if disc:
        flock.scatter("fish", 300, centre=(10.0, 300.0), radius=120.0)
        angle = rng.uniform(0, 2 * math.pi, 300)
        dist = 120.0 * np.sqrt(rng.uniform(0, 1, 300))
        drawn = np.array((10.0, 300.0)) + np.column_stack(
            (dist * np.cos(angle), dist * np.sin(angle))
        )
    else:
        flock.scatter("fish", 300)
        pad = 50.0 if boundary == "contain" else 0.0
        drawn = rng.uniform((pad, pad), (800.0 - pad, 600.0 - pad), size=(300, 2))
    assert np.array_equal(flock.positions, drawn)


@pytest.mark.parametrize("boundary", ["contain", "bounce", "wrap"])
def test_with_obstacles_a_disc_across_the_worlds_edge_stops_there_unless_it_wraps(
    boundary: str,
) -> None:
    flock = install(FlockConfig(800, 600, boundary=boundary, seed=2), [Species("fish")])
    add_obstacles(flock, [Circle(600.0, 300.0, 20.0)])  # elsewhere in the world
    flock.scatter("fish", 200, centre=(10.0, 300.0), radius=100.0)
    x = flock.positions[:, 0]
    assert (x >= -90.0).all() and (x <= 110.0).all()
    assert (x < 0.0).any() if boundary == "wrap" else (x >= 0.0).all()


def test_the_world_form_keeps_inside_the_contain_margin_and_out_of_the_rock() -> None:
    flock = install(FlockConfig(800, 600, boundary="contain", margin=50, seed=2), [Species("a")])
    add_obstacles(flock, [Rect(400.0, 300.0, 200.0, 100.0)])
    flock.scatter("a", 1000)
    x, y = flock.positions.T
    assert (x >= 50).all() and (x < 750).all() and (y >= 50).all() and (y < 550).all()
    assert not inside_obstacle(obstacle_field(flock), flock.positions).any()
    assert nearest_neighbour(flock.positions) >= SPREAD * math.sqrt((700 * 500 - 20_000) / 1000)


def test_a_disc_wholly_past_the_edge_scatters_as_if_the_world_went_on() -> None:
    flock = install(FlockConfig(800, 600, seed=2), [Species("fish")])
    add_obstacles(flock, [Circle(600.0, 300.0, 20.0)])
    flock.scatter("fish", 5, centre=(-500.0, 300.0), radius=100.0)
    assert (np.hypot(*(flock.positions - (-500.0, 300.0)).T) <= 100.0).all()


def test_a_disc_of_radius_zero_puts_every_boid_at_its_centre() -> None:
    flock = install(FlockConfig(800, 600, seed=2), [Species("fish")])
    flock.scatter("fish", 3, centre=(10.0, 20.0), radius=0.0)
    assert (flock.positions == (10.0, 20.0)).all()
