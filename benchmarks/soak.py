"""Soak: play the fish tank for a long simulated time with churn; is anything growing?

Run: ``python benchmarks/soak.py --minutes 30`` (about 10 minutes of wall time here)

Plays the game's view (`TankView`) in a hidden headless window on the fixed 60 Hz step,
drawing every step, with the churn a long session brings: the mouse moves every 2 s, food is
dropped every second, every 5 s a few fish are removed and as many spawned, every 20 s the
school switches preset, and every 3 simulated minutes (or when a level ends) the next level
starts, closing the old tank and its esper world. Seeded: the same run each time.

Prints one row per simulated minute: resident memory (RSS), Python heap objects, esper
worlds and entities, fish, and the mean cost of a step (simulation) and of a frame (draw);
then a summary (`--json` for JSON only). Memory is compared from the end of the first
minute (kernels, textures and caches loaded) to the end of the run.
"""

import argparse
import dataclasses
import gc
import json
import os
import statistics
import time
from dataclasses import asdict, dataclass

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import esper
import numpy as np

from shoal.game.level import Level, level_names, load_level
from shoal.game.presets import PRESETS
from shoal.game.tank import DT, FISH, Tank
from shoal.game.tank_view import TankView
from shoal.systems import warm_up

STEPS_PER_MINUTE = round(60 / DT)
LEVEL_MINUTES = 3


@dataclass
class Minute:
    """What one simulated minute looked like at its end."""

    minute: int
    level: str
    rss_mb: float
    objects: int
    worlds: int
    entities: int
    fish: int
    step_ms: float
    draw_ms: float


def rss_mb() -> float:
    """Resident memory of this process (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


class Soak:
    """The view, the churn, and the minute-by-minute records."""

    def __init__(self, seed: int) -> None:
        self.window = arcade.Window(640, 360, "shoal soak", visible=False)
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.levels = level_names()
        self.level_index = 0
        self.view = TankView(load_level(self.levels[0]), self.make_tank)
        self.window.show_view(self.view)
        self.level_steps = 0

    def make_tank(self, level: Level) -> Tank:
        self.seed += 1
        return Tank(level, seed=self.seed)

    def step(self, k: int) -> tuple[float, float]:
        """Churn, one fixed step and one frame; returns their seconds (step, draw)."""
        self.churn(k)
        started = time.perf_counter()
        self.view.step()
        stepped = time.perf_counter()
        self.view.on_draw()
        self.window.flip()  # as arcade.run does: also frees the OpenGL objects let go of
        drawn = time.perf_counter()
        self.level_steps += 1
        return stepped - started, drawn - stepped

    def churn(self, k: int) -> None:
        view, rng = self.view, self.rng
        width, height = self.window.width, self.window.height
        if k % 120 == 0:
            view.on_mouse_motion(int(rng.integers(width)), int(rng.integers(height)), 0, 0)
        if k % 60 == 30:
            view.on_mouse_press(int(rng.integers(width)), int(rng.integers(height)), 1, 0)
        if k % 300 == 150:
            self.replace_some_fish(5)
        if k % 1200 == 600:
            name = str(rng.choice(sorted(PRESETS)))
            changes = dataclasses.asdict(PRESETS[name].species(FISH))
            changes.pop("name")
            view.tank.flock.tune("fish", **changes)
        over = view.tank.status != "playing"
        if over or self.level_steps >= LEVEL_MINUTES * STEPS_PER_MINUTE:
            self.level_index += 1
            view.start(load_level(self.levels[self.level_index % len(self.levels)]))
            self.level_steps = 0

    def replace_some_fish(self, count: int) -> None:
        flock = self.view.tank.flock
        fish = flock.entities[flock.store.species == flock.species.index("fish")]
        if len(fish):
            flock.despawn(self.rng.choice(fish, min(count, len(fish)), replace=False))
        centre = (flock.config.width / 2, flock.config.height / 2)
        flock.scatter("fish", count, centre=centre, radius=min(centre) / 2)

    def record(self, minute: int, steps: list[float], draws: list[float]) -> Minute:
        gc.collect()
        worlds = esper.list_worlds()
        with self.view.tank.flock.in_world():
            entities = len(esper._entities)
        return Minute(
            minute=minute,
            level=self.view.level.name,
            rss_mb=round(rss_mb(), 1),
            objects=len(gc.get_objects()),
            worlds=len(worlds),
            entities=entities,
            fish=self.view.tank.fish,
            step_ms=round(1e3 * statistics.fmean(steps), 3),
            draw_ms=round(1e3 * statistics.fmean(draws), 3),
        )


def run(minutes: int, seed: int, quiet: bool) -> dict[str, object]:
    warm_up()
    soak = Soak(seed)
    start = soak.record(0, [0.0], [0.0])
    records = [start]
    if not quiet:
        print(" | ".join(Minute.__dataclass_fields__))
        print(" | ".join(str(v) for v in asdict(start).values()))
    k = 0
    for minute in range(1, minutes + 1):
        steps, draws = [], []
        for _ in range(STEPS_PER_MINUTE):
            step, draw = soak.step(k)
            steps.append(step)
            draws.append(draw)
            k += 1
        records.append(soak.record(minute, steps, draws))
        if not quiet:
            print(" | ".join(str(v) for v in asdict(records[-1]).values()), flush=True)
    levels = soak.level_index + 1
    soak.view.tank.close()
    soak.window.close()
    return {**summary(records), "levels_played": levels}


def summary(records: list[Minute]) -> dict[str, object]:
    """Memory and step cost at the end of the first minute and at the end of the run."""
    first, last = records[1], records[-1]
    return {
        "simulated_minutes": last.minute,
        "steps": last.minute * STEPS_PER_MINUTE,
        "rss_mb_at_start": records[0].rss_mb,
        "rss_mb_after_minute_1": first.rss_mb,
        "rss_mb_at_end": last.rss_mb,
        "rss_mb_peak": max(r.rss_mb for r in records),
        "objects_after_minute_1": first.objects,
        "objects_at_end": last.objects,
        "worlds_max": max(r.worlds for r in records),
        "entities_max": max(r.entities for r in records),
        "step_ms_minute_1": first.step_ms,
        "step_ms_last_minute": last.step_ms,
        "step_ms_slowest_minute": max(r.step_ms for r in records[1:]),
        "draw_ms_minute_1": first.draw_ms,
        "draw_ms_last_minute": last.draw_ms,
        "minutes": [asdict(r) for r in records],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=30, help="simulated minutes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print only the JSON summary")
    options = parser.parse_args()
    if options.minutes < 1:
        parser.error(f"--minutes {options.minutes}: must be at least 1")
    result = run(options.minutes, options.seed, options.json)
    if options.json:
        print(json.dumps(result))
    else:
        result.pop("minutes")
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
