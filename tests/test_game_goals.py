"""The fish tank's rules: fish brought home, food the player may drop, the score, losing,
and the free swim (the tank without a window; tests/test_balance.py plays through it)."""

import math
from dataclasses import replace

import numpy as np
import pytest

from shoal.game.level import load_level
from shoal.game.tank import (
    DT,
    POINTS_PER_BITE,
    POINTS_PER_FISH_HOME,
    POINTS_PER_SECOND_LEFT,
    Tank,
)


def _lead_home(tank: Tank, seconds: float) -> None:
    """The player's mouse on the home until the level ends or `seconds` pass."""
    home = tank.level.home
    assert home is not None
    tank.target = (home.x, home.y)
    for _ in range(round(seconds / DT)):
        tank.step()
        if tank.status != "playing":
            return


def _fish_positions(tank: Tank) -> np.ndarray:
    flock = tank.flock
    return np.asarray(flock.store.positions[flock.store.species == flock.species.index("fish")])


def test_fish_led_into_the_home_are_home_and_win_the_level() -> None:
    """Led to the reef's home, the school goes in: each fish inside the ring leaves the tank
    as one fish home, none is left inside it, and the level is won once 45 are home, with
    a score of the fish home, the bites and the seconds to spare."""
    tank = Tank(load_level("reef"), seed=0)
    try:
        start = tank.fish
        _lead_home(tank, 60.0)
        home = tank.level.home
        assert home is not None
        assert tank.status == "won", tank.reason
        assert tank.fish_home >= tank.goal.fish_home == 45
        assert tank.fish + tank.fish_home + tank.fish_eaten == start
        inside = np.hypot(*(_fish_positions(tank) - (home.x, home.y)).T) <= home.radius
        assert not inside.any()
        assert "fish home" in tank.reason
        spare = math.floor(tank.goal.time_limit - tank.time)
        assert tank.score == (tank.fish_home * POINTS_PER_FISH_HOME
                              + tank.food_eaten * POINTS_PER_BITE
                              + spare * POINTS_PER_SECOND_LEFT)  # fmt: skip
    finally:
        tank.close()


def test_the_level_is_lost_once_too_few_fish_are_left_to_bring_home() -> None:
    """A goal of every fish home is lost at the first fish the sharks take (here: taken
    out as a shark would), and says why."""
    tank = Tank(load_level("reef"), seed=0)
    try:
        tank.goal = replace(tank.goal, fish_home=tank.fish)
        flock = tank.flock
        fish = flock.entities[flock.store.species == flock.species.index("fish")]
        flock.despawn(int(fish[0]))
        tank.step()
        assert tank.status == "lost"
        assert tank.reason.startswith("Too few fish left to bring 60 home")
    finally:
        tank.close()


def test_time_up_is_a_loss_that_says_how_far_the_goal_got() -> None:
    tank = Tank(load_level("reef"), seed=0)
    try:
        tank.time = tank.goal.time_limit - DT / 2
        tank.step()
        assert tank.status == "lost"
        assert tank.reason == "Time is up: 0 of 45 fish home in 60 s."
        assert tank.score == 0
    finally:
        tank.close()


def test_the_player_drops_only_the_level_s_pellets() -> None:
    """The reef gives five pellets: five clicks drop food, the sixth drops none and says
    why; a free swim has no limit."""
    tank = Tank(load_level("reef"), seed=0)
    try:
        assert tank.drops_left == tank.level.food_drops == 5
        dropped = [tank.drop_food(600.0 + 20 * k, 400.0) for k in range(6)]
        assert all(spot is not None for spot in dropped[:5]) and dropped[5] is None
        assert tank.drops_left == 0
        assert tank.cannot_drop().startswith("No food left to drop")
    finally:
        tank.close()
    free = Tank(load_level("reef"), seed=0, free=True)
    try:
        assert free.drops_left is None
        assert all(free.drop_food(600.0 + 20 * k, 400.0) is not None for k in range(8))
    finally:
        free.close()


@pytest.mark.parametrize("fish", [30, 120])
def test_another_school_size_keeps_the_share_to_bring_home(fish: int) -> None:
    tank = Tank(load_level("reef"), seed=0, fish=fish)
    try:
        assert tank.goal.fish_home == math.ceil(45 * fish / 60)
    finally:
        tank.close()


def test_a_free_swim_never_ends_and_keeps_every_fish() -> None:
    """Free swim: past the time limit, the school led through the home, nothing ends and no
    fish leaves the tank."""
    tank = Tank(load_level("reef"), seed=0, free=True)
    try:
        start = tank.fish
        _lead_home(tank, 25.0)
        tank.time = 10 * tank.goal.time_limit
        tank.step()
        assert tank.status == "playing"
        assert (tank.fish, tank.fish_home) == (start, 0)
    finally:
        tank.close()


def test_free_on_the_command_line_builds_free_tanks() -> None:
    """``shoal --free``: every level's tank is a free swim (the presets can be watched for
    as long as one likes); without it, the level's goal holds."""
    from shoal.game.__main__ import parse_args
    from shoal.game.play import tank_factory

    level = load_level("reef")
    for argv, free in ((["--free", "--preset", "mill"], True), ([], False)):
        tank = tank_factory(parse_args(argv), headless=False)(level)
        try:
            assert tank.free is free
            assert tank.drops_left == (None if free else level.food_drops)
        finally:
            tank.close()
