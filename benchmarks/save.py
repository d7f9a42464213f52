"""Saving and restoring a flock: how long a save file of 10,000 boids takes to write and to
restore, and how large it is (the issue's budget: written in <= 50 ms, <= 2 MB, restored in
<= 100 ms).

Run: ``python benchmarks/save.py`` (``--boids 20000``, ``--repeats 9``, ``--json``).

The flock: two species, sharks among fish in a 1920 × 1080 tank round two obstacles,
following a leader, 60 steps in (alarm, wander and the leader's navigation fields live).
"write" is `shoal.save` (the snapshot and the .npz file); "restore" is `shoal.load` into a
new flock of the same world (reading, every check, the boids' new entities, the navigation
fields built again). Median and best of the repeats; the machine may be shared: compare
runs made side by side.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")

import shoal
from shoal.components import Circle, Leader, Obstacle, Position, Rect, Species
from shoal.systems import Flock, FlockConfig, install, uninstall

CONFIG = FlockConfig(1920, 1080, seed=3)
SPECIES = (Species("fish", wander_weight=0.4), Species("shark", catch_radius=12))


def world(name: str) -> Flock:
    """The flock and the host's entities (no boids)."""
    flock = install(CONFIG, SPECIES, world=name)
    flock.relate("fish", "shark", "flee")
    flock.relate("shark", "fish", "chase")
    flock.create_entity(Obstacle(Circle(960.0, 540.0, 100.0)))
    flock.create_entity(Obstacle(Rect(400.0, 300.0, 60.0, 400.0)))
    flock.create_entity(Position(1500.0, 800.0), Leader(("fish",)))
    return flock


def measure(boids: int, repeats: int) -> dict[str, float]:
    """Write and restore times (ms: median, best) and the file's size (MB)."""
    flock = world("save-bench")
    flock.scatter("fish", boids - 20)
    flock.scatter("shark", 20)
    for _ in range(60):
        flock.step()
    writes, restores = [], []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "flock.npz"
        for k in range(repeats):
            started = time.perf_counter()
            shoal.save(flock, path)
            writes.append(time.perf_counter() - started)
            target = world(f"save-bench-{k}")
            started = time.perf_counter()
            shoal.load(target, path)
            restores.append(time.perf_counter() - started)
            assert len(target) == len(flock)
            uninstall(target)
        size = path.stat().st_size
    uninstall(flock)
    return {
        "boids": boids,
        "write_ms_median": 1e3 * statistics.median(writes),
        "write_ms_best": 1e3 * min(writes),
        "size_mb": size / 1e6,
        "restore_ms_median": 1e3 * statistics.median(restores),
        "restore_ms_best": 1e3 * min(restores),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boids", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()
    figures = measure(options.boids, options.repeats)
    if options.json:
        print(json.dumps(figures))
        return
    print(f"{figures['boids']:,} boids, {options.repeats} repeats (median, best):")
    print(f"  write   {figures['write_ms_median']:6.1f} ms  {figures['write_ms_best']:6.1f} ms"
          f"   (budget 50 ms)")  # fmt: skip
    print(f"  size    {figures['size_mb']:6.2f} MB             (budget 2 MB)")
    print(f"  restore {figures['restore_ms_median']:6.1f} ms  {figures['restore_ms_best']:6.1f} ms"
          f"   (budget 100 ms)")  # fmt: skip
    sys.stdout.flush()


if __name__ == "__main__":
    main()
