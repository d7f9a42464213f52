"""Does the mill preset mill (issue 18)? Milling and polarization of its school over time.

Run: ``python benchmarks/mill.py`` (``--help`` for the options). Open water: `--fish` fish
from a disc in the middle of a 1280 × 720 tank (no leader, no obstacles), at fixed steps of
1/30, 1/60 and 1/120 s, for each seed. Levels: the game's tank with the mill preset, no
leader and no sharks (a shark scatters any school: that is the predator response), at 1/60
s. Each line gives the worst milling and polarization sampled once a simulated second over
the last `--window` seconds of a `--seconds` run, and their means: a mill holds when the
worst milling is at least 0.6 and the worst polarization at most 0.3.
"""

import argparse
from collections.abc import Callable
from dataclasses import replace

import esper
import numpy as np

from shoal.components import Species
from shoal.game.level import level_names, load_level
from shoal.game.presets import preset
from shoal.game.tank import FISH, Tank
from shoal.systems import FlockConfig, install, warm_up
from shoal.systems.core.store import FloatArray
from shoal.systems.metrics import milling, polarization

STEPS = (1 / 30, 1 / 60, 1 / 120)
MILLING, POLARIZATION = 0.6, 0.3


def open_water(seed: int, dt: float, fish: int, seconds: float) -> list[tuple[float, float]]:
    """(milling, polarization) once a simulated second, in an open 1280 × 720 tank."""
    species = preset("mill").species(Species("fish"))
    world = f"mill-{seed}-{dt}"
    flock = install(FlockConfig(seed=seed, dt=dt), [species], world=world)
    try:
        flock.scatter("fish", fish, centre=(640.0, 360.0), radius=150.0)
        return sampled(flock.step, lambda: (flock.positions, flock.velocities), dt, seconds)
    finally:
        esper.delete_world(world)


def in_level(name: str, seed: int, fish: int, seconds: float) -> list[tuple[float, float]]:
    """(milling, polarization) of the fish once a simulated second, in a level's tank."""
    level = replace(load_level(name), sharks=())
    tank = Tank(level, seed=seed, fish=fish, species=preset("mill").species(FISH), leader=False)
    flock = tank.flock

    def step() -> None:
        tank.step()
        tank.status = "playing"  # keep going once the level is decided

    try:
        return sampled(step, lambda: (flock.positions, flock.velocities), 1 / 60, seconds)
    finally:
        tank.close()


def sampled(
    step: Callable[[], object], state: Callable[[], tuple[FloatArray, FloatArray]], dt: float,
    seconds: float,
) -> list[tuple[float, float]]:  # fmt: skip
    """Step for `seconds`, measuring `state()` (positions, velocities) once a simulated
    second."""
    samples = []
    for _ in range(round(seconds)):
        for _ in range(round(1 / dt)):
            step()
        pos, vel = state()
        samples.append((milling(pos, vel), polarization(vel)))
    return samples


def report(label: str, samples: list[tuple[float, float]], window: int) -> bool:
    """Print the worst and mean milling and polarization over the window; True if it held."""
    last = np.array(samples[-window:])
    held = bool(last[:, 0].min() >= MILLING and last[:, 1].max() <= POLARIZATION)
    print(f"{label:28s} milling min {last[:, 0].min():.2f} mean {last[:, 0].mean():.2f}   "
          f"polarization max {last[:, 1].max():.2f} mean {last[:, 1].mean():.2f}   "
          f"{'mill' if held else 'NO MILL'}", flush=True)  # fmt: skip
    return held


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fish", type=int, default=150)
    parser.add_argument("--seeds", type=int, default=4, help="seeds 0 .. N-1")
    parser.add_argument("--seconds", type=float, default=100.0)
    parser.add_argument("--window", type=int, default=60, help="seconds at the end")
    parser.add_argument("--levels", nargs="*", default=None, help="default: every level")
    args = parser.parse_args()
    warm_up()
    held = total = 0
    for dt in STEPS:
        for seed in range(args.seeds):
            samples = open_water(seed, dt, args.fish, args.seconds)
            held += report(f"open water 1/{1 / dt:.0f} s seed {seed}", samples, args.window)
            total += 1
    for name in level_names() if args.levels is None else args.levels:
        for seed in range(args.seeds):
            samples = in_level(name, seed, args.fish, args.seconds)
            held += report(f"{name} seed {seed}", samples, args.window)
            total += 1
    print(f"held in {held} of {total} runs")


if __name__ == "__main__":
    main()
