"""Startup: how long a player and an embedding game wait, from a fresh install.

Run: ``python benchmarks/startup.py [--source PATH] [--json]`` (Linux; needs ``xvfb-run``,
Debian package xvfb, where there is no display). It makes a fresh virtualenv in a temporary
folder, ``pip install``s the checkout at PATH (default: this one; timed), then measures, in
seconds from the moment the process is started:

- the game (``shoal --frames 60`` in a real window): until the window shows its first frame,
  and until the tank is drawn with the fish moving; a first and a second launch;
- an embedding script (``import shoal``, install a flock of 300, ``flock.step()``): until its
  first step has returned; a first and a second run;
- the same with the kernel cache emptied (what an editable install, a wheel built on
  another machine or a numba upgrade meets): the game's window and tank, the longest frame
  the loading screen took while the kernels compiled, and the embedding script's first step.

The game reports its milestones on stdout when ``SHOAL_STARTUP_REPORT=1``; they are timed
as they arrive.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EMBED = """
import time
start = time.perf_counter()
import shoal
flock = shoal.install(shoal.FlockConfig(800, 600, seed=1), [shoal.Species("fish")], world="w")
flock.scatter("fish", 300)
flock.step()
print(f"first step done {time.perf_counter() - start:.3f}", flush=True)
"""
LINE = re.compile(r"shoal: (window open|kernels ready|tank drawn)(.*)")


def run_install(source: Path, target: Path) -> tuple[Path, float]:
    """A fresh virtualenv at `target` with `source` installed; its python and the seconds
    ``pip install`` took."""
    venv.create(target, with_pip=True)
    python = target / "bin" / "python"
    start = time.perf_counter()
    subprocess.run([python, "-m", "pip", "install", "-q", str(source)], check=True)
    return python, time.perf_counter() - start


def time_game(python: Path, workdir: Path) -> dict[str, float | str]:
    """Launch the game in a window (under xvfb-run without a display); the seconds to each
    milestone it reports."""
    command = [str(python.parent / "shoal"), "--frames", "60", "--screenshot",
               str(workdir / "startup.png")]  # fmt: skip
    if not os.environ.get("DISPLAY"):
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", *command]
    env = {**os.environ, "SHOAL_STARTUP_REPORT": "1"}
    env.pop("ARCADE_HEADLESS", None)
    start = time.perf_counter()
    found: dict[str, float | str] = {}
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env,
                          cwd=workdir) as game:  # fmt: skip
        assert game.stdout is not None
        for line in game.stdout:
            match = LINE.search(line)
            if match:
                found[match.group(1)] = round(time.perf_counter() - start, 2)
                gap = re.search(r"took ([0-9.]+) s", match.group(2))
                if gap:
                    found["longest loading frame"] = float(gap.group(1))
    found["exit status"] = str(game.returncode)
    return found


def time_embedding(python: Path, workdir: Path) -> float:
    """Seconds from starting the embedding script until its first step has returned."""
    start = time.perf_counter()
    subprocess.run([python, "-c", EMBED], check=True, cwd=workdir, capture_output=True)
    return round(time.perf_counter() - start, 2)


def empty_kernel_cache(python: Path) -> int:
    """Delete the compiled kernels of the installed package; how many files."""
    out = subprocess.run([python, "-c", "import shoal, os; print(os.path.dirname(shoal.__file__))"],
                         check=True, capture_output=True, text=True)  # fmt: skip
    files = [*Path(out.stdout.strip()).rglob("*.nbi"), *Path(out.stdout.strip()).rglob("*.nbc")]
    for path in files:
        path.unlink()
    return len(files)


def main() -> None:
    """Install into a fresh virtualenv and time each launch."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to install")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY") and shutil.which("xvfb-run") is None:
        sys.exit("startup.py: no display and no xvfb-run (Debian package xvfb)")
    with tempfile.TemporaryDirectory(prefix="shoal-startup-") as folder:
        workdir = Path(folder)
        python, installed = run_install(args.source, workdir / "venv")
        result: dict[str, object] = {"pip install": round(installed, 1)}
        result["game, first launch"] = time_game(python, workdir)
        result["game, second launch"] = time_game(python, workdir)
        result["embedding, first run"] = time_embedding(python, workdir)
        result["embedding, second run"] = time_embedding(python, workdir)
        result["kernel cache files deleted"] = empty_kernel_cache(python)
        result["game, empty kernel cache"] = time_game(python, workdir)
        empty_kernel_cache(python)
        result["embedding, empty kernel cache"] = time_embedding(python, workdir)
    if args.json:
        print(json.dumps(result))
        return
    for name, value in result.items():
        print(f"{name:>32}: {value}")


if __name__ == "__main__":
    main()
