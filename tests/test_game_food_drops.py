"""Clicking fast drops pellets side by side, not stacked (issue 42): dropped pellets sink at
one speed, so clicks on one spot made a column that landed as one pellet. A pellet dropped
over another (sinking or sunk) goes a pellet's width aside, deterministically."""

import itertools

import arcade
import numpy as np
import pytest

from shoal.components import Circle, Rect
from shoal.game.food import SIDE_GAP, TankSpace, beside, sink_food
from shoal.game.level import load_level
from shoal.game.tank import DROPPED_FOOD, DT, Tank
from shoal.game.tank_view import TankView
from shoal.systems import compile_field, inside_obstacle
from shoal.systems.flock.ecs import in_world

R = DROPPED_FOOD.radius


def space(*shapes: Circle | Rect, wraps: bool = False) -> TankSpace:
    return TankSpace(800.0, 600.0, wraps, compile_field(shapes))


def dropped(tank: Tank) -> list[tuple[float, float]]:
    """Where the pellets dropped in this test are (the level's own come first)."""
    return [(x, y) for x, y, radius in tank.food_items() if radius == R]


def clicks_on_one_spot(tank: Tank, spot: tuple[float, float], clicks: int, every: int
                       ) -> list[tuple[float, float] | None]:  # fmt: skip
    """Click `clicks` times on `spot`, `every` steps apart; where each pellet was dropped."""
    places = []
    for _ in range(clicks):
        places.append(tank.drop_food(*spot))
        for _ in range(every):
            tank.step(DT)
            tank.status = "playing"  # the level's rules are not under test here
    return places


def assert_side_by_side(points: list[tuple[float, float]]) -> None:
    for (x0, _), (x1, _) in itertools.combinations(points, 2):
        assert abs(x1 - x0) >= 2 * R - 1e-6, f"stacked: {x0:.1f} and {x1:.1f}"


# --- the rule, without a tank ------------------------------------------------------------
def test_a_clear_click_drops_where_clicked() -> None:
    assert beside(space(), 400, 500, R, [(400, 300, R, False)]) == (400, 500)  # a still one below
    assert beside(space(), 400, 500, R, [(420, 480, R, True)]) == (400, 500)  # a width aside


def test_a_click_over_a_sinking_pellet_drops_beside_it_on_the_clicks_side() -> None:
    x, y = beside(space(), 403, 500, R, [(400, 497, R, True)])
    assert (x, y) == pytest.approx((403 + 2 * R + SIDE_GAP, 500))
    x, _ = beside(space(), 397, 500, R, [(400, 497, R, True)])
    assert x == pytest.approx(397 - 2 * R - SIDE_GAP)


def test_a_click_over_a_sunk_pellet_drops_beside_it_too() -> None:
    x, _ = beside(space(), 400, 500, R, [(400, R, R, True)])  # resting on the floor
    assert abs(x - 400) >= 2 * R


def test_beside_stays_out_of_rocks_and_in_the_tank() -> None:
    rock = space(Rect(430, 300, 30, 600))  # a wall just right of the click
    x, y = beside(rock, 400, 500, R, [(400, 490, R, True)])
    assert x < 400 and not inside_obstacle(rock.field, [(x, y)])[0]
    x, _ = beside(space(), 800, 500, R, [(800 - R, 490, R, True)])  # at the right wall
    assert R <= x <= 800 - R - 2 * R


def test_a_wrapping_tank_keeps_the_whole_column() -> None:
    torus = space(wraps=True)
    x, _ = beside(torus, 400, 100, R, [(400, 500, R, True)])  # above it, but it comes round
    assert abs(x - 400) >= 2 * R
    x, _ = beside(torus, 2, 100, R, [(798, 300, R, True)])  # across the edge
    assert 2 * R <= (x - 798) % 800 <= 800 - 2 * R


def test_a_crowded_column_still_drops_food() -> None:
    pellets = [(400 + dx, 300, R, True) for dx in range(-200, 201, 4)]
    assert beside(space(), 400, 500, R, pellets) == (400, 500)


# --- in the game -------------------------------------------------------------------------
def test_fast_clicks_on_one_spot_drop_pellets_side_by_side() -> None:
    tank = Tank(load_level("reef"), seed=1, free=True)
    try:
        spot = (300.0, tank.level.height - 40)
        places = clicks_on_one_spot(tank, spot, clicks=8, every=6)  # ten clicks a second
        assert all(place is not None for place in places)
        assert_side_by_side([place for place in places if place is not None])
        with in_world(tank.world):  # only the food moves: no fish eats the evidence
            for _ in range(60 * 25):  # long enough to reach the floor or a rock
                sink_food(tank.space, DT)
        landed = dropped(tank)
        assert len(landed) == 8
        assert_side_by_side(landed)  # still side by side where they came to rest
    finally:
        tank.close()


def test_the_same_clicks_drop_the_same_pellets() -> None:
    runs = []
    for _ in range(2):
        tank = Tank(load_level("caves"), seed=2, free=True)
        try:
            runs.append(clicks_on_one_spot(tank, (600.0, 500.0), clicks=6, every=3))
        finally:
            tank.close()
    assert runs[0] == runs[1]


def test_clicks_in_the_view_drop_side_by_side(window: arcade.Window) -> None:
    view = TankView(load_level("reef"), lambda lv: Tank(lv, seed=1, free=True), intro=False)
    window.show_view(view)
    x, y = (round(v) for v in view.camera.project((400.0, 500.0)))
    for _ in range(5):
        view.on_mouse_press(x, y, arcade.MOUSE_BUTTON_LEFT, 0)
        view.step()
    xs = np.array([px for px, _ in dropped(view.tank)])
    assert len(xs) == 5
    assert np.diff(np.sort(xs)).min() >= 2 * R
    view.tank.close()
