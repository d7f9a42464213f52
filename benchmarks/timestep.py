"""Behaviour in simulated seconds (issue 18): each preset's signature at fixed steps of 1/30,
1/60 and 1/120 s.

Run: ``python benchmarks/timestep.py`` (``--help`` for the options). Each preset runs as in
tests/test_presets.py (150 fish from a disc in the middle of a 1280 × 720 tank, no leader)
for `--seconds` simulated seconds at each step, for seeds 0 .. N-1; the table gives the mean
over the seeds (and the last 10 s, once a second) of polarization, milling and the mean
nearest-neighbour distance, and for
each the largest difference from the 1/60 s value (relative; absolute where the 1/60 s
value is under 0.2, as for the polarization of a mill, where a relative share means nothing).
"""

import argparse

import esper
import numpy as np

from shoal.components import Species
from shoal.game.presets import PRESETS, preset
from shoal.systems import FlockConfig, install, warm_up
from shoal.systems.metrics import mean_nn_distance, milling, polarization

STEPS = (1 / 30, 1 / 60, 1 / 120)
MEASURES = ("polarization", "milling", "nn")
SMALL = 0.2


def signature(name: str, dt: float, seed: int, seconds: float, tail: int = 10) -> dict[str, float]:
    """One preset's run at step `dt`: its measures averaged over the last `tail` seconds
    (once a second), as tests/test_timestep.py takes them: one sample varies by more than
    10 % from second to second."""
    species = preset(name).species(Species("fish"))
    world = f"timestep-{name}-{dt}-{seed}"
    flock = install(FlockConfig(seed=seed, dt=dt), [species], world=world)
    try:
        flock.scatter("fish", 150, centre=(640.0, 360.0), radius=150.0)
        samples = []
        for second in range(round(seconds)):
            for _ in range(round(1 / dt)):
                flock.step()
            if second >= seconds - tail:
                pos, vel = flock.positions, flock.velocities
                samples.append((polarization(vel), milling(pos, vel), mean_nn_distance(pos)))
        return dict(zip(MEASURES, (float(v) for v in np.mean(samples, axis=0)), strict=True))
    finally:
        esper.delete_world(world)


def difference(value: float, reference: float) -> float:
    """Relative difference, or absolute where the reference is small."""
    if abs(reference) < SMALL:
        return abs(value - reference)
    return abs(value - reference) / abs(reference)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--presets", nargs="*", default=sorted(PRESETS))
    args = parser.parse_args()
    warm_up()
    print("preset    measure       1/30 s   1/60 s   1/120 s  largest difference")
    for name in args.presets:
        means = {
            dt: {m: float(np.mean([signature(name, dt, seed, args.seconds)[m]
                                   for seed in range(args.seeds)])) for m in MEASURES}
            for dt in STEPS
        }  # fmt: skip
        for m in MEASURES:
            row = [means[dt][m] for dt in STEPS]
            worst = max(difference(v, row[1]) for v in row)
            kind = "abs" if abs(row[1]) < SMALL else "rel"
            print(f"{name:9s} {m:12s} " + "".join(f"{v:8.3f} " for v in row)
                  + f" {worst:.3f} {kind}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
