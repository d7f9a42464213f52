"""The command line every example shares: play in a window, or headless for a picture.

Options: ``--headless`` (no window; the game plays by itself), ``--frames N`` (fixed steps to
run, then stop; headless default 300) and ``--screenshot PATH`` (save the last frame as a PNG;
headless default ``<example>.png``). ``examples/__init__.py`` sets ``ARCADE_HEADLESS`` before
arcade is first imported when ``--headless`` is given.
"""

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import arcade

FIXED_RATE = 1 / 60
"""Seconds a simulation step: the games step on arcade's fixed clock; drawing runs apart."""

HEADLESS_FRAMES = 300
"""Steps a headless run takes unless ``--frames`` says otherwise (five simulated seconds)."""


class Game(Protocol):
    """What `run` needs of an example's view (an `arcade.View`)."""

    def setup(self) -> None:
        """Start (or restart) the game."""

    def on_fixed_update(self, delta_time: float) -> None:
        """Advance the game one fixed step."""

    def on_draw(self) -> None:
        """Draw the game as it is now."""


def run(make: Callable[[bool], Game], name: str, width: int, height: int) -> None:
    """Parse the options and run example `name` (its module name) in a window or headless.

    Args:
        make: makes the game's view from `autopilot` (True: the game plays by itself).
        name: the example's module name, for the title and the default screenshot.
        width: window width in px.
        height: window height in px.
    """
    parser = argparse.ArgumentParser(prog=f"python -m examples.{name}")
    parser.add_argument("--headless", action="store_true", help="no window; play by itself")
    parser.add_argument("--frames", type=int, help="fixed steps to run, then stop")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save a PNG at the end")
    args = parser.parse_args()
    title = f"shoal: {name.replace('_', ' ')}"
    window = arcade.Window(width, height, title, fixed_rate=FIXED_RATE, visible=not args.headless)
    game = make(args.headless)
    if not isinstance(game, arcade.View):
        raise TypeError(f"{name}: the game must be an arcade.View")
    game.setup()
    window.show_view(game)
    if args.headless:
        for _ in range(HEADLESS_FRAMES if args.frames is None else args.frames):
            game.on_fixed_update(FIXED_RATE)  # a headless arcade.run() never calls it
        game.on_draw()
        arcade.get_image().save(args.screenshot or Path(f"{name}.png"))
        return
    if args.frames is not None:  # stop after about that many steps (by the clock)

        def finish(_: float) -> None:
            if args.screenshot is not None:
                arcade.get_image().save(args.screenshot)
            window.close()

        arcade.schedule_once(finish, args.frames * FIXED_RATE)
    arcade.run()
