"""Does the motion look natural (issue 18, item 3)? Speeds, turn reversals, polarization and
sprite overlap of a calm school and a baitball.

Run: ``python benchmarks/natural.py`` (``--help`` for the options). Each preset's school
(`--fish` fish from a disc in the middle of a 1280 × 720 tank, no leader) settles for
`--settle` s, then is watched for `--watch` s at 60 steps a second:

- at a limit: the share of fish whose speed is within 1 % of the species' min or max speed
  (`shoal.systems.metrics.share_at_limit`), sampled every half second;
- reversals: how often a fish's turn changes side, per fish per second
  (`shoal.systems.metrics.turn_reversals`: turns slower than 0.1 rad/s are straight);
- polarization: as `shoal.systems.metrics.polarization`, sampled every half second, of all the
  fish and of the largest school (fish linked within 60 px: a flock that split into two
  schools is two aligned schools, not a disordered one);
- overlap: the share of nearest-neighbour pairs whose drawn sprites (24 × 12 px: the game's
  fish at scale 0.75, turned to their headings) intersect, at the end
  (`shoal.systems.metrics.sprite_overlap`); and the median nearest-neighbour distance.

The issue's targets: at most a third at a limit, about one reversal a second or fewer,
polarization 0.85-0.97 for a school, overlap under 10 % in a baitball. tests/test_natural.py
asserts them for one seed.
"""

import argparse
from dataclasses import replace
from typing import Any

import esper
import numpy as np

from shoal.components import Species
from shoal.game.presets import preset
from shoal.systems import FlockConfig, install, warm_up
from shoal.systems.core.store import FloatArray
from shoal.systems.metrics import (
    groups,
    polarization,
    share_at_limit,
    sprite_overlap,
    turn_reversals,
)
from shoal.systems.metrics.motion import nearest_neighbours

SPRITE = (24.0, 12.0)  # FISH_SIZE (32 × 16) at the game's scale 0.75
DT = 1 / 60
LINK = 60.0  # px: fish this close are in one school (two and a half body lengths)


def school_polarization(positions: FloatArray, velocities: FloatArray) -> float:
    """The polarization of the largest school (fish linked within `LINK`): a flock that has
    split into two schools swimming apart is two aligned schools, not a disordered one."""
    labels = groups(positions, LINK)
    largest = np.argmax(np.bincount(labels))
    return polarization(velocities[labels == largest])


def watch(
    name: str, seed: int, settle: float, seconds: float, fish: int = 150, **changes: Any
) -> dict[str, float]:
    """A preset's figures (see the module docstring), with `changes` to its species."""
    species = replace(preset(name).species(Species("fish")), **changes)
    world = f"natural-{name}-{seed}"
    flock = install(FlockConfig(seed=seed, dt=DT), [species], world=world)
    try:
        flock.scatter("fish", fish, centre=(640.0, 360.0), radius=150.0)
        for _ in range(round(settle / DT)):
            flock.step()
        headings, limits, polar, school = [], [], [], []
        for k in range(round(seconds / DT)):
            flock.step()
            vel = flock.velocities[np.argsort(flock.entities)]  # by boid: the rows move
            headings.append(np.arctan2(vel[:, 1], vel[:, 0]))
            if k % 30 == 0:
                limits.append(share_at_limit(vel, species.min_speed, species.max_speed))
                polar.append(polarization(vel))
                school.append(school_polarization(flock.positions, vel))
        pos = flock.positions
        nearest = np.hypot(*(pos - pos[nearest_neighbours(pos)]).T)
        return {
            "at a limit": float(np.mean(limits)),
            "reversals/s": turn_reversals(np.array(headings), DT),
            "polarization": float(np.mean(polar)),
            "school polarization": float(np.mean(school)),
            "overlap": sprite_overlap(pos, flock.velocities, SPRITE),
            "median nn": float(np.median(nearest)),
        }
    finally:
        esper.delete_world(world)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", nargs="*", default=["school", "baitball"])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--fish", type=int, default=150)
    parser.add_argument("--settle", type=float, default=30.0)
    parser.add_argument("--watch", type=float, default=10.0)
    args = parser.parse_args()
    warm_up()
    for name in args.presets:
        rows = [watch(name, seed, args.settle, args.watch, args.fish)
                for seed in range(args.seeds)]  # fmt: skip
        print(f"{name:9s}", "  ".join(f"{key} {np.mean([r[key] for r in rows]):.2f}"
                                      for key in rows[0]), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
