"""The heads-up display: the level's counts and score at the top, messages at the bottom.

Its items flow left to right and wrap onto more lines when the window is narrow, and the text
scales with the window (`shoal.game.cards.ui_scale`), so it fits from 640 × 400 to 4K. The
speed readout (fps, ms per step) is the developer's: it shows only with the debug overlay
on; "slowed to N/60 steps a second" is the player's (the game runs slower than meant) and
shows whenever it happens; neither shows while a card is up. The readout changes at most
twice a second and never while paused, so a paused picture stays exactly still.
"""

import arcade

from shoal.game.cards import TEXT, TextCache, ui_scale
from shoal.game.tank import Tank

ERROR = arcade.types.Color(255, 140, 120)
NOTICE = arcade.types.Color(170, 235, 170)
PRACTICE = arcade.types.Color(255, 200, 90)
BAR = arcade.types.Color(0, 0, 0, 110)
NOTICE_SECONDS = 4.0
READOUT_EVERY = 0.5  # seconds between updates of the fps / ms readout


class Hud:
    """Text drawn in window pixels over the tank.

    Attributes:
        error: a problem to show until it is replaced or cleared (a broken level file).
        debug: the debug overlay is on: the speed readout (fps, ms per step) shows.
        card_up: a card covers the tank: no readout (it would be stale, or about the last
            level while the next one's card is up).
    """

    def __init__(self) -> None:
        self.texts = TextCache()
        self.error = ""
        self.debug = False
        self.card_up = False
        self._speed = ""  # "NN fps  step N ms": for the developer
        self._slowed = ""  # "slowed to N/60 steps a second": for the player too
        self._notice = ""
        self._notice_until = 0.0
        self._readout_at = -1e9

    @property
    def readout(self) -> str:
        """The speed readout as shown now ("" when nothing is to be shown): the speed only
        with `debug`, a slow-down always, nothing while a card is up."""
        if self.card_up:
            return ""
        return "  ".join(part for part in (self._speed if self.debug else "", self._slowed)
                         if part)  # fmt: skip

    def forget_speed(self) -> None:
        """Drop the readout (a new level: the last one's speed says nothing of it)."""
        self._speed = self._slowed = ""
        self._readout_at = -1e9

    def notify(self, message: str, now: float) -> None:
        """Show `message` at the bottom for a few seconds (a screenshot saved, muted...)."""
        self._notice, self._notice_until = message, now + NOTICE_SECONDS

    def due(self, now: float) -> bool:
        """Whether the speed readout may change now (at most every READOUT_EVERY s)."""
        return now - self._readout_at >= READOUT_EVERY

    def measure(self, now: float, fps: float | None, step_ms: float,
                slowed_to: int | None = None) -> None:  # fmt: skip
        """Update the speed readout. `fps` None: not measured (headless); `slowed_to`: the
        steps a second the game managed when it had to slow game time down (else None)."""
        self._readout_at = now
        shown = [] if fps is None else [f"{fps:.0f} fps"]
        shown.append(f"step {step_ms:.1f} ms")
        self._speed = "  ".join(shown)
        self._slowed = "" if slowed_to is None else f"slowed to {slowed_to}/60 steps a second"

    def items(self, tank: Tank) -> list[tuple[str, arcade.types.Color]]:
        """The status items, in order, with their colours."""
        goal = tank.goal
        items = [(tank.level.title, TEXT)]
        items += [("free swim", TEXT)] if tank.free else _progress(tank)
        items.append((f"fish {tank.fish}", TEXT))
        items.append((f"lost to sharks {tank.fish_eaten}", TEXT))
        if tank.drops_left is not None:
            items.append((f"food to drop {tank.drops_left}", TEXT))
        if not tank.free:
            items.append((f"score {tank.score}", TEXT))
            if goal.time_limit:
                items.append((f"time left {max(0.0, goal.time_limit - tank.time):.0f} s", TEXT))
        if tank.practice:
            items.append(("practice: not scored", PRACTICE))
        if self.readout:
            items.append((self.readout, TEXT))
        return items

    def bar_height(self, tank: Tank, width: int, height: int) -> float:
        """How far down from the window's top the status bar reaches (px), as drawn now: its
        items wrap onto more lines in a narrow window (the tank view fits the tank below)."""
        return self._bar(len(self._lines(tank, width, height)), ui_scale(width, height))

    def message_top(self, width: int, height: int, now: float) -> float:
        """The top of the message bar at the bottom (px; 0 when no message shows)."""
        scale = ui_scale(width, height)
        label = self._message_label(width, scale, now)
        return 0.0 if label is None else label.content_height + 2 * round(10 * scale)

    def draw(self, tank: Tank, width: int, height: int, now: float) -> None:
        """The status items at the top (wrapped to the width), the message at the bottom."""
        scale = ui_scale(width, height)
        margin, gap = round(10 * scale), round(24 * scale)
        lines = self._lines(tank, width, height)
        arcade.draw_lrbt_rectangle_filled(0, width, height - self._bar(len(lines), scale),
                                          height, BAR)  # fmt: skip
        y = height - margin / 2
        for line in lines:
            x = float(margin)
            for label in line:
                label.position = (x, y)
                label.draw()
                x += label.content_width + gap
            y -= round(22 * scale)
        self._draw_message(width, scale, now)

    def _lines(self, tank: Tank, width: int, height: int) -> list[list[arcade.Text]]:
        """The status items' labels, wrapped into lines that fit the window's width."""
        scale = ui_scale(width, height)
        margin, gap = round(10 * scale), round(24 * scale)
        lines: list[list[arcade.Text]] = [[]]
        used = 0.0
        for k, (item, colour) in enumerate(self.items(tank)):
            label = self.texts.get(f"status{k}", item, 13 * scale, colour)
            extra = label.content_width + (gap if lines[-1] else 0)
            if lines[-1] and used + extra > width - 2 * margin:
                lines.append([])
                used, extra = 0.0, label.content_width
            lines[-1].append(label)
            used += extra
        return lines

    @staticmethod
    def _bar(lines: int, scale: float) -> float:
        return lines * round(22 * scale) + round(10 * scale)

    def _message_label(self, width: int, scale: float, now: float) -> arcade.Text | None:
        message, colour = self.error, ERROR
        if not message and now < self._notice_until:
            message, colour = self._notice, NOTICE
        if not message:
            return None
        margin = round(10 * scale)
        return self.texts.get("message", message, 13 * scale, colour, width=width - 2 * margin)

    def _draw_message(self, width: int, scale: float, now: float) -> None:
        label = self._message_label(width, scale, now)
        if label is None:
            return
        margin = round(10 * scale)
        arcade.draw_lrbt_rectangle_filled(0, width, 0, label.content_height + 2 * margin, BAR)
        label.position = (margin, label.content_height + margin)
        label.draw()


def _progress(tank: Tank) -> list[tuple[str, arcade.types.Color]]:
    """How far the goal has got: fish home and food eaten, each only where the goal asks
    for it, and never past it (the last step may bring more fish home than asked)."""
    goal, items = tank.goal, []
    if goal.fish_home:
        items.append((f"home {min(tank.fish_home, goal.fish_home)}/{goal.fish_home}", TEXT))
    if goal.food_to_eat:
        items.append(
            (f"food eaten {min(tank.food_eaten, goal.food_to_eat)}/{goal.food_to_eat}", TEXT)
        )
    return items
