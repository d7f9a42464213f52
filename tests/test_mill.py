"""The mill preset mills (issue 18): one ring of fish circling the same way round an empty
core, formed within 40 s of a disc spawn (65 s in a level with room for it: rocks, food and
a narrower disc) and held for the minute after, whatever the fixed step.
benchmarks/mill.py prints the figures for more seeds and every level."""

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import esper
import numpy as np
import pytest

from shoal.components import Species
from shoal.game.level import load_level
from shoal.game.presets import preset
from shoal.game.tank import FISH as GAME_FISH
from shoal.game.tank import Tank
from shoal.systems import FlockConfig, install
from shoal.systems.metrics import milling, polarization

# benchmarks/ is not a package: the test finds a level's room as the benchmark does.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from mill import room

FISH = 150
FORM = 40  # s: measured (benchmarks/mill.py, 12 open-water runs) it forms in 10-30 s
# s, in a level: measured (benchmarks/mill.py, the reef from its largest open disc, seeds
# 0-23) 17-65 s by the benchmark's stricter line, half of them after 40 s; seed 0 here, 58 s.
LEVEL_FORM = 65
HOLD = 60  # s it must then hold
MILLING, POLARIZATION = 0.6, 0.3


def first_mill(samples: np.ndarray) -> int:
    """The first second (index) whose (milling, polarization) make a mill, or -1."""
    good = (samples[:, 0] >= MILLING) & (samples[:, 1] <= POLARIZATION)
    return int(np.argmax(good)) if good.any() else -1


def watched(
    step: Callable[[], object],
    state: Callable[[], tuple[np.ndarray, np.ndarray]],
    dt: float,
    wrap: tuple[float, float] | None = None,
    form: int = FORM,
) -> tuple[np.ndarray, int]:
    """Step until the mill has formed and HOLD more seconds have passed (at most `form` +
    HOLD s), sampling (milling, polarization) once a simulated second (`wrap`: the size of
    a torus world); the samples and the second the mill formed at (-1: never)."""
    samples: list[tuple[float, float]] = []
    while len(samples) < form + HOLD:
        for _ in range(round(1 / dt)):
            step()
        pos, vel = state()
        samples.append((milling(pos, vel, wrap), polarization(vel)))
        start = first_mill(np.array(samples))
        if start >= 0 and len(samples) >= start + HOLD + 1:
            break
    array = np.array(samples)
    return array, first_mill(array)


@pytest.mark.slow
@pytest.mark.parametrize("dt", [1 / 30, 1 / 60, 1 / 120])
def test_the_mill_forms_and_holds_a_minute_round_an_empty_core(dt: float) -> None:
    species = preset("mill").species(Species("fish"))
    world = f"mill-test-{dt}"
    flock = install(FlockConfig(seed=0, dt=dt), [species], world=world)
    try:
        flock.scatter("fish", FISH, centre=(640.0, 360.0), radius=150.0)
        samples, start = watched(flock.step, lambda: (flock.positions, flock.velocities), dt)
        pos = flock.positions
    finally:
        esper.delete_world(world)
    # Measured (seed 0): formed at 16-24 s; then milling at least 0.84, polarization at most
    # 0.17 at every step.
    assert 0 <= start < FORM, samples[:FORM]
    held = samples[start : start + HOLD]
    assert len(held) == HOLD
    assert held[:, 0].min() >= MILLING, held[:, 0]
    assert held[:, 1].max() <= POLARIZATION, held[:, 1]
    # A ring: almost no fish near the middle (measured: the nearest 5 % at 0.39-0.48 of the
    # median distance from the centre; a school or a swarm gives about 0.2).
    radii = np.hypot(*(pos - pos.mean(axis=0)).T)
    assert np.percentile(radii, 5) >= 0.3 * np.median(radii), np.percentile(radii, [5, 50])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["reef", "open_water"])
def test_the_mill_holds_in_a_level_with_room(name: str) -> None:
    # The level with its rocks, food and current (the open water's: 15 px/s², of which the
    # mill's fish swim against three quarters), the school started in its largest open disc
    # (radius 252 px in the reef); no leader, no sharks (a shark breaks any mill: the
    # predator response).
    level = load_level(name)
    x, y, radius = room(level)
    assert radius > 200, radius
    spawn = replace(level.spawns[0], x=x, y=y, count=FISH, radius=150.0)
    level = replace(level, sharks=(), spawns=(spawn,))
    tank = Tank(
        level, seed=0, fish=FISH, species=preset("mill").species(GAME_FISH), leader=False, free=True
    )

    def step() -> None:
        tank.step()

    wrap = (level.width, level.height) if level.boundary == "wrap" else None
    try:
        samples, start = watched(step, lambda: (tank.flock.positions, tank.flock.velocities),
                                 1 / 60, wrap, LEVEL_FORM)  # fmt: skip
    finally:
        tank.close()
    assert 0 <= start < LEVEL_FORM, samples[:LEVEL_FORM]
    held = samples[start : start + HOLD]
    assert held[:, 0].min() >= MILLING, held[:, 0]
    assert held[:, 1].max() <= POLARIZATION, held[:, 1]
