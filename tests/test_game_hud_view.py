"""What a player meets on the screen (issue 42): the developer's speed readout only with the
debug overlay and never over a card, the overlay's legend clear of the message bar, the tank
drawn below the HUD's bar, and the mouse still mapped to where it points. Each at 1280 × 720
and at the smallest window the game allows, 640 × 400."""

import re
import time
from collections.abc import Iterator

import arcade
import numpy as np
import pytest

from shoal.game.level import level_names, load_level
from shoal.game.tank import DT, Tank
from shoal.game.tank_view import TankView
from shoal.systems.render.debug_overlay import RULE_COLOURS

SIZES = [(1280, 720), (640, 400)]


@pytest.fixture(scope="module", params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def window(request: pytest.FixtureRequest) -> Iterator[arcade.Window]:
    width, height = request.param
    win = arcade.Window(width, height, "hud view tests", visible=False)
    yield win
    win.close()


def view_of(window: arcade.Window, *, intro: bool = False) -> TankView:
    make = lambda lv: Tank(lv, seed=3, autopilot=True)  # noqa: E731
    view = TankView(load_level(level_names()[0]), make, intro=intro)
    window.show_view(view)
    return view


def shown_items(view: TankView) -> str:
    view.on_draw()  # the view tells the HUD what is up (the overlay, a card) as it draws
    return "  ".join(text for text, _ in view.hud.items(view.tank))


def speed_shown(view: TankView) -> bool:
    """Whether the HUD shows the step time ("step 0.6 ms") now."""
    return re.search(r"step [0-9.]+ ms", shown_items(view)) is not None


def run_a_second(view: TankView) -> None:
    for _ in range(60):
        view.on_update(DT)
    view.hud._readout_at = -1e9  # a readout is due now


# --- 1. the speed readout ----------------------------------------------------------------
def test_the_speed_readout_shows_only_with_the_debug_overlay(window: arcade.Window) -> None:
    view = view_of(window)
    run_a_second(view)
    view.on_update(DT)
    assert not speed_shown(view)  # a player sees no step times
    view.on_key_press(arcade.key.D, 0)
    assert speed_shown(view)
    view.on_key_press(arcade.key.D, 0)
    assert not speed_shown(view)
    view.tank.close()


def test_no_readout_over_the_next_levels_card(window: arcade.Window) -> None:
    view = view_of(window, intro=True)
    view.on_key_press(arcade.key.A, 0)  # any key starts the level
    view.on_key_press(arcade.key.D, 0)
    run_a_second(view)
    view.on_update(DT)
    assert speed_shown(view)
    view.on_key_press(arcade.key.N, 0)  # the next level: its card is up
    assert view.waiting and not speed_shown(view)
    view.on_key_press(arcade.key.H, 0)  # nor over the help card
    assert not speed_shown(view)
    view.tank.close()


def test_a_slow_down_is_shown_to_the_player_without_the_overlay(window: arcade.Window) -> None:
    view = view_of(window)
    view.on_update(DT)
    view.hud._readout_at = -1e9
    view.on_update(1.0)  # a frame far too long: steps dropped, game time slowed
    assert "slowed to" in shown_items(view) and not speed_shown(view)
    view.tank.close()


# --- 2. the legend and the message bar ---------------------------------------------------
def near(picture: np.ndarray, colour: tuple[int, ...]) -> np.ndarray:
    close: np.ndarray = (np.abs(picture - np.array(colour[:3])) <= 12).all(axis=2)
    return close


def test_the_overlays_legend_sits_above_the_message_bar(window: arcade.Window) -> None:
    view = view_of(window)
    view.step()
    view.on_key_press(arcade.key.D, 0)
    view.on_draw()  # the first overlay draw may take seconds (its kernels): notice after
    view.hud.notify("Screenshot saved: /somewhere/shoal-reef-000001.png", time.perf_counter())
    picture = np.asarray(view.picture().convert("RGB")).astype(int)
    top = view.hud.message_top(window.width, window.height, time.perf_counter())
    assert top > 0, "the message shows"
    for rule in ("alignment", "cohesion"):
        rows = np.flatnonzero(near(picture, RULE_COLOURS[rule]).any(axis=1))
        assert len(rows), f"the legend's {rule} is drawn, undimmed by the message bar"
        lowest = window.height - 1 - rows.max()  # window y of its lowest pixel
        assert lowest >= top, f"the legend's {rule} reaches into the message bar"
        assert window.height - rows.min() <= window.height - view.hud.bar_height(
            view.tank, window.width, window.height)  # fmt: skip
    view.tank.close()


# --- 3. the tank below the HUD's bar -----------------------------------------------------
def test_the_tank_lies_below_the_hud_bar_even_when_it_wraps(window: arcade.Window) -> None:
    view = view_of(window)
    view.tank.mark_practice("fish changed with the panel")  # the longest items there are
    view.on_key_press(arcade.key.D, 0)
    view.hud.measure(0.0, 59.0, 12.5, 30)
    view.on_draw()
    width, height = window.width, window.height
    bar = view.hud.bar_height(view.tank, width, height)
    level = view.level
    for corner in ((0.0, level.height), (level.width, level.height)):
        x, y = view.camera.project(corner)
        assert y <= height - bar + 0.5, "the tank's top lies under the HUD's bar"
        assert 0.0 <= x <= width
    assert view.camera.project((0.0, 0.0))[1] >= -0.5  # and all of it in the window
    view.tank.close()


def test_a_resize_fits_the_tank_below_the_bar(window: arcade.Window) -> None:
    view = view_of(window)
    for width, height in ((640, 400), (1000, 400), (800, 1000), (3840, 2160)):
        view.on_resize(width, height)
        bar = view.hud.bar_height(view.tank, width, height)
        viewport = view.camera.viewport
        assert viewport.top <= height - bar + 0.5 and viewport.bottom >= -0.5
        assert viewport.left >= -0.5 and viewport.right <= width + 0.5
        assert viewport.width / viewport.height == pytest.approx(
            view.level.width / view.level.height)  # fmt: skip
    view.on_resize(window.width, window.height)
    view.tank.close()


def test_the_mouse_still_points_where_the_leader_goes(window: arcade.Window) -> None:
    view = view_of(window)
    view.on_draw()
    level = view.level
    for fx, fy in ((0.25, 0.5), (0.75, 0.2), (0.5, 0.9)):
        wanted = (fx * level.width, fy * level.height)
        x, y = view.camera.project(wanted)
        view.on_mouse_motion(round(x), round(y), 0, 0)
        assert view.tank.target == pytest.approx(wanted, abs=3.0)  # a pixel is ~2 px there
    view.tank.close()
