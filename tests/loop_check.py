"""Drive the game's own loop in a real window (run under Xvfb by tests/test_panel.py).

A 2,000-fish tank for a few seconds of pyglet's event loop: it must keep drawing (and so
answering input) whatever one step costs. Prints "loop ok DRAWS STEPS" when it did.
"""

import time

import arcade

from shoal.game.clock import MAX_STEPS_PER_FRAME
from shoal.game.level import load_level
from shoal.game.tank import Tank
from shoal.game.tank_view import TankView

SECONDS = 4.0


def main() -> None:
    """Count draws and steps for SECONDS of arcade.run with 2,000 fish."""
    window = arcade.Window(1280, 720, "loop check")
    view = TankView(load_level("reef"),
                    lambda lv: Tank(lv, seed=1, fish=2000, autopilot=True, free=True),
                    intro=False)  # fmt: skip
    steps_at_draw: list[int] = []
    real_draw = view.on_draw
    started = time.perf_counter()

    def counting_draw() -> None:
        real_draw()
        steps_at_draw.append(view.steps_taken)
        if time.perf_counter() - started > SECONDS:
            window.close()

    view.on_draw = counting_draw  # type: ignore[method-assign]
    window.show_view(view)
    arcade.run()
    gaps = [b - a for a, b in zip([0, *steps_at_draw], steps_at_draw, strict=False)]
    assert len(steps_at_draw) >= 2 * SECONDS, f"only {len(steps_at_draw)} draws"
    assert steps_at_draw[-1] > 0, "never stepped"
    assert max(gaps) <= MAX_STEPS_PER_FRAME, max(gaps)
    print(f"loop ok {len(steps_at_draw)} {steps_at_draw[-1]}")


if __name__ == "__main__":
    main()
