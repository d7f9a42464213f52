"""The viewer's drawing and debug keys, in-process (headless window, no event loop)."""

import os
from collections.abc import Iterator

os.environ["ARCADE_HEADLESS"] = "1"  # before arcade is imported anywhere

import arcade
import numpy as np
import pytest

from shoal.game import viewer
from shoal.game.viewer import SCREEN_HEIGHT, SCREEN_WIDTH, GameView


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    """One hidden headless window for the module (reuse one if another module left it)."""
    try:
        yield arcade.get_window()
        return
    except RuntimeError:
        pass
    win = arcade.Window(320, 240, "shoal viewer tests", visible=False)
    yield win
    win.close()


@pytest.fixture
def view(window: arcade.Window) -> Iterator[GameView]:
    game = GameView(fish=60, seed=2)
    game.setup()
    yield game
    game.teardown()


def test_d_toggles_the_overlay_on_the_fish_nearest_the_middle(view: GameView) -> None:
    assert view.overlay is not None and view.flock is not None
    assert not view.overlay.enabled
    view.on_key_press(arcade.key.D, 0)
    assert view.overlay.enabled
    middle = np.array([SCREEN_WIDTH / 2, SCREEN_HEIGHT / 2])
    distances = np.hypot(*(view.flock.positions - middle).T)
    assert view.overlay.selected == int(view.flock.entities[np.argmin(distances)])
    view.on_draw()
    view.on_key_press(arcade.key.D, 0)
    assert not view.overlay.enabled


def test_a_click_selects_the_nearest_fish(view: GameView) -> None:
    assert view.overlay is not None and view.flock is not None
    x, y = view.flock.positions[7]
    view.on_mouse_press(int(x), int(y), arcade.MOUSE_BUTTON_LEFT, 0)
    assert view.overlay.enabled
    assert view.overlay.selected == int(view.flock.entities[7])


def test_restart_keeps_the_overlay_shown(view: GameView) -> None:
    assert view.overlay is not None
    view.on_key_press(arcade.key.D, 0)
    view.on_key_press(arcade.key.R, 0)
    assert view.overlay.enabled and view.overlay.selected is not None


def test_on_draw_interpolates_at_the_fixed_clock_fraction(
    view: GameView, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert view.render is not None
    monkeypatch.setattr(viewer, "fixed_fraction", lambda: 0.25)
    view.on_fixed_update(viewer.FIXED_RATE)
    view.on_draw()
    assert view.render.last_frame is not None and view.render.last_frame.alpha == 0.25
    view.interpolate = False
    view.on_draw()
    assert view.render.last_frame.alpha == 1.0
