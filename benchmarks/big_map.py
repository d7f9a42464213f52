"""Navigation on big maps: followers through arcade's cellular cave, hunters round
line_of_sight's columns (the scenes of `benchmarks/map_scenes.py`).

    python benchmarks/big_map.py                 # seeds 0-2 of each
    python benchmarks/big_map.py --seeds 0 1 2 3 4 --picture cave.png
    python benchmarks/big_map.py --no-navigation  # the same, goals steering straight

Prints, per cave seed: the share of followers within `NEAR` px of the player when its walk
ends and `SETTLE` s later, the followers' median nearest-neighbour distance then, whether a
boid was ever inside a wall, the navigation windows placed, and the slowest step (the
kernels loaded first, as a game does behind its loading screen: `warm_up`); per
column seed: the share of hunters within `NEAR` px of the player `HUNT_SETTLE` s after it
stopped behind the columns, for the docs' fly and for the same fly with the default agility
("sluggish"; compare with --no-navigation: the cave needs navigation, the columns do not).
"""

import argparse
import dataclasses
import os
import sys
import time
from dataclasses import dataclass

os.environ.setdefault("ARCADE_HEADLESS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import arcade
import map_scenes
import numpy as np
import numpy.typing as npt
import spacing

from shoal.systems import navigator, warm_up
from shoal.systems.obstacles.field import inside_obstacle, obstacle_field

NEAR = 250.0
SETTLE = 5.0
HUNT_SETTLE = 10.0


@dataclass(frozen=True, slots=True)
class MapResult:
    """What one run measured (see the module docstring)."""

    scene: str
    seed: int
    near_at_stop: float
    near_after: float
    nearest: float
    inside: int
    windows: int
    slowest_ms: float


def nearest_neighbour(points: npt.NDArray[np.float64]) -> float:
    """The median distance from each point to its nearest other."""
    return float(np.median(spacing.nearest(points)))


def play(scene: map_scenes.MapScene, settle: float) -> tuple[float, float, int, float]:
    """Walk the player along its path, then wait `settle` s: the shares near it at the stop
    and after, the boids ever inside a wall, the slowest step (ms)."""
    flock = scene.flock
    field = obstacle_field(flock)
    inside, slowest = 0, 0.0
    steps = len(scene.path) + round(settle / map_scenes.DT)
    near_at_stop = 0.0
    for k in range(steps):
        scene.player.position = tuple(scene.path[min(k, len(scene.path) - 1)])
        started = time.perf_counter()
        flock.step(map_scenes.DT)
        slowest = max(slowest, time.perf_counter() - started)
        inside = max(inside, int(inside_obstacle(field, flock.positions).sum()))
        if k == len(scene.path) - 1:
            near_at_stop = share_near(scene)
    return near_at_stop, share_near(scene), inside, 1e3 * slowest


def share_near(scene: map_scenes.MapScene) -> float:
    gaps = np.hypot(*(scene.flock.positions - np.array(scene.player.position)).T)
    return float((gaps < NEAR).mean())


SLUGGISH = dataclasses.replace(map_scenes.HUNTER, max_force=160.0, max_turn_rate=300.0)
"""The hunting fly with the default agility (a fly of 500 px/s that turns in circles
1,500 px wide): without navigation it does not get through the cave, but it slides round
the columns."""


def run(kind: str, seed: int, navigate: bool = True) -> MapResult:
    """One run of a scene: "cave", "hunt" (the docs' fly) or "sluggish" (`SLUGGISH`)."""
    if kind == "cave":
        scene, settle = map_scenes.cave_scene(seed), SETTLE
    elif kind == "hunt":
        scene, settle = map_scenes.hunt_scene(seed), HUNT_SETTLE
    else:
        scene, settle = map_scenes.hunt_scene(seed, species=SLUGGISH), HUNT_SETTLE
    navigator(scene.flock).enabled = navigate
    at_stop, after, inside, slowest = play(scene, settle)
    return MapResult(
        kind, seed, at_stop, after, nearest_neighbour(scene.flock.positions), inside,
        navigator(scene.flock).windows, slowest,
    )  # fmt: skip


def picture(path: str, seed: int) -> None:
    """The cave around the player 5 s after its walk (walls, followers in yellow, the
    player in red, the navigation window in cyan), saved as a PNG."""
    scene = map_scenes.cave_scene(seed)
    play(scene, SETTLE)
    window = arcade.get_window()
    camera = arcade.Camera2D()
    camera.position = scene.player.position
    camera.zoom = 0.5
    window.clear()
    camera.use()
    scene.walls.draw(pixelated=True)
    arcade.draw_points(scene.flock.positions.tolist(), arcade.color.YELLOW, 8)
    arcade.draw_points([scene.player.position], arcade.color.RED, 20)
    grid = navigator(scene.flock).grid
    arcade.draw_lbwh_rectangle_outline(
        grid.left, grid.bottom, grid.width, grid.height, arcade.color.CYAN, 4
    )
    arcade.get_image(0, 0, window.width, window.height).save(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--picture", help="save the first cave seed's end as this PNG")
    parser.add_argument("--no-navigation", action="store_true", help="goals steer straight")
    args = parser.parse_args()
    arcade.Window(1280, 720, visible=False)
    warm_up()  # the kernels loaded first, as a game does behind its loading screen
    print(f"{'scene':8} {'seed':>4} {'near at stop':>12} {'near after':>10} "
          f"{'nn px':>6} {'inside':>6} {'windows':>7} {'slowest ms':>10}")  # fmt: skip
    for kind in ("cave", "hunt", "sluggish"):
        for seed in args.seeds:
            r = run(kind, seed, not args.no_navigation)
            print(f"{r.scene:8} {r.seed:4} {r.near_at_stop:12.2f} {r.near_after:10.2f} "
                  f"{r.nearest:6.1f} {r.inside:6} {r.windows:7} {r.slowest_ms:10.1f}")  # fmt: skip
    if args.picture:
        picture(args.picture, args.seeds[0])


if __name__ == "__main__":
    main()
