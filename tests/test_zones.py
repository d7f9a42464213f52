"""Couzin's zones (issue 18, item 5): widening the zone of orientation takes a group through
the paper's four phases, swarm → torus → dynamic parallel → highly parallel.
benchmarks/zones.py sweeps the width over more seeds and plots the diagram."""

import sys
from pathlib import Path

import pytest

# benchmarks/ is not a package: its scripts stand alone; the model is set up by its own.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import zones

# zones.EXAMPLES: (Δr_o in body lengths, seed, phase), one run per phase. Measured with
# benchmarks/zones.py (150 s at τ = 0.1 s, the mean of the last 50 s): swarm at 0-2
# (polarization 0.09-0.19, milling 0.04-0.32), torus at 4-8 (milling 0.54-0.71, polarization
# 0.07-0.35), dynamic parallel at 9.5 in 3 seeds of 6 (polarization 0.64-0.78: a travelling
# group that bends and turns; the others highly parallel), highly parallel from 10.5
# (polarization 0.99-1.00).


@pytest.mark.slow
@pytest.mark.parametrize(("width", "seed", "expected"), zones.EXAMPLES)
def test_the_zone_of_orientation_sets_the_phase(width: float, seed: int, expected: str) -> None:
    polar, mill = zones.run(zones.Couzin(width), seed, seconds=150.0, tail=50.0)
    assert zones.phase(polar, mill) == expected, (polar, mill)


def test_the_phases_are_told_apart_by_polarization_and_milling() -> None:
    assert zones.phase(0.1, 0.1) == "swarm"
    assert zones.phase(0.2, 0.7) == "torus"
    assert zones.phase(0.7, 0.3) == "dynamic parallel"
    assert zones.phase(0.99, 0.02) == "highly parallel"


def test_the_model_has_the_papers_zones() -> None:
    species = zones.Couzin(4.0, attraction=14.0, length=10.0).species()
    assert species.steering == "zones"
    assert (species.separation_radius, species.alignment_radius) == (10.0, 50.0)
    assert species.perception_radius == 190.0
    assert species.fov_degrees == 270.0 and species.max_turn_rate == 40.0
    assert species.min_speed == species.max_speed == 30.0
