"""Run the shoal flock viewer.

Usage::

    python -m shoal.game                      # a window with 400 fish
    python -m shoal.game --fish 1000 --seed 3
    python -m shoal.game --headless --frames 120 --screenshot tank.png

Without a display (no DISPLAY / WAYLAND_DISPLAY on Linux, or no window can be opened) it
says so, simulates a few seconds headless and saves a screenshot (./shoal-screenshot.png).

arcade reads ``ARCADE_HEADLESS`` when it is imported, so this module decides headless mode
before it imports anything that imports arcade.
"""

import argparse
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from shoal.systems.flock import MAX_BOIDS  # arcade-free: safe before the headless decision

PROG = "python -m shoal.game"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """Bad options: one line on stderr, status 2 (argparse's own also prints the usage)."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def _count(limit: int | None = None) -> Callable[[str], int]:
    """A parser of whole numbers in 0..limit (no upper limit for None)."""
    wanted = "a whole number >= 0" if limit is None else f"a whole number in 0..{limit}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value < 0 or (limit is not None and value > limit):
            raise argparse.ArgumentTypeError(f"must be {wanted}, got {text!r}")
        return value

    return parse


def _png_path(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(f"{text!r} does not end in .png")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"folder {str(path.parent)!r} does not exist")
    return path


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line options; exits with status 2 and one line on stderr if bad."""
    parser = _Parser(prog=PROG, description="A tank of schooling fish (shoal's flock viewer).")
    parser.add_argument("--fish", type=_count(MAX_BOIDS), help="number of fish (default 400)")
    parser.add_argument("--seed", type=_count(), help="random seed (default 0)")
    parser.add_argument("--headless", action="store_true", help="run without a window")
    parser.add_argument(
        "--frames",
        type=_count(),
        help="simulation steps to run, then exit (headless default 300)",
    )
    parser.add_argument(
        "--screenshot", type=_png_path, metavar="PATH", help="save the last frame as a PNG"
    )
    return parser.parse_args(argv)


def display_missing() -> bool:
    """True on Linux / BSD with no X11 or Wayland display to open a window on."""
    if sys.platform in ("win32", "darwin"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, choose window or headless, run the viewer; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    options = parse_args(args)
    headless = options.headless or bool(os.environ.get("ARCADE_HEADLESS"))
    if not headless and display_missing():
        print("shoal: no display (DISPLAY and WAYLAND_DISPLAY are unset): running headless")
        headless = True
    if headless:
        os.environ["ARCADE_HEADLESS"] = "1"  # must precede the first import of arcade

    from shoal.game import viewer

    fish = viewer.FISH_COUNT if options.fish is None else options.fish
    seed = viewer.SEED if options.seed is None else options.seed
    try:
        status: int = viewer.main(
            fish, seed, headless=headless, frames=options.frames, screenshot=options.screenshot
        )
    except viewer.NoDisplayError as error:
        # arcade is already imported in windowed mode here, so headless needs a new process.
        print(f"shoal: cannot open a window ({error}): running headless")
        env = {**os.environ, "ARCADE_HEADLESS": "1"}
        command = [sys.executable, "-m", "shoal.game", *args, "--headless"]
        return subprocess.call(command, env=env)
    return status


if __name__ == "__main__":
    sys.exit(main())
