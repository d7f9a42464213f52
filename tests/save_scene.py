"""A scene to save and restore: a school and sharks round a rock, led by a tied sprite that
swims a loop, with food, a predator entity of the host's and wandering fish. The host's part
(rock, food, predator, the tied sprite) is made by `host_entities`, once for the saved flock
and again, from what the host kept, for the restored one."""

import copy
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import esper
import numpy as np

from shoal.components import (
    Circle,
    Food,
    Leader,
    Obstacle,
    Position,
    Predator,
    Rect,
    Species,
    Velocity,
)
from shoal.systems import Flock, FlockConfig, install, uninstall

CONFIG = FlockConfig(900, 600, seed=11)
FISH = Species("fish", wander_weight=0.4, fear_radius=120, burst_factor=2.0, burst_time=0.5)
SHARK = Species("shark", min_speed=40, max_speed=120, catch_radius=12, catch_cooldown=2.0,
                alignment_weight=0.0, cohesion_weight=0.0)  # fmt: skip


class Sprite:
    """A host's sprite as a tie reads it: it swims a loop, one point per step."""

    def __init__(self) -> None:
        self.center_x, self.center_y = self.spot(0)

    @staticmethod
    def spot(k: int) -> tuple[float, float]:
        return 450.0 + 300.0 * math.cos(k / 50.0), 300.0 + 180.0 * math.sin(k / 35.0)

    def move(self, k: int) -> None:
        self.center_x, self.center_y = self.spot(k)


@dataclass
class Host:
    """What a host game keeps of its own: the sprite and its agents' components."""

    sprite: Sprite = field(default_factory=Sprite)
    agents: list[tuple[object, ...]] = field(default_factory=list)


def new_host() -> Host:
    return Host(agents=[
        (Position(150.0, 480.0), Food(bites=40, radius=6.0)),
        (Position(700.0, 120.0), Food(bites=40, radius=6.0)),
        (Position(820.0, 520.0), Velocity(-20.0, 0.0), Predator(("fish",), catch_radius=10)),
    ])  # fmt: skip


def flock_for(host: Host, world: str) -> Flock:
    """The flock, its species and the host's entities (no boids yet)."""
    flock = install(CONFIG, [FISH, SHARK], world=world)
    flock.relate("fish", "shark", "flee")
    flock.relate("shark", "fish", "chase")
    flock.relate("shark", "shark", "avoid")
    flock.create_entity(Obstacle(Circle(450.0, 300.0, 50.0)))
    flock.create_entity(Obstacle(Rect(200.0, 100.0, 40.0, 160.0)))
    flock.tie(host.sprite, Leader(("fish",)))
    for components in host.agents:
        flock.create_entity(*components)
    return flock


def kept(flock: Flock) -> list[tuple[object, ...]]:
    """The host's agents as they are now (what it would write to its save), in the order it
    created them: copies of their components."""
    found = []
    with flock.in_world():
        for entity in flock.created:
            exists = esper.entity_exists(entity)
            parts: tuple[object, ...] = esper.components_for_entity(entity) if exists else ()
            if any(isinstance(part, Food | Predator) for part in parts):
                found.append(tuple(_copy(part) for part in parts))
    return found


def _copy(part: object) -> object:
    if isinstance(part, Position | Velocity):
        return type(part)(*part.xy)
    return copy.copy(part)


def run(flock: Flock, host: Host, first: int, count: int) -> None:
    """Steps first+1 .. first+count, the sprite moved before each."""
    for k in range(first, first + count):
        host.sprite.move(k)
        flock.step()


def by_saved(flock: Flock, new_of: dict[int, int] | None = None) -> dict[int, tuple[float, ...]]:
    """Each boid's position and velocity, keyed by its entity in the saved flock."""
    old_of = {} if new_of is None else {new: old for old, new in new_of.items()}
    rows = np.hstack((flock.positions, flock.velocities)).tolist()
    return {
        old_of.get(e, e): tuple(row) for e, row in zip(flock.entities.tolist(), rows, strict=True)
    }


@contextmanager
def flocks() -> Iterator[list[Flock]]:
    """A list to put flocks in; every one uninstalled afterwards."""
    made: list[Flock] = []
    try:
        yield made
    finally:
        for flock in made:
            uninstall(flock)
