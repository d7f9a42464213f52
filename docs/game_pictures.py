"""Make the game's pictures in docs/images (headless): ``python docs/game_pictures.py``.

The intro card, the school led into its home, the HUD at 640 × 400 and at 3840 × 2160, the
paused screen, a game over and the finish card, each from the real view playing the real
levels (seeded; the leader on autopilot, or led by the mouse).
"""

import os
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")  # before arcade is imported

import arcade

from shoal.game.level import load_level
from shoal.game.tank import DT, Tank
from shoal.game.tank_view import TankView

OUT = Path(__file__).resolve().parent / "images"


def view_in(window: arcade.Window, level: str, intro: bool = True) -> TankView:
    """A view of `level` in `window`, the leader on autopilot."""
    view = TankView(load_level(level), lambda lv: Tank(lv, seed=2, autopilot=True), intro=intro)
    window.show_view(view)
    return view


def save(view: TankView, name: str) -> None:
    """Draw the view and save it as docs/images/game_NAME.png."""
    view.on_draw()
    arcade.get_image().convert("RGB").save(OUT / f"game_{name}.png", optimize=True)


def play(view: TankView, seconds: float) -> None:
    """Run the view's own clock for `seconds` of 60 Hz frames (the readout as measured)."""
    for _ in range(round(seconds / DT)):
        view.on_update(DT)
    view.hud.measure(1e9, 60.0, view.sim_ms)


def lead_home(view: TankView, seconds: float) -> None:
    """The mouse on the level's home for `seconds` (the school follows the leader in)."""
    home = view.level.home
    assert home is not None
    view.tank.autopilot = False
    screen = view.camera.project((home.x, home.y))
    view.on_mouse_motion(round(screen.x), round(screen.y), 0, 0)
    play(view, seconds)


def main() -> None:
    """Every picture, in turn."""
    window = arcade.Window(1280, 720, "pictures", visible=False)
    view = view_in(window, "reef")
    save(view, "intro")
    view.on_key_press(arcade.key.SPACE, 0)  # any key starts
    play(view, 3.0)
    view.on_key_press(arcade.key.SPACE, 0)
    save(view, "paused")
    view.on_key_press(arcade.key.SPACE, 0)
    lead_home(view, 7.0)
    save(view, "leading")
    view.tank.fish_home = view.tank.goal.fish_home  # as if the rest had swum home
    play(view, DT)
    view.on_key_press(arcade.key.N, 0)  # caves: the time runs out
    view.on_key_press(arcade.key.A, 0)
    play(view, 4.0)
    view.tank.time = view.tank.goal.time_limit - DT / 2
    play(view, DT)
    save(view, "game_over")
    view.on_key_press(arcade.key.N, 0)  # open water: tuned with the panel, then won
    view.on_key_press(arcade.key.A, 0)
    play(view, 2.0)
    view.tank.mark_practice("fish changed with the panel")
    view.tank.fish_home = view.tank.goal.fish_home
    play(view, DT)
    view.on_key_press(arcade.key.N, 0)  # kelp: its card, then skipped
    view.on_key_press(arcade.key.A, 0)
    view.on_key_press(arcade.key.N, 0)
    save(view, "finish")
    view.tank.close()
    window.close()
    for width, height in ((640, 400), (3840, 2160)):
        window = arcade.Window(width, height, "pictures", visible=False)
        view = view_in(window, "caves", intro=False)
        play(view, 2.0)
        save(view, f"hud_{width}x{height}")
        view.tank.close()
        window.close()
    print(f"pictures saved in {OUT}")


if __name__ == "__main__":
    main()
