"""Followers' spacing behind a moving leader: do they keep apart, and keep up?

    python benchmarks/spacing.py                  # seeds 0-2
    python benchmarks/spacing.py --seeds 0 1 2 3 4

Two followers: the fast fly docs/embedding.md gives for a player (`map_scenes.FOLLOWER`)
behind a leader circling at 300 px/s, and the default species behind one circling at
80 px/s; each in open water and with walls in the way (a ring of pillars the circle passes
through). 100 followers scattered round the leader; from 2 s after the start, for 10 s,
sampled every step. Prints per case: the median over the samples of the followers' median
nearest-neighbour distance, the worst share of followers within 1 px of another, and the
median of the followers' median distance to the leader.
"""

import argparse
import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import map_scenes
import numpy as np
import numpy.typing as npt

from shoal.components import Circle, Leader, Obstacle, Position, Species, Velocity
from shoal.systems import Flock, FlockConfig, install, uninstall
from shoal.systems.metrics.motion import nearest_neighbours

DT = 1.0 / 60.0
FOLLOWERS = 100
SETTLE, MEASURE = 2.0, 10.0
WORLD = 2400.0
CIRCLE = 500.0
"""px: the radius of the leader's circle, round the world's centre."""
Watch = Callable[[Flock, Position, Velocity], None]
"""Called at every measured step with the flock and the leader's position and velocity
(benchmarks/docs_values.py measures more of the followers this way)."""
CASES = {
    "fast fly, 300 px/s": (map_scenes.FOLLOWER, 300.0),
    "default, 80 px/s": (Species("fish"), 80.0),
}


@dataclass(frozen=True, slots=True)
class Spacing:
    """What one run measured (see the module docstring)."""

    nearest: float
    touching: float
    to_leader: float


def nearest(points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each point's distance to its nearest other."""
    found: npt.NDArray[np.float64] = np.hypot(*(points - points[nearest_neighbours(points)]).T)
    return found


def run(
    species: Species, speed: float, walls: bool, seed: int, watch: Watch | None = None,
    followers: int = FOLLOWERS, seconds: float = SETTLE + MEASURE,
) -> Spacing:  # fmt: skip
    """One run: `followers` of `species` behind a leader circling at `speed`, for
    `seconds`, measured from `SETTLE` s on (`watch`: see `Watch`)."""
    flock = install(FlockConfig(WORLD, WORLD, seed=seed), [species], world="spacing", replace=True)
    middle = WORLD / 2
    if walls:  # pillars on the leader's circle, 90 px apart: it passes between them
        for k in range(16):
            angle = 2 * math.pi * (k + 0.5) / 16
            x, y = middle + CIRCLE * math.cos(angle), middle + CIRCLE * math.sin(angle)
            flock.create_entity(Obstacle(Circle(x, y, 25.0)))
    leader = Position(middle + CIRCLE, middle)
    velocity = Velocity(0.0, speed)
    flock.create_entity(leader, velocity, Leader())
    flock.scatter(species.name, followers, centre=(leader.x - 80.0, leader.y), radius=60.0)
    samples: list[tuple[float, float, float]] = []
    steps = round(seconds / DT)
    for k in range(steps):
        angle = speed * k * DT / CIRCLE
        leader.x, leader.y = middle + CIRCLE * math.cos(angle), middle + CIRCLE * math.sin(angle)
        velocity.x, velocity.y = -speed * math.sin(angle), speed * math.cos(angle)
        flock.step(DT)
        if k * DT >= SETTLE:
            gaps = nearest(flock.positions)
            to_leader = np.hypot(*(flock.positions - (leader.x, leader.y)).T)
            samples.append(
                (float(np.median(gaps)), float((gaps < 1.0).mean()), float(np.median(to_leader)))
            )
            if watch is not None:
                watch(flock, leader, velocity)
    uninstall(flock)
    figures = np.array(samples)
    return Spacing(
        float(np.median(figures[:, 0])), float(figures[:, 1].max()), float(np.median(figures[:, 2]))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    args = parser.parse_args()
    print(f"{'case':22} {'walls':>5} {'seed':>4} {'nn px':>6} {'< 1 px':>6} {'to leader':>9}")
    for name, (species, speed) in CASES.items():
        for walls in (False, True):
            for seed in args.seeds:
                r = run(species, speed, walls, seed)
                print(f"{name:22} {walls!s:>5} {seed:4} {r.nearest:6.1f} {r.touching:6.1%} "
                      f"{r.to_leader:9.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
