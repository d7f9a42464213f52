"""Navigation figures: the leader tours, the wall maze, the cost of a field, drawn headings.

Run: ``python benchmarks/navigation.py`` (add ``--seeds 1 2 3`` for several runs,
``--only tours`` / ``maze`` / ``fields`` / ``headings`` for one part, ``--json``).

- tours: each level's scripted leader tour (`nav_scenes.TOURS`), navigation on and off:
  share of fish in the leader's group over the tour, share hidden behind the rock when the
  leader stops, share within 200 px 5 s later; also with the level's food and sharks left in.
- maze: a host's wall SpriteList, 4 columns with one gap each; share of followers within
  250 px of the leader when it stops past the fourth column and 5 s later; navigation on,
  off, and the same walk in open water (what the school can do without walls).
- fields: time to build one field (fast marching, visibility, descent) over a 1920 × 1080
  tank with the benchmark's 200 mixed obstacles, and a flee map; median and best of many.
- headings: the game (its real view, headless) on autopilot in each level: share of fish
  drawn more than 90° from their motion between frames.

The machine may be shared: time figures (fields) vary with its load; compare runs made
side by side.
"""

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np
from nav_scenes import TOURS, maze_walls, run_maze, run_tour
from scene import add_benchmark_obstacles

from shoal.components import Species
from shoal.systems import FlockConfig, install, navigator, uninstall

PARTS = ("tours", "maze", "fields", "headings")


def tours(seeds: list[int]) -> list[dict[str, Any]]:
    """Every level's tour, navigation on and off, without and with food and sharks."""
    rows = []
    for level in TOURS:
        for navigation in (True, False):
            for agents in (False, True):
                results = [run_tour(level, seed, navigation, agents) for seed in seeds]
                rows.append({
                    "part": "tour", "level": level, "navigation": navigation,
                    "food_and_sharks": agents, "seeds": seeds,
                    "in_group": _mean(r.in_group for r in results),
                    "in_group_min": min(r.in_group_min for r in results),
                    "hidden_at_stop": _mean(r.hidden_at_stop for r in results),
                    "near_200px_5s_after_stop": _mean(r.near_after_stop for r in results),
                    "near_worst_seed": min(r.near_after_stop for r in results),
                    "misplaced": max(r.misplaced for r in results),
                    "backwards": _mean(r.backwards for r in results),
                })  # fmt: skip
    return rows


def maze(seeds: list[int]) -> list[dict[str, Any]]:
    """The wall maze, navigation on and off, and the same walk without walls."""
    import arcade

    walls = maze_walls(lambda x, y: arcade.SpriteSolidColor(32, 32, x, y))
    rows = []
    for label, items, navigation in (("maze", walls, True), ("maze", walls, False),
                                     ("open water", [], True)):  # fmt: skip
        results = [run_maze(items, seed, navigation, f"maze-{label}-{navigation}-{seed}")[0]
                   for seed in seeds]  # fmt: skip
        rows.append({
            "part": "maze", "walls": label, "navigation": navigation, "seeds": seeds,
            "followers": results[0].followers,
            "near_250px_at_stop": _mean(r.near_at_stop for r in results),
            "near_250px_5s_after": _mean(r.near for r in results),
            "near_worst_seed": min(r.near for r in results),
            "inside_walls": max(r.inside for r in results),
        })  # fmt: skip
    return rows


def fields(builds: int = 40) -> list[dict[str, Any]]:
    """Build time of one field over a 1920 × 1080 tank with 200 mixed obstacles."""
    flock = install(FlockConfig(1920, 1080, seed=1), [Species("fish")], world="field-cost")
    add_benchmark_obstacles(flock, 200, seed=1)
    nav = navigator(flock)
    grid = nav.grid
    rng = np.random.default_rng(1)
    seek, flee = [], []
    nav.seek_slot(5.0, 5.0)  # compiled (or loaded from the cache) before timing
    nav.flee_slot(5.0, 5.0, 330.0)
    cells = rng.choice(grid.nx * grid.ny, builds, replace=False)  # each a new target cell
    for cell in cells:
        x, y = ((cell % grid.nx) + 0.5) * grid.cell_w, ((cell // grid.nx) + 0.5) * grid.cell_h
        before = nav.builds
        start = time.perf_counter()
        nav.seek_slot(x, y)
        seek.append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        nav.flee_slot(x, y, 330.0)
        flee.append((time.perf_counter() - start) * 1e3)
        assert nav.builds == before + 2, "a field was not built"
        nav.forget()
    uninstall(flock)  # and the world install made
    return [{
        "part": "fields", "tank": "1920x1080", "obstacles": 200, "cells": grid.nx * grid.ny,
        "cell_px": round(grid.cell_w, 2), "builds": builds,
        "seek_field_ms_median": round(statistics.median(seek), 3),
        "seek_field_ms_best": round(min(seek), 3),
        "flee_map_330px_ms_median": round(statistics.median(flee), 3),
        "flee_map_330px_ms_best": round(min(flee), 3),
    }]  # fmt: skip


def headings(seconds: float = 30.0) -> list[dict[str, Any]]:
    """The game's view on autopilot in each level: fish drawn > 90° from their motion."""
    import arcade

    from shoal.game.level import load_level
    from shoal.game.tank import DT, Tank
    from shoal.game.tank_view import TankView
    from shoal.systems.render.headings import turn_between

    window = arcade.Window(1280, 720, "navigation benchmark", visible=False)
    rows = []
    for level in TOURS:
        view = TankView(load_level(level), lambda lv: Tank(lv, seed=2, autopilot=True),
                        intro=False)  # fmt: skip
        window.show_view(view)
        previous, count, backwards, worst = None, 0, 0, 0.0
        for _ in range(round(seconds / DT)):
            view.on_update(DT)
            view.on_draw()
            frame = view.render.last_frame
            if (
                frame is not None
                and previous is not None
                and np.array_equal(previous.entities, frame.entities)
            ):
                moved = frame.positions - previous.positions
                config = view.tank.flock.config
                if config.wraps:  # across the edge of a torus: the short way round
                    size = np.array([config.width, config.height])
                    moved -= np.round(moved / size) * size
                moving = np.hypot(*moved.T) > 0.2
                motion = np.degrees(-np.arctan2(moved[moving, 1], moved[moving, 0]))
                off = np.abs(turn_between(frame.angles[moving], motion))
                count += int(moving.sum())
                backwards += int(np.count_nonzero(off > 90.0))
                worst = max(worst, float(off.max()) if len(off) else 0.0)
            previous = frame
        view.tank.close()
        rows.append({"part": "headings", "level": level, "seconds": seconds,
                     "fish_frames": count, "drawn_over_90deg": backwards,
                     "worst_deg": round(worst, 1)})  # fmt: skip
    window.close()
    return rows


def _mean(values: Any) -> float:
    return round(float(np.mean(list(values))), 3)


def main(argv: list[str] | None = None) -> None:
    """Parse the options and print the figures of each part asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--only", choices=PARTS, nargs="+", default=list(PARTS))
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    parts: dict[str, Callable[[], list[dict[str, Any]]]] = {
        "tours": lambda: tours(args.seeds), "maze": lambda: maze(args.seeds),
        "fields": fields, "headings": headings,
    }  # fmt: skip
    for part in args.only:
        for row in parts[part]():
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print("  ".join(f"{k}={v}" for k, v in row.items()), flush=True)


if __name__ == "__main__":
    main()
