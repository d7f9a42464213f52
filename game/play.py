"""Run the game in a window or headless (imports arcade: decide headless mode first)."""

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

import arcade

from shoal.game.level import Level
from shoal.game.level_kernels import compiled_with_package
from shoal.game.loading import LevelPreparation, LoadingView, prepare_level
from shoal.game.outputs import writable_problem
from shoal.game.records import Records, setup_key
from shoal.game.sound import Sounds
from shoal.game.tank import FISH, Tank
from shoal.game.tank_save import save_path
from shoal.game.tank_view import TankFactory, TankView
from shoal.systems import Preparation, prepare
from shoal.systems.ahead import warm_up_compiled

WINDOW_TITLE = "shoal: fish tank"
HEADLESS_FRAMES = 300  # five simulated seconds
SCREENSHOT = "shoal-screenshot.png"
MIN_WINDOW = (640, 400)


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
                    leader=not options.no_leader, autopilot=headless,
                    free=options.free)  # fmt: skip

    return make


def run(level: Level, options: argparse.Namespace, headless: bool, sound: bool = False) -> int:
    """Play `level`; returns the exit status. `sound`: an audio device may play."""
    make = tank_factory(options, headless)
    if headless:
        # No frame to keep drawing: the level's kernels load (or compile) as it first runs.
        packaged = compiled_with_package(level, options.fish, options.stats is not None)
        if not warm_up_compiled() and not packaged:
            print("shoal: compiling the flocking kernels this level needs "
                  "(its first run after an install: about half a minute)")  # fmt: skip
        frames = HEADLESS_FRAMES if options.frames is None else options.frames
        return run_headless(level, make, frames, demo_screenshot(options.screenshot),
                            options.stats)  # fmt: skip
    return run_windowed(level, make, options, sound)


def startup_report(event: str) -> Callable[[], None] | None:
    """With ``SHOAL_STARTUP_REPORT=1`` in the environment, a function that prints when
    `event` happens (benchmarks/startup.py times the lines as they come); else None."""
    if not os.environ.get("SHOAL_STARTUP_REPORT"):
        return None
    return lambda: print(f"shoal: {event}", flush=True)


def demo_screenshot(asked: Path | None) -> Path | None:
    """The headless run's picture: the path asked for (checked already), else
    ./shoal-screenshot.png where the current folder takes it (else none, and it says so)."""
    if asked is not None:
        return asked
    problem = writable_problem(Path(SCREENSHOT))
    if problem:
        print(f"shoal: no screenshot: {problem}")
        return None
    return Path(SCREENSHOT)


def run_windowed(level: Level, make: TankFactory, options: argparse.Namespace,
                 sound: bool = False) -> int:  # fmt: skip
    """A resizable window; the simulation steps on the view's own fixed clock; until closed.

    A scripted run (``--frames``) skips the levels' intro cards and keeps no best scores
    and no save. Otherwise a level left mid-way (the window closed, Escape) is saved beside
    the best scores, and the next start offers to continue it.
    """
    try:
        window = arcade.Window(1280, 720, WINDOW_TITLE, resizable=True)
    except Exception as error:  # pyglet raises its own types, which vary by platform
        raise NoDisplayError(f"{type(error).__name__}: {error}") from error
    window.set_minimum_size(*MIN_WINDOW)
    if not arcade.timings_enabled():
        arcade.enable_timings()
    scripted = options.frames is not None
    records = None if scripted else Records()
    if records is not None and records.problem:
        print(f"shoal: {records.problem}", file=sys.stderr)
    games: list[TankView] = []
    preparation = prepare_kernels(level, options)
    level_ready = preparation.level_ready if isinstance(preparation, LevelPreparation) else None

    def start_game() -> TankView:
        report = startup_report(f"kernels ready (the longest frame while loading took "
                                f"{loading.longest_gap:.2f} s)")  # fmt: skip
        if report is not None:
            report()
        games.append(TankView(
            level, make, options.stats, options.frames, options.screenshot, intro=not scripted,
            records=records, record_key=lambda lv: setup_key(lv.name, options.fish,
                                                             options.preset),
            sounds=Sounds(enabled=sound), on_first_frame=startup_report("tank drawn"),
            save=None if scripted else save_path(), level_ready=level_ready,
        ))  # fmt: skip
        return games[0]

    loading = LoadingView(preparation, start_game, startup_report("window open"))
    window.show_view(loading)
    arcade.run()
    problems = [loading.failure]
    for game in games:  # the window closed or Escape: a level left mid-way is kept
        problems += [game.failure, game.write_stats(), game.save_progress()]
    problems = [problem for problem in problems if problem]
    for problem in problems:
        print(f"shoal: error: {problem}", file=sys.stderr)
    return 1 if problems else 0


def prepare_kernels(level: Level, options: argparse.Namespace) -> Preparation:
    """The loading screen's preparation: with the whole cache there, every kernel loaded
    (`prepare`, a second); with a cold one (the first launch after an install), the level's
    own kernels compiled first, so that its tank shows as soon as they are, and the rest
    compiled behind the game (`prepare_level`)."""
    if warm_up_compiled():
        return prepare()
    return prepare_level(level, options.fish, options.seed, measures=options.stats is not None)


def run_headless(level: Level, make: TankFactory, frames: int, screenshot: Path | None,
                 stats: Path | None) -> int:  # fmt: skip
    """Step `frames` fixed steps with no window shown, then save a picture (and stats).

    A headless `arcade.run()` would pace the steps by the wall clock; a plain loop runs them
    as fast as they go. The leader follows a scripted path, so the picture shows real
    schooling. No intro card, no sound, no best scores (the autopilot plays).
    """
    window = arcade.Window(1280, 720, WINDOW_TITLE, visible=False)
    view = TankView(level, make, stats, intro=False)
    view.interpolate = False  # no frame clock runs here: draw the latest step
    window.show_view(view)
    for _ in range(frames):
        view.step()
    tank = view.tank
    print(demo_summary(tank))  # then save_image's own line says where the picture went
    shot = view.save_screenshot(screenshot) if screenshot is not None else ""
    problems = [p for p in (shot, view.write_stats()) if p]
    for problem in problems:
        print(f"shoal: error: {problem}", file=sys.stderr)
    tank.close()
    window.close()
    return 1 if problems else 0


def demo_summary(tank: Tank) -> str:
    """What the headless demo played, in a line for a person: the level, the time played,
    what became of the fish, and the level's end if it came ("shoal: headless demo of Coral
    Reef: 10.0 s played, 60 fish, 0 home, 0 eaten by sharks"; the screenshot's line
    follows)."""
    played = f"{tank.time:.1f}" if tank.time >= 1.0 else f"{tank.time:.2f}"
    # What became of the fish, in the order a player thinks of them.
    fish = [f"{tank.fish} fish", f"{tank.fish_eaten} eaten by sharks"]
    if tank.level.home is not None and not tank.free:
        fish.insert(1, f"{tank.fish_home} home")
    line = f"shoal: headless demo of {tank.level.title}: {played} s played, {', '.join(fish)}"
    if tank.status != "playing":
        line += f"; level {tank.status}"
    return line
