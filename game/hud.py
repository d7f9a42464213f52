"""The heads-up display: counts, score, timings, help and the end-of-level screens."""

import arcade

from shoal.game.tank import Tank

TEXT = arcade.types.Color(215, 230, 245)
SHADE = arcade.types.Color(0, 0, 0, 160)
ERROR = arcade.types.Color(255, 140, 120)
KEYS = (
    "mouse: lead the school    click: drop food",
    "Space: pause    .: one step    R: restart    N: next level    L: reload level",
    "D: debug overlay    P: tuning panel    S: screenshot    F: fullscreen    H: this help",
)


class Hud:
    """Text drawn in window pixels over the tank (arcade.Text objects are made once)."""

    def __init__(self) -> None:
        self.status = arcade.Text("", 12, 0, TEXT, 13)
        self.message = arcade.Text("", 12, 0, ERROR, 13)
        self.help = [arcade.Text(line, 0, 0, TEXT, 14, anchor_x="center") for line in KEYS]
        self.banner = arcade.Text("", 0, 0, TEXT, 30, anchor_x="center", bold=True)
        self.hint = arcade.Text("", 0, 0, TEXT, 15, anchor_x="center")
        self.show_help = False
        self.error = ""

    def draw(self, tank: Tank, width: int, height: int, fps: float, sim_ms: float) -> None:
        """Counts and score at the top; the error line, help and end screens when due."""
        goal = tank.level.goal
        time_left = f"    time left {max(0.0, goal.time_limit - tank.time):.0f} s" if (
            goal.time_limit) else ""  # fmt: skip
        self.status.text = (
            f"{tank.level.title}    fish {tank.fish} (keep {goal.min_fish})    "
            f"food {tank.food_eaten}/{goal.food_to_eat}    eaten {tank.fish_eaten}    "
            f"score {tank.score}{time_left}    {fps:.0f} fps    sim {sim_ms:.1f} ms"
        )
        self.status.position = (12, height - 24)
        self.status.draw()
        if self.error:
            self.message.text = self.error
            self.message.position = (12, 12)
            self.message.draw()
        if self.show_help:
            self._panel(width, height, [], self.help)
        if tank.status != "playing":
            self._end_screen(tank, width, height)

    def _end_screen(self, tank: Tank, width: int, height: int) -> None:
        if tank.status == "won":
            self.banner.text = f"Level complete!  Score {tank.score}"
            self.hint.text = "N: next level    R: play again"
        else:
            self.banner.text = "Game over"
            self.hint.text = "R: try again    N: next level"
        self._panel(width, height, [self.banner], [self.hint])

    @staticmethod
    def _panel(width: int, height: int, titles: list[arcade.Text], lines: list[arcade.Text]
               ) -> None:  # fmt: skip
        arcade.draw_lrbt_rectangle_filled(0, width, height / 2 - 110, height / 2 + 110, SHADE)
        y = height / 2 + 40
        for text in [*titles, *lines]:
            text.position = (width / 2, y)
            text.draw()
            y -= 42
