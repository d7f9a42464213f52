"""Print the README's performance table (markdown), measured on this machine.

Run: ``python benchmarks/readme_table.py`` (headless; about two minutes once the kernels are
compiled; ``--steps`` and ``--frames`` trade time for noise).

Rows, median ms: the core flock step (`benchmarks/flock.py`'s flock: one species schooling in
a torus, bodies on), the same with everything on (``flock.py --full``: a leader, 20 food
items, 2 sharks, 200 obstacles, navigation), and the fish tank's frame (one fixed step and
the sprite feed, the GPU draw excluded: `benchmarks/game_frames.py`), the game's own fish,
the slowest of its levels. Columns: boids (fish). The last line names the machine.
"""

import argparse
import os
import platform
import statistics
import sys
import warnings

os.environ.setdefault("ARCADE_HEADLESS", "1")  # before arcade is imported

import arcade
import numba

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flock as core
import game_frames

from shoal.game.level import level_names
from shoal.systems import NavigationWarning, warm_up
from shoal.systems.core.threads import threads

SIZES = (100, 500, 2_000, 10_000)
GAME_MAX_FISH = 2_000  # the game's --fish limit


def measure(steps: int, warm: int, frames: int) -> list[tuple[str, list[float | None]]]:
    """Each row's label and its median ms per size (None: not measured)."""
    plain = [core.run(n, steps, seed=1)["step_ms"] for n in SIZES]
    full = [core.run(n, steps, seed=1, full=True)["step_ms"] for n in SIZES]
    game: list[float | None] = []
    for n in SIZES:
        if n > GAME_MAX_FISH:
            game.append(None)
            continue
        medians = [statistics.median(game_frames.frame_times(level, "none", n, warm, frames))
                   for level in level_names()]  # fmt: skip
        game.append(max(medians))
    return [
        ("core flock step (`benchmarks/flock.py`)", plain),
        ("everything on (`flock.py --full`)", full),
        ("fish tank frame, slowest level (`benchmarks/game_frames.py`)", game),
    ]


def markdown(rows: list[tuple[str, list[float | None]]]) -> str:
    """The table: one row per measure, one column per size."""
    lines = ["| median ms | " + " | ".join(f"{n:,}" for n in SIZES) + " |",
             "|---" * (len(SIZES) + 1) + "|"]  # fmt: skip
    for label, values in rows:
        cells = ["—" if v is None else (f"{v:.2f}" if v < 1 else f"{v:.1f}") for v in values]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine() -> str:
    """The machine in a line: cores, architecture, Python, numba, threads, the load."""
    load = f", load {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return (f"{os.cpu_count()}-core {platform.machine()}, Python {platform.python_version()}, "
            f"numba {numba.__version__}, {threads()} threads{load}")  # fmt: skip


def main() -> None:
    """Measure and print the table, then the machine."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100, help="flock steps timed per size")
    parser.add_argument("--warm", type=int, default=30, help="game frames before timing")
    parser.add_argument("--frames", type=int, default=60, help="game frames timed")
    args = parser.parse_args()
    # --full's small worlds are too wide for 10 px navigation cells: expected, and said once.
    warnings.simplefilter("ignore", NavigationWarning)
    window = arcade.Window(320, 240, "readme table", visible=False)  # the SpriteList's context
    warm_up()
    print(markdown(measure(args.steps, args.warm, args.frames)))
    print(f"\n{machine()}")
    window.close()


if __name__ == "__main__":
    main()
