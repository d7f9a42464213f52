"""Does the motion look natural (issue 18, item 3; issue 41)? Speeds, turn reversals,
polarization, spacing and sprite overlap of each preset's school.

Run: ``python benchmarks/natural.py`` (``--help`` for the options; ``--each`` prints every
seed). Each preset's school (`--fish` fish from a disc in the middle of a 1280 × 720 tank, no
leader) settles for `--settle` s, then is watched for `--watch` s at 60 steps a second:

- reversals: how often a fish's turn changes side, per fish per second
  (`shoal.systems.metrics.turn_reversals`: turns slower than 0.1 rad/s are straight);
- moving: the share of the fish's swimming (speed × time) that became motion: a fish that
  swims into a crowd its body cannot enter swims on the spot (near 0), a free one moves
  as fast as it swims (1);
- sampled every half second and averaged over the watch (a snapshot of 150 fish depends on
  where the school is in its turn at a wall):
  - at a limit: the share of fish whose speed is within 1 % of the species' min or max
    speed (`shoal.systems.metrics.share_at_limit`);
  - polarization: as `shoal.systems.metrics.polarization`, of all the fish and of the
    largest school (fish linked within 60 px: a flock that split into two schools is two
    aligned schools, not a disordered one); milling (`shoal.systems.metrics.milling`);
  - overlap: the share of nearest-neighbour pairs whose drawn sprites (24 × 12 px: the
    game's fish at scale 0.75, turned to their headings) intersect
    (`shoal.systems.metrics.sprite_overlap`);
  - the median and the mean nearest-neighbour distance.

The targets: at most a third at a limit, about one reversal a second or fewer, polarization
0.8 or more (below a lattice's 0.99) for a school; a baitball denser than the school (its
nearest neighbours closer), with overlap under 10 %, no direction of travel and its fish
moving. tests/test_natural.py asserts them for one seed.
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
    mean_nn_distance,
    milling,
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


SAMPLED = ("at a limit", "polarization", "school polarization", "milling", "overlap",
           "median nn", "mean nn")  # fmt: skip
"""The figures sampled every half second and averaged over the watch."""


def sample(species: Species, pos: FloatArray, vel: FloatArray) -> dict[str, float]:
    """The `SAMPLED` figures of one moment."""
    nearest = np.hypot(*(pos - pos[nearest_neighbours(pos)]).T)
    return {
        "at a limit": share_at_limit(vel, species.min_speed, species.max_speed),
        "polarization": polarization(vel),
        "school polarization": school_polarization(pos, vel),
        "milling": milling(pos, vel),
        "overlap": sprite_overlap(pos, vel, SPRITE),
        "median nn": float(np.median(nearest)),
        "mean nn": mean_nn_distance(pos),
    }


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
        headings: list[FloatArray] = []
        sampled: dict[str, list[float]] = {key: [] for key in SAMPLED}
        moved = swum = 0.0
        for k in range(round(seconds / DT)):
            before = flock.positions[np.argsort(flock.entities)]
            flock.step()
            order = np.argsort(flock.entities)  # by boid: the rows move
            pos, vel = flock.positions[order], flock.velocities[order]
            moved += float(np.hypot(*(pos - before).T).sum())
            swum += float(np.hypot(*vel.T).sum()) * DT
            headings.append(np.arctan2(vel[:, 1], vel[:, 0]))
            if k % 30 == 0:
                for key, value in sample(species, pos, vel).items():
                    sampled[key].append(value)
        return {
            "at a limit": float(np.mean(sampled["at a limit"])),
            "reversals/s": turn_reversals(np.array(headings), DT),
            **{key: float(np.mean(sampled[key])) for key in SAMPLED[1:]},
            "moving": moved / swum,
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
    parser.add_argument("--each", action="store_true", help="a line per seed too")
    args = parser.parse_args()
    warm_up()
    for name in args.presets:
        rows = []
        for seed in range(args.seeds):
            rows.append(watch(name, seed, args.settle, args.watch, args.fish))
            if args.each:
                print(f"{name:9s} seed {seed}", line(rows[-1]), flush=True)
        means = {key: float(np.mean([r[key] for r in rows])) for key in rows[0]}
        print(f"{name:9s} mean  ", line(means), flush=True)


def line(figures: dict[str, float]) -> str:
    """One run's (or the mean's) figures on one line."""
    return "  ".join(f"{key} {value:.2f}" for key, value in figures.items())


if __name__ == "__main__":
    main()
