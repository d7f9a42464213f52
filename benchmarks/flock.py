"""Time shoal's flocking stages.

Run: ``python benchmarks/flock.py --boids 10000 50000 --steps 100 --json``

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
import sys
import time
from typing import Any

import esper
import numba

from shoal.components import Species
from shoal.systems import STAGES, Flock, FlockConfig, install, uninstall

WARMUP_STEPS = 300
NEIGHBOURS_AT_START = 12.0
DT = 1.0 / 60.0


def build(boids: int, seed: int) -> Flock:
    """A flock of `boids` fish scattered over a torus at the benchmark density."""
    species = Species("fish")
    area = boids * math.pi * species.perception_radius**2 / NEIGHBOURS_AT_START
    side = math.sqrt(area)
    config = FlockConfig(width=side, height=side, boundary="wrap", seed=seed)
    flock = install(config, [species], world=f"benchmark-{boids}")
    flock.scatter("fish", boids)
    return flock


def time_steps(flock: Flock, steps: int) -> dict[str, list[float]]:
    """Run `steps` steps stage by stage (as esper.process would), timing each stage in ms."""
    processors = [p for system, _ in STAGES if (p := esper.get_processor(system)) is not None]
    times: dict[str, list[float]] = {p.__class__.__name__: [] for p in processors}
    for _ in range(steps):
        for processor in processors:
            start = time.perf_counter()
            processor.process(DT)
            times[processor.__class__.__name__].append((time.perf_counter() - start) * 1e3)
    return times


def run(boids: int, steps: int, seed: int) -> dict[str, Any]:
    """Build, warm up and time one flock; return the figures."""
    start = time.perf_counter()
    flock = build(boids, seed)
    first = time.perf_counter()
    flock.step(DT)
    first_step_s = time.perf_counter() - first
    for _ in range(WARMUP_STEPS - 1):
        flock.step(DT)
    previous = esper.current_world
    esper.switch_world(flock.world)
    times = time_steps(flock, steps)
    esper.switch_world(previous)
    totals = [sum(stage) for stage in zip(*times.values(), strict=True)]
    result: dict[str, Any] = {
        "boids": boids,
        "steps": steps,
        "total_ms": round(statistics.median(totals), 3),
    }
    names = {
        "NeighbourSystem": "neighbours",
        "SteeringSystem": "steering",
        "MotionSystem": "motion",
    }
    for name, samples in times.items():
        result[f"{names.get(name, name)}_ms"] = round(statistics.median(samples), 3)
    result["neighbours_mean"] = round(float(flock.neighbours.counts.mean()), 2)
    result["first_step_s"] = round(first_step_s, 3)
    result["setup_s"] = round(first - start, 3)
    result["machine"] = f"{platform.machine()} {os.cpu_count()} cpu, {platform.processor()}"
    result["python"] = platform.python_version()
    result["numba"] = numba.__version__
    uninstall(flock)
    esper.delete_world(flock.world)
    return result


def parse(argv: list[str]) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boids", type=int, nargs="+", default=[10_000])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.boids) or args.steps < 1:
        parser.error("--boids and --steps must be >= 1")
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark for each flock size."""
    args = parse(sys.argv[1:] if argv is None else argv)
    for boids in args.boids:
        result = run(boids, args.steps, args.seed)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            stages = "  ".join(f"{k}={v}" for k, v in result.items() if k.endswith("_ms"))
            print(f"{boids:>7} boids  {stages}  neighbours={result['neighbours_mean']}", flush=True)


if __name__ == "__main__":
    main()
