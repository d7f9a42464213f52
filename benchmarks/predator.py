"""A predator passes through a school (issue 18, item 4): flash expansion, vacuole, fountain
and rejoining, measured.

Run: ``python benchmarks/predator.py`` (``--help`` for the options). The game's fish with
the ``school`` preset (`--fish` of them) settle as a school in an open torus (no walls to
turn them); then a predator (a host's `Predator` entity that only scares: catch radius 0)
swims at `--speed` px/s straight at the school's centre, from 500 px ahead of it against
its heading, through it and on for 500 px past it, and is taken away. Per seed:

- burst: the fastest fish during the pass against the school's cruise speed before it, and
  the bound (max speed × burst factor); the share of fish that burst above max speed;
- expansion: the school's spread (mean distance to the nearest fish) at its widest in the
  2 s after the predator first came within a fish's fear radius, against before;
- vacuole: the distance from the predator to its nearest fish while it is inside the
  school (its nearest fish within two fear radii): the median and the least;
- fountain: of the fish ahead of the predator in its lane (within 40 px of its path) as it
  came within 300 px of the school, the share that ended behind it (they went round it,
  not ahead of it);
- rejoin: seconds from the predator's leaving until the school is one group again (95 % of
  the fish linked within `LINK` px: a lone straggler does not keep a school apart), or
  "inf" if not within `--after` s.

tests/test_predator_pass.py asserts these for one seed.
"""

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import esper
import numpy as np

from shoal.components import Position, Predator, Velocity
from shoal.game.presets import preset
from shoal.game.tank import FISH
from shoal.systems import FlockConfig, install, warm_up
from shoal.systems.core.store import FloatArray
from shoal.systems.metrics import groups, mean_nn_distance

WIDTH, HEIGHT = 3000.0, 2000.0  # a torus: the school meets no wall
DT = 1 / 60
LINK = 60.0  # px: two and a half body lengths
GATHERED = 0.95  # share of the fish in the largest group when the school is one again
Watch = Callable[[float, FloatArray, FloatArray, FloatArray | None], None]
"""Called every step with the time since the predator set off (s), the fish's positions and
velocities and the predator's position (None once it has left)."""
LANE = 40.0  # px either side of the predator's path
RUN_UP = 500.0  # px ahead of the school's centre where the predator starts, and past it


@dataclass(frozen=True, slots=True)
class Pass:
    """One pass's figures (see the module docstring)."""

    cruise: float
    peak: float
    bound: float
    burst_share: float
    spread_before: float
    spread_peak: float
    vacuole_median: float
    vacuole_least: float
    fountain: float
    lane_fish: int
    rejoin: float  # s, inf: never


def _offset(a: FloatArray, b: FloatArray) -> FloatArray:
    """a - b on the torus, the short way."""
    d = a - b
    offset: FloatArray = d - np.array([WIDTH, HEIGHT]) * np.round(d / np.array([WIDTH, HEIGHT]))
    return offset


def _centre(pos: FloatArray) -> FloatArray:
    period = np.array([WIDTH, HEIGHT])
    angle = pos / period * 2 * np.pi
    mean = np.arctan2(np.sin(angle).mean(0), np.cos(angle).mean(0))
    centre: FloatArray = mean / (2 * np.pi) * period
    return centre


def _gathered(pos: FloatArray) -> bool:
    """Whether the school is one again: its largest group (fish linked within `LINK`) holds
    at least `GATHERED` of them (a lone straggler does not keep a school apart)."""
    labels = groups(pos, LINK, (WIDTH, HEIGHT))
    return bool(np.bincount(labels).max() >= GATHERED * len(pos))


def predator_pass(
    seed: int, fish: int = 150, speed: float = 150.0, settle: float = 20.0, after: float = 20.0,
    burst: float | None = None, watch: Watch | None = None, linger: float = 0.0,
) -> Pass:  # fmt: skip
    """Run one pass and measure it (`burst`: another burst factor for the fish; `watch`:
    called every step, for pictures, and for `linger` s more once the school is one again)."""
    species = preset("school").species(FISH)
    if burst is not None:
        species = replace(species, burst_factor=burst)
    wrap = (WIDTH, HEIGHT)
    world = f"predator-pass-{seed}"
    flock = install(FlockConfig(WIDTH, HEIGHT, "wrap", seed=seed, dt=DT), [species], world=world)
    try:
        flock.scatter("fish", fish, centre=(WIDTH / 2, HEIGHT / 2), radius=150.0)
        for _ in range(round(settle / DT)):
            flock.step()
        vel = flock.velocities
        cruise = float(np.median(np.hypot(vel[:, 0], vel[:, 1])))
        spread_before = mean_nn_distance(flock.positions, wrap)
        heading = vel.mean(axis=0) / np.linalg.norm(vel.mean(axis=0))
        centre = _centre(flock.positions)
        # Head-on: from RUN_UP px ahead of the school (it swims towards the predator).
        start = centre + heading * RUN_UP
        way = -heading
        with flock.in_world():
            shark = esper.create_entity(Position(*start), Velocity(*(way * speed)),
                                        Predator(("fish",), catch_radius=0.0))  # fmt: skip
        peak, burst_fish = cruise, np.zeros(fish, bool)
        spread_peak, scared_at = spread_before, -1.0
        vacuole: list[float] = []
        lane: FloatArray | None = None
        t = 0.0
        here = start
        # Until it is RUN_UP px past the school's centre (20 s at most).
        while _offset(here, _centre(flock.positions)) @ way < RUN_UP and t < 20.0:
            here = start + way * speed * t
            with flock.in_world():
                p = esper.component_for_entity(shark, Position)
                p.x, p.y = float(here[0] % WIDTH), float(here[1] % HEIGHT)
            flock.step()
            t += DT
            pos, vel = flock.positions, flock.velocities
            if watch is not None:
                watch(t, pos, vel, here)
            rel = _offset(pos, here)
            dist = np.hypot(rel[:, 0], rel[:, 1])
            speeds = np.hypot(vel[:, 0], vel[:, 1])
            peak = max(peak, float(speeds.max()))
            burst_fish |= speeds > species.max_speed * 1.01
            ahead = rel @ way
            across = rel @ np.array([-way[1], way[0]])
            if lane is None and ahead.max() > 0 and np.min(dist) < 300.0:
                lane = (ahead > 0) & (np.abs(across) < LANE)
            if dist.min() < species.fear_radius and scared_at < 0:
                scared_at = t
            if scared_at >= 0 and t - scared_at <= 2.0:
                spread_peak = max(spread_peak, mean_nn_distance(pos, wrap))
            if dist.min() < 2 * species.fear_radius and np.any(ahead > 0) and np.any(ahead < 0):
                vacuole.append(float(dist.min()))
        final_ahead = _offset(flock.positions, start + way * speed * t) @ way
        chosen = lane if lane is not None else np.zeros(fish, bool)
        fountain = float(np.mean(final_ahead[chosen] < 0)) if chosen.any() else math.nan
        with flock.in_world():
            esper.delete_entity(shark, immediate=True)
        rejoin = math.inf
        for k in range(round(after / DT)):
            flock.step()
            if watch is not None:
                watch(t + (k + 1) * DT, flock.positions, flock.velocities, None)
            if k % 6 == 0 and _gathered(flock.positions):
                rejoin = (k + 1) * DT
                break
        if watch is not None:
            for k in range(round(linger / DT)):
                flock.step()
                watch(t + rejoin + (k + 1) * DT, flock.positions, flock.velocities, None)
        return Pass(
            cruise, peak, species.max_speed * species.burst_factor, float(burst_fish.mean()),
            spread_before, spread_peak,
            float(np.median(vacuole)) if vacuole else math.nan,
            min(vacuole) if vacuole else math.nan, fountain, int(chosen.sum()), rejoin,
        )  # fmt: skip
    finally:
        esper.delete_world(world)


def main() -> None:
    """Print one line per seed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--fish", type=int, default=150)
    parser.add_argument("--speed", type=float, default=150.0, help="the predator's, px/s")
    parser.add_argument("--after", type=float, default=20.0, help="s to wait for rejoining")
    parser.add_argument("--burst", type=float, default=None, help="override burst_factor")
    args = parser.parse_args()
    warm_up()
    for seed in range(args.seeds):
        r = predator_pass(seed, args.fish, args.speed, after=args.after, burst=args.burst)
        print(f"seed {seed}: cruise {r.cruise:.0f} px/s, fastest {r.peak:.0f} (bound "
              f"{r.bound:.0f}), burst {r.burst_share:.0%} of the fish; spread "
              f"{r.spread_before:.1f} -> {r.spread_peak:.1f} px; vacuole median "
              f"{r.vacuole_median:.0f} px, least {r.vacuole_least:.0f}; fountain "
              f"{r.fountain:.0%} of {r.lane_fish} lane fish; rejoined in "
              f"{r.rejoin:.1f} s", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
