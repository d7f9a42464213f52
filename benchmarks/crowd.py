"""What crowds cost (issue 20, item 3): a packed baitball and a crowd spawned on one spot,
against the same number of boids in open water.

Run: ``python benchmarks/crowd.py`` (``--help`` for the options).

Three flocks of `--boids` boids, each in a torus as large as `benchmarks/flock.py`'s:
- ``open``: `flock.py`'s flock (its fish scattered over the torus: about 12 others within
  a fish's sight at the start, 30-45 once schools form);
- ``baitball``: the game's ``baitball`` preset, spawned a body length apart in a disc in the
  middle (a ball that stays packed: cohesion over 200 px, each fish sees 100 or more);
- ``one spot``: `flock.py`'s fish, all spawned within 1 px of the middle (they spread out
  from there: every cell round the spot is crowded for the first seconds).

Each is warmed up for `--warm` steps (the worst of those steps after the first is reported:
the one-spot crowd's is the step of its densest seconds), then the three are stepped in turn
for `--steps` steps, so that all three see the same load on a busy machine, and the median
whole step (`flock.step`) of each is printed with its ratio to the open water's. The issue's
goal: a baitball at most 2× the open water.
"""

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from shoal.components import Species
from shoal.game.presets import preset
from shoal.systems import Flock, uninstall
from shoal.systems.core.threads import set_threads, threads

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flock import DT, build, torus

BODY_LENGTH = 34.0
"""px: the baitball's spacing (the preset holds its fish 30-35 px apart)."""


def baitball(boids: int, seed: int) -> Flock:
    """The baitball preset's fish, a body length apart in a disc in the middle."""
    flock = torus(boids, preset("baitball").species(Species("fish")), seed, "crowd-baitball")
    radius = BODY_LENGTH * math.sqrt(boids / math.pi)
    flock.scatter("fish", boids, centre=_middle(flock), radius=radius)
    return flock


def one_spot(boids: int, seed: int) -> Flock:
    """`flock.py`'s fish, all within 1 px of the middle."""
    flock = torus(boids, Species("fish"), seed, "crowd-one-spot")
    flock.scatter("fish", boids, centre=_middle(flock), radius=1.0)
    return flock


def _middle(flock: Flock) -> tuple[float, float]:
    """The middle of the flock's world."""
    left, right, bottom, top = flock.config.bounds
    return (left + right) / 2, (bottom + top) / 2


SCENES: dict[str, Callable[[int, int], Flock]] = {
    "open": lambda boids, seed: build(boids, seed, "crowd-open"),
    "baitball": baitball,
    "one spot": one_spot,
}


def timed_step(flock: Flock) -> float:
    """One `flock.step`, in ms."""
    start = time.perf_counter()
    flock.step(DT)
    return (time.perf_counter() - start) * 1e3


def run(boids: int, warm: int, steps: int, seed: int) -> dict[str, Any]:
    """Build and warm up the three flocks, step them in turn; return the figures."""
    flocks = {name: make(boids, seed) for name, make in SCENES.items()}
    result: dict[str, Any] = {"boids": boids, "steps": steps, "threads": threads()}
    for name, flock in flocks.items():
        warming = [timed_step(flock) for _ in range(warm)]
        result[f"{name} worst warm-up step ms"] = round(max(warming[1:], default=0.0), 2)
    samples: dict[str, list[float]] = {name: [] for name in flocks}
    for _ in range(steps):
        for name, flock in flocks.items():
            samples[name].append(timed_step(flock))
    for name, flock in flocks.items():
        result[f"{name} ms"] = round(statistics.median(samples[name]), 3)
        result[f"{name} neighbours"] = round(float(flock.neighbours.counts.mean()), 1)
        uninstall(flock)  # and the world install made
    for name in ("baitball", "one spot"):
        result[f"{name} ratio"] = round(result[f"{name} ms"] / result["open ms"], 2)
    return result


def main() -> None:
    """Print the figures, a line for each flock size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boids", type=int, nargs="+", default=[10_000])
    parser.add_argument("--warm", type=int, default=300, help="warm-up steps of each flock")
    parser.add_argument("--steps", type=int, default=200, help="timed steps of each flock")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=0, help="numba threads (0: all cores)")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    if any(n < 1 for n in args.boids) or args.warm < 2 or args.steps < 1:
        parser.error("--boids and --steps must be >= 1, --warm >= 2")
    if args.threads:
        set_threads(args.threads)
    for boids in args.boids:
        result = run(boids, args.warm, args.steps, args.seed)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print("  ".join(f"{key}={value}" for key, value in result.items()), flush=True)


if __name__ == "__main__":
    main()
