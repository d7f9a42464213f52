"""The kernels a level plays through, compiled (or loaded) by playing it briefly with no
window; and the first level's, which the package build compiles (setup.py, after a flock's
first steps), so that the first `shoal` after an install shows the tank at once.

Arcade-free: the package build runs it where arcade is not installed.
"""

from collections.abc import Callable
from pathlib import Path

from shoal.game.level import Level, level_names, load_level
from shoal.game.level.load import resolve
from shoal.game.tank import DT, Tank
from shoal.systems.ahead import compiling_here
from shoal.systems.collision.kernel import push_out
from shoal.systems.core.kernel_cache import as_installed, cached
from shoal.systems.lifecycle.kernel import reached_by
from shoal.systems.obstacles.flow_kernel import march
from shoal.systems.seeking.kernel import seek_agents
from shoal.systems.warmup import _draw

LEVEL_STEPS = 900
"""The steps `play_level_briefly` plays: 15 s of a level, the player's leader touring it,
food dropped every second by the school, the sharks hunting; enough for every kernel (and
signature) a level's first minute of play goes through (tests/test_warmup.py checks it)."""


def play_level_briefly(level: Level, fish: int | None, seed: int, steps: int = LEVEL_STEPS,
                       progress: Callable[[float], None] | None = None, *,
                       measures: bool = True) -> None:  # fmt: skip
    """Play `steps` steps of `level` as a player would, with no window: the leader tours the
    tank (round its rocks, by its home), food is dropped ahead of the school each second,
    the sharks hunt; then the drawing. Compiles (or loads) the kernels the level's play goes
    through. `progress(done)` is called every 60 steps. `measures`: also the measures of
    ``--stats`` and the tests (`Tank.stats`, `Tank.misplaced`), which a game played without
    them never calls (3.3 s of compiling)."""
    tank = Tank(level, seed=seed, fish=fish, autopilot=True)
    try:
        for step in range(steps):
            if step % 60 == 30 and tank.leader is not None:
                x, y = tank.leader.x, tank.leader.y  # between the leader and its school
                if len(tank.flock):
                    mx, my = tank.flock.positions.mean(axis=0)
                    x, y = (x + mx) / 2, (y + my) / 2
                tank.drop_food(float(x), float(y))
            tank.step(DT)
            if progress is not None and step % 60 == 0:
                progress(step / steps)
            if tank.status != "playing":
                break
        if measures:
            tank.stats()
            tank.misplaced()
        _draw(tank.flock.positions, tank.flock.velocities)
    finally:
        tank.close()


_LEVEL_MARKS = (push_out, march, reached_by, seek_agents)
"""Kernels the package level's play goes through (its fish meet its rocks, its leader finds
its way, its home takes them in) and a flock's first steps do not: cached, for this CPU,
once the package build compiled the level's kernels."""


def package_level() -> Path:
    """The level whose kernels the package build compiles: the first packaged level."""
    return resolve(level_names()[0])


def compile_package_level() -> None:
    """The first level's brief play (what the headless demo and the first launch's tank
    need), as an installed package takes it: what `pip install .` compiles into the package
    after a flock's first steps (setup.py). Not the measures of ``--stats``, which the
    loading screen's child compiles."""
    with as_installed(), compiling_here():  # no threaded driver, no background child
        play_level_briefly(load_level(package_level()), None, 0, measures=False)


def compiled_with_package(level: Level, fish: int | None = None, measures: bool = False) -> bool:
    """Whether `level`'s kernels, played with `fish` (None: the level's own count) and the
    measures of ``--stats`` or not, came compiled with the package: it is the level the
    build played, as the build played it, and the cache holds them for this CPU."""
    if fish is not None or measures:  # a crowd's threaded kernels, or the measures': not built
        return False
    return level.path.resolve() == package_level().resolve() and all(map(cached, _LEVEL_MARKS))
