"""Time the obstacle stages (avoidance and the collision guarantee) in a benchmark flock.

Run: ``python benchmarks/obstacles.py --boids 10000 --obstacles 200 --steps 200 --json``

Builds `benchmarks/flock.py`'s flock (a torus at the benchmark density), adds mixed
obstacles (`benchmarks/scene.py`), runs 300 warm-up steps, then times each stage. Prints one
JSON line (or a table row) per flock size.
"""

import argparse
import json
import statistics
import sys

import esper
from flock import DT, WARMUP_STEPS, build, time_steps
from scene import add_benchmark_obstacles

from shoal.systems import (
    CollisionSystem,
    ObstacleSystem,
    inside_obstacle,
    obstacle_field,
    uninstall,
)


def run(boids: int, obstacles: int, steps: int, seed: int) -> dict[str, float]:
    """Build, warm up and time one flock with obstacles; median ms per stage."""
    flock = build(boids, seed)
    add_benchmark_obstacles(flock, obstacles, seed)
    for _ in range(WARMUP_STEPS):
        flock.step(DT)
    previous = esper.current_world
    esper.switch_world(flock.world)
    times = time_steps(flock, steps)
    esper.switch_world(previous)
    result: dict[str, float] = {"boids": boids, "obstacles": obstacles, "steps": steps}
    for name, samples in times.items():
        result[f"{name}_ms"] = round(statistics.median(samples), 3)
    both = [
        a + b
        for a, b in zip(
            times[ObstacleSystem.__name__], times[CollisionSystem.__name__], strict=True
        )
    ]
    result["obstacle_stages_ms"] = round(statistics.median(both), 3)
    result["total_ms"] = round(statistics.median(map(sum, zip(*times.values(), strict=True))), 3)
    result["inside_after"] = int(inside_obstacle(obstacle_field(flock), flock.positions).sum())
    uninstall(flock)  # and the world install made
    return result


def main(argv: list[str] | None = None) -> None:
    """Parse the options and run each flock size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boids", type=int, nargs="+", default=[10_000])
    parser.add_argument("--obstacles", type=int, default=200)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    for boids in args.boids:
        result = run(boids, args.obstacles, args.steps, args.seed)
        print(json.dumps(result) if args.json else "  ".join(f"{k}={v}" for k, v in result.items()))


if __name__ == "__main__":
    main()
