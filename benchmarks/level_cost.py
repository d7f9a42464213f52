"""What hostile level files cost: the time and memory of loading them, and the cost of a
step of the levels the loader accepts at its limits.

Run: ``python benchmarks/level_cost.py`` (``--steps N`` steps timed per level). Load times
are the best of three wall-clock runs; peak memory is traced separately (tracemalloc). Step
times are the median CPU time of one fixed step on one thread (numba's other threads would
add their waiting), as the limits in shoal.game.level.limits quote them.
"""

import argparse
import base64
import json
import math
import tempfile
import time
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shoal.game.level import (
    MAX_FILE_BYTES,
    MAX_FOOD,
    MAX_OBJECTS,
    MAX_OBSTACLE_VERTICES,
    MAX_POLYGON_POINTS,
    MAX_TEMPLATE_BYTES,
    MAX_TOTAL_FISH,
    Level,
    LevelError,
    load_level,
)
from shoal.game.tank import Tank
from shoal.systems import warm_up
from shoal.systems.core.threads import set_threads

Doc = dict[str, Any]
REEF: Doc = json.loads((Path(__file__).parents[1] / "levels" / "reef.tmj").read_text())


def _reef() -> Doc:
    doc: Doc = json.loads(json.dumps(REEF))
    return doc


def _point(ident: int, kind: str, x: float, y: float, **props: tuple[str, Any]) -> Doc:
    properties = [{"name": k, "type": t, "value": v} for k, (t, v) in props.items()]
    return {"id": ident, "name": "", "type": kind, "point": True, "x": x, "y": y, "width": 0,
            "height": 0, "rotation": 0, "visible": True, "properties": properties}  # fmt: skip


def _rock(ident: int, x: float, y: float, **extra: Any) -> Doc:
    return {"id": ident, "name": "", "type": "rock", "x": x, "y": y, "width": 3, "height": 3,
            "rotation": 0, "visible": True, **extra}  # fmt: skip


def _small_map(obstacles: list[Doc], spawns: list[Doc]) -> Doc:
    doc = _reef()
    doc.update(width=10, height=8, tilewidth=32, tileheight=32, properties=[
        {"name": "food_to_eat", "type": "int", "value": 99999}])  # fmt: skip
    doc["layers"][0]["objects"], doc["layers"][1]["objects"] = obstacles, spawns
    return doc


def at_every_limit(food: int = MAX_FOOD) -> Doc:
    """A valid 320 × 256 map: 512 rocks, `food` food points, 300 fish and 200 sharks."""
    rocks = [_rock(k, 4 + k % 32 * 10, 4 + k // 32 * 10) for k in range(1, 513)]
    pellets = [_point(1000 + k, "food", 8 + k % 20 * 15, 8 + k // 20 * 20) for k in range(food)]
    sharks = [_point(2000 + k, "shark", 9 + k % 50 * 6, 9 + k // 50 * 40) for k in range(200)]
    school = _point(999, "spawn", 160, 128, count=("int", MAX_TOTAL_FISH - 200),
                    radius=("float", 150))  # fmt: skip
    return _small_map(rocks, [school, *pellets, *sharks])


def _ring(n: int, radius: float) -> list[Doc]:
    turns = (2 * math.pi * k / n for k in range(n))
    return [{"x": radius * math.cos(t), "y": radius * math.sin(t)} for t in turns]


def _with_fill(fill: str) -> str:
    """The reef with `fill` as its (ignored) tilesets, up to the file size limit."""
    return json.dumps(_reef()).replace('"tilesets": []', f'"tilesets": {fill}')


def hostile_files(folder: Path) -> dict[str, Path]:
    """The files tried: the issue's cases and the costliest per byte."""
    room = MAX_FILE_BYTES - len(json.dumps(REEF)) - 100
    name = "r" * (MAX_TEMPLATE_BYTES - 200)
    (folder / "rock.tj").write_text(json.dumps({"object": {**_rock(0, 0, 0), "name": name}}))
    spawn = _point(9999, "spawn", 160, 250, count=("int", 10))
    files: dict[str, str | Doc] = {
        "template used 4,998 times": _small_map(
            [{"id": k, "template": "rock.tj", "x": k % 300, "y": 9} for k in range(4998)], [spawn]),
        f"{MAX_OBJECTS - 1} shark points": _small_map([], [spawn, *(
            _point(k, "shark", 9 + k % 300, 9 + k // 300) for k in range(MAX_OBJECTS - 1))]),
        "4,900 food points": _small_map([], [spawn, *(
            _point(k, "food", 9 + k % 300, 9 + k // 300) for k in range(4900))]),
        f"{MAX_OBSTACLE_VERTICES} polygon points": _small_map(
            [_rock(k, 40 + k % 4 * 80, 60 + k // 4 * 120, polygon=_ring(MAX_POLYGON_POINTS, 35))
             for k in range(MAX_OBSTACLE_VERTICES // MAX_POLYGON_POINTS)],
            [_point(999, "spawn", 160, 10, count=("int", 10))]),
        "1 MiB of {}": _with_fill("[" + ",".join(["{}"] * (room // 3)) + "]"),
        "1 MiB of numbers": _with_fill("[" + ",".join(["0.5"] * (room // 4)) + "]"),
        "lists nested 900 deep": _with_fill("[" * 900 + "]" * 900),
        "64 MiB zlib tile bomb": _with_fill("[]").replace('"layers": [', '"layers": [{"id": 9, '
            '"name": "t", "type": "tilelayer", "width": 40, "height": 22, "encoding": "base64", '
            '"compression": "zlib", "data": "'
            + base64.b64encode(zlib.compress(bytes(64 << 20), 9)).decode() + '"}, '),
        "a 500 kB name": json.dumps(_reef()).replace('"sand bank"', '"' + "A" * 500_000 + '"'),
        "every limit at once": at_every_limit(),
    }  # fmt: skip
    paths = {}
    for k, (label, content) in enumerate(files.items()):
        paths[label] = folder / f"hostile{k}.tmj"
        paths[label].write_text(content if isinstance(content, str) else json.dumps(content))
    return paths


def _load(path: Path) -> str:
    try:
        load_level(path)
    except LevelError as error:
        return f"refused: {str(error).split(': ', 1)[1][:70]}"
    return "loaded"


def measure_load(path: Path) -> tuple[float, float, str]:
    """Best of three load times (s), peak traced memory (MB), and the outcome."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        outcome = _load(path)
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    _load(path)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return min(times), peak, outcome


def median_step(level: Level, steps: int) -> float:
    """Median CPU time of one fixed step of the level's tank, one thread, s."""
    set_threads(1)
    tank = Tank(level, seed=0, free=True)  # every fish stays: none goes home
    try:
        for _ in range(5):
            tank.step()
        times = []
        for _ in range(steps):
            start = time.process_time()
            tank.step()
            times.append(time.process_time() - start)
    finally:
        tank.close()
    return sorted(times)[steps // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=120, help="steps timed per level")
    args = parser.parse_args()
    warm_up()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print(f"{'hostile file':28} {'bytes':>9} {'load ms':>8} {'peak MB':>8}  outcome")
        for label, path in hostile_files(folder).items():
            took, peak, outcome = measure_load(path)
            size = path.stat().st_size
            print(f"{label:28} {size:9d} {took * 1000:8.1f} {peak:8.1f}  {outcome}")
        levels: dict[str, Callable[[], Level]] = {
            "reef (packaged)": lambda: load_level("reef"),
            "every limit at once": lambda: _level(folder, at_every_limit()),
            "the same boids alone": lambda: _level(folder, _boids_only()),
        }
        print(f"\n{'level':28} {'step ms (median CPU)':>21}")
        for label, make in levels.items():
            print(f"{label:28} {median_step(make(), args.steps) * 1000:21.2f}")


def _boids_only() -> Doc:
    doc = at_every_limit()
    doc["layers"][0]["objects"] = []
    spawns = doc["layers"][1]["objects"]
    doc["layers"][1]["objects"] = [o for o in spawns if o["type"] in ("spawn", "shark")]
    return doc


def _level(folder: Path, doc: Doc) -> Level:
    path = folder / "level.tmj"
    path.write_text(json.dumps(doc))
    return load_level(path)


if __name__ == "__main__":
    main()
