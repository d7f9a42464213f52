"""No fish stuck (issue 41): a boid that swims at speed against a surface gets on its way.

The game's fish sat for up to 115 s at the foot of the caves' lower-left plant, where it
stands on the floor: every step the collision stage put them back on the corner and turned
their velocity along one face, into the other. In the kelp a fish swam up a slot between two
stems narrower than itself, pressed onto one stem, and met it at the start of every step.
`benchmarks/stuck.py` measures every level; here the collision stage alone, then the game.
"""

import sys
from pathlib import Path
from typing import Any

import esper
import numpy as np
import pytest

from shoal.components import Polygon, Species
from shoal.systems import (
    OBSTACLES_PRIORITY,
    STAGES,
    CollisionSystem,
    Flock,
    FlockConfig,
    MotionSystem,
    install,
)
from shoal.systems.flock.processor import FlockProcessor

from obstacle_shapes import add_obstacles

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from stuck import fish_tracks, longest_stays

DT = 1 / 60
FISH = Species("fish", min_speed=40, max_speed=110, personal_space=0.0)
"""Without bodies: two fish 7 px apart pressed each other into the corner, with no rule to
turn them apart (the game's fish, bodies on, are measured by `benchmarks/stuck.py`)."""
# The caves' floor rises to a peak where the plant stands on it (levels/caves.tmj): the
# floor's face and the plant's meet at about 76°, open towards the upper left.
FLOOR = Polygon([(0, 0), (400, 0), (400, 50), (320, 120), (180, 80), (0, 100)])
PLANT = Polygon([(323, 110), (341, 110), (341, 240), (323, 240)])


class Press(FlockProcessor):
    """A constant acceleration on every boid (a push that presses them on a surface)."""

    def __init__(self, flock: Flock, acceleration: tuple[float, float]) -> None:
        super().__init__(flock)
        self.acceleration = acceleration

    def process(self, *args: Any, **kwargs: Any) -> None:
        self.flock.store.accelerations[:] = self.acceleration


def _motion_and_collision(press: tuple[float, float] = (0.0, 0.0)) -> Flock:
    """A flock moved only by its velocity, `press` and the collision stage."""
    flock = install(FlockConfig(width=400, height=300, seed=1), [FISH])
    for system, _ in STAGES:
        if system not in (MotionSystem, CollisionSystem):
            esper.remove_processor(system)
    esper.add_processor(Press(flock, press), OBSTACLES_PRIORITY)
    return flock


def test_a_boid_swimming_into_a_corner_leaves_it() -> None:
    flock = _motion_and_collision()
    add_obstacles([FLOOR, PLANT])
    # Into the corner, as the stuck fish swam: towards the plant and down the floor's slope.
    flock.spawn("fish", np.array([[318.0, 119.0], [321.0, 125.0]]),
                np.array([[100.0, -40.0], [30.0, -100.0]]))  # fmt: skip
    start = flock.positions.copy()
    for _ in range(60):
        flock.step(DT)
    # Free to swim, it is a body length and more from the corner within a second.
    assert np.hypot(*(flock.positions - start).T).min() > 24.0


def test_a_boid_pressed_on_a_wall_slides_along_it() -> None:
    flock = _motion_and_collision(press=(0.0, -1500.0))  # a fish's max force, into the floor
    add_obstacles([Polygon([(0, 0), (400, 0), (400, 100), (0, 100)])])
    flock.spawn("fish", np.array([[50.0, 100.01]]), np.array([[110.0, 0.0]]))
    for _ in range(60):
        flock.step(DT)
    x, y = flock.positions[0]
    assert y == pytest.approx(100.0, abs=0.01)  # on the floor, pressed
    assert x > 50.0 + 0.9 * 110.0  # and along it at about its speed


@pytest.mark.slow
@pytest.mark.parametrize(("level", "player", "seed", "seconds"), [
    ("caves", "idle", 0, 30.0),  # 3 fish on the plant's foot from 5 s on (115 s in 120 s)
    ("caves", "idle", 2, 30.0),  # 6 fish there
    ("kelp", "autopilot", 1, 60.0),  # a fish in the slot between two stems from 29 s on
])  # fmt: skip
def test_no_game_fish_stays_on_one_spot(level: str, player: str, seed: int,
                                        seconds: float) -> None:  # fmt: skip
    tracks, wrap = fish_tracks(level, player, seed, seconds)
    longest, began = longest_stays(tracks, 15.0, wrap)
    worst = int(np.argmax(longest))
    assert longest[worst] * DT < 20.0, f"stayed at {tracks[began[worst], worst]}"
