"""Drive the tuning panel in a real window (run under Xvfb by tests/test_panel.py).

Prints "panel ok" when every check passed; any failure raises.
"""

import sys

import arcade
import arcade.gui as gui

from shoal.game.level import level_names, load_level
from shoal.game.presets import preset
from shoal.game.tank import Tank
from shoal.game.tank_view import TankView


def drag(manager: "gui.UIManager", start: tuple[float, float], end: tuple[float, float]
         ) -> None:  # fmt: skip
    """Press, drag and release the left mouse button, as a player would.

    The events go to the UI manager's handlers, which the window calls for each mouse
    event (pyglet queues events dispatched on a window before its first flip).
    """
    button = arcade.MOUSE_BUTTON_LEFT
    manager.on_mouse_press(round(start[0]), round(start[1]), button, 0)
    manager.on_mouse_drag(round(end[0]), round(end[1]), round(end[0] - start[0]), 0, button, 0)
    manager.on_mouse_release(round(end[0]), round(end[1]), button, 0)


def main(screenshot: str) -> None:
    """Open the panel, move sliders with the mouse, pick a preset, change the school."""
    window = arcade.Window(1280, 720, "panel check")
    view = TankView(load_level(level_names()[0]), lambda level: Tank(level, seed=1),
                    intro=False)  # fmt: skip
    window.show_view(view)
    view.on_key_press(arcade.key.P, 0)
    panel = view.panel
    assert panel is not None and panel.enabled
    view.on_draw()  # lays the widgets out
    slider = panel.sliders["cohesion_weight"]
    left, right, middle = slider.rect.left, slider.rect.right, slider.rect.center_y
    drag(panel.manager, (left + 3, middle), (right - 1, middle))
    cohesion = view.tank.flock.species["fish"].cohesion_weight
    assert cohesion > 4.0, cohesion
    assert "cohesion" in view.tank.practice, view.tank.practice  # a tuned run is not scored
    for _ in range(30):
        view.step()  # the change applies live
    panel.presets.value = "mill"  # the dropdown's choice, as a click on "mill" makes it
    species = view.tank.flock.species["fish"]
    for field, value in preset("mill").changes.items():
        assert getattr(species, field) == value, (field, getattr(species, field), value)
    panel.set("fish", 12)
    assert view.tank.fish == 12, view.tank.fish
    assert view.tank.goal.min_fish == view.tank.level.goal.min_fish  # the goal did not move
    view.on_key_press(arcade.key.R, 0)  # a restart is a fair run: the level's own school
    assert view.tank.practice == "" and view.tank.fish == 60, view.tank.fish
    assert panel.sliders["fish"].value == 60
    panel.set("fish", 12)
    assert (panel.sliders["fish"].min_value, panel.sliders["fish"].max_value) == (1, 2000)
    panel.set("min_speed", 290)  # above max speed: refused, reported, nothing changes
    assert view.tank.flock.species["fish"].min_speed < 290
    assert "min_speed" in view.hud.error
    view.on_draw()
    arcade.get_image().save(screenshot)
    view.on_key_press(arcade.key.P, 0)
    assert not panel.enabled
    print("panel ok")


if __name__ == "__main__":
    main(sys.argv[1])
