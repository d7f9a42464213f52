"""After `compile_first_steps()` and `compile_package_level()` (what `pip install .` compiles
into the package), the README's first command, the headless demo of the first level,
compiles nothing more: run in a fresh process.

``python tests/package_check.py [--control]`` compiles (or loads) what the package build
does, notes every numba dispatcher's signatures, plays the headless demo as ``shoal`` does
without a display (its 300 steps and its picture, saved into a temporary folder), and prints
as JSON the signatures that were new (`new`). ``--control`` compiles only a flock's first
steps first: the check must then see the level's kernels as new.
"""

import json
import os
import sys
import tempfile
from contextlib import redirect_stdout
from pathlib import Path

os.environ["ARCADE_HEADLESS"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from warm_check import new_signatures, signatures

from shoal.game.__main__ import main as shoal
from shoal.game.level_kernels import compile_package_level
from shoal.systems.warmup import compile_first_steps


def main() -> None:
    """Compile what the build does (or, with --control, less), then play the demo."""
    compile_first_steps()
    if "--control" not in sys.argv:
        compile_package_level()
    before = signatures()
    with tempfile.TemporaryDirectory() as folder, redirect_stdout(sys.stderr):
        status = shoal(["--screenshot", str(Path(folder) / "demo.png")])
    print(json.dumps({"status": status, "new": new_signatures(before, signatures())}))


if __name__ == "__main__":
    main()
