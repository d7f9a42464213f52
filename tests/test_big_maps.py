"""Navigation on maps far larger than a tank: a window of fine cells round the boids and their
goals (`Navigator.max_cells`), arcade's cellular cave, line_of_sight's columns (the scenes
of `benchmarks/map_scenes.py`, which `benchmarks/big_map.py` measures)."""

import sys
import warnings
from pathlib import Path

import arcade
import numpy as np
import numpy.typing as npt
import pytest

from shoal.components import Leader, Obstacle, Position, Rect, Species, Velocity
from shoal.systems import Flock, FlockConfig, Navigator, install, navigator
from shoal.systems.obstacles.nav_grid import NAV_CELL
from shoal.systems.obstacles.navigation import NavigationWarning

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import big_map
import map_scenes

BIG = 20_000.0
"""px: a world side no tank has (4·10⁸ px², 4 million cells of 10 px)."""


def big_flock(world: str, **navigation: float) -> tuple[Flock, Navigator, Position]:
    """Boids round (3000, 3000) of a BIG × BIG world with a wall, a leader beside them (its
    Position returned), and a navigator made with `navigation`."""
    flock = install(FlockConfig(BIG, BIG, seed=3), [Species("fish")], world=world, replace=True)
    flock.create_entity(Obstacle(Rect(3200, 3000, 20, 400)))
    leader = Position(3400, 3000)
    flock.create_entity(leader, Velocity(0, 0), Leader())
    flock.scatter("fish", 40, centre=(3000, 3000), radius=100)
    nav = Navigator(flock, **navigation)  # type: ignore[arg-type]
    return flock, nav, leader


def covers(nav: Navigator, points: npt.NDArray[np.float64]) -> bool:
    grid = nav.grid
    local = points - (grid.left, grid.bottom)
    return bool(((local >= 0) & (local < (grid.width, grid.height))).all())


def test_a_tank_is_rasterized_whole_as_before() -> None:
    flock = install(FlockConfig(1920, 1080), [Species("fish")], world="tank", replace=True)
    flock.create_entity(Obstacle(Rect(900, 500, 40, 300)))
    grid = navigator(flock).grid
    assert not grid.window and (grid.width, grid.height) == (1920, 1080)
    assert grid.cell_w == pytest.approx(1920 / 171)  # 16,416 cells of 11.2 px


def test_a_big_world_keeps_fine_cells_in_a_window_round_the_boids() -> None:
    flock, nav, _ = big_flock("big-window")
    flock.step()
    grid = nav.grid
    assert grid.window and grid.cell_w == grid.cell_h == NAV_CELL
    assert grid.nx * grid.ny <= nav.max_cells
    assert covers(nav, flock.positions) and covers(nav, np.array([(3400.0, 3000.0)]))


def test_the_window_follows_the_boids_across_the_world() -> None:
    flock, nav, leader = big_flock("big-moving")
    flock.step()
    placed = nav.windows
    flock.positions[:] += (9000.0, 6000.0)  # the boids and their leader far off
    leader.x, leader.y = leader.x + 9000.0, leader.y + 6000.0
    flock.step()
    assert nav.windows == placed + 1
    assert covers(nav, flock.positions) and nav.grid.cell_w == NAV_CELL


def test_a_window_too_small_for_the_spread_says_so_once_naming_the_setting() -> None:
    flock, _, _ = big_flock("big-spread", max_cells=1 << 10)
    flock.positions[:20] += 5000.0  # half the boids far from their leader
    with pytest.warns(NavigationWarning, match="max_cells = 1,024") as caught:
        flock.step()
    assert all("raise Navigator.max_cells" in str(w.message) for w in caught)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NavigationWarning)
        for _ in range(3):
            flock.step()


def test_the_navigator_a_user_makes_is_the_one_the_flock_uses() -> None:
    flock, nav, _ = big_flock("big-mine", cell=16.0)
    assert navigator(flock) is nav
    flock.step()
    assert nav.grid.cell_w == 16.0
    nav.cell = 12.0  # a setting changed: rasterized again at once
    assert nav.grid.cell_w == 12.0


@pytest.mark.parametrize(
    "name, value, error",
    [("max_cells", 10, r"max_cells = 10"), ("margin", -1.0, r"margin = -1"),
     ("cell", float("nan"), r"cell = nan")],
)  # fmt: skip
def test_a_bad_setting_is_refused_by_name(name: str, value: float, error: str) -> None:
    flock, nav, _ = big_flock("big-bad")
    with pytest.raises(ValueError, match=error):
        setattr(nav, name, value)
    with pytest.raises(ValueError, match=error):
        Navigator(flock, **{name: value})  # type: ignore[arg-type]


@pytest.mark.slow
def test_followers_keep_with_a_player_walking_through_arcades_cave(window: arcade.Window) -> None:
    """arcade's cellular cave (450 × 400 tiles, ~74,000 wall sprites), the player walking
    35 s: most followers with it when it stops and 5 s later, never in a wall, spaced."""
    result = big_map.run("cave", 0)
    assert result.near_at_stop >= 0.8 and result.near_after >= 0.8, result
    assert result.inside == 0 and result.nearest >= 5.0, result


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["hunt", "sluggish"])
def test_hunters_come_round_the_columns_to_a_hiding_player(
    window: arcade.Window, kind: str
) -> None:
    """line_of_sight's columns: the player walks round them and waits behind; 10 s later
    the swarm is round it, the docs' fly and one that turns slowly alike."""
    result = big_map.run(kind, 0)
    assert result.near_after >= 0.8, result
    assert result.inside == 0, result


def test_the_cave_is_arcades_automaton() -> None:
    """The scene's cave is arcade's: about 41 % wall after its four steps, closed edges."""
    grid = map_scenes.cave_grid(0)
    assert grid.shape == (map_scenes.GRID_HEIGHT, map_scenes.GRID_WIDTH)
    assert 0.35 < grid.mean() < 0.48
    assert grid[0].mean() > 0.8 and grid[:, 0].mean() > 0.8
