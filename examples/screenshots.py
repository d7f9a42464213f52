"""Take the README's picture of every example: ``docs/images/<example>.png``.

Run from the repository root: ``python -m examples.screenshots``. Each example runs headless
in a process of its own (arcade reads ``ARCADE_HEADLESS`` once, when it is imported), plays by
itself for a set number of fixed steps and saves its last frame. The games are seeded, so the
pictures come out the same each time.
"""

import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

EXAMPLES: dict[str, int] = {"swarm_shooter": 390, "bird_platformer": 300, "fish_pond": 300}
"""Each example's module name, and the fixed step its picture is taken at (a busy moment)."""

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


def main() -> None:
    """Take every example's picture."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name, frames in EXAMPLES.items():
        path = IMAGES / f"{name}.png"
        screenshot(name, frames, path)
        print(f"{path.relative_to(ROOT)}: {name} after {frames} steps")


if __name__ == "__main__":
    main()
