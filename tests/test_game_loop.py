"""The game loop holds up: bounded catch-up, drawing never starves, pause is pixel-still,
the intro card blocks the first step, everything that moves is interpolated."""

import time
from collections.abc import Iterator

import arcade
import numpy as np
import pytest

from shoal.game.clock import MAX_STEPS_PER_FRAME, StepClock
from shoal.game.level import level_names, load_level
from shoal.game.tank import DT, Tank
from shoal.game.tank_view import TankView


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    win = arcade.Window(640, 400, "loop tests", visible=False)
    yield win
    win.close()


def view_of(window: arcade.Window, *, intro: bool = False, fish: int | None = None,
            level: str = "") -> TankView:  # fmt: skip
    level_file = load_level(level or level_names()[0])
    make = lambda lv: Tank(lv, seed=3, fish=fish, autopilot=True)  # noqa: E731
    view = TankView(level_file, make, intro=intro)
    window.show_view(view)
    return view


# --- the clock ---------------------------------------------------------------------------
def test_the_clock_runs_the_steps_due_and_keeps_the_fraction() -> None:
    clock, ran = StepClock(), []
    assert clock.tick(DT * 2.5, lambda: ran.append(1)) == 2
    assert clock.fraction == pytest.approx(0.5)
    assert clock.tick(DT * 0.25, lambda: ran.append(1)) == 0
    assert clock.fraction == pytest.approx(0.75)
    assert len(ran) == 2


def test_a_long_frame_runs_a_bounded_number_of_steps_and_drops_the_rest() -> None:
    clock = StepClock()
    assert clock.tick(10.0, lambda: None) == MAX_STEPS_PER_FRAME
    assert clock.fraction < 1.0 and clock.dropped > 0.0
    # the debt is gone: the next ordinary frame runs one step, not a fast-forward
    assert clock.tick(DT, lambda: None) == 1


def test_slow_steps_stop_the_catch_up_at_the_budget() -> None:
    now = [0.0]

    def slow_step() -> None:
        now[0] += 0.02  # 20 ms a step

    clock = StepClock(budget=0.03, now=lambda: now[0])
    assert clock.tick(4 * DT, slow_step) == 2  # 40 ms > 30 ms budget after the second
    assert clock.fraction < 1.0


def test_a_paused_clock_runs_nothing_and_its_fraction_stays() -> None:
    clock = StepClock()
    clock.tick(DT * 1.4, lambda: None)
    fraction = clock.fraction
    clock.paused = True
    for _ in range(10):
        assert clock.tick(DT * 0.37, lambda: pytest.fail("stepped while paused")) == 0
    assert clock.fraction == fraction


# --- the real window ---------------------------------------------------------------------
def frame(view: TankView) -> np.ndarray:
    view.on_draw()
    return np.asarray(arcade.get_image().convert("RGB"))


def test_pause_is_pixel_still_and_says_paused(window: arcade.Window) -> None:
    view = view_of(window)
    for _ in range(30):
        view.on_update(DT * 1.3)  # fractions that keep changing
    view.on_key_press(arcade.key.SPACE, 0)
    assert view.paused
    card = view.card()
    assert card is not None and card.title == "Paused"
    still = frame(view)
    steps = view.steps_taken
    for frame_time in (DT * 0.3, DT * 0.7, DT * 2.9):
        view.on_update(frame_time)
        assert np.array_equal(frame(view), still), "the paused picture moved"
    assert view.steps_taken == steps
    view.on_key_press(arcade.key.SPACE, 0)
    view.on_update(DT * 1.3)
    assert view.steps_taken > steps and not np.array_equal(frame(view), still)
    view.tank.close()


def test_the_intro_card_blocks_the_first_step_until_a_key(window: arcade.Window) -> None:
    view = view_of(window, intro=True)
    card = view.card()
    assert card is not None and card.title == view.level.title
    assert "Goal" in card.lines[0] and "key" in card.hint
    picture = frame(view)
    for _ in range(20):
        view.on_update(0.1)
    assert view.steps_taken == 0 and view.tank.time == 0.0
    assert np.array_equal(frame(view), picture)
    view.on_key_press(arcade.key.SPACE, 0)  # starts; does not pause
    assert not view.waiting and not view.paused
    view.on_update(DT)
    assert view.steps_taken == 1
    view.tank.close()


def test_a_click_on_the_intro_card_starts_without_dropping_food(window: arcade.Window) -> None:
    view = view_of(window, intro=True)
    food = len(view.tank.food_items())
    view.on_mouse_press(window.width // 2, window.height // 2, arcade.MOUSE_BUTTON_LEFT, 0)
    assert not view.waiting and len(view.tank.food_items()) == food
    view.tank.close()


def test_the_leader_and_food_are_drawn_between_steps(window: arcade.Window) -> None:
    view = view_of(window)
    view.on_mouse_press(window.width // 2, window.height // 2, arcade.MOUSE_BUTTON_LEFT, 0)
    for _ in range(40):
        view.on_update(DT)
    view.on_update(DT * 0.5)
    assert view.clock.fraction == pytest.approx(0.5)
    tank = view.tank
    assert tank.leader is not None and tank.leader_before is not None
    x, y, _ = tank.leader_at(view.alpha) or (0, 0, 0)
    bx, by, _ = tank.leader_before
    assert (x, y) == pytest.approx((bx + (tank.leader.x - bx) / 2, by + (tank.leader.y - by) / 2))
    assert abs(tank.leader.y - by) + abs(tank.leader.x - bx) > 0.5  # it moved
    dropped = tank.food_items(0.0)[-1], tank.food_items(1.0)[-1]
    assert dropped[0][1] > dropped[1][1]  # the sinking pellet: drawn higher at alpha 0
    tank.close()


def test_the_hud_says_when_game_time_slows_down(window: arcade.Window) -> None:
    view = view_of(window)
    view.on_update(DT)
    assert "slowed" not in view.hud.readout  # the first second is not "slow"
    view.hud._readout_at = -1e9
    view.on_update(1.0)  # a frame far too long: steps dropped
    assert "slowed to" in view.hud.readout
    view.tank.close()


def test_headless_hud_shows_no_fps_it_did_not_measure(window: arcade.Window) -> None:
    view = view_of(window)
    view.step()
    shown = " ".join(text for text, _ in view.hud.items(view.tank))
    assert "fps" not in shown
    view.tank.close()


# Last: arcade.run ends by closing the module's window.
def test_a_2000_fish_tank_keeps_drawing_in_the_real_loop(window: arcade.Window) -> None:
    """arcade.run's own (headless) loop: each frame draws, whatever a step costs."""
    view = view_of(window, fish=2000)
    draws: list[int] = []
    real_draw = view.on_draw
    started = time.perf_counter()

    def counting_draw() -> None:
        real_draw()
        draws.append(view.steps_taken)
        if len(draws) >= 12 or time.perf_counter() - started > 60:
            window.close()

    view.on_draw = counting_draw  # type: ignore[method-assign]
    try:
        arcade.run()
    finally:
        view.tank.close()
    assert len(draws) >= 12, "the loop stopped drawing"
    assert draws[-1] > 0, "the simulation never stepped"
    steps_between_draws = np.diff([0, *draws])
    assert steps_between_draws.max() <= MAX_STEPS_PER_FRAME
