"""The loading screen: the window opens at once and keeps drawing while the flocking kernels
are prepared on a background thread, then the game starts.

The package comes with the kernels a first step and the first level need; the first launch
of another level after an install compiles the rest, as does an editable install or a numba
upgrade. That launch prepares the level's own kernels first (`prepare_level`: a child
process plays the level briefly, with no window, and says when they are in the cache),
starts the game then, and the child goes on compiling the rest at a low priority while the
game plays. This screen shows a progress bar meanwhile, and the window stays responsive.
Later launches (`shoal.systems.prepare`) show it for about a second.
"""

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import arcade

from shoal.game.cards import HINT, SHADE, Card, TextCache, draw_card, ui_scale
from shoal.game.level import Level, LevelError, level_names, load_level
from shoal.game.level_kernels import compiled_with_package, play_level_briefly
from shoal.systems.ahead import child_env, compiling_here, hold_lock
from shoal.systems.warmup import Preparation, warm_up

BACKGROUND = arcade.types.Color(10, 30, 52)
BAR = arcade.types.Color(90, 170, 230)


LEVEL_SHARE = 0.9
"""The share of the loading bar for compiling the level's own kernels."""
READY = "ready"
"""What the child prints once the level's own kernels are in the cache."""
LEVEL_READY = "level"
"""What the child prints, then a tab and the level file's path, once another level's
kernels are in the cache."""


def _level_child(level_path: str, fish: int | None, seed: int) -> None:
    """The child of `LevelPreparation`: compile the level's kernels (printing `done` TAB
    `label` lines, then `READY`), then, at a low priority, the other packaged levels' and
    every other kernel (`warm_up`). It holds the lock of `shoal.systems.ahead`, so that no
    install starts another child."""
    hold_lock()  # where another process's child holds it, both compile: the cache is shared
    level = load_level(level_path)
    with compiling_here():
        play_level_briefly(level, fish, seed, progress=lambda done: _report(done, "the level"))
        _say(READY)
        with contextlib.suppress(OSError):
            os.nice(10)  # the game plays on meanwhile: its frames come first
        for name in level_names():  # the next levels, so that their loading is short
            with contextlib.suppress(LevelError):
                other = load_level(name)
                if other.path != level.path:
                    play_level_briefly(other, fish, seed)  # `--fish` counts in every level
                    _say(f"{LEVEL_READY}\t{other.path.resolve()}")
        warm_up(lambda done, label: _report(1 + (1 - LEVEL_SHARE) / LEVEL_SHARE * done, label))


def _report(done: float, label: str) -> None:
    """A progress line: `done` as a share of the level's part (the rest's go on past 1)."""
    _say(f"{LEVEL_SHARE * done:.4f}\t{label}")


def _say(line: str) -> None:
    """A line to the game, which may have quit meanwhile: the child then goes on quietly
    (the cache completes)."""
    try:
        print(line, flush=True)
    except OSError:  # the pipe's reader is gone
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (open for the rest of the process)


@dataclass(eq=False)
class LevelPreparation(Preparation):
    """A level's kernels prepared first (see `prepare_level`): `done` once they are, while
    a child process goes on compiling the rest (`rest` is set once it has ended)."""

    rest: threading.Event = field(default_factory=threading.Event, repr=False)
    ready_levels: set[str] = field(default_factory=set, repr=False)

    def level_ready(self, level: Level) -> bool:
        """Whether `level`'s kernels are prepared: the first level's here, another's by the
        child (by file: a player's own level may share a packaged one's name), or the child
        has ended (whatever it left compiles on first use)."""
        return self.rest.is_set() or str(level.path.resolve()) in self.ready_levels

    def _run_level(self, level: Level, fish: int | None, seed: int, measures: bool) -> None:
        start = time.perf_counter()
        child = None
        try:
            # One child: a second one compiling the warm-up's other group meanwhile cut no
            # wall time (46.8 s against 43.2 s to ready, cold, load 3): the level's kernels
            # are most of both groups, and two processes compiled them twice.
            child = self._start_child(level, fish, seed)
            # The child's word is waited for unless the package came with the level's kernels
            # (loaded here at once); no word (no child, or it ended first): compiled here.
            packaged = compiled_with_package(level, fish, measures)
            if packaged or child is None or not self._follow(child, 1.0, until=READY):
                self._progress(self.fraction, "the level")
            with compiling_here():  # loads what the child compiled (or compiles what it missed)
                play_level_briefly(level, fish, seed, measures=measures)
            self.ready_levels.add(str(level.path.resolve()))
            self._progress(1.0, "ready")
            self.seconds = time.perf_counter() - start
        except BaseException as error:  # reported through `error`, never lost in a thread
            self.error = error
        finally:
            self._finished.set()
        if child is not None:
            with child:  # the rest: its lines read (a full pipe would stop it), then waited
                assert child.stdout is not None
                for line in child.stdout:
                    said, _, name = line.rstrip("\n").partition("\t")
                    if said == LEVEL_READY:
                        self.ready_levels.add(name)
        self.rest.set()

    def _start_child(self, level: Level, fish: int | None, seed: int
                     ) -> "subprocess.Popen[str] | None":  # fmt: skip
        script = ("from shoal.game.loading import _level_child; "
                  f"_level_child({str(level.path)!r}, {fish!r}, {seed!r})")  # fmt: skip
        try:
            return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True, env=child_env(),
                                    start_new_session=True)  # fmt: skip
        except OSError:
            return None


def prepare_level(level: Level, fish: int | None = None, seed: int = 0, *,
                  measures: bool = False) -> LevelPreparation:  # fmt: skip
    """The kernels `level` plays through, prepared first, and the rest after, behind the
    game: a child process compiles the level's kernels (playing it briefly, with no window)
    and says so (the level the package came compiled with: not waited for), a thread here
    then loads them (`done`), and the child goes on compiling the others at a low priority
    while the game plays. For a cold cache; returns at once. `measures`: the game will
    write ``--stats`` (their kernels loaded here too, not on a frame)."""
    preparation = LevelPreparation()
    threading.Thread(target=preparation._run_level, args=(level, fish, seed, measures),
                     name="shoal-prepare-level", daemon=True).start()  # fmt: skip
    return preparation


class LoadingView(arcade.View):
    """Shows the progress of `preparation`, then the view that `then` makes.

    Args:
        preparation: the kernels being prepared (from `shoal.systems.prepare()`).
        then: makes the next view once they are ready (called on the main thread, where
            arcade may create its sprites).
        on_first_frame: called once, after the first frame is drawn (startup timing).
    """

    def __init__(self, preparation: Preparation, then: Callable[[], arcade.View],
                 on_first_frame: Callable[[], None] | None = None) -> None:  # fmt: skip
        super().__init__()
        self.preparation = preparation
        self.then = then
        self.on_first_frame = on_first_frame
        self.failure = ""  # why the kernels could not be prepared (the window then closes)
        self.texts = TextCache()
        self.started = time.perf_counter()
        self.frames = 0
        self.longest_gap = 0.0  # the longest time between two frames, in seconds
        self._last_frame = 0.0

    def on_update(self, delta_time: float) -> None:
        """Start the game once the kernels are ready (or close, saying why, if they failed)."""
        if not self.preparation.done or self.frames == 0:
            return  # draw at least one frame first: the window shows at once
        error = self.preparation.error
        if error is not None:
            self.failure = f"could not prepare the flocking kernels: {type(error).__name__}: "
            self.failure += str(error).splitlines()[0] if str(error) else "(no message)"
            self.window.close()
            return
        self.window.show_view(self.then())

    def on_draw(self) -> None:
        """The title card and a bar that fills as the kernels get ready."""
        self.clear(color=BACKGROUND)
        width, height = self.window.get_size()
        seconds = time.perf_counter() - self.started
        card = Card(
            "shoal: fish tank",
            (
                f"Preparing the fish: {self.preparation.label} "
                f"({100 * self.preparation.fraction:.0f} %, {seconds:.0f} s)",
            ),
            "A level's first launch after an install or a numba upgrade compiles its "
            "kernels (about half a minute, once; the first level's come with the package), "
            "the rest while you play; later launches take a second.",
        )
        draw_card(card, self.texts, width, height)
        self._draw_bar(width, height)
        now = time.perf_counter()
        if self.frames:
            self.longest_gap = max(self.longest_gap, now - self._last_frame)
        self._last_frame = now
        self.frames += 1
        if self.frames == 1 and self.on_first_frame is not None:
            self.on_first_frame()

    def _draw_bar(self, width: int, height: int) -> None:
        scale = ui_scale(width, height)
        bar_w, bar_h = min(width * 0.6, 600 * scale), 10 * scale
        left, bottom = (width - bar_w) / 2, height * 0.3
        arcade.draw_lrbt_rectangle_filled(left, left + bar_w, bottom, bottom + bar_h, SHADE)
        filled = left + bar_w * min(max(self.preparation.fraction, 0.0), 1.0)
        arcade.draw_lrbt_rectangle_filled(left, filled, bottom, bottom + bar_h, BAR)
        arcade.draw_lrbt_rectangle_outline(left, left + bar_w, bottom, bottom + bar_h, HINT)
