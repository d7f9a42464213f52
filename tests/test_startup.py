"""Startup: kernels are prepared with progress, on a background thread if asked, into a cache
that goes stale when any kernel source changes; the game's loading screen keeps drawing."""

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import arcade
import esper
import pytest
from numba.core import caching

from shoal.game.loading import LoadingView
from shoal.systems import Preparation, prepare, warm_up, warmup
from shoal.systems.core import kernel_cache
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
    monkeypatch.setattr(warmup, "cached", lambda dispatcher: False)
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
