"""The player's keys and clicks in the tank view, and what each one does (H lists them)."""

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import arcade

from shoal.game.outputs import numbered_screenshot, save_image, shown
from shoal.game.tank import DT

if TYPE_CHECKING:
    from PIL import Image

    from shoal.game.clock import StepClock
    from shoal.game.hud import Hud
    from shoal.game.level import Level
    from shoal.game.sound import Sounds
    from shoal.game.tank import Tank
    from shoal.game.tank_save import TankSave
    from shoal.systems.render.debug_overlay import DebugOverlay


class View(Protocol):
    """What the controls read and call of the view that passes its input on to them (the
    game's `TankView`, which imports this module: this one does not import it)."""

    waiting: bool
    show_help: bool
    offer: "TankSave | None"

    @property
    def finished(self) -> bool: ...
    def resume_saved(self) -> None: ...
    def kernels_ready(self) -> bool: ...
    @property
    def level(self) -> "Level": ...
    @property
    def tank(self) -> "Tank": ...
    @property
    def camera(self) -> arcade.Camera2D: ...
    @property
    def overlay(self) -> "DebugOverlay": ...
    @property
    def hud(self) -> "Hud": ...
    @property
    def clock(self) -> "StepClock": ...
    @property
    def sounds(self) -> "Sounds": ...
    @property
    def window(self) -> arcade.Window: ...
    def finish(self) -> None: ...
    def play_again(self) -> None: ...
    def start(self, level: "Level") -> None: ...
    def next_level(self) -> None: ...
    def reload(self) -> None: ...
    def toggle_panel(self) -> None: ...
    def picture(self) -> "Image.Image": ...
    def step(self) -> None: ...


class Controls:
    """The keys and the mouse buttons of a view (a `TankView`, which passes them on here)."""

    def __init__(self, view: View) -> None:
        self.view = view

    def click(self, x: float, y: float) -> None:
        """A click at window pixel (x, y) starts the level from its card, else drops food
        (with the debug overlay on, it explains the nearest fish)."""
        view = self.view
        if view.waiting:
            view.waiting = False
            return
        if view.finished or view.show_help or not view.kernels_ready():
            return  # (while its kernels are prepared: the level has not begun)
        world = view.camera.unproject((x, y))
        if view.overlay.enabled:
            view.overlay.select_nearest(world.x, world.y)
        elif view.tank.status == "playing" and view.tank.drop_food(world.x, world.y) is None:
            view.hud.notify(view.tank.cannot_drop(), time.perf_counter())

    def key(self, symbol: int) -> None:
        """A key press; on a level's card any key but these starts the level."""
        view = self.view
        always: dict[int, Callable[[], None]] = {
            arcade.key.ESCAPE: view.finish,
            arcade.key.F: lambda: view.window.set_fullscreen(not view.window.fullscreen),
            arcade.key.M: self.toggle_mute,
            arcade.key.H: self.toggle_help,
            arcade.key.S: self.screenshot,
        }
        if symbol in always:
            always[symbol]()
        elif view.finished:
            if symbol in (arcade.key.R, arcade.key.N, arcade.key.ENTER):
                view.play_again()
        elif view.waiting and symbol == arcade.key.C and view.offer is not None:
            view.resume_saved()
        elif view.waiting:
            view.waiting = False
            view.offer = None  # started afresh: the save is replaced when the player quits
        else:
            self._play_key(symbol)

    def _play_key(self, symbol: int) -> None:
        view = self.view
        actions: dict[int, Callable[[], None]] = {
            arcade.key.SPACE: self.toggle_pause,
            arcade.key.PERIOD: self.one_step,
            arcade.key.R: lambda: view.start(view.level),
            arcade.key.N: view.next_level,
            arcade.key.L: view.reload,
            arcade.key.D: self.toggle_overlay,
            arcade.key.P: view.toggle_panel,
        }
        action = actions.get(symbol)
        if action is not None:
            action()

    def screenshot(self) -> None:
        """S: save what the window shows into the pictures folder, numbered."""
        view = self.view
        path = numbered_screenshot(view.level.name, round(view.tank.time / DT))
        problem = save_image(view.picture(), path)
        now = time.perf_counter()
        if problem:
            view.hud.notify(problem, now)
        else:
            view.hud.notify(f"Screenshot saved: {shown(path)}", now)

    def toggle_pause(self) -> None:
        """Space: pause or go on (only while the level is played)."""
        view = self.view
        if view.tank.status == "playing" and view.kernels_ready():
            view.clock.paused = not view.clock.paused

    def one_step(self) -> None:
        """`.`: one fixed step while paused."""
        view = self.view
        if view.clock.paused and view.tank.status == "playing" and view.kernels_ready():
            view.step()

    def toggle_mute(self) -> None:
        """M: sound off or on (or say why there is none)."""
        view, now = self.view, time.perf_counter()
        if not view.sounds.enabled:
            view.hud.notify("No sound here (no audio device, or headless).", now)
        else:
            view.hud.notify("Sound off." if view.sounds.toggle_mute() else "Sound on.", now)

    def toggle_help(self) -> None:
        """H: the help card, or back."""
        self.view.show_help = not self.view.show_help

    def toggle_overlay(self) -> None:
        """D: the debug overlay, explaining the fish nearest the middle at first."""
        view = self.view
        if view.overlay.toggle() and view.overlay.selected is None:
            view.overlay.select_nearest(view.level.width / 2, view.level.height / 2)
