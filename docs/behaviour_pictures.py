"""Make the behaviour pictures in docs/images: ``python docs/behaviour_pictures.py``.

Needs matplotlib (``pip install ".[plots]"``); no window, no OpenGL. Each picture is made
from the same runs the benchmarks measure (seeded: the same picture every time):

- behaviour_mill.png: the ``mill`` preset forming from a disc of 150 fish in open water
  (1/60 s, seed 0), six moments and its milling and polarization over two minutes.
- behaviour_mill_reef.png, behaviour_mill_open_water.png: the mill in the reef and in the
  open-water level (their rocks, food and current; no leader, no sharks), the school
  started in the level's largest open disc (benchmarks/mill.py).
- behaviour_phases.png: the phase diagram of Couzin's zones (benchmarks/zones.py), and
  behaviour_phases_sheet.png: one group of each phase at the end of its run.
- behaviour_predator.png: a predator passing through a school (benchmarks/predator.py, seed
  1): the fish coloured by speed (a burst is brighter), the predator's track, the school one
  again 3 s after it rejoined, and the fastest fish and the predator's nearest fish over time.

``--only NAME ...`` makes some of them (mill, reef, open_water, phases, sheet, predator).
"""

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import esper
import matplotlib

matplotlib.use("Agg")
import matplotlib.patches as patches
import matplotlib.pyplot as plt
import matplotlib.transforms as transforms
import numpy as np
from matplotlib.axes import Axes

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import mill as mill_bench
import predator
import zones

from shoal.components import Circle, Polygon, Rect, Species
from shoal.game.level import load_level
from shoal.game.presets import preset
from shoal.game.tank import FISH, Tank
from shoal.systems import FlockConfig, install
from shoal.systems.core.store import FloatArray
from shoal.systems.metrics import milling, polarization

OUT = Path(__file__).resolve().parent / "images"
Frame = tuple[float, FloatArray, FloatArray]  # time (s), positions, velocities


def draw_fish(
    ax: Axes, pos: FloatArray, vel: FloatArray, speeds: FloatArray | None = None,
    length: float = 14.0,
) -> None:  # fmt: skip
    """Each fish as a short arrow along its heading, `length` px long: orange, or coloured by
    `speeds` where given (red at 60 px/s and below to yellow at 280 px/s)."""
    speed = np.maximum(np.hypot(vel[:, 0], vel[:, 1]), 1e-9)
    head = vel / speed[:, None] * length
    args = (pos[:, 0] - head[:, 0] / 2, pos[:, 1] - head[:, 1] / 2, head[:, 0], head[:, 1])
    style = {"angles": "xy", "scale_units": "xy", "scale": 1, "width": 0.004, "headwidth": 3,
             "headlength": 3}  # fmt: skip
    if speeds is None:
        ax.quiver(*args, color="tab:orange", **style)
    else:
        ax.quiver(*args, speeds, cmap="autumn", clim=(60, 280), **style)


def draw_rocks(
    ax: Axes,
    shapes: list[Circle | Rect | Polygon],
    offsets: Sequence[tuple[float, float]] = ((0.0, 0.0),),
) -> None:
    """The level's obstacles in grey (drawn once at each of `offsets`: a torus's copies)."""
    for (dx, dy), shape in ((o, s) for o in offsets for s in shapes):
        if isinstance(shape, Circle):
            patch: patches.Patch = patches.Circle((shape.x, shape.y), shape.radius)
        elif isinstance(shape, Rect):
            patch = patches.Rectangle(
                (shape.x - shape.width / 2, shape.y - shape.height / 2), shape.width,
                shape.height, angle=shape.angle_degrees, rotation_point="center",
            )  # fmt: skip
        else:
            patch = patches.Polygon(np.array(shape.points))
        patch.set_color("0.6")
        patch.set_transform(transforms.Affine2D().translate(dx, dy) + ax.transData)
        ax.add_patch(patch)


def frame_axes(ax: Axes, width: float, height: float, title: str) -> None:
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_facecolor("#0e3b5a")
    ax.set_title(title, fontsize=9)


def record(
    step: Callable[[], object], state: Callable[[], tuple[FloatArray, FloatArray]], dt: float,
    seconds: float, keep: set[int],
) -> tuple[list[Frame], FloatArray]:  # fmt: skip
    """Step for `seconds`; the frames at the whole seconds in `keep`, and (milling,
    polarization) once a second."""
    frames: list[Frame] = []
    series = []
    for second in range(1, round(seconds) + 1):
        for _ in range(round(1 / dt)):
            step()
        pos, vel = state()
        series.append((milling(pos, vel), polarization(vel)))
        if second in keep:
            frames.append((float(second), pos.copy(), vel.copy()))
    return frames, np.array(series)


def mill_picture() -> None:
    """behaviour_mill.png: the mill forming in open water."""
    species = preset("mill").species(Species("fish"))
    flock = install(FlockConfig(seed=0, dt=1 / 60), [species], world="pictures-mill")
    try:
        flock.scatter("fish", 150, centre=(640.0, 360.0), radius=150.0)
        frames, series = record(flock.step, lambda: (flock.positions, flock.velocities),
                                1 / 60, 120, {1, 5, 10, 20, 40, 120})  # fmt: skip
    finally:
        esper.delete_world("pictures-mill")
    fig = plt.figure(figsize=(12, 7.4))
    for k, (t, pos, vel) in enumerate(frames):
        ax = fig.add_subplot(3, 3, k + 1)
        draw_fish(ax, pos, vel)
        frame_axes(ax, 1280, 720, f"{t:.0f} s: milling {milling(pos, vel):.2f}, "
                                  f"polarization {polarization(vel):.2f}")  # fmt: skip
    ax = fig.add_subplot(3, 1, 3)
    seconds = np.arange(1, len(series) + 1)
    ax.plot(seconds, series[:, 0], label="milling", color="tab:red")
    ax.plot(seconds, series[:, 1], label="polarization", color="tab:blue")
    ax.axhline(0.6, color="tab:red", lw=0.6, ls="--")
    ax.axhline(0.3, color="tab:blue", lw=0.6, ls="--")
    ax.set_xlabel("simulated seconds (dashed: the issue's lines, milling ≥ 0.6, "
                  "polarization ≤ 0.3)")  # fmt: skip
    ax.set_ylim(0, 1)
    ax.legend(loc="center right", fontsize=8)
    fig.suptitle("The mill preset: 150 fish from a disc in open water, 1/60 s steps, seed 0")
    fig.tight_layout()
    fig.savefig(OUT / "behaviour_mill.png", dpi=90)
    plt.close(fig)


def level_picture(name: str, title: str) -> None:
    """behaviour_mill_{name}.png: the mill in a level, started in its largest open disc."""
    level = load_level(name)
    x, y, radius = mill_bench.room(level)
    spawn = replace(level.spawns[0], x=x, y=y, count=150, radius=min(150.0, radius - 40.0))
    level = replace(level, sharks=(), spawns=(spawn,))
    tank = Tank(level, seed=0, fish=150, species=preset("mill").species(FISH), leader=False)
    wrap = (level.width, level.height) if level.boundary == "wrap" else None

    def step() -> None:
        tank.step()
        tank.status = "playing"

    try:
        frames, _ = record(step, lambda: (tank.flock.positions, tank.flock.velocities),
                           1 / 60, 90, {10, 45, 90})  # fmt: skip
        food = np.array([(f[1], f[2]) for f in tank.food()]).reshape(-1, 2)
    finally:
        tank.close()
    # A torus is drawn with the disc in the middle (its rocks copied across the edges).
    size = np.array([level.width, level.height])
    shift = size / 2 - (x, y) if wrap else np.zeros(2)
    offsets = [(shift[0] + i * size[0], shift[1] + j * size[1])
               for i in (-1, 0, 1) for j in (-1, 0, 1)] if wrap else [(0.0, 0.0)]  # fmt: skip
    fig, axes = plt.subplots(1, 3, figsize=(15, 3.4 * level.height / 720))
    for ax, (t, pos, vel) in zip(axes, frames, strict=True):
        draw_rocks(ax, [o.shape for o in level.obstacles], offsets)
        ax.add_patch(patches.Circle(np.add((x, y), shift), radius, fill=False, color="w", lw=0.6,
                                    ls=":"))  # fmt: skip
        seen = (food + shift) % size if wrap else food
        ax.scatter(seen[:, 0], seen[:, 1], s=12, color="tab:green")
        draw_fish(ax, (pos + shift) % size if wrap else pos, vel)
        caption = f"{t:.0f} s: milling {milling(pos, vel, wrap):.2f}, "
        frame_axes(ax, level.width, level.height, f"{caption}polarization {polarization(vel):.2f}")
    fig.suptitle(f"The mill in {title} (seed 0): started in the largest open disc (dotted)",
                 fontsize=10)  # fmt: skip
    fig.tight_layout()
    fig.savefig(OUT / f"behaviour_mill_{name}.png", dpi=90)
    plt.close(fig)


def reef_picture() -> None:
    """behaviour_mill_reef.png: the mill in the reef."""
    level_picture("reef", "the reef")


def open_water_picture() -> None:
    """behaviour_mill_open_water.png: the mill in the open-water level, in its current."""
    level_picture(
        "open_water",
        "the open-water level, a torus drawn round the disc, its current of 15 px/s² to the right",
    )


def phases_picture() -> None:
    """behaviour_phases.png: the sweep of benchmarks/zones.py (4 seeds)."""
    widths = [0, 0.5, 1, 2, 3, 4, 6, 8, 9, 9.5, 10, 11, 12, 14]
    rows = [(w, seed, *zones.run(zones.Couzin(w), seed, 150.0, 50.0))
            for w in widths for seed in range(4)]  # fmt: skip
    zones.plot(rows, str(OUT / "behaviour_phases.png"), 14.0)


def sheet_picture() -> None:
    """behaviour_phases_sheet.png: one group of each phase (`zones.EXAMPLES`)."""
    fig, axes = plt.subplots(1, 4, figsize=(14, 3.8))
    for ax, (width, seed, name) in zip(axes, zones.EXAMPLES, strict=True):
        model = zones.Couzin(width)
        config = FlockConfig(zones.WORLD, zones.WORLD, "contain", seed=seed, dt=zones.TAU)
        flock = install(config, [model.species()], world="pictures-z")
        try:
            flock.scatter("fish", 100, centre=(zones.WORLD / 2,) * 2, radius=60.0)
            for _ in range(1500):
                flock.step()
            pos, vel = flock.positions.copy(), flock.velocities.copy()
        finally:
            esper.delete_world("pictures-z")
        centre = pos.mean(axis=0)
        draw_fish(ax, pos - centre + 200, vel, length=16.0)
        frame_axes(ax, 400, 400, f"{name}: Δr_o = {width:g} L\npolarization "
                   f"{polarization(vel):.2f}, milling {milling(pos, vel):.2f}")  # fmt: skip
    fig.suptitle("Couzin's zones at 150 s (a 400 px window on the group; L = 10 px)")
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    fig.savefig(OUT / "behaviour_phases_sheet.png", dpi=90)
    plt.close(fig)


def predator_picture() -> None:
    """behaviour_predator.png: a predator passing through a school."""
    frames: list[tuple[float, FloatArray, FloatArray, FloatArray | None]] = []
    series: list[tuple[float, float, float]] = []

    def watch(t: float, pos: FloatArray, vel: FloatArray, shark: FloatArray | None) -> None:
        speed = np.hypot(vel[:, 0], vel[:, 1])
        near = np.nan if shark is None else float(np.hypot(*predator._offset(pos, shark).T).min())
        series.append((t, float(speed.max()), near))
        if round(t / predator.DT) % 30 == 0:
            frames.append((t, pos.copy(), vel.copy(), None if shark is None else shark.copy()))

    result = predator.predator_pass(1, after=10.0, watch=watch, linger=3.0)
    data = np.array(series)
    contact = int(np.nanargmin(data[:, 2]))
    picks = [0, contact - 30, contact, contact + 30, contact + 90, len(series) - 1]
    chosen = [min(frames, key=lambda f: abs(f[0] - data[k, 0])) for k in picks]
    fig = plt.figure(figsize=(13, 8))
    half = 400.0  # px: each panel is 800 px square, centred on the school
    for k, (t, pos, vel, shark) in enumerate(chosen):
        ax = fig.add_subplot(3, 3, k + 1)
        centre = predator._centre(pos)
        rel = predator._offset(pos, centre) + half
        draw_fish(ax, rel, vel, np.hypot(vel[:, 0], vel[:, 1]), length=18.0)
        if shark is not None:
            at = predator._offset(shark, centre) + half
            ax.plot(*at, marker="o", color="tab:red", ms=7)
            ax.add_patch(patches.Circle(at, 120.0, fill=False, color="tab:red", lw=0.6))
        gone = "" if shark is not None else ", the predator gone"
        if k == len(picks) - 1:
            gone = f", one school again ({result.rejoin:.0f} s after it left, 3 s ago)"
        frame_axes(ax, 2 * half, 2 * half, f"{t:.1f} s{gone}")
    ax = fig.add_subplot(3, 1, 3)
    ax.plot(data[:, 0], data[:, 1], color="tab:orange", label="fastest fish, px/s")
    ax.plot(data[:, 0], data[:, 2], color="tab:red", label="predator's nearest fish, px")
    ax.axhline(result.bound, color="tab:orange", ls="--", lw=0.6)
    ax.axhline(result.cruise, color="tab:orange", ls=":", lw=0.6)
    ax.set_xlabel(
        f"seconds since the predator set off (dashed: the burst bound "
        f"{result.bound:.0f} px/s; dotted: cruise {result.cruise:.0f} px/s)"
    )
    ax.legend(fontsize=8, loc="upper right")
    fig.suptitle(f"A predator (red, fear radius circled) swims through a school at 150 px/s "
                 f"(seed 1; fish coloured by speed):\nthe fastest fish {result.peak:.0f} px/s, "
                 f"{result.burst_share:.0%} burst; every one of {result.lane_fish} fish in "
                 "its way went round it; the halves rejoin", fontsize=9)  # fmt: skip
    fig.tight_layout()
    fig.savefig(OUT / "behaviour_predator.png", dpi=90)
    plt.close(fig)


PICTURES = {"mill": mill_picture, "reef": reef_picture, "open_water": open_water_picture,
            "phases": phases_picture, "sheet": sheet_picture,
            "predator": predator_picture}  # fmt: skip


def main() -> None:
    """Make the pictures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=list(PICTURES), choices=list(PICTURES))
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    for name in args.only:
        PICTURES[name]()
        print("made", name, flush=True)


if __name__ == "__main__":
    main()
