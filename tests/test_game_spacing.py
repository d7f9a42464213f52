"""The game's own fish keep their spacing: a level's school about a body length apart (a
fish is drawn 24 × 12 px), and 2,000 fish (the most the game offers) packed into a level
without lying on top of each other.

2,000 fish cannot be a body length apart in these tanks: at 24 px each would need ~500 px²,
1,000,000 px² in all, more than a level's free water (about 800,000 px²). Measured (seed 1,
the autopilot leading): after 6 s the median distance to the nearest fish is 9.6-18.7 px in
the reef and open water and 7.4-7.5 px in the caves and kelp, and the crowded tenth keeps
2.5-7.3 px (with the FISH of before, after 10 s: medians 5.7-5.8 px in the caves and kelp,
and in the kelp a tenth within 1.1 px: fish the crowd pressed onto a plant lay on one spot).
"""

import numpy as np
import pytest

from shoal.game.level import level_names, load_level
from shoal.game.tank import DT, Tank

pytestmark = pytest.mark.slow


def nearest_distances(tank: Tank) -> np.ndarray:
    """Each fish's distance to its nearest other fish (the short way round a torus)."""
    store, config = tank.flock.store, tank.flock.config
    points = store.positions[store.species == tank.flock.species.index("fish")]
    size = np.array([config.width, config.height])
    nearest = np.empty(len(points))
    for start in range(0, len(points), 500):
        offsets = points[start : start + 500, None, :] - points[None, :, :]
        if config.wraps:
            offsets -= np.rint(offsets / size) * size
        gaps = np.hypot(offsets[..., 0], offsets[..., 1])
        gaps[np.arange(len(gaps)), np.arange(start, start + len(gaps))] = np.inf
        nearest[start : start + 500] = gaps.min(axis=1)
    return nearest


def played(name: str, fish: int | None, seconds: float) -> np.ndarray:
    """The nearest-neighbour distances after `seconds` of the level (the autopilot leads)."""
    tank = Tank(load_level(name), seed=1, fish=fish, autopilot=True, free=True)
    try:
        for _ in range(round(seconds / DT)):
            tank.step(DT)
        return nearest_distances(tank)
    finally:
        tank.close()


@pytest.mark.parametrize("name", level_names())
def test_a_level_s_school_keeps_about_a_body_length_apart(name: str) -> None:
    nearest = played(name, None, 10.0)
    assert np.median(nearest) >= 20.0, np.median(nearest)


@pytest.mark.parametrize("name", level_names())
def test_2000_fish_stay_spaced_and_never_on_top_of_each_other(name: str) -> None:
    nearest = played(name, 2000, 6.0)
    assert np.median(nearest) >= 6.5, np.median(nearest)
    assert np.percentile(nearest, 10) >= 1.5, np.percentile(nearest, 10)
