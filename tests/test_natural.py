"""Natural motion (issue 18, item 3; issue 41): a calm school spreads its speeds, turns one
way for a while before it turns back, is aligned but not a lattice; a baitball is denser
than the school and its fish keep their bodies apart. benchmarks/natural.py prints the same
figures for more seeds."""

import sys
from pathlib import Path

import numpy as np
import pytest

from shoal.systems.metrics import share_at_limit, sprite_overlap, turn_reversals

# benchmarks/ is not a package: the test measures with the benchmark's own run.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from natural import DT, SPRITE, watch

SETTLE, WATCH = 20.0, 10.0  # s


@pytest.fixture(scope="module")
def school() -> dict[str, float]:
    """The school preset's figures (seed 0), shared by the tests that read them."""
    return watch("school", seed=0, settle=SETTLE, seconds=WATCH)


@pytest.fixture(scope="module")
def baitball() -> dict[str, float]:
    """The baitball preset's figures (seed 0)."""
    return watch("baitball", seed=0, settle=SETTLE, seconds=WATCH)


@pytest.mark.slow
def test_a_calm_school_moves_like_fish(school: dict[str, float]) -> None:
    # Measured (seed 0): 0 % at a limit (80 % before the cruise speed), 0.98 reversals a
    # second (12-15 before the soft separation and the smooth wander; "about one a second"
    # is the target: 1.2 leaves room for a change of rounding), polarization 0.98 (0.99-1.00
    # without the wander: a lattice; seeds 0-4, 0.90-0.98, benchmarks/natural.py).
    assert school["at a limit"] <= 1 / 3, school
    assert school["reversals/s"] <= 1.2, school
    assert 0.8 <= school["polarization"] < 0.99, school
    # A body length apart or more (median 32.6 px), so that its sprites seldom overlap
    # (measured 4 %, seeds 0-4 1-13 %; 50 % before the wider separation and the personal
    # space of a body length, 18 px apart).
    assert school["overlap"] < 0.15, school


@pytest.mark.slow
def test_a_baitball_is_denser_than_the_school_without_overlap(
    school: dict[str, float], baitball: dict[str, float]
) -> None:
    # The densest shape a school takes: measured (seed 0) median nearest neighbour 26.8 px
    # against the school's 32.6, mean 29.1 against 33.3 (before: 33.0 and 33.8 against
    # 18.0 and 19.1, the ball the looser).
    assert baitball["median nn"] < school["median nn"] - 3.0, (baitball, school)
    assert baitball["mean nn"] < school["mean nn"] - 2.0, (baitball, school)
    # Bodies a body length apart (personal_space = 24 px): 7 % of nearest pairs of sprites
    # overlap (seeds 0-4: 6-8 %; 100 % with the rules alone, 5-7 px apart).
    assert baitball["overlap"] < 0.10, baitball
    # Still a ball: no direction of travel (polarization 0.16), not a mill (milling 0.11),
    # its fish swimming, not pressed on the spot by the crowd (0.96 of their speed becomes
    # motion; 0.04 in a ball left to its bodies: a 30 px personal space, separation out to
    # 32 px only).
    assert baitball["polarization"] <= 0.3, baitball
    assert baitball["milling"] <= 0.3, baitball
    assert baitball["moving"] >= 0.8, baitball


def test_the_measures_tell_natural_from_mechanical() -> None:
    # Speeds: half the boids at a limit.
    speeds = np.r_[np.full(50, 40.0), np.full(50, 75.0)]
    vel = speeds[:, None] * np.column_stack((np.ones(100), np.zeros(100)))
    assert share_at_limit(vel, 40.0, 110.0) == pytest.approx(0.5)
    # Turns: a boid swinging left and right every step reverses 60 times a second; one
    # turning left for a second, then right, once in two seconds.
    t = np.arange(121) * DT
    jitter = 0.01 * (-1.0) ** np.arange(121)
    smooth = np.where(t < 1.0, t, 2.0 - t)
    assert turn_reversals(np.column_stack((jitter,)), DT) == pytest.approx(60, rel=0.05)
    assert turn_reversals(np.column_stack((smooth,)), DT) == pytest.approx(0.5, rel=0.05)
    # Sprites: side by side 14 px apart do not meet; nose to tail 20 px apart do (24 px long).
    heading = np.array([[1.0, 0.0], [1.0, 0.0]])
    assert sprite_overlap(np.array([[0.0, 0.0], [0.0, 14.0]]), heading, SPRITE) == 0.0
    assert sprite_overlap(np.array([[0.0, 0.0], [20.0, 0.0]]), heading, SPRITE) == 1.0
    # Crossed at right angles, centres 17 px apart along x: 12 + 6 = 18 > 17, they meet.
    crossed = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert sprite_overlap(np.array([[0.0, 0.0], [17.0, 0.0]]), crossed, SPRITE) == 1.0
    assert sprite_overlap(np.array([[0.0, 0.0], [19.0, 0.0]]), crossed, SPRITE) == 0.0
