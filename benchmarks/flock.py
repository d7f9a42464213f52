"""Time shoal's flocking stages.

Run: ``python benchmarks/flock.py --boids 10000 50000 --steps 100 --json``

``--full`` adds a leader swimming a circle, 20 food items, 2 sharks (a boid species that
chases the fish, which flee it) and 200 mixed obstacles (`benchmarks/scene.py`).

``--navigation compare`` times the ``--full`` scene twice, goals navigating round the
obstacles and steering straight, stepped in turn, and prints both and the difference
(``navigation_adds_ms``; two flocks drift apart, so this also holds what their shapes
cost), then navigation's own work on one flock: each step the seeking and obstacle stages
run twice on the same state, with and without navigation (``same_state_navigation_adds_ms``).
``--navigation off`` times one flock without navigation.

``--threads N`` runs numba's kernels on N threads (default: all cores). ``--ceiling`` also
runs benchmarks/ceiling.py (a minimal fused numba step doing the core job: the reference
shoal's speed is judged against) for each size, on the same threads, right after shoal, and
prints its time and the ratio; ``--ceiling-path`` runs another reference instead. ``--rounds K``
runs shoal and the reference in turn K times for each size and prints the round of the
median ratio, with every round's ratio (``ratios``): on a shared machine whose speed
drifts over a minute, one pair of runs can land on a fast and a slow spell.

``--busy`` keeps one core busy with another process all the while (a shared machine, or a
game beside a browser): a launch of numba's threads that waits for a core the system gave
to that process is what the measured choice of threads (`core/threads.py`) guards against.

``--render`` also times the render stage (recording the step, heading smoothing, and the
bulk feed of one interpolated frame into a SpriteList of a hidden headless window) and
reports ``render_ms``, the GPU draw excluded; and that draw apart, ``draw_ms``
(`SpriteList.draw` of a 1280 × 720 window until the GPU has finished: Mesa's llvmpipe, on
the CPU, on a machine with no GPU).

Builds a seeded flock in a torus world sized so that a boid has about 12 others within its
perception radius, runs 300 warm-up steps so that schools form, then times each stage of
`steps` further steps. Prints one line per flock size: JSON with `--json`, else a table row.
"""

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import esper
import numba

from shoal.components import Species
from shoal.systems import STAGES, Flock, FlockConfig, install, navigator, uninstall
from shoal.systems.core.threads import set_threads, threads
from shoal.systems.flock.processor import FlockProcessor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scene import LeaderScene

STAGE_NAMES = {
    "NeighbourSystem": "neighbours",
    "SteeringSystem": "steering",
    "SeekingSystem": "seeking",
    "ObstacleSystem": "obstacles",
    "MotionSystem": "motion",
    "CollisionSystem": "collision",
    "LifecycleSystem": "lifecycle",
}
CEILING = Path(__file__).resolve().with_name("ceiling.py")
WARMUP_STEPS = 300
NEIGHBOURS_AT_START = 12.0
DT = 1.0 / 60.0


def build(boids: int, seed: int, world: str = "") -> Flock:
    """A flock of `boids` fish scattered over a torus at the benchmark density."""
    flock = torus(boids, Species("fish"), seed, world or f"benchmark-{boids}")
    flock.scatter("fish", boids)
    return flock


def torus(boids: int, species: Species, seed: int, world: str) -> Flock:
    """An empty torus of `species` as large as the benchmark's for `boids` of its fish
    (about `NEIGHBOURS_AT_START` others within a fish's perception, spread evenly)."""
    perception = Species("fish").perception_radius
    side = math.sqrt(boids * math.pi * perception**2 / NEIGHBOURS_AT_START)
    config = FlockConfig(width=side, height=side, boundary="wrap", seed=seed)
    return install(config, [species], world=world)


def time_steps(
    flock: Flock, steps: int, scene: LeaderScene | None = None
) -> dict[str, list[float]]:
    """Run `steps` steps stage by stage (as esper.process would), timing each stage in ms."""
    processors = [p for system, _ in STAGES if (p := esper.get_processor(system)) is not None]
    times: dict[str, list[float]] = {p.__class__.__name__: [] for p in processors}
    for _ in range(steps):
        if scene is not None:
            scene.move_leader(DT)
        for processor in processors:
            start = time.perf_counter()
            processor.process(DT)
            times[processor.__class__.__name__].append((time.perf_counter() - start) * 1e3)
    return times


def time_whole_steps(flock: Flock, steps: int, scene: LeaderScene | None) -> list[float]:
    """Time `steps` whole `flock.step` calls (every processor, esper's dispatch included)."""
    samples = []
    for _ in range(steps):
        if scene is not None:
            scene.move_leader(DT)
        start = time.perf_counter()
        flock.step(DT)
        samples.append((time.perf_counter() - start) * 1e3)
    return samples


def run_ceiling(path: Path, boids: int, steps: int, threads: int) -> float:
    """The reference's median step in ms, run in a process of its own on `threads` threads."""
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
    out = subprocess.run(
        [sys.executable, str(path), str(boids), str(steps)],
        capture_output=True, text=True, check=True, env=env,
    )  # fmt: skip
    return float(json.loads(out.stdout.strip().splitlines()[-1])["total_ms"])


def time_render(flock: Flock, steps: int) -> tuple[list[float], list[float]]:
    """Step `steps` more times; time the render stage's step and one frame after each (ms),
    and the draw of that frame (`SpriteList.draw` until the GPU has finished, ms).

    Needs a window for the SpriteList: a hidden 1280 × 720 one, headless (EGL: Mesa's
    llvmpipe on a machine with no GPU) unless a display is set.
    """
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade  # here: arcade reads ARCADE_HEADLESS when first imported

    from shoal.systems.render import RenderSystem

    window = arcade.Window(1280, 720, "shoal benchmark", visible=False)
    render = RenderSystem(flock)
    render.update()
    feed, draw = [], []
    for step in range(steps):
        flock.step(DT)
        start = time.perf_counter()
        render.process(DT)
        render.frame(0.25 + 0.5 * (step % 2))  # a new alpha: the frame is written each time
        drawn = time.perf_counter()
        window.clear()
        render.sprites.draw()
        window.ctx.finish()
        feed.append((drawn - start) * 1e3)
        draw.append((time.perf_counter() - drawn) * 1e3)
    window.close()
    return feed, draw


def run(
    boids: int,
    steps: int,
    seed: int,
    render: bool = False,
    full: bool = False,
    navigation: bool = True,
) -> dict[str, Any]:
    """Build, warm up and time one flock; return the figures."""
    start = time.perf_counter()
    flock = build(boids, seed)
    navigator(flock).enabled = navigation
    scene = LeaderScene(flock, seed) if full else None
    first = time.perf_counter()
    flock.step(DT)
    first_step_s = time.perf_counter() - first
    for _ in range(WARMUP_STEPS - 1):
        if scene is not None:
            scene.move_leader(DT)
        flock.step(DT)
    previous = esper.current_world
    esper.switch_world(flock.world)
    times = time_steps(flock, steps, scene)
    esper.switch_world(previous)
    totals = [sum(stage) for stage in zip(*times.values(), strict=True)]
    result: dict[str, Any] = {
        "boids": boids,
        "steps": steps,
        "total_ms": round(statistics.median(totals), 3),
        "step_ms": round(statistics.median(time_whole_steps(flock, steps, scene)), 3),
        "full": full,
        "threads": threads(),
    }
    for name, samples in times.items():
        result[f"{STAGE_NAMES.get(name, name)}_ms"] = round(statistics.median(samples), 3)
    result["neighbours_mean"] = round(float(flock.neighbours.counts.mean()), 2)
    if render:  # after the other figures: it steps the flock further
        feed, draw = time_render(flock, steps)
        result["render_ms"] = round(statistics.median(feed), 3)
        result["draw_ms"] = round(statistics.median(draw), 3)
    result["first_step_s"] = round(first_step_s, 3)
    result["setup_s"] = round(first - start, 3)
    result["machine"] = f"{platform.machine()} {os.cpu_count()} cpu, {platform.processor()}"
    result["python"] = platform.python_version()
    result["numba"] = numba.__version__
    uninstall(flock)  # and the world install made
    return result


def compare_navigation(boids: int, steps: int, seed: int) -> dict[str, Any]:
    """The `--full` scene twice, navigation on and off, stepped in turn (so that both see
    the same load on a busy machine); median ms per stage of each, and the difference."""
    flocks = {on: build(boids, seed, f"benchmark-{boids}-nav-{on}") for on in (True, False)}
    scenes = {on: LeaderScene(flock, seed) for on, flock in flocks.items()}
    for on, flock in flocks.items():
        navigator(flock).enabled = on
    for _ in range(WARMUP_STEPS):
        for on, flock in flocks.items():
            scenes[on].move_leader(DT)
            flock.step(DT)
    times: dict[bool, dict[str, list[float]]] = {True: {}, False: {}}
    for _ in range(steps):
        for on, flock in flocks.items():
            scenes[on].move_leader(DT)
            with flock.in_world():
                stage_times = time_steps(flock, 1)
            for name, samples in stage_times.items():
                times[on].setdefault(name, []).extend(samples)
    result: dict[str, Any] = {"boids": boids, "steps": steps, "threads": threads()}
    for on, label in ((True, "nav"), (False, "no_nav")):
        totals = [sum(stage) for stage in zip(*times[on].values(), strict=True)]
        result[f"{label}_total_ms"] = round(statistics.median(totals), 3)
        for name, samples in times[on].items():
            result[f"{label}_{STAGE_NAMES.get(name, name)}_ms"] = round(
                statistics.median(samples), 3
            )
    result["navigation_adds_ms"] = round(result["nav_total_ms"] - result["no_nav_total_ms"], 3)
    result["fields_built"] = navigator(flocks[True]).builds
    for on, label in ((True, "nav"), (False, "no_nav")):
        result[f"{label}_neighbours_mean"] = round(float(flocks[on].neighbours.counts.mean()), 1)
    for flock in flocks.values():
        uninstall(flock)  # and the world install made
    result |= same_state_cost(boids, steps, seed)
    return result


def same_state_cost(boids: int, steps: int, seed: int) -> dict[str, Any]:
    """Navigation's own work: each step, the stages it changes (seeking, obstacles) run
    twice on the same state, with navigation and without (the step then goes on with
    navigation's result), so the flock's shape plays no part; median ms of each."""
    flock = build(boids, seed, f"benchmark-{boids}-same-state")
    scene = LeaderScene(flock, seed)
    nav = navigator(flock)
    for _ in range(WARMUP_STEPS):
        scene.move_leader(DT)
        flock.step(DT)
    with flock.in_world():
        processors = [esper.get_processor(system) for system, _ in STAGES]
    names = {"SeekingSystem", "ObstacleSystem"}
    store = flock.store
    samples: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(steps):
        scene.move_leader(DT)
        with flock.in_world():
            for processor in processors:
                assert isinstance(processor, FlockProcessor)
                if type(processor).__name__ not in names:
                    processor.process(DT)
                    continue
                step = flock.step_state
                before = (store.accelerations.copy(), store.alarm.copy(), step.goals.copy())
                kept = before
                for on in (False, True):  # navigation's result is the one kept
                    store.accelerations[:], store.alarm[:] = before[0], before[1]
                    step.goals = before[2].copy()
                    nav.enabled = on
                    start = time.perf_counter()
                    processor.run(step)
                    samples[on].append((time.perf_counter() - start) * 1e3)
                    kept = (store.accelerations.copy(), store.alarm.copy(), step.goals)
                store.accelerations[:], store.alarm[:], step.goals = kept
    stages = len(names)
    totals = {on: [sum(x[k : k + stages]) for k in range(0, len(x), stages)]
              for on, x in samples.items()}  # fmt: skip
    uninstall(flock)  # and the world install made
    with_nav, without = statistics.median(totals[True]), statistics.median(totals[False])
    return {
        "same_state_seeking_obstacles_nav_ms": round(with_nav, 3),
        "same_state_seeking_obstacles_no_nav_ms": round(without, 3),
        "same_state_navigation_adds_ms": round(with_nav - without, 3),
        "same_state_navigation_adds_mean_ms": round(
            statistics.mean(totals[True]) - statistics.mean(totals[False]), 3
        ),
    }


def parse(argv: list[str]) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boids", type=int, nargs="+", default=[10_000])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.add_argument(
        "--render",
        action="store_true",
        help="also time the sprite feed (render_ms) and the draw (draw_ms)",
    )
    parser.add_argument(
        "--full", action="store_true", help="add a leader, food, 2 sharks, 200 obstacles"
    )
    parser.add_argument(
        "--navigation",
        choices=("on", "off", "compare"),
        default="on",
        help="goals navigate round obstacles (on), steer straight (off), or time both in "
        "turn (compare: the --full scene)",
    )
    parser.add_argument("--threads", type=int, default=0, help="numba threads (0: all cores)")
    parser.add_argument(
        "--ceiling", action="store_true", help="also run the compiled reference and the ratio"
    )
    parser.add_argument("--ceiling-path", type=Path, default=CEILING)
    parser.add_argument(
        "--rounds", type=int, default=1, help="runs of shoal (and the reference) in turn"
    )
    parser.add_argument(
        "--busy", action="store_true", help="keep one core busy with another process meanwhile"
    )
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.boids) or args.steps < 1 or args.rounds < 1:
        parser.error("--boids, --steps and --rounds must be >= 1")
    return args


def measure(args: argparse.Namespace, boids: int) -> dict[str, Any]:
    """One round: shoal's figures for `boids`, with the reference's and the ratio if asked."""
    result = run(boids, args.steps, args.seed, args.render, args.full, args.navigation == "on")
    if args.ceiling:
        ceiling = run_ceiling(args.ceiling_path, boids, args.steps, threads())
        result["ceiling_ms"] = ceiling
        result["ratio"] = round(result["step_ms"] / ceiling, 2)
    return result


def median_round(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The round of the median ratio (of the median step without the reference), with every
    round's ratio (`ratios`) when there are several."""
    key = "ratio" if "ratio" in rounds[0] else "step_ms"
    chosen = sorted(rounds, key=lambda r: float(r[key]))[(len(rounds) - 1) // 2]
    if len(rounds) > 1:
        chosen = {**chosen, f"{key}s": [r[key] for r in rounds]}
    return chosen


@contextmanager
def busy_core(busy: bool) -> Iterator[None]:
    """While inside, if `busy`, another process spins on one core."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if busy else None
    try:
        yield
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark for each flock size."""
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.threads:
        set_threads(args.threads)
    with busy_core(args.busy):
        run_sizes(args)


def run_sizes(args: argparse.Namespace) -> None:
    """Print each flock size's figures."""
    for boids in args.boids:
        if args.navigation == "compare":
            print(json.dumps(compare_navigation(boids, args.steps, args.seed)), flush=True)
            continue
        result = median_round([measure(args, boids) for _ in range(args.rounds)])
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            stages = "  ".join(f"{k}={v}" for k, v in result.items() if k.endswith("_ms"))
            ratio = f"  ratio={result['ratio']}" if "ratio" in result else ""
            ratio += f" (rounds {result['ratios']})" if "ratios" in result else ""
            print(f"{boids:>7} boids  {stages}{ratio}  neighbours={result['neighbours_mean']}",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
