"""Prey: hunters go after a named target however far it is (the "chase" relation only works
inside the perception radius), catch it within reach (PREY_CAUGHT, the hunter rests), and
leave alone what they do not hunt. Also `query` by species."""

import arcade
import numpy as np
import pytest

import shoal
from shoal import PREY_CAUGHT, FlockConfig, Position, Prey, Species, Velocity

DT = 1 / 60
HUNTER = Species("hunter", perception_radius=50, max_speed=150, chase_weight=3,
                 catch_radius=10, catch_cooldown=1.0)  # fmt: skip
FISH = Species("fish", perception_radius=50, chase_weight=0)


class Catches:
    """Collects PREY_CAUGHT (esper keeps handlers by weak reference: keep this alive)."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int, float, float]] = []

    def on_prey_caught(self, prey: int, hunter: int, x: float, y: float) -> None:
        self.seen.append((prey, hunter, x, y))


@pytest.mark.slow
def test_hunters_cross_the_world_to_a_prey_they_cannot_see() -> None:
    flock = shoal.install(FlockConfig(1200, 800, seed=2), [HUNTER, FISH])
    hunters = flock.spawn("hunter", [(100, 100), (120, 90)], [(0, 0), (0, 0)])
    fish = flock.spawn("fish", [(100, 120)], [(0, 0)])
    ship = arcade.SpriteSolidColor(20, 20, 1000, 600, arcade.color.WHITE)
    prey = flock.tie(ship, Prey(("hunter",), radius=10))
    catches = Catches()
    flock.set_handler(PREY_CAUGHT, catches.on_prey_caught)
    start = float(np.hypot(1000 - 100, 600 - 100))  # 1,000 px: 20 perception radii
    first = None
    for step in range(600):
        flock.step(DT)
        if catches.seen and first is None:
            first = step
    assert first is not None and first * DT < start / 150 + 2.0  # about the straight run
    prey_seen, hunter, x, y = catches.seen[0]
    assert prey_seen == prey and hunter in hunters.tolist() and (x, y) == (1000.0, 600.0)
    assert flock.tied(prey_seen) is ship
    # The fish does not hunt (chase_weight 0, not named by the prey): it swam its own way.
    assert np.hypot(*(flock.positions[flock.store.row(int(fish[0]))] - (1000, 600))) > 300
    # A hunter rests its catch_cooldown after each catch: at most one catch a second each.
    per_hunter = {h: sum(1 for c in catches.seen if c[1] == h) for h in hunters.tolist()}
    assert max(per_hunter.values()) <= (600 - first) * DT / HUNTER.catch_cooldown + 1


def test_hunters_lead_a_moving_prey() -> None:
    """They aim where it will be: ahead of a prey crossing their path."""
    flock = shoal.install(FlockConfig(1200, 800, seed=2), [HUNTER])
    (hunter,) = flock.spawn("hunter", [(600, 100)], [(0, 0)])
    flock.create_entity(Position(300, 500), Velocity(150, 0), Prey())
    flock.step(DT)
    vx, vy = flock.velocities[flock.store.row(int(hunter))]
    # From rest it heads straight for its aim: (450, 500), where the prey will be in 1 s
    # (the longest prediction), not (300, 500), where it is: dx/dy = -150/400, not -300/400.
    assert vy > 0 and vx / vy == pytest.approx(-150 / 400, abs=0.02)


@pytest.mark.slow
def test_a_prey_for_others_is_not_hunted() -> None:
    flock = shoal.install(FlockConfig(800, 600, seed=3), [HUNTER, FISH])
    flock.spawn("hunter", [(100, 100)], [(0, 0)])
    ship = arcade.SpriteSolidColor(20, 20, 700, 500, arcade.color.WHITE)
    flock.tie(ship, Prey(("fish",)))  # fish do not chase (chase_weight 0)
    catches = Catches()
    flock.set_handler(PREY_CAUGHT, catches.on_prey_caught)
    for _ in range(240):
        flock.step(DT)
    assert catches.seen == []
    assert np.hypot(*(flock.positions[0] - (700, 500))) > 300


def test_prey_refuses_bad_values() -> None:
    with pytest.raises(ValueError, match=r"Prey: radius = -1 must be >= 0"):
        Prey(radius=-1)
    with pytest.raises(ValueError, match=r"Prey: species = 'fish' must be a tuple"):
        Prey("fish")  # type: ignore[arg-type]


def test_query_filters_by_species() -> None:
    flock = shoal.install(FlockConfig(800, 600, seed=3), [HUNTER, FISH])
    hunters = flock.scatter("hunter", 5, centre=(400, 300), radius=50)
    fish = flock.scatter("fish", 7, centre=(400, 300), radius=50)
    assert sorted(flock.query(400, 300, 100, species="hunter").tolist()) == sorted(hunters.tolist())
    assert sorted(flock.query(400, 300, 100, species="fish").tolist()) == sorted(fish.tolist())
    assert len(flock.query(400, 300, 100)) == 12
    with pytest.raises(ValueError, match=r"query: species: unknown species 'eel'"):
        flock.query(400, 300, 100, species="eel")
