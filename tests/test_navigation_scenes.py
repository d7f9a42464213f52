"""Navigation in the game's levels and in a host's wall maze (the scenes of
`benchmarks/nav_scenes.py`, which `benchmarks/navigation.py` measures)."""

import math
import sys
from pathlib import Path

import arcade
import pytest

from shoal.game.level import load_level
from shoal.game.tank import Tank
from shoal.systems import navigator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import nav_scenes

pytestmark = pytest.mark.slow


SEEDS = range(1, 7)
"""The tour's shares are read over six runs: one run's figure moves by a fish or more with
a numpy or numba release (the caves' seed 1: 54 or more of 60 fish near the stopped leader
with the releases of 2026-11-26, 53 with numpy 2.4.6 and numba 0.68.1; seeds 1-6: 53-59)."""


@pytest.mark.parametrize("level", sorted(nav_scenes.TOURS))
def test_the_school_keeps_with_its_leader_round_the_level(level: str) -> None:
    """On the tour, in each of six runs: at least 80 % of fish in the leader's group, 80 %
    within 200 px 5 s after it stops behind a rock (88 % on average over the runs: a school
    spread out, none left behind), none in a rock, none drawn swimming backwards."""
    results = [nav_scenes.run_tour(level, seed) for seed in SEEDS]
    for result in results:
        # The leader did stop behind a rock: some of the school is out of its sight (10-25 %
        # since the school keeps close behind its slower leader, leader_weight 4; 13-25 %
        # before, and 20-35 % before the followers' disc).
        assert result.hidden_at_stop >= 0.05, result
        assert result.in_group >= 0.8, result
        assert result.near_after_stop >= 0.8, result
        assert result.misplaced == 0, result
        assert result.backwards == 0.0, result
    # On average 88 %: a school at its spacing reaches past 200 px round a leader that stops
    # (open water's 180 fish: the 8-12 % beyond are within 200-300 px, none left behind).
    near = sum(result.near_after_stop for result in results) / len(results)
    assert near >= 0.88, [result.near_after_stop for result in results]


def test_followers_find_their_way_through_a_wall_maze() -> None:
    """A host's maze of wall sprites: once the leader has crossed the fourth column (when it
    stops), most followers are within 250 px of it, and more 5 s later; none ends in a
    wall."""
    walls: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    walls.extend(nav_scenes.maze_walls(lambda x, y: arcade.SpriteSolidColor(32, 32, x, y)))
    result, _ = nav_scenes.run_maze(list(walls))
    # The issue asks for most (> 50 %). Measured 68 %: the school's bodies (10 px apart)
    # are still squeezing through the last gap when the leader stops (90 % when they were
    # packed onto each other); 60 % still fails a school held up at a column.
    assert result.near_at_stop >= 0.6, result
    assert result.near >= result.near_at_stop, result
    assert result.inside == 0, result


@pytest.mark.parametrize("autopilot", [False, True])
def test_the_player_s_leader_goes_round_a_rock(autopilot: bool) -> None:
    """The cursor behind the reef's round rock: the leader goes round it (never touching
    it) and arrives; with navigation off it presses against the rock, as it used to."""

    def arrive(navigate: bool) -> tuple[float, float]:
        tank = Tank(load_level("reef"), seed=1, autopilot=autopilot)
        try:
            navigator(tank.flock).enabled = navigate
            assert tank.leader is not None
            tank.leader.x, tank.leader.y = 650.0, 390.0
            tank.autopilot = False  # a fixed target behind the rock, from the same start
            tank.target = (910.0, 390.0)
            closest = math.inf
            for _ in range(360):  # 6 s: round the rock at the leader's 85 px/s
                tank.step()
                closest = min(closest, math.dist((tank.leader.x, tank.leader.y), (780, 390)))
            return math.dist((tank.leader.x, tank.leader.y), tank.target), closest - 42.0
        finally:
            tank.close()

    gap, clearance = arrive(True)
    assert gap < 5.0 and clearance > 4.0
    gap, _ = arrive(False)
    assert gap > 100.0


def test_the_autopilot_never_pins_the_leader_to_a_rock() -> None:
    """The autopilot's figure eight runs through rocks in the caves: the leader goes round
    them, so it never ends a step touching one."""
    tank = Tank(load_level("caves"), seed=2, autopilot=True)
    try:
        field = tank.space.field
        touching = 0
        for _ in range(60 * 40):
            tank.step()
            assert tank.leader is not None
            from shoal.systems.obstacles.field import surface

            if surface(field, [(tank.leader.x, tank.leader.y)]).distance[0] < 1.0:
                touching += 1
        assert touching == 0
    finally:
        tank.close()


def test_fish_are_drawn_heading_the_way_they_move_along_rock_faces() -> None:
    """The render stage's smoothed heading stays within 90° of each fish's motion while a
    school is led along the caves' rock faces."""
    tank = Tank(load_level("caves"), seed=3)
    try:
        check = nav_scenes.HeadingCheck(tank.flock)
        path = [tank.level.leader, *nav_scenes.TOURS["caves"]]
        for step in range(60 * 20):
            tank.target = nav_scenes._along(path, step * nav_scenes.TARGET_SPEED / 60)
            tank.step()
            check.record(nav_scenes.fish_rows(tank))
        assert check.count > 10_000
        assert check.share_backwards == 0.0
    finally:
        tank.close()
