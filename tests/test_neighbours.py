"""The grid's neighbour sets equal brute force, in every corner case we could think of."""

import math

import esper
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shoal.components import Species
from shoal.systems import Flock, FlockConfig, NeighbourSystem, install

from brute import neighbour_sets, offsets
from worlds import scratch_world

W, H = 400.0, 300.0


def make_flock(
    positions: np.ndarray,
    velocities: np.ndarray,
    species: list[Species],
    boundary: str = "wrap",
    index: np.ndarray | None = None,
    size: tuple[float, float] = (W, H),
) -> Flock:
    config = FlockConfig(width=size[0], height=size[1], boundary=boundary, margin=10)
    flock = install(config, species)
    index = np.zeros(len(positions), np.int64) if index is None else index
    for k, sp in enumerate(species):
        rows = np.flatnonzero(index == k)
        if len(rows):
            flock.spawn(sp.name, positions[rows], velocities[rows])
    # Put the store rows back into the caller's order (spawn grouped them by species).
    order = np.concatenate([np.flatnonzero(index == k) for k in range(len(species))])
    assert np.array_equal(flock.positions, positions[order])
    return flock


def run_neighbour_stage() -> None:
    stage = esper.get_processor(NeighbourSystem)
    assert stage is not None
    stage.process()


def grid_sets(flock: Flock) -> list[list[int]]:
    run_neighbour_stage()
    return [sorted(flock.neighbours.of(i).tolist()) for i in range(len(flock))]


def check(flock: Flock, species: list[Species], boundary: str = "wrap") -> None:
    store = flock.store
    wrap = (flock.config.width, flock.config.height) if boundary == "wrap" else None
    expected = neighbour_sets(
        store.positions, store.velocities, species, flock.species.relations, store.species, wrap
    )
    assert grid_sets(flock) == expected


def random_cloud(
    rng: np.random.Generator, n: int, size: tuple[float, float] = (W, H)
) -> tuple[np.ndarray, np.ndarray]:
    pos = rng.uniform((0, 0), size, (n, 2))
    vel = rng.normal(0, 50, (n, 2))
    return pos, vel


@pytest.mark.slow
@pytest.mark.parametrize("boundary", ["wrap", "contain", "bounce"])
@pytest.mark.parametrize("seed", range(4))
def test_random_clouds_match_brute_force(boundary: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    pos, vel = random_cloud(rng, 600)
    sp = [Species("a", perception_radius=35, separation_radius=10, fov_degrees=250)]
    check(make_flock(pos, vel, sp, boundary), sp, boundary)


def test_coincident_boids_see_each_other() -> None:
    pos = np.array([[100.0, 100.0]] * 5 + [[200.0, 150.0]] * 3)
    vel = np.array([[10.0, 0.0]] * 8)
    sp = [Species("a", fov_degrees=90)]
    flock = make_flock(pos, vel, sp)
    check(flock, sp)
    assert len(flock.neighbours.of(0)) == 4


def test_boids_on_cell_borders_and_wrap_edges() -> None:
    radius = 25.0
    xs = np.array([0.0, radius, 2 * radius, W - radius, W - 1e-9, W / 2, 3 * radius - 1e-12])
    ys = np.array([0.0, radius, H - radius, H - 1e-9, H / 2, 2 * radius, 1e-9])
    pos = np.array([(x, y) for x in xs for y in ys])
    rng = np.random.default_rng(7)
    vel = rng.normal(0, 30, (len(pos), 2))
    sp = [Species("a", perception_radius=radius, separation_radius=5, fov_degrees=300)]
    flock = make_flock(pos, vel, sp)
    check(flock, sp)
    # A boid at x = 0 sees one at x = W - 1e-9 across the edge.
    corner = int(np.flatnonzero((pos[:, 0] == 0) & (pos[:, 1] == H / 2))[0])
    across = int(np.flatnonzero((pos[:, 0] == W - 1e-9) & (pos[:, 1] == H / 2))[0])
    vel_corner = flock.velocities[corner]
    d = offsets(pos, corner, (W, H))[across]
    if np.dot(vel_corner, d) >= math.cos(math.radians(150)) * np.linalg.norm(d) * np.linalg.norm(
        vel_corner
    ):
        assert across in flock.neighbours.of(corner)


@pytest.mark.parametrize("n", [0, 1])
def test_empty_and_single_flock(n: int) -> None:
    pos = np.full((n, 2), 50.0)
    vel = np.full((n, 2), 5.0)
    sp = [Species("a")]
    flock = make_flock(pos, vel, sp)
    run_neighbour_stage()
    assert flock.neighbours.counts.tolist() == [0] * n


def test_small_torus_visits_each_cell_once() -> None:
    # The world is only 1.5 perception radii wide: one or two cells per axis.
    rng = np.random.default_rng(3)
    size = (60.0, 90.0)
    pos, vel = random_cloud(rng, 80, size)
    sp = [Species("a", perception_radius=40, separation_radius=5, fov_degrees=360)]
    check(make_flock(pos, vel, sp, "wrap", size=size), sp)


def test_species_radii_views_and_caps() -> None:
    rng = np.random.default_rng(11)
    pos, vel = random_cloud(rng, 500)
    vel[::17] = 0.0  # standing boids see all round
    species = [
        Species("small", perception_radius=20, separation_radius=5, fov_degrees=120),
        Species(
            "big", perception_radius=60, separation_radius=10, fov_degrees=360, max_neighbours=5
        ),
        Species("blind", perception_radius=30, separation_radius=5, fov_degrees=0),
    ]
    index = rng.integers(0, 3, len(pos))
    flock = make_flock(pos, vel, species, "contain", index)
    check(flock, species, "contain")
    assert flock.neighbours.counts[flock.store.species == 1].max() <= 5


@pytest.mark.slow
@pytest.mark.fuzz
@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(0, 120),
    radius=st.floats(5, 150),
    fov=st.floats(0, 360),
    cap=st.integers(0, 6),
    wrap=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    snap=st.booleans(),
)
def test_property_matches_brute_force(
    n: int, radius: float, fov: float, cap: int, wrap: bool, seed: int, snap: bool
) -> None:
    with scratch_world():
        check_random(n, radius, fov, cap, wrap, seed, snap)


def check_random(
    n: int, radius: float, fov: float, cap: int, wrap: bool, seed: int, snap: bool
) -> None:
    rng = np.random.default_rng(seed)
    pos, vel = random_cloud(rng, n)
    if snap:  # on cell borders, and with duplicates
        pos = np.round(pos / radius) * radius % (W, H)
    sp = [
        Species(
            "a", perception_radius=radius, separation_radius=0, fov_degrees=fov, max_neighbours=cap
        )
    ]
    boundary = "wrap" if wrap else "contain"
    check(make_flock(pos, vel, sp, boundary), sp, boundary)


@pytest.mark.parametrize("boundary", ["wrap", "contain"])
def test_query_matches_brute_force(boundary: str) -> None:
    rng = np.random.default_rng(5)
    pos, vel = random_cloud(rng, 800)
    flock = make_flock(pos, vel, [Species("a")], boundary)
    wrap = (W, H) if boundary == "wrap" else None
    for x, y, r in [
        (0.0, 0.0, 30.0),
        (W / 2, H / 2, 80.0),
        (W - 1, 5.0, 200.0),
        (10, 10, 0.0),
        (-50.0, 20.0, 60.0),
        (123.4, 250.0, 1000.0),
    ]:
        probe = np.vstack([pos, [[x, y]]])
        d = offsets(probe, len(pos), wrap)[:-1]
        expected = np.flatnonzero((d * d).sum(axis=1) <= r * r)
        assert sorted(flock.query(x, y, r).tolist()) == sorted(flock.entities[expected].tolist())


def test_query_rejects_bad_input() -> None:
    flock = make_flock(np.zeros((1, 2)), np.zeros((1, 2)), [Species("a")])
    with pytest.raises(ValueError, match="radius"):
        flock.query(0, 0, -1)
    with pytest.raises(ValueError, match="x"):
        flock.query(math.nan, 0, 1)


def test_relations_match_brute_force_and_predators_are_seen_all_round() -> None:
    rng = np.random.default_rng(13)
    pos, vel = random_cloud(rng, 400)
    species = [
        Species("fish", perception_radius=40, separation_radius=5, fov_degrees=200),
        Species("shark", perception_radius=60, separation_radius=10, fov_degrees=120),
        Species("eel", perception_radius=30, separation_radius=5, fov_degrees=270),
    ]
    index = rng.integers(0, 3, len(pos))
    flock = make_flock(pos, vel, species, "wrap", index)
    flock.relate("fish", "shark", "flee")
    flock.relate("shark", "fish", "chase")
    flock.relate("eel", "fish", "avoid")
    flock.relate("fish", "eel", "ignore")
    check(flock, species)
    # A fish sees a shark right behind it.
    fish, shark = flock.spawn("fish", [[200.0, 100.0]], [[30.0, 0.0]])[0], flock.spawn(
        "shark", [[180.0, 100.0]], [[30.0, 0.0]])[0]  # fmt: skip
    run_neighbour_stage()
    assert shark in flock.neighbours_of(fish)
    assert fish in flock.neighbours_of(shark)


@pytest.mark.parametrize("boundary", ["wrap", "contain", "bounce"])
def test_a_crowd_gets_cells_half_the_radius_and_sees_the_same(boundary: str) -> None:
    # 1,200 boids in 20 cells of the radius: ~60 share a boid's cell, none holds over
    # CELL_SAMPLE. The grid halves its cells (a boid's 5 × 5 cells hold a third fewer
    # candidates than its 3 × 3) and every boid still sees exactly its brute-force set.
    rng = np.random.default_rng(5)
    size = (200.0, 150.0)
    pos, vel = random_cloud(rng, 1200, size)
    sp = [Species("a", perception_radius=35, separation_radius=10, fov_degrees=250)]
    flock = make_flock(pos, vel, sp, boundary, size=size)
    check(flock, sp, boundary)
    cells = flock.step_state.cells
    assert 35 / 2 <= min(cells.size_x, cells.size_y) < 35, (cells.size_x, cells.size_y)


@pytest.mark.parametrize(("n", "spot"), [(150, False), (300, True)])
def test_cells_stay_the_radius_wide_unless_halving_them_pays(n: int, spot: bool) -> None:
    # Uncrowded (~8 in a boid's cell): halving the cells would cost more visits than it
    # saves tests. Crowded on one spot (a cell of 300, read by sample): in smaller cells a
    # boid would see other boids than it sees now, so they stay.
    rng = np.random.default_rng(6)
    size = (200.0, 150.0)
    pos, vel = random_cloud(rng, n, size)
    if spot:
        pos = 100.0 + rng.uniform(-0.5, 0.5, (n, 2))
    sp = [Species("a", perception_radius=35, separation_radius=10)]
    flock = make_flock(pos, vel, sp, "wrap", size=size)
    run_neighbour_stage()
    cells = flock.step_state.cells
    assert min(cells.size_x, cells.size_y) >= 35, (cells.size_x, cells.size_y)
