"""The loading screen: the window opens at once and keeps drawing while the flocking kernels
are prepared on a background thread (`shoal.systems.prepare`), then the game starts.

The package comes with the kernels a first step needs; the first launch after an install
compiles the rest (about a minute, once; `shoal.systems.ahead`), as does an editable install
or a numba upgrade: this screen shows a progress bar meanwhile, and the window stays
responsive. Later launches show it for about a second.
"""

import time
from collections.abc import Callable

import arcade

from shoal.game.cards import HINT, SHADE, Card, TextCache, draw_card, ui_scale
from shoal.systems.warmup import Preparation

BACKGROUND = arcade.types.Color(10, 30, 52)
BAR = arcade.types.Color(90, 170, 230)


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
            "The first launch after an install or a numba upgrade compiles the flocking "
            "kernels (about a minute, once); later launches take a second.",
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
