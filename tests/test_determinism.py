"""The game's outcome depends on its seed and its input, never on how often it is drawn.

The fish tank is played through arcade's own frame loop (`Window._dispatch_updates`, which
ticks the clocks and calls `on_update`, where the view's `StepClock` runs the fixed steps due,
then `on_draw`) at 30, 60 and 144 frames per second, with the same mouse input at the same
fixed steps. After the same number of fixed
steps the state must be bit-identical, and identical to steps taken with no drawing at all.
"""

import math
from collections.abc import Callable, Iterator

import arcade
import numpy as np
import numpy.typing as npt
import pytest

from shoal.game.clock import StepClock
from shoal.game.level import level_names, load_level
from shoal.game.tank import Tank
from shoal.game.tank_view import TankView

STEPS = 240
SEED = 5
Input = Callable[[TankView, arcade.Window], None]


def move_mouse(fx: float, fy: float) -> Input:
    def move(view: TankView, window: arcade.Window) -> None:
        view.on_mouse_motion(round(fx * window.width), round(fy * window.height), 0, 0)

    return move


def click(fx: float, fy: float) -> Input:
    def press(view: TankView, window: arcade.Window) -> None:
        x, y = round(fx * window.width), round(fy * window.height)
        view.on_mouse_press(x, y, arcade.MOUSE_BUTTON_LEFT, 0)

    return press


@pytest.fixture
def running(window: arcade.Window) -> Iterator[arcade.Window]:
    """The window as inside `arcade.run()`: pyglet's event loop turns the event queue off,
    so that events (the fixed updates among them) are dispatched at once."""
    queued = window._enable_event_queue
    window._enable_event_queue = False
    yield window
    window._enable_event_queue = queued


# The player's input, by the fixed step before which it arrives.
INPUT: dict[int, Input] = {
    20: move_mouse(0.25, 0.5),
    60: click(0.5, 0.6),
    61: click(0.3, 0.4),
    120: move_mouse(0.8, 0.3),
    200: move_mouse(0.5, 0.9),
}


class ScriptedView(TankView):
    """The game's view, with INPUT delivered before the fixed steps it names and no step
    taken past STEPS."""

    def step(self) -> None:
        if self.steps_taken >= STEPS:
            return
        if self.steps_taken in INPUT:
            INPUT[self.steps_taken](self, self.window)
        super().step()


def new_view(window: arcade.Window, seed: int = SEED) -> TankView:
    view = ScriptedView(load_level(level_names()[0]), lambda level: Tank(level, seed=seed),
                        intro=False)  # fmt: skip
    # No wall-clock budget: a slow machine must not drop game time in this comparison.
    view.clock = StepClock(budget=math.inf)
    window.show_view(view)
    return view


def play_drawn(window: arcade.Window, rate: float) -> tuple[TankView, int]:
    """Play through arcade's frame loop, drawing `rate` times a second; returns the view and
    how many frames were drawn."""
    view = new_view(window)
    frames = 0
    while view.steps_taken < STEPS and frames < 10 * STEPS:
        window._dispatch_updates(1.0 / rate)  # the clocks and fixed updates, as arcade.run
        view.on_draw()
        frames += 1
    return view, frames


def play_undrawn(window: arcade.Window, seed: int = SEED) -> TankView:
    """The same steps and input with nothing drawn, as the headless game steps."""
    view = new_view(window, seed)
    while view.steps_taken < STEPS:
        view.step()
    return view


State = dict[str, npt.NDArray[np.float64] | float | int]


def state(view: TankView) -> State:
    """Everything the simulation holds that later steps depend on."""
    tank, store = view.tank, view.tank.flock.store
    leader = tank.leader
    assert leader is not None
    return {
        "positions": store.positions.copy(),
        "velocities": store.velocities.copy(),
        "entities": store.entities.astype(np.float64),
        "alarm": store.alarm.copy(),
        "wander": store.wander.copy(),
        "leader": np.array([leader.x, leader.y]),
        "food": np.array(tank.food_items(), dtype=np.float64).reshape(-1, 3),
        "time": tank.time,
        "score": tank.score,
        "fish_eaten": tank.fish_eaten,
    }


def assert_same(a: State, b: State, label: str) -> None:
    assert a.keys() == b.keys()
    for key in a:
        x, y = a[key], b[key]
        if isinstance(x, np.ndarray):
            assert isinstance(y, np.ndarray) and x.shape == y.shape, f"{label}: {key} shape"
            assert x.tobytes() == y.tobytes(), f"{label}: {key} differs"
        else:
            assert x == y, f"{label}: {key} {x} != {y}"


@pytest.mark.slow
def test_outcome_does_not_depend_on_the_display_rate(running: arcade.Window) -> None:
    window = running
    undrawn = play_undrawn(window)
    reference = state(undrawn)
    tank = undrawn.tank
    assert tank.food_items() or tank.food_eaten > 0  # the clicks dropped food
    undrawn.tank.close()
    for rate in (30.0, 60.0, 144.0):
        view, frames = play_drawn(window, rate)
        assert abs(frames - STEPS * rate / 60) <= 2  # it really drew at that rate
        assert view.steps_taken == STEPS
        assert_same(state(view), reference, f"{rate:g} Hz")
        view.tank.close()


@pytest.mark.slow
def test_the_same_seed_and_input_give_bit_identical_games(running: arcade.Window) -> None:
    window = running
    first, second = play_drawn(window, 60.0)[0], play_drawn(window, 60.0)[0]
    assert_same(state(first), state(second), "second run")
    first.tank.close()
    second.tank.close()


@pytest.mark.slow
def test_another_seed_gives_another_game(running: arcade.Window) -> None:
    """The comparison above can fail: a different seed changes the state."""
    window = running
    view = play_undrawn(window)
    other = play_undrawn(window, SEED + 1)
    assert state(view)["positions"].tobytes() != state(other)["positions"].tobytes()  # type: ignore[union-attr]
    view.tank.close()
    other.tank.close()
