"""The re-aiming's compiled search (`obstacles/goals_kernel.py`) finds the chases and flights
that the numpy search it replaced found, written out here: the same rows, in the same order,
with the same prey and the same threats, in a box and on a torus."""

import math

import numpy as np
import pytest

from shoal.components import Circle, Rect
from shoal.systems.core.species_table import N_PARAMS, P_FEAR_RADIUS, P_LOOK_AHEAD, P_MAX_SPEED
from shoal.systems.obstacles.field import ObstacleField, blocked, compile_field
from shoal.systems.obstacles.goals_kernel import blocked_chases, blocked_flights

WIDTH, HEIGHT = 800.0, 600.0
MARGIN = 6.0


def obstacles(rng: np.random.Generator) -> ObstacleField:
    """Thirty circles and rotated boxes over the world, some across its edges."""
    shapes: list[Circle | Rect] = []
    for _ in range(15):
        shapes.append(Circle(rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT), rng.uniform(8, 40)))
        shapes.append(
            Rect(rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT), rng.uniform(10, 90),
                 rng.uniform(6, 40), rng.uniform(0, 180))
        )  # fmt: skip
    return compile_field(shapes)


def scene(seed: int) -> tuple[np.random.Generator, ObstacleField, np.ndarray]:
    """A generator seeded `seed`, the obstacles it made and 600 boids' positions."""
    rng = np.random.default_rng(seed)
    field = obstacles(rng)
    positions = np.column_stack((rng.uniform(0, WIDTH, 600), rng.uniform(0, HEIGHT, 600)))
    return rng, field, positions


def short_way(offsets: np.ndarray, wrap: bool) -> np.ndarray:
    if not wrap:
        return offsets
    size = np.array([WIDTH, HEIGHT])
    wrapped: np.ndarray = offsets - np.rint(offsets / size) * size
    return wrapped


def numpy_chases(
    targets: np.ndarray, positions: np.ndarray, wrap: bool, field: ObstacleField
) -> tuple[np.ndarray, np.ndarray]:
    rows = np.flatnonzero(targets >= 0)
    prey = targets[rows]
    starts = positions[rows]
    hit = blocked(field, starts, starts + short_way(positions[prey] - starts, wrap))
    return rows[hit], prey[hit]


def numpy_flights(
    goals: np.ndarray, positions: np.ndarray, species: np.ndarray, params: np.ndarray,
    threats: np.ndarray, fears: np.ndarray, wrap: bool, field: ObstacleField,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    rows = np.flatnonzero((goals[:, 0] != 0.0) | (goals[:, 1] != 0.0))
    kinds = species[rows]
    away = short_way(positions[rows][:, None, :] - threats[None, :, :], wrap)
    distance = np.hypot(away[..., 0], away[..., 1])
    fear = params[kinds, P_FEAR_RADIUS]
    distance[~fears[:, kinds].T | (distance >= fear[:, None])] = math.inf
    nearest = np.argmin(distance, axis=1)
    found = np.isfinite(distance[np.arange(len(rows)), nearest])
    rows, nearest, kinds = rows[found], nearest[found], kinds[found]
    heading = away[np.flatnonzero(found), nearest]
    length = np.hypot(*heading.T)
    heading = heading / np.where(length > 0.0, length, 1.0)[:, None]
    reach = params[kinds, P_MAX_SPEED] * params[kinds, P_LOOK_AHEAD] + MARGIN
    starts = positions[rows]
    hit = blocked(field, starts, starts + heading * reach[:, None])
    return rows[hit], nearest[hit]


def species_params() -> np.ndarray:
    """Three species: fish (fear 110 px), minnows (fear 60 px), sharks (fear nothing)."""
    params = np.zeros((3, N_PARAMS))
    params[:, P_FEAR_RADIUS] = (110.0, 60.0, 0.0)
    params[:, P_MAX_SPEED] = (90.0, 140.0, 120.0)
    params[:, P_LOOK_AHEAD] = (0.8, 0.5, 1.0)
    return params


@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_the_same_blocked_chases(seed: int, wrap: bool) -> None:
    rng, field, positions = scene(seed)
    n = len(positions)
    targets = np.where(rng.random(n) < 0.3, rng.integers(0, n, n), -1)
    rows, prey = blocked_chases(targets, positions, (wrap, WIDTH, HEIGHT), field.geometry)
    expected_rows, expected_prey = numpy_chases(targets, positions, wrap, field)
    assert len(expected_rows) > 10  # the scene blocks some chases, not all
    assert len(expected_rows) < np.count_nonzero(targets >= 0)
    np.testing.assert_array_equal(rows, expected_rows)
    np.testing.assert_array_equal(prey, expected_prey)


@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_the_same_blocked_flights(seed: int, wrap: bool) -> None:
    rng, field, positions = scene(seed)
    n = len(positions)
    species = rng.integers(0, 3, n)
    species[:4] = 2  # four sharks at least
    params = species_params()
    # Fish flee sharks, minnows flee fish and sharks; a predator entity scares the fish.
    feared = np.zeros((3, 3), bool)  # [threat species, fearful species]
    feared[2, 0] = feared[2, 1] = feared[0, 1] = True
    predators = np.array([[WIDTH / 2, HEIGHT / 2]])
    predator_fears = np.array([[True, False, False]])
    positions[10], species[10] = positions[2], 0  # a fish on a shark: no way away from it
    goals = np.zeros((n, 4))
    goals[rng.random(n) < 0.5, 0] = 1.0
    goals[rng.random(n) < 0.2, 1] = -1.0
    goals[10, 0] = 1.0
    rows, nearest, threats = blocked_flights(
        goals, positions, species, params, feared, predators, predator_fears, MARGIN,
        (wrap, WIDTH, HEIGHT), field.geometry,
    )  # fmt: skip
    # The threats: the boids of a feared species in row order, then the predators.
    threat_species = np.asarray(feared.any(axis=1))
    threat_rows = np.flatnonzero(threat_species[species])
    np.testing.assert_array_equal(threats, np.vstack((positions[threat_rows], predators)))
    fears = np.vstack((feared[species[threat_rows]], predator_fears))
    expected_rows, expected_nearest = numpy_flights(
        goals, positions, species, params, threats, fears, wrap, field
    )
    assert len(expected_rows) > 10
    np.testing.assert_array_equal(rows, expected_rows)
    np.testing.assert_array_equal(nearest, expected_nearest)


def test_no_flight_no_threats_looked_for() -> None:
    """No row flees: nothing is found, and no threat listed."""
    field = obstacles(np.random.default_rng(0))
    positions = np.array([[100.0, 100.0], [200.0, 200.0]])
    rows, nearest, threats = blocked_flights(
        np.zeros((2, 4)), positions, np.array([0, 2]), species_params(),
        np.ones((3, 3), bool), np.zeros((0, 2)), np.zeros((0, 3), bool), MARGIN,
        (False, WIDTH, HEIGHT), field.geometry,
    )  # fmt: skip
    assert len(rows) == len(nearest) == len(threats) == 0


def test_a_tie_flees_the_first_threat() -> None:
    """A fish midway between two sharks flees the first: away from it, into the wall on
    the other side (fleeing the second, its way would be free)."""
    field = compile_field([Rect(450.0, 300.0, 10.0, 100.0)])
    positions = np.array([[300.0, 300.0], [500.0, 300.0], [400.0, 300.0]])
    species = np.array([2, 2, 0])
    goals = np.zeros((3, 4))
    goals[2, 0] = 1.0
    feared = np.zeros((3, 3), bool)
    feared[2, 0] = True
    rows, nearest, _ = blocked_flights(
        goals, positions, species, species_params(), feared, np.zeros((0, 2)),
        np.zeros((0, 3), bool), MARGIN, (False, WIDTH, HEIGHT), field.geometry,
    )  # fmt: skip
    np.testing.assert_array_equal(rows, [2])
    np.testing.assert_array_equal(nearest, [0])
