"""The shoal flock viewer: a tank of fish schooling on their own.

Run it with ``python -m shoal.game`` (options: ``--help``). Keys: R restarts the school,
D shows the debug overlay (click a fish to explain it), Escape quits. Without a display it
simulates a few seconds headless and saves a screenshot.

Importing this module imports arcade: decide headless mode (``ARCADE_HEADLESS=1``) first,
as `shoal.game.__main__` does.
"""

import time
from pathlib import Path

import arcade
import esper

from shoal.components import Species
from shoal.systems import RENDER_PRIORITY, Flock, FlockConfig, install, uninstall, warm_up
from shoal.systems.debug_overlay import DebugOverlay
from shoal.systems.render import RenderSystem, fixed_fraction

SCREEN_WIDTH = 1280
SCREEN_HEIGHT = 720
WINDOW_TITLE = "shoal: fish tank"
FIXED_RATE = 1 / 60  # seconds a simulation step; drawing runs at its own rate
WATER = arcade.types.Color(16, 44, 78)  # a dark blue
TEXT_COLOUR = arcade.types.Color(190, 215, 235)
FISH_SCALE = 0.75  # 24 x 12 px fish: schools stay readable at the default separation

FISH_COUNT = 400
SEED = 0
HEADLESS_STEPS = 300  # five simulated seconds
SCREENSHOT = "shoal-screenshot.png"


class NoDisplayError(RuntimeError):
    """No window could be opened (no display server, or no OpenGL for it)."""


class GameView(arcade.View):
    """A tank of fish: the flock is stepped on a fixed timestep and drawn as one SpriteList.

    Args:
        fish: number of fish.
        seed: seed of the flock (positions and headings).
        frames: close the window after this many simulation steps (None: run until closed).
        screenshot: save the last frame here when the view closes.

    Attributes:
        interpolate: draw between the last two fixed steps at arcade's fixed-clock fraction
            (smooth at any display rate); False draws the latest step (headless pictures).
        overlay: the debug overlay (D toggles it; a click selects the fish it explains).
    """

    def __init__(
        self,
        fish: int = FISH_COUNT,
        seed: int = SEED,
        *,
        frames: int | None = None,
        screenshot: Path | None = None,
    ) -> None:
        super().__init__()
        self.background_color = WATER
        self.fish = fish
        self.seed = seed
        self.frames = frames
        self.screenshot = screenshot
        self.steps = 0
        self.flock: Flock | None = None
        self.render: RenderSystem | None = None
        self.overlay: DebugOverlay | None = None
        self.interpolate = True
        self.caption = arcade.Text("", 12, SCREEN_HEIGHT - 24, TEXT_COLOUR, 12)

    def setup(self) -> None:
        """(Re)create the flock in the current esper world and scatter the fish."""
        shown = self.overlay is not None and self.overlay.enabled  # a restart keeps it
        self.teardown()
        config = FlockConfig(width=SCREEN_WIDTH, height=SCREEN_HEIGHT, seed=self.seed)
        self.flock = install(config, [Species("fish")])
        self.render = RenderSystem(self.flock, scale=FISH_SCALE)
        esper.add_processor(self.render, RENDER_PRIORITY)
        self.flock.scatter("fish", self.fish)
        self.render.update()  # so that the first frame shows the fish before any step
        self.overlay = DebugOverlay(self.flock, self.render)
        if shown:
            self.toggle_overlay()
        self.steps = 0
        self.caption.text = (
            f"{self.fish} fish, seed {self.seed}    R: restart    D: debug overlay, click a fish"
            "    Esc: quit"
        )

    def teardown(self) -> None:
        """Take the flock's processors and boids out of the esper world."""
        if self.flock is not None:
            uninstall(self.flock)
            esper.remove_processor(RenderSystem)
            self.flock = self.render = self.overlay = None

    def step(self, delta_time: float = FIXED_RATE) -> None:
        """Advance the simulation (every processor of the esper world) by one fixed step."""
        esper.process(delta_time)
        self.steps += 1

    def on_fixed_update(self, delta_time: float) -> None:
        """Step the flock at the window's fixed rate; stop after `frames` steps if given."""
        if self.window.closed:
            return  # arcade may run the remaining fixed steps of a frame after close()
        self.step(delta_time)
        if self.frames is not None and self.steps >= self.frames:
            self.quit()

    def on_draw(self) -> None:
        """Draw the water, the fish (between fixed steps), the overlay and the caption."""
        if self.window.closed:
            return
        self.clear()
        if self.render is not None:
            self.render.draw(fixed_fraction() if self.interpolate else 1.0)
        if self.overlay is not None:
            self.overlay.draw()
        self.caption.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """R restarts the school; D toggles the debug overlay; Escape quits."""
        if symbol == arcade.key.R:
            self.setup()
        elif symbol == arcade.key.D:
            self.toggle_overlay()
        elif symbol == arcade.key.ESCAPE:
            self.quit()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click explains the fish nearest to it (and shows the overlay)."""
        if self.overlay is not None:
            self.overlay.enabled = True
            self.overlay.select_nearest(x, y)

    def toggle_overlay(self) -> None:
        """Show or hide the debug overlay; shown with nobody selected, it explains the fish
        nearest the middle of the tank."""
        if self.overlay is None:
            return
        selected = self.overlay.selected
        if self.overlay.toggle() and (selected is None or selected not in self.overlay.flock.store):
            self.overlay.select_nearest(SCREEN_WIDTH / 2, SCREEN_HEIGHT / 2)

    def quit(self) -> None:
        """Save the screenshot if asked, then close the window."""
        self.on_close()
        self.window.close()

    def on_close(self) -> None:
        """Save the screenshot (if asked) while the window still has its OpenGL context."""
        if self.screenshot is not None:
            self.on_draw()
            save_screenshot(self.screenshot)
            print(f"shoal: screenshot saved to {self.screenshot.resolve()}")
            self.screenshot = None  # once, even if closing dispatches more than once


def save_screenshot(path: Path) -> None:
    """Save what the window shows now."""
    arcade.get_image().save(path)


def run_windowed(fish: int, seed: int, frames: int | None, screenshot: Path | None) -> int:
    """Open the window and run until it is closed. Raises NoDisplayError if it cannot open."""
    try:
        window = arcade.Window(SCREEN_WIDTH, SCREEN_HEIGHT, WINDOW_TITLE, fixed_rate=FIXED_RATE)
    except Exception as error:  # pyglet raises its own types, which vary by platform
        raise NoDisplayError(f"{type(error).__name__}: {error}") from error
    view = GameView(fish, seed, frames=frames, screenshot=screenshot)
    view.setup()
    window.show_view(view)
    arcade.run()
    return 0


def run_headless(
    fish: int, seed: int, frames: int, screenshot: Path, *, overlay: bool = False
) -> int:
    """Step the simulation `frames` times without showing anything, then save one picture
    (with the debug overlay on the fish nearest the middle if `overlay`).

    A headless `arcade.run()` never calls `on_fixed_update`, so the steps are a plain loop.
    """
    window = arcade.Window(SCREEN_WIDTH, SCREEN_HEIGHT, WINDOW_TITLE, visible=False)
    view = GameView(fish, seed)
    view.interpolate = False  # no frame clock runs here: draw the latest step
    view.setup()
    window.show_view(view)
    started = time.perf_counter()
    for _ in range(frames):
        view.step()
    elapsed = time.perf_counter() - started
    if overlay:
        view.toggle_overlay()  # explains the fish nearest the middle
    view.on_draw()
    save_screenshot(screenshot)
    window.close()
    print(
        f"shoal: simulated {frames} steps ({frames * FIXED_RATE:.1f} s) of {fish} fish "
        f"in {elapsed:.2f} s"
    )
    print(f"shoal: screenshot saved to {screenshot.resolve()}")
    return 0


def main(
    fish: int = FISH_COUNT,
    seed: int = SEED,
    *,
    headless: bool = False,
    frames: int | None = None,
    screenshot: Path | None = None,
    overlay: bool = False,
) -> int:
    """Run the viewer in a window, or headless (then it always saves a screenshot).

    `overlay` shows the debug overlay in headless pictures.

    Returns:
        The exit status.
    """
    print("shoal: loading the flocking kernels (the first run after install compiles them)")
    print(f"shoal: kernels ready in {warm_up():.1f} s")
    if headless:
        steps = HEADLESS_STEPS if frames is None else frames
        return run_headless(fish, seed, steps, screenshot or Path(SCREENSHOT), overlay=overlay)
    return run_windowed(fish, seed, frames, screenshot)
