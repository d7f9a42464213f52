"""Importing shoal is side-effect free for its host: the environment is left alone, and
no order of imports changes where numba caches shoal's kernels. Each check runs in a
fresh interpreter (a subprocess), as a host's first import would."""

import json
import subprocess
import sys
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # each check starts an interpreter and imports numba (2-4 s)

ENVIRONMENT = """
import json, os, sys
before = dict(os.environ)
for name in sys.argv[1:]:
    __import__(name)
after = dict(os.environ)
print(json.dumps({k: [before.get(k), after.get(k)] for k in before.keys() | after.keys()
                  if before.get(k) != after.get(k)}))
"""

LOCATORS = """
import gc, importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
import shoal.systems
from numba.core.dispatcher import Dispatcher
from shoal.systems.core.kernel_cache import uses_locator
ours = [d for d in gc.get_objects()
        if isinstance(d, Dispatcher) and d.py_func.__module__.startswith("shoal.")]
print(json.dumps([len(ours), sorted(d.py_func.__module__ + "." + d.py_func.__qualname__
                                    for d in ours if not uses_locator(d))]))
"""


def _run(script: str, *modules: str) -> Any:
    done = subprocess.run(
        [sys.executable, "-c", script, *modules],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "modules",
    [("shoal",), ("shoal.systems", "shoal.components"), ("shoal.systems.core.threads",)],
)
def test_importing_shoal_leaves_the_environment_unchanged(modules: tuple[str, ...]) -> None:
    assert _run(ENVIRONMENT, *modules) == {}


def test_starting_numbas_threads_leaves_the_environment_unchanged() -> None:
    """GNU OpenMP's spin count is shoal's only while numba loads its threading layer."""
    script = ENVIRONMENT.replace(
        "after = dict(os.environ)",
        "from shoal.systems.core.threads import native_threads\n"
        "native_threads()\nafter = dict(os.environ)",
    )
    assert _run(script, "shoal") == {}


@pytest.mark.parametrize(
    "modules",
    [
        (),
        ("shoal.systems.collision.kernel", "shoal.systems.steering.plain"),
        ("shoal.systems.obstacles.shape_kernel", "shoal.systems.core.kernel_cache"),
        ("shoal.game",),
    ],
)
def test_every_kernel_is_cached_by_shoals_locator_whatever_the_import_order(
    modules: tuple[str, ...],
) -> None:
    count, missed = _run(LOCATORS, *modules)
    assert count > 100
    assert missed == []
