"""The game's frame cost: one fixed step of a level's tank plus the sprite feed, per frame.

Run: ``python benchmarks/game_frames.py`` (headless; ``--help`` for the options). For each
level × preset × fish count it builds the tank as the game does (the autopilot leads, so the
school moves as in play), runs some warm-up frames, then times `frames` frames of
``tank.step(DT)`` (every stage, the render stage's record of the step included) followed by
``render.frame(0.5)`` (the interpolated positions and angles written into the SpriteList),
and prints the median and the 90th percentile in ms. Drawing itself (the GPU) is not
included: it depends on the display, not on the flock. The kernels compile on the first
run (about a minute) and are cached afterwards.

``--markdown`` prints, after the measurements, the README's table: one row per level, one
column per preset, each cell the medians at every fish count ("1.8 / 3.1 / 4.8").
"""

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("ARCADE_HEADLESS", "1")  # before arcade is imported

import arcade
import esper

from shoal.game.level import level_names, load_level
from shoal.game.presets import PRESETS, preset
from shoal.game.tank import DT, FISH, Tank
from shoal.game.tank_view import LOOKS
from shoal.systems import RENDER_PRIORITY, warm_up
from shoal.systems.flock.ecs import in_world
from shoal.systems.render import RenderSystem

FISH_COUNTS = (500, 1000, 2000)
BUDGET_MS = 8.0  # issue 16: simulation + sprite feed at 2,000 fish, on the 2-core machine


def frame_times(level_name: str, preset_name: str, fish: int, warm: int, frames: int
                ) -> list[float]:  # fmt: skip
    """Milliseconds of each measured frame (step + sprite feed) of one tank."""
    species = FISH if preset_name == "none" else preset(preset_name).species(FISH)
    tank = Tank(
        load_level(level_name), seed=1, fish=fish, species=species, autopilot=True, free=True
    )
    try:
        with in_world(tank.world):
            render = RenderSystem(tank.flock, looks=LOOKS)
            esper.add_processor(render, RENDER_PRIORITY)
        render.update()
        times = []
        for k in range(warm + frames):
            started = time.perf_counter()
            tank.step(DT)
            render.frame(0.5)
            if k >= warm:
                times.append((time.perf_counter() - started) * 1e3)
        return times
    finally:
        tank.close()


def markdown(medians: dict[tuple[str, str, int], float], levels: list[str],
             presets: list[str], fish: list[int]) -> str:  # fmt: skip
    """The README's table of `medians` (ms by level, preset and fish count)."""
    names = [("none (the game's fish)" if p == "none" else p) for p in presets]
    counts = " / ".join(f"{n:,}" for n in fish)
    lines = [f"| level ({counts} fish) | " + " | ".join(names) + " |",
             "|---" * (len(presets) + 1) + "|"]  # fmt: skip
    for level in levels:
        cells = [" / ".join(f"{medians[level, p, n]:.1f}" for n in fish) for p in presets]
        lines.append(f"| {level.replace('_', ' ')} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    """Parse the options, print one row per level × preset and one column per fish count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=level_names(), metavar="NAME")
    parser.add_argument("--presets", nargs="+", default=["none", *PRESETS], metavar="NAME",
                        help="preset names, or none for the game's own fish")  # fmt: skip
    parser.add_argument("--fish", nargs="+", type=int, default=list(FISH_COUNTS))
    parser.add_argument("--warm", type=int, default=30, help="frames before timing")
    parser.add_argument("--frames", type=int, default=60, help="frames timed")
    parser.add_argument("--markdown", action="store_true",
                        help="then print the README's table (medians, ms)")  # fmt: skip
    args = parser.parse_args()
    window = arcade.Window(320, 240, "game frames", visible=False)  # the SpriteList's context
    print(f"kernels ready in {warm_up():.1f} s; median (p90) ms per frame, "
          f"{args.frames} frames after {args.warm}")  # fmt: skip
    header = f"| {'level':<11} | {'preset':<8} |" + "".join(
        f" {n:>6,} fish     |" for n in args.fish)  # fmt: skip
    print(header)
    print("|" + "|".join("-" * (len(cell)) for cell in header.split("|")[1:-1]) + "|")
    worst = 0.0
    medians: dict[tuple[str, str, int], float] = {}
    for level_name in args.levels:
        for preset_name in args.presets:
            cells = []
            for fish in args.fish:
                times = frame_times(level_name, preset_name, fish, args.warm, args.frames)
                median = statistics.median(times)
                medians[level_name, preset_name, fish] = median
                p90 = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else median
                cells.append(f" {median:7.1f} ({p90:5.1f}) |")
                if fish == max(args.fish):
                    worst = max(worst, median)
            print(f"| {level_name:<11} | {preset_name:<8} |" + "".join(cells), flush=True)
    print(f"worst median at {max(args.fish):,} fish: {worst:.1f} ms (budget {BUDGET_MS} ms)")
    if args.markdown:
        print(f"\n{markdown(medians, args.levels, args.presets, args.fish)}")
    window.close()
    sys.exit(0)


if __name__ == "__main__":
    main()
