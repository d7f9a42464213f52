"""Run the game in a window or headless (imports arcade: decide headless mode first)."""

import argparse
import time
from pathlib import Path

import arcade

from shoal.game.level import Level
from shoal.game.tank import FISH, Tank
from shoal.game.tank_view import TankFactory, TankView
from shoal.systems import warm_up

WINDOW_TITLE = "shoal: fish tank"
HEADLESS_FRAMES = 300  # five simulated seconds
SCREENSHOT = "shoal-screenshot.png"


class NoDisplayError(RuntimeError):
    """No window could be opened (no display server, or no OpenGL for it)."""


def tank_factory(options: argparse.Namespace, headless: bool) -> TankFactory:
    """A function that builds each level's tank with the command line's options."""
    species = FISH
    if options.preset is not None:
        from shoal.game.presets import preset

        species = preset(options.preset).species(FISH)

    def make(level: Level) -> Tank:
        return Tank(level, seed=options.seed, fish=options.fish, species=species,
                    leader=not options.no_leader, autopilot=headless)  # fmt: skip

    return make


def run(level: Level, options: argparse.Namespace, headless: bool) -> int:
    """Play `level`; returns the exit status."""
    print("shoal: loading the flocking kernels (the first run after install compiles them)")
    print(f"shoal: kernels ready in {warm_up():.1f} s")
    make = tank_factory(options, headless)
    if headless:
        frames = HEADLESS_FRAMES if options.frames is None else options.frames
        return run_headless(level, make, frames, options.screenshot or Path(SCREENSHOT),
                            options.stats)  # fmt: skip
    return run_windowed(level, make, options)


def run_windowed(level: Level, make: TankFactory, options: argparse.Namespace) -> int:
    """A resizable window on a fixed 60 Hz simulation clock; until closed."""
    try:
        window = arcade.Window(1280, 720, WINDOW_TITLE, resizable=True, fixed_rate=1 / 60)
    except Exception as error:  # pyglet raises its own types, which vary by platform
        raise NoDisplayError(f"{type(error).__name__}: {error}") from error
    if not arcade.timings_enabled():
        arcade.enable_timings()
    view = TankView(level, make, options.stats, options.frames, options.screenshot)
    window.show_view(view)
    arcade.run()
    view.write_stats()
    return 0


def run_headless(level: Level, make: TankFactory, frames: int, screenshot: Path,
                 stats: Path | None) -> int:  # fmt: skip
    """Step `frames` fixed steps with no window shown, then save a picture (and stats).

    A headless `arcade.run()` never calls `on_fixed_update`, so the steps are a plain loop.
    The leader follows a scripted path, so the picture shows real schooling.
    """
    window = arcade.Window(1280, 720, WINDOW_TITLE, visible=False)
    view = TankView(level, make, stats)
    view.interpolate = False  # no frame clock runs here: draw the latest step
    window.show_view(view)
    started = time.perf_counter()
    for _ in range(frames):
        view.step()
    elapsed = time.perf_counter() - started
    print(f"shoal: {level.title}: {frames} steps ({frames / 60:.1f} s) of {view.tank.fish} fish "
          f"in {elapsed:.2f} s; status {view.tank.status}, score {view.tank.score}")  # fmt: skip
    view.save_screenshot(screenshot)
    view.write_stats()
    view.tank.close()
    window.close()
    return 0
