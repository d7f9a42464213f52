"""Does the mill preset mill (issue 18)? Milling and polarization of its school over time.

Run: ``python benchmarks/mill.py`` (``--help`` for the options). Open water: `--fish` fish
from a disc in the middle of a 1280 × 720 tank (no leader, no obstacles), at fixed steps of
1/30, 1/60 and 1/120 s, for each seed. Levels: the game's tank with the mill preset, no
leader and no sharks (a shark scatters any school: that is the predator response), its food
and current left in, at 1/60 s; the school starts in the level's largest open disc
(`shoal.systems.metrics.room.largest_open_disc`), and a level whose largest open disc is
narrower than `ROOM` has no room for a mill and is reported, not run.

Each line gives when the mill formed (the first second with milling ≥ 0.75 and polarization
≤ 0.2) and, over the `--window` seconds after that, the worst milling and polarization sampled
once a simulated second, their means and the ring's shape at the end (the nearest 5 % of
the fish from the centre, as a share of the median distance: a ring with an empty core is
well above 0): a mill holds when it formed within `--form` seconds and the worst milling of
the window is at least 0.6 and the worst polarization at most 0.3.
"""

import argparse
from collections.abc import Callable
from dataclasses import replace

import esper
import numpy as np

from shoal.components import Species
from shoal.game.level import Level, level_names, load_level
from shoal.game.presets import preset
from shoal.game.tank import FISH, Tank
from shoal.systems import FlockConfig, install, warm_up
from shoal.systems.core.store import FloatArray
from shoal.systems.metrics import milling, polarization
from shoal.systems.metrics.room import largest_open_disc
from shoal.systems.obstacles.field import compile_field

STEPS = (1 / 30, 1 / 60, 1 / 120)
MILLING, POLARIZATION = 0.6, 0.3
FORMED_MILLING, FORMED_POLARIZATION = 0.75, 0.2
"""A mill has formed once it is this clear (not at the first second over the issue's line,
which the ring, still closing, may cross back)."""
ROOM = 210.0
"""px: the open disc a mill of 150 fish needs: its ring reaches about 170 px from its centre
(the farthest 5 % of the fish, open water), plus the game's 40 px wall margin."""

State = Callable[[], tuple[FloatArray, FloatArray]]


def open_water(seed: int, dt: float, fish: int, seconds: float) -> tuple[list[float], ...]:
    """(milling, polarization, core) once a simulated second, in an open 1280 × 720 tank."""
    species = preset("mill").species(Species("fish"))
    world = f"mill-{seed}-{dt}"
    flock = install(FlockConfig(seed=seed, dt=dt), [species], world=world)
    try:
        flock.scatter("fish", fish, centre=(640.0, 360.0), radius=150.0)
        return sampled(flock.step, lambda: (flock.positions, flock.velocities), dt, seconds)
    finally:
        esper.delete_world(world)


def room(level: Level) -> tuple[float, float, float]:
    """The level's largest open disc: centre x, y and radius (px)."""
    field = compile_field([obstacle.shape for obstacle in level.obstacles])
    return largest_open_disc(field, level.width, level.height, level.boundary == "wrap")


def in_level(
    level: Level, seed: int, fish: int, seconds: float, food: bool = True
) -> tuple[list[float], ...]:
    """(milling, polarization, core) of the fish once a simulated second, in a level's tank,
    the school started in its largest open disc (`food`: False takes the level's food out)."""
    x, y, radius = room(level)
    spawn = replace(level.spawns[0], x=x, y=y, count=fish, radius=min(150.0, radius - 40.0))
    level = replace(level, sharks=(), spawns=(spawn,), food=level.food if food else ())
    tank = Tank(
        level, seed=seed, fish=fish, species=preset("mill").species(FISH), leader=False, free=True
    )
    flock = tank.flock
    wrap = (level.width, level.height) if level.boundary == "wrap" else None

    def step() -> None:
        tank.step()

    try:
        return sampled(step, lambda: (flock.positions, flock.velocities), 1 / 60, seconds, wrap)
    finally:
        tank.close()


def sampled(
    step: Callable[[], object], state: State, dt: float, seconds: float,
    wrap: tuple[float, float] | None = None,
) -> tuple[list[float], ...]:  # fmt: skip
    """Step for `seconds`, measuring `state()` (positions, velocities) once a simulated
    second: milling, polarization and the ring's core (see the module docstring)."""
    mills, polar, cores = [], [], []
    for _ in range(round(seconds)):
        for _ in range(round(1 / dt)):
            step()
        pos, vel = state()
        mills.append(milling(pos, vel, wrap))
        polar.append(polarization(vel))
        cores.append(core(pos, wrap))
    return mills, polar, cores


def core(positions: FloatArray, wrap: tuple[float, float] | None = None) -> float:
    """The distance from the school's centre of its nearest 5 % of fish, over the median
    distance (a ring with an empty core: well above 0; a disc: about 0.2)."""
    if wrap is None:
        offset = positions - positions.mean(axis=0)
    else:
        period = np.asarray(wrap)
        angle = positions / period * 2 * np.pi
        centre = np.arctan2(np.sin(angle).mean(0), np.cos(angle).mean(0)) / (2 * np.pi) * period
        offset = positions - centre
        offset -= period * np.round(offset / period)
    reach = np.hypot(offset[:, 0], offset[:, 1])
    return float(np.percentile(reach, 5) / np.median(reach))


def formed(mills: list[float], polar: list[float]) -> int | None:
    """The first second (index) with a clearly formed mill, or None."""
    for k, (m, p) in enumerate(zip(mills, polar, strict=True)):
        if m >= FORMED_MILLING and p <= FORMED_POLARIZATION:
            return k
    return None


def report(label: str, samples: tuple[list[float], ...], window: int, form: int) -> bool:
    """Print when the mill formed and how it held; True if it held."""
    mills, polar, cores = samples
    start = formed(mills, polar)
    if start is None or start > form or start + window > len(mills):
        print(f"{label:28s} NO MILL (formed at {start} s; milling at the end {mills[-1]:.2f}, "
              f"polarization {polar[-1]:.2f})", flush=True)  # fmt: skip
        return False
    m = np.array(mills[start : start + window])
    p = np.array(polar[start : start + window])
    held = bool(m.min() >= MILLING and p.max() <= POLARIZATION)
    print(f"{label:28s} formed at {start + 1:3d} s   milling min {m.min():.2f} mean {m.mean():.2f}"
          f"   polarization max {p.max():.2f} mean {p.mean():.2f}   core {cores[-1]:.2f}   "
          f"{'mill' if held else 'NO MILL'}", flush=True)  # fmt: skip
    return held


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fish", type=int, default=150)
    parser.add_argument("--seeds", type=int, default=4, help="seeds 0 .. N-1")
    parser.add_argument("--form", type=int, default=40, help="seconds it may take to form")
    parser.add_argument("--window", type=int, default=60, help="seconds it must hold")
    parser.add_argument("--levels", nargs="*", default=None, help="default: every level")
    parser.add_argument("--no-open-water", action="store_true")
    parser.add_argument("--no-food", action="store_true", help="take the levels' food out")
    args = parser.parse_args()
    seconds = args.form + args.window
    warm_up()
    held = total = 0
    for dt in () if args.no_open_water else STEPS:
        for seed in range(args.seeds):
            samples = open_water(seed, dt, args.fish, seconds)
            label = f"open water 1/{1 / dt:.0f} s seed {seed}"
            held += report(label, samples, args.window, args.form)
            total += 1
    for name in level_names() if args.levels is None else args.levels:
        level = load_level(name)
        x, y, radius = room(level)
        if radius < ROOM:
            print(f"{name:28s} no room: its largest open disc (at {x:.0f}, {y:.0f}) has a "
                  f"radius of {radius:.0f} px, under {ROOM:.0f}", flush=True)  # fmt: skip
            continue
        for seed in range(args.seeds):
            samples = in_level(level, seed, args.fish, seconds, not args.no_food)
            held += report(f"{name} seed {seed}", samples, args.window, args.form)
            total += 1
    print(f"held in {held} of {total} runs")


if __name__ == "__main__":
    main()
