"""Startup: how long a player and an embedding game wait, from a fresh install.

Run: ``python benchmarks/startup.py [--source PATH] [--json] [--no-window] [--play SECONDS]
[--only-first]`` (Linux; the windowed game needs a display or ``xvfb-run``, Debian package
xvfb). It copies the checkout at PATH (default: this one) into a temporary folder, so that
no earlier build is reused, makes a fresh virtualenv there and ``pip install``s it, then
measures:

- the install: its wall time and its CPU time (user + system, pip and every process it
  waited for: ``getrusage(RUSAGE_CHILDREN)``), with the load average before and after (the
  wall time on a shared machine says little without it);
- with ``--play SECONDS``, first: the game's first launch on the cache the install left,
  in a headless window paced at 60 frames a second, its first level played SECONDS s by
  `balance.py`'s players (home round the sharks, a pellet each second): when the tank
  showed, the longest frame of play, and the kernels loaded or compiled while it played;
- with ``--only-first``, only that (or, without ``--play``, the headless game's first run);
- the game in a real window (``shoal --frames 60``), in seconds from the moment the process
  is started: until the window shows its first frame (the loading screen), and until the
  tank is drawn with the fish moving; a first and a second launch;
- the headless game (``ARCADE_HEADLESS=1 shoal --frames 1``, what the README's first
  command plays without a display): until it has stepped its first frame and saved it;
  a first and a second run;
- an embedding script (``import shoal``, install a flock of 300, ``flock.step()``): the
  first ``flock.step()`` alone, and the whole script until it returned; a first and a
  second run;
- the same with the kernel cache emptied (what an editable install, a wheel built on
  another machine or a numba upgrade meets): the game's window and tank, the longest frame
  the loading screen took while the kernels compiled, and the embedding script's first step.

After the install only the first steps' and the first level's kernels are cached; the
first ``shoal.install`` of a process starts a child that compiles the rest
(systems/ahead.py). The first embedding run comes first, so that it meets what a fresh
install leaves; the game's first launch then finds that child at work or done.

The game reports its milestones on stdout when ``SHOAL_STARTUP_REPORT=1``; they are timed
as they arrive.
"""

import argparse
import contextlib
import json
import os
import re
import resource
import shutil
import signal
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
before = time.perf_counter()
flock.step()
done = time.perf_counter()
print(f"first step {done - before:.3f} done {done - start:.3f}", flush=True)
"""
PLAY = """
import os, sys, time
os.environ["ARCADE_HEADLESS"] = "1"
sys.path.insert(0, sys.argv[1])  # the copied checkout's benchmarks: balance.py's players
import arcade
import numba
from balance import Clicker, Competent
from shoal.game.__main__ import first_level, parse_args
from shoal.game.loading import LoadingView
from shoal.game.play import prepare_kernels, tank_factory
from shoal.game.tank_view import TankView

def signatures():
    found = set()
    for name, module in list(sys.modules.items()):
        for value in vars(module).values() if name.startswith("shoal.") and module else ():
            if isinstance(value, numba.core.dispatcher.Dispatcher):
                found |= {(value.py_func.__qualname__, str(s)) for s in value.signatures}
    return found

start = time.perf_counter()
options = parse_args([])
level = first_level(None)
window = arcade.Window(1280, 720, "startup", visible=False)
views = []
loading = LoadingView(prepare_kernels(level, options), lambda: views.append(
    TankView(level, tank_factory(options, False), None, intro=False)) or views[0])
window.show_view(loading)
frame, shown, frames = 1 / 60, None, []
while len(frames) < int(sys.argv[2]) * 60:
    began = time.perf_counter()
    view = window.current_view
    if view is not loading and shown is None:
        shown, before = began - start, signatures()
        leader, feeder = Competent(view, 0), Clicker(view, 0)
    if shown is not None:
        leader.act(len(frames))
        if len(frames) % 60 == 0:
            feeder.act(len(frames))  # a pellet above the school each second
    view.on_update(frame)
    view.on_draw()
    took = time.perf_counter() - began
    if shown is not None:
        frames.append(took)
    time.sleep(max(0.0, frame - took))
worst = max(frames)
print(f"tank {shown:.2f} loading {loading.longest_gap:.3f} worst {worst:.3f} "
      f"at {frames.index(worst) / 60:.1f} over50ms {sum(f > 0.05 for f in frames)} "
      f"kernels {len(signatures() - before)}", flush=True)
"""
LINE = re.compile(r"shoal: (window open|kernels ready|tank drawn)(.*)")
IGNORED = shutil.ignore_patterns("build", ".git", "*.egg-info", "__pycache__", ".mypy_cache")


def run_install(source: Path, target: Path) -> tuple[Path, dict[str, object]]:
    """A fresh virtualenv at `target` with a copy of `source` installed; its python and what
    ``pip install`` took (wall and CPU seconds, the load average before and after)."""
    copy = target.with_name("source")
    shutil.copytree(source, copy, ignore=IGNORED)
    venv.create(target, with_pip=True)
    python = target / "bin" / "python"
    load = os.getloadavg()[0]
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([python, "-m", "pip", "install", "-q", str(copy)], check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - used.ru_utime) + (after.ru_stime - used.ru_stime)
    return python, {"wall s": round(wall, 1), "cpu s": round(cpu, 1),
                    "load before": round(load, 2),
                    "load after": round(os.getloadavg()[0], 2)}  # fmt: skip


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


def time_play(python: Path, workdir: Path, seconds: int) -> dict[str, float]:
    """The game's first level in a headless window (``ARCADE_HEADLESS=1``, frames paced at
    60 a second as a window's would be), from its loading screen on, then `seconds` of play
    by a player that leads the school home (`balance.Competent`) and drops a pellet above it
    each second (`balance.Clicker`): when the tank showed, the longest loading frame, and the
    longest frame of play (update and draw), when it came, how many took over 50 ms, and how
    many kernel signatures the game loaded or compiled while it played (0: none on a frame)."""
    done = subprocess.run([python, "-c", PLAY, str(workdir / "source" / "benchmarks"),
                           str(seconds)], check=True, cwd=workdir, capture_output=True,
                          text=True)  # fmt: skip
    words = done.stdout.split()
    return {"tank shown": float(words[1]), "longest loading frame": float(words[3]),
            "longest frame of play": float(words[5]), "at s": float(words[7]),
            "frames over 50 ms": float(words[9]),
            "kernels during play": float(words[11])}  # fmt: skip


def time_headless(python: Path, workdir: Path) -> float:
    """Seconds from starting the headless game (one frame, saved) until it has ended."""
    command = [str(python.parent / "shoal"), "--frames", "1", "--screenshot",
               str(workdir / "headless.png")]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(command, check=True, cwd=workdir, capture_output=True,
                   env={**os.environ, "ARCADE_HEADLESS": "1"})  # fmt: skip
    return round(time.perf_counter() - start, 2)


def time_embedding(python: Path, workdir: Path) -> dict[str, float]:
    """The embedding script's first `flock.step()` alone, and the seconds from its start
    until that step has returned."""
    done = subprocess.run([python, "-c", EMBED], check=True, cwd=workdir, capture_output=True,
                          text=True)  # fmt: skip
    words = done.stdout.split()
    return {"first step": float(words[2]), "until it returned": float(words[4])}


def empty_kernel_cache(python: Path) -> int:
    """Delete the compiled kernels of the installed package; how many files."""
    out = subprocess.run([python, "-c", "import shoal, os; print(os.path.dirname(shoal.__file__))"],
                         check=True, capture_output=True, text=True)  # fmt: skip
    files = [*Path(out.stdout.strip()).rglob("*.nbi"), *Path(out.stdout.strip()).rglob("*.nbc")]
    for path in files:
        path.unlink()
    return len(files)


def stop_children(python: Path) -> None:
    """Stop the processes still running the virtualenv's `python`: the compiling children the
    runs left behind (`ahead.py`'s, the loading screen's), so that its folder can go."""
    stopped = []
    for process in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):
            if (process / "cmdline").read_bytes().split(b"\0")[0] == bytes(python):
                os.kill(int(process.name), signal.SIGKILL)
                stopped.append(process)
    deadline = time.monotonic() + 10.0
    while any(p.exists() for p in stopped) and time.monotonic() < deadline:
        time.sleep(0.05)  # a killed process is listed until it is reaped


def main() -> None:
    """Install into a fresh virtualenv and time each launch."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to install")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-window", action="store_true", help="skip the windowed game")
    parser.add_argument("--play", type=int, default=0, metavar="SECONDS",
                        help="first, right after the install: the game's first level "
                        "played SECONDS s by a scripted player, its longest frame")  # fmt: skip
    parser.add_argument("--only-first", action="store_true",
                        help="measure what comes first after the install only (the --play "
                        "run, else the headless game's first run)")  # fmt: skip
    args = parser.parse_args()
    if not args.no_window and not os.environ.get("DISPLAY") and shutil.which("xvfb-run") is None:
        sys.exit("startup.py: no display and no xvfb-run (Debian package xvfb): --no-window")
    with tempfile.TemporaryDirectory(prefix="shoal-startup-") as folder:
        workdir = Path(folder)
        python, installed = run_install(args.source, workdir / "venv")
        try:
            result = measure(python, workdir, installed, args)
        finally:
            stop_children(python)
    _show(result, args.json)


def measure(python: Path, workdir: Path, installed: dict[str, object],
            args: argparse.Namespace) -> dict[str, object]:  # fmt: skip
    """Every launch that `args` asks for, after the install."""
    window = not args.no_window
    result: dict[str, object] = {"pip install": installed}
    if args.play:
        result["game played, first launch"] = time_play(python, workdir, args.play)
    elif args.only_first:
        result["headless game, first run"] = time_headless(python, workdir)
    if args.only_first:
        return result
    result["embedding, first run"] = time_embedding(python, workdir)
    result["embedding, second run"] = time_embedding(python, workdir)
    if window:
        result["game, first launch"] = time_game(python, workdir)
        result["game, second launch"] = time_game(python, workdir)
    result["headless game, first run"] = time_headless(python, workdir)
    result["headless game, second run"] = time_headless(python, workdir)
    result["kernel cache files deleted"] = empty_kernel_cache(python)
    if window:
        result["game, empty kernel cache"] = time_game(python, workdir)
        empty_kernel_cache(python)
    result["embedding, empty kernel cache"] = time_embedding(python, workdir)
    return result


def _show(result: dict[str, object], as_json: bool) -> None:
    """The results, as one JSON object or a line each."""
    if as_json:
        print(json.dumps(result))
        return
    for name, value in result.items():
        print(f"{name:>32}: {value}")


if __name__ == "__main__":
    main()
