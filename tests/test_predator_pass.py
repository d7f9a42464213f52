"""A predator passes through a school (issue 18, item 4): the fish burst faster than they
cruise (within the documented bound), open a vacuole round it and go round it (the
fountain). benchmarks/predator.py runs the same pass for more seeds and prints it."""

import math
import sys
from pathlib import Path

import pytest

from shoal.game.presets import BURST, preset
from shoal.game.tank import FISH

# benchmarks/ is not a package: its scripts stand alone; the pass is measured by its own.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import predator

SEED = 1  # a school that is one group when the predator comes (seeds 0 and 3 had split)


@pytest.fixture(scope="module")
def measured() -> predator.Pass:
    """One pass (shared by the tests of this module)."""
    return predator.predator_pass(SEED, after=10.0)


@pytest.mark.slow
def test_the_school_flash_expands_within_the_documented_bound(measured: predator.Pass) -> None:
    species = preset("school").species(FISH)
    assert measured.bound == species.max_speed * BURST["burst_factor"]
    # Measured (seed 1): cruise 88 px/s, the fastest fish 176 px/s, 95 % of the fish burst.
    assert measured.peak >= 1.5 * measured.cruise, measured
    assert measured.peak <= measured.bound + 1e-6, measured
    assert measured.burst_share >= 0.5, measured


@pytest.mark.slow
def test_the_fish_open_a_vacuole_and_fountain_round_it(measured: predator.Pass) -> None:
    # Measured (seed 1): the nearest fish 44 px away (median) while it is in the school, 31 px
    # at the closest; every one of the 37 fish ahead of it in its lane ended behind it.
    assert measured.vacuole_median >= 30.0, measured
    assert measured.vacuole_least >= 20.0, measured
    assert measured.lane_fish >= 10, measured
    assert measured.fountain >= 0.8, measured


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True, reason="split halves beyond the school's 120 px perception stay apart"
)
def test_the_school_rejoins_within_ten_seconds(measured: predator.Pass) -> None:
    # Measured (seed 1): the halves are some 400 px apart when the predator leaves; the
    # school preset sees 120 px. With a perception of 400 px they rejoined in 0-4 s (seeds
    # 0-2), but a calm school then reversed its turn 1.2-2.6 times a second (see
    # benchmarks/natural.py): not yet both.
    assert math.isfinite(measured.rejoin) and measured.rejoin <= 10.0, measured
