"""Does the motion look natural (issue 18, item 3)? Speeds, turn reversals, polarization and
sprite overlap of a calm school and a baitball.

Run: ``python benchmarks/natural.py`` (``--help`` for the options). Each preset's school
(150 fish from a disc in the middle of a 1280 × 720 tank, no leader) settles for
`--settle` s, then is watched for `--watch` s at 60 steps a second:

- at a limit: the share of fish whose speed is within 1 % of the species' min or max speed;
- reversals: how often a fish's turn changes side (left to right or back), per fish per
  second, counting only turns faster than 0.1 rad/s (a straight swimmer does not reverse);
- polarization: as `shoal.systems.metrics.polarization`;
- overlap: the share of nearest-neighbour pairs whose drawn sprites (24 × 12 px: the game's
  fish at scale 0.75, turned to their headings) intersect.

The issue's targets: at most a third at a limit, about one reversal a second or fewer,
polarization 0.85-0.97 for a school, overlap under 10 % in a baitball.
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
from shoal.systems.metrics import polarization

SPRITE = (24.0, 12.0)  # FISH_SIZE (32 × 16) at the game's scale 0.75
TURNING = 0.1  # rad/s: slower turns are swimming straight


def at_limit(velocities: FloatArray, species: Species) -> float:
    speed = np.linalg.norm(velocities, axis=1)
    low = speed <= species.min_speed * 1.01
    high = speed >= species.max_speed * 0.99
    return float(np.mean(low | high))


def reversals(headings: FloatArray, dt: float) -> float:
    """Turn reversals per fish per second, from (steps, n) headings (radians)."""
    turn = np.angle(np.exp(1j * np.diff(headings, axis=0))) / dt  # rad/s, wrapped
    side = np.sign(np.where(np.abs(turn) > TURNING, turn, 0.0))
    flips = 0
    for column in side.T:  # the last side a fish turned to, ignoring straight stretches
        sides = column[column != 0]
        flips += int(np.count_nonzero(sides[1:] != sides[:-1]))
    return float(flips / headings.shape[1] / (len(headings) * dt))


def overlap(positions: FloatArray, velocities: FloatArray) -> float:
    """Share of nearest-neighbour pairs whose oriented sprites intersect (separating axes)."""
    d = positions[:, None, :] - positions[None, :, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    np.fill_diagonal(dist, np.inf)
    j = np.argmin(dist, axis=1)
    heading = velocities / np.linalg.norm(velocities, axis=1)[:, None]
    hits = [_boxes_meet(positions[i], heading[i], positions[k], heading[k])
            for i, k in enumerate(j)]  # fmt: skip
    return float(np.mean(hits))


def _boxes_meet(pa: FloatArray, ha: FloatArray, pb: FloatArray, hb: FloatArray) -> bool:
    half = np.array(SPRITE) / 2.0
    axes = [ha, np.array([-ha[1], ha[0]]), hb, np.array([-hb[1], hb[0]])]
    corners = []
    for p, h in ((pa, ha), (pb, hb)):
        side = np.array([-h[1], h[0]])
        corners.append([p + sx * half[0] * h + sy * half[1] * side
                        for sx in (-1, 1) for sy in (-1, 1)])  # fmt: skip
    for axis in axes:
        a = [float(c @ axis) for c in corners[0]]
        b = [float(c @ axis) for c in corners[1]]
        if max(a) < min(b) or max(b) < min(a):
            return False
    return True


def watch(name: str, seed: int, settle: float, seconds: float, **changes: Any) -> dict[str, float]:
    """A preset's figures (see the module docstring), with `changes` to its species."""
    species = replace(preset(name).species(Species("fish")), **changes)
    world = f"natural-{name}-{seed}"
    dt = 1 / 60
    flock = install(FlockConfig(seed=seed, dt=dt), [species], world=world)
    try:
        flock.scatter("fish", 150, centre=(640.0, 360.0), radius=150.0)
        for _ in range(round(settle / dt)):
            flock.step()
        headings, limits, polar = [], [], []
        for k in range(round(seconds / dt)):
            flock.step()
            vel = flock.velocities
            headings.append(np.arctan2(vel[:, 1], vel[:, 0]))
            if k % 30 == 0:
                limits.append(at_limit(vel, species))
                polar.append(polarization(vel))
        return {
            "at a limit": float(np.mean(limits)),
            "reversals/s": reversals(np.array(headings), dt),
            "polarization": float(np.mean(polar)),
            "overlap": overlap(flock.positions, flock.velocities),
        }
    finally:
        esper.delete_world(world)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", nargs="*", default=["school", "baitball"])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--settle", type=float, default=30.0)
    parser.add_argument("--watch", type=float, default=10.0)
    args = parser.parse_args()
    warm_up()
    for name in args.presets:
        rows = [watch(name, seed, args.settle, args.watch) for seed in range(args.seeds)]
        print(name, "  ".join(f"{key} {np.mean([r[key] for r in rows]):.2f}" for key in rows[0]))


if __name__ == "__main__":
    main()
