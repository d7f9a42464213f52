"""Build hook: compile the numba kernels that a flock's first step and the fish tank's first
level go through while the package is built, so that the first step and the first `shoal`
after ``pip install .`` find them ready (see shoal/systems/core/kernel_cache.py).

Everything else about the package is in pyproject.toml. The kernels are compiled from the
freshly built package in one child process (``warmup.compile_first_steps``, then
``game/level_kernels.py: compile_package_level``: about half of all the kernels' compile
time, ~32 s of CPU); their cache lands beside the sources in the build folder and travels
into the wheel. The rest (the parallel drivers,
predators, attractors and prey, the queries, the other levels) compile after the install,
in the background (systems/ahead.py), or behind the game's loading screen. A failure here
only costs the user the compile at first use, so it never fails the build. Editable
installs skip it (their kernels compile, and are cached in the checkout, on first use);
``SHOAL_SKIP_KERNEL_BUILD=1`` skips it too.
"""

import os
import subprocess
import sys
import time

from setuptools import setup
from setuptools.command.build_py import build_py

PACKAGE_KERNELS = (
    "from shoal.systems.warmup import compile_first_steps; compile_first_steps(); "
    # Imported once the first steps are cached: a build that cannot read the level (no
    # pytiled-parser) still leaves them.
    "from shoal.game.level_kernels import compile_package_level; compile_package_level()"
)


class BuildWithKernels(build_py):
    """build_py, then compile the first steps' kernels of the built package into its cache."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("SHOAL_SKIP_KERNEL_BUILD"):
            return
        started = time.perf_counter()
        # pip's isolated build finds its build requirements through PYTHONPATH: keep them.
        paths = [os.path.abspath(self.build_lib), os.environ.get("PYTHONPATH", "")]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
        result = subprocess.run([sys.executable, "-c", PACKAGE_KERNELS], env=env, check=False)
        took = time.perf_counter() - started
        if result.returncode == 0:
            print(f"shoal: the first steps' and first level's kernels compiled in {took:.1f} s")
        else:
            print("shoal: warning: could not compile all the kernels now; "
                  "the rest will compile on first use", file=sys.stderr)  # fmt: skip


setup(cmdclass={"build_py": BuildWithKernels})
