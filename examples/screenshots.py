"""Take the README's picture of every example: ``docs/images/<example>.png``, and of the
arcade examples with shoal added: ``docs/images/arcade_<example>.png``.

Run from the repository root: ``python -m examples.screenshots``. Each example runs headless
in a process of its own (arcade reads ``ARCADE_HEADLESS`` once, when it is imported), plays by
itself for a set time and saves its last frame. The games are seeded, so the pictures come
out the same each time (unless a loaded machine makes the flock drop steps).
"""

import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

EXAMPLES: dict[str, int] = {"swarm_shooter": 390, "bird_platformer": 300, "fish_pond": 300}
"""Each example's module name, and the fixed step its picture is taken at (a busy moment)."""

ARCADE_EXAMPLES: dict[str, float] = {
    "dual_stick_shooter": 14.0,
    "template_platformer": 25.0,
    "sprite_move_scrolling": 30.0,
    "procedural_caves_cellular": 20.0,
}
"""Each arcade example's module name (examples/from_arcade), and the seconds of play its
picture is taken after."""

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"


def screenshot(name: str, frames: int, path: Path) -> None:
    """Run example `name` headless for `frames` steps and save its last frame at `path`."""
    command = [sys.executable, "-m", f"examples.{name}", "--headless", "--frames", str(frames)]
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    subprocess.run([*command, "--screenshot", str(path)], cwd=ROOT, env=env, check=True)
    with Image.open(path) as image:
        small = image.convert("RGB")  # no alpha channel: smaller files, same picture
    small.save(path, optimize=True)


def arcade_screenshot(name: str, seconds: float, path: Path) -> None:
    """Play arcade example `name` headless for `seconds` and save its last frame at `path`."""
    command = [sys.executable, "-m", "examples.from_arcade.play", name, "--seconds",
               str(seconds), "--draw-every", "600", "--screenshot", str(path)]  # fmt: skip
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    """Take every example's picture."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name, frames in EXAMPLES.items():
        path = IMAGES / f"{name}.png"
        screenshot(name, frames, path)
        print(f"{path.relative_to(ROOT)}: {name} after {frames} steps")
    for name, seconds in ARCADE_EXAMPLES.items():
        path = IMAGES / f"arcade_{name}.png"
        arcade_screenshot(name, seconds, path)
        print(f"{path.relative_to(ROOT)}: {name} after {seconds} s")


if __name__ == "__main__":
    main()
