"""The fish-tank game view: play the levels, lead the school with the mouse, feed it, survive.

Over 400 lines: arcade calls one view for its update, its drawing and its input, and they
share its state; what stands apart lives apart (keys: `controls`, HUD: `hud`, cards: `cards`,
scenery: `scenery`).

Each level opens with a card (its goal and the controls) and waits for a key or a click;
the simulation then runs on fixed steps from `StepClock` (a bounded number a frame, so the
window always draws), and everything that moves is drawn between the last two steps.
After the last level a finish card shows every level's result. The keys and clicks are
`shoal.game.controls`.

Importing this module imports arcade: decide headless mode (``ARCADE_HEADLESS=1``) first,
as `shoal.game.__main__` does.
"""

import dataclasses
import json
import math
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import arcade
import esper
from PIL import Image

from shoal.game import screens
from shoal.game.cards import Card, TextCache, draw_card, ui_scale
from shoal.game.clock import StepClock
from shoal.game.controls import Controls
from shoal.game.hud import Hud
from shoal.game.level import Level, LevelError, level_names, load_level
from shoal.game.outputs import save_image, shown
from shoal.game.records import Records, Result
from shoal.game.scenery import draw_food, draw_home, leader_sprite, scenery
from shoal.game.sound import Sounds
from shoal.game.tank import DT, StatsRecord, Tank
from shoal.game.tank_save import TankSave, clear, keep, offer_of, resume
from shoal.systems import RENDER_PRIORITY, SaveError
from shoal.systems.flock.ecs import in_world
from shoal.systems.render import RenderSystem
from shoal.systems.render.debug_overlay import DebugOverlay
from shoal.systems.render.looks import SpeciesLook, fish_texture, shark_texture

if TYPE_CHECKING:
    from shoal.game.panel import TuningPanel

LOOKS = {
    "fish": SpeciesLook(texture=fish_texture(), scale=0.75),
    "shark": SpeciesLook(texture=shark_texture(), scale=1.3),
}
DEGREES = 180.0 / math.pi

TankFactory = Callable[[Level], Tank]
"""Builds the tank of a level (the command line's options live in it)."""


class TankView(arcade.View):
    """Plays levels: draws the tank fitted to the window and takes the player's input.

    Args:
        level: the level to start with.
        make_tank: builds a level's tank (with the seed, fish count, preset, leader).
        stats: write the metrics of each simulated second here as JSON (`write_stats`).
        frames: close the window after this many fixed steps (None: play until closed).
        screenshot: save the last frame here when the view closes the window (Escape, or
            after `frames`).
        intro: open each level with its card, waiting for a key (False: play at once).
        records: where the best scores are kept (None: not kept).
        record_key: a level's key in `records` (its name and the setup).
        sounds: the sound effects (None: silent).
        on_first_frame: called once, after the first frame drawn with the fish moving.
        save: where a level left mid-way is kept (`tank_save`): the first card offers to
            continue it (C), `save_progress` writes it, a finished level deletes it (None:
            none kept).
        level_ready: whether a level's kernels are ready (`LevelPreparation.level_ready`:
            the first launch after an install compiles the later levels' in a child): a
            level that is not waits on a card, not stepped, so that no frame waits for the
            compiler (None: always ready).
    """

    def __init__(
        self, level: Level, make_tank: TankFactory, stats: Path | None = None,
        frames: int | None = None, screenshot: Path | None = None, *, intro: bool = True,
        records: Records | None = None, record_key: Callable[[Level], str] | None = None,
        sounds: Sounds | None = None, on_first_frame: Callable[[], None] | None = None,
        save: Path | None = None, level_ready: Callable[[Level], bool] | None = None,
    ) -> None:  # fmt: skip
        super().__init__()
        self.level_ready = level_ready
        self.frames = frames
        self.screenshot = screenshot
        self.make_tank = make_tank
        self.stats_path = stats
        self.stats: list[StatsRecord] = []
        self.intro = intro
        self.records = records
        self.record_key = record_key or (lambda lv: lv.name)
        self.sounds = sounds or Sounds(enabled=False)
        self.on_first_frame = on_first_frame
        self.failure = ""  # a problem that should end the program with an error status
        self.hud = Hud()
        self.texts = TextCache()
        self.camera = arcade.Camera2D()
        self.clock = StepClock()
        self.interpolate = True
        self.show_help = False
        self.sim_ms = 0.0
        self.steps_taken = 0
        self.results: dict[str, Result] = {}
        self.finished = False  # the finish card is up
        self.panel: TuningPanel | None = None
        self.controls = Controls(self)
        # When the latest steps started (enough for a second at 60 Hz and more), and the
        # clock's dropped time at the last readout: together they say if time slowed.
        self._step_times: deque[float] = deque(maxlen=120)
        self._dropped_seen = 0.0
        self._hud_reserve = 0.0  # px kept free for the HUD's bar above the tank
        self.level = level
        self.tank = make_tank(level)
        self._build_view_of_tank()
        self.save = save
        self.offer: TankSave | None = None  # a level left mid-way, offered on the first card
        if save is not None:
            self._find_save(save)

    # --- levels --------------------------------------------------------------------------
    @property
    def waiting(self) -> bool:
        """The level's intro card is up: nothing moves until a key or a click."""
        return self._waiting

    @waiting.setter
    def waiting(self, value: bool) -> None:
        self._waiting = value

    @property
    def paused(self) -> bool:
        """Paused with Space (the picture stays exactly still)."""
        return self.clock.paused

    def start(self, level: Level) -> None:
        """Play `level` from its start (the current tank is closed)."""
        shown = self.overlay.enabled
        self.tank.close()
        self.level = level
        self.tank = self.make_tank(level)
        self._build_view_of_tank()
        self.overlay.enabled = shown
        self.hud.error = ""
        self.finished = False
        if self.panel is not None:
            self.panel.attach(self.tank)

    # --- a level left mid-way -------------------------------------------------------------
    def _find_save(self, path: Path) -> None:
        """Offer the save at `path` if it was played with this setup; a broken or foreign
        one is ignored with one line on the HUD."""
        self.offer, problem = offer_of(path, self.record_key)
        if problem:
            self.hud.error = f"Saved game ignored: {problem}"

    def resume_saved(self) -> None:
        """C on the first card: continue the level left mid-way (a save that does not fit
        is ignored with one line, and the level on the card starts afresh)."""
        offer, self.offer = self.offer, None
        if offer is None:
            return
        try:
            level = load_level(offer.level)
        except LevelError as error:
            self.hud.error = f"Saved game ignored: {error}"
            self.waiting = False
            return
        self.start(level)
        try:
            resume(self.tank, offer)
        except SaveError as error:
            self.hud.error = f"Saved game ignored: {error}"
        self.render.update()
        self.waiting = False

    def save_progress(self) -> str:
        """Keep the level being played for next time (the player quits mid-level); "" or
        the problem. Nothing is kept for a level not begun, ended, or in free swim."""
        if self.save is None:
            return ""
        return keep(self.tank, self.record_key(self.level), self.save)

    def reload(self) -> None:
        """Load the level file again; a broken file keeps the current level and shows why."""
        try:
            level = load_level(self.level.path)
        except LevelError as error:
            self.hud.error = str(error)
            return
        self.start(level)

    def next_level(self) -> None:
        """The level after this one; after the last, the finish card."""
        if self.level.name not in self.results:
            self._record(Result(self.level.title, "skipped", self.tank.score, "skipped"))
        names = level_names()
        if self._last_level():
            self.finished = True
            self.clock.paused = False
            self.sounds.play("won", time.perf_counter())
            return
        try:
            self.start(load_level(names[names.index(self.level.name) + 1]))
        except LevelError as error:
            self.hud.error = str(error)

    def play_again(self) -> None:
        """From the finish card: every level again, from the first."""
        self.results.clear()
        try:
            self.start(load_level(level_names()[0]))
        except LevelError as error:
            self.hud.error = str(error)

    def _last_level(self) -> bool:
        names = level_names()
        return self.level.name not in names or names.index(self.level.name) == len(names) - 1

    def _build_view_of_tank(self) -> None:
        with in_world(self.tank.world):
            self.render = RenderSystem(self.tank.flock, looks=LOOKS)
            esper.add_processor(self.render, RENDER_PRIORITY)
        self.render.update()
        # The legend is drawn in window pixels above the HUD's message bar (`on_draw`), not
        # at the tank's bottom left, where the message bar would cover it.
        self.overlay = DebugOverlay(self.tank.flock, self.render, show_legend=False)
        self.scenery = scenery(self.level)
        self.leader = leader_sprite()
        self.leader_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.leader_list.append(self.leader)
        self.background_color = arcade.types.Color(*self.level.background)
        self.clock.reset()
        self.clock.paused = False
        self._step_times.clear()
        self.hud.forget_speed()
        self._waiting = self.intro
        self._ended = False
        self.on_resize(self.window.width, self.window.height)

    def kernels_ready(self) -> bool:
        """Whether the level's kernels are ready to step it (see `level_ready`)."""
        return self.level_ready is None or self.level_ready(self.level)

    # --- stepping ------------------------------------------------------------------------
    def step(self) -> None:
        """One fixed step of the tank; a record of metrics each simulated second."""
        before = (self.tank.food_eaten, self.tank.fish_eaten)
        started = time.perf_counter()
        self.tank.step(DT)
        took = time.perf_counter() - started
        self.sim_ms = 0.9 * self.sim_ms + 0.1 * took * 1e3
        self.steps_taken += 1
        self._step_times.append(started)
        # Only kept when asked for: a session of hours would pile up records.
        if self.stats_path is not None and round(self.tank.time / DT) % round(1.0 / DT) == 0:
            self.stats.append(self.tank.stats())
        now = time.perf_counter()
        if self.tank.food_eaten > before[0]:
            self.sounds.play("eat", now)
        if self.tank.fish_eaten > before[1]:
            self.sounds.play("catch", now)
        if self.tank.status != "playing" and not self._ended:
            self._level_ended()

    def on_update(self, delta_time: float) -> None:
        """Run the fixed steps due (a bounded number: the window always gets to draw)."""
        playing = self.tank.status == "playing"
        if self.frames is not None and (self.steps_taken >= self.frames or not playing):
            self.finish()  # a scripted run: its steps are done, or its level is
            return
        if self._waiting or self.finished or not playing or not self.kernels_ready():
            return
        ran = self.clock.tick(delta_time, self._step_unless_done)
        now = time.perf_counter()
        if ran and self.hud.due(now):
            fps = arcade.get_fps() if arcade.timings_enabled() else None
            slowed = self.clock.dropped > self._dropped_seen
            self._dropped_seen = self.clock.dropped
            lately = sum(t > now - 1.0 for t in self._step_times)
            self.hud.measure(now, fps, self.sim_ms, lately if slowed else None)

    def _step_unless_done(self) -> None:
        if self.frames is None or self.steps_taken < self.frames:
            self.step()

    def finish(self) -> None:
        """Save the screenshot if asked (while the window still has its OpenGL context),
        then close the window."""
        if self.screenshot is not None:
            problem = save_image(self.picture(), self.screenshot)
            if problem:
                self.failure = problem
            self.screenshot = None
        self.window.close()

    def _level_ended(self) -> None:
        self._ended = True
        if self.save is not None:  # a finished level is not taken up again
            clear(self.save)
            self.offer = None
        tank = self.tank
        key, records = self.record_key(self.level), self.records
        best = best_try = None
        if records is not None:
            if not tank.practice and (tank.status == "won" or tank.score > 0):
                records.add(key, tank.score, won=tank.status == "won")
                if records.problem:
                    self.hud.error = records.problem
            best, best_try = records.best_of(key), records.tried_of(key)
        self._record(Result(self.level.title, tank.status, tank.score, tank.reason,
                            tank.practice, best, best_try))  # fmt: skip
        self.sounds.play(tank.status, time.perf_counter())

    def _record(self, result: Result) -> None:
        self.results[self.level.name] = result

    # --- drawing -------------------------------------------------------------------------
    @property
    def alpha(self) -> float:
        """Where between the last two steps to draw (1: the latest step)."""
        return self.clock.fraction if self.interpolate else 1.0

    def on_draw(self) -> None:
        """The tank through the camera, then the HUD and any card in window pixels."""
        width, height = self.window.width, self.window.height
        card = self.card()
        # The speed readout is the developer's (with D); a full card hides it, the pause
        # banner does not (stepping with Period, one wants the step's time).
        self.hud.debug = self.overlay.enabled
        self.hud.card_up = card is not None and not card.banner
        self._keep_below_hud(width, height)
        self.clear()
        alpha = self.alpha
        with self.camera.activate():
            draw_home(self.level.home)
            self.scenery.draw()
            draw_food(self.tank.food_items(alpha))
            self.render.draw(alpha)
            self._draw_leader(alpha)
            self.overlay.draw()
        self.window.default_camera.use()
        now = time.perf_counter()
        self.hud.draw(self.tank, width, height, now)
        scale = ui_scale(width, height)
        self.overlay.draw_legend(round(12 * scale), self.hud.message_top(width, height, now)
                                 + round(8 * scale), 12 * scale)  # fmt: skip
        if card is not None:
            draw_card(card, self.texts, width, height)
        if self.panel is not None:
            self.panel.draw()
        if self.on_first_frame is not None and self.steps_taken > 0:
            self.on_first_frame()
            self.on_first_frame = None

    def card(self) -> Card | None:
        """The card shown now, if any (one at a time: help over the others)."""
        if self.show_help:
            return screens.help_card()
        if self.finished:
            return screens.finish(list(self.results.values()))
        if self._waiting:
            key, records = self.record_key(self.level), self.records
            offer = self.offer
            resume = None if offer is None else (offer.title, offer.time)
            if records is None:
                return screens.intro(self.tank, None, resume=resume)
            return screens.intro(self.tank, records.best_of(key), records.tried_of(key),
                                 resume=resume)  # fmt: skip
        if not self.kernels_ready():
            return screens.preparing(self.level.title)
        if self.tank.status != "playing" and self.level.name in self.results:
            return screens.level_end(self.tank, self.results[self.level.name],
                                     self._last_level())  # fmt: skip
        if self.clock.paused:
            return screens.paused()
        return None

    def _draw_leader(self, alpha: float) -> None:
        pose = self.tank.leader_at(alpha)
        if pose is None:
            return
        x, y, heading = pose
        self.leader.position = (x, y)
        self.leader.angle = -heading * DEGREES  # arcade: clockwise degrees
        self.leader_list.draw()

    def on_resize(self, width: int, height: int) -> None:
        """Fit the whole tank in the window below the HUD's bar, keeping its shape (bars at
        the sides if needed)."""
        self._hud_reserve = self.hud.bar_height(self.tank, width, height)
        self._fit(width, height)

    def _keep_below_hud(self, width: int, height: int) -> None:
        """Fit the tank again if the HUD's bar grew onto it (its items wrapped onto another
        line). It never shrinks back until the window is resized or a level starts, so the
        tank does not jump up and down as items come and go."""
        bar = self.hud.bar_height(self.tank, width, height)
        if bar > self._hud_reserve:
            self._hud_reserve = bar
            self._fit(width, height)

    def _fit(self, width: int, height: int) -> None:
        """The camera shows the whole tank in the window less the HUD's bar at the top."""
        level = self.level
        room = max(height - self._hud_reserve, 1.0)
        scale = min(width / level.width, room / level.height)
        w, h = level.width * scale, level.height * scale
        self.camera.viewport = arcade.LBWH((width - w) / 2, (room - h) / 2, w, h)
        self.camera.projection = arcade.LRBT(
            -level.width / 2, level.width / 2, -level.height / 2, level.height / 2)  # fmt: skip
        self.camera.position = (level.width / 2, level.height / 2)

    # --- input ---------------------------------------------------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """The leader fish swims towards the mouse."""
        world = self.camera.unproject((x, y))
        self.tank.target = (world.x, world.y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click (see `Controls.click`)."""
        self.controls.click(x, y)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """A key (see `Controls.key`)."""
        self.controls.key(symbol)

    def toggle_panel(self) -> None:
        """Show or hide the tuning panel (arcade.gui is imported the first time)."""
        if self.panel is None:
            from shoal.game.panel import TuningPanel  # arcade.gui: not importable headless

            self.panel = TuningPanel(self.window, self.tank, self._report, self._tuned)
        self.panel.toggle()

    def _report(self, message: str) -> None:
        self.hud.error = message

    def _tuned(self, what: str) -> None:
        """A change made with the panel: this run no longer counts."""
        self.tank.mark_practice(f"{what.replace('_', ' ')} changed with the panel")

    # --- files ---------------------------------------------------------------------------
    def picture(self) -> Image.Image:
        """What the window shows now."""
        self.on_draw()
        return arcade.get_image()

    def save_screenshot(self, path: Path) -> str:
        """Save what the window shows to `path`; returns "" or the problem, in one line."""
        return save_image(self.picture(), path)

    def write_stats(self) -> str:
        """Write the per-second metrics as a JSON array (if a path was given); returns ""
        or the problem, in one line."""
        if self.stats_path is None:
            return ""
        records = [dataclasses.asdict(record) for record in self.stats]
        try:
            self.stats_path.write_text(json.dumps(records, indent=1))
        except OSError as error:
            return f"cannot write the stats to {shown(self.stats_path)}: {error.strerror or error}"
        print(f"shoal: stats written to {shown(self.stats_path.resolve())}")
        return ""
