"""Build hook: compile shoal's numba kernels while the package is built, so that the first
launch after ``pip install .`` finds them ready (see shoal/systems/core/kernel_cache.py).

Everything else about the package is in pyproject.toml. The kernels are compiled from the
freshly built package in two child processes at once (the steering's kernels, and the rest:
numba's compiler runs on one core, and a cold compile takes about two minutes there), then
``warm_up()`` runs in a third, which loads them all and compiles what the two missed. Their
cache lands beside the sources in the build folder and travels into the wheel. A failure
here only costs the user the compile at first launch, so it never fails the build. Editable
installs skip it (their kernels compile, and are cached in the checkout, on first use);
``SHOAL_SKIP_KERNEL_BUILD=1`` skips it too.
"""

import os
import subprocess
import sys
import time

from setuptools import setup
from setuptools.command.build_py import build_py

WARM_UP = "from shoal.systems import warm_up; warm_up()"
COMPILE_GROUP = "from shoal.systems.warmup import _compile_group; _compile_group({})"
GROUPS = 2


class BuildWithKernels(build_py):
    """build_py, then compile the kernels of the built package into its numba cache."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("SHOAL_SKIP_KERNEL_BUILD"):
            return
        started = time.perf_counter()
        # pip's isolated build finds its build requirements through PYTHONPATH: keep them.
        paths = [os.path.abspath(self.build_lib), os.environ.get("PYTHONPATH", "")]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
        groups = [
            subprocess.Popen([sys.executable, "-c", COMPILE_GROUP.format(group)], env=env)
            for group in range(GROUPS)
        ]
        for child in groups:
            child.wait()  # a group that failed leaves its kernels to the warm-up below
        result = subprocess.run([sys.executable, "-c", WARM_UP], env=env, check=False)
        took = time.perf_counter() - started
        if result.returncode == 0:
            print(f"shoal: kernels compiled into the package in {took:.1f} s")
        else:
            print("shoal: warning: could not compile the kernels now; "
                  "they will compile on first use", file=sys.stderr)  # fmt: skip


setup(cmdclass={"build_py": BuildWithKernels})
