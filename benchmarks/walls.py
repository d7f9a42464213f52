"""What a tile map's walls cost: arcade's procedural cave (~74,000 wall sprites) handed to
`add_obstacles`, and the steps after it.

    python benchmarks/walls.py                   # seed 1, 10 s of steps per scene
    python benchmarks/walls.py --seconds 5 --seeds 1 2

Per seed, after `warm_up` (the kernels loaded, as a game does on its loading screen):
the time of `add_obstacles` on the cave's wall SpriteList (and the rectangles it makes),
then four scenes of 100 followers tied to a player walking through the cave
(`map_scenes`: its route, its follower), with and without the walls, with navigation on
and off (`navigator(flock).enabled = False`). For each: the first step after the walls
(or after the flock's first step, without walls), the slowest step of the first 2 s,
and the median step over the rest; then the median with walls over the median without.
"""

import argparse
import gc
import os
import statistics
import sys
import time
from dataclasses import dataclass

os.environ.setdefault("ARCADE_HEADLESS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import arcade
import map_scenes
import numpy as np

from shoal.components import Leader
from shoal.systems import FlockConfig, add_obstacles, install, navigator, uninstall, warm_up

FOLLOWERS = 100
BOUNDS = (
    0.0,
    map_scenes.GRID_WIDTH * map_scenes.TILE,
    0.0,
    map_scenes.GRID_HEIGHT * map_scenes.TILE,
)
FIRST_SECONDS = 2.0
"""The window after loading whose slowest step is reported."""


@dataclass(frozen=True, slots=True)
class Run:
    """One scene's figures (ms, but `add_s`)."""

    walls: bool
    navigation: bool
    add_s: float
    rectangles: int
    first_ms: float
    max_first_ms: float
    median_ms: float


def run(
    seed: int,
    walls: arcade.SpriteList[arcade.BasicSprite],
    path: np.ndarray,
    with_walls: bool,
    navigation: bool,
    seconds: float,
) -> Run:
    """Install the followers at the start of the walk, step once, add the walls (or not),
    then step along the walk for `seconds`, timing each step."""
    config = FlockConfig.from_bounds(BOUNDS, seed=seed)
    flock = install(config, [map_scenes.FOLLOWER], world="walls-benchmark", replace=True)
    player = arcade.SpriteSolidColor(24, 32)
    player.position = tuple(path[0])
    flock.scatter(map_scenes.FOLLOWER.name, FOLLOWERS, centre=player.position, radius=60)
    flock.tie(player, Leader())
    flock.step(map_scenes.DT)
    add_s, rectangles = 0.0, 0
    if with_walls:
        gc.collect()  # the scenes before leave garbage; the host's own collections are its own
        start = time.perf_counter()
        rectangles = len(add_obstacles(flock, walls))
        add_s = time.perf_counter() - start
    navigator(flock).enabled = navigation
    steps = min(int(seconds / map_scenes.DT), len(path) - 1)
    times = np.empty(steps)
    for k in range(steps):
        player.position = tuple(path[k + 1])
        start = time.perf_counter()
        flock.step(map_scenes.DT)
        times[k] = time.perf_counter() - start
    uninstall(flock)
    first = int(FIRST_SECONDS / map_scenes.DT)
    times *= 1e3
    return Run(
        with_walls, navigation, add_s, rectangles, float(times[0]),
        float(times[:first].max()), float(statistics.median(times[first:])),
    )  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """Parse the options, then measure and print each seed's scenes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--seconds", type=float, default=10.0, help="of steps per scene")
    args = parser.parse_args(argv)
    arcade.Window(64, 64, visible=False)
    print(f"warm_up: {warm_up():.2f} s")
    for seed in args.seeds:
        grid = map_scenes.cave_grid(seed)
        walls = map_scenes.wall_sprites(grid)
        length = map_scenes.PLAYER_SPEED * map_scenes.ROUTE_SECONDS
        path = map_scenes.walk(map_scenes.route(grid, seed, length), map_scenes.PLAYER_SPEED)
        print(f"\nseed {seed}: {len(walls)} wall sprites, {FOLLOWERS} followers")
        print(" walls  navigation  add_obstacles  first step  max first 2 s  median step")
        medians: dict[tuple[bool, bool], float] = {}
        for navigation in (True, False):
            for with_walls in (False, True):
                r = run(seed, walls, path, with_walls, navigation, args.seconds)
                medians[with_walls, navigation] = r.median_ms
                added = f"{r.add_s:6.3f} s ({r.rectangles})" if with_walls else "-"
                print(
                    f" {'yes' if with_walls else 'no':5}  {'on' if navigation else 'off':10}"
                    f"  {added:>13}  {r.first_ms:7.2f} ms  {r.max_first_ms:10.2f} ms"
                    f"  {r.median_ms:8.3f} ms"
                )
        for navigation in (True, False):
            ratio = medians[True, navigation] / medians[False, navigation]
            print(f" with walls / without, navigation {'on' if navigation else 'off'}: {ratio:.2f}")


if __name__ == "__main__":
    main()
