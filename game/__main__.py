"""Play the shoal fish tank: ``shoal`` or ``python -m shoal.game`` (``--help``: the options,
the keys and the goal).

Lead the school with the mouse, click to drop food, keep clear of the sharks. Without a
display (no DISPLAY / WAYLAND_DISPLAY on Linux, or no window can be opened) it says so,
plays a short headless demo and saves a screenshot (./shoal-screenshot.png).

arcade reads ``ARCADE_HEADLESS`` and opens its audio driver when it is imported, so this
module decides headless mode and the sound backend before it imports anything that imports
arcade. A user's mistake (unknown level, broken file, bad option, an output path that cannot
be written) ends with status 2 and one line on stderr, before anything runs.
"""

import argparse
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from shoal.game.help_text import GOAL, KEYS
from shoal.game.level import Level, LevelError, level_names, load_level
from shoal.game.level.messages import clip
from shoal.game.outputs import shown, writable_problem
from shoal.game.presets import PRESETS
from shoal.game.sound import choose_backends
from shoal.game.tank import MAX_FISH, MIN_FISH  # arcade-free: safe before the headless decision

PROG = "shoal"
MAX_FRAMES = 60 * 60 * 24  # a day of game time; more is surely a typing mistake
MAX_SEED = 2**64 - 1  # a seed of 64 bits is plenty; a longer number is a typing mistake
MAX_ERROR_CHARS = 200  # an option's error, before the program's name


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """Bad options: one short printable line on stderr, status 2 (argparse's own also
        prints the usage, and echoes an unknown option as it came: escapes and all)."""
        self.exit(2, f"{self.prog}: error: {clip(message, MAX_ERROR_CHARS)}\n")


def _count(limit: int, why: str = "", low: int = 0) -> Callable[[str], int]:
    """A parser of whole numbers in low..limit; `why` explains the limit in the message."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:  # not a number, or more digits than Python reads (4,300)
            value = low - 1
        if not low <= value <= limit:
            raise argparse.ArgumentTypeError(
                f"must be a whole number in {low}..{limit:,}{why}, got {text[:40]!r}"
            )
        return value

    return parse


def _output(suffix: str) -> Callable[[str], Path]:
    def parse(text: str) -> Path:
        path = Path(text)
        if path.suffix.lower() != suffix:
            raise argparse.ArgumentTypeError(f"'{shown(text)}' does not end in {suffix}")
        try:
            folder = path.parent.is_dir()
        except OSError as error:  # a name too long for the system, a folder we may not see
            raise argparse.ArgumentTypeError(f"'{shown(text)}': {error.strerror}") from None
        if not folder:
            raise argparse.ArgumentTypeError(f"folder '{shown(path.parent)}' does not exist")
        return path

    return parse


def epilog() -> str:
    """What ``--help`` says after the options: the controls (the help card's own lines) and
    the goal."""
    controls = "\n".join(f"  {line}" for line in KEYS)
    return f"keys in the game (H shows this list there):\n{controls}\n\n{textwrap.fill(GOAL, 79)}"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command-line options; exits with status 2 and one line on stderr if bad."""
    parser = _Parser(
        prog=PROG, description="A fish tank: lead your school, feed it, survive.",
        epilog=epilog(), formatter_class=argparse.RawDescriptionHelpFormatter,  # keeps its lines
    )  # fmt: skip
    parser.add_argument("--level", default=None, help=f"a name ({', '.join(level_names())}) "
                        "or a .tmj path (default: the first level)")  # fmt: skip
    parser.add_argument("--seed", type=_count(MAX_SEED), default=0, help="random seed (default 0)")
    parser.add_argument("--fish", type=_count(MAX_FISH, " (the most the game runs smoothly)",
                                              low=MIN_FISH),
                        help=f"fish in the school ({MIN_FISH} to {MAX_FISH:,})")  # fmt: skip
    parser.add_argument("--preset", choices=sorted(PRESETS), help="the school's behaviour")
    parser.add_argument("--no-leader", action="store_true", help="no leader fish")
    parser.add_argument("--free", action="store_true",
                        help="free swim: no goal and no end, food without limit (watch the "
                             "presets and the tuning panel)")  # fmt: skip
    parser.add_argument("--headless", action="store_true", help="run without a window")
    parser.add_argument("--frames", type=_count(MAX_FRAMES), help="fixed steps to run, then exit")
    parser.add_argument("--screenshot", type=_output(".png"), metavar="PATH",
                        help="save the last frame as a PNG")  # fmt: skip
    parser.add_argument("--stats", type=_output(".json"), metavar="PATH",
                        help="write flock metrics, one record per simulated second")  # fmt: skip
    return parser.parse_args(argv)


def display_missing() -> bool:
    """True on Linux / BSD with no X11 or Wayland display to open a window on."""
    if sys.platform in ("win32", "darwin"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def first_level(option: str | None) -> Level:
    """The level named by --level (a name or a path), or the first one."""
    return load_level(option if option is not None else level_names()[0])


def output_problem(options: argparse.Namespace) -> str:
    """Why --screenshot or --stats cannot be written ("" when both can), checked before the
    run so that a bad path never costs the whole run."""
    for option, path in (("--screenshot", options.screenshot), ("--stats", options.stats)):
        problem = writable_problem(path) if path is not None else ""
        if problem:
            return f"{option}: {problem}"
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, choose window or headless, play; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    options = parse_args(args)
    try:
        level = first_level(options.level)
    except LevelError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    problem = output_problem(options)
    if problem:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
        return 2
    headless = options.headless or bool(os.environ.get("ARCADE_HEADLESS"))
    if not headless and display_missing():
        print("shoal: no display (DISPLAY and WAYLAND_DISPLAY are unset): "
              "playing a short headless demo")  # fmt: skip
        headless = True
    if headless:
        os.environ["ARCADE_HEADLESS"] = "1"  # must precede the first import of arcade
    sound = choose_backends(headless)  # so must this: importing arcade opens the audio

    from shoal.game import play

    try:
        return play.run(level, options, headless, sound)
    except play.NoDisplayError as error:
        # arcade is already imported in windowed mode here, so headless needs a new process.
        print(f"shoal: cannot open a window ({error}): playing headless")
        env = {**os.environ, "ARCADE_HEADLESS": "1"}
        return subprocess.call([sys.executable, "-m", "shoal.game", *args, "--headless"], env=env)


if __name__ == "__main__":
    sys.exit(main())
