"""Tests for shoal.systems.metrics: checked against closed forms and O(N²) brute force."""

import math
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shoal.systems.metrics import group_count, mean_nn_distance, milling, polarization

FloatArray = npt.NDArray[np.float64]


# --- brute-force references -----------------------------------------------------------------
def squared_distances(points: FloatArray, wrap_size: tuple[float, float] | None) -> FloatArray:
    """All pairwise squared distances, minimal image on a torus."""
    delta = points[:, None, :] - points[None, :, :]
    if wrap_size is not None:
        size = np.asarray(wrap_size)
        delta = delta - size * np.floor(delta / size + 0.5)
    squared: FloatArray = (delta**2).sum(axis=2)
    return squared


def brute_mean_nn(points: FloatArray, wrap_size: tuple[float, float] | None = None) -> float:
    d2 = squared_distances(points, wrap_size)
    np.fill_diagonal(d2, np.inf)
    return float(np.sqrt(d2.min(axis=1)).mean())


def brute_groups(
    points: FloatArray, radius: float, wrap_size: tuple[float, float] | None = None
) -> int:
    """Connected components by breadth-first search over the distance matrix."""
    linked = squared_distances(points, wrap_size) <= radius * radius
    seen = np.zeros(len(points), dtype=bool)
    groups = 0
    for start in range(len(points)):
        if seen[start]:
            continue
        groups += 1
        seen[start] = True
        frontier = [start]
        while frontier:
            i = frontier.pop()
            for j in np.flatnonzero(linked[i] & ~seen):
                seen[j] = True
                frontier.append(int(j))
    return groups


def ring(n: int, radius: float = 50.0, centre: tuple[float, float] = (0.0, 0.0)) -> FloatArray:
    angle = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    return np.column_stack([centre[0] + radius * np.cos(angle), centre[1] + radius * np.sin(angle)])


def tangents(points: FloatArray, centre: tuple[float, float] = (0.0, 0.0)) -> FloatArray:
    """Counter-clockwise unit tangents round `centre`."""
    offset = points - np.asarray(centre)
    unit: FloatArray = np.column_stack([-offset[:, 1], offset[:, 0]]) / np.hypot(*offset.T)[:, None]
    return unit


def cloud(seed: int, n: int, wrap_size: tuple[float, float] | None) -> FloatArray:
    """A random cloud: uniform, a third of it within 3 of a wall, and a few duplicates."""
    rng = np.random.default_rng(seed)
    width, height = wrap_size or (300.0, 200.0)
    points = rng.uniform((0.0, 0.0), (width, height), (n, 2))
    near_wall = rng.uniform(-3.0, 3.0, n)
    third = n // 3
    points[: third // 2, 0] = near_wall[: third // 2] % width
    points[third // 2 : third, 1] = near_wall[third // 2 : third] % height
    points[-5:] = points[:5]  # duplicates: nearest distance 0
    return points


# --- polarization -----------------------------------------------------------------------------
def test_polarization_parallel_is_one() -> None:
    speeds = np.linspace(0.5, 9.0, 50)[:, None]
    assert polarization(speeds * np.array([0.6, -0.8])) == pytest.approx(1.0, abs=1e-12)


def test_polarization_random_headings_is_near_zero() -> None:
    angle = np.random.default_rng(7).uniform(0.0, 2.0 * np.pi, 10_000)
    speed = np.random.default_rng(8).uniform(0.1, 5.0, 10_000)[:, None]
    velocities = speed * np.column_stack([np.cos(angle), np.sin(angle)])
    assert polarization(velocities) < 0.05


def test_polarization_opposite_groups_cancel() -> None:
    velocities = np.array([[3.0, 1.0]] * 20 + [[-6.0, -2.0]] * 20)
    assert polarization(velocities) == pytest.approx(0.0, abs=1e-12)


def test_polarization_uses_headings_not_speeds() -> None:
    # Headings at right angles: the mean unit vector is (0.5, 0.5), whatever the speeds.
    assert polarization(np.array([[100.0, 0.0], [0.0, 0.01]])) == pytest.approx(math.sqrt(0.5))


def test_polarization_ignores_boids_at_rest() -> None:
    velocities = np.array([[1.0, 1.0], [0.0, 0.0], [2.0, 2.0], [0.0, 0.0]])
    assert polarization(velocities) == pytest.approx(1.0, abs=1e-12)
    assert polarization(np.zeros((5, 2))) == 0.0
    assert polarization(np.zeros((0, 2))) == 0.0


# --- milling --------------------------------------------------------------------------------
def test_milling_circling_flock_is_one() -> None:
    positions = ring(64, centre=(300.0, 200.0))
    velocities = 4.0 * tangents(positions, (300.0, 200.0))
    assert milling(positions, velocities) == pytest.approx(1.0, abs=1e-9)
    assert milling(positions, -velocities) == pytest.approx(1.0, abs=1e-9)  # clockwise too


def test_milling_straight_swimming_is_low() -> None:
    positions = np.random.default_rng(3).uniform(0.0, 500.0, (2000, 2))
    velocities = np.tile([2.0, 0.5], (2000, 1))
    assert milling(positions, velocities) < 0.05


def test_milling_counter_rotating_halves_cancel() -> None:
    inner, outer = ring(40, radius=20.0), ring(40, radius=80.0)
    positions = np.vstack([inner, outer])
    velocities = np.vstack([tangents(inner), -tangents(outer)])
    assert milling(positions, velocities) == pytest.approx(0.0, abs=1e-9)


def test_milling_leaves_out_boids_at_centre_and_at_rest() -> None:
    positions = np.vstack([ring(32), [[0.0, 0.0]], ring(4, radius=10.0)])
    velocities = np.vstack([tangents(ring(32)), [[5.0, 0.0]], np.zeros((4, 2))])
    assert milling(positions, velocities) == pytest.approx(1.0, abs=1e-9)
    assert milling(positions, np.zeros_like(positions)) == 0.0
    assert milling(np.zeros((0, 2)), np.zeros((0, 2))) == 0.0
    assert milling([[1.0, 2.0]], [[1.0, 0.0]]) == 0.0  # a lone boid is at the centre


# --- mean_nn_distance -------------------------------------------------------------------------
@pytest.mark.parametrize("wrap_size", [None, (300.0, 200.0)])
@pytest.mark.parametrize("seed", range(6))
def test_mean_nn_distance_matches_brute_force(seed: int, wrap_size: tuple[float, float]) -> None:
    n = [2, 3, 17, 150, 400, 900][seed]
    points = cloud(seed, n, wrap_size)
    expected = brute_mean_nn(points, wrap_size)
    assert mean_nn_distance(points, wrap_size) == pytest.approx(expected, rel=1e-9, abs=1e-9)


@pytest.mark.slow
def test_mean_nn_distance_clustered_flock_matches_brute_force() -> None:
    # A dense school in a big world (the grid re-sizes its cells) plus a few strays.
    rng = np.random.default_rng(11)
    points = np.vstack([rng.normal(500.0, 8.0, (1500, 2)), rng.uniform(0.0, 1000.0, (20, 2))])
    for wrap_size in (None, (1000.0, 1000.0)):
        expected = brute_mean_nn(points, wrap_size)
        assert mean_nn_distance(points, wrap_size) == pytest.approx(expected, rel=1e-9)


def test_mean_nn_distance_wraps_the_short_way() -> None:
    points = np.array([[1.0, 50.0], [99.0, 50.0]])
    assert mean_nn_distance(points) == pytest.approx(98.0)
    assert mean_nn_distance(points, wrap_size=(100.0, 100.0)) == pytest.approx(2.0)
    # Positions outside the world are taken modulo its size.
    assert mean_nn_distance([[-1.0, 250.0], [101.0, -50.0]], (100.0, 100.0)) == pytest.approx(2.0)


@pytest.mark.parametrize("wrap_size", [None, (200.0, 300.0)])
def test_mean_nn_distance_square_lattice_is_spacing(wrap_size: tuple[float, float]) -> None:
    xs, ys = np.meshgrid(np.arange(20) * 10.0 + 5.0, np.arange(30) * 10.0 + 5.0)
    lattice = np.column_stack([xs.ravel(), ys.ravel()])
    assert mean_nn_distance(lattice, wrap_size) == pytest.approx(10.0)


def test_mean_nn_distance_degenerate_layouts() -> None:
    assert math.isnan(mean_nn_distance(np.zeros((0, 2))))
    assert math.isnan(mean_nn_distance([[3.0, 4.0]]))
    assert mean_nn_distance(np.full((10, 2), 7.0)) == 0.0  # all on one spot
    line = np.column_stack([np.arange(50) * 2.5, np.zeros(50)])  # no area
    assert mean_nn_distance(line) == pytest.approx(2.5)


def test_mean_nn_distance_of_50k_random_boids_fits_poisson_theory() -> None:
    # For a uniform random (Poisson) scatter of density rho the mean is 1 / (2 sqrt(rho)).
    points = np.random.default_rng(5).uniform(0.0, 1000.0, (50_000, 2))
    expected = 0.5 / math.sqrt(50_000 / 1000.0**2)
    assert mean_nn_distance(points, (1000.0, 1000.0)) == pytest.approx(expected, rel=0.02)


coordinates = st.integers(min_value=-3, max_value=12).map(float)
small_clouds = st.lists(st.tuples(coordinates, coordinates), min_size=2, max_size=40)
worlds = st.one_of(st.none(), st.tuples(st.sampled_from([4.0, 10.0, 13.0]), st.just(10.0)))


@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(small_clouds, worlds)
def test_mean_nn_distance_on_integer_points_matches_brute_force(
    points: list[tuple[float, float]], wrap_size: tuple[float, float] | None
) -> None:
    # Integer points make ties, duplicates and boids exactly on cell walls common.
    array = np.array(points)
    expected = brute_mean_nn(array, wrap_size)
    assert mean_nn_distance(array, wrap_size) == pytest.approx(expected, rel=1e-9, abs=1e-9)


# --- group_count ------------------------------------------------------------------------------
@pytest.mark.parametrize("wrap_size", [None, (300.0, 200.0)])
@pytest.mark.parametrize("radius", [0.5, 4.0, 11.0, 40.0, 250.0])
@pytest.mark.parametrize("seed", range(3))
def test_group_count_matches_brute_force(
    seed: int, radius: float, wrap_size: tuple[float, float] | None
) -> None:
    points = cloud(seed, [60, 300, 700][seed], wrap_size)
    expected = brute_groups(points, radius, wrap_size)
    assert group_count(points, radius, wrap_size) == expected


@pytest.mark.slow
def test_group_count_dense_flock_matches_brute_force() -> None:
    # Crowded cells (many boids per cell) and a far stray that stretches the grid to its cap.
    rng = np.random.default_rng(4)
    school = np.vstack([rng.normal(100.0, 6.0, (1500, 2)), rng.normal(160.0, 3.0, (300, 2))])
    for points, wrap_size in [
        (school, None),
        (school, (200.0, 200.0)),
        (np.vstack([school, [[1e6, -1e6]]]), None),
    ]:
        for radius in (0.3, 1.0, 3.0):
            expected = brute_groups(points, radius, wrap_size)
            assert group_count(points, radius, wrap_size) == expected


def test_group_count_two_far_clusters() -> None:
    rng = np.random.default_rng(9)
    a = rng.normal((100.0, 100.0), 3.0, (200, 2))
    b = rng.normal((900.0, 700.0), 3.0, (200, 2))
    assert group_count(np.vstack([a, b]), radius=30.0) == 2


def test_group_count_on_a_torus_with_a_subnormal_radius() -> None:
    # 20 px / 3e-309 px is an infinite number of cells (found by test_chaos: a species with a
    # subnormal separation radius rejoining on a 20 px torus raised OverflowError).
    points = np.array([[1.0, 1.0], [1.0, 1.0], [5.0, 5.0]])
    assert group_count(points, 4.4e-309, (20.0, 20.0)) == 2
    assert group_count(points, 4.4e-309) == 2


def test_group_count_chain_is_one_group() -> None:
    chain = np.column_stack([np.arange(500) * 9.0, np.zeros(500)])
    assert group_count(chain, radius=10.0) == 1  # links of 0.9 radius
    assert group_count(chain, radius=8.9) == 500  # no link at all
    assert group_count(chain, radius=9.0) == 1  # exactly radius apart: linked


def test_group_count_joins_across_the_wrap_edge_only_with_wrap() -> None:
    points = np.array([[1.0, 50.0], [99.0, 50.0], [50.0, 1.0], [50.0, 98.0]])
    assert group_count(points, radius=5.0) == 4
    assert group_count(points, radius=5.0, wrap_size=(100.0, 100.0)) == 2


def test_group_count_small_cases() -> None:
    assert group_count(np.zeros((0, 2)), radius=1.0) == 0
    assert group_count([[5.0, 5.0]], radius=1.0) == 1
    assert group_count(np.full((20, 2), 3.0), radius=1e-6) == 1  # all on one spot
    assert group_count([[0.0, 0.0], [5.0, 0.0]], radius=100.0, wrap_size=(10.0, 10.0)) == 1


@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(small_clouds, st.sampled_from([0.5, 1.0, 2.0, 3.0, 5.0]), worlds)
def test_group_count_on_integer_points_matches_brute_force(
    points: list[tuple[float, float]], radius: float, wrap_size: tuple[float, float] | None
) -> None:
    # Integer points and radii make "exactly radius apart" links common.
    array = np.array(points)
    assert group_count(array, radius, wrap_size) == brute_groups(array, radius, wrap_size)


# --- input checks ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad",
    [np.zeros((4, 3)), np.zeros(4), np.zeros((2, 2, 2)), [[0.0, math.nan]], [[math.inf, 0.0]]],
)
def test_bad_points_raise(bad: npt.ArrayLike) -> None:
    with pytest.raises(ValueError, match="velocities"):
        polarization(bad)
    with pytest.raises(ValueError, match="positions"):
        milling(bad, np.zeros((1, 2)))
    with pytest.raises(ValueError, match="positions"):
        mean_nn_distance(bad)
    with pytest.raises(ValueError, match="positions"):
        group_count(bad, 1.0)


def test_non_numeric_points_raise() -> None:
    not_a_number: Any = "far"
    with pytest.raises(ValueError, match="positions"):
        mean_nn_distance([["a", "b"]])
    with pytest.raises(ValueError, match="radius"):
        group_count(np.zeros((3, 2)), not_a_number)


def test_milling_needs_matching_lengths() -> None:
    with pytest.raises(ValueError, match="same length"):
        milling(np.zeros((3, 2)), np.zeros((2, 2)))


@pytest.mark.parametrize("radius", [0.0, -1.0, math.nan, math.inf])
def test_bad_radius_raises(radius: float) -> None:
    with pytest.raises(ValueError, match="radius"):
        group_count(np.zeros((3, 2)), radius)


@pytest.mark.parametrize(
    "wrap_size", [(0.0, 10.0), (10.0, -1.0), (math.inf, 10.0), (10.0, math.nan), (10.0,), 5.0]
)
def test_bad_wrap_size_raises(wrap_size: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match="wrap_size"):
        mean_nn_distance(np.zeros((3, 2)), wrap_size)
    with pytest.raises(ValueError, match="wrap_size"):
        group_count(np.zeros((3, 2)), 1.0, wrap_size)
