"""The kernels compiled ahead of use: which of them the cache holds, and a child process that
compiles the rest of them, in the background, after a package install.

`pip install .` compiles only the kernels that a flock's first step goes through
(`warmup.compile_first_steps`) and the fish tank's first level plays through (setup.py);
the others (the parallel drivers, the predators', attractors' and prey's, the queries and
metrics) would compile on the frame that first needs them, a stall of 0.5 to 6 s each. So
the first `install` of a process that finds the first steps cached but not the rest starts
one child process that runs the whole warm-up into the same cache, at a low priority, and
leaves it running; the host's own process then loads what the child compiled. A game
with a loading screen calls `shoal.prepare()` instead (see `warmup.py`).
"""

import contextlib
import functools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from numba.core.registry import cpu_target

from shoal.systems.core.kernel_cache import cached, installed_package
from shoal.systems.steering.kernel import rule_forces, steer, steer_chunks, steer_in_order

_FIRST_STEP_MARK = steer
"""Cached once the package build (or any first step) compiled the first steps."""
_WARM_UP_MARKS = (steer, steer_chunks, rule_forces, steer_in_order)
"""One kernel of each part of the warm-up that the first steps leave out: the parallel
drivers, the queries and explanations, the wrapping tank's update in order (the warm-up's
last). Every kernel's cache is stamped with one hash of all their sources
(`core/kernel_cache.py`), so a mark that is cached stands for its part."""
_CHILD = (
    "import os, sys\n"
    "from shoal.systems import ahead\n"
    "if not ahead.hold_lock(): sys.exit(0)  # another process compiles them\n"
    "if hasattr(os, 'nice'): os.nice(10)  # behind the host's own frames\n"
    "from shoal.systems import warm_up\n"
    "warm_up()\n"
)
_LOCK = Path(__file__).resolve().parent / "core" / "__pycache__" / "shoal-warm-up.lock"
"""Held by the child that compiles the rest, so that one process at a time does (beside
the kernels' cache: where that cannot be written, no child starts)."""
_here: list[bool] = []  # not empty while `compiling_here`
_children: list[subprocess.Popen[bytes]] = []  # kept: a child dropped while it runs warns
_held: list[int] = []  # the lock's file descriptor, while this process holds it


def hold_lock(wait: bool = False) -> bool:
    """Take the lock that one compiling child holds until it ends (`wait`: once the process
    that holds it ends); False if another process holds it, or it cannot be taken (no
    `fcntl`, or the folder is not writable)."""
    try:
        import fcntl  # POSIX only

        descriptor = os.open(_LOCK, os.O_WRONLY | os.O_CREAT, 0o644)
    except (ImportError, OSError):
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        return False
    _held.append(descriptor)  # open until the process ends, and the lock with it
    return True


def _lock_free() -> bool:
    """Whether a child could take the lock now (this process takes it and lets it go)."""
    if not hold_lock():
        return False
    os.close(_held.pop())
    return True


def first_steps_compiled() -> bool:
    """Whether the cache holds the kernels a flock's first step goes through."""
    return cached(_FIRST_STEP_MARK)


def warm_up_compiled() -> bool:
    """Whether the cache holds every kernel `warm_up` runs (as far as its marks tell)."""
    return all(cached(kernel) for kernel in _WARM_UP_MARKS)


@contextlib.contextmanager
def compiling_here() -> Iterator[None]:
    """While this process compiles the kernels itself (`warm_up`, the package build, the
    child of `prepare`): its installs start no child."""
    _here.append(True)
    try:
        yield
    finally:
        _here.pop()


@functools.cache
def prime_numba() -> None:
    """Have numba set up its compiler's context now, once per process (~0.3 s: it imports
    and registers its typing and lowering modules), which it would otherwise do while it
    loads the first kernel: inside the host's first `flock.step()`, on a frame."""
    cpu_target.typing_context.refresh()
    cpu_target.target_context.refresh()


def child_env() -> dict[str, str]:
    """The environment of a compiling child process: this one's, with its import path, so
    that the child imports this very shoal (a checkout, a test's path) and its cache."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def background_child() -> "subprocess.Popen[bytes] | None":
    """The child `compile_rest_in_background` started in this process, if it did."""
    return _children[-1] if _children else None


def compile_rest_in_background() -> bool:
    """After a package install (the first steps cached, the rest not), start the child that
    compiles the rest, once per process; True if it was started now.

    Nothing happens in a checkout (an editable install: its kernels compile on first use, as
    they always did), where the first steps are not cached either (a wheel built for another
    CPU: `prepare` is the way, see the README), or where no child can start (the kernels
    then compile on first use).
    """
    if _here or _children or not installed_package() or not first_steps_compiled():
        return False
    if warm_up_compiled() or not _lock_free():
        return False
    with contextlib.suppress(OSError):
        child = subprocess.Popen(
            [sys.executable, "-c", _CHILD],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=child_env(),
            start_new_session=True,  # outlives a host that quits first: the cache completes
        )
        _children.append(child)
        return True
    return False
