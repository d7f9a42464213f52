"""How far apart the game's fish swim when the tank is crowded (issue 16: about a body length).

Run: ``python benchmarks/game_spacing.py`` (``--help`` for the options). For each level ×
preset it builds the tank as the game does with `--fish` fish (the autopilot leads), runs
`--seconds` of game time and prints the distance from each fish to its nearest neighbour
at the end: its median and its 10th percentile (the crowded tenth: fish drawn on top of
each other show there), and the mean (`shoal.systems.metrics.mean_nn_distance`) averaged
over the last second, next to a fish's drawn body length. ``--set field=value`` overrides
a fish species parameter (repeatable), to try settings without editing the game.
"""

import argparse
import statistics
import time
from dataclasses import replace
from typing import Any

import numpy as np

from shoal.game.level import level_names, load_level
from shoal.game.presets import PRESETS, preset
from shoal.game.tank import DT, FISH, Tank
from shoal.systems import warm_up
from shoal.systems.metrics import mean_nn_distance
from shoal.systems.render.looks import FISH_SIZE

BODY_LENGTH = FISH_SIZE[0] * 0.75  # the game draws fish at scale 0.75 (tank_view.LOOKS)


def nearest_distances(points: np.ndarray, chunk: int = 500) -> np.ndarray:
    """Each point's distance to its nearest other point (brute force, in chunks)."""
    nearest = np.empty(len(points))
    for start in range(0, len(points), chunk):
        part = points[start : start + chunk]
        gaps = np.hypot(*(part[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
        gaps[np.arange(len(part)), np.arange(start, start + len(part))] = np.inf
        nearest[start : start + chunk] = gaps.min(axis=1)
    return nearest


def spacing(level_name: str, preset_name: str, fish: int, seconds: float,
            overrides: dict[str, Any]) -> tuple[float, float, float, float]:  # fmt: skip
    """The median and 10th percentile of the nearest-neighbour distances at the end, the
    mean over the last simulated second, and ms per step."""
    species = FISH if preset_name == "none" else preset(preset_name).species(FISH)
    species = replace(species, **overrides)
    tank = Tank(
        load_level(level_name), seed=1, fish=fish, species=species, autopilot=True, free=True
    )
    try:
        steps = round(seconds / DT)
        samples, started = [], time.perf_counter()
        fish_index = tank.flock.species.index("fish")
        for k in range(steps):
            tank.step(DT)
            if k >= steps - round(1 / DT) and k % 10 == 0:
                store = tank.flock.store
                samples.append(mean_nn_distance(store.positions[store.species == fish_index]))
        ms = (time.perf_counter() - started) / steps * 1e3
        store = tank.flock.store
        nearest = nearest_distances(store.positions[store.species == fish_index])
        return float(np.median(nearest)), float(np.percentile(nearest, 10)), (
            statistics.fmean(samples)), ms  # fmt: skip
    finally:
        tank.close()


def _override(text: str) -> tuple[str, Any]:
    field, _, value = text.partition("=")
    try:
        return field, float(value) if "." in value else int(value)
    except ValueError:
        return field, value


def main() -> None:
    """Parse the options; print one row per level × preset."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=level_names(), metavar="NAME")
    parser.add_argument("--presets", nargs="+", default=["none", *PRESETS], metavar="NAME")
    parser.add_argument("--fish", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--set", action="append", default=[], type=_override,
                        metavar="FIELD=VALUE", help="override a fish species field")  # fmt: skip
    args = parser.parse_args()
    overrides = dict(args.set)
    print(f"kernels ready in {warm_up():.1f} s; {args.fish} fish, {args.seconds} s, "
          f"body length {BODY_LENGTH:.0f} px; overrides {overrides or 'none'}")  # fmt: skip
    print("| level       | preset   | median nn (px) | 10th pct | mean | body lengths | ms/step |")
    print("|-------------|----------|----------------|----------|------|--------------|---------|")
    for level_name in args.levels:
        for preset_name in args.presets:
            median, low, mean, ms = spacing(level_name, preset_name, args.fish, args.seconds,
                                            overrides)  # fmt: skip
            lengths = median / BODY_LENGTH
            print(f"| {level_name:<11} | {preset_name:<8} | {median:14.1f} | {low:8.1f} | "
                  f"{mean:4.1f} | {lengths:12.2f} | {ms:7.0f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
