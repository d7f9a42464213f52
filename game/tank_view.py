"""The fish-tank game view: play a level, lead the school with the mouse, feed it, survive.

Importing this module imports arcade: decide headless mode (``ARCADE_HEADLESS=1``) first,
as `shoal.game.__main__` does.
"""

import dataclasses
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import arcade
import esper

from shoal.game.hud import Hud
from shoal.game.level import Level, LevelError, level_names, load_level
from shoal.game.scenery import draw_food, leader_sprite, scenery
from shoal.game.tank import DT, StatsRecord, Tank
from shoal.systems import RENDER_PRIORITY
from shoal.systems.core.ecs import in_world
from shoal.systems.render import RenderSystem, fixed_fraction
from shoal.systems.render.debug_overlay import DebugOverlay
from shoal.systems.render.looks import SpeciesLook, fish_texture, shark_texture

if TYPE_CHECKING:
    from shoal.game.panel import TuningPanel

LOOKS = {
    "fish": SpeciesLook(texture=fish_texture(), scale=0.75),
    "shark": SpeciesLook(texture=shark_texture(), scale=1.3),
}

TankFactory = Callable[[Level], Tank]
"""Builds the tank of a level (the command line's options live in it)."""


class TankView(arcade.View):
    """Plays levels: draws the tank fitted to the window and takes the player's input.

    Args:
        level: the level to start with.
        make_tank: builds a level's tank (with the seed, fish count, preset, leader).
        stats: write the metrics of each simulated second here as JSON when the view closes.
        frames: close the window after this many fixed steps (None: play until closed).
        screenshot: save the last frame here when the view closes the window (Escape, or
            after `frames`).
    """

    def __init__(
        self, level: Level, make_tank: TankFactory, stats: Path | None = None,
        frames: int | None = None, screenshot: Path | None = None,
    ) -> None:  # fmt: skip
        super().__init__()
        self.frames = frames
        self.screenshot = screenshot
        self.make_tank = make_tank
        self.stats_path = stats
        self.stats: list[StatsRecord] = []
        self.hud = Hud()
        self.camera = arcade.Camera2D()
        self.paused = False
        self.interpolate = True
        self.sim_ms = 0.0
        self.steps_taken = 0
        self.level = level
        self.panel: TuningPanel | None = None
        self.tank = make_tank(level)
        self._build_view_of_tank()

    # --- levels --------------------------------------------------------------------------
    def start(self, level: Level) -> None:
        """Play `level` from its start (the current tank is closed)."""
        shown = self.overlay.enabled
        self.tank.close()
        self.level = level
        self.tank = self.make_tank(level)
        self._build_view_of_tank()
        self.overlay.enabled = shown
        self.hud.error = ""
        if self.panel is not None:
            self.panel.attach(self.tank)

    def reload(self) -> None:
        """Load the level file again; a broken file keeps the current level and shows why."""
        try:
            level = load_level(self.level.path)
        except LevelError as error:
            self.hud.error = str(error)
            return
        self.start(level)

    def next_level(self) -> None:
        """The level after this one (the first after the last)."""
        names = level_names()
        index = names.index(self.level.name) + 1 if self.level.name in names else 0
        try:
            self.start(load_level(names[index % len(names)]))
        except LevelError as error:
            self.hud.error = str(error)

    def _build_view_of_tank(self) -> None:
        with in_world(self.tank.world):
            self.render = RenderSystem(self.tank.flock, looks=LOOKS)
            esper.add_processor(self.render, RENDER_PRIORITY)
        self.render.update()
        self.overlay = DebugOverlay(self.tank.flock, self.render)
        self.scenery = scenery(self.level)
        self.leader = leader_sprite()
        self.leader_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.leader_list.append(self.leader)
        self.background_color = arcade.types.Color(*self.level.background)
        self.on_resize(self.window.width, self.window.height)

    # --- stepping ------------------------------------------------------------------------
    def step(self) -> None:
        """One fixed step of the tank; a record of metrics each simulated second."""
        started = time.perf_counter()
        self.tank.step(DT)
        self.sim_ms = 0.9 * self.sim_ms + 0.1 * (time.perf_counter() - started) * 1e3
        # Only kept when asked for: a session of hours would pile up records.
        if self.stats_path is not None and round(self.tank.time / DT) % round(1.0 / DT) == 0:
            self.stats.append(self.tank.stats())

    def on_fixed_update(self, delta_time: float) -> None:
        """Step on the window's fixed clock unless paused or the level has ended."""
        if not self.paused and self.tank.status == "playing":
            self.step()
        self.steps_taken += 1
        if self.frames is not None and self.steps_taken >= self.frames:
            self.finish()

    def finish(self) -> None:
        """Save the screenshot if asked (while the window still has its OpenGL context),
        then close the window."""
        if self.screenshot is not None:
            self.save_screenshot(self.screenshot)
            self.screenshot = None
        self.window.close()

    # --- drawing -------------------------------------------------------------------------
    def on_draw(self) -> None:
        """The tank through the camera, then the HUD in window pixels."""
        self.clear()
        with self.camera.activate():
            self.scenery.draw()
            draw_food(self.tank.food_items())
            self.render.draw(fixed_fraction() if self.interpolate else 1.0)
            self._draw_leader()
            self.overlay.draw()
        self.window.default_camera.use()
        fps = arcade.get_fps() if arcade.timings_enabled() else 0.0
        self.hud.draw(self.tank, self.window.width, self.window.height, fps, self.sim_ms)
        if self.panel is not None:
            self.panel.draw()

    def _draw_leader(self) -> None:
        leader = self.tank.leader
        if leader is None:
            return
        self.leader.position = (leader.x, leader.y)
        if leader.speed > 1.0:
            self.leader.angle = -leader.heading * 57.29577951308232  # arcade: clockwise degrees
        self.leader_list.draw()

    def on_resize(self, width: int, height: int) -> None:
        """Fit the whole tank in the window, keeping its shape (bars at the sides if needed)."""
        level = self.level
        scale = min(width / level.width, height / level.height)
        w, h = level.width * scale, level.height * scale
        self.camera.viewport = arcade.LBWH((width - w) / 2, (height - h) / 2, w, h)
        self.camera.projection = arcade.LRBT(
            -level.width / 2, level.width / 2, -level.height / 2, level.height / 2)  # fmt: skip
        self.camera.position = (level.width / 2, level.height / 2)

    # --- input ---------------------------------------------------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """The leader fish swims towards the mouse."""
        world = self.camera.unproject((x, y))
        self.tank.target = (world.x, world.y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click drops food (with the debug overlay on, it explains the nearest fish)."""
        world = self.camera.unproject((x, y))
        if self.overlay.enabled:
            self.overlay.select_nearest(world.x, world.y)
        else:
            self.tank.drop_food(world.x, world.y)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """The keys listed by H."""
        actions: dict[int, Callable[[], None]] = {
            arcade.key.SPACE: self._toggle_pause,
            arcade.key.PERIOD: self.step,
            arcade.key.R: lambda: self.start(self.level),
            arcade.key.N: self.next_level,
            arcade.key.L: self.reload,
            arcade.key.D: self._toggle_overlay,
            arcade.key.S: self._screenshot,
            arcade.key.F: lambda: self.window.set_fullscreen(not self.window.fullscreen),
            arcade.key.H: self._toggle_help,
            arcade.key.P: self.toggle_panel,
            arcade.key.ESCAPE: self.finish,
        }
        action = actions.get(symbol)
        if action is not None:
            action()

    def toggle_panel(self) -> None:
        """Show or hide the tuning panel (arcade.gui is imported the first time)."""
        if self.panel is None:
            from shoal.game.panel import TuningPanel  # arcade.gui: not importable headless

            self.panel = TuningPanel(self.window, self.tank, self._report)
        self.panel.toggle()

    def _report(self, message: str) -> None:
        self.hud.error = message

    def _screenshot(self) -> None:
        self.save_screenshot()

    def _toggle_pause(self) -> None:
        self.paused = not self.paused

    def _toggle_help(self) -> None:
        self.hud.show_help = not self.hud.show_help

    def _toggle_overlay(self) -> None:
        if self.overlay.toggle() and self.overlay.selected is None:
            self.overlay.select_nearest(self.level.width / 2, self.level.height / 2)

    # --- files ---------------------------------------------------------------------------
    def save_screenshot(self, path: Path | None = None) -> Path:
        """Save what the window shows (default: a numbered file in the current folder)."""
        if path is None:
            path = Path(f"shoal-{self.level.name}-{round(self.tank.time / DT):06d}.png")
        self.on_draw()
        arcade.get_image().save(path)
        print(f"shoal: screenshot saved to {path.resolve()}")
        return path

    def write_stats(self) -> None:
        """Write the per-second metrics as a JSON array (if a path was given)."""
        if self.stats_path is None:
            return
        records = [dataclasses.asdict(record) for record in self.stats]
        self.stats_path.write_text(json.dumps(records, indent=1))
        print(f"shoal: stats written to {self.stats_path.resolve()}")
