"""Following the leader: how close the school keeps to the player's leader fish (issue 42).

Run: ``python benchmarks/follow.py`` (options: ``--levels reef kelp``, ``--seeds 0 1 2``,
``--seconds 60``).

Each run builds the game's tank (`shoal.game.tank.Tank`, the level's own school) on autopilot:
its leader chases `shoal.game.leader_fish.patrol_point`, a figure eight over the tank, and
finds its way round the rocks and plants as a player's leader does. The level's food and
sharks are taken out first, so that what is measured is the leading, not fish leaving to
eat or fleeing. From `START` s on, every `SAMPLE_EVERY` s, it reads:

- near: the share of fish within `NEAR` px of the leader;
- group: the share of fish in the leader's group (fish linked within their perception
  radius; the group is the leader's when one of its fish is within 1.5 follow distances of
  it, as `benchmarks/navigation.py` counts it);
- median: the median distance from a fish to the leader (px).

It prints one row per level × seed: each figure averaged over the samples, then the
wall-clock time the whole took. Everything is seeded: the same options print the same table.
The requirement (issue 42): near ≥ 60 % and group ≥ 90 % in every level.
"""

import argparse
import os
import sys
import time
from dataclasses import dataclass

os.environ.setdefault("ARCADE_HEADLESS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np
from nav_scenes import _clear_agents, _offsets_to_leader, _share_in_leader_group, fish_rows

from shoal.game.level import level_names, load_level
from shoal.game.tank import DT, Tank

NEAR = 200.0
"""px: a fish this close to the leader keeps with it."""
START = 5.0
"""s: the school starts where the level put it; sampling starts once it has set off."""
SAMPLE_EVERY = 0.25
"""s between samples."""


@dataclass(frozen=True, slots=True)
class FollowResult:
    """What one run measured (see the module docstring).

    Attributes:
        level: the level's name.
        seed: the tank's seed.
        fish: fish in the school.
        near: mean share of fish within NEAR px of the leader.
        group: mean share of fish in the leader's group.
        median: mean over the samples of the median distance from a fish to the leader (px).
    """

    level: str
    seed: int
    fish: int
    near: float
    group: float
    median: float


def run_follow(level: str, seed: int = 0, seconds: float = 60.0) -> FollowResult:
    """Run `level`'s tank on autopilot for `seconds` without its food and sharks; see
    `FollowResult`."""
    # A free swim: no goal ends the run and no fish leaves for the home.
    tank = Tank(load_level(level), seed=seed, autopilot=True, free=True)
    _clear_agents(tank)
    try:
        every = round(SAMPLE_EVERY / DT)
        near: list[float] = []
        group: list[float] = []
        median: list[float] = []
        for step in range(round(seconds / DT)):
            tank.step(DT)
            if step % every == 0 and tank.time > START:
                distances = _offsets_to_leader(tank, fish_rows(tank))
                near.append(float(np.mean(distances <= NEAR)))
                group.append(_share_in_leader_group(tank))
                median.append(float(np.median(distances)))
        if not near:
            raise ValueError(f"follow: a run of {seconds} s ends before sampling starts")
        return FollowResult(
            level, seed, tank.fish, float(np.mean(near)), float(np.mean(group)),
            float(np.mean(median)),
        )  # fmt: skip
    finally:
        tank.close()


def main(argv: list[str] | None = None) -> None:
    """Parse the options and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=level_names(), metavar="NAME")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2], metavar="N")
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    print(f"autopilot, no food or sharks, {args.seconds:g} s, sampled every {SAMPLE_EVERY} s "
          f"from {START:g} s")  # fmt: skip
    print("| level       | seed | fish | near 200 px | in group | median distance (px) |")
    print("|-------------|------|------|-------------|----------|----------------------|")
    for level in args.levels:
        for seed in args.seeds:
            r = run_follow(level, seed, args.seconds)
            print(f"| {r.level:<11} | {r.seed:>4} | {r.fish:>4} | {r.near:>11.2f} "
                  f"| {r.group:>8.2f} | {r.median:>20.0f} |", flush=True)  # fmt: skip
    print(f"took {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
