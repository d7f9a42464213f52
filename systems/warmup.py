"""Have every kernel ready before the game needs it: `warm_up()` (blocking, with progress)
and `prepare()` (the same on a background thread, for a loading screen that keeps drawing).

A package built by pip carries the kernels a flock's first step goes through
(`compile_first_steps`) and the fish tank's first level plays through (setup.py); the
rest compile after the install, in a child process that the first `install` starts
(`ahead.py`), or here. Where the whole cache is there, this only loads the kernels (about
a second). Where it is not (the first launch after an install, an editable install, a
wheel built on another CPU, a numba upgrade), the kernels compile: about a minute of one
core for the rest, two for all of them. `prepare()` then compiles
them in a child process, into the same cache, and only loads them itself: numba's compiler
holds the interpreter's lock for a second at a time, and compiled on the game's own thread
it stalled the loading screen's frames for as long (1.15 s measured).
"""

import contextlib
import functools
import math
import subprocess
import sys
import threading
import time
import uuid
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import esper
import numpy as np

from shoal.components import (
    Attractor,
    Circle,
    Food,
    Leader,
    Obstacle,
    Position,
    Predator,
    Prey,
    Species,
    Velocity,
)
from shoal.components import arguments as check
from shoal.systems.ahead import (
    background_child,
    child_env,
    compiling_here,
    hold_lock,
    warm_up_compiled,
)
from shoal.systems.core.config import FlockConfig
from shoal.systems.core.kernel_cache import as_installed
from shoal.systems.core.store import FloatArray
from shoal.systems.core.threads import native_always
from shoal.systems.flock.ecs import in_world
from shoal.systems.flock.flock import Flock
from shoal.systems.install import STAGES, install
from shoal.systems.metrics import group_count, groups, mean_nn_distance, milling, polarization
from shoal.systems.neighbours.system import NeighbourSystem, sorted_cells
from shoal.systems.obstacles.field import first_hit, inside_obstacle, obstacle_field, surface
from shoal.systems.obstacles.navigation import navigator
from shoal.systems.render.drawing import (
    between_into,
    headings_into,
    smooth_into,
    turn_into,
    write_sprites,
)
from shoal.systems.steering.explain import rule_terms

Progress = Callable[[float, str], None]
"""Called with the share of the work done (0 to 1) and what is being prepared next."""

# Each part's share of a cold compile, in seconds on a 2-core machine (measured 2026-11-26;
# the steering stage holds the vision kernel; the second tank, which only adds the
# wrapping kernels, is quick), so that the bar moves at a steady pace.
_PARTS = {  # stage (or part) → (what the player reads under the bar, weight)
    "NeighbourSystem": ("neighbours", 4.0),
    "SteeringSystem": ("steering", 44.0),
    "SeekingSystem": ("seeking", 30.0),
    "ObstacleSystem": ("obstacles", 1.5),
    "MotionSystem": ("motion", 4.5),
    "CollisionSystem": ("collisions", 7.0),
    "LifecycleSystem": ("catches and food", 4.0),
    "threads": ("threads", 28.0),  # the drivers and the kernels they call (2026-11-27)
    "measures": ("queries and metrics", 14.0),
}
_COMPILE_GROUPS = (
    {"NeighbourSystem", "SteeringSystem", "threads"},
    set(_PARTS) - {"SteeringSystem", "threads"},
)
"""Two groups of about the same compile time, for `_compile_group`: the steering and the
parallel drivers (measured 22 + 13 s) against the rest (30 s). Each also runs the neighbour
stage, cheap, which the others read."""
_SECOND_TANK = 0.05  # its parts' weight, as a share of the first's


def warm_up(progress: Progress | None = None) -> float:
    """Run every stage, query and metric once on a tiny flock in a throw-away esper world;
    return the seconds.

    Loads the compiled kernels from the cache, or compiles them where it is missing (see
    the module's docstring). `progress(done, label)` is called before each part and with
    1.0 at the end. The current esper world is left as it was.
    """
    if progress is not None:
        check.function("warm_up", "progress", progress)
    start = time.perf_counter()
    total = (1.0 + _SECOND_TANK) * sum(weight for _, weight in _PARTS.values())
    done = 0.0
    with compiling_here():  # its installs start no child (`ahead.py`)
        for part, weight, task in _tasks():
            label = _PARTS[part][0]
            if progress is not None:
                progress(done / total, label)
            task()
            done += weight
    if progress is not None:
        progress(1.0, "ready")
    return time.perf_counter() - start


@dataclass(eq=False)
class Preparation:
    """Kernels being prepared on a background thread (see `prepare`).

    Poll it from the game loop: `done`, `fraction` (0 to 1) and `label` (what is being
    prepared now) change as it goes; `error` holds what stopped it, if anything did.
    """

    fraction: float = 0.0
    label: str = "starting"
    seconds: float = 0.0
    error: BaseException | None = None
    _finished: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def done(self) -> bool:
        """True once the kernels are ready (or preparing them failed: see `error`)."""
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until done, or at most `timeout` seconds (None: no limit); True if done."""
        if timeout is not None:
            timeout = check.number("Preparation.wait", "timeout", timeout, low=0.0)
        return self._finished.wait(timeout)

    def _run(self) -> None:
        start = time.perf_counter()
        try:
            # A package install holds the first steps' kernels only (setup.py): the rest
            # compiles in a child, unless one that an install of this process started does.
            with compiling_here():  # the host's installs meanwhile start no other child
                child = background_child()
                if warm_up_compiled():
                    compiled = 0.0
                elif child is not None and child.poll() is None:
                    compiled = self._wait_for(child)
                else:
                    compiled = self._compile_in_child()
                warm_up(lambda done, label: self._progress(compiled + (1 - compiled) * done, label))
            self.seconds = time.perf_counter() - start
        except BaseException as error:  # reported through `error`, never lost in a thread
            self.error = error
        finally:
            self._finished.set()

    def _progress(self, fraction: float, label: str) -> None:
        self.fraction, self.label = fraction, label

    def _compile_in_child(self) -> float:
        """Compile the kernels into the cache in a child process, reporting its progress;
        return the share of the bar it took (where it could not run or stopped: as far as it
        got, and `warm_up` compiles here what is missing)."""
        command = [sys.executable, "-c", "from shoal.systems.warmup import _report; _report()"]
        try:
            child = subprocess.Popen(
                command,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=child_env(),
            )
        except OSError:
            return 0.0
        with child:
            self._follow(child, _COMPILED_SHARE)
        return _COMPILED_SHARE if child.returncode == 0 else self.fraction

    def _follow(self, child: "subprocess.Popen[str]", share: float, until: str = "") -> bool:
        """Report a compiling child's progress lines (`done` TAB `label`, `done` scaled by
        `share`) until it prints the line `until` (True) or ends (False)."""
        assert child.stdout is not None  # piped
        for line in child.stdout:  # reading waits without holding the interpreter's lock
            if until and line.strip() == until:
                return True
            done, _, label = line.rstrip("\n").partition("\t")
            with contextlib.suppress(ValueError):  # a line that is not a report
                self._progress(share * float(done), label)
        return False

    def _wait_for(self, child: "subprocess.Popen[bytes]") -> float:
        """Wait for the child that compiles the rest in the background (it reports no
        progress); return the share of the bar it took."""
        self._progress(0.0, _ELSEWHERE)
        child.wait()
        return _COMPILED_SHARE


_ELSEWHERE = "compiling in the background"
"""The loading bar's label while another process compiles the kernels."""
_COMPILED_SHARE = 0.95
"""The share of the loading bar for compiling in the child (loading them after: the rest)."""


def _report() -> None:
    """`warm_up`, printing its progress on stdout (`done` TAB `label` lines): the child
    process of `Preparation`. It holds the lock of `ahead.py` meanwhile, so that no other
    process's install starts another; where another process's child holds it, it waits for
    that one first (then only loads what it compiled)."""
    if not hold_lock():
        print(f"0.0000\t{_ELSEWHERE}", flush=True)
        hold_lock(wait=True)
    warm_up(lambda done, label: print(f"{done:.4f}\t{label}", flush=True))


def prepare() -> Preparation:
    """Start `warm_up` on a background thread and return at once.

    Where the kernels are not in the cache yet they compile in a child process (see the
    module's docstring), so a loading screen keeps drawing while it works; the thread then
    loads them. Do not step a flock before `done`: its first step would wait for the
    compiler. An esper world of its own is used, so the host's current world is untouched,
    but the host should not switch esper worlds until `done` (esper's current world is one
    global).
    """
    preparation = Preparation()
    threading.Thread(target=preparation._run, name="shoal-prepare", daemon=True).start()
    return preparation


FIRST_STEP_BOIDS = (300, 1_100)
"""The first steps' flock sizes: the neighbour stage takes another way from 1,024 boids on
(`sorted_cells`), and both must be among the kernels compiled."""


def compile_first_steps() -> float:
    """Step a flock of one species once in each boundary mode: the kernels and signatures
    that every flock's first step goes through, and no more; return the seconds.

    With the first level's (`game/level_kernels.py`), what the package build compiles
    (setup.py); almost all of them are among the level's. The rest compiles later, in the
    background (`ahead.compile_rest_in_background`, or `prepare`)."""
    start = time.perf_counter()
    # As an installed package takes them (a crowd on the pool while its threaded driver is
    # not cached), wherever this runs; its installs start no child (`ahead.py`).
    with as_installed(), compiling_here():
        for boundary in ("contain", "bounce", "wrap"):
            config = FlockConfig(width=800, height=600, boundary=boundary)
            flock = install(config, [Species("fish")], world=f"shoal-first-{uuid.uuid4().hex}")
            try:
                for boids in FIRST_STEP_BOIDS:  # a few boids, then a crowd
                    flock.scatter("fish", boids - len(flock))
                    flock.step()
            finally:
                esper.delete_world(flock.world)
    return time.perf_counter() - start


def _compile_group(group: int) -> None:
    """Run the parts of the warm-up in `_COMPILE_GROUPS[group]` only: CI (.ci/run) compiles
    the two groups in two processes at once, on two cores (numba's compiler holds the
    interpreter's lock), then runs `warm_up` to load them all and compile what a group
    missed."""
    with compiling_here():
        for part, _, task in _tasks():
            if part in _COMPILE_GROUPS[group]:
                task()


def _tasks() -> Iterator[tuple[str, float, Callable[[], None]]]:
    """Every part of the warm-up (its `_PARTS` key), with its weight, in order (a contained
    and a wrapping tank, so that both boundary kernels and both update orders are ready)."""
    for boundary, share in (("contain", 1.0), ("wrap", _SECOND_TANK)):
        world = f"shoal-warm-up-{uuid.uuid4().hex}"
        # The wrapping tank updates in place (`FlockConfig.update`): its own steering kernel.
        update = "sequential" if boundary == "wrap" else "simultaneous"
        config = FlockConfig(width=200, height=200, boundary=boundary, update=update)
        # The hunters catch nothing (catch radius 0), so that no row changes before the
        # explanations in `_measure`; the kernels are the same whatever the radius.
        # Species a rejoins its schools (the seeking stage's `rejoin.py`).
        species = [Species("a", rejoin_weight=0.5), Species("b", catch_radius=0.0)]
        flock = install(config, species, world=world)
        try:
            _populate(flock)
            for system, _ in STAGES:
                part = system.__name__
                yield part, share * _PARTS[part][1], _stage_runner(flock, system)
            yield "threads", share * _PARTS["threads"][1], functools.partial(_native_step, flock)
            yield "measures", share * _PARTS["measures"][1], functools.partial(_measure, flock)
        finally:
            esper.delete_world(world)


def _stage_runner(flock: Flock, system: type) -> Callable[[], None]:
    """Run one stage of the flock's next step in its world (the stages of one step run in
    priority order, as esper would)."""

    def run() -> None:
        with in_world(flock.world):
            processor = esper.get_processor(system)
            if processor is not None:  # a stage this install has (all of them, today)
                processor.process(flock.config.dt)
            if system is NeighbourSystem:  # and its copy for a flock of 1,024 boids or more
                sorted_cells(flock, one_call=False)

    return run


def _native_step(flock: Flock) -> None:
    """One more step with every stage that can on numba's threads (where they may be used
    here): a kernel called from Python and the same kernel called by its parallel driver
    (`core/threads.py`) are two compiled versions."""
    with native_always():
        flock.step(flock.config.dt)


def _measure(flock: Flock) -> None:
    """The queries, metrics and explanations a game calls (the debug overlay's too), so that
    their kernels are ready as well."""
    wrap = (flock.config.width, flock.config.height) if flock.config.wraps else None
    positions, velocities = flock.positions, flock.velocities
    flock.query(100.0, 100.0, 50.0)
    flock.neighbours_of(int(flock.entities[0]))
    rule_terms(flock, 0)
    polarization(velocities)
    milling(positions, velocities)
    mean_nn_distance(positions, wrap)
    group_count(positions, 50.0, wrap)
    groups(np.array([(0.0, 0.0), (500.0, 500.0)]), 50.0)  # two groups: labels are ranked
    field = obstacle_field(flock)
    inside_obstacle(field, positions)
    surface(field, positions)
    first_hit(field, positions, positions + 10.0)
    nav = navigator(flock)  # the flow fields: a way round the rock, and a flee map
    nav.way_to((100.0, 140.0), [(100.0, 60.0)])
    nav.waypoint((100.0, 140.0), (100.0, 60.0), 20.0)
    nav.sample(np.array([nav.flee_slot(100.0, 140.0, 80.0)]), np.array([(100.0, 60.0)]))
    nav.grid.reach_cells(positions)  # what a window's far-reaching fields reach (big worlds)
    for x in (100.0, 112.0):  # a moving target: its field reused from a spot it sees
        nav.seek_slots(np.array([(x, 160.0)]), np.array([math.inf]))
    _draw(positions, velocities)


def _draw(positions: FloatArray, velocities: FloatArray) -> None:
    """The render stage's kernels (`shoal.systems.render.drawing`), called here with the
    types it gives them: the warm-up itself never imports arcade."""
    positions, velocities = positions.copy(), velocities.copy()
    n = len(positions)
    angles, drawn, ones = np.empty(n), np.empty(n), np.ones(n)
    headings_into(velocities, angles)
    smooth_into(angles, angles, ones, np.zeros(n, bool), 75.0, drawn)
    turn_into(angles, velocities, ones, 1e-6, 75.0, drawn)
    between_into(
        positions, positions, angles, drawn, 0.5, (200.0, 200.0, 0.0, 0.0), positions, angles
    )
    buffer = np.frombuffer(array("f", bytes(16 * n)), np.float32).reshape(-1, 4)  # arcade's
    write_sprites(positions, angles, np.arange(n, dtype=np.intp), buffer)


def _populate(flock: Flock) -> None:
    """Boids, relations and one agent of each kind (prey too), so that every kernel runs once."""
    flock.relate("a", "b", "flee")
    flock.relate("b", "a", "chase")
    flock.scatter("a", 8)
    flock.scatter("b", 2)
    with in_world(flock.world):
        esper.create_entity(Obstacle(Circle(100.0, 100.0, 20.0)))
        esper.create_entity(Position(50.0, 50.0), Velocity(10.0, 0.0), Leader())
        esper.create_entity(Position(150.0, 150.0), Food())
        esper.create_entity(Position(60.0, 150.0), Attractor())
        esper.create_entity(Position(150.0, 60.0), Predator(catch_radius=0.0))
        esper.create_entity(Position(40.0, 160.0), Velocity(0.0, 10.0), Prey(("b",)))
