"""Nothing stuck or stacked: food lands on rocks or slides off, clicks in rocks drop beside
them, sharks keep apart and off the rocks, and no agent ever ends a step in a rock or
outside the tank, across levels × presets × fish counts."""

import math

import esper
import numpy as np
import pytest

from shoal.components import Circle, Food, Position, Rect
from shoal.game.food import Sinking, TankSpace, free_spot, sink_food
from shoal.game.level import level_names, load_level
from shoal.game.presets import PRESETS, preset
from shoal.game.tank import DT, FISH, Tank
from shoal.systems import compile_field, inside_obstacle
from shoal.systems.obstacles.field import surface


def space(*shapes: Circle | Rect, wraps: bool = False) -> TankSpace:
    return TankSpace(800.0, 600.0, wraps, compile_field(shapes))


def sink(tank: TankSpace, x: float, y: float, seconds: float = 30.0) -> tuple[float, float]:
    """Drop one pellet at (x, y) in the current world; where it is after `seconds`."""
    entity = esper.create_entity(Position(x, y), Sinking(35.0), Food(3, 6))
    for _ in range(round(seconds / DT)):
        sink_food(tank, DT)
        p = esper.component_for_entity(entity, Position)
        assert not inside_obstacle(tank.field, [(p.x, p.y)])[0], "the pellet sank into a rock"
    p = esper.component_for_entity(entity, Position)
    return p.x, p.y


def test_a_pellet_rests_on_a_flat_rock_top() -> None:
    rock = Rect(400, 200, 200, 100)  # top at y = 250
    x, y = sink(space(rock), 420, 500)
    assert (x, y) == pytest.approx((420, 256), abs=0.5)  # its radius above the top


def test_a_pellet_on_a_round_rock_slides_off_and_reaches_the_floor() -> None:
    rock = Circle(400, 200, 100)
    x, y = sink(space(rock), 490, 500)  # lands on the right shoulder (a steep slope)
    assert y == pytest.approx(6) and x > 400 + 90


def test_a_pellet_on_a_steep_slope_slides_down_it() -> None:
    rock = Rect(400, 150, 300, 40, angle_degrees=60)
    _, y = sink(space(rock), 420, 500)
    assert y == pytest.approx(6)  # it slid off onto the floor


def test_a_pellet_in_a_wrap_world_still_meets_the_rocks() -> None:
    _, y = sink(space(Rect(400, 200, 200, 100), wraps=True), 420, 500)
    assert y == pytest.approx(256, abs=0.5)


def test_a_click_in_a_rock_drops_at_the_nearest_free_spot() -> None:
    tank = space(Circle(400, 300, 80))
    x, y = free_spot(tank, 430, 300, 6)
    assert not inside_obstacle(tank.field, [(x, y)])[0]
    assert surface(tank.field, [(x, y)]).distance[0] >= 6 - 1e-6
    assert math.dist((x, y), (400 + 86, 300)) < 2  # straight out to the right


def test_a_click_in_overlapping_rocks_finds_a_spot_clear_of_both() -> None:
    tank = space(Circle(400, 300, 80), Circle(500, 300, 80), Rect(450, 300, 60, 200))
    x, y = free_spot(tank, 450, 300, 6)
    assert not inside_obstacle(tank.field, [(x, y)])[0]
    assert surface(tank.field, [(x, y)]).distance[0] >= 6 - 1e-6


def test_a_click_outside_the_tank_drops_inside_it() -> None:
    x, y = free_spot(space(), -50, 900, 6)
    assert (x, y) == (6, 594)


def test_the_level_tank_drops_food_clicked_into_a_rock_beside_it() -> None:
    tank = Tank(load_level("caves"), seed=1)
    try:
        rock = tank.level.obstacles[6].shape  # the round rock
        assert isinstance(rock, Circle)
        dropped = tank.drop_food(rock.x, rock.y)
        assert dropped is not None
        x, y = dropped
        assert not inside_obstacle(tank.space.field, [(x, y)])[0]
        for _ in range(600):
            tank.step(DT)
        assert tank.misplaced().food == 0
    finally:
        tank.close()


@pytest.mark.parametrize("name", ["caves", "open_water"])
def test_sharks_keep_apart_and_mostly_off_the_rocks(name: str) -> None:
    tank = Tank(load_level(name), seed=1, autopilot=True)
    shark = tank.flock.species.index("shark")
    closest, near_rock, samples = math.inf, 0, 0
    try:
        for step in range(1800):  # 30 s
            tank.step(DT)
            tank.status = "playing"  # keep hunting after the level is decided
            if step % 15 or step < 60:
                continue
            store = tank.flock.store
            sharks = store.positions[store.species == shark]
            gaps = np.hypot(*(sharks[:, None] - sharks[None]).transpose(2, 0, 1))
            closest = min(closest, float(gaps[~np.eye(len(sharks), dtype=bool)].min()))
            near_rock += int(np.count_nonzero(surface(tank.space.field, sharks).distance < 25))
            samples += len(sharks)
            assert tank.misplaced().sharks == 0, f"a shark in a rock or out of the tank ({step})"
    finally:
        tank.close()
    assert closest > 40, f"sharks stacked: {closest:.1f} px apart"
    assert near_rock / samples < 0.15, f"sharks hug the rocks {near_rock / samples:.0%} of time"


def test_a_smaller_school_keeps_the_same_share_alive() -> None:
    level = load_level("reef")  # keep 20 of 60
    tank = Tank(level, fish=600)
    try:
        assert tank.goal.min_fish == 200
    finally:
        tank.close()


def sweep_cases() -> list[tuple[str, str, int | None]]:
    cases: list[tuple[str, str, int | None]] = []
    for name in level_names():
        cases += [(name, p, fish) for p in ["none", *PRESETS] for fish in (None, 400)]
        cases.append((name, "none", 2000))
    return cases


@pytest.mark.slow
@pytest.mark.parametrize(("name", "preset_name", "fish"), sweep_cases())
def test_nothing_ends_a_step_inside_a_rock_or_outside(name: str, preset_name: str,
                                                      fish: int | None) -> None:  # fmt: skip
    species = FISH if preset_name == "none" else preset(preset_name).species(FISH)
    tank = Tank(load_level(name), seed=4, fish=fish, species=species, autopilot=True)
    try:
        tank.drop_food(tank.level.width / 2, tank.level.height * 0.9)
        steps = 90 if fish == 2000 else 240
        for step in range(steps):
            tank.step(DT)
            tank.status = "playing"
            if step % 30 == 29:
                tank.drop_food(*tank.level.leader)
                assert tank.misplaced().total == 0, (step, tank.misplaced())
    finally:
        tank.close()
