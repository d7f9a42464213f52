"""Where numba keeps shoal's compiled kernels, and when they are stale.

numba's own cache (``cache=True``) has two habits that cost shoal dearly:

- It judges a cached kernel fresh by the source file that defines it, not by the files of
  the kernels it calls: after a change to ``core/vision.py`` the steering kernel, which
  calls it, still loads its old machine code. Here every kernel's freshness is one hash of
  all of shoal's kernel sources, so any change recompiles everything that may depend on it.
- It keeps the cache beside the source (``__pycache__``) or in a user folder named after
  the source's absolute path. A cache written when the package was built (``pip install``
  compiles the kernels, see ``setup.py``) must still count once the package is installed
  elsewhere: here the place is beside the source and the stamp depends only on contents.

Importing this module registers the locator with numba (``shoal.systems`` imports it, in
any order): kernels defined from then on use it, and those of shoal's modules already
imported are moved onto it (numba picks a kernel's locator when the kernel is defined).
Where the package folder cannot be written, numba falls back to its own locators (a
user-wide cache).
"""

import contextlib
import functools
import hashlib
import inspect
import math
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numba
from numba.core import caching
from numba.core.dispatcher import Dispatcher

_SYSTEMS = Path(__file__).resolve().parents[1]  # shoal.systems: every kernel lives below it
_MARKS = (b"numba.njit", b"njit_no_refcount")  # a file that defines kernels says so


@functools.cache
def kernel_sources_hash() -> str:
    """The hash every cached kernel of shoal is checked against (see `sources_hash`)."""
    return sources_hash(_SYSTEMS)


def sources_hash(folder: Path) -> str:
    """One hash of every source file below `folder` that defines numba kernels, and of
    numba's version."""
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(folder.rglob("*.py")):
        text = path.read_bytes()
        if any(mark in text for mark in _MARKS):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(text)
    return digest.hexdigest()


class KernelCacheLocator(caching._CacheLocator):
    """numba cache locator for shoal's kernels: beside the source, fresh while no kernel
    source of the package has changed."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        # Beside the file itself: in a strict editable install (README, Development), the
        # checkout's folders, not the link tree, which a reinstall rebuilds empty.
        self._cache_path = os.path.join(os.path.dirname(os.path.realpath(py_file)), "__pycache__")

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return kernel_sources_hash()

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> "KernelCacheLocator | None":
        if not _is_ours(py_file):
            return None
        locator = cls(py_func, py_file)
        try:
            os.makedirs(locator._cache_path, exist_ok=True)
            tempfile.TemporaryFile(dir=locator._cache_path).close()
        except OSError:
            return None  # not writable: numba's own locators take over
        return locator


def _is_ours(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().is_relative_to(_SYSTEMS)
    except (OSError, ValueError):
        return False


def _register() -> None:
    """Put the locator first in numba's list (once; numba before 0.62 named it _CacheImpl),
    then move the cached kernels of shoal's modules imported before this one onto it."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # type: ignore[attr-defined]
    if KernelCacheLocator not in impl._locator_classes:
        impl._locator_classes = [KernelCacheLocator, *impl._locator_classes]
    for name, module in list(sys.modules.items()):
        if name.startswith("shoal.") and module is not None:
            for value in list(vars(module).values()):
                if isinstance(value, Dispatcher) and not uses_locator(value):
                    cache = getattr(value, "_cache", None)
                    if isinstance(cache, caching.FunctionCache) and _is_ours(
                        inspect.getfile(value.py_func)
                    ):
                        value.enable_caching()  # a new cache: numba asks the locators again


def uses_locator(dispatcher: Any) -> bool:
    """Whether the kernel `dispatcher` is cached by `KernelCacheLocator`."""
    impl = getattr(getattr(dispatcher, "_cache", None), "_impl", None)
    return isinstance(getattr(impl, "locator", None), KernelCacheLocator)


_register()


def cached(dispatcher: Any) -> bool:
    """Whether numba's cache holds a compiled version of the kernel `dispatcher` for the
    sources as they are now and for this CPU (a stale or missing entry, or only entries for
    another CPU, as in a wheel built elsewhere: False)."""
    try:
        index = dispatcher._cache._cache_file._load_index()
        this_cpu = dispatcher.targetctx.codegen().magic_tuple()
        return any(key[1] == this_cpu for key in index)  # numba's key: (signature, CPU, code)
    except Exception:  # numba's private layout changed: as if nothing were cached
        return False


def installed_package() -> bool:
    """Whether shoal runs from an installed package (pip's site folder), not from a checkout
    (an editable install, whose kernels compile on first use, as a changed source needs)."""
    return _SYSTEMS.parents[1].name in ("site-packages", "dist-packages")


_INSTALLED = installed_package()
_RECHECK_SECONDS = 1.0  # how often a kernel found not ready is looked for in the cache again
_looked: dict[int, float] = {}  # id(dispatcher) → when the cache last held nothing for it


def ready(dispatcher: Any) -> bool:
    """Whether calling the kernel `dispatcher` now compiles nothing: it is compiled in this
    process already, or in the cache (a child compiles the rest of an installed package's
    kernels after its install: `shoal.systems.ahead`). In a checkout: always True (its
    kernels compile on first use). A stage with another way to run (the pool rather than a
    threaded driver) takes it while this is False, so that nothing compiles on a frame."""
    if not _INSTALLED or not isinstance(dispatcher, Dispatcher) or dispatcher.signatures:
        return True
    now = time.monotonic()
    if now - _looked.get(id(dispatcher), -math.inf) < _RECHECK_SECONDS:
        return False
    found = cached(dispatcher)
    if not found:
        _looked[id(dispatcher)] = now
    return found


@contextlib.contextmanager
def as_installed() -> Iterator[None]:
    """Judge `ready` as an installed package does, whatever folder shoal runs from: the
    package build (setup.py, in its build folder) compiles what an installed package's first
    steps go through (a crowd on the pool while its threaded driver is not cached), not what
    a checkout's would (the threaded drivers too: ~6 s more of compiling)."""
    global _INSTALLED  # one flag, read by every `ready`
    was, _INSTALLED = _INSTALLED, True
    try:
        yield
    finally:
        _INSTALLED = was
