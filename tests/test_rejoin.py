"""Rejoining (`systems/seeking/rejoin.py`, issue 18 item 4): a calm boid steers towards the
other schools of its species within its rejoin radius, if they hold at least a third of the
fish of its own; a split school comes together again."""

import numpy as np

from shoal.components import Species
from shoal.systems import FlockConfig, install
from shoal.systems.core.species_table import SpeciesTable
from shoal.systems.metrics import group_count
from shoal.systems.seeking.rejoin import add_rejoining

from worlds import scratch_world

WORLD = (True, 2000.0, 2000.0)  # a torus
SPECIES = Species("fish", separation_radius=20.0, rejoin_weight=0.5, rejoin_radius=600.0)


def _school(centre: tuple[float, float], count: int) -> np.ndarray:
    """`count` fish 10 px apart in a row: one school (linked within 40 px)."""
    return np.array([(centre[0] + 10.0 * k, centre[1]) for k in range(count)])


def _pulls(positions: np.ndarray, calm: np.ndarray | None = None) -> np.ndarray:
    table = SpeciesTable()
    table.add(SPECIES)
    pulls = np.zeros_like(positions)
    calm = np.ones(len(positions), bool) if calm is None else calm
    species = np.zeros(len(positions), np.int64)
    add_rejoining(positions, species, table.params, calm, WORLD, pulls)
    return pulls


def test_two_schools_out_of_sight_draw_each_other() -> None:
    left, right = _school((500.0, 1000.0), 10), _school((1000.0, 1000.0), 10)
    pulls = _pulls(np.vstack((left, right)))
    strength = SPECIES.rejoin_weight * SPECIES.max_speed
    assert np.allclose(np.linalg.norm(pulls, axis=1), strength)
    assert np.all(pulls[:10, 0] > 0.99 * strength) and np.all(pulls[10:, 0] < -0.99 * strength)


def test_a_school_does_not_turn_for_a_straggler_but_the_straggler_rejoins() -> None:
    school, straggler = _school((500.0, 1000.0), 10), np.array([[900.0, 1200.0]])
    pulls = _pulls(np.vstack((school, straggler)))
    assert np.all(pulls[:10] == 0.0)  # one fish is under a third of ten
    towards = _school((500.0, 1000.0), 10).mean(axis=0) - straggler[0]
    assert pulls[10] @ towards > 0.99 * np.linalg.norm(pulls[10]) * np.linalg.norm(towards)


def test_nothing_draws_an_alarmed_fish_or_a_school_beyond_the_radius() -> None:
    left, right = _school((200.0, 1000.0), 10), _school((1000.0, 1000.0), 10)  # 710 px apart
    assert np.all(_pulls(np.vstack((left, right))) == 0.0)
    near = np.vstack((left, _school((500.0, 1000.0), 10)))
    calm = np.arange(20) >= 5  # the first five flee something
    pulls = _pulls(near, calm)
    assert np.all(pulls[:5] == 0.0) and np.all(np.linalg.norm(pulls[5:], axis=1) > 0.0)


def test_a_school_across_the_edge_of_a_torus_is_centred_on_the_edge() -> None:
    # A school from x = 1980 to 2070 (wrapped to 1980 ... 70): its centre is at the edge,
    # so the school at x = 400 is drawn to the left (the short way), not to the middle.
    edge = _school((1980.0, 1000.0), 10) % 2000.0
    pulls = _pulls(np.vstack((edge, _school((400.0, 1000.0), 10))))
    assert np.all(pulls[10:, 0] < 0.0)


def test_halves_out_of_sight_come_together_and_stay_apart_without_it() -> None:
    groups = {}
    for weight in (0.0, 0.5):
        with scratch_world():
            species = Species(
                "fish", perception_radius=60.0, separation_radius=20.0, alignment_weight=3.0,
                rejoin_weight=weight, rejoin_radius=800.0, min_speed=60.0, max_speed=90.0,
            )  # fmt: skip
            flock = install(FlockConfig(2000.0, 2000.0, "wrap", seed=1), [species])
            halves = np.vstack((_school((600.0, 1000.0), 8), _school((1200.0, 1000.0), 8)))
            heading = np.array([[-60.0, 0.0]] * 8 + [[60.0, 0.0]] * 8)  # swimming apart
            flock.spawn("fish", halves, heading)
            for _ in range(600):  # 10 s
                flock.step()
            groups[weight] = group_count(flock.positions, 40.0, (2000.0, 2000.0))
    assert groups[0.0] >= 2 and groups[0.5] == 1, groups
