"""Startup: kernels are prepared with progress, on a background thread if asked, into a cache
that goes stale when any kernel source changes; the game's loading screen keeps drawing."""

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import arcade
import esper
import numba
import pytest
from numba.core import caching

from shoal.components import Species
from shoal.game.loading import LoadingView
from shoal.systems import FlockConfig, Preparation, ahead, install, prepare, warm_up, warmup
from shoal.systems.core import kernel_cache
from shoal.systems.core.maths import clamp_length
from shoal.systems.steering.kernel import steer


def test_warm_up_reports_progress_from_zero_to_one() -> None:
    seen: list[tuple[float, str]] = []
    warm_up(lambda done, label: seen.append((done, label)))
    fractions = [done for done, _ in seen]
    assert fractions[0] == 0.0 and seen[-1] == (1.0, "ready")
    assert fractions == sorted(fractions)
    assert {"neighbours", "steering", "collisions", "queries and metrics"} <= {
        label for _, label in seen
    }


def test_warm_up_refuses_a_progress_that_is_not_callable() -> None:
    with pytest.raises(ValueError, match="progress"):
        warm_up(progress=3)  # type: ignore[arg-type]


def test_prepare_returns_at_once_and_finishes_on_another_thread(fresh_world: str) -> None:
    preparation = prepare()
    assert isinstance(preparation, Preparation)
    assert preparation.wait(120.0)
    assert preparation.done and preparation.error is None
    assert (preparation.fraction, preparation.label) == (1.0, "ready")
    assert preparation.seconds > 0.0
    assert esper.current_world == fresh_world
    assert not any(t.name == "shoal-prepare" for t in threading.enumerate() if t.is_alive())


def test_prepare_keeps_what_stopped_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(progress: object = None) -> float:
        raise MemoryError("no room")

    monkeypatch.setattr("shoal.systems.warmup.warm_up", broken)
    preparation = prepare()
    assert preparation.wait(10.0)
    assert isinstance(preparation.error, MemoryError)


def test_shoal_kernels_use_shoal_cache_locator() -> None:
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # type: ignore[attr-defined]
    assert impl._locator_classes[0] is kernel_cache.KernelCacheLocator
    locator = steer._cache._impl.locator  # type: ignore[attr-defined]  # numba's record
    assert isinstance(locator, kernel_cache.KernelCacheLocator)
    assert locator.get_source_stamp() == kernel_cache.kernel_sources_hash()
    assert Path(locator.get_cache_path()).name == "__pycache__"


def test_a_change_to_any_kernel_source_makes_every_kernel_stale(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("@numba.njit\ndef f(): pass\n")
    (tmp_path / "b.py").write_text("import numba\n@numba.njit\ndef g(): pass\n")
    (tmp_path / "plain.py").write_text("x = 1\n")
    before = kernel_cache.sources_hash(tmp_path)
    (tmp_path / "plain.py").write_text("x = 2\n")  # no kernel there: nothing goes stale
    assert kernel_cache.sources_hash(tmp_path) == before
    (tmp_path / "b.py").write_text("import numba\n@numba.njit\ndef g(): return 1\n")
    assert kernel_cache.sources_hash(tmp_path) != before


def test_numbas_own_functions_keep_numbas_locators(tmp_path: Path) -> None:
    source = tmp_path / "elsewhere.py"
    source.write_text("def f():\n    return 1\n")

    def f() -> int:
        return 1

    assert kernel_cache.KernelCacheLocator.from_function(f, str(source)) is None


def test_a_kernel_is_ready_once_compiled_here_or_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel_cache, "_INSTALLED", True)  # as after a package install
    monkeypatch.setattr(kernel_cache, "_looked", {})

    @numba.njit(cache=False)
    def double(x: int) -> int:
        return 2 * x

    assert not kernel_cache.ready(double)  # neither compiled here nor in any cache
    assert double(2) == 4
    assert kernel_cache.ready(double)
    monkeypatch.setattr(kernel_cache, "_INSTALLED", False)  # a checkout compiles on first use

    @numba.njit(cache=False)
    def triple(x: int) -> int:
        return 3 * x

    assert kernel_cache.ready(triple) and kernel_cache.ready(len)


# --- the game's loading screen -----------------------------------------------------------
class _Next(arcade.View):
    pass


def test_loading_screen_draws_until_ready_then_shows_the_game(window: arcade.Window) -> None:
    preparation = Preparation()
    made: list[arcade.View] = []

    def then() -> arcade.View:
        made.append(_Next())
        return made[0]

    first: list[bool] = []
    view = LoadingView(preparation, then, on_first_frame=lambda: first.append(True))
    window.show_view(view)
    for fraction in (0.0, 0.3, 0.6):
        preparation._progress(fraction, "steering")
        view.on_update(1 / 60)
        view.on_draw()
    assert window.current_view is view
    assert view.frames == 3 and first == [True]
    image = arcade.get_image(0, 0, *window.get_size())
    assert len(set(image.getdata())) > 2  # a card and a bar, not a blank window
    preparation._progress(1.0, "ready")
    preparation._finished.set()
    view.on_update(1 / 60)
    assert made and window.current_view is made[0]


def test_loading_screen_closes_the_window_with_the_reason_on_failure(
    window: arcade.Window, monkeypatch: pytest.MonkeyPatch
) -> None:
    preparation = Preparation(error=OSError("disk full\nmore"))
    preparation._finished.set()
    closed: list[bool] = []
    monkeypatch.setattr(window, "close", lambda: closed.append(True))
    view = LoadingView(preparation, _Next)
    window.show_view(view)
    view.on_update(1 / 60)  # draws a frame first, whatever happens
    assert not closed
    view.on_draw()
    view.on_update(1 / 60)
    assert closed and view.failure == ("could not prepare the flocking kernels: OSError: disk full")


def test_loading_screen_measures_its_longest_frame(window: arcade.Window) -> None:
    view = LoadingView(Preparation(), _Next)
    window.show_view(view)
    view.on_draw()
    time.sleep(0.05)
    view.on_draw()
    assert 0.05 <= view.longest_gap < 5.0


def _prepare_cold(monkeypatch: pytest.MonkeyPatch, popen: Any) -> list[tuple[float, str]]:
    """Every progress report of a `prepare()` that finds the cache cold and starts its child
    process with `popen` (in place of `subprocess.Popen`); it must end without an error."""
    monkeypatch.setattr(warmup, "warm_up_compiled", lambda: False)
    monkeypatch.setattr(subprocess, "Popen", popen)
    seen = _reports(monkeypatch)
    preparation = prepare()
    assert preparation.wait(300.0) and preparation.error is None
    return seen


def _reports(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, str]]:
    """Every progress report of the next `prepare()`, in order."""
    seen: list[tuple[float, str]] = []

    def record(self: Preparation, done: float, label: str) -> None:
        seen.append((done, label))
        self.fraction, self.label = done, label

    monkeypatch.setattr(Preparation, "_progress", record)
    return seen


def test_prepare_compiles_a_cold_cache_in_a_child_process(
    monkeypatch: pytest.MonkeyPatch, fresh_world: str
) -> None:
    # Compiled on the game's thread, numba held the interpreter's lock for up to 1.15 s at a
    # time (the loading screen's longest frame); in a child it cannot.
    started: list[list[str]] = []
    real = subprocess.Popen

    def spy(command: list[str], **kwargs: Any) -> Any:
        started.append(command)
        return real(command, **kwargs)

    seen = _prepare_cold(monkeypatch, spy)
    assert started and started[0][0] == sys.executable
    child = [done for done, label in seen if done < warmup._COMPILED_SHARE]
    assert child and max(child) > 0.9 * warmup._COMPILED_SHARE  # the child's own reports
    assert (warmup._COMPILED_SHARE, "neighbours") in seen  # then loaded here, from the cache
    assert seen[-1] == (1.0, "ready") and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_prepare_compiles_on_its_thread_where_no_child_can_start(
    monkeypatch: pytest.MonkeyPatch, fresh_world: str
) -> None:
    def refuse(command: list[str], **kwargs: Any) -> Any:
        raise OSError("no processes left")

    seen = _prepare_cold(monkeypatch, refuse)
    assert seen[0] == (0.0, "neighbours") and seen[-1] == (1.0, "ready")


def test_a_child_that_stops_leaves_the_rest_to_the_thread_and_the_bar_never_goes_back(
    monkeypatch: pytest.MonkeyPatch, fresh_world: str
) -> None:
    real = subprocess.Popen
    stops = [sys.executable, "-c", "print('0.5\\tsteering', flush=True); raise SystemExit(1)"]

    def failing(command: list[str], **kwargs: Any) -> Any:
        return real(stops, **kwargs)

    seen = _prepare_cold(monkeypatch, failing)
    half = 0.5 * warmup._COMPILED_SHARE
    assert seen[:2] == [(half, "steering"), (half, "neighbours")]  # the thread goes on from there
    assert seen[-1] == (1.0, "ready") and [d for d, _ in seen] == sorted(d for d, _ in seen)


# --- what the package build compiles, and the rest in the background (systems/ahead.py) ---
FIRST_STEPS_CHECK = """
import json, sys
from numba.core.dispatcher import Dispatcher
import shoal
from shoal.systems.core import threads
from shoal.systems.warmup import compile_first_steps

def signatures():
    return {(name, key, str(sig)) for name, module in list(sys.modules.items())
            if name.startswith("shoal.") and module is not None
            for key, value in vars(module).items() if isinstance(value, Dispatcher)
            for sig in value.signatures}

compile_first_steps()  # loads (or compiles) the first steps' kernels in this process
# As after a package install, before the child has compiled the threaded drivers.
threads.kernel_ready = lambda native: False
before = signatures()
for boids, boundary in ((300, "contain"), (2000, "contain"), (120, "wrap"), (700, "bounce")):
    config = shoal.FlockConfig(800, 600, seed=3, boundary=boundary)
    flock = shoal.install(config, [shoal.Species("fish")], world=f"w{boids}")
    flock.scatter("fish", boids)
    for _ in range(3):
        flock.step()
print(json.dumps(sorted(signatures() - before)))
"""


def test_the_first_steps_hold_every_kernel_an_embedding_scripts_first_steps_need() -> None:
    # A fresh process, so that only what `compile_first_steps` compiled or loaded counts.
    done = subprocess.run([sys.executable, "-c", FIRST_STEPS_CHECK], capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.splitlines()[-1]) == []


@pytest.mark.slow
@pytest.mark.parametrize("control", [False, True])
def test_the_package_build_holds_every_kernel_of_the_headless_demo(control: bool) -> None:
    # A fresh process: only what the package build compiles counts (package_check.py). The
    # control compiles the first steps only, and the check sees the level's kernels as new.
    check = [sys.executable, str(Path(__file__).with_name("package_check.py"))]
    done = subprocess.run([*check, "--control"] if control else check, capture_output=True,
                          text=True, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["status"] == 0
    if control:
        assert found["new"], "the control compiled nothing new: the check would catch nothing"
    else:
        assert found["new"] == {}, f"the headless demo compiled: {found['new']}"


def test_a_kernel_cached_for_another_cpu_is_not_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    # A wheel built on another machine carries an index whose entries are keyed by that
    # CPU: numba recompiles here, so the kernel does not count as ready.
    clamp_length(3.0, 4.0, 1.0)  # compiled (or loaded) here, so cached for this CPU
    assert kernel_cache.cached(clamp_length)
    target: Any = clamp_length.targetctx  # numba's CPU target (its stubs do not list it)
    codegen = target.codegen()
    here = codegen.magic_tuple()
    monkeypatch.setattr(codegen, "magic_tuple", lambda: (here[0], "another-cpu", ""))
    assert not kernel_cache.cached(clamp_length)


def test_as_installed_a_kernel_not_cached_is_not_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    # The package build runs from its build folder, which counts as a checkout: there it
    # compiles what an installed package's first steps take, a crowd on the pool.
    monkeypatch.setattr(kernel_cache, "_looked", {})

    @numba.njit(cache=False)
    def fresh(x: int) -> int:
        return x + 1

    assert kernel_cache.ready(fresh)  # the tests run from a checkout
    with kernel_cache.as_installed():
        assert not kernel_cache.ready(fresh)
    assert kernel_cache.ready(fresh)


@pytest.fixture
def after_a_package_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Any]:
    """The state `pip install .` leaves (the first steps cached, the rest not), with the
    lock in `tmp_path` and every child that `ahead` starts recorded (a child that exits)."""
    monkeypatch.setattr(ahead, "installed_package", lambda: True)
    monkeypatch.setattr(ahead, "first_steps_compiled", lambda: True)
    monkeypatch.setattr(ahead, "warm_up_compiled", lambda: False)
    monkeypatch.setattr(ahead, "_LOCK", tmp_path / "lock")
    monkeypatch.setattr(ahead, "_children", [])
    started: list[Any] = []
    real = subprocess.Popen

    def spy(command: list[str], **kwargs: Any) -> Any:
        started.append(command)
        return real([sys.executable, "-c", "pass"], **kwargs)

    monkeypatch.setattr(subprocess, "Popen", spy)
    return started


def test_a_checkout_compiles_on_first_use_and_starts_no_child() -> None:
    assert not kernel_cache.installed_package()  # the tests run from the checkout
    assert not ahead.compile_rest_in_background()


def test_after_a_package_install_the_first_install_starts_one_child(
    after_a_package_install: list[Any],
) -> None:
    flock = install(FlockConfig(), [Species("fish")], world="first")
    install(FlockConfig(), [Species("fish")], world="second")
    (command,) = after_a_package_install  # one child, for the first install only
    assert command[0] == sys.executable and "warm_up()" in command[-1]
    assert "hold_lock" in command[-1]  # and it gives way to another process's child
    assert ahead.background_child() is not None
    flock.scatter("fish", 10)
    flock.step()


def test_no_child_while_another_process_holds_the_lock_or_this_one_compiles(
    after_a_package_install: list[Any],
) -> None:
    assert ahead.hold_lock()  # as another process's child would
    assert not ahead.hold_lock()  # one holder at a time
    assert not ahead.compile_rest_in_background()
    os.close(ahead._held.pop())
    with ahead.compiling_here():
        assert not ahead.compile_rest_in_background()
    assert after_a_package_install == []
    assert ahead.compile_rest_in_background()


def test_prepare_waits_for_the_child_an_install_started(
    monkeypatch: pytest.MonkeyPatch, fresh_world: str
) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.3)"])
    monkeypatch.setattr(ahead, "_children", [child])
    monkeypatch.setattr(warmup, "warm_up_compiled", lambda: False)
    monkeypatch.setattr(warmup, "background_child", ahead.background_child)
    seen = _reports(monkeypatch)
    preparation = prepare()
    assert preparation.wait(300.0) and preparation.error is None
    assert child.returncode == 0  # waited for, not compiled again in a child of its own
    assert seen[0] == (0.0, "compiling in the background")
    assert (warmup._COMPILED_SHARE, "neighbours") in seen and seen[-1] == (1.0, "ready")
